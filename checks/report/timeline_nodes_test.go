package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

// TestTimelineOfTheFailingNode: two nodes' kubelet lines pasted together, ip-10-0-31-5
// registering and becoming Ready, ip-10-0-47-19 refused with 401s (red team round 7, finding 9:
// case05). The timeline is the failing node's: the other node's registration and Ready lines
// (by their node facts, and the Ready line by its journal host naming that node) are not its
// milestones (its own refused attempts are), and it does not say "The logs show the Node
// Ready". One node's logs keep their milestones.
func TestTimelineOfTheFailingNode(t *testing.T) {
	healthy := "Nov 23 10:11:40 ip-10-0-31-5 kubelet[2990]: I1123 10:11:40.100001    2990 kubelet_node_status.go:73] \"Attempting to register node\" node=\"ip-10-0-31-5.ec2.internal\"\n" +
		"Nov 23 10:11:40 ip-10-0-31-5 kubelet[2990]: I1123 10:11:40.301221    2990 kubelet_node_status.go:76] \"Successfully registered node\" node=\"ip-10-0-31-5.ec2.internal\"\n" +
		"Nov 23 10:11:52 ip-10-0-31-5 kubelet[2990]: I1123 10:11:52.882001    2990 kubelet_node_status.go:493] \"Fast updating node status as it just became ready\"\n"
	refused := ""
	for i := 0; i < 3; i++ {
		refused += fmt.Sprintf("Nov 23 10:13:%02d ip-10-0-47-19 kubelet[3102]: E1123 10:13:%02d.551201    3102 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-47-19.ec2.internal\"\n", 44+7*i, 44+7*i)
	}
	for _, tc := range []struct {
		name     string
		log      string
		complete bool
	}{
		{"two nodes", healthy + refused, false},
		{"the healthy node alone", healthy, true},
	} {
		sc := logscan.MustDefault()
		sc.Ref = time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
		if err := sc.Scan(strings.NewReader(tc.log), "input.txt", "journal"); err != nil {
			t.Fatal(err)
		}
		ev := &evidence.Evidence{NodeLogs: sc.Result("al2023")}
		ev.Mark(evidence.KindNodeLogs, "paste:input.txt")
		tl := BuildTimeline(ev, checks.Run(checks.Default().All(), ev))
		if tl == nil {
			t.Fatalf("%s: no timeline", tc.name)
		}
		var reached []string
		for _, m := range tl.Milestones {
			if m.Reached {
				reached = append(reached, m.Name)
			}
		}
		// the failing node's own refused attempts are its registration attempts (red team round
		// 7, finding 5); the other node's milestones are not its
		if tl.Complete != tc.complete || !tc.complete && strings.Join(reached, ",") != "registration-attempt" || tc.complete && len(reached) == 0 {
			t.Errorf("%s: complete %v, milestones %v", tc.name, tl.Complete, reached)
		}
		var b bytes.Buffer
		timelineText(&b, tl, painter{}, 100)
		if got := strings.Contains(b.String(), "The logs show the Node Ready"); got != tc.complete {
			t.Errorf("%s: text\n%s", tc.name, b.String())
		}
		if !tc.complete && !strings.Contains(b.String(), "ip-10-0-31-5.ec2.internal") {
			t.Errorf("%s: the other node left out unsaid\n%s", tc.name, b.String())
		}
	}
}

// TestTimelineClockFromLineHead: an undated line shows the time of day its head carries (a
// journal prefix without a year), never one from later in its text: the kernel banner of a
// dmesg dump ("[    0.000000] Linux version … #1 SMP Tue Oct 14 17:21:40 UTC 2025") carries
// the kernel's build time, not the boot's.
func TestTimelineClockFromLineHead(t *testing.T) {
	banner := timelineLine(evidence.LogLine{Path: "kernel/dmesg.current", Line: 1, Text: "[    0.000000] Linux version 5.10.244-240.965.amzn2.x86_64 (mockbuild@ip-10-0-46-181) (gcc10-gcc (GCC) 10.5.0 20230707 (Red Hat 10.5.0-1), GNU ld version 2.35.2-9.amzn2.0.1) #1 SMP Tue Oct 14 17:21:40 UTC 2025"})
	if got := clock(banner, ""); strings.TrimSpace(got) != "" {
		t.Errorf("kernel banner shows %q, want no time", got)
	}
	journal := timelineLine(evidence.LogLine{Path: "paste", Line: 3, Text: "Nov  5 02:14:55 ip-10-44-93-12 kubelet: I1105 02:14:55.942149 3418 kubelet_node_status.go:78] \"Successfully registered node\""})
	if got := clock(journal, ""); got != "02:14:55" {
		t.Errorf("journal line shows %q, want 02:14:55", got)
	}
}
