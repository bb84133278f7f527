package checks

import (
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks/netpath"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// A paste often holds the node's kubelet log timing out on the API server, the security groups
// or network ACL the poster suspects and describe-cluster, but not describe-instances: without
// the instance the reachability model (netpath) has no node to walk from. partialFlow judges the
// one flow those timeouts are about — the kubelet to the API server on TCP 443 — on the hops the
// pasted evidence does allow: the node's security group egress (the pasted groups other than
// the cluster's) and its subnet's network ACL (the subnet holding the node's address, or the
// only ACL given). It fails only when every way the endpoint may be reached is blocked there,
// and only to explain timeouts the log shows; otherwise the check stays skipped for the
// instance it lacks.

// nodeAddrRe reads the private IPv4 address out of an EC2 private DNS name used as a node name
// (ip-10-0-12-34.eu-west-1.compute.internal).
var nodeAddrRe = regexp.MustCompile(`^ip-(\d{1,3})-(\d{1,3})-(\d{1,3})-(\d{1,3})(?:\.|$)`)

// apiPeer is one way the node may reach the API server: a public endpoint (any host on the
// internet) or the cluster's network interfaces inside the VPC.
type apiPeer struct {
	desc   string
	public bool
	peer   netpath.Peer
	// broad marks a private peer known only as the private block holding the node's address (no
	// VPC range in the evidence): a network ACL rule covering part of it leaves the verdict
	// unknown, but a security group rule cannot be judged against it.
	broad bool
}

// partialFlow returns the Check.Partial of a network check judged on the API server flow of a
// node the reachability model cannot walk from (no instance, or no subnet of it; see above): nil
// when it cannot judge.
func partialFlow(id string) func(ev *evidence.Evidence) []Finding {
	return func(ev *evidence.Evidence) []Finding {
		if id == netpath.CheckPublicCIDRs {
			return partialPublicCIDRs(ev)
		}
		if ev.NodeLogs == nil || judgeTestimony(ev.NodeLogs, "runtime.apiserver-timeout").state != testimonyFailing {
			return nil
		}
		timeouts, _ := signatureHits(ev.NodeLogs, "runtime.apiserver-timeout")
		peers := apiPeers(ev, timeouts)
		if len(peers) == 0 {
			return nil
		}
		var ways [][]netpath.Hop
		var unread []string
		switch id {
		case netpath.CheckSGNodeEgress:
			ways, unread = partialSGHops(ev, peers)
		case netpath.CheckNACL:
			ways = partialNACLHops(ev, peers)
		}
		if len(ways) == 0 {
			return nil
		}
		// each way the endpoint may be reached must be blocked at one of its hops at least
		var hops []netpath.Hop
		for _, way := range ways {
			blocked, unknown := false, false
			for _, h := range way {
				switch h.Verdict {
				case netpath.Blocked:
					blocked = true
					hops = append(hops, h)
				case netpath.Unknown:
					unknown = true
				}
			}
			if !blocked && unknown && len(unread) > 0 {
				// only a customer-managed list whose entries were not given could allow it:
				// no verdict, and the report says what to paste
				var cmds []string
				for _, l := range unread {
					cmds = append(cmds, "aws ec2 get-managed-prefix-list-entries --prefix-list-id "+strings.Fields(l)[0])
				}
				lacking := "the node's instance is not in the input"
				if ev.Instance != nil {
					lacking = "the node's subnet is not in the input"
				}
				return one(Finding{Status: StatusSkipped, Message: fmt.Sprintf("missing evidence: %s, and HTTPS out of its security group to the API server could be allowed only by customer-managed prefix list %s, whose entries are not in the input (%s)",
					lacking, strings.Join(unread, ", "), strings.Join(cmds, "; ")),
					Evidence: []EvidenceItem{item(partialSource(ev, id), "%s: %s", way[0].Name, way[0].Detail)}})
			}
			if !blocked {
				return nil // one way through (or one not judged) is no proof of a block
			}
		}
		items := []EvidenceItem{}
		var details []string
		for _, h := range hops {
			if !slices.Contains(details, h.Detail) {
				details = append(details, h.Detail)
				items = append(items, item(partialSource(ev, id), "%s: %s", h.Name, h.Detail))
			}
		}
		last := timeouts[0].Last
		items = append(items, item(ev.Source(evidence.KindNodeLogs), "%s: %s", where(last), strings.TrimSpace(last.Text)))
		what := map[string]string{netpath.CheckSGNodeEgress: "security groups", netpath.CheckNACL: "network ACL"}[id]
		why := "the node's instance is not in the input: judged on the " + what + " given"
		if ev.Instance != nil {
			why = "the node's subnet is not in the input: judged on its " + what
		}
		f := fail(hops[0].Resource, fmt.Sprintf("flow api-server blocked at %s: %s (%s, which the kubelet's timeouts to the API server point at)",
			hops[0].Name, strings.Join(details, "; "), why), items...)
		netFix(id, ev, hops, []string{"api-server"}, &f)
		return one(f)
	}
}

func partialSource(ev *evidence.Evidence, id string) string {
	if id == netpath.CheckNACL {
		return ev.Source(evidence.KindNetworkACLs)
	}
	return ev.Source(evidence.KindSecurityGroups)
}

// apiPeers returns the ways the node may reach the API server: the addresses its timed-out
// connections went to when the log names them; else what describe-cluster's endpoint access
// says (the cluster's subnets or VPC when private access serves a node of the cluster VPC, the
// internet when only public access does); else both the internet and the VPC. Nil when a way
// cannot be described (a private endpoint whose address range is not in the evidence).
func apiPeers(ev *evidence.Evidence, timeouts []evidence.SignatureHit) []apiPeer {
	var groups []string
	if c := ev.Cluster; c != nil {
		if c.ClusterSecurityGroup != "" {
			groups = append(groups, c.ClusterSecurityGroup)
		}
		groups = append(groups, c.SecurityGroupIDs...)
	}
	public := apiPeer{desc: "the public API server endpoint", public: true, peer: netpath.Peer{Prefixes: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0")}}}
	var out []apiPeer
	var private []string
	var prefixes []netip.Prefix
	for _, a := range factValues(timeouts, "address") {
		addr, err := netip.ParseAddr(a)
		if err != nil || !addr.Is4() {
			return nil
		}
		if !addr.IsPrivate() {
			if len(out) == 0 {
				out = append(out, public)
			}
			continue
		}
		private = append(private, a)
		prefixes = append(prefixes, netip.PrefixFrom(addr, 32))
	}
	if len(private) > 0 {
		out = append(out, apiPeer{desc: map[bool]string{true: "the API server's address ", false: "the API server's addresses "}[len(private) == 1] + strings.Join(private, ", "),
			peer: netpath.Peer{Prefixes: prefixes, Groups: groups}})
	}
	if len(out) > 0 {
		return out
	}
	privatePeer := func() (apiPeer, bool) {
		var prefixes []netip.Prefix
		if c := ev.Cluster; c != nil {
			for _, sn := range ev.Subnets {
				if slices.Contains(c.SubnetIDs, sn.ID) {
					if p, err := netip.ParsePrefix(sn.CIDR); err == nil && p.Addr().Is4() {
						prefixes = append(prefixes, p)
					}
				}
			}
		}
		if len(prefixes) == 0 {
			for _, v := range ev.VPCs {
				if ev.Cluster == nil || v.ID == ev.Cluster.VpcID {
					for _, c := range v.CIDRs {
						if p, err := netip.ParsePrefix(c); err == nil && p.Addr().Is4() {
							prefixes = append(prefixes, p)
						}
					}
				}
			}
		}
		if len(prefixes) == 0 {
			// no range in the evidence: the private block the node's own address is in
			if a, ok := nodeAddr(ev); ok {
				for _, b := range []string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10"} {
					if p := netip.MustParsePrefix(b); p.Contains(a) {
						return apiPeer{desc: "the cluster's network interfaces in " + b, peer: netpath.Peer{Prefixes: []netip.Prefix{p}, Groups: groups}, broad: true}, true
					}
				}
			}
			return apiPeer{}, false
		}
		var names []string
		for _, p := range prefixes {
			names = append(names, p.String())
		}
		return apiPeer{desc: "the cluster's network interfaces in " + strings.Join(names, ", "), peer: netpath.Peer{Prefixes: prefixes, Groups: groups}}, true
	}
	c := ev.Cluster
	switch {
	case c != nil && c.EndpointPrivateAccess:
		if p, ok := privatePeer(); ok {
			return []apiPeer{p}
		}
		return nil
	case c != nil && c.EndpointPublicAccess:
		return []apiPeer{public}
	case c != nil:
		return nil // endpoint access not in the evidence (a narrowed --query)
	}
	p, ok := privatePeer()
	if !ok {
		return nil
	}
	return []apiPeer{public, p}
}

// partialSGHops judges the API server flow's security group egress for the instance's groups,
// or, without the instance, for the one pasted group other than the cluster's, the VPC
// endpoints' and "default": nil when there is none or more than one. unread names the
// customer-managed prefix lists the groups' egress rules name whose entries are not in the
// evidence (sgHops).
func partialSGHops(ev *evidence.Evidence, peers []apiPeer) (ways [][]netpath.Hop, unread []string) {
	if !ev.Have(evidence.KindSecurityGroups) || slices.ContainsFunc(peers, func(p apiPeer) bool { return p.broad }) {
		return nil, nil
	}
	if i := ev.Instance; i != nil {
		// the instance's own groups, when all are in the evidence
		var groups []*evidence.SecurityGroup
		for _, id := range i.SecurityGroupIDs {
			g := sgByID(ev, id)
			if g == nil {
				return nil, nil
			}
			groups = append(groups, g)
		}
		if len(groups) == 0 {
			return nil, nil
		}
		return sgHops(ev, groups, i.SecurityGroupIDs, peers)
	}
	skip := map[string]bool{}
	if c := ev.Cluster; c != nil {
		skip[c.ClusterSecurityGroup] = true
		for _, g := range c.SecurityGroupIDs {
			skip[g] = true
		}
	}
	for _, e := range ev.VPCEndpoints {
		for _, g := range e.SecurityGroupIDs {
			skip[g] = true
		}
	}
	var groups []*evidence.SecurityGroup
	var ids []string
	for i := range ev.SecurityGroups {
		g := &ev.SecurityGroups[i]
		if skip[g.ID] || strings.HasPrefix(g.Name, "eks-cluster-sg-") || g.Name == "default" {
			continue
		}
		if c := ev.Cluster; c != nil && c.VpcID != "" && g.VpcID != "" && g.VpcID != c.VpcID {
			continue
		}
		if !admitsKubelet(g) {
			// a node's group admits the control plane to the kubelet (TCP 10250,
			// https://docs.aws.amazon.com/eks/latest/userguide/sec-group-reqs.html); a
			// database's, a load balancer's or an endpoint's does not
			continue
		}
		groups = append(groups, g)
		ids = append(ids, g.ID)
	}
	if len(groups) != 1 {
		// several candidates: which are the node's (not a database's, a load balancer's) the
		// paste does not say
		return nil, nil
	}
	return sgHops(ev, groups, ids, peers)
}

// sgByID returns the security group id of the evidence, or nil.
func sgByID(ev *evidence.Evidence, id string) *evidence.SecurityGroup {
	for i := range ev.SecurityGroups {
		if ev.SecurityGroups[i].ID == id {
			return &ev.SecurityGroups[i]
		}
	}
	return nil
}

// sgHops judges HTTPS out of groups (ids) to each peer: one way (of one hop) per peer. A prefix
// list the egress rules name is judged by its entries when the evidence has them
// (netpath.JudgeLists). Else, for the API server's private addresses, a list that is AWS-managed
// (described with owner "AWS" or a com.amazonaws.* name) or not described at all is taken to hold
// none: the lists node groups name for HTTPS are AWS-managed lists of S3's or DynamoDB's public
// ranges. A list described as customer-managed without its entries stays unknown; unread names
// those.
func sgHops(ev *evidence.Evidence, groups []*evidence.SecurityGroup, ids []string, peers []apiPeer) (ways [][]netpath.Hop, unread []string) {
	lists := evidence.PrefixListsOf(ev)
	named := netpath.RuleLists(groups, true)
	for _, p := range peers {
		peer, desc := p.peer, p.desc
		netpath.JudgeLists(lists, named, &peer)
		if !p.public {
			var assumed []string
			for _, pl := range named {
				if _, known := peer.PrefixLists[pl]; known {
					continue
				}
				l := lists.ByID(pl)
				switch {
				case l == nil || !l.Described || l.AWSManaged():
					if peer.PrefixLists == nil {
						peer.PrefixLists = map[string]bool{}
					}
					peer.PrefixLists[pl] = false
					label := pl
					if l != nil {
						label = l.Label()
					}
					assumed = append(assumed, label)
				case !slices.Contains(unread, l.Label()):
					unread = append(unread, l.Label())
				}
			}
			if len(assumed) > 0 {
				desc += " (taking prefix list " + strings.Join(assumed, ", ") + " to hold public ranges only, as AWS-managed lists do)"
			}
		}
		ways = append(ways, []netpath.Hop{netpath.SGEgressHop(groups, ids, peer, 443, desc, netpath.CheckSGNodeEgress)})
	}
	return ways, unread
}

// partialNACLHops judges the API server flow through the node subnet's network ACL, both ways:
// the request out on 443 and the return traffic in on the ephemeral ports. The ACL is the one
// of the subnet holding the node's address (its ip-… name in the log), else the only one given.
func partialNACLHops(ev *evidence.Evidence, peers []apiPeer) [][]netpath.Hop {
	if !ev.Have(evidence.KindNetworkACLs) || len(ev.NetworkACLs) == 0 {
		return nil
	}
	acl := nodeACL(ev)
	if acl == nil {
		return nil
	}
	ephemeral := netpath.EphemeralLinux
	if ev.Instance != nil && ev.Instance.Platform == "windows" {
		ephemeral = netpath.EphemeralWindows
	}
	var ways [][]netpath.Hop
	for _, p := range peers {
		for _, prefix := range p.peer.Prefixes {
			desc := p.desc
			if len(p.peer.Prefixes) > 1 {
				desc = prefix.String()
			}
			ways = append(ways, []netpath.Hop{
				netpath.NACLHop(acl, true, netpath.ProtoTCP, netpath.PortRange{From: 443, To: 443}, prefix, "out to "+desc),
				netpath.NACLHop(acl, false, netpath.ProtoTCP, ephemeral, prefix, "return traffic in from "+desc)})
		}
	}
	return ways
}

// nodeACL returns the network ACL of the node's subnet: by the node's address (the one ip-…
// node name the logs give) inside a subnet of the evidence, else the only ACL given unless it is
// associated with none of the cluster's subnets; nil when neither tells.
func nodeACL(ev *evidence.Evidence) *evidence.NetworkACL {
	if i := ev.Instance; i != nil {
		return subnetACL(ev, i.SubnetID, i.VpcID)
	}
	if a, ok := nodeAddr(ev); ok {
		for _, sn := range ev.Subnets {
			if p, err := netip.ParsePrefix(sn.CIDR); err == nil && p.Contains(a) {
				return subnetACL(ev, sn.ID, sn.VpcID)
			}
		}
	}
	if len(ev.NetworkACLs) == 1 {
		a := &ev.NetworkACLs[0]
		if c := ev.Cluster; c != nil && len(c.SubnetIDs) > 0 && len(a.SubnetIDs) > 0 && !slices.ContainsFunc(a.SubnetIDs, func(s string) bool { return slices.Contains(c.SubnetIDs, s) }) {
			return nil // associated with none of the cluster's subnets: another tier's (databases)
		}
		return a
	}
	return nil
}

// nodeAddr returns the node's private address: the instance's, else the one the logs' ip-…
// node names give (several distinct ones tell none).
func nodeAddr(ev *evidence.Evidence) (netip.Addr, bool) {
	if ev.Instance != nil {
		a, err := netip.ParseAddr(ev.Instance.PrivateIP)
		return a, err == nil
	}
	var addrs []netip.Addr
	if ev.NodeLogs != nil {
		for _, h := range ev.NodeLogs.Hits {
			for _, n := range h.Facts["node"] {
				if m := nodeAddrRe.FindStringSubmatch(n); m != nil {
					if a, err := netip.ParseAddr(strings.Join(m[1:5], ".")); err == nil && !slices.Contains(addrs, a) {
						addrs = append(addrs, a)
					}
				}
			}
		}
	}
	if len(addrs) != 1 {
		return netip.Addr{}, false
	}
	return addrs[0], true
}

// admitsKubelet reports whether g has an ingress rule covering TCP 10250, the kubelet's port.
func admitsKubelet(g *evidence.SecurityGroup) bool {
	for _, r := range g.Ingress {
		switch strings.ToLower(r.Protocol) {
		case "-1", "all":
			return true
		case "tcp", "6":
			if r.FromPort <= 10250 && 10250 <= r.ToPort {
				return true
			}
		}
	}
	return false
}

// subnetACL returns the network ACL associated with subnet, else the default ACL of its VPC; nil
// when neither is in the evidence.
func subnetACL(ev *evidence.Evidence, subnet, vpc string) *evidence.NetworkACL {
	var def *evidence.NetworkACL
	for i := range ev.NetworkACLs {
		a := &ev.NetworkACLs[i]
		if slices.Contains(a.SubnetIDs, subnet) {
			return a
		}
		if a.Default && a.VpcID == vpc {
			def = a
		}
	}
	return def
}
