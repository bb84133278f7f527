package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// savedConsole is a serial console that shows nodeadm's fatal NodeConfig validation error.
const savedConsole = "[    5.123456] cloud-init[1234]: Cloud-init v. 22.2.2 running 'modules:final'\n" +
	`[   12.000000] nodeadm[2001]: {"level":"info","ts":1732449000.1,"caller":"init/init.go:50","msg":"Checking user is root.."}` + "\n" +
	`[   12.500000] nodeadm[2001]: {"level":"fatal","ts":1732449001.2,"caller":"nodeadm/main.go:36","msg":"Command failed","error":"could not find kubelet config: NodeConfig validation failed: Name is missing in cluster configuration"}` + "\n"

// notJoinedSnap copies healthy-al2023 with an empty Node list: the instance did not join and
// every AWS-side check passes, so the verdict rests on what else is read.
func notJoinedSnap(t *testing.T) string {
	t.Helper()
	snap := copyDir(t, "../../../fixtures/snapshots/healthy-al2023")
	os.WriteFile(filepath.Join(snap, "kube", "nodes.json"), []byte(`{"apiVersion":"v1","kind":"List","items":[]}`), 0o644)
	return snap
}

// diagnoseJSON runs why-not-joining on snap with -o json and returns the exit code and the
// decoded report.
func diagnoseJSON(t *testing.T, id, snap string) (int, map[string]any, string) {
	t.Helper()
	code, out, errOut := run("why-not-joining", id, "--snapshot", snap, "-o", "json")
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s\n%s", code, err, out, errOut)
	}
	return code, rep, out
}

// TestConsoleOutputSavedAsText (red team 11b #9): get-console-output saved with --output text
// (InstanceId, the output, the timestamp, tab-separated) or with --query Output --output text
// (the console alone) is read as the console; a console file that cannot be read at all is
// never an all-clear: the node-log checks it would have fed are unchecked and the run is
// inconclusive.
func TestConsoleOutputSavedAsText(t *testing.T) {
	const id = "i-0a1b2c3d4e5f60001"
	for name, content := range map[string]string{
		"query-output-text": savedConsole,
		"output-text":       id + "\t" + savedConsole + "\t2026-11-20T09:36:12+00:00\n",
	} {
		t.Run(name, func(t *testing.T) {
			snap := notJoinedSnap(t)
			os.WriteFile(filepath.Join(snap, "ec2", "get-console-output", id+".json"), []byte(content), 0o644)
			code, rep, out := diagnoseJSON(t, id, snap)
			if d, _ := rep["diagnosis"].(map[string]any); code != 1 || d == nil || d["mostLikelyCause"] != "bootstrap.nodeconfig-incomplete" {
				t.Fatalf("exit %d, want 1 with bootstrap.nodeconfig-incomplete: %.2000s", code, out)
			}
			if strings.Contains(out, "parse error") {
				t.Errorf("the console text is reported unreadable: %.2000s", out)
			}
		})
	}
	t.Run("another-instance", func(t *testing.T) {
		snap := notJoinedSnap(t)
		os.WriteFile(filepath.Join(snap, "ec2", "get-console-output", id+".json"), []byte("i-0ffffffffffffffff\t"+savedConsole+"\t2026-11-20T09:36:12+00:00\n"), 0o644)
		code, rep, out := diagnoseJSON(t, id, snap)
		if d, _ := rep["diagnosis"].(map[string]any); code != 3 || d == nil || d["verdict"] != "inconclusive" || !strings.Contains(out, "i-0ffffffffffffffff") {
			t.Fatalf("exit %d, want 3 naming the other instance and no cause from its console: %.2000s", code, out)
		}
	})
	t.Run("unreadable", func(t *testing.T) {
		snap := notJoinedSnap(t)
		os.WriteFile(filepath.Join(snap, "ec2", "get-console-output", id+".json"), []byte("<html><body>Service Unavailable</body></html>\n"), 0o644)
		code, rep, out := diagnoseJSON(t, id, snap)
		d, _ := rep["diagnosis"].(map[string]any)
		if code != 3 || d == nil || d["verdict"] != "inconclusive" || !strings.Contains(out, "get-console-output/"+id+".json") {
			t.Fatalf("exit %d verdict %v, want 3 inconclusive naming the console file: %.3000s", code, d["verdict"], out)
		}
		if u, _ := d["unchecked"].([]any); len(u) == 0 {
			t.Errorf("no unchecked checks: %.3000s", out)
		}
	})
}

