package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// setNotReady makes instance id's Node of the snapshot NotReady with the given Ready condition
// message and, when non-empty, extra taints.
func setNotReady(t *testing.T, snap, id, message string, taints ...map[string]any) {
	t.Helper()
	p := filepath.Join(snap, "kube", "nodes.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var list map[string]any
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	for _, it := range list["items"].([]any) {
		n := it.(map[string]any)
		spec := n["spec"].(map[string]any)
		if pid, _ := spec["providerID"].(string); strings.HasSuffix(pid, "/"+id) {
			n["status"].(map[string]any)["conditions"] = []any{map[string]any{"type": "Ready", "status": "False", "reason": "KubeletNotReady",
				"lastHeartbeatTime": "2026-11-20T09:59:40Z", "message": message}}
			all := []any{map[string]any{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"}}
			for _, tn := range taints {
				all = append(all, tn)
			}
			spec["taints"] = all
		}
	}
	b, _ = json.Marshal(list)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSnapshotNotReadyNode covers red team 11a #2 and #3: a snapshot's NotReady Node is judged
// by its own Ready condition and taints, and a NotReady node whose cause nothing shows is never
// an all-clear.
func TestSnapshotNotReadyNode(t *testing.T) {
	const id = "i-0a1b2c3d4e5f60001"
	snaps := filepath.Join(fixtures, "snapshots")
	network := "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"

	// the condition names the network: the CNI is the cause, exit 1
	snap := copyDir(t, filepath.Join(snaps, "healthy-al2023"))
	setNotReady(t, snap, id, network)
	code, out, _ := run("why-not-joining", id, "--snapshot", snap, "-o", "json")
	r := verdictOf(t, out)
	if code != ExitFindings || r.Diagnosis.Verdict != "joined" || r.Diagnosis.Node == nil || r.Diagnosis.Node.Ready ||
		r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.cni-not-ready" ||
		!strings.Contains(r.Diagnosis.Summary, "says the container network is not ready") {
		t.Errorf("NotReady, network: exit %d %+v", code, r.Diagnosis)
	}

	// a taint set on the Node (not in the user data) that aws-node does not tolerate is the cause
	snap = copyDir(t, filepath.Join(snaps, "healthy-al2023"))
	setNotReady(t, snap, id, network, map[string]any{"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"})
	ds := filepath.Join(snap, "kube", "aws-node.json")
	b, _ := os.ReadFile(ds)
	var d map[string]any
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	d["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["tolerations"] = []any{map[string]any{"key": "CriticalAddonsOnly", "operator": "Exists"}}
	b, _ = json.Marshal(d)
	os.WriteFile(ds, b, 0o644)
	code, out, _ = run("why-not-joining", id, "--snapshot", snap, "-o", "json")
	r = verdictOf(t, out)
	if code != ExitFindings || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.cni-not-ready" ||
		!strings.Contains(r.Diagnosis.Summary, "has taint nvidia.com/gpu=true:NoSchedule, which aws-node does not tolerate") {
		t.Errorf("NotReady, taint on the Node: exit %d %+v", code, r.Diagnosis)
	}

	// NotReady for a reason no check judges: why is not told, exit 3, and the condition quoted
	snap = copyDir(t, filepath.Join(snaps, "healthy-al2023"))
	setNotReady(t, snap, id, "PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s")
	code, out, _ = run("why-not-joining", id, "--snapshot", snap, "-o", "json")
	r = verdictOf(t, out)
	if code != ExitNothingChecked || r.Diagnosis.Verdict != "joined" || r.Diagnosis.MostLikelyCause != nil ||
		!strings.Contains(r.Diagnosis.Summary, "why it is not Ready could not be told") || !strings.Contains(r.Diagnosis.Summary, "PLEG is not healthy") {
		t.Errorf("NotReady, no cause: exit %d %+v", code, r.Diagnosis)
	}
	code, text, _ := run("why-not-joining", id, "--snapshot", snap)
	if code != ExitNothingChecked || !strings.Contains(text, "Why it is not Ready: not found") || !strings.Contains(text, "PLEG is not healthy") {
		t.Errorf("NotReady, no cause, text: exit %d\n%s", code, text)
	}
}
