package ingest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/layout"
)

// TestPlumbedAWSOutput: under a command line that pipes the aws command's output into a program
// that changes it, or writes it to a file, the lines shown are not the aws command's output; a
// later `cat` of that file is; a pipe into head or a redirection of standard error leaves the
// output the aws command's.
func TestPlumbedAWSOutput(t *testing.T) {
	const ca = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwK"
	cases := []struct {
		name, paste string
		want        Type // of the last segment
		path, value string
	}{
		{"piped into base64 and openssl", "$ aws eks describe-cluster --name c --query cluster.certificateAuthority.data --output text | base64 -d | openssl x509 -noout -subject -fingerprint -sha256\n" +
			"subject=CN = kubernetes\nSHA256 Fingerprint=64:A8:44:6B:E0:D0:03:79:F4:6A:E6:29:CD:01:C7:B9:4A:87:F0:44:2C:CB:7F:33:1A:7D:E8:1C:BD:A9:3E:F9\n", "", "", ""},
		{"written to a file, then another command", "$ aws eks describe-cluster --name c --query cluster.certificateAuthority.data --output text > /tmp/ca.b64; base64 -d /tmp/ca.b64 | openssl x509 -noout -subject\n" +
			"subject=CN = kubernetes\n", "", "", ""},
		{"the file printed later", "[ec2-user@ip-10-0-3-17 ~]$ aws eks describe-cluster --name c --query 'cluster.certificateAuthority.data' --output text > /tmp/ca.b64; base64 -d /tmp/ca.b64 | openssl x509 -noout -subject\n" +
			"subject=CN = kubernetes\n[ec2-user@ip-10-0-3-17 ~]$ cat /tmp/ca.b64\n" + ca + "\n",
			"aws:eks/describe-cluster.json", "cluster.certificateAuthority.data", ca},
		{"piped into head", "$ aws eks describe-cluster --name c --query cluster.status --output text | head -1\nACTIVE\n",
			"aws:eks/describe-cluster.json", "cluster.status", "ACTIVE"},
		{"standard error redirected", "$ sudo aws eks describe-cluster --name c --query cluster.status --output text 2>&1\nACTIVE\n",
			"aws:eks/describe-cluster.json", "cluster.status", "ACTIVE"},
		{"aws with standard error redirected", "$ aws eks describe-cluster --name c --query cluster.status --output text 2>/dev/null\nACTIVE\n",
			"aws:eks/describe-cluster.json", "cluster.status", "ACTIVE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			segs := Segments([]byte(c.paste))
			if len(segs) == 0 {
				t.Fatal("no segments")
			}
			s := segs[len(segs)-1]
			if c.want == "" {
				for _, s := range segs {
					if strings.HasPrefix(string(s.Type), "aws:") {
						t.Fatalf("segment %d-%d read as %q (%s): the lines are not the aws command's output", s.First, s.Last, s.Type, s.Detail)
					}
				}
				return
			}
			if s.Type != c.want {
				t.Fatalf("type %q (%s), want %q", s.Type, s.Detail, c.want)
			}
			if got := fmt.Sprint(layout.LookupAny(s.value, c.path)); got != c.value {
				t.Errorf("%s = %q, want %q", c.path, got, c.value)
			}
		})
	}
}
