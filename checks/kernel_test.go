package checks

import "testing"

// TestConntrackFullExplainsAPIServerTimeout: a full conntrack table drops the kubelet's own
// connections, so when both fail the table is the most likely cause and the timeouts are what
// it explains (bundles11/06: the timeouts outranked it on severity).
func TestConntrackFullExplainsAPIServerTimeout(t *testing.T) {
	metas := Default().Metas()
	d := Diagnose([]Finding{
		{ID: "runtime.apiserver-timeout", Status: StatusFail, Severity: SeverityCritical},
		{ID: "runtime.conntrack-full", Status: StatusFail, Severity: SeverityMedium},
	}, metas)
	if d.MostLikelyCause != "runtime.conntrack-full" {
		t.Fatalf("most likely %q, ranked %v", d.MostLikelyCause, d.Ranked)
	}
}
