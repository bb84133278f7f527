package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLogsJudgedByTimeAndNode: a node's log is judged by its lines' own times and the node
// they name, never by where a line sits in the paste (red team 3, F1). A node that registered
// and was refused ten minutes later is NotReady with a cause, whether the journal is in time
// order, newest first (journalctl -r) or a Logs Insights export; a second node's registration
// pasted beside a refused node does not make the refusal transient nor the run "joined"; the
// healthy journal newest first is still joined and Ready.
func TestLogsJudgedByTimeAndNode(t *testing.T) {
	kubelet := func(host, clock, msg string) string {
		return fmt.Sprintf("Jul 24 %s %s kubelet[2841]: %s\n", clock, host, msg)
	}
	healthy := func(host string) []string {
		node := host + ".ec2.internal"
		return []string{
			kubelet(host, "15:29:51", `I0724 15:29:51.000000    2841 kubelet_node_status.go:75] "Attempting to register node" node="`+node+`"`),
			kubelet(host, "15:29:51", `E0724 15:29:51.100000    2841 kubelet.go:2412] "Error getting node" err="node \"`+node+`\" not found"`),
			kubelet(host, "15:30:05", `I0724 15:30:05.000000    2841 kubelet_node_status.go:78] "Successfully registered node" node="`+node+`"`),
			kubelet(host, "15:30:21", `I0724 15:30:21.000000    2841 kubelet_node_status.go:493] "Recording event message for node" node="`+node+`" event="NodeReady"`),
		}
	}
	refused := func(host string, from int) []string {
		var out []string
		for m := from; m < from+5; m++ {
			out = append(out, kubelet(host, fmt.Sprintf("15:%02d:00", m), fmt.Sprintf(`E0724 15:%02d:00.000000    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="%s.ec2.internal"`, m, host)),
				kubelet(host, fmt.Sprintf("15:%02d:30", m), fmt.Sprintf(`E0724 15:%02d:30.000000    2841 controller.go:145] "Failed to ensure lease exists, will retry" err="Unauthorized" interval="7s"`, m)))
		}
		return out
	}
	reversed := func(l []string) []string {
		out := slices.Clone(l)
		slices.Reverse(out)
		return out
	}
	late := append(healthy("ip-10-0-12-34"), refused("ip-10-0-12-34", 40)...)
	twoNodes := append(refused("ip-10-0-99-77", 31), healthy("ip-10-0-12-34")...)
	for _, tc := range []struct {
		name    string
		lines   []string
		verdict string
		ready   bool
		cause   string
		code    int
	}{
		{"refused after Ready, in time order", late, "joined", false, "runtime.unauthorized", ExitFindings},
		{"refused after Ready, newest first", reversed(late), "joined", false, "runtime.unauthorized", ExitFindings},
		{"another node's registration after the refused node's lines", twoNodes, "cause-found", false, "runtime.unauthorized", ExitFindings},
		{"another node's registration before them", reversed(twoNodes), "cause-found", false, "runtime.unauthorized", ExitFindings},
		{"healthy, newest first", reversed(healthy("ip-10-0-12-34")), "joined", true, "", ExitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runStdin(strings.NewReader(strings.Join(tc.lines, "")), "analyze", "-", "-o", "json")
			var r struct {
				Diagnosis struct {
					Verdict         string
					MostLikelyCause *string
					Node            *struct{ Ready bool }
				}
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("exit %d: %v %s", code, err, errOut)
			}
			d := r.Diagnosis
			cause := ""
			if d.MostLikelyCause != nil {
				cause = *d.MostLikelyCause
			}
			if d.Verdict != tc.verdict || cause != tc.cause || code != tc.code || (d.Node != nil) != (tc.verdict == "joined") || d.Node != nil && d.Node.Ready != tc.ready {
				t.Errorf("verdict %s, cause %q, node %+v, exit %d; want %s, %q, ready %v, exit %d", d.Verdict, cause, d.Node, code, tc.verdict, tc.cause, tc.ready, tc.code)
			}
		})
	}
}

