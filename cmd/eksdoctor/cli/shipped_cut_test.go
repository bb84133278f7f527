package cli

import (
	"fmt"
	"strings"
	"testing"
)

// cutRecords cuts every line of in longer than n bytes to n bytes, as a shipper or syslog
// forwarder with an n-byte record limit does: a JSON record loses its closing quote and brace.
func cutRecords(in string, n int) string {
	lines := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
	for i, l := range lines {
		if len(l) > n {
			lines[i] = l[:n]
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestCutRecordsStayApart: Container Insights records cut at 256 bytes (red team round 9,
// finding 6). A cut record is not joined with the next line when that line starts a record of
// its own: a healthy node's "network not ready" lines, cut, stay before its Ready, so the CNI
// failure is transient and the node joined and Ready (exit 0; it was a critical
// runtime.cni-not-ready with the Ready dated at the cut line's time); and what a cut record kept
// is still matched: a node whose registrations are refused with err="Unauthorized", its records
// cut after it, is cause-found runtime.unauthorized, exit 1 (it was inconclusive, exit 3).
func TestCutRecordsStayApart(t *testing.T) {
	const host = "ip-10-0-1-23.ec2.internal"
	start := []shippedEvent{
		{"2026-11-24T10:01:00.000Z", host, "init.scope", "Started kubelet.service - Kubernetes Kubelet."},
		{"2026-11-24T10:01:01.000Z", host, "kubelet.service", `I1124 10:01:01.000000    2345 kubelet_node_status.go:72] "Attempting to register node" node="` + host + `"`},
	}
	cni := func(at string) shippedEvent {
		return shippedEvent{"2026-11-24T" + at + ".423Z", host, "kubelet.service", `E1124 ` + at + `.423456    2345 kubelet.go:3002] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"`}
	}
	healthy := append(start[:2:2], cni("10:01:01"),
		shippedEvent{"2026-11-24T10:01:02.100Z", host, "kubelet.service", `I1124 10:01:02.100000    2345 kubelet_node_status.go:75] "Successfully registered node" node="` + host + `"`},
		cni("10:01:06"),
		shippedEvent{"2026-11-24T10:01:12.100Z", host, "kubelet.service", `I1124 10:01:12.100000    2345 kubelet_node_status.go:488] "Fast updating node status as it just became ready"`})
	in := cutRecords(shippedShapes[0].render(healthy), 256)
	if !strings.Contains(in, "reason:NetworkPlugin") || strings.Contains(in, "cni plugin not initialized") {
		t.Fatalf("the CNI records are not cut after their reason:\n%s", in)
	}
	code, out, errOut := runStdin(strings.NewReader(in), "analyze", "-", "-o", "json")
	r := verdictOf(t, out)
	if code != ExitOK || r.Diagnosis.Verdict != "joined" || r.Diagnosis.Node == nil || !r.Diagnosis.Node.Ready || r.Diagnosis.MostLikelyCause != nil {
		t.Errorf("healthy, cut: exit %d %s %s %v %q", code, errOut, r.Diagnosis.Verdict, r.Diagnosis.MostLikelyCause, r.Diagnosis.Summary)
	}
	if st, _ := findingOf(t, out, "runtime.cni-not-ready"); st == "fail" {
		t.Errorf("healthy, cut: runtime.cni-not-ready %s", st)
	}

	refused := start[:2:2]
	for i, at := range []string{"10:01:01", "10:01:08", "10:01:22"} {
		refused = append(refused, shippedEvent{"2026-11-24T" + at + ".123Z", host, "kubelet.service",
			fmt.Sprintf(`E1124 %s.123456    2345 kubelet_node_status.go:95] "Unable to register node with API server" err="Unauthorized" node="%s"`, at, host)})
		if i < 2 {
			refused = append(refused, shippedEvent{"2026-11-24T" + at + ".623Z", host, "kubelet.service", `I1124 ` + at + `.623456    2345 kubelet_node_status.go:72] "Attempting to register node" node="` + host + `"`})
		}
	}
	in = cutRecords(shippedShapes[0].render(refused), 256)
	if !strings.Contains(in, `err=\"Unauthorized\"`) || strings.Contains(in, `ec2.internal\""}`) {
		t.Fatalf("the refused records are not cut after their error:\n%s", in)
	}
	code, out, errOut = runStdin(strings.NewReader(in), "analyze", "-", "-o", "json")
	if r = verdictOf(t, out); code != ExitFindings || r.Diagnosis.Verdict != "cause-found" || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.unauthorized" {
		t.Errorf("refused, cut: exit %d %s %s %v", code, errOut, r.Diagnosis.Verdict, r.Diagnosis.MostLikelyCause)
	}
}
