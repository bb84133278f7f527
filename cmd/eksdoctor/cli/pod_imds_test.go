package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPodIMDSFailuresJudged: a pod's process that cannot read instance metadata is the
// instance.imds class however its client words it (hunt D): the node termination handler giving
// up on IMDS after its retries with a transport error (its IMDSv2 token request timed out first,
// and the IMDSv1 fallback timed out too), and the AWS SDK for Go v1's EC2MetadataError with
// status 401 (tokens required, the token PUT not reaching the pod), on one line or with the SDK's
// newline and tab escaped as a JSON log field carries them. IMDS answering with a server error
// (503, case 055) or 404 (a path or role that is not there) is no such failure.
func TestPodIMDSFailuresJudged(t *testing.T) {
	for _, tc := range []struct {
		name, body, cause string
		exit              int
	}{
		{"NTH IMDSv1 after token timeout", "2022/03/02 11:04:09 ??? Unable to retrieve an IMDSv2 token, continuing with IMDSv1 error=\"Put \\\"http://169.254.169.254/latest/api/token\\\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)\"\n" +
			"2022/03/02 11:04:27 ??? Unable to fetch metadata from IMDS error=\"Unable to parse metadata response: Unable to get a response from IMDS: Get \\\"http://169.254.169.254/latest/meta-data/instance-id\\\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)\"\n" +
			"2022/03/02 11:04:27 ??? aws-node-termination-handler arguments: \n", "instance.imds", 1},
		{"NTH IMDS dial refused", `{"level":"error","error":"Unable to parse metadata response: Unable to get a response from IMDS: Get \"http://169.254.169.254/latest/meta-data/placement/region\": dial tcp 169.254.169.254:80: connect: connection refused","time":"2024-01-01T00:00:00Z","message":"Unable to fetch metadata from IMDS"}` + "\n", "instance.imds", 1},
		{"SDK v1 401 escaped", `EC2MetadataError: failed to make EC2Metadata request\n\n\tstatus code: 401, request id: ` + "\n", "instance.imds", 1},
		{"SDK v1 401 one line", `E0808 10:01:02.000000       1 main.go:40] unable to get region: EC2MetadataError: failed to make EC2Metadata request status code: 401, request id: ` + "\n", "instance.imds", 1},
		{"NTH IMDS 503", `{"level":"error","error":"Metadata request received http status code: 503","time":"2023-11-01T20:45:08Z","message":"Unable to fetch metadata from IMDS"}` + "\n", "", 0},
		{"SDK v1 404", `EC2MetadataError: failed to make EC2Metadata request\n\tstatus code: 404, request id: ` + "\n", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.exit == 0 {
				// nothing to find: the text may be recognised or not, but nothing fails
				p := filepath.Join(t.TempDir(), "input.txt")
				if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
					t.Fatal(err)
				}
				if code, out, errOut := run("analyze", p); code == 1 {
					t.Fatalf("exit 1 (a failing finding), want none\n%s%s", out, errOut)
				}
				return
			}
			code, cause, errOut := analyzePaste(t, tc.body)
			if cause != tc.cause {
				t.Fatalf("most likely cause %q, want %q (exit %d)\n%s", cause, tc.cause, code, errOut)
			}
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s", code, errOut)
			}
		})
	}
}
