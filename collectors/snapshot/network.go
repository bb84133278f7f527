package snapshot

import (
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func ipv6Blocks(set []struct {
	IPv6CidrBlock string `json:"Ipv6CidrBlock"`
}) []string {
	var out []string
	for _, a := range set {
		if a.IPv6CidrBlock != "" {
			out = append(out, a.IPv6CidrBlock)
		}
	}
	return out
}

func convertPermissions(perms []IPPermission) []evidence.SGRule {
	var out []evidence.SGRule
	for _, p := range perms {
		r := evidence.SGRule{Protocol: p.IPProtocol, FromPort: -1, ToPort: -1}
		if p.FromPort != nil {
			r.FromPort = *p.FromPort
		}
		if p.ToPort != nil {
			r.ToPort = *p.ToPort
		}
		for _, x := range p.IPRanges {
			r.CIDRs = append(r.CIDRs, x.CidrIP)
		}
		for _, x := range p.IPv6Ranges {
			r.CIDRs = append(r.CIDRs, x.CidrIPv6)
		}
		for _, x := range p.PrefixListIDs {
			r.PrefixListIDs = append(r.PrefixListIDs, x.PrefixListID)
		}
		for _, x := range p.UserIDGroupPairs {
			r.GroupIDs = append(r.GroupIDs, x.GroupID)
		}
		out = append(out, r)
	}
	return out
}

// routeTarget returns the one target ID EC2 set on a route.
func routeTarget(ids ...string) string {
	for _, id := range ids {
		if id != "" {
			return id
		}
	}
	return ""
}

func init() {
	RegisterProviderAt(StageResources, (*Snapshot).loadSubnets, evidence.KindSubnets)
	RegisterProviderAt(StageResources, (*Snapshot).loadVPCs, evidence.KindVPCs)
	RegisterProviderAt(StageResources, (*Snapshot).loadNetwork, evidence.KindRouteTables, evidence.KindSecurityGroups, evidence.KindNetworkACLs,
		evidence.KindVPCEndpoints, evidence.KindNATGateways, evidence.KindInternetGateways, evidence.KindVPCAttributes, evidence.KindDHCPOptions)
}

// loadSubnets reads the region's subnets, with one conversion for an instance's evidence and
// the cluster's: ID, VPC, CIDR, free addresses, zone, tags, MapPublicIpOnLaunch and IPv6 blocks.
func (s *Snapshot) loadSubnets(ev *evidence.Evidence) {
	p := "ec2/describe-subnets.json"
	res, reason := decodeInto(s, p, func(o *DescribeSubnetsOutput) {
		for _, sn := range o.Subnets {
			free, unknown := 0, sn.AvailableIPAddressCount == nil
			if !unknown {
				free = *sn.AvailableIPAddressCount
			}
			// DescribeSubnets always returns AvailableIpAddressCount: a subnet without it was cut
			// by a --query, and its free addresses are unknown, not 0 (Subnet.FreeUnknown); its
			// VPC, CIDR and zone still place it on the node's network path
			ev.Subnets = append(ev.Subnets, evidence.Subnet{ID: sn.SubnetID, VpcID: sn.VpcID, CIDR: sn.CidrBlock,
				AvailableIPs: free, FreeUnknown: unknown, AvailabilityZone: sn.AvailabilityZone, Tags: tagMap(sn.Tags),
				MapPublicIPOnLaunch: sn.MapPublicIPOnLaunch, IPv6CIDRs: ipv6Blocks(sn.IPv6CidrBlockAssociationSet)})
		}
	})
	s.markFound(ev, evidence.KindSubnets, res, reason, p, true, "")
}

// loadVPCs reads the region's VPCs with their IPv4 and IPv6 blocks.
func (s *Snapshot) loadVPCs(ev *evidence.Evidence) {
	p := "ec2/describe-vpcs.json"
	res, reason := decodeInto(s, p, func(o *DescribeVpcsOutput) {
		for _, v := range o.Vpcs {
			vpc := evidence.VPC{ID: v.VpcID, DHCPOptionsID: v.DhcpOptionsID}
			// the primary block (CidrBlock) first: the VPC resolver lives at its base +2
			if v.CidrBlock != "" {
				vpc.CIDRs = []string{v.CidrBlock}
			}
			for _, a := range v.CidrBlockAssociationSet {
				if a.CidrBlock != v.CidrBlock {
					vpc.CIDRs = append(vpc.CIDRs, a.CidrBlock)
				}
			}
			vpc.CIDRs = append(vpc.CIDRs, ipv6Blocks(v.IPv6CidrBlockAssociationSet)...)
			ev.VPCs = append(ev.VPCs, vpc)
		}
	})
	s.markFound(ev, evidence.KindVPCs, res, reason, p, true, "")
}

// loadNetwork reads the VPC's routing, filtering and endpoint evidence for an instance's
// evidence, and the route tables, security groups and network ACLs for the cluster's
// (fargate.profile-public-subnet judges the Fargate profiles' subnets by the route tables in scan).
func (s *Snapshot) loadNetwork(ev *evidence.Evidence) {
	s.loadRouteTables(ev)
	// without an instance (a paste, a cluster-wide run) the security groups and network ACLs
	// given still judge what they can (checks.partialFlow, an EC2NodeClass's groups)
	s.loadFilters(ev)
	inst := s.instanceOf(ev)
	if inst == nil {
		// the cluster as a whole (no instance yet): the cluster's VPC DNS attributes, DHCP options
		// and endpoints judge what every node of it will meet, and its NAT gateways' addresses
		// the public endpoint's publicAccessCidrs (checks.partialPublicCIDRs)
		s.loadGateways(ev)
		if ev.Cluster != nil && ev.Cluster.VpcID != "" {
			s.loadVPCEndpoints(ev)
			s.loadVPCDNS(ev, ev.Cluster.VpcID)
		} else if vpc := s.soleAttributeVPC(); vpc != "" {
			// a paste of `aws ec2 describe-vpc-attribute` alone: the one VPC it shows is the
			// one asked about
			s.loadVPCDNS(ev, vpc)
		}
		return
	}
	s.loadVPCEndpoints(ev)
	s.loadGateways(ev)
	s.loadVPCDNS(ev, inst.VpcID)
}

// loadGateways reads the region's NAT gateways (with their Elastic IPs) and internet gateways.
func (s *Snapshot) loadGateways(ev *evidence.Evidence) {
	p := "ec2/describe-nat-gateways.json"
	res, reason := decodeInto(s, p, func(o *DescribeNatGatewaysOutput) {
		for _, n := range o.NatGateways {
			g := evidence.NATGateway{ID: n.NatGatewayID, SubnetID: n.SubnetID, State: n.State, ConnectivityType: n.ConnectivityType}
			for _, a := range n.NatGatewayAddresses {
				if a.PublicIP != "" {
					g.PublicIPs = append(g.PublicIPs, a.PublicIP)
				}
			}
			// outputs older than private NAT gateways have no ConnectivityType: public. One a
			// --query narrowed is public when it shows an Elastic IP, else its type is unknown
			if g.ConnectivityType == "" && (!s.Selected[p] || len(g.PublicIPs) > 0) {
				g.ConnectivityType = "public"
			}
			ev.NATGateways = append(ev.NATGateways, g)
		}
	})
	// a pasted output under `--nat-gateway-ids NAT` whose --query dropped NatGatewayId is that
	// NAT gateway's; one picked by IDs or filters is a subset of the region's
	nat := s.Narrowed[p]
	if res == readOK && len(nat.IDs) == 1 && len(ev.NATGateways) == 1 && ev.NATGateways[0].ID == "" {
		ev.NATGateways[0].ID = nat.IDs[0]
	}
	s.markFound(ev, evidence.KindNATGateways, res, reason, p, true, "")
	if res == readOK && nat.Subset() != "" {
		ev.MarkSubset(evidence.KindNATGateways, "the NAT gateways were picked by "+nat.Subset())
	}

	p = "ec2/describe-internet-gateways.json"
	res, reason = decodeInto(s, p, func(o *DescribeInternetGatewaysOutput) {
		for _, g := range o.InternetGateways {
			ig := evidence.InternetGateway{ID: g.InternetGatewayID}
			for _, a := range g.Attachments {
				ig.VpcIDs = append(ig.VpcIDs, a.VpcID)
			}
			ev.InternetGateways = append(ev.InternetGateways, ig)
		}
	})
	s.markFound(ev, evidence.KindInternetGateways, res, reason, p, true, "")

}

// soleAttributeVPC returns the VPC whose DNS attributes the snapshot holds
// (ec2/vpc-attribute/VPC.ATTR.json) when they are of one VPC only, else "".
func (s *Snapshot) soleAttributeVPC() string {
	vpc, many := "", false
	see := func(p string) {
		rest, ok := strings.CutPrefix(p, "ec2/vpc-attribute/")
		if !ok {
			return
		}
		rest = strings.TrimSuffix(rest, ".json")
		id := rest[:max(strings.LastIndexByte(rest, '.'), 0)] // VPC.ATTR: a Terraform address holds a dot
		many = many || vpc != "" && id != vpc
		vpc = id
	}
	for p := range s.files {
		see(p)
	}
	for p := range s.lazy {
		see(p)
	}
	if many {
		return ""
	}
	return vpc
}

// loadVPCEndpoints reads the region's VPC endpoints (ec2/describe-vpc-endpoints.json). A pasted
// output narrowed by a --query keeps only the fields it picked: PrivateDnsEnabled, RouteTableIds
// and PolicyDocument it dropped are unknown, not false, none or the default policy; its command
// line's vpc-id filter names the VPC of endpoints whose VpcId it dropped, and a listing picked by
// IDs or other filters is a subset (Evidence.MarkSubset).
func (s *Snapshot) loadVPCEndpoints(ev *evidence.Evidence) {
	p := "ec2/describe-vpc-endpoints.json"
	n, narrowed := s.Narrowed[p], s.Selected[p]
	count := 0
	res, reason := decodeInto(s, p, func(o *DescribeVpcEndpointsOutput) {
		for _, e := range o.VpcEndpoints {
			count++
			ep := evidence.VPCEndpoint{ID: e.VpcEndpointID, VpcID: e.VpcID, ServiceName: e.ServiceName, Type: e.VpcEndpointType,
				State: strings.ToLower(e.State), SubnetIDs: e.SubnetIDs, RouteTableIDs: e.RouteTableIDs}
			if e.PrivateDNSEnabled != nil {
				ep.PrivateDNSEnabled = *e.PrivateDNSEnabled
			}
			if narrowed {
				ep.PrivateDNSUnknown = e.PrivateDNSEnabled == nil
				ep.RoutesUnknown = e.RouteTableIDs == nil
				ep.PolicyUnknown = e.PolicyDocument == nil
			}
			if ep.VpcID == "" {
				ep.VpcID = n.One("vpc-id")
			}
			for _, g := range e.Groups {
				ep.SecurityGroupIDs = append(ep.SecurityGroupIDs, g.GroupID)
			}
			if d := e.PolicyDocument; d != nil {
				ep.Policy = &evidence.PolicyDocument{Version: d.Version}
				for _, st := range d.Statement {
					ep.Policy.Statement = append(ep.Policy.Statement, evidence.PolicyStatement{Sid: st.Sid, Effect: st.Effect, Action: st.Action,
						Resource: st.Resource, Principal: st.Principal, HasCondition: len(st.Condition) > 0 && string(st.Condition) != "null"})
				}
			}
			ev.VPCEndpoints = append(ev.VPCEndpoints, ep)
		}
	})
	if res == readOK && count == 1 && len(n.IDs) == 1 && len(ev.VPCEndpoints) > 0 && ev.VPCEndpoints[len(ev.VPCEndpoints)-1].ID == "" {
		ev.VPCEndpoints[len(ev.VPCEndpoints)-1].ID = n.IDs[0]
	}
	s.markFound(ev, evidence.KindVPCEndpoints, res, reason, p, true, "")
	if res == readOK && n.Subset() != "" {
		ev.MarkSubset(evidence.KindVPCEndpoints, "the VPC endpoints were picked by "+n.Subset())
	}
}

// loadVPCDNS reads the DNS attributes of VPC vpcID (ec2/vpc-attribute/VPC.ATTR.json) and the
// region's DHCP options sets (ec2/describe-dhcp-options.json). Both attributes must be readable
// to say the VPC's DNS is fine; one readable and false is enough to say it is not (the other's
// file stays a gap in the report's evidence, not in the judgement).
func (s *Snapshot) loadVPCDNS(ev *evidence.Evidence, vpcID string) {
	var (
		p, reason string
		res       readResult
	)
	attrs := &evidence.VPCAttributes{VpcID: vpcID}
	read, first := 0, ""
	for _, name := range []string{"enableDnsSupport", "enableDnsHostnames"} {
		p = "ec2/vpc-attribute/" + vpcID + "." + name + ".json"
		res, reason = decodeInto(s, p, func(o *DescribeVpcAttributeOutput) {
			if o.EnableDNSSupport != nil {
				attrs.EnableDNSSupport = o.EnableDNSSupport.Value
			}
			if o.EnableDNSHostnames != nil {
				attrs.EnableDNSHostnames = o.EnableDNSHostnames.Value
			}
		})
		if res != readOK {
			ev.AddGap(evidence.KindVPCAttributes, reason)
			continue
		}
		read++
		if first == "" {
			first = p
		}
	}
	off := func(b *bool) bool { return b != nil && !*b }
	if read == 2 || read == 1 && (off(attrs.EnableDNSSupport) || off(attrs.EnableDNSHostnames)) {
		ev.VPCAttributes = attrs
		ev.Mark(evidence.KindVPCAttributes, s.src(first))
	}

	p = "ec2/describe-dhcp-options.json"
	res, reason = decodeInto(s, p, func(o *DescribeDhcpOptionsOutput) {
		for _, d := range o.DhcpOptions {
			opt := evidence.DHCPOptions{ID: d.DhcpOptionsID}
			for _, c := range d.DhcpConfigurations {
				for _, v := range c.Values {
					switch c.Key {
					case "domain-name":
						opt.DomainName = append(opt.DomainName, v.Value)
					case "domain-name-servers":
						opt.DomainNameServers = append(opt.DomainNameServers, v.Value)
					}
				}
			}
			ev.DHCPOptions = append(ev.DHCPOptions, opt)
		}
	})
	s.markFound(ev, evidence.KindDHCPOptions, res, reason, p, true, "")
}

// loadRouteTables reads the VPC's route tables (ec2/describe-route-tables.json). A pasted
// output whose command line picked its tables (Narrowing) says what its fields may not: a table
// picked by `--filters Name=association.subnet-id,Values=SUBNET` is that subnet's (a subnet has
// one explicit association), one picked by `Name=association.main,Values=true` is its VPC's main
// table, `Name=vpc-id,Values=VPC` names its VPC, `--route-table-ids RTB` its ID; and a listing so
// picked is a subset of the VPC's tables (Evidence.MarkSubset).
func (s *Snapshot) loadRouteTables(ev *evidence.Evidence) {
	p := "ec2/describe-route-tables.json"
	n := s.Narrowed[p]
	tables := 0
	noAssoc := false
	res, reason := decodeInto(s, p, func(o *DescribeRouteTablesOutput) {
		for _, rt := range o.RouteTables {
			tables++
			t := evidence.RouteTable{ID: rt.RouteTableID, VpcID: rt.VpcID}
			for _, a := range rt.Associations {
				t.Main = t.Main || a.Main
				if a.SubnetID != "" {
					t.SubnetIDs = append(t.SubnetIDs, a.SubnetID)
				}
			}
			noAssoc = noAssoc || rt.Associations == nil && s.Selected[p]
			if n.OneOf == "Routes" {
				t.RoutesPartial = "the --query of " + n.Origin + " kept one route of the table"
			}
			for _, r := range rt.Routes {
				if r.DestinationCidrBlock == "" && r.DestinationIPv6CidrBlock == "" && r.DestinationPrefixListID == "" && s.Selected[p] {
					// its destination was not kept (an expression such as A||B has no place to
					// go back to): the route says nothing, and the table's routes are not all known
					t.RoutesPartial = p + " was narrowed by a --query that did not keep the destinations of its routes"
					continue
				}
				t.Routes = append(t.Routes, evidence.Route{
					DestinationCIDR:     routeTarget(r.DestinationCidrBlock, r.DestinationIPv6CidrBlock),
					DestinationPrefixID: r.DestinationPrefixListID,
					Target: routeTarget(r.GatewayID, r.NatGatewayID, r.TransitGatewayID, r.VpcPeeringConnectionID, r.NetworkInterfaceID,
						r.InstanceID, r.LocalGatewayID, r.CarrierGatewayID, r.EgressOnlyInternetGatewayID, r.CoreNetworkArn),
					State: r.State})
			}
			ev.RouteTables = append(ev.RouteTables, t)
		}
	})
	if res == readOK && n.Origin != "" {
		narrowRouteTables(ev.RouteTables, n, tables)
	}
	s.markFound(ev, evidence.KindRouteTables, res, reason, p, true, "")
	switch {
	case res != readOK:
	case n.Subset() != "":
		ev.MarkSubset(evidence.KindRouteTables, "the route tables were picked by "+n.Subset())
	case noAssoc:
		ev.MarkSubset(evidence.KindRouteTables, p+" was narrowed by a --query that did not keep Associations: which subnets use which table is not known")
	}
}

// narrowRouteTables completes the tables of a pasted describe-route-tables output (the count
// tables long) with what its command line's filters and IDs say (Narrowing): the ID of the one
// table asked for, the VPC of a vpc-id filter, and, when the output does not list the
// associations, the one subnet of an association.subnet-id filter (only one table can match it:
// a subnet has at most one explicit association) or the main flag of association.main=true. A
// table so completed names the filter in SelectedBy.
func narrowRouteTables(tables []evidence.RouteTable, n Narrowing, count int) {
	subnet, vpc := n.One("association.subnet-id"), n.One("vpc-id")
	main := n.One("association.main") == "true"
	for i := range tables {
		t := &tables[i]
		if t.ID == "" && len(n.IDs) == 1 && count == 1 {
			t.ID = n.IDs[0]
		}
		if t.VpcID == "" && vpc != "" {
			t.VpcID = vpc
		}
		if len(t.SubnetIDs) > 0 || t.Main {
			continue // the table's own associations say it
		}
		switch {
		case subnet != "" && count == 1:
			t.SubnetIDs = []string{subnet}
			t.SelectedBy = n.Origin
		case main:
			t.Main = true
			t.SelectedBy = n.Origin
		}
	}
}

// loadFilters reads the security groups and network ACLs (ec2/describe-security-groups.json,
// ec2/describe-network-acls.json).
func (s *Snapshot) loadFilters(ev *evidence.Evidence) {
	p := "ec2/describe-security-groups.json"
	narrowed := ""
	res, reason := decodeInto(s, p, func(o *DescribeSecurityGroupsOutput) {
		for _, g := range o.SecurityGroups {
			// DescribeSecurityGroups always returns a VPC group's IpPermissions and
			// IpPermissionsEgress, [] when it has no rule: a group without one was cut by a --query
			switch {
			case g.IPPermissionsEgress == nil:
				narrowed = "IpPermissionsEgress"
			case g.IPPermissions == nil:
				narrowed = "IpPermissions"
			}
			ev.SecurityGroups = append(ev.SecurityGroups, evidence.SecurityGroup{ID: g.GroupID, Name: g.GroupName, VpcID: g.VpcID,
				Ingress: convertPermissions(g.IPPermissions), Egress: convertPermissions(g.IPPermissionsEgress)})
		}
	})
	switch {
	case res == readOK && narrowed != "":
		ev.SecurityGroups = nil
		res, reason = readGap, p+" was narrowed by a --query that did not keep "+narrowed+": collect it again without --query"
	case ev.Instance != nil && !ev.Instance.Reported("SecurityGroups"):
		res, reason = readGap, "the describe-instances output was narrowed by a --query that did not keep SecurityGroups: the instance's groups are unknown"
	}
	s.markFound(ev, evidence.KindSecurityGroups, res, reason, p, true, "")

	p = "ec2/describe-network-acls.json"
	res, reason = decodeInto(s, p, func(o *DescribeNetworkACLsOutput) {
		for _, a := range o.NetworkACLs {
			acl := evidence.NetworkACL{ID: a.NetworkACLID, VpcID: a.VpcID, Default: a.IsDefault}
			for _, as := range a.Associations {
				acl.SubnetIDs = append(acl.SubnetIDs, as.SubnetID)
			}
			for _, e := range a.Entries {
				n := evidence.NACLEntry{RuleNumber: e.RuleNumber, Egress: e.Egress, Protocol: e.Protocol,
					CIDR: routeTarget(e.CidrBlock, e.IPv6CidrBlock), Allow: strings.EqualFold(e.RuleAction, "allow")}
				if e.PortRange != nil {
					n.PortFrom, n.PortTo = e.PortRange.From, e.PortRange.To
				}
				acl.Entries = append(acl.Entries, n)
			}
			ev.NetworkACLs = append(ev.NetworkACLs, acl)
		}
	})
	s.markFound(ev, evidence.KindNetworkACLs, res, reason, p, true, "")
}
