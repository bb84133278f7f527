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
