// Package netpath is a small, pure reachability model over Evidence: for the node's network
// interface and each destination a joining node needs (the cluster API endpoint, AWS service
// endpoints, and the control plane back to the kubelet) it walks DNS, route selection, network
// ACLs, security groups and endpoint access, and says which hop blocks. It performs no I/O.
//
// Hops it cannot see through (transit gateways, peering, firewall appliances, private NAT)
// yield the verdict unknown ("cannot verify beyond …"): never a false pass or a false fail.
package netpath

import (
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// Protocol numbers used by flows (IANA).
const (
	ProtoTCP = 6
	ProtoUDP = 17
)

// PortRange is an inclusive port range.
type PortRange struct{ From, To int }

// Ephemeral return-port ranges: Linux (net.ipv4.ip_local_port_range default), Windows, and the
// range AWS documents for network ACLs (https://docs.aws.amazon.com/vpc/latest/userguide/custom-network-acl.html#nacl-ephemeral-ports).
var (
	EphemeralLinux   = PortRange{32768, 60999}
	EphemeralWindows = PortRange{49152, 65535}
	EphemeralAWS     = PortRange{1024, 65535}
)

// SelectRoute returns the route a packet to dest takes in rt: the longest-prefix match among
// routes with a CIDR destination containing dest (prefix-list routes are not considered). ok
// is false when no route matches. Blackhole routes are returned like any other; the caller
// reads State.
func SelectRoute(rt *evidence.RouteTable, dest netip.Prefix) (evidence.Route, bool) {
	best, bestBits, found := evidence.Route{}, -1, false
	for _, r := range rt.Routes {
		if r.DestinationCIDR == "" {
			continue
		}
		p, err := netip.ParsePrefix(r.DestinationCIDR)
		if err != nil || p.Addr().Is4() != dest.Addr().Is4() {
			continue
		}
		if p.Bits() <= dest.Bits() && p.Contains(dest.Addr()) && p.Bits() > bestBits {
			best, bestBits, found = r, p.Bits(), true
		}
	}
	return best, found
}

// NACLResult is the outcome of a network ACL evaluation.
type NACLResult struct {
	Allowed bool
	// Partial is true when a rule before the deciding one covers only part of the traffic
	// with the opposite action, so some of it is treated differently: the verdict is unknown.
	Partial bool
	// Rule is the number of the deciding rule (32767 for the implicit "*" deny).
	Rule int
}

func protoMatches(ruleProto string, proto int) bool {
	switch strings.ToLower(ruleProto) {
	case "-1", "all":
		return true
	case "tcp":
		return proto == ProtoTCP
	case "udp":
		return proto == ProtoUDP
	}
	n, err := strconv.Atoi(ruleProto)
	return err == nil && n == proto
}

// coverage says whether a rule applies to all (full), some (partial) or none of the traffic.
type coverage int

const (
	covNone coverage = iota
	covPartial
	covFull
)

func prefixCoverage(rule string, peer netip.Prefix) coverage {
	p, err := netip.ParsePrefix(rule)
	if err != nil || p.Addr().Is4() != peer.Addr().Is4() {
		return covNone
	}
	switch {
	case p.Bits() <= peer.Bits() && p.Contains(peer.Addr()):
		return covFull
	case peer.Bits() < p.Bits() && peer.Contains(p.Addr()):
		return covPartial
	}
	return covNone
}

func portCoverage(from, to int, want PortRange) coverage {
	if from <= want.From && to >= want.To {
		return covFull
	}
	if to < want.From || from > want.To {
		return covNone
	}
	return covPartial
}

// EvalNACL evaluates traffic against acl's ordered rules for one direction: protocol proto,
// destination ports ports, peer address set peer (the remote side). Rules apply in ascending
// rule number; the first rule covering all of the traffic decides, and the implicit final rule
// denies. Rules of protocol -1 apply to every port.
func EvalNACL(acl *evidence.NetworkACL, egress bool, proto int, ports PortRange, peer netip.Prefix) NACLResult {
	entries := make([]evidence.NACLEntry, 0, len(acl.Entries))
	for _, e := range acl.Entries {
		if e.Egress == egress {
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].RuleNumber < entries[j].RuleNumber })
	sawAllowPart, sawDenyPart := false, false
	for _, e := range entries {
		if !protoMatches(e.Protocol, proto) {
			continue
		}
		pc := covFull
		if e.Protocol != "-1" && strings.ToLower(e.Protocol) != "all" {
			pc = portCoverage(e.PortFrom, e.PortTo, ports)
		}
		cc := prefixCoverage(e.CIDR, peer)
		if pc == covNone || cc == covNone {
			continue
		}
		if pc == covFull && cc == covFull {
			partial := (e.Allow && sawDenyPart) || (!e.Allow && sawAllowPart)
			return NACLResult{Allowed: e.Allow, Partial: partial, Rule: e.RuleNumber}
		}
		if e.Allow {
			sawAllowPart = true
		} else {
			sawDenyPart = true
		}
	}
	return NACLResult{Allowed: false, Partial: sawAllowPart, Rule: 32767}
}

// privateIPv4 are the IPv4 ranges no host on the internet has: RFC 1918 private space, RFC 6598
// shared (carrier-grade NAT) space, loopback and link-local (RFC 6890).
var privateIPv4 = []netip.Prefix{
	netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"), netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("169.254.0.0/16"),
}

