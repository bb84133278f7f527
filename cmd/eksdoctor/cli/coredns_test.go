package cli

import (
	"strings"
	"testing"
)

// TestOneCoreDNSProbeTimeoutIsNoCause (red team 7 #1): CoreDNS's loop plugin sends one HINFO
// probe per start; one that timed out on a restart is no DHCP-options cause (a critical
// net.dhcp-options on a ticket whose nodes are all Ready). The probes of two replicas timing out
// still fail it.
func TestOneCoreDNSProbeTimeoutIsNoCause(t *testing.T) {
	probe := func(port string) string {
		return "[ERROR] plugin/errors: 2 2863402391462214521.3451234567890123456. HINFO: read udp 10.9.5.17:" + port + "->10.9.0.2:53: i/o timeout\n"
	}
	logs := func(lines string) string {
		return "These show up every time coredns restarts:\n\n$ kubectl -n kube-system logs -l k8s-app=kube-dns\n.:53\n[INFO] plugin/reload: Running configuration SHA512 = 8a7d\nCoreDNS-1.11.3\nlinux/amd64, go1.21.11, a6338e9\n" + lines
	}
	failing := `"id": "net.dhcp-options",
      "status": "fail"`
	if code, out, errOut := runStdin(strings.NewReader(logs(probe("47712"))), "analyze", "-", "-o", "json"); strings.Contains(out, failing) || code == ExitFindings {
		t.Errorf("one probe: exit %d %s\n%s", code, errOut, out)
	}
	if code, out, errOut := runStdin(strings.NewReader(logs(probe("47712")+probe("51904"))), "analyze", "-", "-o", "json"); !strings.Contains(out, failing) || code != ExitFindings {
		t.Errorf("two probes: exit %d %s\n%s", code, errOut, out)
	}
}
