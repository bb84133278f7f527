package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestPeriodicFailureStopped: the kubelet writes "Container runtime network not ready" every
// 5 s while the network is not ready; when it logs on for hours without it the fault is over
// (runtime.cni-not-ready passes, saying so), and when the lines go on to the end of the log it
// fails. A kubelet receiving pods from the API server after 401s shows its identity accepted
// again (runtime.unauthorized passes); 401s after the last such line still fail.
func TestPeriodicFailureStopped(t *testing.T) {
	notReady := func(min, sec int) string {
		return fmt.Sprintf("Nov  5 02:%02d:%02d ip-10-44-93-12 kubelet: E1105 02:%02d:%02d.546969    3418 kubelet.go:3008] \"Container runtime network not ready\" networkReady=\"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\"\n", min, sec, min, sec)
	}
	unauthorized := func(hh, mm int) string {
		return fmt.Sprintf("Nov  5 %02d:%02d:01 ip-10-44-93-12 kubelet: E1105 %02d:%02d:01.932900    3418 kubelet_node_status.go:548] \"Error updating node status, will retry\" err=\"error getting node \\\"ip-10-44-93-12.eu-west-2.compute.internal\\\": Unauthorized\"\n", hh, mm, hh, mm)
	}
	podsFromAPI := func(hh, mm int) string {
		return fmt.Sprintf("Nov  5 %02d:%02d:34 ip-10-44-93-12 kubelet: I1105 %02d:%02d:34.353789    3418 kubelet.go:2414] \"SyncLoop ADD\" source=\"api\" pods=[\"billing/batch-reconcile-29372769-bbc36\"]\n", hh, mm, hh, mm)
	}
	var cni strings.Builder
	for s := 0; s < 60; s += 5 {
		cni.WriteString(notReady(14, s))
	}
	var unauth strings.Builder
	for m := 41; m < 54; m++ {
		unauth.WriteString(unauthorized(6, m))
	}
	for _, tc := range []struct {
		name, log, id string
		want          Status
		message       string
	}{
		{"network not ready, then the kubelet logs on for hours", cni.String() + podsFromAPI(7, 48), "runtime.cni-not-ready", StatusPass, "written every 5s while the fault lasts"},
		{"network not ready to the end of the log", podsFromAPI(2, 13) + cni.String(), "runtime.cni-not-ready", StatusFail, "aws-node has not written"},
		{"network not ready, the kubelet logs on for 30 s", cni.String() + strings.Replace(podsFromAPI(2, 15), ":34 ", ":29 ", 1), "runtime.cni-not-ready", StatusFail, "aws-node has not written"},
		{"401s, then pods from the API server", unauth.String() + podsFromAPI(7, 48), "runtime.unauthorized", StatusPass, "received pods bound to its Node"},
		{"pods from the API server, then 401s", podsFromAPI(6, 30) + unauth.String(), "runtime.unauthorized", StatusFail, "Unauthorized"},
	} {
		ev := &evidence.Evidence{}
		withLogs(tc.log)(ev)
		f := findingOf(t, ev, tc.id)
		if f.Status != tc.want || !strings.Contains(f.Message, tc.message) {
			t.Errorf("%s: %s %s %q, want %s with %q", tc.name, tc.id, f.Status, f.Message, tc.want, tc.message)
		}
	}
}
