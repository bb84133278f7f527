package ingest

import "testing"

// TestPromptOfTheJournalsHostIsTheNode: a prompt naming a host that is no EC2 name
// ("root@ss-kanda-k8s02:~#", a hybrid node on premises) is the node's shell when the paste's node
// journal lines were written on that host: the address an echo service answers there is the
// node's egress address. The same prompt beside another host's journal stays a workstation's.
func TestPromptOfTheJournalsHostIsTheNode(t *testing.T) {
	journal := func(host string) string {
		return "root@" + host + ":~# journalctl -u kubelet --no-pager -n 1\n" +
			"Jan 27 14:05:31 " + host + " kubelet[3318]: E0127 14:05:31.882016    3318 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Post \\\"https://7E2A.gr7.ap-northeast-1.eks.amazonaws.com/api/v1/nodes\\\": dial tcp 13.113.72.190:443: i/o timeout\" node=\"mi-07d2e9b4c1a5f3086\"\n\n"
	}
	echo := "root@ss-kanda-k8s02:~# curl -s https://checkip.amazonaws.com\n198.51.100.74\n\n"
	for _, tc := range []struct {
		host string
		want bool
	}{{"ss-kanda-k8s02", true}, {"ss-kanda-k8s03", false}} {
		r := Read([]byte(echo+journal(tc.host)), "ticket.txt", Options{})
		got := r.Evidence.NodeLogs != nil && len(r.Evidence.NodeLogs.Egress) == 1 && r.Evidence.NodeLogs.Egress[0].Addr == "198.51.100.74"
		if got != tc.want {
			t.Errorf("journal of %s: egress read %v, want %v (%+v)", tc.host, got, tc.want, r.Evidence.NodeLogs)
		}
	}
}
