package ingest

import (
	"testing"
	"time"
)

// TestCollectedAtIsTheLastDatedLine: a paste's logs are dated by their newest dated line, whether
// or not a signature matched it (red team round 9, finding 2: "collected" was the time of the last
// matched line, 23:50:11, though the input ran to 00:20:31).
func TestCollectedAtIsTheLastDatedLine(t *testing.T) {
	const in = `2026-11-24T23:50:01.300Z	{"hostname":"ip-10-0-1-23.ec2.internal","systemd_unit":"kubelet.service","message":"I1124 23:50:01.300000    2345 kubelet_node_status.go:75] \"Successfully registered node\" node=\"ip-10-0-1-23.ec2.internal\""}
2026-11-24T23:50:11.100Z	{"hostname":"ip-10-0-1-23.ec2.internal","systemd_unit":"kubelet.service","message":"I1124 23:50:11.100000    2345 kubelet_node_status.go:488] \"Fast updating node status as it just became ready\""}
2026-11-25T00:20:31.123Z	{"hostname":"ip-10-0-1-23.ec2.internal","systemd_unit":"kubelet.service","message":"I1125 00:20:31.123456    2345 some_file.go:1] \"a line no signature reads\""}
`
	r := Read([]byte(in), "stdin", Options{})
	if want := time.Date(2026, 11, 25, 0, 20, 31, 123000000, time.UTC); !r.Evidence.CollectedAt.Equal(want) {
		t.Errorf("collected %v, want %v (%v)", r.Evidence.CollectedAt, want, types(r.Segments))
	}
	// the same with the newest line first (a Logs Insights export): its time, not the last line's
	const csv = "@timestamp,@logStream,@message\n" +
		`2026-11-25 00:20:31.123,ip-10-0-1-23.ec2.internal-kubelet.service,"{""hostname"": ""ip-10-0-1-23.ec2.internal"", ""message"": ""I1125 00:20:31.123456    2345 some_file.go:1] a line no signature reads""}"` + "\n" +
		`2026-11-24 23:50:01.300,ip-10-0-1-23.ec2.internal-kubelet.service,"{""hostname"": ""ip-10-0-1-23.ec2.internal"", ""message"": ""I1124 23:50:01.300000    2345 kubelet_node_status.go:75] \""Successfully registered node\"" node=\""ip-10-0-1-23.ec2.internal\""""}"` + "\n"
	r = Read([]byte(csv), "stdin", Options{})
	if want := time.Date(2026, 11, 25, 0, 20, 31, 123000000, time.UTC); !r.Evidence.CollectedAt.Equal(want) {
		t.Errorf("CSV: collected %v, want %v (%v)", r.Evidence.CollectedAt, want, types(r.Segments))
	}
}
