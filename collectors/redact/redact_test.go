package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

func TestLeaksOfIssue12(t *testing.T) {
	for _, in := range []string{
		"aws configure set aws_secret_access_key " + secret,
		"aws configure set default.aws_session_token " + secret,
		"+ aws configure set aws_secret_access_key " + secret + " --profile x",
		"aws s3 ls --aws-secret-access-key " + secret,
		"aws s3 ls --aws-secret-access-key=" + secret,
		`{"AccessKeyId": "AKIAIOSFODNN7EXAMPLE", "SecretAccessKey": "` + secret + `", "SessionToken": "` + secret + `"}`,
		"credentials:\n  secretAccessKey: " + secret + "\n",
		"export AWS_SECRET_ACCESS_KEY=" + secret,
		"++ AWS_SECRET_ACCESS_KEY='" + secret + "'",
		"curl -fsSL https://deploy:" + secret + "@git.example.com/x.sh | bash",
		"DB_PASSWORD=\"" + secret + "\"",
		"Set-AWSCredential -AccessKey AKIAIOSFODNN7EXAMPLE -SecretKey " + secret,
		"Authorization: Bearer " + secret,
		"token=" + secret,
		"--bootstrap-token " + secret,
		"-----BEGIN RSA PRIVATE KEY-----\n" + secret + "\n-----END RSA PRIVATE KEY-----",
		"key: k8s-aws-v1.aHR0cHM6Ly9zdHMuYW1hem9uYXdzLmNvbS8_QWN0aW9uPUdldENhbGxlcklkZW50aXR5",
	} {
		out := String(in)
		if strings.Contains(out, secret) || strings.Contains(out, "AKIAIOSFODNN7EXAMPLE") || strings.Contains(out, "aHR0cHM6Ly9zdHMuYW1hem9u") {
			t.Errorf("leaked:\n in  %q\n out %q", in, out)
		}
		if !strings.Contains(out, Marker) {
			t.Errorf("no marker: %q", out)
		}
		if again := String(out); again != out {
			t.Errorf("not idempotent: %q → %q", out, again)
		}
	}
}

func TestKeepsWhatTheDiagnosisNeeds(t *testing.T) {
	ca := base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nMIIC5zCCAc+gAwIBAgIBADANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl\n-----END CERTIFICATE-----\n"))
	for _, in := range []string{
		"/etc/eks/bootstrap.sh prod --b64-cluster-ca " + ca + " --apiserver-endpoint https://ABC.gr7.eu-west-1.eks.amazonaws.com --kubelet-extra-args '--node-labels=a=b --max-pods=29'",
		"aws configure set region eu-west-1",
		`--aws-secret-access-key "$SECRET_FROM_SSM"`,
		"export AWS_SESSION_TOKEN=${TOKEN}",
		"imageCredentialProviderConfigFile: /etc/eks/image-credential-provider/config.json",
		"--image-credential-provider-config=/etc/eks/image-credential-provider/config.json --image-credential-provider-bin-dir /etc/eks/image-credential-provider",
		`E0724 15:30:02.1 1 x.go:1] "Unable to register node with API server" err="Unauthorized"`,
		"serverTLSBootstrap: true",
	} {
		if out := String(in); out != in {
			t.Errorf("changed what is not a secret:\n in  %q\n out %q", in, out)
		}
	}
}

