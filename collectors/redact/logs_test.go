package redact

import (
	"encoding/base64"
	"strings"
	"testing"
)

// logLine is a kubelet journal line the signature catalog quotes as evidence, carrying extra
// text after the message, as the red-team reproducers (finding 2) write it.
func logLine(extra string) string {
	return `Jul 24 15:30:00 ip-10-0-12-34.us-west-2.compute.internal kubelet[2841]: E0724 15:30:00.118732    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-12-34.us-west-2.compute.internal" ` + extra
}

// TestSecretsQuotedInLogLines: every secret spelling that reached the reports in the red-team
// report's finding 2 is gone, and the text around it, which the diagnosis quotes, stays.
func TestSecretsQuotedInLogLines(t *testing.T) {
	const v = "Zq9SECRETVALUExyzw7/Kp3LmN8qRsTuVwXyZ0a1b2c3d"
	pem := "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAxSECRETVALUEkeymaterialxxxxxxxxxxxxxxxxxxxxxxxxxxx\n-----END RSA PRIVATE KEY-----\n"
	b64pem := base64.StdEncoding.EncodeToString([]byte(pem))
	presigned := `containerd[1500]: level=error msg="PullImage failed" error="unexpected status code https://prod-us-west-2-starport-layer-bucket.s3.us-west-2.amazonaws.com/abc/def?X-Amz-Security-Token=IQoJb3JpZ2luX2VjSECRETVALUEsessiontoken&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIAZZZZZZZZZZZZZZZZ%2F20260724%2Fus-west-2%2Fs3%2Faws4_request&X-Amz-Date=20260724T152958Z&X-Amz-SignedHeaders=host&X-Amz-Signature=deadbeefSECRETVALUEsig: 403 Forbidden"`
	// a DER RSA private key (PKCS#1: SEQUENCE, INTEGER 0, INTEGER n …) in base64, no PEM armour
	der := base64.StdEncoding.EncodeToString(append([]byte{0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00}, []byte("SECRETVALUE-modulus-and-primes-0123456789")...))
	for _, c := range []struct {
		name    string
		in      string
		secrets []string
		keep    []string
	}{
		{"presigned URL (containerd 403 layer pull)", presigned,
			[]string{"SECRETVALUE", "IQoJb3JpZ2lu", "deadbeef", "ASIAZZZZZZZZZZZZZZZZ"},
			[]string{"https://prod-us-west-2-starport-layer-bucket.s3.us-west-2.amazonaws.com/abc/def?X-Amz-Security-Token=", "X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Date=20260724T152958Z", "X-Amz-Signature=", ": 403 Forbidden"}},
		{"presigned URL, SigV2", "GET https://b.s3.amazonaws.com/k?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE&Expires=1700000000&Signature=vjbyPxybdZaNmGa%2ByT272YEAiv4%3D&x-amz-security-token=FwoGZXIvYXdzEFAKESECRETVALUE 403",
			[]string{"SECRETVALUE", "vjbyPxybdZaNmGa", "AKIAIOSFODNN7EXAMPLE"}, []string{"https://b.s3.amazonaws.com/k?AWSAccessKeyId=", "&Expires=1700000000&Signature=", " 403"}},
		{"X-Amz-Security-Token=", logLine("X-Amz-Security-Token=" + v), []string{"SECRETVALUE"}, []string{"X-Amz-Security-Token="}},
		{"X-Amz-Signature=", logLine("X-Amz-Signature=" + v), []string{"SECRETVALUE"}, []string{"X-Amz-Signature="}},
		{"X-Amz-Security-Token: header", logLine("X-Amz-Security-Token: " + v), []string{"SECRETVALUE"}, []string{"X-Amz-Security-Token: "}},
		{"JSON SecretAccessKey escaped in a log line", logLine(`cfg={\"SecretAccessKey\": \"` + v + `\"}`), []string{"SECRETVALUE"}, []string{`cfg={\"SecretAccessKey\": \"`}},
		{"JSON SecretAccessKey escaped, no space", logLine(`{\"AccessKeyId\":\"x\",\"SecretAccessKey\":\"` + v + `\",\"SessionToken\":\"` + v + `\"}`), []string{"SECRETVALUE"}, []string{`{\"AccessKeyId\":\"x\",\"SecretAccessKey\":\"`}},
		{"value holding backslashes", logLine(`cfg="{\"password\": \"Zq9\\SECRETVALUE\\\\x\"}"`), []string{"SECRETVALUE"}, []string{`cfg="{\"password\": \"`}},
		{"JSON SecretAccessKey with a \\u escape in the name", logLine(`{"Secret\u0041ccessKey": "` + v + `"}`), []string{"SECRETVALUE"}, []string{`{"Secret\u0041ccessKey": "`}},
		{"client-key-data: base64 PEM", logLine("client-key-data: " + b64pem), []string{"SECRETVALUE", b64pem[:40]}, []string{"client-key-data: "}},
		{"client-key-data: base64 PEM cut short", logLine("client-key-data: " + b64pem[:150]), []string{"SECRETVALUE", b64pem[:40]}, []string{"client-key-data: "}},
		{"base64 PEM cut short, unlabelled", logLine("data " + b64pem[:150]), []string{"SECRETVALUE"}, []string{"data "}},
		{"client-key-data: not PEM", logLine("client-key-data: " + v), []string{"SECRETVALUE"}, []string{"client-key-data: "}},
		{"client-key-data in a kubeconfig", "users:\n- name: x\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=\n    client-key-data: " + b64pem + "\n",
			[]string{"SECRETVALUE", b64pem[:40]}, []string{"client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=\n    client-key-data: "}},
		{"DER private key in base64", logLine("key=" + der), []string{der[:30]}, []string{"key="}},
		{"aws_secret_access_key<TAB>V", logLine("aws_secret_access_key\t" + v), []string{"SECRETVALUE"}, []string{"aws_secret_access_key\t"}},
		{"aws_session_token  V (aws configure list style)", logLine("aws_session_token    " + v), []string{"SECRETVALUE"}, []string{"aws_session_token    "}},
		{"URL-encoded aws_secret_access_key%3DV", logLine("q=aws_secret_access_key%3DZq9SECRETVALUExyzw7%2FKp3LmN8qRsTuVwXyZ0a1b2c3d"), []string{"SECRETVALUE", "Kp3LmN8"}, []string{"q=aws_secret_access_key%3D"}},
		{"URL-encoded JSON password", logLine("body=%7B%22password%22%3A%22Zq9SECRETVALUExyzw7%22%7D"), []string{"SECRETVALUE"}, []string{"body=%7B%22password%22%3A%22"}},
		{"X-Api-Key: header", logLine("X-Api-Key: " + v), []string{"SECRETVALUE"}, []string{"X-Api-Key: "}},
		{"X-Auth-Token: header", logLine(`headers="X-Auth-Token: ` + v + `"`), []string{"SECRETVALUE"}, []string{`headers="X-Auth-Token: `}},
		{"mysql -pV", logLine("mysql -uroot -p" + v + " -h db"), []string{"SECRETVALUE"}, []string{"mysql -uroot -p", " -h db"}},
		{"mysqldump -pV", "+ mysqldump -u admin -p'" + v + "' prod", []string{"SECRETVALUE"}, []string{"+ mysqldump -u admin -p", " prod"}},
		{"GitHub token ghp_", logLine("ghp_SECRETVALUEaaaaaaaaaaaaaaaaaaaaaaaaa"), []string{"SECRETVALUE"}, []string{"ghp_"}},
		{"GitHub fine-grained token", logLine("git clone https://github.com/o/r GITHUB=github_pat_11ABCDEFG0SECRETVALUE_abcdefghijklmnopqrstuvwxyz0123456789"), []string{"SECRETVALUE"}, []string{"git clone https://github.com/o/r GITHUB=github_pat_"}},
		{"AWS4-HMAC-SHA256 Authorization", "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20260724/us-west-2/sts/aws4_request, SignedHeaders=host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",
			[]string{"5d672d79c15b", "AKIAIOSFODNN7EXAMPLE"}, []string{"Authorization: AWS4-HMAC-SHA256 Credential=", "/20260724/us-west-2/sts/aws4_request, SignedHeaders=host;x-amz-date, Signature="}},
		{"Authorization: Basic", logLine(`Authorization: Basic dXNlcjpaZzlTRUNSRVRWQUxVRQ==`), []string{"dXNlcjpa"}, []string{"Authorization: Basic "}},
		{"Docker registry auth", logLine(`{"auths":{"r":{"auth":"dXNlcjpacTlTRUNSRVRWQUxVRXh5enc3L0twM0xtTjhxUnNUdVZ3WHlaMGExYjJjM2Q="}}}`), []string{"dXNlcjpa"}, []string{`{"auths":{"r":{"auth":"`}},
		{"Docker registry auth, escaped", logLine(`cfg="{\"auths\":{\"r\":{\"auth\":\"dXNlcjpacTlTRUNSRVRWQUxVRQ==\"}}}"`), []string{"dXNlcjpa"}, []string{`{\"auths\":{\"r\":{\"auth\":\"`}},
		{"Slack token", logLine("xoxb-123456-SECRETVALUE-abcdef"), []string{"SECRETVALUE"}, []string{"xoxb-"}},
		{"kubeadm bootstrap token", logLine("join with abcdef.0123456789abcdef please"), []string{"0123456789abcdef"}, []string{"join with abcdef.", " please"}},
		{"bootstrap token, upper-case secret part", logLine("abcdef.0123456789SECRETVAL"), []string{"SECRETVAL"}, []string{"abcdef."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := String(c.in)
			for _, s := range c.secrets {
				if strings.Contains(out, s) {
					t.Errorf("secret %q kept:\n in  %q\n out %q", s, c.in, out)
				}
			}
			if found := decodeAll(out); strings.Contains(found, "SECRETVALUE") || strings.Contains(found, "PRIVATE KEY-----\nMIIE") {
				t.Errorf("secret kept inside an encoding: %q", out)
			}
			for _, k := range c.keep {
				if !strings.Contains(out, k) {
					t.Errorf("lost %q:\n in  %q\n out %q", k, c.in, out)
				}
			}
			if strings.HasPrefix(c.in, "Jul 24") && !strings.Contains(out, `"Unable to register node with API server" err="Unauthorized" node="ip-10-0-12-34.us-west-2.compute.internal"`) {
				t.Errorf("the quoted message changed: %q", out)
			}
			if !strings.Contains(decodeAll(out), Marker) {
				t.Errorf("no marker: %q", out)
			}
			if again := String(out); again != out {
				t.Errorf("not idempotent:\n %q\n %q", out, again)
			}
		})
	}
}

