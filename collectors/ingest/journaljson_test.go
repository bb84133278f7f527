package ingest

import (
	"fmt"
	"strings"
	"testing"
)

// journalBytes writes s as journald's JSON export writes a field holding a control character
// or invalid UTF-8: an array of byte values.
func journalBytes(s string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < len(s); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, s[i])
	}
	b.WriteByte(']')
	return b.String()
}

// TestJournalJSONByteArrayMessage: `journalctl -o json` (and json-pretty) writes MESSAGE as an
// array of byte values when it holds a control character or invalid UTF-8 (systemd's journal
// JSON format); such entries are read as their text, so the kubelet's Unauthorized behind a
// colour reset is matched and cited at its own line, not dropped.
func TestJournalJSONByteArrayMessage(t *testing.T) {
	msg := `E1124 10:00:08.223456    2345 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-23.ec2.internal"` + "\x1b[0m\xff"
	entry := func(ts, m string) string {
		return `{"__REALTIME_TIMESTAMP": "` + ts + `", "_HOSTNAME": "ip-10-0-1-23.ec2.internal", "SYSLOG_IDENTIFIER": "kubelet", "MESSAGE": ` + m + "}\n"
	}
	lines := entry("1795514401000000", `"I1124 10:00:01.123456    2345 kubelet_node_status.go:73] \"Attempting to register node\" node=\"ip-10-0-1-23.ec2.internal\""`) +
		entry("1795514408000000", journalBytes(msg)) + entry("1795514415000000", journalBytes(msg))
	pretty := "{\n\t\"__REALTIME_TIMESTAMP\" : \"1795514408000000\",\n\t\"SYSLOG_IDENTIFIER\" : \"kubelet\",\n\t\"MESSAGE\" : " + journalBytes(msg) + "\n}\n"
	for name, in := range map[string]string{"json": lines, "json-pretty": pretty} {
		r := Read([]byte(in), "journal.json", Options{})
		if !hasSignature(r.Evidence.NodeLogs, "kubelet-register-unauthorized") {
			t.Errorf("%s: kubelet-register-unauthorized not matched (segments %v)", name, types(r.Segments))
			continue
		}
		for _, h := range r.Evidence.NodeLogs.Hits {
			if h.Signature == "kubelet-register-unauthorized" && name == "json" && h.Last.Line != 3 {
				t.Errorf("%s: hit cites line %d, want 3", name, h.Last.Line)
			}
		}
	}
	// an array of numbers in a JSON record that is not a journal entry stays an array
	other := `{"level": "info", "msg": "ports", "ports": [80, 443]}`
	if got := journalArrays([]line{{1, other}}); got[0].text != other {
		t.Errorf("journalArrays changed a non-journal record: %q", got[0].text)
	}
}
