package checks

import (
	"fmt"
	"strings"
	"testing"
	"time"

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

// TestIPAMDPoolFailureStopped: IPAMD's pool manager tries to grow a short pool every 5 s (every
// 120 s after InsufficientCidrBlocks) and logs each failure; when its log goes on for hours
// without one the shortage is over and runtime.ipamd-no-ips passes; so it does when a later pool
// stats line shows addresses not assigned (AvailableAddresses); when the failures go on to the end
// of the log, or the later pool is full, it fails.
func TestIPAMDPoolFailureStopped(t *testing.T) {
	full := func(ts string) string {
		return `{"level":"error","ts":"` + ts + `","caller":"ipamd/ipamd.go:1073","msg":"Failed to increase pool size due to not able to allocate ENI failed to create ENI: failed to create network interface: operation error EC2: CreateNetworkInterface, https response error StatusCode: 400, api error InsufficientFreeAddressesInSubnet: insufficient free address to create interface for subnet subnet-0d25b7e9c1a3f4860"}` + "\n"
	}
	stats := func(ts string) string {
		return `{"level":"debug","ts":"` + ts + `","caller":"ipamd/ipamd.go:690","msg":"IP pool stats for network card 0: Total IPs/Prefixes = 28/0, AssignedIPs/CooldownIPs: 17/0, c.maxIPsPerENI = 14"}` + "\n"
	}
	var failing strings.Builder
	for m := 0; m < 10; m++ {
		failing.WriteString(full(fmt.Sprintf("2025-08-30T04:%02d:55.036Z", m)))
	}
	for _, tc := range []struct {
		name, log string
		want      Status
		message   string
	}{
		{"failures, then hours of pool stats", failing.String() + stats("2025-08-30T05:00:01.000Z") + stats("2025-08-30T09:14:21.564Z"), StatusPass, "written every 2m0s while the fault lasts"},
		{"failures to the end of the log", stats("2025-08-30T03:00:01.000Z") + failing.String(), StatusFail, "subnet"},
		{"failures, then ten minutes of pool stats", failing.String() + stats("2025-08-30T04:19:55.000Z"), StatusPass, "IPAMD's pool holds addresses it has not assigned"},
		{"failures, then a full pool ten minutes later", failing.String() + strings.Replace(stats("2025-08-30T04:19:55.000Z"), "AssignedIPs/CooldownIPs: 17/0", "AssignedIPs/CooldownIPs: 28/0", 1), StatusFail, "subnet"},
		{"a pool with free addresses, then failures", stats("2025-08-30T03:00:01.000Z") + failing.String(), StatusFail, "subnet"},
	} {
		ev := &evidence.Evidence{}
		withLogs(tc.log)(ev)
		f := findingOf(t, ev, "runtime.ipamd-no-ips")
		if f.Status != tc.want || !strings.Contains(f.Message, tc.message) {
			t.Errorf("%s: %s %q, want %s with %q", tc.name, f.Status, f.Message, tc.want, tc.message)
		}
	}
}

// TestCNIStartWindow: a node log bundle collected less than five minutes after the kubelet first
// reported the CNI not ready shows a CNI that may still be starting (not a cause yet); collected
// later, or a paste (whose end is where the poster cut it), the same lines fail.
func TestCNIStartWindow(t *testing.T) {
	var lines strings.Builder
	for s := 0; s < 60; s += 5 {
		fmt.Fprintf(&lines, "Jul 24 15:30:%02d ip-10-0-1-2 kubelet[2841]: E0724 15:30:%02d.546969    2841 kubelet.go:3008] \"Container runtime network not ready\" networkReady=\"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\"\n", s, s)
	}
	for _, tc := range []struct {
		name      string
		source    string
		collected time.Time
		want      Status
	}{
		{"bundle two minutes after", "bundle:eks_i-0abc.tar.gz", time.Date(2026, 7, 24, 15, 32, 30, 0, time.UTC), StatusSkipped},
		{"bundle ten minutes after", "bundle:eks_i-0abc.tar.gz", time.Date(2026, 7, 24, 15, 40, 30, 0, time.UTC), StatusFail},
		{"paste", "paste:stdin", time.Date(2026, 7, 24, 15, 30, 55, 0, time.UTC), StatusFail},
	} {
		ev := &evidence.Evidence{CollectedAt: tc.collected}
		withLogs(lines.String())(ev)
		ev.Mark(evidence.KindNodeLogs, tc.source)
		f := findingOf(t, ev, "runtime.cni-not-ready")
		if f.Status != tc.want || tc.want == StatusSkipped && !strings.Contains(f.Message, "not a cause yet") {
			t.Errorf("%s: %s %q, want %s", tc.name, f.Status, f.Message, tc.want)
		}
	}
}