// TestLogLinesKeepWhatTheDiagnosisQuotes: identifiers that look a little like the new secret
// shapes (dotted names, hyphenated headers, -p flags, base64 certificates) stay as they are.
func TestLogLinesKeepWhatTheDiagnosisQuotes(t *testing.T) {
	ca := base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nMIIC5zCCAc+gAwIBAgIBADANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl\n-----END CERTIFICATE-----\n"))
	der := base64.StdEncoding.EncodeToString([]byte{0x30, 0x82, 0x02, 0xe7, 0x30, 0x82, 0x01, 0xcf, 0xa0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48})
	for _, in := range []string{
		"certificate-authority-data: " + ca,
		"    client-certificate-data: " + ca,
		"--b64-cluster-ca " + der,
		logLine(`arn="arn:aws:iam::111122223333:role/eks-node-role" instance="i-0123456789abcdef0" endpoint="https://0123456789ABCDEF0123456789ABCDEF.gr7.us-west-2.eks.amazonaws.com"`),
		`time="2026-07-24T15:29:58Z" level=error msg="PullImage \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.5\" failed" error="failed to pull and unpack image: failed to resolve reference: unexpected status from HEAD request to https://602401143452.dkr.ecr.us-west-2.amazonaws.com/v2/eks/pause/manifests/3.5: 401 Unauthorized"`,
		"mkdir -p /etc/eks && docker run -p 8080:80 x && ssh -p 22 host && mysql -h db -P 3306 -u root",
		`E0724 1 reflector.go:138] k8s.io/client-go/informers/factory.go:134: Failed to watch *v1.Node: errors.NewAggregateErrorList`,
		"X-Amz-Date: 20260724T152958Z",
		"X-Amz-Content-Sha256: UNSIGNED-PAYLOAD",
		"X-Amz-Security-Token: ${AWS_SESSION_TOKEN}",
		"https://sts.us-west-2.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15",
		"aws_secret_access_key is not set in ~/.aws/credentials",
		"aws_session_token environment variable",
		"image 602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni:v1.18.1-eksbuild.1 pulled",
		"vpce-0123456789abcdef0-abc123de.s3.us-west-2.vpce.amazonaws.com",
		"module.eks_managed_node_group.aws_eks_node_group.this",
		`{"auth": "Webhook", "auths": {}}`,
		"image signature: invalid, signature=none",
		`Authorization: AWS4-HMAC-SHA256 Credential=x/20260724/us-west-2/sts/aws4_request, SignedHeaders=host;x-amz-date`,
	} {
		if out := String(in); out != in {
			t.Errorf("changed what is not a secret:\n in  %q\n out %q", in, out)
		}
	}
}
