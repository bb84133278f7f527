package ingest

import (
	"strings"
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

// TestCollectedAtNotBeforeOtherArtefacts: a log pasted beside a NodeClaim whose conditions are
// later than the log's last line dates nothing — the paste was put together after both, at a
// time no artefact shows — so the NodeClaim is not aged against the old log's end (the eval's
// mixed pair 016 + 912: a 2019 IPAMD log made a 2024 NodeClaim "launched after collection").
func TestCollectedAtNotBeforeOtherArtefacts(t *testing.T) {
	const log = "2019-07-03T20:29:20Z [ERROR] Failed to get eni limit due to unknown instance type m5.metal\n2019-07-03T20:29:21Z [INFO] Setting up host network...\n"
	const claim = "  Conditions:\n    Last Transition Time:  2024-11-15T17:08:57Z\n    Message:\n    Reason:                Launched\n    Status:                True\n    Type:                  Launched\n    Last Transition Time:  2024-11-15T17:10:23Z\n    Message:               Registered=False\n    Reason:                UnhealthyDependents\n    Status:                False\n    Type:                  Ready\n"
	r := Read([]byte("```\n"+log+"```\n\nand the NodeClaim:\n\n```\n"+claim+"```\n"), "paste.md", Options{})
	if len(r.Evidence.NodeClaims) == 0 || r.Evidence.NodeLogs == nil {
		t.Fatalf("not read as a log and a NodeClaim: %v", types(r.Segments))
	}
	if !r.Evidence.CollectedAt.IsZero() {
		t.Errorf("collected %v, want unknown", r.Evidence.CollectedAt)
	}
	r = Read([]byte(log), "paste.md", Options{})
	if want := time.Date(2019, 7, 3, 20, 29, 21, 0, time.UTC); !r.Evidence.CollectedAt.Equal(want) {
		t.Errorf("the log alone: collected %v, want %v", r.Evidence.CollectedAt, want)
	}
}

// TestUnwrapStopsAtTheNextRecord: a JSON record cut inside a string (a shipper's byte limit) is
// not joined with the next line when that line starts a record of its own — a JSON record or a
// timestamped line (red team round 9, finding 6) —, while a record a paste broke inside a string
// is still joined with its continuation.
func TestUnwrapStopsAtTheNextRecord(t *testing.T) {
	const cut = `{"level":"ERROR","time":"2026-11-24T10:01:01.000Z","logger":"controller","message":"creating instance, insufficient capacity, with fleet error(s), UnfulfillableCap`
	const cut2 = `{"level":"ERROR","time":"2026-11-24T10:01:03.000Z","message":"creating instance, insufficient capacity`
	for _, next := range []string{
		`{"level":"INFO","time":"2026-11-24T10:01:02.000Z","logger":"controller","message":"launched nodeclaim"}`,
		`2026-11-24T10:01:02.100Z	{"hostname":"ip-10-0-1-23.ec2.internal","message":"I1124 10:01:02.100000    2345 kubelet_node_status.go:75] ok"}`,
		`Nov 24 10:01:02 ip-10-0-1-23 kubelet[2345]: I1124 10:01:02.100000    2345 kubelet_node_status.go:75] ok`,
	} {
		// a second cut record closes what the first left open, counted across the lines
		in := cut + "\n" + next + "\n" + cut2
		if got := string(unwrap([]byte(in))); got != in {
			t.Errorf("joined with %q:\n%s", next, got)
		}
	}
	const broken = `{"level":"ERROR","message":"failed for eni-0b70601dc9` + "\n" + `523f511 in subnet"}`
	if got := string(unwrap([]byte(broken))); got != `{"level":"ERROR","message":"failed for eni-0b70601dc9 523f511 in subnet"}`+"\n" {
		t.Errorf("a broken record not joined: %q", got)
	}
}

// TestShippedRecordShapes: the line each shipped record is read as — its message unescaped once,
// written as journalctl's short-iso-precise line when a time, a host and a unit are known — and
// the records it leaves alone.
func TestShippedRecordShapes(t *testing.T) {
	const msg = `E1124 10:01:01.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\"`
	const want = `E1124 10:01:01.223456    2345 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized"`
	for _, c := range []struct{ in, want string }{
		// the CloudWatch console's copy of a Container Insights record
		{"2026-11-24T10:01:01.223Z\t{\"hostname\":\"ip-10-0-1-23.ec2.internal\",\"systemd_unit\":\"kubelet.service\",\"message\":\"" + msg + "\"}", "2026-11-24T10:01:01.223000+0000 ip-10-0-1-23.ec2.internal kubelet.service: " + want},
		// Fluentd's output, the host only in the tag, the identifier and PID in the record
		{"2026-11-24T10:01:01.223+00:00\tjournal.ip-10-0-1-23.ec2.internal\t{\"MESSAGE\":\"" + msg + "\",\"SYSLOG_IDENTIFIER\":\"kubelet\",\"_PID\":\"2345\"}", "2026-11-24T10:01:01.223000+0000 ip-10-0-1-23.ec2.internal kubelet[2345]: " + want},
		// a Logs Insights CSV row: the unit only in the stream's name, after its host
		{`2026-11-24 10:01:01.223,ip-10-0-1-23.ec2.internal-kubelet.service,"{"hostname": "ip-10-0-1-23.ec2.internal", "message": "` + msg + `"}"`, "2026-11-24T10:01:01.223000+0000 ip-10-0-1-23.ec2.internal kubelet.service: " + want},
		// a bare record with no time: the message alone
		{"{\"hostname\":\"ip-10-0-1-23.ec2.internal\",\"systemd_unit\":\"kubelet.service\",\"message\":\"" + msg + "\"}", want},
		// cut inside its message, after a lone backslash
		{"2026-11-24T10:01:01.223Z\t{\"hostname\":\"ip-10-0-1-23.ec2.internal\",\"systemd_unit\":\"kubelet.service\",\"message\":\"E1124 10:01:01.223456    2345 kubelet_node_status.go:96] \\\"Unable to register node with API server\\\" err=\\", "2026-11-24T10:01:01.223000+0000 ip-10-0-1-23.ec2.internal kubelet.service: " + `E1124 10:01:01.223456    2345 kubelet_node_status.go:96] "Unable to register node with API server" err=`},
	} {
		if got, ok := shippedRecord(c.in); !ok || got != c.want {
			t.Errorf("shippedRecord(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, in := range []string{
		`{"level":"info","ts":"2026-11-24T10:01:01Z","msg":"Serving RPC Handler"}`,                     // an ipamd record: read as JSON elsewhere
		"2026-11-24T10:01:01Z\t{\"hostname\":\"ip-10-0-1-23\",\"message\":\"x\",\"az\":\"us-east-1a\"", // cut between tokens
		`{"message":"no unit, no host, no columns"}`,
	} {
		if got, ok := shippedRecord(in); ok {
			t.Errorf("shippedRecord(%q) = %q, want not a shipped record", in, got)
		}
	}
}

// TestUnwrapJoinsCRIPartialLines: a CRI log line the runtime split at 16 KiB ("P") goes on in the
// next line of its stream although that line starts with a stamp (red team round 9, case27).
func TestUnwrapJoinsCRIPartialLines(t *testing.T) {
	const in = `2026-11-24T10:05:01.123456789Z stdout P {"level":"ERROR","message":"failed launching nodeclaim","error":"creating instance, \"c7i.la` + "\n" +
		`2026-11-24T10:05:01.123456789Z stdout F rge\", UnauthorizedOperation"}`
	if got := string(unwrap([]byte(in))); got != strings.Replace(in, "\n", " ", 1)+"\n" {
		t.Errorf("the partial line not joined: %q", got)
	}
}
