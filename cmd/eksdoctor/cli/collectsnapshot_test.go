package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/layout"
	"github.com/eksdoctor/eksdoctor/collectors/redact"
)

var collectScript = filepath.Join("..", "..", "..", "docs", "collect-snapshot.sh")

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIPPING: %s not installed", tool)
		}
	}
}

// TestCollectSnapshotCoversLayout: the script writes every file of the snapshot layout that
// `eksdoctor collect` writes (collectors/layout).
func TestCollectSnapshotCoversLayout(t *testing.T) {
	b, err := os.ReadFile(collectScript)
	if err != nil {
		t.Fatal(err)
	}
	script := string(b)
	for _, e := range layout.Entries {
		p := "save " + e.Path
		if e.Keyed() {
			p = `save "` + e.Path[:strings.IndexByte(e.Path, '<')] // the folder: the script fills the name
		}
		if !strings.Contains(script, p) {
			t.Errorf("docs/collect-snapshot.sh never writes %s (%s)", e.Path, e.Command)
		}
	}
}

func decodeUserData(t *testing.T, b64 string) string {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ = io.ReadAll(zr)
	}
	return string(raw)
}

// TestCollectSnapshotRedactsAsCollect: the script's redaction of instance user data and launch
// template versions removes what eksdoctor collect's removes from typical user data (access key
// IDs, secret/password/token assignments), plain and gzipped. collectors/redact covers more
// spellings and encodings than the script's perl subset.
func TestCollectSnapshotRedactsAsCollect(t *testing.T) {
	needTools(t, "bash", "perl")
	userData := "#!/bin/bash\nexport AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nexport aws_secret_access_key=wJalrXUtnFEMI/K7MDENG\n" +
		"DB_PASSWORD: 'hunter2'\ncurl -H \"token=abc.def\" https://x\n/etc/eks/bootstrap.sh prod --b64-cluster-ca LS0tLS1CRUdJTg== --apiserver-endpoint https://A.eks.amazonaws.com\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(userData))
	zw.Close()
	for name, b64 := range map[string]string{"plain": base64.StdEncoding.EncodeToString([]byte(userData)), "gzip": base64.StdEncoding.EncodeToString(gz.Bytes())} {
		// what collect's redaction (collectors/redact) removes from this user data must be gone
		// from the script's output too, and the bootstrap line must survive
		want := decodeUserData(t, layout.Lookup(mustDecodeJSON(t, redactedByCollect(t, b64)), "UserData.Value"))
		for _, secret := range []string{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI", "hunter2", "abc.def"} {
			if strings.Contains(want, secret) {
				t.Fatalf("collect's redaction keeps %s: %s", secret, want)
			}
		}
		dir := t.TempDir()
		attr := filepath.Join(dir, "attr.json")
		os.WriteFile(attr, []byte(`{
    "InstanceId": "i-0abc",
    "UserData": {
        "Value": "`+b64+`"
    }
}
`), 0o644)
		lt := filepath.Join(dir, "lt.json")
		os.WriteFile(lt, []byte(`{"LaunchTemplateVersions": [{"LaunchTemplateId": "lt-1", "LaunchTemplateData": {"ImageId": "ami-1", "UserData": "`+b64+`"}}]}`), 0o644)
		for _, f := range []string{attr, lt} {
			if out, err := exec.Command("bash", collectScript, "--redact-file", f).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v %s", name, err, out)
			}
			b, _ := os.ReadFile(f)
			var doc any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatalf("%s: the redacted file is not JSON: %v\n%s", name, err, b)
			}
			v := layout.Lookup(doc, "UserData.Value")
			if v == "" {
				v = layout.Lookup(doc, "LaunchTemplateVersions.0.LaunchTemplateData.UserData")
			}
			got := decodeUserData(t, v)
			for _, secret := range []string{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI", "hunter2", "abc.def"} {
				if strings.Contains(got, secret) {
					t.Errorf("%s %s: the script keeps %s that collect redacts:\n%s", name, filepath.Base(f), secret, got)
				}
			}
			if !strings.Contains(got, "/etc/eks/bootstrap.sh prod --b64-cluster-ca LS0tLS1CRUdJTg==") {
				t.Errorf("%s %s: the script damaged the bootstrap line:\n%s", name, filepath.Base(f), got)
			}
		}
	}
}

// redactedByCollect runs collect's redaction (collectors/redact) on an instance attribute file.
func redactedByCollect(t *testing.T, b64 string) []byte {
	files := map[string][]byte{"ec2/instance-user-data/i-0abc.json": []byte(`{"InstanceId": "i-0abc", "UserData": {"Value": "` + b64 + `"}}`)}
	redact.Files(files)
	return files["ec2/instance-user-data/i-0abc.json"]
}

func mustDecodeJSON(t *testing.T, b []byte) any {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// fakeTools writes aws and kubectl stand-ins: aws reports version and answers
// describe-cluster's endpoint query; kubectl reports server as its context's server.
func fakeTools(t *testing.T, awsVersion string, skeletonOK bool, endpoint, server string) string {
	dir := t.TempDir()
	skeleton := "exit 0"
	if !skeletonOK {
		skeleton = `echo "aws: error: argument operation: Invalid choice" >&2; exit 252`
	}
	os.WriteFile(filepath.Join(dir, "aws"), []byte(`#!/bin/sh
case "$*" in
  --version) echo "`+awsVersion+`";;
  *--generate-cli-skeleton*) `+skeleton+`;;
  *"describe-cluster"*"--query cluster.endpoint"*) echo "`+endpoint+`";;
  *) echo "unexpected aws $*" >&2; exit 1;;
esac
`), 0o755)
	os.WriteFile(filepath.Join(dir, "kubectl"), []byte(`#!/bin/sh
echo "`+server+`"
`), 0o755)
	return dir
}

func runScript(t *testing.T, bin string, args ...string) (int, string) {
	script, _ := filepath.Abs(collectScript)
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return code, string(out)
}

// TestCollectSnapshotRefusesOtherClusterAndOldCLI: the script checks the AWS CLI and refuses a
// kubectl context whose server is not the cluster's endpoint, before collecting anything.
func TestCollectSnapshotRefusesOtherClusterAndOldCLI(t *testing.T) {
	needTools(t, "bash", "perl")
	endpoint := "https://ABC.gr7.eu-west-1.eks.amazonaws.com"
	bin := fakeTools(t, "aws-cli/2.13.0 Python/3.11 Linux", false, endpoint, endpoint)
	if code, out := runScript(t, bin, "-c", "prod", "-i", "i-1"); code != 2 || !strings.Contains(out, "too old") || !strings.Contains(out, "list-access-entries") {
		t.Errorf("old AWS CLI: exit %d %s", code, out)
	}
	bin = fakeTools(t, "aws-cli/2.22.0 Python/3.12 Linux", true, endpoint, "https://OTHER.gr7.eu-west-1.eks.amazonaws.com")
	if code, out := runScript(t, bin, "-c", "prod", "-i", "i-1"); code != 3 || !strings.Contains(out, "refusing") || !strings.Contains(out, "OTHER") {
		t.Errorf("other cluster's context: exit %d %s", code, out)
	}
}
