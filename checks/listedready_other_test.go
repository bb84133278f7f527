package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestListedReadyEndsOnlyItsNodesFailures: two nodes' kubelet lines pasted together, one
// registering and becoming Ready, the other refused with 401s, and a `kubectl get nodes` that
// shows the first (and others) Ready but not the refused one (red team round 7, finding 3:
// case26). The list ends the failures of the node it shows Ready, never those of another node:
// the 401s stay a failure of ip-10-0-47-19 and the verdict is cause-found (TestListedReadyNodeEndsTestimony:
// lines of the node the list shows Ready, or naming no node, end).
func TestListedReadyEndsOnlyItsNodesFailures(t *testing.T) {
	log := "Nov 23 10:11:40 ip-10-0-31-5 kubelet[2990]: I1123 10:11:40.100001    2990 kubelet_node_status.go:73] \"Attempting to register node\" node=\"ip-10-0-31-5.ec2.internal\"\n" +
		"Nov 23 10:11:40 ip-10-0-31-5 kubelet[2990]: I1123 10:11:40.301221    2990 kubelet_node_status.go:76] \"Successfully registered node\" node=\"ip-10-0-31-5.ec2.internal\"\n" +
		"Nov 23 10:11:52 ip-10-0-31-5 kubelet[2990]: I1123 10:11:52.882001    2990 kubelet_node_status.go:493] \"Fast updating node status as it just became ready\"\n"
	for i := 0; i < 3; i++ {
		log += fmt.Sprintf("Nov 23 10:13:%02d ip-10-0-47-19 kubelet[3102]: E1123 10:13:%02d.551201    3102 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-47-19.ec2.internal\"\n", 44+7*i, 44+7*i)
	}
	metas := map[string]Meta{}
	for _, c := range Default().All() {
		metas[c.Meta.ID] = c.Meta
	}
	for _, tc := range []struct {
		name    string
		nodes   []evidence.Node
		want    Status
		verdict Verdict
	}{
		{"other nodes listed Ready", []evidence.Node{{Name: "ip-10-0-31-5.ec2.internal", Ready: true}, {Name: "ip-10-0-9-200.ec2.internal", Ready: true}}, StatusFail, VerdictCauseFound},
	} {
		ev := &evidence.Evidence{}
		withLogs(log)(ev)
		ev.Nodes = tc.nodes
		ev.Mark(evidence.KindNodes, "paste:test")
		fs := Run(Default().All(), ev)
		var f *Finding
		for i := range fs {
			if fs[i].ID == "runtime.unauthorized" {
				f = &fs[i]
			}
		}
		if f == nil || f.Status != tc.want {
			t.Fatalf("%s: runtime.unauthorized %+v, want %s", tc.name, f, tc.want)
		}
		if tc.want == StatusFail && (f.Resource != "ip-10-0-47-19.ec2.internal" || strings.Contains(f.Message, "Ready in the node list")) {
			t.Errorf("%s: resource %q message %q", tc.name, f.Resource, f.Message)
		}
		if d := Conclude(fs, metas, ev); d.Verdict != tc.verdict || d.MostLikelyCause != "runtime.unauthorized" {
			t.Errorf("%s: verdict %s, cause %q (%s)", tc.name, d.Verdict, d.MostLikelyCause, d.Summary)
		}
	}
}
