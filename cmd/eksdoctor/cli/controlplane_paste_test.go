package cli

import (
	"strings"
	"testing"
)

// TestPastedAuthenticatorEventsBesideJournal: the authenticator's denials pasted as
// `aws logs filter-log-events … --output text --query "events[].message"` (one tab-separated
// line) stay read when a kubelet journal is pasted under the next prompt (red team 9 #5: the
// journal's logs replaced them and the cause fell back to runtime.unauthorized), and the lines
// they are quoted from are the paste's, not a snapshot file the paste never had (#7).
func TestPastedAuthenticatorEventsBesideJournal(t *testing.T) {
	denied := `time="2026-11-24T10:01:01Z" level=warning msg="access denied" arn="arn:aws:iam::111122223333:role/prod-node-role" client="127.0.0.1:43210" error="identity is not mapped" method=POST path=/authenticate`
	events := "$ aws logs filter-log-events --log-group-name /aws/eks/prod/cluster --log-stream-name-prefix authenticator --output text --query \"events[].message\"\n" +
		denied + "\t" + strings.Replace(denied, "10:01:01Z", "10:01:08Z", 1) + "\n"
	journal := "\n$ journalctl -u kubelet --no-pager\n" +
		`Nov 24 10:01:01 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:01:01.123456    2345 kubelet_node_status.go:95] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-23.ec2.internal"` + "\n" +
		`Nov 24 10:01:08 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:01:08.123456    2345 kubelet_node_status.go:95] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-23.ec2.internal"` + "\n"
	for name, paste := range map[string]string{"alone": events, "with the journal": events + journal} {
		code, out, errOut := runStdin(strings.NewReader(paste), "analyze", "-", "-o", "json")
		if code != ExitFindings || !strings.Contains(out, `"mostLikelyCause": "auth.role-not-mapped"`) || !strings.Contains(out, "prod-node-role") {
			t.Errorf("%s: exit %d %s\n%s", name, code, errOut, out)
		}
		if strings.Contains(out, "logs/authenticator-events.json") {
			t.Errorf("%s: quotes a snapshot path the paste never had", name)
		}
	}
}

// TestAuthenticatorDenialBeforeRegistration: the authenticator denied the node role, then (the
// mapping fixed) the kubelet registered and the node became Ready: joined, nothing failing — the
// denials are over, as the kubelet's own 401s are (red team 9 #4: auth.role-not-mapped and
// auth.authenticator-denied stayed critical and most likely on a healthy node). Without the
// registration the denial is the cause.
func TestAuthenticatorDenialBeforeRegistration(t *testing.T) {
	const n = "ip-10-0-1-23.ec2.internal"
	denials := `time="2026-11-24T10:01:01Z" level=warning msg="access denied" arn="arn:aws:iam::111122223333:role/prod-node-role" client="127.0.0.1:43210" error="identity is not mapped" method=POST path=/authenticate` + "\n" +
		`time="2026-11-24T10:01:08Z" level=warning msg="access denied" arn="arn:aws:iam::111122223333:role/prod-node-role" client="127.0.0.1:43212" error="identity is not mapped" method=POST path=/authenticate` + "\n"
	refused := `Nov 24 10:01:01 ` + n + ` kubelet[2345]: E1124 10:01:01.123456    2345 kubelet_node_status.go:95] "Unable to register node with API server" err="Unauthorized" node="` + n + `"` + "\n"
	joined := `Nov 24 10:14:37 ` + n + ` kubelet[2345]: I1124 10:14:37.300000    2345 kubelet_node_status.go:75] "Successfully registered node" node="` + n + `"` + "\n" +
		`Nov 24 10:14:47 ` + n + ` kubelet[2345]: I1124 10:14:47.100000    2345 kubelet_node_status.go:488] "Fast updating node status as it just became ready"` + "\n"
	code, out, errOut := runStdin(strings.NewReader(denials+"\n"+refused+joined), "analyze", "-", "-o", "json")
	if code != ExitOK || !strings.Contains(out, `"verdict": "joined"`) || strings.Contains(out, `"status": "fail"`) {
		t.Errorf("recovered: exit %d %s\n%s", code, errOut, out)
	}
	code, out, errOut = runStdin(strings.NewReader(denials+"\n"+refused), "analyze", "-", "-o", "json")
	if code != ExitFindings || !strings.Contains(out, `"mostLikelyCause": "auth.role-not-mapped"`) {
		t.Errorf("not joined: exit %d %s\n%s", code, errOut, out)
	}
}
