package bundle

import (
	"bytes"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestKubeconfigOnlyBootstrap: an EKS Linux bundle whose only node configuration is the kubelet
// kubeconfig takes its server and the cluster its credential plugin signs for as the node's
// bootstrap configuration (KubeconfigOnly), and names the node's cluster from it; a kubeconfig
// naming neither leaves the configuration a gap.
func TestKubeconfigOnlyBootstrap(t *testing.T) {
	kubeconfig := "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    certificate-authority: /etc/kubernetes/pki/ca.crt\n    server: https://WRONG.gr7.us-east-1.eks.amazonaws.com\n  name: kubernetes\n" +
		"users:\n- name: kubelet\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: [eks, get-token, --cluster-name, prod-a, --region, us-east-1]\n"
	read := func(kc string) *evidence.Evidence {
		t.Helper()
		b, err := ReadTarGz(bytes.NewReader(tarGz(t,
			entry{name: "./kubelet/kubelet.log", body: unauthorized},
			entry{name: "./kubelet/kubeconfig.yaml", body: kc},
			entry{name: "./system/instance-id.txt", body: "i-1\n"},
			entry{name: "./kernel/uname.txt", body: "Linux h 5.10.220-209.869.amzn2.x86_64 #1 SMP x86_64 GNU/Linux\n"})), "eks_i-1.tar.gz", DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		return b.Evidence()
	}
	ev := read(kubeconfig)
	c := ev.Bootstrap
	if !ev.Have(evidence.KindBootstrap) || c == nil || !c.KubeconfigOnly || !c.CallsBootstrap ||
		c.ClusterName != "prod-a" || c.APIServerEndpoint != "https://WRONG.gr7.us-east-1.eks.amazonaws.com" {
		t.Fatalf("bootstrap %+v (gap %q)", c, ev.GapFor(evidence.KindBootstrap).Reason)
	}
	if got := ev.Source(evidence.KindBootstrap); got != "bundle:eks_i-1.tar.gz:kubelet/kubeconfig.yaml" {
		t.Errorf("source %q", got)
	}
	if ev.Target.Cluster != "prod-a" || ev.Target.ClusterSource != "node configuration" {
		t.Errorf("target %+v", ev.Target)
	}
	ev = read("apiVersion: v1\nkind: Config\n")
	if ev.Have(evidence.KindBootstrap) {
		t.Errorf("a kubeconfig naming no server or cluster is bootstrap evidence: %+v", ev.Bootstrap)
	}
}
