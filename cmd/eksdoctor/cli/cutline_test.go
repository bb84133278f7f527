package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCutKubeletLines (red team round 7 #5): kubelet "Unable to register node with API server"
// lines cut at a window's edge. The timeline shows the registration attempts the lines are
// (never "first registration attempt: not seen"); a cut that keeps the distinctive words of
// the error ("i/o tim", "signed by unkn") is judged as the whole line would be, and a cut
// before them ("x509: certif": expired, wrong host or unknown authority) is not.
func TestCutKubeletLines(t *testing.T) {
	const reg = `E1123 07:40:59.112233    2874 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \"https://E1D2C3B4A5.yl4.eu-central-1.eks.amazonaws.com/api/v1/nodes\": `
	cases := []struct {
		name, paste, finding string
		code                 int
	}{
		{"dial timeout cut in its last word",
			"from the serial console screenshot, the line got cut by the window:\n\n[  113.772194] kubelet[2874]: " + reg + "dial tcp 10.40.1.18:443: i/o tim\n",
			"runtime.apiserver-timeout", ExitFindings},
		{"unknown authority cut mid-word",
			"copied from the SSM session, the window cut the lines:\n\nNov 23 12:01:07 ip-10-8-4-22 kubelet[2401]: " + reg + "tls: failed to verify certificate: x509: certificate signed by unkn\n",
			"runtime.tls-untrusted", ExitFindings},
		{"x509 cut before the words that say which error",
			"copied from the SSM session, the window cut the lines:\n\nNov 23 12:01:14 ip-10-8-4-22 kubelet[2401]: " + reg + "tls: failed to verify certificate: x509: certif\n",
			"", ExitNothingChecked},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, r, out, errOut := analyze(t, c.paste, "-")
			if code != c.code {
				t.Errorf("exit %d, want %d; failing %v\n%s", code, c.code, failing(r), errOut)
			}
			got := failing(r)
			if c.finding != "" && (len(got) != 1 || got[0] != c.finding) {
				t.Errorf("failing %v, want [%s]", got, c.finding)
			}
			if c.finding == "" && len(got) != 0 {
				t.Errorf("a cut that removed the decisive words judged: failing %v", got)
			}
			var tl struct {
				Timeline struct {
					Milestones []struct {
						Name    string `json:"name"`
						Reached bool   `json:"reached"`
						Line    *struct {
							Line int64 `json:"line"`
						} `json:"line"`
					} `json:"milestones"`
				} `json:"timeline"`
			}
			if err := json.Unmarshal([]byte(out), &tl); err != nil {
				t.Fatal(err)
			}
			_, text, _ := runStdin(strings.NewReader(c.paste), "analyze", "-", "--no-color")
			if strings.Contains(text, "first registration attempt: not seen") {
				t.Errorf("the timeline denies the attempt the paste shows:\n%s", text)
			}
			if c.finding == "" {
				return // a line no signature knows tells the timeline nothing, and it says nothing
			}
			attempt := false
			for _, m := range tl.Timeline.Milestones {
				attempt = attempt || m.Name == "registration-attempt" && m.Reached && m.Line != nil && m.Line.Line == 3
			}
			if !attempt {
				t.Errorf("the kubelet's registration attempt on line 3 is not in the timeline: %+v", tl.Timeline.Milestones)
			}
			if !strings.Contains(text, "✓ first registration attempt (kubelet)") {
				t.Errorf("the table's timeline does not show the attempt:\n%s", text)
			}
		})
	}
}
