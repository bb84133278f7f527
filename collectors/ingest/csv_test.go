package ingest

import (
	"strings"
	"testing"
)

// TestCSVExportQuotesAreUndoubled: a CloudWatch Logs Insights "Download CSV" (@timestamp,
// @message, @logStream) or a Splunk export (_raw) doubles the quotes inside a quoted field
// (`err=""Unauthorized""`); the rows are read with their quotes undoubled, so the kubelet's
// Unauthorized is matched and cited at the input's own line. Lines that are not CSV records (a
// klog line with an empty value `key=""`, a JSON record) keep their quotes.
func TestCSVExportQuotesAreUndoubled(t *testing.T) {
	insights := "@timestamp,@message,@logStream\n" +
		`2026-11-24 10:00:01.223,"I1124 10:00:01.123456    2345 kubelet_node_status.go:73] ""Attempting to register node"" node=""ip-10-0-1-23.ec2.internal""",i-0123456789abcdef0/kubelet` + "\n" +
		`2026-11-24 10:00:08.223,"E1124 10:00:08.223456    2345 kubelet_node_status.go:96] ""Unable to register node with API server"" err=""Unauthorized"" node=""ip-10-0-1-23.ec2.internal""",i-0123456789abcdef0/kubelet` + "\n"
	splunk := "_time,host,source,_raw\n" +
		`2026-11-24T10:00:08.000+0000,ip-10-0-1-23.ec2.internal,journald:kubelet,"Nov 24 10:00:08 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:00:08.223456    2345 kubelet_node_status.go:96] ""Unable to register node with API server"" err=""Unauthorized"" node=""ip-10-0-1-23.ec2.internal"""` + "\n"
	for name, in := range map[string]string{"insights": insights, "splunk": splunk} {
		r := Read([]byte(in), name+".csv", Options{})
		if !hasSignature(r.Evidence.NodeLogs, "kubelet-register-unauthorized") {
			t.Errorf("%s: kubelet-register-unauthorized not matched (segments %v)", name, types(r.Segments))
			continue
		}
		for _, h := range r.Evidence.NodeLogs.Hits {
			if h.Signature != "kubelet-register-unauthorized" {
				continue
			}
			if want := strings.Count(in, "\n"); h.Last.Line != int64(want) {
				t.Errorf("%s: hit cites line %d, want %d", name, h.Last.Line, want)
			}
			if !strings.Contains(h.Last.Text, `err="Unauthorized"`) {
				t.Errorf("%s: hit text keeps doubled quotes: %q", name, h.Last.Text)
			}
		}
	}
	// not CSV records: left as they are
	for _, l := range []string{
		`E1124 10:00:08.223456    2345 kubelet.go:1] "msg" key="" other="x,y"`,
		`{"a":"b","c":""}`,
		`a,"b""c`, // an unterminated field
	} {
		if got := undoubleCSV([]line{{1, l}}); got[0].text != l {
			t.Errorf("undoubleCSV(%q) = %q, want it unchanged", l, got[0].text)
		}
	}
	if got := undoubleCSV([]line{{1, `x,"say ""hi""",""`}}); got[0].text != `x,"say "hi"",""` {
		t.Errorf("undoubleCSV = %q", got[0].text)
	}
}
