package cli

import (
	"strings"
	"testing"
)

// TestPastedNotReadyNodeIsReported (red team round 7 #7): a pasted `kubectl get nodes` (wrapped
// by a narrow terminal or not) in which one node is NotReady. That node registered: the report
// names it, NotReady, with its age, and the verdict is joined — with the cause when the paste
// shows one (IPAMD out of addresses), else exit 3: why it is NotReady could not be told. A
// list whose nodes are all Ready, or with two NotReady nodes, names no target.
func TestPastedNotReadyNodeIsReported(t *testing.T) {
	wrapped := "$ kubectl get nodes -o wide\nNAME                                         STATUS     ROLES    AGE\n   VERSION               INTERNAL-IP   EXTERNAL-IP   OS-IMAGE\n                 KERNEL-VERSION                    CONTAINER-RUNTIME\n" +
		"ip-192-168-44-10.us-west-2.compute.internal  NotReady   <none>   47m\n   v1.31.2-eks-94953ac   192.168.44.10 <none>        Amazon Linux 2023.6.20241121\n                 6.1.115-126.197.amzn2023.x86_64   containerd://1.7.23\n" +
		"ip-192-168-9-201.us-west-2.compute.internal  Ready      <none>   6d\n   v1.31.2-eks-94953ac   192.168.9.201 <none>        Amazon Linux 2023.6.20241121\n                 6.1.115-126.197.amzn2023.x86_64   containerd://1.7.23\n"
	plain := "$ kubectl get nodes\nNAME                                          STATUS     ROLES    AGE   VERSION\n" +
		"ip-192-168-44-10.us-west-2.compute.internal   NotReady   <none>   47m   v1.31.2-eks-94953ac\n" +
		"ip-192-168-9-201.us-west-2.compute.internal   Ready      <none>   6d    v1.31.2-eks-94953ac\n"
	ipamd := "\n$ kubectl -n kube-system logs aws-node-7xk2p -c aws-node\n" +
		`{"level":"error","ts":"2026-11-23T10:02:11.123Z","caller":"ipamd/ipamd.go:846","msg":"Failed to increase pool size due to not able to allocate ENI AllocENI: error creating an eni: CreateNetworkInterface: operation error EC2: CreateNetworkInterface, https response error StatusCode: 400, RequestID: 7a6f1c2d-aaaa-bbbb-cccc-0123456789ab, api error InsufficientFreeAddressesInSubnet: The specified subnet does not have enough free addresses to satisfy the request."}` + "\n"
	const name = "ip-192-168-44-10.us-west-2.compute.internal"
	for _, c := range []struct {
		name, paste string
		code        int
		cause       string
	}{
		{"wrapped, nodes only", wrapped, ExitNothingChecked, ""},
		{"unwrapped, nodes only", plain, ExitNothingChecked, ""},
		{"wrapped, with IPAMD out of addresses", wrapped + ipamd, ExitFindings, "runtime.ipamd-no-ips"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, r, _, errOut := analyze(t, c.paste, "-")
			d := r.Diagnosis
			if code != c.code || d.Verdict != "joined" || d.Node == nil || d.Node.Name != name || d.Node.Ready {
				t.Fatalf("exit %d (want %d), verdict %s, node %+v\n%s", code, c.code, d.Verdict, d.Node, errOut)
			}
			if cause := ""; d.MostLikelyCause != nil {
				cause = *d.MostLikelyCause
				if cause != c.cause {
					t.Errorf("cause %q, want %q", cause, c.cause)
				}
			} else if c.cause != "" {
				t.Errorf("no cause, want %s", c.cause)
			}
			if !strings.Contains(d.Summary, name+" joined the cluster and is NotReady") || !strings.Contains(d.Summary, "47m") {
				t.Errorf("summary %q", d.Summary)
			}
			_, text, _ := runStdin(strings.NewReader(c.paste), "analyze", "-", "--no-color")
			if !strings.Contains(text, "Node "+name+" joined the cluster and is NotReady") {
				t.Errorf("the table does not name the NotReady node:\n%s", text)
			}
			if untold := strings.Contains(text, "Why it is not Ready: not found") && strings.Contains(d.Summary, "why it is not Ready could not be told"); untold != (c.cause == "") {
				t.Errorf("the report does not say whether why it is NotReady was found (summary %q):\n%s", d.Summary, text)
			}
		})
	}
	for _, c := range []struct{ name, paste string }{
		{"all Ready", strings.Replace(plain, "NotReady", "Ready   ", 1)},
		{"two NotReady", strings.Replace(plain, "Ready      <none>   6d", "NotReady   <none>   6d", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, r, _, errOut := analyze(t, c.paste, "-")
			if r.Diagnosis.Verdict == "joined" || r.Diagnosis.Node != nil {
				t.Errorf("a target picked from %s: %s %+v\n%s", c.name, r.Diagnosis.Verdict, r.Diagnosis.Node, errOut)
			}
		})
	}
}
