package checks

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// A ticket about a public-only cluster endpoint restricted by publicAccessCidrs usually holds
// describe-cluster, the kubelet timing out on the endpoint's public address and the VPC's NAT
// gateways, but not the node's route table (or not the instance): the reachability model then
// has no way out of the node's subnet to judge. partialPublicCIDRs judges the one question the
// evidence does answer — can any address the node may leave from be in the list? — and fails
// only when none can.

// partialPublicCIDRs returns net.endpoint-public-cidrs judged without the node's route table:
// the kubelet's connections to the API server time out, every address they went to is public,
// describe-cluster shows public access on, private access off (or on, for a hybrid node, which
// dialled the public addresses) and publicAccessCidrs without
// 0.0.0.0/0, and every address the node may leave from — the address an echo service saw a
// request typed on the node come from (NodeLogs.Egress) when the input shows it; else each
// available public NAT gateway's Elastic IPs in the cluster's VPC (or whose VPC the evidence
// does not give), and the instance's own public address when it has one — is outside every CIDR. Nil when any of that
// is not shown: the missing-evidence skip stands. The egress rule is EKS's: the API server's
// public endpoint admits only sources in publicAccessCidrs
// (https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html).
func partialPublicCIDRs(ev *evidence.Evidence) []Finding {
	c := ev.Cluster
	if c == nil || !c.EndpointPublicAccess || len(c.PublicAccessCidrs) == 0 || ev.NodeLogs == nil {
		return nil
	}
	if c.EndpointPrivateAccess && ev.Provisioner.Kind != evidence.ProvisionerHybrid {
		// a node in the VPC reaches the private endpoint; a hybrid node on premises reaches it
		// only when its DNS and network route to the VPC, and its timeouts to public addresses
		// say it goes to the public one
		return nil
	}
	var cidrs []netip.Prefix
	for _, s := range c.PublicAccessCidrs {
		p, err := netip.ParsePrefix(strings.TrimSpace(s))
		if err != nil || p.Bits() == 0 {
			return nil // unreadable, or open to every address
		}
		cidrs = append(cidrs, p)
	}
	if judgeTestimony(ev.NodeLogs, "runtime.apiserver-timeout").state != testimonyFailing {
		return nil
	}
	timeouts, _ := signatureHits(ev.NodeLogs, "runtime.apiserver-timeout")
	addrs := factValues(timeouts, "address")
	if len(addrs) == 0 || len(timeouts) == 0 {
		return nil
	}
	for _, a := range addrs {
		if ip, err := netip.ParseAddr(a); err != nil || !ip.Is4() || ip.IsPrivate() || ip.IsLoopback() || netip.MustParsePrefix("100.64.0.0/10").Contains(ip) {
			return nil // not (only) the public endpoint the kubelet went to
		}
	}
	type way struct{ addr, via, source string }
	var ways []way
	for _, o := range ev.NodeLogs.Egress {
		// the address an echo service saw the node's request come from is the way out the
		// node takes: the NAT gateways and public address below are only the ways it may take
		ways = append(ways, way{o.Addr, "the node's egress address", o.Source})
	}
	for _, n := range ev.NATGateways {
		if len(ev.NodeLogs.Egress) > 0 {
			break
		}
		if n.ConnectivityType == "private" || n.State != "" && n.State != "available" || !natInVPC(ev, n, c.VpcID) {
			continue
		}
		for _, ip := range n.PublicIPs {
			ways = append(ways, way{ip, "NAT gateway " + orDefault(n.ID, "of the VPC"), ev.Source(evidence.KindNATGateways)})
		}
	}
	if i := ev.Instance; i != nil && i.PublicIP != "" && len(ev.NodeLogs.Egress) == 0 {
		ways = append(ways, way{i.PublicIP, "the instance's public address", ev.Source(evidence.KindInstance)})
	}
	if len(ways) == 0 {
		return nil
	}
	var outside, sources []string
	for _, w := range ways {
		if w.source != "" && !slices.Contains(sources, w.source) {
			sources = append(sources, w.source)
		}
		ip, err := netip.ParseAddr(w.addr)
		if err != nil {
			return nil
		}
		if slices.ContainsFunc(cidrs, func(p netip.Prefix) bool { return p.Contains(ip) }) {
			return nil // one way out is admitted: the timeouts have another cause
		}
		outside = append(outside, w.addr+" ("+w.via+")")
	}
	basis := "the node's route table is not in the input: judged on every way out the input shows"
	switch {
	case len(ev.NodeLogs.Egress) > 0:
		basis = "the address an echo service saw the node's request come from, typed on the node"
	case ev.Instance == nil:
		basis = "the node's instance and route table are not in the input: judged on every way out the input shows"
	}
	last := timeouts[len(timeouts)-1].Last
	f := fail(c.Arn, fmt.Sprintf("the kubelet's connections to the public endpoint (%s) time out, and no address the node may leave from is in publicAccessCidrs %s: %s (%s)",
		strings.Join(addrs, ", "), strings.Join(c.PublicAccessCidrs, ","), strings.Join(outside, ", "), basis),
		item(ev.Source(evidence.KindCluster), "endpointPublicAccess true, endpointPrivateAccess %v, publicAccessCidrs %s", c.EndpointPrivateAccess, strings.Join(c.PublicAccessCidrs, ",")),
		item(strings.Join(sources, "; "), "egress addresses: %s", strings.Join(outside, ", ")),
		item(ev.Source(evidence.KindNodeLogs), "%s: %s", where(last), strings.TrimSpace(last.Text)))
	return one(f)
}

// natInVPC reports whether NAT gateway n may serve vpc: its subnet is in vpc, or the evidence
// does not give its subnet's VPC (a listing filtered on the VPC shows no VpcId once narrowed).
func natInVPC(ev *evidence.Evidence, n evidence.NATGateway, vpc string) bool {
	if vpc == "" {
		return true
	}
	for _, sn := range ev.Subnets {
		if sn.ID == n.SubnetID && sn.VpcID != "" {
			return sn.VpcID == vpc
		}
	}
	return true
}
