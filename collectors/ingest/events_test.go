package ingest

import (
	"fmt"
	"sort"
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
		{"one row, no count: its message repeats word for word, so the row would have been counted", header + row("17m"), "17m0s"},
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

// TestEndedEventRows: which rows endedEvents blanks. An uncounted sandbox failure (its message
// names a new sandbox each time) is never judged by its age; a pod's image-pull back-off whose
// rows are all older than a 5-minute back-off allows ends, with the pull errors as old as it,
// and one recent back-off row keeps all of them.
func TestEndedEventRows(t *testing.T) {
	const pull = "  Warning  Failed     10m                kubelet, ip-10-0-1-2.ec2.internal  Failed to pull image \"111122223333.dkr.ecr.us-east-1.amazonaws.com/app:1\": rpc error: code = Unknown desc = error pulling image configuration: Get https://prod-us-east-1-starport-layer-bucket.s3.amazonaws.com/x: dial tcp 52.216.1.1:443: i/o timeout\n" +
		"  Warning  Failed     10m                kubelet, ip-10-0-1-2.ec2.internal  Error: ErrImagePull\n" +
		"  Normal   BackOff    BACKOFF                kubelet, ip-10-0-1-2.ec2.internal  Back-off pulling image \"111122223333.dkr.ecr.us-east-1.amazonaws.com/app:1\"\n"
	for _, tc := range []struct {
		name, text string
		ended      []int
	}{
		{"uncounted sandbox failure", "  Warning  FailedCreatePodSandBox  17m  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"a7c7\": add cmd: failed to assign an IP address to container\n", nil},
		{"pull back-off over", strings.Replace(pull, "BACKOFF", "10m", 1), []int{0, 1, 2}},
		{"pull back-off still going", strings.Replace(pull, "BACKOFF", "2m (x9 over 12m)", 1), nil},
	} {
		_, rows := endedEvents([]byte(tc.text))
		var got []int
		for i := range rows {
			got = append(got, i)
		}
		sort.Ints(got)
		if fmt.Sprint(got) != fmt.Sprint(tc.ended) {
			t.Errorf("%s: ended rows %v, want %v", tc.name, got, tc.ended)
		}
	}
}

// TestCadenceReasonsPrefiltered: the pre-filter finds a row of every reason endedEvents judges.
func TestCadenceReasonsPrefiltered(t *testing.T) {
	for reason := range eventCadence {
		if !reCadenceEvent.MatchString("  Warning  " + reason + "  3m  kubelet  x") {
			t.Errorf("reason %s is not found by reCadenceEvent", reason)
		}
	}
}
