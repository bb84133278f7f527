package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// shippedEvent is one journal entry of a node as a log pipeline ships it: the time CloudWatch
// or Fluentd stamps it with, the node's host name, the systemd unit and the message.
type shippedEvent struct {
	at   string // RFC 3339, UTC
	host string
	unit string
	msg  string
}

// shippedShapes are the ways a log pipeline delivers a node's journal entries as JSON records:
// each renders the events one record a line.
var shippedShapes = []struct {
	name   string
	render func(evs []shippedEvent) string
}{
	// Container Insights dataplane records (Fluent Bit's systemd input) copied from the
	// CloudWatch console: the event's time, a tab, the record as compact JSON
	{"CloudWatch console copy", func(evs []shippedEvent) string {
		var b strings.Builder
		for _, e := range evs {
			rec, _ := json.Marshal(map[string]string{"hostname": e.host, "systemd_unit": e.unit, "message": e.msg})
			fmt.Fprintf(&b, "%s\t%s\n", e.at, rec)
		}
		return b.String()
	}},
	// Fluentd's stdout and file output: time, tag, record, tab-separated
	{"Fluentd stdout", func(evs []shippedEvent) string {
		var b strings.Builder
		for _, e := range evs {
			rec, _ := json.Marshal(map[string]any{"log": e.msg + "\n", "stream": "stderr", "kubernetes": map[string]string{"host": e.host}, "systemd_unit": e.unit})
			at, _ := time.Parse(time.RFC3339Nano, e.at)
			fmt.Fprintf(&b, "%s\tkubernetes.var.log.journal\t%s\n", at.Format("2006-01-02T15:04:05.000-07:00"), rec)
		}
		return b.String()
	}},
	// a Logs Insights "Download CSV" of the same records: @timestamp, @logStream, @message
	// holding the record (no unit in it; the stream names it), newest first
	{"Logs Insights CSV", func(evs []shippedEvent) string {
		b := strings.Builder{}
		b.WriteString("@timestamp,@logStream,@message\n")
		for _, e := range slices.Backward(evs) {
			rec, _ := json.Marshal(map[string]string{"hostname": e.host, "message": e.msg})
			at, _ := time.Parse(time.RFC3339Nano, e.at)
			fmt.Fprintf(&b, "%s,%s-%s,\"%s\"\n", at.Format("2006-01-02 15:04:05.000"), e.host, e.unit, strings.ReplaceAll(string(rec), `"`, `""`))
		}
		return b.String()
	}},
	// the bare records, one a line (control: read before this round)
	{"bare records", func(evs []shippedEvent) string {
		var b strings.Builder
		for _, e := range evs {
			rec, _ := json.Marshal(map[string]string{"hostname": e.host, "systemd_unit": e.unit, "message": e.msg})
			fmt.Fprintf(&b, "%s\n", rec)
		}
		return b.String()
	}},
}

// TestShippedRecordsAfterATimestampAreDecoded: a node registers and becomes Ready, then its
// status updates are refused with 401 (the message's own quotes escaped once more inside the
// kubelet's err="…"), delivered as JSON records after a timestamp column (red team round 9,
// finding 2: a CloudWatch console copy or Fluentd's output gave joined, Ready, exit 0; the
// records alone, inconclusive). Each record is read as its message, its quotes unescaped once,
// as a bare record is: joined, NotReady, runtime.unauthorized, exit 1; the failing records alone
// give cause-found.
func TestShippedRecordsAfterATimestampAreDecoded(t *testing.T) {
	const host = "ip-10-0-1-23.ec2.internal"
	evs := []shippedEvent{
		{"2026-11-24T23:50:00.000Z", host, "init.scope", "Started kubelet.service - Kubernetes Kubelet."},
		{"2026-11-24T23:50:01.000Z", host, "kubelet.service", `I1124 23:50:01.000000    2345 kubelet_node_status.go:72] "Attempting to register node" node="` + host + `"`},
		{"2026-11-24T23:50:01.300Z", host, "kubelet.service", `I1124 23:50:01.300000    2345 kubelet_node_status.go:75] "Successfully registered node" node="` + host + `"`},
		{"2026-11-24T23:50:11.100Z", host, "kubelet.service", `I1124 23:50:11.100000    2345 kubelet_node_status.go:488] "Fast updating node status as it just became ready"`},
	}
	var fails []shippedEvent
	for i := range 3 {
		fails = append(fails, shippedEvent{fmt.Sprintf("2026-11-25T00:20:%02d.123Z", 1+10*i), host, "kubelet.service",
			fmt.Sprintf(`E1125 00:20:%02d.123456    2345 kubelet_node_status.go:549] "Error updating node status, will retry" err="error getting node \"%s\": Unauthorized"`, 1+10*i, host)})
	}
	fails = append(fails, shippedEvent{"2026-11-25T00:20:31.123Z", host, "kubelet.service", `E1125 00:20:31.123456    2345 kubelet_node_status.go:536] "Unable to update node status" err="update node status exceeds retry count"`})
	for _, sh := range shippedShapes {
		code, out, errOut := runStdin(strings.NewReader(sh.render(append(slices.Clone(evs), fails...))), "analyze", "-", "-o", "json")
		r := verdictOf(t, out)
		if code != ExitFindings || r.Diagnosis.Verdict != "joined" || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.unauthorized" || !strings.Contains(r.Diagnosis.Summary, "NotReady") {
			t.Errorf("%s: exit %d %s %s %v %q", sh.name, code, errOut, r.Diagnosis.Verdict, r.Diagnosis.MostLikelyCause, r.Diagnosis.Summary)
		}
		if st, msg := findingOf(t, out, "runtime.unauthorized"); st != "fail" || !strings.Contains(msg, host) {
			t.Errorf("%s: runtime.unauthorized %s %q", sh.name, st, msg)
		}
		code, out, errOut = runStdin(strings.NewReader(sh.render(fails)), "analyze", "-", "-o", "json")
		if r = verdictOf(t, out); code != ExitFindings || r.Diagnosis.Verdict != "cause-found" || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.unauthorized" {
			t.Errorf("%s, the failing records alone: exit %d %s %s %v", sh.name, code, errOut, r.Diagnosis.Verdict, r.Diagnosis.MostLikelyCause)
		}
	}
}