func gz(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

func wrap(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	return b.String() + s + "\n"
}

func TestSecretsInsideEncodings(t *testing.T) {
	script := "#!/bin/bash\naws configure set aws_secret_access_key " + secret + "\n/etc/eks/bootstrap.sh prod\n"
	mime := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"//\"\n\n--//\nContent-Type: text/x-shellscript\nContent-Transfer-Encoding: base64\n\n" +
		wrap(base64.StdEncoding.EncodeToString(gz(script)), 76) + "--//\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hello\n--//--\n"
	for name, in := range map[string]string{
		"base64":              base64.StdEncoding.EncodeToString([]byte(script)),
		"gzip base64":         base64.StdEncoding.EncodeToString(gz(script)),
		"MIME part gzip b64":  mime,
		"user data of a MIME": base64.StdEncoding.EncodeToString(gz(mime)),
		"json value":          `{"UserData": {"Value": "` + base64.StdEncoding.EncodeToString([]byte(mime)) + `"}}`,
	} {
		out := String(in)
		if out == in {
			t.Errorf("%s: nothing redacted", name)
			continue
		}
		if found := decodeAll(out); strings.Contains(found, secret) {
			t.Errorf("%s: secret still inside the encoding", name)
		}
	}
	// the MIME structure is kept byte for byte outside the redacted part
	out := String(mime)
	if !strings.HasPrefix(out, mime[:strings.Index(mime, "\n\n--//")+len("\n\n--//\nContent-Type: text/x-shellscript\nContent-Transfer-Encoding: base64\n\n")]) ||
		!strings.HasSuffix(out, "--//\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hello\n--//--\n") {
		t.Errorf("MIME structure changed:\n%s", out)
	}
}

// decodeAll decodes every base64 run (and gzip) it can find, recursively, for the assertion.
func decodeAll(s string) string {
	var out strings.Builder
	out.WriteString(s)
	joined := strings.ReplaceAll(s, "\n", "")
	for _, run := range b64Inline.FindAllString(joined, -1) {
		raw, err := base64.StdEncoding.DecodeString(run)
		if err != nil {
			// unpadded, or cut short by a quoted line
			t := strings.TrimRight(run, "=")
			if len(t)%4 == 1 {
				t = t[:len(t)-1]
			}
			if raw, err = base64.RawStdEncoding.DecodeString(t); err != nil {
				continue
			}
		}
		if len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b {
			if zr, err := gzip.NewReader(bytes.NewReader(raw)); err == nil {
				var b bytes.Buffer
				b.ReadFrom(zr)
				raw = b.Bytes()
			}
		}
		out.WriteString(decodeAll(string(raw)))
	}
	return out.String()
}

func TestFilesRedactsJSONStringByString(t *testing.T) {
	console := "Cloud-init v. 22\n+ aws configure set aws_secret_access_key " + secret + "\n+ /etc/eks/bootstrap.sh prod\n"
	files := map[string][]byte{
		"ec2/get-console-output/i-1.json": []byte(`{"InstanceId": "i-1", "Output": ` + quote(console) + `, "Timestamp": "2026-07-24T16:00:00+00:00"}`),
		"iam/x.json":                      []byte(`{"Credentials": {"SecretAccessKey": "` + secret + `", "Expiration": 12345678901234567890}}`),
		"kube/aws-auth.yaml":              []byte("data:\n  password: " + secret + "\n"),
		"ec2/describe-vpcs.json":          []byte(`{"Vpcs": []}`),
	}
	Files(files)
	for p, b := range files {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s leaks: %s", p, b)
		}
	}
	if !bytes.Contains(files["iam/x.json"], []byte("12345678901234567890")) {
		t.Errorf("numbers changed: %s", files["iam/x.json"])
	}
	if string(files["ec2/describe-vpcs.json"]) != `{"Vpcs": []}` {
		t.Errorf("a file without secrets was rewritten: %s", files["ec2/describe-vpcs.json"])
	}
	if !bytes.Contains(files["ec2/get-console-output/i-1.json"], []byte(`/etc/eks/bootstrap.sh prod`)) {
		t.Errorf("console output lost: %s", files["ec2/get-console-output/i-1.json"])
	}
}

func quote(s string) string {
	b, _ := jsonMarshal(s)
	return string(b)
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func TestProseAndSettingsAreKept(t *testing.T) {
	for _, in := range []string{
		"MetadataOptions HttpEndpoint=enabled HttpTokens=required HttpPutResponseHopLimit=2",
		`err="getting credentials: exec: executable aws failed with exit code 255"`,
		"failed to get token: exit status 1",
		"point --image-credential-provider-config and --image-credential-provider-bin-dir at it",
	} {
		if out := String(in); out != in {
			t.Errorf("changed:\n in  %q\n out %q", in, out)
		}
	}
	for _, in := range []string{"password: hunter", "  token: abc", `x "password": "` + secret + `"`} {
		if out := String(in); !strings.Contains(out, Marker) {
			t.Errorf("not redacted: %q", in)
		}
	}
}

// TestMessageSeparatorAfterASecretIsKept (red team round 2, F10): a secret-looking setting in a
// path inside an error message loses its value, not the ": " that separates the message's parts.
func TestMessageSeparatorAfterASecretIsKept(t *testing.T) {
	in := "cannot read pathsec/nonexist_password=hunter2xyz: stat pathsec/nonexist_password=hunter2xyz: no such file or directory"
	want := "cannot read pathsec/nonexist_password=" + Marker + ": stat pathsec/nonexist_password=" + Marker + ": no such file or directory"
	if out := String(in); out != want {
		t.Errorf("\n got  %q\n want %q", out, want)
	}
}
