package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHybridNodeAccessEntryType: a node whose Node object carries
// eks.amazonaws.com/compute-type=hybrid is a hybrid node, so its role's HYBRID_LINUX access entry
// is the right type; the same entry on an EC2 node of a managed node group fails.
func TestHybridNodeAccessEntryType(t *testing.T) {
	for _, hybrid := range []bool{true, false} {
		snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
		p := filepath.Join(snap, "eks", "describe-access-entry", "prod-node-role.json")
		b, _ := os.ReadFile(p)
		os.WriteFile(p, []byte(strings.Replace(string(b), `"EC2_LINUX"`, `"HYBRID_LINUX"`, 1)), 0o644)
		if hybrid {
			np := filepath.Join(snap, "kube", "nodes.json")
			b, _ = os.ReadFile(np)
			var nodes map[string]any
			json.Unmarshal(b, &nodes)
			for _, it := range nodes["items"].([]any) {
				md := it.(map[string]any)["metadata"].(map[string]any)
				if md["name"] == "ip-10-0-1-23.eu-west-1.compute.internal" {
					md["labels"].(map[string]any)["eks.amazonaws.com/compute-type"] = "hybrid"
				}
			}
			b, _ = json.Marshal(nodes)
			os.WriteFile(np, b, 0o644)
		}
		_, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", snap, "-o", "json")
		f, _ := findingsOf(t, out)
		got := f["auth.access-entry-type"]
		if len(got) != 1 {
			t.Fatalf("hybrid=%v: auth.access-entry-type = %+v (%s)", hybrid, got, errOut)
		}
		if want := map[bool]string{true: "pass", false: "fail"}[hybrid]; got[0].Status != want {
			t.Errorf("hybrid=%v: auth.access-entry-type %s (%s), want %s", hybrid, got[0].Status, got[0].Message, want)
		}
	}
}

// TestGapsOnlyOfApplicableChecks: an EC2 instance's report does not list evidence only checks
// not applicable to it would read (Fargate profiles' Pending pods), but still lists what its own
// checks miss and the informational gaps no check reads (control-plane logging).
func TestGapsOnlyOfApplicableChecks(t *testing.T) {
	_, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", filepath.Join(fixtures, "snapshots", "healthy-al2023"), "-o", "json")
	_, r := findingsOf(t, out)
	kinds := map[string]bool{}
	for _, g := range r.Gaps {
		kinds[g.Kind] = true
	}
	if kinds["kube:pending-pods"] || !kinds["logs:control-plane"] {
		t.Fatalf("gaps %+v (%s)", r.Gaps, errOut)
	}
	_, out, _ = run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", "healthy-al2023"), "-o", "json")
	if !strings.Contains(out, "kube:pending-pods") {
		t.Fatalf("a scan, where the Fargate checks apply, lost the pending-pods gap:\n%.2000s", out)
	}
}
