package checks

import "github.com/eksdoctor/eksdoctor/collectors/evidence"

const docConntrack = "https://docs.aws.amazon.com/eks/latest/best-practices/networking.html"

// kernelChecks judge node-kernel limits from the kernel's own log lines.
func kernelChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "runtime.conntrack-full", Title: "The node's connection tracking table is full", Severity: SeverityMedium,
			Needs: []evidence.Kind{evidence.KindNodeLogs}, Stage: StagePostJoin,
			// the dropped packets are the kubelet's own connections too: its lease and status
			// updates time out, which reads as an endpoint it cannot reach
			Explains:    []string{"runtime.apiserver-timeout"},
			Why:         "Every connection through kube-proxy's iptables rules and the VPC CNI's SNAT takes an entry in the kernel's conntrack table; when it is full the kernel drops the packets of new connections, so the kubelet's lease renewals, DNS lookups and image pulls fail intermittently and a joined node flaps NotReady.",
			Remediation: "Raise the limit for the node's workload: set net.netfilter.nf_conntrack_max (and kube-proxy's conntrack.maxPerCore / min) higher in the node's bootstrap, or spread connection-heavy pods over more nodes; watch /proc/sys/net/netfilter/nf_conntrack_count.",
			Docs:        []string{docConntrack}},
			Eval: evalSignatures("runtime.conntrack-full")},
	}
}
