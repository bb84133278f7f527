package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestShippedRecordsKeepTheirNode: node A's kubelet is refused with 401s whose lines name no
// node (only the record's host says whose they are), node B registers and becomes Ready; both
// nodes' records are delivered in one paste (red team round 9, finding 1: a CloudWatch console
// copy or a Logs Insights CSV of Container Insights records gave joined, Ready, exit 0, node B's
// registration ending node A's failure). The record's host attributes its line as a journal
// line's host does: cause-found, runtime.unauthorized, exit 1, as for the plain journal.
func TestShippedRecordsKeepTheirNode(t *testing.T) {
	const a, b = "ip-10-0-1-23.ec2.internal", "ip-10-0-2-45.ec2.internal"
	var evs []shippedEvent
	for i := range 3 {
		evs = append(evs, shippedEvent{fmt.Sprintf("2026-11-24T10:01:%02d.223Z", 1+7*i), a, "kubelet.service",
			fmt.Sprintf(`E1124 10:01:%02d.223456    2345 reflector.go:158] "Unhandled Error" err="k8s.io/client-go/informers/factory.go:160: Failed to watch *v1.Node: failed to list *v1.Node: Unauthorized" logger="UnhandledError"`, 1+7*i)})
	}
	evs = append(evs,
		shippedEvent{"2026-11-24T10:01:30.000Z", b, "kubelet.service", `I1124 10:01:30.000000    2877 kubelet_node_status.go:72] "Attempting to register node" node="` + b + `"`},
		shippedEvent{"2026-11-24T10:01:30.100Z", b, "kubelet.service", `I1124 10:01:30.100000    2877 kubelet_node_status.go:75] "Successfully registered node" node="` + b + `"`},
		shippedEvent{"2026-11-24T10:01:40.100Z", b, "kubelet.service", `I1124 10:01:40.100000    2877 kubelet_node_status.go:488] "Fast updating node status as it just became ready"`},
	)
	var journal strings.Builder
	for _, e := range evs {
		at, _ := time.Parse(time.RFC3339Nano, e.at)
		fmt.Fprintf(&journal, "%s %s kubelet[%d]: %s\n", at.Format("Jan 02 15:04:05"), e.host, len(e.host), e.msg)
	}
	ins := map[string]string{"plain journal": journal.String()}
	for _, sh := range shippedShapes[:3] {
		ins[sh.name] = sh.render(evs)
	}
	// `aws logs filter-log-events` of the dataplane log group: the record in each event's message
	var events []map[string]any
	for _, e := range evs {
		at, _ := time.Parse(time.RFC3339Nano, e.at)
		rec, _ := json.Marshal(map[string]string{"hostname": e.host, "systemd_unit": e.unit, "message": e.msg})
		events = append(events, map[string]any{"logStreamName": e.host + "-" + e.unit, "timestamp": at.UnixMilli(), "message": string(rec), "ingestionTime": at.UnixMilli() + 900, "eventId": fmt.Sprint(at.UnixNano())})
	}
	fle, _ := json.MarshalIndent(map[string]any{"events": events, "searchedLogStreams": []any{}}, "", "    ")
	ins["filter-log-events"] = string(fle) + "\n"
	for name, in := range ins {
		code, out, errOut := runStdin(strings.NewReader(in), "analyze", "-", "-o", "json")
		r := verdictOf(t, out)
		if code != ExitFindings || r.Diagnosis.Verdict != "cause-found" || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.unauthorized" {
			t.Errorf("%s: exit %d %s %s %v %q", name, code, errOut, r.Diagnosis.Verdict, r.Diagnosis.MostLikelyCause, r.Diagnosis.Summary)
		}
		if st, _ := findingOf(t, out, "runtime.unauthorized"); st != "fail" {
			t.Errorf("%s: runtime.unauthorized %s", name, st)
		}
	}
}
