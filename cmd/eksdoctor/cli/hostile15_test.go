package cli

// Red team 15: hostile and broken inputs of kinds earlier rounds did not try.

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestHostileNewestFirstLogKeepsItsVerdict: the same node log pasted oldest first and newest
// first (journalctl -r, a Logs Insights export sorted by @timestamp desc, tac) is judged alike,
// whatever prefix dates its lines: journalctl's short and short-iso forms, rsyslog's
// RSYSLOG_FileFormat (RFC 3339 with microseconds and the offset, then host and tag), `aws logs
// tail` of journal messages, `kubectl logs --timestamps`, CRI. The log shows a Node registered
// and Ready, then refused with 401 ten minutes later: joined, NotReady, runtime.unauthorized,
// exit 1, in either order. (Red team 15: rsyslog's stamp was taken for `aws logs tail`'s and
// removed, leaving the lines undated, so reversed they read as a 401 that Ready ended: exit 0.)
func TestHostileNewestFirstLogKeepsItsVerdict(t *testing.T) {
	const host = "ip-10-0-1-23.ec2.internal"
	type rec struct{ clock, klog string }
	recs := []rec{
		{"15:30:01", `I0724 15:30:01.123456    3021 kubelet_node_status.go:72] "Attempting to register node" node="` + host + `"`},
		{"15:30:02", `I0724 15:30:02.123456    3021 kubelet_node_status.go:75] "Successfully registered node" node="` + host + `"`},
		{"15:30:09", `I0724 15:30:09.123456    3021 kubelet_node_status.go:493] "Fast updating node status as it just became ready"`},
		{"15:40:08", `E0724 15:40:08.223456    3021 kubelet_node_status.go:94] "Unable to register node with API server" err="Unauthorized" node="` + host + `"`},
		{"15:40:18", `E0724 15:40:18.223456    3021 kubelet_node_status.go:94] "Unable to register node with API server" err="Unauthorized" node="` + host + `"`},
	}
	forms := map[string]func(rec) string{
		"journal short":     func(r rec) string { return "Jul 24 " + r.clock + " " + host + " kubelet[3021]: " + r.klog },
		"journal short-iso": func(r rec) string { return "2026-07-24T" + r.clock + "+0000 " + host + " kubelet[3021]: " + r.klog },
		"rsyslog RFC 3339": func(r rec) string {
			return "2026-07-24T" + r.clock + ".000000+00:00 " + host + " kubelet[3021]: " + r.klog
		},
		"aws logs tail of journal messages": func(r rec) string {
			return "2026-07-24T" + r.clock + ".000000+00:00 kubelet/i-0abc kubelet[3021]: " + r.klog
		},
		"aws logs tail of klog": func(r rec) string {
			return "2026-07-24T" + r.clock + ".000000+00:00 " + host + "-kubelet.service " + r.klog
		},
		"kubectl logs --timestamps":         func(r rec) string { return "2026-07-24T" + r.clock + ".123456789Z " + r.klog },
		"CRI container log":                 func(r rec) string { return "2026-07-24T" + r.clock + ".123456789Z stderr F " + r.klog },
		"klog alone":                        func(r rec) string { return r.klog },
		"journal short, Windows CRLF":       func(r rec) string { return "Jul 24 " + r.clock + " " + host + " kubelet[3021]: " + r.klog + "\r" },
		"rsyslog RFC 3339, tag without PID": func(r rec) string { return "2026-07-24T" + r.clock + ".000000+00:00 " + host + " kubelet: " + r.klog },
	}
	for name, form := range forms {
		var lines []string
		for _, r := range recs {
			lines = append(lines, form(r))
		}
		fwd := strings.Join(lines, "\n") + "\n"
		slices.Reverse(lines)
		rev := strings.Join(lines, "\n") + "\n"
		for order, in := range map[string]string{"oldest first": fwd, "newest first": rev} {
			code, out, stderr := runStdin(strings.NewReader(in), "analyze", "-", "-o", "json")
			var rep struct {
				Diagnosis struct {
					Verdict         string `json:"verdict"`
					MostLikelyCause string `json:"mostLikelyCause"`
				} `json:"diagnosis"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Errorf("%s, %s: no JSON report (exit %d): %v\n%s", name, order, code, err, stderr)
				continue
			}
			if code != ExitFindings || rep.Diagnosis.MostLikelyCause != "runtime.unauthorized" {
				t.Errorf("%s, %s: exit %d, verdict %s, cause %q; want exit 1 and runtime.unauthorized (401s ten minutes after Ready)",
					name, order, code, rep.Diagnosis.Verdict, rep.Diagnosis.MostLikelyCause)
			}
		}
	}
}
