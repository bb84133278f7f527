package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestTableColourKeepsAlignment: coloured status cells do not shift the borders, and the table
// fits the width with the message, not the check ID, wrapped.
func TestTableColourKeepsAlignment(t *testing.T) {
	p := painter{on: true}
	rows := [][]string{
		{p.status(checks.StatusFail), "critical", "net.nacl-blocks", "acl-0a1b2c3d4e5f60001", strings.Repeat("a long message that must wrap ", 8)},
		{p.status(checks.StatusWarn), "low", "instance.imds", "i-0a1b2c3d4e5f60001", "short"},
	}
	var b bytes.Buffer
	if err := table(&b, 90, []string{"STATUS", "SEVERITY", "CHECK", "RESOURCE", "MESSAGE"}, rows, 4); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\x1b[") {
		t.Fatal("no colour in the table")
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for _, l := range lines {
		if w := VisibleWidth(l); w != VisibleWidth(lines[0]) || w > 90 {
			t.Errorf("line of %d columns (first %d): %q", w, VisibleWidth(lines[0]), l)
		}
	}
	if !strings.Contains(b.String(), "net.nacl-blocks") || !strings.Contains(b.String(), "acl-0a1b2c3d4e5f60001") {
		t.Errorf("the check or resource was wrapped:\n%s", b.String())
	}
}

// TestWrapKeepsLongWords: URLs up to the line width stay whole; longer words are cut.
func TestWrapKeepsLongWords(t *testing.T) {
	var b bytes.Buffer
	url := "https://docs.aws.amazon.com/vpc/latest/userguide/custom-network-acl.html#nacl-ephemeral-ports"
	para(&b, 100, "  docs:     ", url)
	if !strings.Contains(b.String(), url) {
		t.Errorf("URL cut: %q", b.String())
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if VisibleWidth(l) > 100 {
			t.Errorf("line too wide: %q", l)
		}
	}
	if got := wrap(strings.Repeat("x", 25), 10); len(got) != 3 || got[0] != strings.Repeat("x", 10) {
		t.Errorf("wrap cut %v", got)
	}
}

func TestCountLineAddsUp(t *testing.T) {
	fs := []checks.Finding{
		{ID: "a", Status: checks.StatusFail}, {ID: "a", Status: checks.StatusPass}, // one check, two resources
		{ID: "b", Status: checks.StatusWarn}, {ID: "c", Status: checks.StatusPass}, {ID: "d", Status: checks.StatusSkipped},
	}
	if got, want := countLine(fs), "4 checks: 1 failed, 1 warning, 1 passed, 1 skipped"; got != want {
		t.Errorf("countLine = %q, want %q", got, want)
	}
}

// TestTimelineStopsAndCounts: milestones in order, the failure lines counted per finding, and
// where the sequence stopped.
func TestTimelineStopsAndCounts(t *testing.T) {
	at := func(s int) evidence.LogLine {
		return evidence.LogLine{Path: "kubelet/kubelet.log", Line: int64(s), Time: time.Date(2026, 7, 24, 15, 29, s, 0, time.UTC), Seq: int64(s)}
	}
	ev := &evidence.Evidence{NodeLogs: &evidence.NodeLogs{Hits: []evidence.SignatureHit{
		{Signature: "kubelet-started", Component: "kubelet", Normal: true, Milestone: "kubelet-started", Count: 1, First: at(10), Last: at(10)},
		{Signature: "kubelet-registration-attempt", Component: "kubelet", Normal: true, Milestone: "registration-attempt", Count: 1, First: at(11), Last: at(11)},
		{Signature: "kubelet-register-unauthorized", Component: "kubelet", Finding: "runtime.unauthorized", Meaning: "401", Count: 12, First: at(40), Last: at(59)},
	}}}
	ev.Mark(evidence.KindNodeLogs, "bundle:x")
	tl := BuildTimeline(ev, []checks.Finding{{ID: "runtime.unauthorized", Status: checks.StatusFail}})
	if tl == nil || tl.Complete || tl.StoppedAfter != "registration-attempt" || len(tl.Failures) != 1 || tl.Failures[0].Count != 12 {
		t.Fatalf("timeline %+v", tl)
	}
	if tl.Milestones[3].Name != "kubelet-started" || !tl.Milestones[3].Reached || tl.Milestones[3].Line.Time != "2026-07-24T15:29:10Z" {
		t.Errorf("kubelet-started %+v", tl.Milestones[3])
	}
	var b bytes.Buffer
	timelineText(&b, tl, painter{}, 100)
	out := b.String()
	for _, want := range []string{"15:29:10  ✓ kubelet started (kubelet)", "15:29:40  ✗ runtime.unauthorized: 401 (12 lines), last at 15:29:59", "Node Ready: not seen", "Stopped after: first registration attempt; failing: runtime.unauthorized (12 lines)."} {
		if !strings.Contains(out, want) {
			t.Errorf("timeline lacks %q:\n%s", want, out)
		}
	}
	if BuildTimeline(&evidence.Evidence{}, nil) != nil {
		t.Error("a timeline without node logs")
	}
}
