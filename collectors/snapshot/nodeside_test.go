package snapshot

import (
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestAddNodeEvidencePrecedence: the node's effective bootstrap configuration and its logs win
// over the account's user data and console output; what the node does not hold stays the
// account's, and the account's collection time stays when it has one.
func TestAddNodeEvidencePrecedence(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	ev := &evidence.Evidence{CollectedAt: at, Bootstrap: &evidence.BootstrapConfig{ClusterName: "from-user-data"}}
	ev.Mark(evidence.KindBootstrap, "snapshot:ec2/instance-user-data/i-1.json")
	ev.Mark(evidence.KindNodeOS, "snapshot:ec2/describe-images.json")
	node := &evidence.Evidence{CollectedAt: at.Add(time.Hour), Bootstrap: &evidence.BootstrapConfig{ClusterName: "prod", Effective: true}}
	node.Mark(evidence.KindBootstrap, "bundle:nodeadm/config.json")
	node.Mark(evidence.KindNodeLogs, "bundle:kubelet/kubelet.log")
	AddNodeEvidence(ev, node)
	if ev.Bootstrap.ClusterName != "prod" || ev.Source(evidence.KindBootstrap) != "bundle:nodeadm/config.json" {
		t.Errorf("bootstrap %q from %s", ev.Bootstrap.ClusterName, ev.Source(evidence.KindBootstrap))
	}
	if ev.Source(evidence.KindNodeLogs) != "bundle:kubelet/kubelet.log" || ev.Source(evidence.KindNodeOS) != "snapshot:ec2/describe-images.json" {
		t.Errorf("logs from %q, OS from %q", ev.Source(evidence.KindNodeLogs), ev.Source(evidence.KindNodeOS))
	}
	if !ev.CollectedAt.Equal(at) {
		t.Errorf("collectedAt %s", ev.CollectedAt)
	}
}

// TestAddNodeEvidenceKubeconfigOnly: a node configuration that is only the kubelet's kubeconfig
// overrides the user data's cluster name and endpoint (what the kubelet used), and leaves what it
// does not show — format, size, CA — to the user data, whose copy on the account is untouched.
func TestAddNodeEvidenceKubeconfigOnly(t *testing.T) {
	ud := &evidence.BootstrapConfig{Format: evidence.FormatBootstrapSh, RawBytes: 129, CallsBootstrap: true, ClusterName: "prod",
		APIServerEndpoint: "https://A.example", CertificateAuthority: "Zm9v", Unresolved: map[string]string{"apiServerEndpoint": "from $ENDPOINT"}}
	ev := &evidence.Evidence{Bootstrap: ud}
	ev.Mark(evidence.KindBootstrap, "snapshot:ec2/instance-user-data/i-1.json")
	node := &evidence.Evidence{Bootstrap: &evidence.BootstrapConfig{Format: evidence.FormatNone, CallsBootstrap: true, KubeconfigOnly: true,
		ClusterName: "prod-a", APIServerEndpoint: "https://WRONG.example"}}
	node.Mark(evidence.KindBootstrap, "bundle:b.tar.gz:kubelet/kubeconfig.yaml")
	AddNodeEvidence(ev, node)
	b := ev.Bootstrap
	if b.ClusterName != "prod-a" || b.APIServerEndpoint != "https://WRONG.example" || b.Unresolved["apiServerEndpoint"] != "" {
		t.Errorf("kubeconfig values not used: %q %q %v", b.ClusterName, b.APIServerEndpoint, b.Unresolved)
	}
	if b.Format != evidence.FormatBootstrapSh || b.RawBytes != 129 || b.CertificateAuthority != "Zm9v" {
		t.Errorf("user data values lost: %s %d %q", b.Format, b.RawBytes, b.CertificateAuthority)
	}
	if got := ev.Source(evidence.KindBootstrap); got != "bundle:b.tar.gz:kubelet/kubeconfig.yaml over snapshot:ec2/instance-user-data/i-1.json" {
		t.Errorf("source %q", got)
	}
	if ud.ClusterName != "prod" || ud.Unresolved["apiServerEndpoint"] == "" {
		t.Errorf("the account's user data was changed: %+v", ud)
	}
}
