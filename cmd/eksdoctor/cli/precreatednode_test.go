package cli

import (
	"strings"
	"testing"
)

// TestPrecreatedNodeIsNotJoined (red team 10b #3): Karpenter before v0.28 created the Node
// object itself with its status cleared (aws/karpenter v0.16.0–v0.27
// pkg/controllers/provisioning/provisioner.go: `k8sNode.Status = v1.NodeStatus{}`) before the
// kubelet ran. Such a Node — no conditions, no kubelet version; kubectl get nodes shows STATUS
// Unknown and no VERSION — does not show that the kubelet registered: the verdict is not
// "joined" and names no Ready state. A Node the kubelet reported on is still joined.
func TestPrecreatedNodeIsNotJoined(t *testing.T) {
	const name = "ip-192-168-10-20.us-west-2.compute.internal"
	node := func(status string) string {
		return `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"` + name + `","creationTimestamp":"2023-03-12T10:00:00Z",` +
			`"labels":{"karpenter.sh/provisioner-name":"default","kubernetes.io/os":"linux"},"finalizers":["karpenter.sh/termination"],` +
			`"ownerReferences":[{"apiVersion":"karpenter.sh/v1alpha5","kind":"Provisioner","name":"default","uid":"0f0e0d0c-aaaa-bbbb-cccc-000000000000"}]},` +
			`"spec":{"providerID":"aws:///us-west-2a/i-0a1b2c3d4e5f60006","taints":[{"key":"node.kubernetes.io/not-ready","effect":"NoSchedule"}]},"status":` + status + `}]}` + "\n"
	}
	table := "$ kubectl get nodes\nNAME                                          STATUS    ROLES    AGE   VERSION\n" + name + "   Unknown   <none>   42m   \n"
	for _, c := range []struct{ name, paste string }{
		{"Node JSON with an empty status", node("{}")},
		{"kubectl get nodes, Unknown and no version", table},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, r, _, errOut := analyze(t, c.paste, "-")
			d := r.Diagnosis
			if d.Verdict == "joined" || d.Node != nil || code != ExitNothingChecked {
				t.Fatalf("exit %d (want %d), verdict %s, node %+v, summary %q\n%s", code, ExitNothingChecked, d.Verdict, d.Node, d.Summary, errOut)
			}
			if strings.Contains(d.Summary, "joined the cluster") {
				t.Errorf("summary says joined: %q", d.Summary)
			}
		})
	}
	registered := node(`{"nodeInfo":{"kubeletVersion":"v1.24.10-eks-48e63af","operatingSystem":"linux"},"conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady"}]}`)
	_, r, _, errOut := analyze(t, registered, "-")
	if d := r.Diagnosis; d.Verdict != "joined" || d.Node == nil || d.Node.Name != name || d.Node.Ready {
		t.Fatalf("a Node its kubelet reported on: verdict %s, node %+v\n%s", d.Verdict, d.Node, errOut)
	}
}
