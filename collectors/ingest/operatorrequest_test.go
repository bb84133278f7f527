package ingest

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// failingFindings returns the findings the paste's log hits would fail (NodeLogs.Failing).
func failingFindings(ev *evidence.Evidence) []string {
	var out []string
	if ev.NodeLogs == nil {
		return nil
	}
	for _, h := range ev.NodeLogs.Hits {
		if ev.NodeLogs.Failing(h) {
			out = append(out, h.Finding)
		}
	}
	return out
}

// TestAnonymousRequestAnswers: what the API server or IMDS answers the poster's own curl that
// sent no credentials (the API server's 403 for system:anonymous, IMDS's 401 page without an
// IMDSv2 token) is what any anonymous request gets, not the kubelet's identity or a script's
// answer (blind pastes25/11, pastes25/14); the same answer to a request that carried the node's
// token is still read, and so is a kubelet line quoting the 403.
func TestAnonymousRequestAnswers(t *testing.T) {
	status := `{
  "kind": "Status",
  "apiVersion": "v1",
  "metadata": {},
  "status": "Failure",
  "message": "nodes \"ip-10-20-33-161.eu-west-2.compute.internal\" is forbidden: User \"system:anonymous\" cannot get resource \"nodes\" in API group \"\" at the cluster scope",
  "reason": "Forbidden",
  "code": 403
}
`
	imds := "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>\n<html>\n <head>\n  <title>401 - Unauthorized</title>\n </head>\n</html>\n"
	kubelet := `Feb 17 10:41:09 ip-10-20-33-161 kubelet[2344]: E0217 10:41:09.961650    2344 kubelet_node_status.go:107] "Unable to register node with API server" err="nodes is forbidden: User \"system:anonymous\" cannot create resource \"nodes\" in API group \"\" at the cluster scope"` + "\n"
	for _, tc := range []struct {
		name, paste, want string
	}{
		{"anonymous curl of the API server on the node", "[root@ip-10-20-33-161 ~]# curl -sk https://A4C7.gr7.eu-west-2.eks.amazonaws.com/api/v1/nodes/ip-10-20-33-161.eu-west-2.compute.internal\n" + status, ""},
		{"anonymous curl from a workstation", "dana@laptop:~$ curl -k https://A4C7.gr7.eu-west-2.eks.amazonaws.com/api/v1/nodes/x\n" + status, ""},
		{"curl with a bearer token", "[root@ip-10-20-33-161 ~]# curl -sk -H \"Authorization: Bearer $TOKEN\" https://A4C7.gr7.eu-west-2.eks.amazonaws.com/api/v1/nodes/x\n" + status, "runtime.unauthorized"},
		{"curl with the kubelet's client certificate", "[root@ip-10-20-33-161 ~]# curl -s --cert /var/lib/kubelet/pki/kubelet-client-current.pem https://A4C7.gr7.eu-west-2.eks.amazonaws.com/api/v1/nodes/x\n" + status, "runtime.unauthorized"},
		{"the kubelet's own line", kubelet, "runtime.unauthorized"},
		{"tokenless curl of IMDS", "[ec2-user@ip-10-7-130-22 ~]$ curl -s http://169.254.169.254/latest/meta-data/iam/security-credentials/\n" + imds, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(failingFindings(Read([]byte(tc.paste), "p", Options{}).Evidence), ",")
			if got != tc.want {
				t.Errorf("failing %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPromptOfAnyCommandEndsOutput: a prompt that names its user and host (or a bash version)
// ends the output above it whatever command follows, so the next command's output (iptables
// rules) is not read as part of the kubelet journal above it — where it made unfold take the
// journal's records for one wrapped line and lose the "became ready" line (blind pastes25/14).
func TestPromptOfAnyCommandEndsOutput(t *testing.T) {
	cni := `Oct 24 06:03:%02d ip-10-7-130-22.us-west-1.compute.internal kubelet[3391]: E1024 06:03:%02d.104522    3391 kubelet.go:2920] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"`
	paste := "[ec2-user@ip-10-7-130-22 ~]$ sudo journalctl -u kubelet --no-pager | grep -E 'E1024|NodeReady' | cut -c1-330\n"
	for _, s := range []int{28, 29, 33, 38} {
		paste += strings.ReplaceAll(strings.Replace(cni, "%02d", itoa2(s), 1), "%02d", itoa2(s)) + "\n"
	}
	paste += `Oct 24 06:03:41 ip-10-7-130-22.us-west-1.compute.internal kubelet[3391]: I1024 06:03:41.880163    3391 kubelet_node_status.go:493] "Fast updating node status as it just became ready"` + "\n" +
		"[ec2-user@ip-10-7-130-22 ~]$ sudo iptables -t nat -S | head -4\n-P PREROUTING ACCEPT\n-P INPUT ACCEPT\n-P OUTPUT ACCEPT\n-P POSTROUTING ACCEPT\n" +
		"bash-5.2# df -h /\nFilesystem      Size  Used Avail Use% Mounted on\n/dev/nvme0n1p1   20G  4.6G   16G  23% /\n"
	segs := Segments([]byte(paste))
	var shells []string
	for _, s := range segs {
		shells = append(shells, s.shell)
	}
	if len(segs) != 3 || segs[0].Last != 6 || !strings.HasPrefix(segs[1].shell, "sudo iptables") || segs[2].shell != "df -h /" {
		t.Fatalf("segments %d, shells %q", len(segs), shells)
	}
	ev := Read([]byte(paste), "p", Options{}).Evidence
	ready := false
	for _, h := range ev.NodeLogs.Hits {
		ready = ready || h.Signature == "node-became-ready"
		if h.Finding == "runtime.cni-not-ready" && h.Count != 4 {
			t.Errorf("%s: %d lines, want 4", h.Signature, h.Count)
		}
	}
	if !ready {
		t.Error("the became-ready line was not read")
	}
}

func itoa2(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }

// TestAPISettingsAccepted: Bottlerocket settings as `apiclient get` prints them are what the
// node's API holds, which its settings model accepted: a value eksdoctor's reading of the model
// refuses (a taint without "value:") is a warning there (blind pastes25/12), and still an error
// in settings pasted with no command.
func TestAPISettingsAccepted(t *testing.T) {
	settings := `{
  "settings": {
    "kubernetes": {
      "api-server": "https://6E0B.sk1.us-west-2.eks.amazonaws.com",
      "cluster-name": "ml-platform-usw2",
      "cluster-dns-ip": "172.20.0.10",
      "node-taints": {
        "karpenter.sh/unregistered": [
          "NoExecute"
        ]
      }
    }
  }
}
`
	for _, tc := range []struct {
		name, paste string
		want        evidence.IssueLevel
	}{
		{"apiclient get", "bash-5.2# apiclient get settings.kubernetes\n" + settings, evidence.IssueWarning},
		{"apiclient -u through sheltie", "[root@admin]# sudo sheltie apiclient -u /settings\n" + settings, evidence.IssueWarning},
		{"no command", settings, evidence.IssueError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := Read([]byte(tc.paste), "p", Options{}).Evidence
			if ev.Bootstrap == nil || len(ev.Bootstrap.Issues) != 1 {
				t.Fatalf("bootstrap %+v", ev.Bootstrap)
			}
			is := ev.Bootstrap.Issues[0]
			if is.Level != tc.want || !strings.Contains(is.Message, "node-taints") {
				t.Errorf("issue %+v, want level %s", is, tc.want)
			}
			if tc.want == evidence.IssueWarning && !strings.Contains(is.Message, "the node's API holds") {
				t.Errorf("message %q does not say why it is only a warning", is.Message)
			}
		})
	}
}
