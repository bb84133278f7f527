package cli

import (
	"strings"
	"testing"
)

// TestTimelineAcrossDaysOfYearlessLines (red team 7, noticed): a ticket quoting journal lines of
// two days without a year ("before the fix, Nov 22" and "after, Nov 23") lays the timeline out
// by date, not by time of day, and shows each line's month and day. (The lines are one node's: a
// new instance's registration would not end the first node's failure, round 8b finding 02.)
func TestTimelineAcrossDaysOfYearlessLines(t *testing.T) {
	paste := "Before (Nov 22):\n```\n" +
		`Nov 22 14:02:10 ip-10-0-12-7 kubelet[3011]: E1122 14:02:10.551201    3011 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-12-7.ec2.internal"` + "\n" +
		"```\n\nAfter (Nov 23), the same node after the fix:\n```\n" +
		`Nov 23 09:41:03 ip-10-0-12-7 kubelet[2950]: I1123 09:41:03.301221    2950 kubelet_node_status.go:76] "Successfully registered node" node="ip-10-0-12-7.ec2.internal"` + "\n" +
		`Nov 23 09:41:15 ip-10-0-12-7 kubelet[2950]: I1123 09:41:15.882001    2950 kubelet_node_status.go:493] "Fast updating node status as it just became ready"` + "\n```\n"
	_, out, errOut := runStdin(strings.NewReader(paste), "analyze", "-", "--no-color")
	failure, registered := strings.Index(out, "Nov 22 14:02:10  ✗"), strings.Index(out, "Nov 23 09:41:03  ✓")
	if failure < 0 || registered < 0 || failure > registered || strings.Contains(out, "multi-day") {
		t.Errorf("timeline of two days: failure at %d, registration at %d\n%s\n%s", failure, registered, errOut, out)
	}
}