// TestUserDataSavedAsText (red team 11b #14): the user data attribute saved with `--query
// UserData.Value --output text` (the base64 alone, "None" when there is none) or with
// `--output text` (the instance ID, then a USERDATA row) is read as the JSON form is; text that
// is neither is an input problem naming the file and the command's JSON output expected.
func TestUserDataSavedAsText(t *testing.T) {
	const id = "i-0a1b2c3d4e5f60008"
	src := "../../../fixtures/snapshots/bootstrap-ca-mismatch"
	var attr struct {
		UserData struct{ Value string }
	}
	b, err := os.ReadFile(filepath.Join(src, "ec2", "instance-user-data", id+".json"))
	if err != nil || json.Unmarshal(b, &attr) != nil || attr.UserData.Value == "" {
		t.Fatalf("fixture: %v", err)
	}
	v := attr.UserData.Value
	for name, content := range map[string]string{
		"query-text":       v + "\n",
		"query-text-crlf":  v + "\r\n",
		"output-text":      id + "\nUSERDATA\t" + v + "\n",
		"base64-wrapped":   wrap76(v),
		"output-text-crlf": id + "\r\nUSERDATA\t" + v + "\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			snap := copyDir(t, src)
			os.RemoveAll(filepath.Join(snap, "ec2", "describe-launch-template-versions")) // the attribute alone holds the user data
			os.WriteFile(filepath.Join(snap, "ec2", "instance-user-data", id+".json"), []byte(content), 0o644)
			code, rep, out := diagnoseJSON(t, id, snap)
			if d, _ := rep["diagnosis"].(map[string]any); code != 1 || d == nil || d["mostLikelyCause"] != "bootstrap.ca-mismatch" {
				t.Fatalf("exit %d, want 1 with bootstrap.ca-mismatch: %.2000s", code, out)
			}
			if strings.Contains(out, "instance-user-data/"+id+".json:") {
				t.Errorf("an input problem for the user data: %.3000s", out)
			}
		})
	}
	t.Run("other-instance", func(t *testing.T) {
		snap := copyDir(t, src)
		os.RemoveAll(filepath.Join(snap, "ec2", "describe-launch-template-versions"))
		os.WriteFile(filepath.Join(snap, "ec2", "instance-user-data", id+".json"), []byte("i-0ffffffffffffffff\nUSERDATA\t"+v+"\n"), 0o644)
		code, rep, out := diagnoseJSON(t, id, snap)
		if d, _ := rep["diagnosis"].(map[string]any); code == 1 || d == nil || d["mostLikelyCause"] == "bootstrap.ca-mismatch" || !strings.Contains(out, "i-0ffffffffffffffff") {
			t.Fatalf("exit %d: another instance's user data used, or not named: %.3000s", code, out)
		}
	})
	t.Run("neither", func(t *testing.T) {
		snap := copyDir(t, src)
		os.RemoveAll(filepath.Join(snap, "ec2", "describe-launch-template-versions"))
		os.WriteFile(filepath.Join(snap, "ec2", "instance-user-data", id+".json"), []byte("this is not it\n"), 0o644)
		code, _, out := diagnoseJSON(t, id, snap)
		if code != 3 || !strings.Contains(out, "describe-instance-attribute") || !strings.Contains(out, "instance-user-data/"+id+".json") {
			t.Fatalf("exit %d, want 3 naming the file and the command: %.3000s", code, out)
		}
	})
}

// wrap76 breaks s into lines of 76 characters, as base64(1) writes them.
func wrap76(s string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76] + "\n")
		s = s[76:]
	}
	return b.String() + s + "\n"
}

// TestTableOutputNamed (red team 11b #21): kubectl's table, -o name or custom-columns output
// saved as kube/nodes.json is named as such with the command expected, not "invalid character".
func TestTableOutputNamed(t *testing.T) {
	for name, content := range map[string]string{
		"wide": "NAME                                       STATUS   ROLES    AGE   VERSION\nip-10-0-1-23.eu-west-1.compute.internal   Ready    <none>   2d    v1.31.2-eks-94953ac\n",
		"name": "node/ip-10-0-1-23.eu-west-1.compute.internal\n",
	} {
		t.Run(name, func(t *testing.T) {
			snap := copyDir(t, "../../../fixtures/snapshots/healthy-al2023")
			os.WriteFile(filepath.Join(snap, "kube", "nodes.json"), []byte(content), 0o644)
			code, _, out := diagnoseJSON(t, "i-0a1b2c3d4e5f60001", snap)
			if code != 3 || !strings.Contains(out, "expected the output of `kubectl get nodes -o json`") || strings.Contains(out, "invalid character") {
				t.Fatalf("exit %d, want 3 naming kubectl's JSON output: %.3000s", code, out)
			}
		})
	}
}
