package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// Red team 11a #11: a Windows node's max-pods above its primary ENI's addresses was explained
// with the Linux ENI formula and named the most likely cause of a node that does not join,
// although max-pods does not stop registration (the node registers; pods then get no address).
func TestWindowsMaxPodsExplainedAndRankedAfterJoinCauses(t *testing.T) {
	ev := healthyEvidence()
	makeWindows(ev)
	n := 29
	ev.Bootstrap.MaxPods = &n
	f := findingOf(t, ev, "bootstrap.max-pods")
	if f.Status != StatusFail || !strings.Contains(f.Message, "Windows uses only the primary ENI") {
		t.Fatalf("%s %q", f.Status, f.Message)
	}
	if !strings.Contains(f.Why, "Windows") || !strings.Contains(f.Why, "still registers") {
		t.Errorf("why gives only the Linux formula or claims a join failure: %q", f.Why)
	}
	// any high-severity failure of the join path outranks it
	metas := Default().Metas()
	var joinHigh []string
	for id, m := range metas {
		if m.Severity == SeverityHigh && JoinPath(m) {
			joinHigh = append(joinHigh, id)
		}
	}
	if len(joinHigh) == 0 {
		t.Fatal("no high-severity join-path check to rank against")
	}
	for _, id := range joinHigh {
		d := Diagnose([]Finding{{ID: "bootstrap.max-pods", Status: StatusFail, Severity: SeverityHigh}, {ID: id, Status: StatusFail, Severity: SeverityHigh}}, metas)
		if d.MostLikelyCause != id {
			t.Errorf("max-pods ranked ahead of %s: %v", id, d.Ranked)
		}
	}
	_ = evidence.KindBootstrap
}
