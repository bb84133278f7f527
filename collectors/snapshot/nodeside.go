package snapshot

import (
	"maps"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// nodeSideKinds are the kinds only the node itself testifies to (a log bundle, console output
// pasted from it): its logs, its OS and the bootstrap configuration it actually loaded.
var nodeSideKinds = []evidence.Kind{evidence.KindNodeLogs, evidence.KindNodeOS, evidence.KindBootstrap}

// AddNodeEvidence puts what a node's own documents hold (node, built from a log bundle or a
// paste) on the account's evidence ev for the same instance — `analyze BUNDLE --snapshot SNAP`.
// Precedence: the node's logs and OS replace the account's (console output is a subset of the
// node's journal); the node's effective bootstrap configuration (nodeadm's loaded NodeConfig,
// Bottlerocket's settings) replaces the one decoded from user data, which a managed node group
// may still complete; a node configuration that is only the kubelet's kubeconfig
// (KubeconfigOnly) overrides the user data's cluster name, endpoint, CA, DNS IP and max pods with
// the ones it sets — what the kubelet actually used — and leaves the rest (format, size, parts) to
// the user data; everything else is the account's. A zero CollectedAt takes the node's.
func AddNodeEvidence(ev, node *evidence.Evidence) {
	userData, userDataSrc := ev.Bootstrap, ev.Source(evidence.KindBootstrap)
	for _, k := range nodeSideKinds {
		if node.Have(k) {
			ev.Mark(k, node.Source(k))
		}
	}
	if node.Have(evidence.KindBootstrap) {
		ev.Bootstrap = node.Bootstrap
		if node.Bootstrap != nil && node.Bootstrap.KubeconfigOnly && userData != nil && userDataSrc != "" {
			ev.Bootstrap = overKubeconfig(userData, node.Bootstrap)
			ev.Mark(evidence.KindBootstrap, node.Source(evidence.KindBootstrap)+" over "+userDataSrc)
		}
	}
	ev.NodeLogs, ev.NodeOS = node.NodeLogs, node.NodeOS
	if ev.CollectedAt.IsZero() {
		ev.CollectedAt = node.CollectedAt
	}
}

// overKubeconfig returns a copy of the user data's configuration ud with the values the kubelet's
// kubeconfig (and kubelet configuration) kc sets in their place.
func overKubeconfig(ud, kc *evidence.BootstrapConfig) *evidence.BootstrapConfig {
	out := *ud
	out.Unresolved = maps.Clone(ud.Unresolved)
	set := func(field string, ok bool, apply func()) {
		if ok {
			apply()
			delete(out.Unresolved, field)
		}
	}
	set("clusterName", kc.ClusterName != "", func() { out.ClusterName = kc.ClusterName })
	set("apiServerEndpoint", kc.APIServerEndpoint != "", func() { out.APIServerEndpoint = kc.APIServerEndpoint })
	set("certificateAuthority", kc.CertificateAuthority != "", func() { out.CertificateAuthority = kc.CertificateAuthority })
	set("clusterDNS", len(kc.ClusterDNS) > 0, func() { out.ClusterDNS = kc.ClusterDNS })
	set("maxPods", kc.MaxPods != nil, func() { out.MaxPods = kc.MaxPods })
	return &out
}
