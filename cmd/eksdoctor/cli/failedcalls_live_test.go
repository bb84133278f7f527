package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/awsapi/awsfake"
)

// throttledForever answers every request for the IAM action op with its service's throttling
// error, so the SDK's retries never clear it.
func throttledForever(op string) awsfake.Fault {
	switch strings.SplitN(op, ":", 2)[0] {
	case "eks", "logs", "cloudtrail":
		return awsfake.Fault{Status: 429, ContentType: "application/x-amz-json-1.1", Body: `{"__type":"ThrottlingException","message":"Rate exceeded"}`}
	case "ec2":
		return awsfake.Fault{Status: 503, ContentType: "text/xml", Body: `<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors><RequestID>r</RequestID></Response>`}
	}
	return awsfake.Fault{Status: 400, ContentType: "text/xml", Body: `<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error><RequestId>r</RequestId></ErrorResponse>`}
}

// TestLiveFailedCallIsNamed (red team 12b #3): a call that failed for good — throttling that never
// cleared, a server error — is not a denial, so it was in no list of the report: the instance's
// user data attribute, throttled, was silently replaced by its launch template's, and the Auto
// Scaling group, throttled, left no trace. Each such call is an input problem naming the operation
// and its error.
func TestLiveFailedCallIsNamed(t *testing.T) {
	snap := withoutKube(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	for _, op := range []string{"ec2:DescribeInstanceAttribute", "autoscaling:DescribeAutoScalingGroups"} {
		t.Run(op, func(t *testing.T) {
			liveEnv(t, snap, func(s *awsfake.Server) { s.Faults = map[string]awsfake.Fault{op: throttledForever(op)} })
			t.Setenv("AWS_MAX_ATTEMPTS", "1")
			code, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "-o", "json", "--no-kube", "--call-timeout", "2s")
			if code == ExitOK {
				t.Errorf("exit 0 with %s unread", op)
			}
			var r struct {
				InputProblems []struct{ Path, Problem string } `json:"inputProblems"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("not JSON (%v): %s", err, out)
			}
			found := false
			for _, p := range r.InputProblems {
				if strings.Contains(p.Problem, op) && strings.Contains(p.Problem, "not read") {
					found = true
				}
			}
			if !found {
				t.Errorf("no input problem names the failed %s: %+v (%s)", op, r.InputProblems, errOut)
			}
			_, text, _ := run("why-not-joining", "i-0a1b2c3d4e5f60001", "--no-kube", "--call-timeout", "2s")
			if !strings.Contains(text, op) {
				t.Errorf("the table does not name the failed %s:\n%s", op, text)
			}
		})
	}
}
