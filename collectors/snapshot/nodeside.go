package snapshot

import "github.com/eksdoctor/eksdoctor/collectors/evidence"

// nodeSideKinds are the kinds only the node itself testifies to (a log bundle, console output
// pasted from it): its logs, its OS and the bootstrap configuration it actually loaded.
var nodeSideKinds = []evidence.Kind{evidence.KindNodeLogs, evidence.KindNodeOS, evidence.KindBootstrap}

// AddNodeEvidence puts what a node's own documents hold (node, built from a log bundle or a
// paste) on the account's evidence ev for the same instance — `analyze BUNDLE --snapshot SNAP`.
// Precedence: the node's logs and OS replace the account's (console output is a subset of the
// node's journal); the node's effective bootstrap configuration (nodeadm's loaded NodeConfig,
// Bottlerocket's settings) replaces the one decoded from user data, which a managed node group
// may still complete; everything else is the account's. A zero CollectedAt takes the node's.
func AddNodeEvidence(ev, node *evidence.Evidence) {
	for _, k := range nodeSideKinds {
		if node.Have(k) {
			ev.Mark(k, node.Source(k))
		}
	}
	if node.Have(evidence.KindBootstrap) {
		ev.Bootstrap = node.Bootstrap
	}
	ev.NodeLogs, ev.NodeOS = node.NodeLogs, node.NodeOS
	if ev.CollectedAt.IsZero() {
		ev.CollectedAt = node.CollectedAt
	}
}