// EvalNACLPublic is EvalNACL for traffic with a host on the internet (the public cluster
// endpoint, a public AWS service endpoint, anything past a NAT gateway): the peer is some public
// IPv4 address, so a rule whose CIDR lies wholly inside private space never decides it and does
// not make the verdict partial. A NAT gateway translates only the node's side of a flow; the
// remote address the subnet's ACL sees stays public
// (https://docs.aws.amazon.com/vpc/latest/userguide/nat-gateway-basics.html).
func EvalNACLPublic(acl *evidence.NetworkACL, egress bool, proto int, ports PortRange) NACLResult {
	pub := &evidence.NetworkACL{ID: acl.ID, VpcID: acl.VpcID, Default: acl.Default, SubnetIDs: acl.SubnetIDs}
	for _, e := range acl.Entries {
		if !insidePrivate(e.CIDR) {
			pub.Entries = append(pub.Entries, e)
		}
	}
	return EvalNACL(pub, egress, proto, ports, netip.MustParsePrefix("0.0.0.0/0"))
}

// insidePrivate reports whether an IPv4 CIDR lies wholly inside one of privateIPv4.
func insidePrivate(cidr string) bool {
	p, err := netip.ParsePrefix(cidr)
	if err != nil || !p.Addr().Is4() {
		return false
	}
	for _, r := range privateIPv4 {
		if r.Bits() <= p.Bits() && r.Contains(p.Addr()) {
			return true
		}
	}
	return false
}

// Peer is the remote side of a security group rule check: addresses and/or security groups.
type Peer struct {
	Prefixes []netip.Prefix
	// Groups are the security groups of the peer (rules may reference them).
	Groups []string
	// PrefixLists says, for the prefix lists whose contents are known, whether they hold the
	// peer (true) or not (false); a rule naming only lists missing here leaves the verdict unknown.
	PrefixLists map[string]bool
	// ListNames name prefix lists in messages, by ID: "pl-… (name)", or for a list whose entries
	// hold the peer "pl-… (name, entry 10.0.0.0/16)" (JudgeLists). A list missing here is named by
	// its ID.
	ListNames map[string]string
	// ListNotes say, by ID, why a list judged by its entries does not hold the peer ("prefix
	// list pl-… (name) holds none of these addresses: its entries are …"), or why its entries
	// are not known ("the entries of prefix list pl-… could not be read: missing permission …");
	// a blocked or unknown hop's detail ends with the notes of the lists its rules name.
	ListNotes map[string]string
}

// SGMatch is the outcome of a security group evaluation.
type SGMatch struct {
	Allowed bool
	// Unknown is true when only a prefix-list rule could allow the traffic (prefix list
	// contents are not in the evidence).
	Unknown bool
	// Group and Rule describe the allowing rule ("sg-… egress tcp 443 to 0.0.0.0/0").
	Group, Rule string
}

func ruleProtoPorts(r evidence.SGRule, proto, port int) bool {
	switch strings.ToLower(r.Protocol) {
	case "-1", "all":
		return true
	}
	if !protoMatches(r.Protocol, proto) {
		return false
	}
	if r.FromPort == -1 && r.ToPort == -1 {
		return true
	}
	return r.FromPort <= port && port <= r.ToPort
}

// EvalSG reports whether any of groups has a rule (ingress or egress) admitting proto/port
// from or to peer. Security groups are stateful: return traffic needs no rule.
func EvalSG(groups []*evidence.SecurityGroup, egress bool, proto, port int, peer Peer) SGMatch {
	unknown := SGMatch{}
	for _, g := range groups {
		rules := g.Ingress
		dir := "ingress"
		if egress {
			rules, dir = g.Egress, "egress"
		}
		for _, r := range rules {
			if !ruleProtoPorts(r, proto, port) {
				continue
			}
			for _, c := range r.CIDRs {
				cp, err := netip.ParsePrefix(c)
				if err != nil {
					continue
				}
				all := len(peer.Prefixes) > 0
				for _, p := range peer.Prefixes {
					if cp.Addr().Is4() != p.Addr().Is4() || cp.Bits() > p.Bits() || !cp.Contains(p.Addr()) {
						all = false
					}
				}
				if all {
					return SGMatch{Allowed: true, Group: g.ID, Rule: fmt.Sprintf("%s %s %s %s", g.ID, dir, ruleText(r, port), c)}
				}
			}
			for _, ref := range r.GroupIDs {
				for _, pg := range peer.Groups {
					if ref == pg {
						return SGMatch{Allowed: true, Group: g.ID, Rule: fmt.Sprintf("%s %s %s %s", g.ID, dir, ruleText(r, port), ref)}
					}
				}
			}
			unseen := false
			for _, pl := range r.PrefixListIDs {
				holds, known := peer.PrefixLists[pl]
				if holds {
					return SGMatch{Allowed: true, Group: g.ID, Rule: fmt.Sprintf("%s %s %s prefix list %s", g.ID, dir, ruleText(r, port), listName(peer, pl))}
				}
				unseen = unseen || !known
			}
			if unseen && !unknown.Unknown {
				var names []string
				for _, pl := range r.PrefixListIDs {
					if _, known := peer.PrefixLists[pl]; !known {
						names = append(names, listName(peer, pl))
					}
				}
				unknown = SGMatch{Unknown: true, Group: g.ID, Rule: fmt.Sprintf("%s %s %s prefix list %s", g.ID, dir, ruleText(r, port), strings.Join(names, ","))}
			}
		}
	}
	return unknown
}

func ruleText(r evidence.SGRule, port int) string {
	if r.Protocol == "-1" {
		return "all traffic"
	}
	if r.FromPort == r.ToPort {
		return fmt.Sprintf("%s %d", r.Protocol, r.FromPort)
	}
	return fmt.Sprintf("%s %d-%d", r.Protocol, r.FromPort, r.ToPort)
}

// ProtoName names a protocol number for messages.
func ProtoName(p int) string {
	switch p {
	case ProtoTCP:
		return "tcp"
	case ProtoUDP:
		return "udp"
	}
	return strconv.Itoa(p)
}
