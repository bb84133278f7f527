package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestClockStepJudgedBySourceAndOrder: chronyd's "System clock was stepped" is judged by the
// source the clock follows after it and by what the kubelet logs after it, the lines ordered by
// their place in the one journal (timestamps jump at a step: journald stamps the step line and
// every later one with the new time). A step to Amazon Time Sync puts the clock right, even
// when the step line is stamped earlier than "System clock wrong by"; a step to another server
// is only as right as that server: the kubelet refused (401) after it leaves the clock skew the
// cause (the 401s follow from it), a registration after it shows the clock was right.
func TestClockStepJudgedBySourceAndOrder(t *testing.T) {
	const host = "ip-10-31-88-46.eu-west-1.compute.internal"
	line := func(clock, comp, msg string) string {
		return fmt.Sprintf("Feb 16 %s %s %s: %s\n", clock, host, comp, msg)
	}
	chrony := func(source, wrongAt, steppedAt, by string) []string {
		return []string{
			line(wrongAt, "chronyd[1390]", "chronyd version 4.6 starting (+CMDMON +NTP +REFCLOCK +RTC +PRIVDROP -SCFILTER -SIGND +ASYNCDNS +NTS +SECHASH +IPV6 -DEBUG)"),
			line(wrongAt, "chronyd[1390]", "Selected source "+source),
			line(wrongAt, "chronyd[1390]", "System clock wrong by "+by+" seconds"),
			line(steppedAt, "chronyd[1390]", "System clock was stepped by "+by+" seconds"),
		}
	}
	kubelet := func(clock, msg string) string {
		return line(clock, "kubelet[1711]", fmt.Sprintf("I0216 %s.000000    1711 %s", clock, msg))
	}
	registered := func(at, ready string) []string {
		return []string{
			kubelet(at, `kubelet_node_status.go:75] "Attempting to register node" node="`+host+`"`),
			kubelet(at, `kubelet_node_status.go:78] "Successfully registered node" node="`+host+`"`),
			kubelet(ready, `kubelet_node_status.go:493] "Recording event message for node" node="`+host+`" event="NodeReady"`),
		}
	}
	refused := func(hour int) []string {
		var out []string
		for m := 1; m < 40; m += 3 {
			c := fmt.Sprintf("%02d:%02d:13", hour, m)
			out = append(out,
				line(c, "kubelet[1711]", fmt.Sprintf(`E0216 %s.741788    1711 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="%s"`, c, host)),
				line(c, "kubelet[1711]", fmt.Sprintf(`E0216 %s.841873    1711 controller.go:145] "Failed to ensure lease exists, will retry" err="Unauthorized" interval="7s"`, c)))
		}
		return out
	}
	join := func(parts ...[]string) string {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(strings.Join(p, ""))
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, input, verdict, cause string
		skew, unauthorized          string // statuses of the two findings
		code                        int
	}{
		{"clock ahead at boot, stepped back to Amazon Time Sync, then Ready",
			join(chrony("169.254.169.123", "10:00:00", "09:00:00", "-3600.1"), registered("09:00:10", "09:00:20")),
			"joined", "", "pass", "", ExitOK},
		{"stepped to Amazon Time Sync over IPv6 (its name beside), then Ready",
			join(chrony("fd00:ec2::123 (fd00:ec2::123)", "10:00:00", "09:00:00", "-3600.1"), registered("09:00:10", "09:00:20")),
			"joined", "", "pass", "", ExitOK},
		{"stepped back by a corporate server, then refused",
			join(chrony("10.31.0.20", "09:31:13", "08:01:11", "-5402.331877"), refused(8)),
			"cause-found", "runtime.clock-skew", "fail", "skipped", ExitFindings},
		{"stepped forward by a corporate server, then refused",
			join(chrony("10.31.0.20 (ntp1.corp.example.com)", "08:01:11", "09:31:13", "5402.331877"), refused(9)),
			"cause-found", "runtime.clock-skew", "fail", "skipped", ExitFindings},
		{"another node's chronyd selecting Amazon Time Sync between the step's source and the step",
			join(chrony("10.31.0.20", "09:31:13", "08:01:11", "-5402.331877")[:2],
				[]string{"Feb 16 09:31:13 ip-10-31-7-9 chronyd[977]: Selected source 169.254.169.123\n"},
				chrony("10.31.0.20", "09:31:13", "08:01:11", "-5402.331877")[2:], refused(8)),
			"cause-found", "runtime.clock-skew", "fail", "skipped", ExitFindings},
		{"stepped by a corporate server, then Ready",
			join(chrony("10.31.0.20", "10:00:00", "09:00:00", "-3600.1"), registered("09:00:10", "09:00:20")),
			"joined", "", "pass", "", ExitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runStdin(strings.NewReader(tc.input), "analyze", "-", "-o", "json")
			var r struct {
				Diagnosis struct {
					Verdict         string
					MostLikelyCause *string
				}
				Findings []struct{ ID, Status, Message string }
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("exit %d: %v %s", code, err, errOut)
			}
			cause := ""
			if r.Diagnosis.MostLikelyCause != nil {
				cause = *r.Diagnosis.MostLikelyCause
			}
			status := map[string]string{}
			msg := map[string]string{}
			for _, f := range r.Findings {
				status[f.ID], msg[f.ID] = f.Status, f.Message
			}
			if r.Diagnosis.Verdict != tc.verdict || cause != tc.cause || code != tc.code {
				t.Errorf("verdict %s, cause %q, exit %d; want %s, %q, exit %d", r.Diagnosis.Verdict, cause, code, tc.verdict, tc.cause, tc.code)
			}
			if status["runtime.clock-skew"] != tc.skew {
				t.Errorf("runtime.clock-skew %s (%s); want %s", status["runtime.clock-skew"], msg["runtime.clock-skew"], tc.skew)
			}
			if tc.unauthorized != "" && status["runtime.unauthorized"] != tc.unauthorized {
				t.Errorf("runtime.unauthorized %s (%s); want %s", status["runtime.unauthorized"], msg["runtime.unauthorized"], tc.unauthorized)
			}
			if tc.skew == "fail" && !strings.Contains(msg["runtime.clock-skew"], "10.31.0.20") {
				t.Errorf("runtime.clock-skew message does not name the source the step followed: %s", msg["runtime.clock-skew"])
			}
		})
	}
}
