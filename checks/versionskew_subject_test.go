package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestVersionSkewJudgesThePastesNode: a pasted node list with no instance judges the node the
// paste is about when the list shows one — its only NotReady node among Ready ones: a Ready
// node's kubelet outside the policy is reported (warn: it joined), not taken for the cause. A
// list whose readiness is unknown (a jsonpath template that did not ask for it) or shows no
// single NotReady node has every node judged.
func TestVersionSkewJudgesThePastesNode(t *testing.T) {
	c, ok := Default().Get("cluster.version-skew")
	if !ok {
		t.Fatal("no check cluster.version-skew")
	}
	node := func(name, ver string, ready, unknown bool) evidence.Node {
		return evidence.Node{Name: name, KubeletVersion: ver, Ready: ready, ReadyUnknown: unknown}
	}
	for _, tc := range []struct {
		name  string
		nodes []evidence.Node
		want  map[string]Status // resource → status
	}{
		{"NotReady node newer", []evidence.Node{node("a", "v1.31.7", true, false), node("b", "v1.33.1", false, false)},
			map[string]Status{"b": StatusFail}},
		{"Ready node newer, NotReady node within", []evidence.Node{node("a", "v1.33.1", true, false), node("b", "v1.31.7", false, false), node("c", "v1.31.7", true, false)},
			map[string]Status{"a": StatusWarn, "b": StatusPass}},
		{"readiness unknown", []evidence.Node{node("a", "v1.31.7", false, true), node("b", "v1.33.1", false, true)},
			map[string]Status{"b": StatusFail}},
		{"two NotReady", []evidence.Node{node("a", "v1.33.1", false, false), node("b", "v1.31.7", false, false)},
			map[string]Status{"a": StatusFail}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := healthyEvidence()
			ev.Instance, ev.Nodegroups = nil, nil
			ev.Nodes = tc.nodes
			ev.Mark(evidence.KindNodes, "paste:stdin:3-6")
			fs := Run([]Check{c}, ev)
			got := map[string]Status{}
			for _, f := range fs {
				got[f.Resource] = f.Status
				if f.Status == StatusWarn && !strings.Contains(f.Message, "Ready") {
					t.Errorf("warn %q does not say the node is Ready", f.Message)
				}
			}
			for res, st := range tc.want {
				if got[res] != st {
					t.Errorf("%s: %s, want %s (findings %+v)", res, got[res], st, fs)
				}
			}
			for res, st := range got {
				if _, want := tc.want[res]; !want && st != StatusPass {
					t.Errorf("unexpected %s on %s", st, res)
				}
			}
		})
	}
}

// TestPastedNotReadyNeedsReadiness: a pasted list whose readiness is unknown names no NotReady
// node the paste would be about.
func TestPastedNotReadyNeedsReadiness(t *testing.T) {
	ev := healthyEvidence()
	ev.Instance = nil
	ev.Nodes = []evidence.Node{{Name: "a", KubeletVersion: "v1.31.7", Ready: true}, {Name: "b", KubeletVersion: "v1.31.7", ReadyUnknown: true}}
	ev.Mark(evidence.KindNodes, "paste:stdin:3-6")
	if st := pastedNotReady(ev); st != nil {
		t.Errorf("node of unknown readiness taken for NotReady: %+v", st)
	}
	ev.Nodes[1].ReadyUnknown = false
	if st := pastedNotReady(ev); st == nil || st.Name != "b" {
		t.Errorf("the one NotReady node not found: %+v", st)
	}
}
