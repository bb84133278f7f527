package ingest

import (
	"strings"
	"testing"
)

// TestEndedEventSeries: a counted kubelet event series ("(xN over …)") whose last occurrence is
// older than its retry cadence allows for a lasting fault is over: the hit its rows make is
// marked Ended, with the age it was last seen. A series the spam filter may be throttling, a
// recent one, and a single row a poster may have picked out of a longer series stay failures.
func TestEndedEventSeries(t *testing.T) {
	const header = "Events:\n  Type     Reason                  Age                    From               Message\n  ----     ------                  ----                   ----               -------\n"
	row := func(age string) string {
		return "  Warning  NetworkNotReady         " + age + "  kubelet            network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\n"
	}
	for _, tc := range []struct {
		name, text string
		// ended is the age the ended hits quote; "" when every hit must stay a failure, "journal"
		// when the journal's hits must stay failures (the rows' own may end)
		ended string
	}{
		{"counted series stopped 3m14s ago", header + row("3m14s (x6 over 3m23s)"), "3m14s"},
		{"get events listing, stopped 12m ago", "LAST SEEN               TYPE      REASON            OBJECT                     MESSAGE\n" +
			"12m (x4 over 13m)       Warning   NetworkNotReady   pod/coredns-5d8f7-abcde     network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\n", "12m"},
		{"still repeating", header + row("40s (x6 over 3m23s)"), ""},
		{"throttled by the spam filter", header + row("3m (x40 over 20m)"), ""},
		{"one row, no count", header + row("17m"), ""},
		{"the fault also in the kubelet's journal", header + row("3m14s (x6 over 3m23s)") + "\n" +
			`Jul 24 15:30:02 ip-10-0-1-2 kubelet[2841]: E0724 15:30:02.100000    2841 kubelet.go:3002] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"` + "\n", "journal"},
	} {
		r := Read([]byte(tc.text), "stdin", Options{})
		logs := r.Evidence.NodeLogs
		if logs == nil {
			t.Fatalf("%s: no log lines read from segments %+v", tc.name, r.Segments)
		}
		var cni, ended int
		for _, h := range logs.Hits {
			if h.Finding != "runtime.cni-not-ready" || h.Normal {
				continue
			}
			cni++
			if h.Ended != "" {
				ended++
				if tc.ended == "journal" && strings.Contains(h.First.Text, "kubelet[2841]") {
					t.Errorf("%s: the journal's hit %s ended", tc.name, h.Signature)
				}
				if tc.ended == "" || tc.ended != "journal" && !strings.Contains(h.Ended, "last was seen "+tc.ended) {
					t.Errorf("%s: %s ended: %q", tc.name, h.Signature, h.Ended)
				}
			}
		}
		if cni == 0 {
			t.Fatalf("%s: no runtime.cni-not-ready signature matched", tc.name)
		}
		if tc.ended == "journal" && ended == cni {
			t.Errorf("%s: every hit ended", tc.name)
		}
		if tc.ended != "" && tc.ended != "journal" && ended != cni {
			t.Errorf("%s: %d of %d hits ended, want all", tc.name, ended, cni)
		}
		if tc.ended == "" && ended > 0 {
			t.Errorf("%s: %d hits ended, want none", tc.name, ended)
		}
	}
}
