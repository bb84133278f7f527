package checks

import "testing"

// TestJournalHost: the host of a journal line is read from journalctl's short output and from
// its short-iso and short-iso-precise outputs (the form a shipped journald record is read as,
// red team round 9, finding 1); lines that only look alike name no host.
func TestJournalHost(t *testing.T) {
	for _, c := range []struct{ line, host string }{
		{"Nov 23 10:11:52 ip-10-0-1-23.ec2.internal kubelet[2990]: E1123 …", "ip-10-0-1-23.ec2.internal"},
		{"2026-11-24T10:01:01+0000 ip-10-0-1-23 kubelet[2345]: E1124 …", "ip-10-0-1-23"},
		{"2026-11-24T10:01:01.223000+0000 ip-10-0-1-23.ec2.internal kubelet.service: E1124 …", "ip-10-0-1-23.ec2.internal"},
		{"2026-11-24T10:01:01.223+00:00 ip-10-0-1-23.ec2.internal init.scope: Started kubelet.service", "ip-10-0-1-23.ec2.internal"},
		{"2026-11-24T10:01:01Z info controller: launched nodeclaim", ""},
		{"2026-11-24T10:01:01.123456789Z stderr F E1124 10:01:01.1 1 a.go:1] x: y", ""},
		{"E1124 10:01:01.223456    2345 kubelet_node_status.go:96] \"Unable to register node\"", ""},
	} {
		if got := JournalHost(c.line); got != c.host {
			t.Errorf("JournalHost(%q) = %q, want %q", c.line, got, c.host)
		}
	}
}
