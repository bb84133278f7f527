package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// klogUnreachable is kubectl's stderr as collect-snapshot.sh saves it when the API server cannot
// be reached: client-go's klog lines first, then kubectl's error (red team 8a, case79).
const klogUnreachable = `E1124 14:09:58.123456   12345 memcache.go:265] couldn't get current server API group list: Get "https://x.gr7.eu-west-1.eks.amazonaws.com/api?timeout=32s": dial tcp 10.0.1.200:443: i/o timeout
Unable to connect to the server: dial tcp 10.0.1.200:443: i/o timeout
`

// TestNodesUnreadIsInconclusiveEverywhere (red team 8a, findings 7 and 10): when the cluster's
// Nodes were not read — kube/nodes.json holds kubectl's error, is absent, or no kube/ file was
// collected — nothing shows whether the instance joined. why-not-joining, analyze and scan agree:
// inconclusive, exit 3, naming what was not read; never "no cause found" (exit 0), "1 not
// joined" or "no cluster-wide problem".
func TestNodesUnreadIsInconclusiveEverywhere(t *testing.T) {
	const id = "i-0a1b2c3d4e5f60001"
	for _, tc := range []struct {
		name, reason string
		change       func(snap string)
	}{
		{"nodes.json holds kubectl's error", "Unable to connect to the server", func(snap string) {
			if err := os.WriteFile(filepath.Join(snap, "kube", "nodes.json"), []byte(klogUnreachable), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"no nodes.json", "not in snapshot (kube/nodes.json)", func(snap string) {
			if err := os.Remove(filepath.Join(snap, "kube", "nodes.json")); err != nil {
				t.Fatal(err)
			}
		}},
		{"no kube/", "not in snapshot (kube/nodes.json)", func(snap string) {
			if err := os.RemoveAll(filepath.Join(snap, "kube")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
		tc.change(snap)
		code, out, errOut := run("why-not-joining", id, "--snapshot", snap)
		flat := strings.Join(strings.Fields(out), " ")
		if code != ExitNothingChecked || !strings.Contains(flat, "Inconclusive.") || strings.Contains(flat, "No cause found") ||
			!strings.Contains(flat, tc.reason) || strings.Contains(flat, "parse error") {
			t.Errorf("%s: why-not-joining exit %d:\n%s%s", tc.name, code, out, errOut)
		}
		if tc.name != "no kube/" && !strings.Contains(flat, "whether the node registered is unknown") {
			t.Errorf("%s: why-not-joining does not say the registration is unknown:\n%s", tc.name, out)
		}
		code, out, errOut = run("analyze", snap)
		flat = strings.Join(strings.Fields(out), " ")
		if code != ExitNothingChecked || strings.Contains(flat, "1 not joined") || !strings.Contains(flat, "1 with no Node known") {
			t.Errorf("%s: analyze exit %d:\n%s%s", tc.name, code, out, errOut)
		}
		code, out, errOut = run("scan", "--cluster", "prod", "--snapshot", snap)
		flat = strings.Join(strings.Fields(out), " ")
		if code != ExitNothingChecked || strings.Contains(flat, "1 not joined") || !strings.Contains(flat, "1 with no Node known") ||
			strings.Contains(flat, "no cluster-wide problem") || !strings.Contains(flat, "the cluster-side checks could not run") || !strings.Contains(flat, tc.reason) {
			t.Errorf("%s: scan exit %d:\n%s%s", tc.name, code, out, errOut)
		}
	}
}

// TestSingleNodeIsNotTheNodeList (red team round 11b, finding 10): kube/nodes.json holding one
// Node (kubectl get node NAME -o json) of another instance does not show that this instance has
// none: scan counts it "with no Node known" (fleet nodesUnread set, no unjoined metric), exit 3,
// never "1 not joined".
func TestSingleNodeIsNotTheNodeList(t *testing.T) {
	snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	node := `{"apiVersion":"v1","kind":"Node","metadata":{"name":"ip-10-0-9-9.eu-west-1.compute.internal"},"spec":{"providerID":"aws:///eu-west-1a/i-0ffff0000000000ff"},
"status":{"nodeInfo":{"kubeletVersion":"v1.31.0"},"conditions":[{"type":"Ready","status":"True"}]}}`
	if err := os.WriteFile(filepath.Join(snap, "kube", "nodes.json"), []byte(node), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run("scan", "--cluster", "prod", "--snapshot", snap)
	flat := strings.Join(strings.Fields(out), " ")
	if code != ExitNothingChecked || strings.Contains(flat, "1 not joined") || !strings.Contains(flat, "1 with no Node known") {
		t.Errorf("scan exit %d:\n%s%s", code, out, errOut)
	}
	code, out, errOut = run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json")
	if code != ExitNothingChecked || !strings.Contains(out, `"nodesUnread": "kube/nodes.json holds one Node (ip-10-0-9-9.eu-west-1.compute.internal), not the cluster's Node list`) {
		t.Errorf("scan -o json exit %d:\n%s%s", code, out, errOut)
	}
}

// TestScanJSONSummaryWithNodesUnread (red team round 11b, finding 18): with the cluster's Nodes
// unread the scan's JSON summary agrees with the table ("N with no Node known") and the metrics
// (no eksdoctor_unjoined_instances): summary.unjoined is absent (unknown), summary.noNodeKnown
// counts the instances; with the Nodes read, unjoined is there and noNodeKnown absent.
func TestScanJSONSummaryWithNodesUnread(t *testing.T) {
	summary := func(snap string) (int, map[string]any) {
		code, out, errOut := run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json")
		var s struct {
			Summary map[string]any `json:"summary"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%v\n%s%s", err, out, errOut)
		}
		return code, s.Summary
	}
	snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	if err := os.WriteFile(filepath.Join(snap, "kube", "nodes.json"), []byte(klogUnreachable), 0o644); err != nil {
		t.Fatal(err)
	}
	code, s := summary(snap)
	if _, ok := s["unjoined"]; ok || s["noNodeKnown"] != 1.0 || code != ExitNothingChecked {
		t.Errorf("nodes unread: exit %d summary %v, want no unjoined and noNodeKnown 1", code, s)
	}
	// the Nodes read: the instance joined
	code, s = summary(copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023")))
	if _, ok := s["noNodeKnown"]; ok || s["unjoined"] != 0.0 || s["joined"] != 1.0 || code != ExitOK {
		t.Errorf("nodes read: exit %d summary %v", code, s)
	}
}
