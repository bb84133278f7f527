package cli

import (
	"strings"
	"testing"
)

// TestKubeletJSONLoggingPastes (red team 10b #1, #16): a kubelet logging in JSON
// (--logging-format=json) gives the causes its text form gives — 401 on register or on the
// lease, its own Node not found for 20 minutes — dated by the records' "ts", and a Node named
// as klog.KObj ("node":{"name":…}) is the target of the verdict.
func TestKubeletJSONLoggingPastes(t *testing.T) {
	const node = "ip-192-168-10-20.us-west-2.compute.internal"
	rec := func(ts, caller, msg, rest string) string {
		return `{"ts":` + ts + `,"caller":"` + caller + `","msg":"` + msg + `"` + rest + "}\n"
	}
	for _, c := range []struct {
		name, paste, cause, verdict string
	}{
		{"register 401", rec("1718186463310.789", "kubelet/kubelet_node_status.go:96", "Unable to register node with API server", `,"err":"Unauthorized","node":{"name":"`+node+`"}`) +
			rec("1718186470310.789", "kubelet/kubelet_node_status.go:96", "Unable to register node with API server", `,"err":"Unauthorized","node":{"name":"`+node+`"}`),
			"runtime.unauthorized", "cause-found"},
		{"lease 401", rec("1718186463310.789", "nodelease/controller.go:145", "Failed to ensure lease exists, will retry", `,"err":"Unauthorized","interval":"7s"`) +
			rec("1718186470310.789", "nodelease/controller.go:145", "Failed to ensure lease exists, will retry", `,"err":"Unauthorized","interval":"7s"`),
			"runtime.unauthorized", ""},
		{"node not found", rec("1718186463310.789", "kubelet/kubelet.go:2448", "Error getting node", `,"err":"node \"`+node+`\" not found"`) +
			rec("1718187063310.789", "kubelet/kubelet.go:2448", "Error getting node", `,"err":"node \"`+node+`\" not found"`) +
			rec("1718187663310.789", "kubelet/kubelet.go:2448", "Error getting node", `,"err":"node \"`+node+`\" not found"`),
			"runtime.node-name-not-found", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, r, _, errOut := analyze(t, c.paste, "-")
			d := r.Diagnosis
			if code != ExitFindings || d.MostLikelyCause == nil || *d.MostLikelyCause != c.cause {
				t.Fatalf("exit %d, cause %v, want exit %d and %s\n%s", code, d.MostLikelyCause, ExitFindings, c.cause, errOut)
			}
			if c.verdict != "" && d.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s", d.Verdict, c.verdict)
			}
			if strings.Contains(errOut, "prose") {
				t.Errorf("read as prose: %s", errOut)
			}
		})
	}
	// the node registered, then its network never became ready: the verdict names it
	paste := rec("1718186461000.2", "kubelet/kubelet_node_status.go:76", "Successfully registered node", `,"v":0,"node":{"name":"`+node+`"}`) +
		rec("1718187061000.2", "kubelet/kubelet.go:2911", "Container runtime network not ready", `,"networkReady":"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"`) +
		rec("1718187661000.2", "kubelet/kubelet.go:2911", "Container runtime network not ready", `,"networkReady":"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"`)
	code, r, _, errOut := analyze(t, paste, "-")
	d := r.Diagnosis
	if code != ExitFindings || d.Verdict != "joined" || d.Node == nil || d.Node.Name != node || d.MostLikelyCause == nil || *d.MostLikelyCause != "runtime.cni-not-ready" {
		t.Fatalf("exit %d, verdict %s, node %+v, cause %v\n%s", code, d.Verdict, d.Node, d.MostLikelyCause, errOut)
	}
	if !strings.Contains(d.Summary, node) {
		t.Errorf("summary names no node: %q", d.Summary)
	}
}
