package logscan

import (
	"testing"
	"time"
)

// TestKlogTimeInsideTableRow: a Get-WinEvent | Format-Table row puts its TimeCreated (to the
// second, in the viewer's locale) and level before the kubelet's klog line; the klog header's
// time, to the microsecond, dates the row, so two rows of one second are ordered by it (blind
// pastes25/13: a TLS handshake timeout 0.2 s before "Successfully registered node", listed
// newest first). A line's own leading stamp still wins, and text that only mentions a klog-like
// token is not dated.
func TestKlogTimeInsideTableRow(t *testing.T) {
	ref := time.Date(2025, 12, 9, 11, 58, 20, 0, time.UTC)
	for _, tc := range []struct {
		line string
		want time.Time
	}{
		{`12/9/2025 11:26:48 AM  Information      I1209 11:26:48.513072    3920 kubelet_node_status.go:78] "Successfully registered node" node="ip-10-0-7-44.ec2.internal"`, time.Date(2025, 12, 9, 11, 26, 48, 513072000, time.UTC)},
		{`Dec 09 11:26:49 ip-10-0-7-44 kubelet[3920]: I1209 11:26:48.513072    3920 kubelet_node_status.go:78] "Successfully registered node"`, time.Date(2025, 12, 9, 11, 26, 49, 0, time.UTC)},
		{`the kubelet said I1209 11:26:48 something`, time.Time{}},
	} {
		if got := ParseTime(tc.line, ref); !got.Equal(tc.want) {
			t.Errorf("%q: %v, want %v", tc.line, got, tc.want)
		}
	}
}