// TestYearlessJournalAcrossNewYear: a pasted journal without years that crosses New Year keeps
// its order — timeouts on Dec 31 then the registration on Jan 1 are start-up noise, in time
// order, newest first, or under journalctl's "-- Logs begin at … --" header (red team 4).
func TestYearlessJournalAcrossNewYear(t *testing.T) {
	const n = "ip-10-0-21-57.eu-west-1.compute.internal"
	var lines []string
	for _, c := range []string{"23:55:12", "23:56:19", "23:57:26"} {
		lines = append(lines, fmt.Sprintf(`Dec 31 %s %s kubelet[3187]: E1231 %s.205873    3187 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \"https://8F3A.gr7.eu-west-1.eks.amazonaws.com/api/v1/nodes\": dial tcp 10.0.101.23:443: i/o timeout" node="%s"`+"\n", c, n, c, n))
	}
	lines = append(lines,
		fmt.Sprintf(`Jan 01 00:01:58 %s kubelet[3187]: I0101 00:01:58.483117    3187 kubelet_node_status.go:78] "Successfully registered node" node="%s"`+"\n", n, n),
		fmt.Sprintf(`Jan 01 00:02:21 %s kubelet[3187]: I0101 00:02:21.912201    3187 kubelet_node_status.go:724] "Recording event message for node" node="%s" event="NodeReady"`+"\n", n, n))
	newestFirst := slices.Clone(lines)
	slices.Reverse(newestFirst)
	for name, paste := range map[string]string{
		"in time order":            strings.Join(lines, ""),
		"newest first":             strings.Join(newestFirst, ""),
		"under the journal header": "-- Logs begin at Thu 2026-12-31 23:50:02 UTC, end at Fri 2027-01-01 00:05:40 UTC. --\n" + strings.Join(lines, ""),
	} {
		code, out, _ := runStdin(strings.NewReader(paste), "analyze", "-", "-o", "json")
		if code != ExitOK || !strings.Contains(out, `"verdict": "joined"`) || !strings.Contains(out, `"ready": true`) {
			t.Errorf("%s: exit %d\n%s", name, code, out)
		}
	}
}

// TestDescribedNodeWithClearedDiskPressure: a pasted `kubectl describe node` of a Ready node
// whose events show disk pressure that cleared (NodeHasNoDiskPressure after NodeHasDiskPressure)
// is joined and Ready with nothing failing (red team 4).
func TestDescribedNodeWithClearedDiskPressure(t *testing.T) {
	const n = "ip-10-0-21-57.eu-west-1.compute.internal"
	paste := "$ kubectl describe node " + n + `
Name:               ` + n + `
Roles:              <none>
Labels:             kubernetes.io/hostname=` + n + `
                    kubernetes.io/os=linux
CreationTimestamp:  Tue, 24 Nov 2026 09:41:12 +0000
Taints:             <none>
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  MemoryPressure   False   Tue, 24 Nov 2026 10:03:40 +0000   Tue, 24 Nov 2026 09:41:12 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available
  DiskPressure     False   Tue, 24 Nov 2026 10:03:40 +0000   Tue, 24 Nov 2026 09:58:40 +0000   KubeletHasNoDiskPressure     kubelet has no disk pressure
  PIDPressure      False   Tue, 24 Nov 2026 10:03:40 +0000   Tue, 24 Nov 2026 09:41:12 +0000   KubeletHasSufficientPID      kubelet has sufficient PID available
  Ready            True    Tue, 24 Nov 2026 10:03:40 +0000   Tue, 24 Nov 2026 09:41:33 +0000   KubeletReady                 kubelet is posting ready status
ProviderID:                   aws:///eu-west-1a/i-0a1b2c3d4e5f60006
Events:
  Type     Reason                   Age                From     Message
  ----     ------                   ----               ----     -------
  Normal   Starting                 23m                kubelet  Starting kubelet.
  Warning  EvictionThresholdMet     12m                kubelet  Attempting to reclaim ephemeral-storage
  Normal   NodeHasDiskPressure      12m                kubelet  Node ` + n + ` status is now: NodeHasDiskPressure
  Normal   NodeHasNoDiskPressure    6m (x2 over 23m)   kubelet  Node ` + n + ` status is now: NodeHasNoDiskPressure
`
	code, out, errOut := runStdin(strings.NewReader(paste), "analyze", "-", "-o", "json")
	if code != ExitOK || !strings.Contains(out, `"verdict": "joined"`) || !strings.Contains(out, `"ready": true`) || strings.Contains(out, `"status": "fail"`) {
		t.Errorf("exit %d %s\n%s", code, errOut, out)
	}
}

