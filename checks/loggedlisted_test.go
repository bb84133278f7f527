package checks

import (
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestLoggedNodeListed: with no instance, log lines that all name one node (an "Error getting
// node … not found" of its kubelet's first seconds) and a node list showing that node Ready make
// it joined, and the early NetworkPluginNotReady lines ended; lines naming two nodes, or a list
// without the node, say nothing.
func TestLoggedNodeListed(t *testing.T) {
	const name = "ip-10-33-140-27.eu-west-3.compute.internal"
	build := func(listed string, other bool) *evidence.Evidence {
		ev := &evidence.Evidence{}
		ev.Nodes = []evidence.Node{{Name: "ip-10-33-101-64.eu-west-3.compute.internal", Ready: true}, {Name: listed, Ready: true}}
		ev.Mark(evidence.KindNodes, "paste:p:18-22")
		hits := []evidence.SignatureHit{
			{Signature: "kubelet-node-not-found", Finding: "runtime.node-name-not-found", Facts: map[string][]string{"node": {name}}},
			{Signature: "kubelet-network-not-ready", Finding: "runtime.cni-not-ready"},
		}
		if other {
			hits = append(hits, evidence.SignatureHit{Signature: "kubelet-node-not-found", Finding: "runtime.node-name-not-found", Facts: map[string][]string{"node": {"ip-10-33-9-9.eu-west-3.compute.internal"}}})
		}
		ev.NodeLogs = &evidence.NodeLogs{Hits: hits}
		ev.Mark(evidence.KindNodeLogs, "paste:p")
		return ev
	}
	ev := build(name, false)
	if st := JoinedNode(ev); st == nil || st.Name != name || !st.Ready {
		t.Fatalf("joined %+v, want %s Ready", st, name)
	}
	if n, ok := ListedReady(ev, ev.NodeLogs.Hits[1]); !ok || n != name {
		t.Errorf("ListedReady %q %v", n, ok)
	}
	if st := JoinedNode(build(name, true)); st != nil {
		t.Errorf("two nodes named: joined %+v", st)
	}
	if st := JoinedNode(build("ip-10-33-152-190.eu-west-3.compute.internal", false)); st != nil {
		t.Errorf("node not listed: joined %+v", st)
	}
}
