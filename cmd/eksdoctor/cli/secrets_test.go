package cli

// Secrets quoted in node logs (the red-team report's finding 2): every format and stderr.

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

// TestLoggedSecretsReachNoOutput: a log line the signature catalog quotes as evidence carries a
// secret in each spelling finding 2 found leaking; no format, and not stderr, shows it, while the
// quoted message and the node name stay readable.
func TestLoggedSecretsReachNoOutput(t *testing.T) {
	const v = "Zq9SECRETVALUExyzw7/Kp3LmN8qRsTuVwXyZ0a1b2c3d"
	pem := "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAxSECRETVALUEkeymaterialxxxxxxxxxxxxxxxxxxxxxxxxxxx\n-----END RSA PRIVATE KEY-----\n"
	b64pem := base64.StdEncoding.EncodeToString([]byte(pem))
	presigned := `Jul 24 15:29:50 ip-10-0-1-23 containerd[1500]: level=error msg="PullImage failed" error="unexpected status code https://prod-us-west-2-starport-layer-bucket.s3.us-west-2.amazonaws.com/abc/def?X-Amz-Security-Token=IQoJb3JpZ2luX2VjSECRETVALUEsessiontoken&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIAZZZZZZZZZZZZZZZZ%2F20260724%2Fus-west-2%2Fs3%2Faws4_request&X-Amz-Signature=deadbeefSECRETVALUEsig: 403 Forbidden"` + "\n"
	for _, c := range []struct {
		name, paste string
		keep        string
	}{
		{"presigned URL", strings.Repeat(presigned, 3), "prod-us-west-2-starport-layer-bucket.s3.us-west-2.amazonaws.com"},
		{"escaped JSON SecretAccessKey", strings.Repeat(unauthorizedWith(`cfg={\"SecretAccessKey\": \"`+v+`\"}`), 3), "kubelet_node_status.go:96]"},
		{"\\u-escaped JSON SecretAccessKey", strings.Repeat(unauthorizedWith(`{"Secret\u0041ccessKey": "`+v+`"}`), 3), "kubelet_node_status.go:96]"},
		{"client-key-data base64 PEM", strings.Repeat(unauthorizedWith("client-key-data: "+b64pem), 3), "kubelet_node_status.go:96]"},
		{"tab-separated secret key", strings.Repeat(unauthorizedWith("aws_secret_access_key\t"+v), 3), "kubelet_node_status.go:96]"},
		{"URL-encoded secret key", strings.Repeat(unauthorizedWith("q=aws_secret_access_key%3DZq9SECRETVALUExyzw7%2FKp3LmN8"), 3), "kubelet_node_status.go:96]"},
		{"X-Api-Key header", strings.Repeat(unauthorizedWith("X-Api-Key: "+v), 3), "kubelet_node_status.go:96]"},
		{"X-Amz-Signature", strings.Repeat(unauthorizedWith("X-Amz-Signature="+v), 3), "kubelet_node_status.go:96]"},
		{"mysql -p", strings.Repeat(unauthorizedWith("mysql -uroot -p"+v), 3), "kubelet_node_status.go:96]"},
		{"GitHub token", strings.Repeat(unauthorizedWith("ghp_SECRETVALUEaaaaaaaaaaaaaaaaaaaaaaaaa"), 3), "kubelet_node_status.go:96]"},
		{"Slack token", strings.Repeat(unauthorizedWith("xoxb-123456-SECRETVALUE-abcdef"), 3), "kubelet_node_status.go:96]"},
		{"bootstrap token", strings.Repeat(unauthorizedWith("abcdef.0123456789SECRETVAL"), 3), "kubelet_node_status.go:96]"},
		{"Docker registry auth", strings.Repeat(unauthorizedWith(`{"auths":{"r":{"auth":"`+base64.StdEncoding.EncodeToString([]byte("user:"+v))+`"}}}`), 3), "kubelet_node_status.go:96]"},
		{"segment note on stderr", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"aws-auth token=Zq9SECRETVALUExyzw7\"\n  namespace: kube-system\ndata:\n  x: y\n", ""},
	} {
		for _, o := range []string{"table", "json", "markdown", "junit"} {
			var out, e bytes.Buffer
			cmd := NewRootCmd(&out, &e)
			cmd.SetIn(strings.NewReader(c.paste))
			cmd.SetArgs([]string{"analyze", "-", "-o", o, "--all"})
			cmd.Execute()
			for _, w := range []struct{ name, text string }{{"stdout", out.String()}, {"stderr", e.String()}} {
				for _, s := range []string{"SECRETVAL", "IQoJb3JpZ2lu", "deadbeef", "ASIAZZZZ", b64pem[:40], "dXNlcjpa"} {
					if strings.Contains(w.text, s) {
						t.Errorf("%s, -o %s: %s quotes %q:\n%.2000s", c.name, o, w.name, s, w.text)
					}
				}
			}
			if c.keep != "" && (!strings.Contains(out.String(), c.keep) || !strings.Contains(out.String(), "REDACTED")) {
				t.Errorf("%s, -o %s: the evidence is not quoted with its secret redacted:\n%.1500s", c.name, o, out.String())
			}
		}
	}
}
