package logscan

import (
	"strings"
	"testing"
	"time"
)

// Red team 11a #14: a Windows collector's kubelet-service.csv (Get-WinEvent | Export-Csv:
// "Message","Id","Version",…,"TimeCreated",…) was quoted as the whole record, its quoting
// mangled; a line is now quoted as its Message field, its time still read from the record.
func TestCSVEventRecordQuotesTheMessage(t *testing.T) {
	rec := `"I1124 10:01:02.400000 4532 kubelet_node_status.go:75] ""Successfully registered node"" node=""ip-10-0-1-15.eu-west-1.compute.internal""","1","0",,"4","0","0","-9223372036854775808","997","kubelet",,"EKS","4532",,"EC2AMAZ-ABC123",,"11/24/2026 10:01:02 AM",,,"System.UInt32[]","System.Diagnostics.Eventing.Reader.EventBookmark","Information","Info",,"Classic"`
	sc := MustDefault()
	sc.Ref = time.Date(2026, 11, 24, 10, 30, 0, 0, time.UTC)
	sc.CSVQuoted = true
	if err := sc.Scan(strings.NewReader(`"Message","Id"`+"\n"+rec+"\n"), "system/kubelet/kubelet-service.csv", "kubelet"); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, h := range sc.Result("windows").Hits {
		if !strings.Contains(h.First.Text, "Successfully registered node") {
			continue
		}
		found = true
		want := `I1124 10:01:02.400000 4532 kubelet_node_status.go:75] "Successfully registered node" node="ip-10-0-1-15.eu-west-1.compute.internal"`
		if h.First.Text != want {
			t.Errorf("text %q, want %q", h.First.Text, want)
		}
		if h.First.Time.IsZero() {
			t.Errorf("time lost")
		}
	}
	if !found {
		t.Fatal("registration line not matched")
	}
}
