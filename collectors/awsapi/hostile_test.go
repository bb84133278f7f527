package awsapi

// A misbehaving AWS endpoint (issue 12), served by awsfake: empty and non-AWS 200 answers,
// throttling on every call, HTTP 500, timeouts, a repeated next-page token, SDK log lines.

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/awsapi/awsfake"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

const hostileInstance = "i-0a1b2c3d4e5f60001"

func faulty(faults map[string]awsfake.Fault) func(*awsfake.Server) {
	return func(f *awsfake.Server) { f.Faults = faults }
}

func evidenceOf(t *testing.T, res *Result) *evidence.Evidence {
	t.Helper()
	snap := snapshot.FromFiles("aws:eu-west-1", res.Files)
	snap.Source = res.Source
	ev, err := snap.Evidence(hostileInstance, "")
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func statusOf(ev *evidence.Evidence, id string) (checks.Status, string) {
	for _, f := range checks.Run(checks.All(), ev) {
		if f.ID == id {
			return f.Status, f.Message
		}
	}
	return "", ""
}

func TestHostileEmptyOrForeign200IsAnError(t *testing.T) {
	for name, fault := range map[string]awsfake.Fault{
		"empty": {Status: 200, ContentType: "text/xml"},
		"html":  {Status: 200, ContentType: "text/html", Body: "<!DOCTYPE html><html><body>Proxy login</body></html>"},
		"other": {Status: 200, ContentType: "text/xml", Body: `<DescribeVpcsResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"/>`},
	} {
		t.Run(name, func(t *testing.T) {
			iamFault := fault
			if name == "other" {
				iamFault.Body = strings.ReplaceAll(fault.Body, "DescribeVpcs", "GetRole")
			}
			clients, _ := fakeClients(t, "healthy-al2023", faulty(map[string]awsfake.Fault{
				"ec2:DescribeInstanceAttribute": fault, "iam:GetInstanceProfile": iamFault}))
			res, err := Collect(context.Background(), clients, []string{hostileInstance}, Options{Region: "eu-west-1"})
			if err != nil {
				t.Fatal(err)
			}
			ud := string(res.Files["ec2/instance-user-data/"+hostileInstance+".json"])
			if !strings.Contains(ud, "(InvalidResponse) when calling the DescribeInstanceAttribute operation") {
				t.Errorf("user data file = %q", ud)
			}
			ev := evidenceOf(t, res)
			if ev.UserData != nil && ev.UserData.Empty {
				t.Error("an empty answer was read as 'the instance has no user data'")
			}
			if ev.Have(evidence.KindInstanceProfile) {
				t.Errorf("an empty GetInstanceProfile answer was taken as evidence: %+v", ev.InstanceProfile)
			}
			if st, msg := statusOf(ev, "iam.no-instance-profile"); st == checks.StatusFail {
				t.Errorf("iam.no-instance-profile fails on a bad answer: %s", msg)
			}
			if st, msg := statusOf(ev, "bootstrap.no-bootstrap"); st == checks.StatusFail {
				t.Errorf("bootstrap.no-bootstrap fails on a bad answer: %s", msg)
			}
		})
	}
}

func TestHostileHTMLDescribeInstancesIsNotInstanceNotFound(t *testing.T) {
	clients, _ := fakeClients(t, "healthy-al2023", faulty(map[string]awsfake.Fault{
		"ec2:DescribeInstances": {Status: 200, ContentType: "text/html", Body: "<html><body>captive portal</body></html>"}}))
	_, err := Collect(context.Background(), clients, []string{hostileInstance}, Options{Region: "eu-west-1"})
	if err == nil || strings.Contains(err.Error(), "instance not found") || !strings.Contains(err.Error(), "InvalidResponse") || !strings.Contains(err.Error(), "HTML") {
		t.Fatalf("err = %v; want the invalid answer named, not 'instance not found'", err)
	}
}

func TestHostileThrottledEveryCallNamesTheLastError(t *testing.T) {
	clients, _ := fakeClients(t, "healthy-al2023", func(f *awsfake.Server) { f.ThrottleEvery = 1 })
	// retries exhausted within the per-call timeout
	_, err := Collect(context.Background(), clients, []string{hostileInstance}, Options{Region: "eu-west-1", CallTimeout: 10 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "RequestLimitExceeded") || !strings.Contains(err.Error(), "Rate exceeded (after 8 attempts)") {
		t.Fatalf("err = %v", err)
	}
	// the per-call timeout fires first: which timeout, and the last error before it
	_, err = Collect(context.Background(), clients, []string{hostileInstance}, Options{Region: "eu-west-1", CallTimeout: 60 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "per-call timeout (--call-timeout 60ms)") || !strings.Contains(err.Error(), "RequestLimitExceeded: HTTP 503: Rate exceeded") {
		t.Fatalf("err = %v", err)
	}
}

func TestHostileHTTP500NamesTheStatus(t *testing.T) {
	clients, _ := fakeClients(t, "healthy-al2023", faulty(map[string]awsfake.Fault{
		"*": {Status: 500, ContentType: "text/html", Body: "<html>Internal Server Error</html>"}}))
	_, err := Collect(context.Background(), clients, []string{hostileInstance}, Options{Region: "eu-west-1", CallTimeout: 250 * time.Millisecond})
	if err == nil || strings.Contains(err.Error(), "the call did not finish within the per-call timeout\"") {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "last error after") || !strings.Contains(err.Error(), "500") {
		t.Fatalf("err = %v; want the HTTP 500 named", err)
	}
}

func TestHostileOverallTimeoutIsNamed(t *testing.T) {
	clients, _ := fakeClients(t, "healthy-al2023", func(f *awsfake.Server) { f.Latency = 300 * time.Millisecond })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := Collect(ctx, clients, []string{hostileInstance}, Options{Region: "eu-west-1", CallTimeout: 10 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "overall timeout (--timeout) expired") || strings.Contains(err.Error(), "per-call") {
		t.Fatalf("err = %v", err)
	}
}

func TestHostileRepeatedNextTokenStops(t *testing.T) {
	clients, fake := fakeClients(t, "healthy-al2023", func(f *awsfake.Server) {
		f.RepeatToken = map[string]bool{"ec2:DescribeSubnets": true, "eks:ListAccessEntries": true, "iam:ListAttachedRolePolicies": true}
	})
	done := make(chan struct{})
	var res *Result
	var err error
	go func() {
		res, err = Collect(context.Background(), clients, []string{hostileInstance}, Options{Region: "eu-west-1"})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("pagination never ended")
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ec2/describe-subnets.json", "eks/list-access-entries.json", "iam/list-attached-role-policies/prod-node-role.json"} {
		if b := string(res.Files[p]); !strings.Contains(b, "(PaginationLoop)") || !strings.Contains(b, `token "again" again on page 2`) {
			t.Errorf("%s = %q", p, b)
		}
	}
	n := 0
	for _, op := range fake.Operations() {
		if op == "ec2:DescribeSubnets" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("DescribeSubnets requested %d times, want 2", n)
	}
}

func TestHostileSDKLogLinesStayOffStderr(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	clients, _ := fakeClients(t, "healthy-al2023", func(f *awsfake.Server) { f.BadDate = true })
	_, cerr := Collect(context.Background(), clients, []string{hostileInstance}, Options{Region: "eu-west-1"})
	os.Stderr = saved
	w.Close()
	out, _ := io.ReadAll(r)
	if cerr != nil {
		t.Fatal(cerr)
	}
	if len(out) > 0 {
		t.Fatalf("the SDK wrote to stderr: %s", out)
	}
}