// TestNodeStatusRefusedAfterReady: after NodeReady, only the kubelet's node status updates
// refused with Unauthorized follow: the node is joined but NotReady with that cause (red team 4).
func TestNodeStatusRefusedAfterReady(t *testing.T) {
	const n = "ip-10-0-21-57.eu-west-1.compute.internal"
	paste := fmt.Sprintf(`Nov 24 09:51:58 %[1]s kubelet[3187]: I1124 09:51:58.483117    3187 kubelet_node_status.go:78] "Successfully registered node" node="%[1]s"
Nov 24 09:52:21 %[1]s kubelet[3187]: I1124 09:52:21.912201    3187 kubelet_node_status.go:724] "Recording event message for node" node="%[1]s" event="NodeReady"
`, n)
	for s := 12; s < 45; s += 7 {
		paste += fmt.Sprintf(`Nov 24 09:56:%02d %[2]s kubelet[3187]: E1124 09:56:%02[1]d.205873    3187 kubelet_node_status.go:585] "Error updating node status, will retry" err="error getting node \"%[2]s\": Unauthorized"`+"\n", s, n)
	}
	code, out, _ := runStdin(strings.NewReader(paste), "analyze", "-", "-o", "json")
	if code != ExitFindings || !strings.Contains(out, `"ready": false`) || !strings.Contains(out, `"mostLikelyCause": "runtime.unauthorized"`) {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// TestNodeStatusTimeoutsAfterReady: after NodeReady, the kubelet's node status updates time out
// for minutes (red team 9 #3: i/o timeout, context deadline exceeded, Client.Timeout): the node is
// joined but NotReady with runtime.apiserver-timeout; a control-plane upgrade's blip (two failed
// tries, then the kubelet logs on) leaves it Ready with nothing failing, and so does a run of
// timeouts that stopped two minutes before the kubelet's last line (the fault is over).
func TestNodeStatusTimeoutsAfterReady(t *testing.T) {
	const n = "ip-10-0-1-23.ec2.internal"
	head := fmt.Sprintf(`Nov 24 23:50:01 %[1]s kubelet[2345]: I1124 23:50:01.300000    2345 kubelet_node_status.go:75] "Successfully registered node" node="%[1]s"
Nov 24 23:50:11 %[1]s kubelet[2345]: I1124 23:50:11.100000    2345 kubelet_node_status.go:488] "Fast updating node status as it just became ready"
`, n)
	errs := []string{
		`Get \"https://0123456789ABCDEF0123456789ABCDEF.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes/` + n + `?timeout=10s\": dial tcp 10.0.12.34:443: i/o timeout`,
		`Get \"https://0123456789ABCDEF0123456789ABCDEF.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes/` + n + `?resourceVersion=0&timeout=10s\": context deadline exceeded`,
		`Get \"https://0123456789ABCDEF0123456789ABCDEF.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes/` + n + `?timeout=10s\": net/http: request canceled (Client.Timeout exceeded while awaiting headers)`,
	}
	failing := func(from time.Time, count int, msg string) string {
		var b strings.Builder
		for i := 0; i < count; i++ {
			at := from.Add(time.Duration(i) * 10 * time.Second)
			fmt.Fprintf(&b, `%s %s kubelet[2345]: E%s    2345 kubelet_node_status.go:549] "Error updating node status, will retry" err="error getting node \"%s\": %s"`+"\n",
				at.Format("Jan 02 15:04:05"), n, at.Format("0102 15:04:05.000000"), n, msg)
		}
		return b.String()
	}
	later := func(at time.Time) string {
		return fmt.Sprintf(`%s %s kubelet[2345]: I%s    2345 kubelet_getters.go:218] "Pod status updated" pod="kube-system/kube-proxy-x7k2p" status="Running"`+"\n",
			at.Format("Jan 02 15:04:05"), n, at.Format("0102 15:04:05.000000"))
	}
	t0 := time.Date(2026, 11, 25, 0, 20, 1, 123456000, time.UTC)
	for i, msg := range errs {
		code, out, errOut := runStdin(strings.NewReader(head+failing(t0, 21, msg)), "analyze", "-", "-o", "json")
		if code != ExitFindings || !strings.Contains(out, `"ready": false`) || !strings.Contains(out, `"mostLikelyCause": "runtime.apiserver-timeout"`) {
			t.Errorf("timeouts %d: exit %d %s\n%s", i, code, errOut, out)
		}
	}
	for name, paste := range map[string]string{
		"blip":      head + failing(t0, 2, errs[0]) + later(t0.Add(40*time.Second)) + later(t0.Add(5*time.Minute)),
		"recovered": head + failing(t0, 12, errs[1]) + later(t0.Add(12*10*time.Second+3*time.Minute)),
	} {
		code, out, errOut := runStdin(strings.NewReader(paste), "analyze", "-", "-o", "json")
		if code != ExitOK || !strings.Contains(out, `"ready": true`) || strings.Contains(out, `"status": "fail"`) {
			t.Errorf("%s: exit %d %s\n%s", name, code, errOut, out)
		}
	}
}
