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
