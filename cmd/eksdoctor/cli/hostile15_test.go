package cli

// Red team 15: hostile and broken inputs of kinds earlier rounds did not try.

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// jsonNumberSnap writes a copy of the hostile snapshot whose instance's hop limit is v, raw JSON.
func jsonNumberSnap(t *testing.T, v string) string {
	t.Helper()
	snap := copyDir(t, hostileSnap)
	p := filepath.Join(snap, "ec2", "describe-instances.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `"HttpPutResponseHopLimit": 2`, `"HttpPutResponseHopLimit": `+v, 1)
	if s == string(b) {
		t.Fatal("fixture has no hop limit of 2")
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestHostileNumberThatDoesNotFitIsNamed: a number where the command writes a number, but one
// the field cannot hold (too large for its integer, a fraction, negative where only counts go),
// is named with its value and why, never as "a number where … writes a number"; read from a
// snapshot or pasted.
func TestHostileNumberThatDoesNotFitIsNamed(t *testing.T) {
	for _, v := range []string{"99999999999999999999", "2.5", "1e400"} {
		snap := jsonNumberSnap(t, v)
		code, _, stderr := run("why-not-joining", hostileInstance, "--snapshot", snap)
		if strings.Contains(stderr, "is a number where") || !strings.Contains(stderr, v) || !strings.Contains(stderr, "HttpPutResponseHopLimit") {
			t.Errorf("snapshot, hop limit %s: exit %d, the message does not name the value and why it does not fit:\n%s", v, code, stderr)
		}
		if code != ExitInput {
			t.Errorf("snapshot, hop limit %s: exit %d, want %d", v, code, ExitInput)
		}
		b, _ := os.ReadFile(filepath.Join(snap, "ec2", "describe-instances.json"))
		code, out, stderr := runStdin(strings.NewReader(string(b)), "analyze", "-", "--all")
		// the paste's JSON is decoded as a float first: the value is shown as that (1e+20)
		if strings.Contains(out+stderr, "is a number where") || !strings.Contains(out+stderr, "HttpPutResponseHopLimit is the number") && !strings.Contains(out+stderr, "the number "+v) {
			t.Errorf("paste, hop limit %s: exit %d, the message does not name the value and why it does not fit:\n%s\n%s", v, code, stderr, out)
		}
		// the paste's one document could not be read: nothing was, which is an input problem
		if code != ExitInput {
			t.Errorf("paste, hop limit %s: exit %d, want %d (its one document could not be read)", v, code, ExitInput)
		}
	}
}
