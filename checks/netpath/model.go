package netpath

import (
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// Verdict is the outcome of a hop or a flow.
type Verdict string

// Verdicts.
const (
	Reachable Verdict = "reachable"
	Blocked   Verdict = "blocked"
	Unknown   Verdict = "unknown"
)

// Hop is one step of a flow.
type Hop struct {
	// Name says what was evaluated: "dns", "route", "nat gateway", "nacl egress", "security group egress", …
	Name     string  `json:"hop"`
	Resource string  `json:"resource,omitempty"`
	Verdict  Verdict `json:"verdict"`
	Detail   string  `json:"detail"`
	// Check is the catalog ID that judges this hop (and reports it when it blocks).
	Check string `json:"check,omitempty"`
}

// Flow is one connection a joining node needs, with every hop evaluated.
type Flow struct {
	// Name is api-server, kubelet, or an AWS service (ec2, ecr.api, ecr.dkr, sts, s3).
	Name        string  `json:"flow"`
	Destination string  `json:"destination"`
	Verdict     Verdict `json:"verdict"`
	Hops        []Hop   `json:"hops"`
	// Stopped marks a flow whose walk ended early at a structural hop (a route or gateway) that
	// is not reachable: the hops past it were never evaluated. A flow blocked at a security
	// group, ACL or endpoint policy is walked to its end.
	Stopped bool `json:"-"`
}

// Check IDs the model attributes hops to (docs/checks-catalog.md).
const (
	CheckEndpointUnreachable = "net.endpoint-unreachable"
	CheckPublicCIDRs         = "net.endpoint-public-cidrs"
	CheckNoEgressRoute       = "net.no-egress-route"
	CheckPublicNoIP          = "net.public-subnet-no-public-ip"
	CheckEndpointsMissing    = "net.vpc-endpoints-missing"
	CheckEndpointSG          = "net.vpc-endpoint-sg"
	CheckEndpointPrivateDNS  = "net.vpc-endpoint-private-dns"
	CheckS3Policy            = "net.s3-endpoint-policy"
	CheckSGNodeEgress        = "net.sg-node-egress"
	CheckSGControlPlane      = "net.sg-control-plane-ingress"
	CheckNACL                = "net.nacl-blocks"
	CheckVPCDNS              = "net.vpc-dns-disabled"
	CheckLTCustomSG          = "nodegroup.lt-custom-sg-no-cluster-sg"
)

// RequiredServices are the AWS services every node reaches while joining: EC2 (VPC CNI),
// ECR API and Docker registry (pause and add-on images), STS (IAM authentication) and S3 (ECR
// image layers). https://docs.aws.amazon.com/eks/latest/userguide/private-clusters.html
var RequiredServices = []string{"ec2", "ecr.api", "ecr.dkr", "sts", "s3"}

// Model indexes the network evidence of one instance; build it with New.
type Model struct {
	ev           *evidence.Evidence
	region       string
	subnets      map[string]*evidence.Subnet
	rtBySubnet   map[string]*evidence.RouteTable
	mainRT       map[string]*evidence.RouteTable
	sgs          map[string]*evidence.SecurityGroup
	naclBySubnet map[string]*evidence.NetworkACL
	defaultNACL  map[string]*evidence.NetworkACL
	nats         map[string]*evidence.NATGateway
	// gatewayLists maps the prefix list of each S3 or DynamoDB gateway endpoint (the destination
	// of the routes to it) to the endpoint's service name: AWS-managed lists of those services'
	// public ranges, which hold no other service's address.
	gatewayLists map[string]string

	node       *evidence.Instance
	nodeSubnet *evidence.Subnet
	// vpc is the node's VPC: the instance's VpcId, else its subnet's (NodeVPC).
	vpc string
	// subnetByID is set when the node's subnet is known only by the ID the instance names
	// (no describe-subnets): it says how its VPC is known. Its CIDR, free addresses and network
	// ACL association are unknown.
	subnetByID string
	// wholeRTs is false when the route tables are a subset of the VPC's (Evidence.SubsetOf): a
	// subnet no table names may have one not shown, so the main table is not known to be its.
	wholeRTs   bool
	nodePrefix netip.Prefix
	nodeGroups []*evidence.SecurityGroup
	ephemeral  PortRange
	// sgCheck is the check blamed for gaps between the control plane and the node's security
	// groups: the launch template check when a custom launch template replaced the cluster
	// security group. The node's egress is always net.sg-node-egress's (red team 8a, finding 9).
	sgCheck string
}

// New indexes ev. It needs the instance; other kinds are used when collected.
func New(ev *evidence.Evidence) *Model {
	m := &Model{ev: ev, region: ev.Target.Region, subnets: map[string]*evidence.Subnet{}, rtBySubnet: map[string]*evidence.RouteTable{},
		mainRT: map[string]*evidence.RouteTable{}, sgs: map[string]*evidence.SecurityGroup{}, naclBySubnet: map[string]*evidence.NetworkACL{},
		defaultNACL: map[string]*evidence.NetworkACL{}, nats: map[string]*evidence.NATGateway{}, node: ev.Instance, ephemeral: EphemeralLinux, sgCheck: CheckSGNodeEgress}
	for i := range ev.Subnets {
		m.subnets[ev.Subnets[i].ID] = &ev.Subnets[i]
	}
	for i := range ev.RouteTables {
		rt := &ev.RouteTables[i]
		if rt.Main {
			m.mainRT[rt.VpcID] = rt
		}
		for _, s := range rt.SubnetIDs {
			m.rtBySubnet[s] = rt
		}
	}
	for i := range ev.SecurityGroups {
		m.sgs[ev.SecurityGroups[i].ID] = &ev.SecurityGroups[i]
	}
	for i := range ev.NetworkACLs {
		a := &ev.NetworkACLs[i]
		if a.Default {
			m.defaultNACL[a.VpcID] = a
		}
		for _, s := range a.SubnetIDs {
			m.naclBySubnet[s] = a
		}
	}
	for i := range ev.NATGateways {
		m.nats[ev.NATGateways[i].ID] = &ev.NATGateways[i]
	}
	m.gatewayLists = gatewayPrefixLists(ev)
	m.wholeRTs = ev.SubsetOf(evidence.KindRouteTables) == ""
	if m.node != nil {
		m.nodeSubnet = m.subnets[m.node.SubnetID]
		m.vpc = m.node.VpcID
		if m.nodeSubnet != nil && m.vpc == "" {
			m.vpc = m.nodeSubnet.VpcID
		}
		if m.nodeSubnet == nil && m.node.SubnetID != "" && !ev.Have(evidence.KindSubnets) {
			if vpc, how := NodeVPC(ev); vpc != "" {
				m.nodeSubnet = &evidence.Subnet{ID: m.node.SubnetID, VpcID: vpc, FreeUnknown: true}
				m.vpc, m.subnetByID = vpc, how
			}
		}
		if a, err := netip.ParseAddr(m.node.PrivateIP); err == nil {
			m.nodePrefix = netip.PrefixFrom(a, a.BitLen())
		}
		for _, id := range m.node.SecurityGroupIDs {
			if g := m.sgs[id]; g != nil {
				m.nodeGroups = append(m.nodeGroups, g)
			}
		}
		if m.node.Platform == "windows" {
			m.ephemeral = EphemeralWindows
		}
		if m.region == "" && len(m.node.AvailabilityZone) > 1 {
			m.region = m.node.AvailabilityZone[:len(m.node.AvailabilityZone)-1]
		}
	}
	if m.region == "" {
		m.region = regionOf(ev, m.vpc)
	}
	if CustomLTWithoutClusterSG(ev) {
		m.sgCheck = CheckLTCustomSG
	}
	return m
}

// regionOf returns the region the evidence places the cluster in when neither the target nor the
// instance's zone says it: the cluster's ARN (arn:aws:eks:REGION:…), else the one region the
// service names of the VPC endpoints of vpc share (com.amazonaws.REGION.SERVICE: a VPC and its
// endpoints are regional). "" when nothing says it.
func regionOf(ev *evidence.Evidence, vpc string) string {
	if c := ev.Cluster; c != nil {
		if f := strings.Split(c.Arn, ":"); len(f) > 4 && f[0] == "arn" && f[2] == "eks" && f[3] != "" {
			return f[3]
		}
	}
	region := ""
	for _, e := range ev.VPCEndpoints {
		if e.VpcID != vpc || vpc == "" {
			continue
		}
		f := strings.Split(e.ServiceName, ".")
		if len(f) < 4 || f[0] != "com" || f[1] != "amazonaws" {
			continue
		}
		if region != "" && region != f[2] {
			return ""
		}
		region = f[2]
	}
	return region
}

// NodeVPC returns the VPC of the instance's subnet when describe-subnets is not in the evidence,
// and how it is known: the instance's VpcId, else the cluster's VPC (resourcesVpcConfig.vpcId: a
// node of the cluster in a subnet of the cluster's VPC) unless something in the evidence places
// the node elsewhere — a route table associated with its subnet, or one of its security groups,
// in another VPC. "" when it is not known.
func NodeVPC(ev *evidence.Evidence) (vpc, how string) {
	in := ev.Instance
	if in == nil {
		return "", ""
	}
	if in.VpcID != "" {
		return in.VpcID, "the instance's VpcId"
	}
	c := ev.Cluster
	if c == nil || c.VpcID == "" {
		return "", ""
	}
	for _, rt := range ev.RouteTables {
		if rt.VpcID != "" && rt.VpcID != c.VpcID && containsString(rt.SubnetIDs, in.SubnetID) {
			return "", ""
		}
	}
	for _, g := range ev.SecurityGroups {
		if g.VpcID != "" && g.VpcID != c.VpcID && containsString(in.SecurityGroupIDs, g.ID) {
			return "", ""
		}
	}
	return c.VpcID, "the cluster's VPC (resourcesVpcConfig.vpcId; describe-subnets is not in the evidence)"
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// CustomLTWithoutClusterSG reports whether the instance is in a managed node group whose launch
// template sets security groups that do not include the cluster security group.
func CustomLTWithoutClusterSG(ev *evidence.Evidence) bool {
	if ev.Instance == nil || ev.Cluster == nil || ev.LaunchTemplate == nil || ev.Instance.Tags["eks:nodegroup-name"] == "" {
		return false
	}
	lt := ev.LaunchTemplate
	if len(lt.SecurityGroupIDs) == 0 {
		return false
	}
	for _, g := range lt.SecurityGroupIDs {
		if g == ev.Cluster.ClusterSecurityGroup {
			return false
		}
	}
	return true
}

// routeTable returns the subnet's route table: its explicit association or, when the route
// tables are the VPC's whole set, the VPC's main table.
func (m *Model) routeTable(subnetID, vpcID string) *evidence.RouteTable {
	if rt := m.rtBySubnet[subnetID]; rt != nil {
		return rt
	}
	if !m.wholeRTs {
		return nil
	}
	return m.mainRT[vpcID]
}

// noRouteTable is the detail of the unknown route hop of a subnet whose route table is not in
// the evidence.
func (m *Model) noRouteTable(subnetID string) string {
	if why := m.ev.SubsetOf(evidence.KindRouteTables); why != "" {
		return "no route table of " + subnetID + " in the evidence (" + why + ")"
	}
	if m.vpc != "" && len(m.ev.RouteTables) > 0 {
		// the listing holds tables, none of the node's VPC: it was taken elsewhere (another
		// region or account, no --filters), and says nothing of the node's routes
		var others []string
		for _, rt := range m.ev.RouteTables {
			if rt.VpcID == m.vpc {
				return "no route table for the subnet in the evidence"
			}
			if rt.VpcID != "" && !slices.Contains(others, rt.VpcID) {
				others = append(others, rt.VpcID)
			}
		}
		if len(others) > 0 {
			sort.Strings(others)
			return fmt.Sprintf("%s holds no route table of %s, only of %s (another region or account?), so %s's route is unknown",
				strings.TrimPrefix(m.ev.Source(evidence.KindRouteTables), "snapshot:"), m.vpc, strings.Join(others, ", "), subnetID)
		}
	}
	return "no route table for the subnet in the evidence"
}

// rtName names a route table in messages: its ID, or for one a --query left without it, the
// subnet it is associated with and what says so.
func rtName(rt *evidence.RouteTable) string {
	if rt.ID != "" {
		return rt.ID
	}
	switch {
	case len(rt.SubnetIDs) == 1 && rt.SelectedBy != "":
		return "the route table of " + rt.SubnetIDs[0] + " (selected by " + rt.SelectedBy + ")"
	case len(rt.SubnetIDs) == 1:
		return "the route table of " + rt.SubnetIDs[0]
	case rt.Main:
		return "the main route table of " + rt.VpcID
	}
	return "the route table"
}

func (m *Model) nacl(subnetID, vpcID string) *evidence.NetworkACL {
	if a := m.naclBySubnet[subnetID]; a != nil {
		return a
	}
	return m.defaultNACL[vpcID]
}

// subnetsGap says why the subnets are not in the evidence when describe-subnets was not read
// (" (missing evidence: ec2:subnets: …)"); "" when it was.
func (m *Model) subnetsGap() string {
	if m.ev.Have(evidence.KindSubnets) {
		return ""
	}
	return " (" + m.missing(evidence.KindSubnets) + ")"
}

func (m *Model) missing(kind evidence.Kind) string {
	return fmt.Sprintf("missing evidence: %s: %s", kind, m.ev.GapFor(kind).Reason)
}

// walk accumulates hops into a flow.
type walk struct {
	f    *Flow
	stop bool
}

// add records a hop; structural hops (routes, gateways) that are not reachable end the walk.
func (w *walk) add(h Hop, structural bool) bool {
	if w.stop {
		return false
	}
	w.f.Hops = append(w.f.Hops, h)
	switch h.Verdict {
	case Blocked:
		w.f.Verdict = Blocked
	case Unknown:
		if w.f.Verdict == Reachable {
			w.f.Verdict = Unknown
		}
	}
	if structural && h.Verdict != Reachable {
		w.stop = true
		w.f.Stopped = true
	}
	return !w.stop
}

// anyIPv4 is the peer of the flows to the internet (the public endpoint, public AWS service
// endpoints, past a NAT gateway); naclCheck judges it as public address space.
var anyIPv4 = netip.MustParsePrefix("0.0.0.0/0")

// Analyze evaluates every flow a joining node needs. It returns nil when the instance or its
// subnet evidence is missing. The result is computed once per Evidence and shared: callers must
// not modify it.
func Analyze(ev *evidence.Evidence) []Flow {
	flows, _ := ev.Memo("netpath.flows", func() any { return analyze(ev) }).([]Flow)
	return flows
}

func analyze(ev *evidence.Evidence) []Flow {
	m := New(ev)
	if m.node == nil || !ev.Have(evidence.KindSubnets) && m.subnetByID == "" || m.nodeSubnet == nil || !m.nodePrefix.IsValid() {
		return nil
	}
	var flows []Flow
	if ev.Cluster != nil {
		flows = append(flows, m.apiFlow())
	} else if addrs := publicAPIAddresses(ev.NodeLogs); len(addrs) > 0 {
		flows = append(flows, m.publicAPIFlow(addrs))
	}
	for _, svc := range RequiredServices {
		flows = append(flows, m.serviceFlow(svc))
	}
	if ev.Cluster != nil && ev.Cluster.VpcID == m.vpc {
		flows = append(flows, m.kubeletFlow())
	}
	return flows
}

func (m *Model) dnsHop(w *walk, needHostnames bool) {
	ev := m.ev
	if !ev.Have(evidence.KindVPCAttributes) || ev.VPCAttributes == nil {
		w.add(Hop{Name: "dns", Verdict: Unknown, Detail: m.missing(evidence.KindVPCAttributes), Check: CheckVPCDNS}, false)
		return
	}
	a := ev.VPCAttributes
	switch {
	case a.EnableDNSSupport != nil && !*a.EnableDNSSupport:
		w.add(Hop{Name: "dns", Resource: a.VpcID, Verdict: Blocked, Detail: "VPC enableDnsSupport is false: the Amazon-provided resolver does not answer", Check: CheckVPCDNS}, true)
	case needHostnames && a.EnableDNSHostnames != nil && !*a.EnableDNSHostnames:
		w.add(Hop{Name: "dns", Resource: a.VpcID, Verdict: Blocked, Detail: "VPC enableDnsHostnames is false: private endpoint names do not resolve to private addresses", Check: CheckVPCDNS}, true)
	default:
		w.add(Hop{Name: "dns", Resource: a.VpcID, Verdict: Reachable, Detail: "VPC DNS support and hostnames enabled", Check: CheckVPCDNS}, false)
	}
}

// internetPath walks node → default route → gateway, NACLs and security groups to an internet
// destination on TCP 443. noRoute names the check blamed when there is no default route. It
// returns the node's egress addresses (public IP or NAT Elastic IPs) when known.
func (m *Model) internetPath(w *walk, noRoute, svc string) []string {
	ev := m.ev
	var egress []string
	m.sgEgress(w, m.listPeer(Peer{Prefixes: []netip.Prefix{anyIPv4}, PrefixLists: m.knownLists(svc)}, m.nodeGroups, true), 443, "0.0.0.0/0")
	m.naclPair(w, m.nodeSubnet, anyIPv4, PortRange{443, 443}, m.ephemeral, "0.0.0.0/0")
	if !ev.Have(evidence.KindRouteTables) {
		w.add(Hop{Name: "route", Verdict: Unknown, Detail: m.missing(evidence.KindRouteTables)}, true)
		return nil
	}
	rt := m.routeTable(m.nodeSubnet.ID, m.nodeSubnet.VpcID)
	if rt == nil {
		w.add(Hop{Name: "route", Resource: m.nodeSubnet.ID, Verdict: Unknown, Detail: m.noRouteTable(m.nodeSubnet.ID)}, true)
		return nil
	}
	res, name := orDefault(rt.ID, m.nodeSubnet.ID), rtName(rt)
	r, ok := SelectRoute(rt, anyIPv4)
	switch {
	case !ok && rt.RoutesPartial != "":
		w.add(Hop{Name: "route", Resource: res, Verdict: Unknown, Detail: fmt.Sprintf("no route to 0.0.0.0/0 among the routes of %s in the evidence, but %s", name, rt.RoutesPartial)}, true)
		return nil
	case !ok:
		w.add(Hop{Name: "route", Resource: res, Verdict: Blocked, Detail: fmt.Sprintf("route table %s has no route to 0.0.0.0/0", strings.TrimPrefix(name, "the route table ")), Check: noRoute}, true)
		return nil
	case r.State == "blackhole":
		w.add(Hop{Name: "route", Resource: res, Verdict: Blocked, Detail: fmt.Sprintf("route %s → %s in %s is a blackhole (its target was deleted)", r.DestinationCIDR, r.Target, name), Check: CheckNoEgressRoute}, true)
		return nil
	}
	hop := Hop{Name: "route", Resource: res, Verdict: Reachable, Detail: fmt.Sprintf("%s → %s in %s", r.DestinationCIDR, r.Target, name), Check: noRoute}
	switch {
	case strings.HasPrefix(r.Target, "igw-"):
		w.add(hop, true)
		if m.node.PublicIP == "" {
			w.add(Hop{Name: "public ip", Resource: m.node.ID, Verdict: Blocked, Detail: fmt.Sprintf("subnet %s routes to internet gateway %s but the instance has no public IPv4 address", m.nodeSubnet.ID, r.Target), Check: CheckPublicNoIP}, true)
			return nil
		}
		w.add(Hop{Name: "public ip", Resource: m.node.ID, Verdict: Reachable, Detail: "instance public IP " + m.node.PublicIP, Check: CheckPublicNoIP}, false)
		egress = []string{m.node.PublicIP}
	case strings.HasPrefix(r.Target, "nat-"):
		w.add(hop, true)
		egress = m.natHop(w, r.Target)
	default:
		hop.Verdict = Unknown
		hop.Detail += fmt.Sprintf(": cannot verify beyond %s", r.Target)
		w.add(hop, true)
	}
	return egress
}

func (m *Model) natHop(w *walk, id string) []string {
	ev := m.ev
	if !ev.Have(evidence.KindNATGateways) {
		w.add(Hop{Name: "nat gateway", Resource: id, Verdict: Unknown, Detail: m.missing(evidence.KindNATGateways)}, true)
		return nil
	}
	n := m.nats[id]
	switch {
	case n == nil && ev.SubsetOf(evidence.KindNATGateways) != "":
		w.add(Hop{Name: "nat gateway", Resource: id, Verdict: Unknown, Detail: "NAT gateway " + id + " is not among those in the evidence (" + ev.SubsetOf(evidence.KindNATGateways) + ")"}, true)
		return nil
	case n == nil:
		w.add(Hop{Name: "nat gateway", Resource: id, Verdict: Blocked, Detail: "NAT gateway " + id + " does not exist", Check: CheckNoEgressRoute}, true)
		return nil
	case n.State != "" && n.State != "available":
		w.add(Hop{Name: "nat gateway", Resource: id, Verdict: Blocked, Detail: fmt.Sprintf("NAT gateway %s is %s", id, n.State), Check: CheckNoEgressRoute}, true)
		return nil
	case n.ConnectivityType == "private":
		w.add(Hop{Name: "nat gateway", Resource: id, Verdict: Unknown, Detail: "private NAT gateway " + id + ": cannot verify beyond it"}, true)
		return nil
	case n.ConnectivityType == "":
		w.add(Hop{Name: "nat gateway", Resource: id, Verdict: Unknown, Detail: "NAT gateway " + id + ": its connectivity type and Elastic IPs are not in the evidence (narrowed by a --query)"}, true)
		return nil
	}
	sn := m.subnets[n.SubnetID]
	switch {
	case n.State == "":
		// its state was not shown: whether it forwards is unknown, but what leaves through it
		// leaves from its Elastic IPs (the flow's egress addresses, UnknownPast)
		w.add(Hop{Name: "nat gateway", Resource: id, Verdict: Unknown, Detail: "the state of NAT gateway " + id + " is not in the evidence (narrowed by a --query)"}, true)
		return n.PublicIPs
	case sn == nil:
		w.add(Hop{Name: "nat gateway", Resource: id, Verdict: Unknown, Detail: "the NAT gateway's subnet " + orDefault(n.SubnetID, "(not shown)") + " is not in the evidence" + m.subnetsGap()}, true)
		return n.PublicIPs
	}
	rt := m.routeTable(sn.ID, sn.VpcID)
	var r evidence.Route
	ok := false
	if rt != nil {
		r, ok = SelectRoute(rt, anyIPv4)
	}
	if !ok || r.State == "blackhole" || !strings.HasPrefix(r.Target, "igw-") {
		detail := fmt.Sprintf("NAT gateway %s sits in subnet %s, whose route table has no active 0.0.0.0/0 route to an internet gateway", id, sn.ID)
		w.add(Hop{Name: "nat gateway", Resource: id, Verdict: Blocked, Detail: detail, Check: CheckNoEgressRoute}, true)
		return nil
	}
	w.add(Hop{Name: "nat gateway", Resource: id, Verdict: Reachable, Detail: fmt.Sprintf("%s (Elastic IP %s) in %s → %s", id, strings.Join(n.PublicIPs, ","), sn.ID, r.Target), Check: CheckNoEgressRoute}, false)
	if nodeCIDR, err := netip.ParsePrefix(m.nodeSubnet.CIDR); err != nil {
		w.add(Hop{Name: "nacl ingress", Resource: sn.ID, Verdict: Unknown, Detail: "the CIDR of the node's subnet " + m.nodeSubnet.ID + " is not in the evidence", Check: CheckNACL}, false)
	} else {
		m.naclCheck(w, sn, false, ProtoTCP, PortRange{443, 443}, nodeCIDR, "into the NAT gateway's subnet from "+m.nodeSubnet.CIDR)
	}
	m.naclCheck(w, sn, true, ProtoTCP, PortRange{443, 443}, anyIPv4, "out of the NAT gateway's subnet to 0.0.0.0/0")
	m.naclCheck(w, sn, false, ProtoTCP, EphemeralAWS, anyIPv4, "return traffic into the NAT gateway's subnet")
	return n.PublicIPs
}

// naclPair checks the node subnet's ACL: request out and return traffic in.
func (m *Model) naclPair(w *walk, sn *evidence.Subnet, peer netip.Prefix, port, ret PortRange, peerDesc string) {
	m.naclCheck(w, sn, true, ProtoTCP, port, peer, "out of "+sn.ID+" to "+peerDesc)
	m.naclCheck(w, sn, false, ProtoTCP, ret, peer, "return traffic into "+sn.ID+" from "+peerDesc)
}

func (m *Model) naclCheck(w *walk, sn *evidence.Subnet, egress bool, proto int, ports PortRange, peer netip.Prefix, what string) {
	name := "nacl ingress"
	if egress {
		name = "nacl egress"
	}
	if !m.ev.Have(evidence.KindNetworkACLs) {
		w.add(Hop{Name: name, Verdict: Unknown, Detail: m.missing(evidence.KindNetworkACLs), Check: CheckNACL}, false)
		return
	}
	acl := m.nacl(sn.ID, sn.VpcID)
	if acl == nil {
		w.add(Hop{Name: name, Resource: sn.ID, Verdict: Unknown, Detail: "no network ACL for " + sn.ID + " in the evidence", Check: CheckNACL}, false)
		return
	}
	w.add(NACLHop(acl, egress, proto, ports, peer, what), false)
}

// NACLHop judges traffic through acl in one direction (proto, ports, the remote side peer; what
// describes it for the message) as a hop of net.nacl-blocks: Blocked naming the denying rule,
// Reachable naming the allowing one, Unknown when an earlier rule treats part of the traffic
// differently. A peer of 0.0.0.0/0 is a host on the internet (EvalNACLPublic).
func NACLHop(acl *evidence.NetworkACL, egress bool, proto int, ports PortRange, peer netip.Prefix, what string) Hop {
	name := "nacl ingress"
	if egress {
		name = "nacl egress"
	}
	res := EvalNACL(acl, egress, proto, ports, peer)
	if peer == anyIPv4 {
		// every flow the model gives the peer 0.0.0.0/0 has a host on the internet at its far end
		res = EvalNACLPublic(acl, egress, proto, ports)
	}
	portText := fmt.Sprintf("%s %d", ProtoName(proto), ports.From)
	if ports.From != ports.To {
		portText = fmt.Sprintf("%s %d-%d", ProtoName(proto), ports.From, ports.To)
	}
	h := Hop{Name: name, Resource: acl.ID, Check: CheckNACL}
	switch {
	case res.Partial:
		h.Verdict, h.Detail = Unknown, fmt.Sprintf("%s: %s %s is decided by rule %d, but an earlier rule treats part of it differently", acl.ID, portText, what, res.Rule)
	case res.Allowed:
		h.Verdict, h.Detail = Reachable, fmt.Sprintf("%s rule %d allows %s %s", acl.ID, res.Rule, portText, what)
	default:
		rule := fmt.Sprintf("rule %d", res.Rule)
		if res.Rule == 32767 {
			rule = "the final * rule (no earlier rule allows it)"
		}
		h.Verdict, h.Detail = Blocked, fmt.Sprintf("%s %s denies %s %s", acl.ID, rule, portText, what)
	}
	return h
}

func (m *Model) groups(ids []string) []*evidence.SecurityGroup {
	var out []*evidence.SecurityGroup
	for _, id := range ids {
		if g := m.sgs[id]; g != nil {
			out = append(out, g)
		}
	}
	return out
}

// sgEgress checks that the node's security groups let TCP port out to peer.
func (m *Model) sgEgress(w *walk, peer Peer, port int, desc string) {
	if !m.ev.Have(evidence.KindSecurityGroups) {
		w.add(Hop{Name: "security group egress", Verdict: Unknown, Detail: m.missing(evidence.KindSecurityGroups), Check: CheckSGNodeEgress}, false)
		return
	}
	w.add(SGEgressHop(m.nodeGroups, m.node.SecurityGroupIDs, peer, port, desc, CheckSGNodeEgress), false)
}

// SGEgressHop judges TCP port out of the node's security groups (ids, of which groups are the
// ones in the evidence) to peer (desc names it) as a hop of check: Reachable naming the rule,
// Unknown when only a prefix list whose entries are unknown could allow it, else Blocked; the
// detail ends with peer's notes on the lists the rules name (Peer.ListNotes).
func SGEgressHop(groups []*evidence.SecurityGroup, ids []string, peer Peer, port int, desc, check string) Hop {
	res := EvalSG(groups, true, ProtoTCP, port, peer)
	h := Hop{Name: "security group egress", Resource: strings.Join(ids, ","), Check: check}
	switch {
	case res.Allowed:
		h.Verdict, h.Detail = Reachable, "allowed by "+res.Rule
	case res.Unknown:
		h.Verdict, h.Detail = Unknown, "only "+res.Rule+" could allow it (prefix list entries are not in the evidence)"+listNotes(groups, true, ProtoTCP, port, peer)
	default:
		h.Verdict, h.Detail = Blocked, fmt.Sprintf("no egress rule of %s allows tcp %d to %s", h.Resource, port, desc)+listNotes(groups, true, ProtoTCP, port, peer)
	}
	return h
}

// sgIngress checks that groups admit TCP port from peer.
func (m *Model) sgIngress(w *walk, groups []string, peer Peer, port int, desc, check string) {
	if !m.ev.Have(evidence.KindSecurityGroups) {
		w.add(Hop{Name: "security group ingress", Verdict: Unknown, Detail: m.missing(evidence.KindSecurityGroups), Check: check}, false)
		return
	}
	gs := m.groups(groups)
	h := Hop{Name: "security group ingress", Resource: strings.Join(groups, ","), Check: check}
	if len(gs) == 0 {
		h.Verdict, h.Detail = Unknown, "security groups "+h.Resource+" are not in the evidence"
		w.add(h, false)
		return
	}
	peer = m.listPeer(peer, gs, false)
	res := EvalSG(gs, false, ProtoTCP, port, peer)
	switch {
	case res.Allowed:
		h.Verdict, h.Detail = Reachable, "allowed by "+res.Rule
	case res.Unknown:
		h.Verdict, h.Detail = Unknown, "only "+res.Rule+" could allow it (prefix list entries are not in the evidence)"+listNotes(gs, false, ProtoTCP, port, peer)
	default:
		h.Verdict, h.Detail = Blocked, fmt.Sprintf("no ingress rule of %s allows tcp %d from %s", h.Resource, port, desc)+listNotes(gs, false, ProtoTCP, port, peer)
	}
	w.add(h, false)
}

// vpcPath walks node → a destination inside the VPC (the cluster's or an endpoint's network
// interfaces in destSubnets, protected by destGroups) on TCP port.
func (m *Model) vpcPath(w *walk, destSubnets []string, destGroups []string, port int, ingressCheck string) {
	var dests []*evidence.Subnet
	var prefixes []netip.Prefix
	for _, id := range destSubnets {
		if sn := m.subnets[id]; sn != nil {
			if p, err := netip.ParsePrefix(sn.CIDR); err == nil {
				dests = append(dests, sn)
				prefixes = append(prefixes, p)
			}
		}
	}
	if len(dests) == 0 {
		w.add(Hop{Name: "route", Verdict: Unknown, Detail: "the destination subnets " + strings.Join(destSubnets, ",") + " are not in the evidence" + m.subnetsGap()}, true)
		return
	}
	m.sgEgress(w, m.listPeer(Peer{Prefixes: prefixes, Groups: destGroups, PrefixLists: m.knownLists("")}, m.nodeGroups, true), port, strings.Join(destGroups, ","))
	nodeSubnetPrefix, prefixErr := netip.ParsePrefix(m.nodeSubnet.CIDR)
	if m.ev.Have(evidence.KindRouteTables) {
		rt := m.routeTable(m.nodeSubnet.ID, m.nodeSubnet.VpcID)
		if rt == nil {
			w.add(Hop{Name: "route", Resource: m.nodeSubnet.ID, Verdict: Unknown, Detail: m.noRouteTable(m.nodeSubnet.ID)}, true)
		}
		for i, p := range prefixes {
			if rt == nil {
				break
			}
			r, ok := SelectRoute(rt, p)
			switch {
			case !ok:
				w.add(Hop{Name: "route", Resource: orDefault(rt.ID, m.nodeSubnet.ID), Verdict: Unknown, Detail: fmt.Sprintf("no route to %s (%s) in %s", p, dests[i].ID, rtName(rt))}, true)
			case r.Target != "local":
				w.add(Hop{Name: "route", Resource: orDefault(rt.ID, m.nodeSubnet.ID), Verdict: Unknown, Detail: fmt.Sprintf("%s routes %s via %s: cannot verify beyond it", rtName(rt), p, r.Target)}, true)
			}
		}
		if !w.stop && rt != nil {
			w.add(Hop{Name: "route", Resource: orDefault(rt.ID, m.nodeSubnet.ID), Verdict: Reachable, Detail: "local route inside the VPC"}, false)
		}
	}
	for i, sn := range dests {
		m.naclPair(w, m.nodeSubnet, prefixes[i], PortRange{port, port}, m.ephemeral, sn.CIDR+" ("+sn.ID+")")
		if sn.ID != m.nodeSubnet.ID {
			m.naclCheck(w, sn, false, ProtoTCP, PortRange{port, port}, m.nodePrefix, fmt.Sprintf("into %s from the node %s", sn.ID, m.nodePrefix.Addr()))
			if prefixErr != nil {
				w.add(Hop{Name: "nacl egress", Resource: sn.ID, Verdict: Unknown, Detail: "the CIDR of the node's subnet " + m.nodeSubnet.ID + " is not in the evidence", Check: CheckNACL}, false)
				continue
			}
			m.naclCheck(w, sn, true, ProtoTCP, EphemeralAWS, nodeSubnetPrefix, fmt.Sprintf("return traffic out of %s to %s", sn.ID, m.nodeSubnet.CIDR))
		}
	}
	m.sgIngress(w, destGroups, Peer{Prefixes: []netip.Prefix{m.nodePrefix}, Groups: m.node.SecurityGroupIDs}, port, "the node", ingressCheck)
}

// controlPlaneCheck is the check blamed for security group gaps between the control plane and
// the node.
func (m *Model) controlPlaneCheck() string {
	if m.sgCheck == CheckLTCustomSG {
		return CheckLTCustomSG
	}
	return CheckSGControlPlane
}

func (m *Model) clusterGroups() []string {
	c := m.ev.Cluster
	var out []string
	if c.ClusterSecurityGroup != "" {
		out = append(out, c.ClusterSecurityGroup)
	}
	return append(out, c.SecurityGroupIDs...)
}

func (m *Model) apiFlow() Flow {
	c := m.ev.Cluster
	f := Flow{Name: "api-server", Destination: c.Endpoint, Verdict: Reachable}
	w := &walk{f: &f}
	inVPC := c.VpcID != "" && c.VpcID == m.vpc
	switch {
	case c.EndpointPrivateAccess && inVPC:
		w.add(Hop{Name: "endpoint access", Resource: c.Arn, Verdict: Reachable, Detail: "private endpoint access enabled and the node is in the cluster VPC: the endpoint resolves to the cluster's network interfaces", Check: CheckEndpointUnreachable}, false)
		m.dnsHop(w, true)
		m.vpcPath(w, c.SubnetIDs, m.clusterGroups(), 443, m.controlPlaneCheck())
	case c.EndpointPublicAccess:
		w.add(Hop{Name: "endpoint access", Resource: c.Arn, Verdict: Reachable, Detail: "public endpoint: the node reaches it through the internet", Check: CheckEndpointUnreachable}, false)
		m.dnsHop(w, false)
		egress := m.internetPath(w, CheckEndpointUnreachable, "")
		if len(egress) > 0 {
			// past a NAT gateway whose state or onward route is not shown the way is unknown,
			// but whatever leaves through it leaves from its Elastic IPs: the API server's
			// publicAccessCidrs judge those either way
			m.publicCIDRHop(w, egress)
		}
	default:
		w.add(Hop{Name: "endpoint access", Resource: c.Arn, Verdict: Blocked, Detail: fmt.Sprintf("the endpoint is private only and the node is in %s, not the cluster VPC %s", m.vpc, c.VpcID), Check: CheckEndpointUnreachable}, true)
	}
	return f
}

// apiTimeout is the finding of the kubelet's connections to the API server timing out; its
// lines carry the address dialled as the fact "address" (collectors/logscan).
const apiTimeout = "runtime.apiserver-timeout"

// publicAPIAddresses returns the addresses the node's failing API server timeouts dialled
// (logs' failing hits of apiTimeout) when every one is a public IPv4 address, else nil.
func publicAPIAddresses(logs *evidence.NodeLogs) []string {
	if logs == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, h := range logs.Hits {
		if h.Finding != apiTimeout || !logs.Failing(h) {
			continue
		}
		for _, a := range h.Facts["address"] {
			ip, err := netip.ParseAddr(a)
			if err != nil || !ip.Is4() || !ip.IsGlobalUnicast() || ip.IsPrivate() || netip.MustParsePrefix("100.64.0.0/10").Contains(ip) {
				return nil // a private endpoint, or an address of no known kind: not only the internet way
			}
			if !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// publicAPIFlow is the API server flow without describe-cluster, as the node's log shows it: the
// kubelet dialled the endpoint at public addresses, so DNS gave the node the public endpoint and
// the way there is the node subnet's way to the internet, which no VPC endpoint carries (a
// cluster's endpoint has none: https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html).
// The endpoint's publicAccessCidrs are not known, so the flow ends at the way out.
func (m *Model) publicAPIFlow(addrs []string) Flow {
	f := Flow{Name: "api-server", Destination: strings.Join(addrs, ", "), Verdict: Reachable}
	w := &walk{f: &f}
	w.add(Hop{Name: "endpoint access", Verdict: Reachable, Detail: "the kubelet dialled the API server at public addresses (" + strings.Join(addrs, ", ") + "): the node reaches it through the internet", Check: CheckEndpointUnreachable}, false)
	m.internetPath(w, CheckNoEgressRoute, "")
	return f
}

func (m *Model) publicCIDRHop(w *walk, egress []string) {
	c := m.ev.Cluster
	cidrs := c.PublicAccessCidrs
	if len(cidrs) == 0 {
		cidrs = []string{"0.0.0.0/0"}
	}
	var outside []string
	for _, ip := range egress {
		a, err := netip.ParseAddr(ip)
		if err != nil {
			continue
		}
		in := false
		for _, c := range cidrs {
			if p, err := netip.ParsePrefix(c); err == nil && p.Contains(a) {
				in = true
			}
		}
		if !in {
			outside = append(outside, ip)
		}
	}
	stopped := w.stop
	w.stop = false // judged past a hop left unknown (apiFlow)
	if len(outside) > 0 {
		w.add(Hop{Name: "public access cidrs", Resource: c.Arn, Verdict: Blocked, Check: CheckPublicCIDRs,
			Detail: fmt.Sprintf("the node's egress address %s is not in publicAccessCidrs %s", strings.Join(outside, ","), strings.Join(cidrs, ","))}, true)
		return
	}
	w.add(Hop{Name: "public access cidrs", Resource: c.Arn, Verdict: Reachable, Check: CheckPublicCIDRs,
		Detail: fmt.Sprintf("egress address %s is in publicAccessCidrs %s", strings.Join(egress, ","), strings.Join(cidrs, ","))}, false)
	w.stop = stopped
}

// ServiceName returns the VPC endpoint service name of svc in region.
func ServiceName(region, svc string) string { return "com.amazonaws." + region + "." + svc }

// endpointsFor returns the available endpoints of svc in the node's VPC: the interface endpoint
// (one with private DNS first) and the gateway endpoint routed from the node's route table (its
// RouteTableIds name the table, or the table has a route to it). maybe is an endpoint of svc the
// evidence cannot place: its VPC, or (a gateway) its route tables, were not shown.
func (m *Model) endpointsFor(svc string) (iface, gateway, maybe *evidence.VPCEndpoint) {
	name := ServiceName(m.region, svc)
	rt := m.routeTable(m.nodeSubnet.ID, m.nodeSubnet.VpcID)
	routed := func(e *evidence.VPCEndpoint) bool {
		if rt == nil {
			return false
		}
		for _, id := range e.RouteTableIDs {
			if id != "" && id == rt.ID {
				return true
			}
		}
		for _, r := range rt.Routes {
			if e.ID != "" && r.Target == e.ID {
				return true
			}
		}
		return false
	}
	for i := range m.ev.VPCEndpoints {
		e := &m.ev.VPCEndpoints[i]
		if e.ServiceName != name || e.VpcID != m.vpc && e.VpcID != "" || e.State != "available" && e.State != "" {
			continue
		}
		if e.VpcID == "" || e.State == "" {
			maybe = e
			continue
		}
		switch e.Type {
		case "Interface":
			if iface == nil || (!iface.PrivateDNSEnabled && e.PrivateDNSEnabled) {
				iface = e
			}
		case "Gateway":
			switch {
			case routed(e):
				gateway = e
			case e.RoutesUnknown || rt == nil:
				maybe = e
			}
		}
	}
	return iface, gateway, maybe
}

// gatewayPrefixLists maps the prefix lists routed to S3 and DynamoDB gateway endpoints to the
// endpoints' service names (com.amazonaws.REGION.s3). A gateway endpoint's routes name the
// AWS-managed prefix list of its service as their destination
// (https://docs.aws.amazon.com/vpc/latest/privatelink/gateway-endpoints.html).
func gatewayPrefixLists(ev *evidence.Evidence) map[string]string {
	svc := map[string]string{}
	for _, e := range ev.VPCEndpoints {
		if e.Type == "Gateway" && (strings.HasSuffix(e.ServiceName, ".s3") || strings.HasSuffix(e.ServiceName, ".dynamodb")) {
			svc[e.ID] = e.ServiceName
		}
	}
	out := map[string]string{}
	for _, rt := range ev.RouteTables {
		for _, r := range rt.Routes {
			if name, ok := svc[r.Target]; ok && r.DestinationPrefixID != "" {
				out[r.DestinationPrefixID] = name
			}
		}
	}
	return out
}

// knownLists says which known prefix lists hold a flow's destination: a gateway endpoint's list
// holds it only when the flow goes to that endpoint's service (svc "s3" or "" for none).
func (m *Model) knownLists(svc string) map[string]bool {
	if len(m.gatewayLists) == 0 {
		return nil
	}
	out := make(map[string]bool, len(m.gatewayLists))
	for pl, name := range m.gatewayLists {
		out[pl] = svc != "" && name == ServiceName(m.region, svc)
	}
	return out
}

// listPeer returns peer with the managed prefix lists the rules of groups name (egress or
// ingress) judged by their entries where the evidence has them (JudgeLists); the gateway
// endpoints' lists keep what knownLists says.
func (m *Model) listPeer(peer Peer, groups []*evidence.SecurityGroup, egress bool) Peer {
	lists := evidence.PrefixListsOf(m.ev)
	if len(lists) == 0 {
		return peer
	}
	if peer.PrefixLists != nil {
		known := make(map[string]bool, len(peer.PrefixLists))
		for k, v := range peer.PrefixLists {
			known[k] = v
		}
		peer.PrefixLists = known
	}
	JudgeLists(lists, RuleLists(groups, egress), &peer)
	return peer
}

// noHTTPSEgress reports whether the node's security groups are known and none of their egress
// rules lets TCP 443 out to any destination (a CIDR, a prefix list or a security group): then no
// flow of the node's HTTPS leaves it, whatever endpoints or routes there are.
func (m *Model) noHTTPSEgress() bool {
	if m.node == nil || len(m.nodeGroups) == 0 || len(m.nodeGroups) != len(m.node.SecurityGroupIDs) {
		// a group of the node not in the evidence may allow it
		return false
	}
	for _, g := range m.nodeGroups {
		if g == nil {
			return false
		}
		for _, r := range g.Egress {
			all := r.Protocol == "-1" || r.Protocol == "all"
			if all || (r.Protocol == "tcp" || r.Protocol == "6") && r.FromPort <= 443 && 443 <= r.ToPort {
				return false
			}
		}
	}
	return true
}

// hasInterfaceEndpoints reports whether the VPC has any interface endpoint (a sign the design
// relies on private access).
func (m *Model) hasInterfaceEndpoints() bool {
	for _, e := range m.ev.VPCEndpoints {
		if e.Type == "Interface" && e.VpcID == m.vpc {
			return true
		}
	}
	return false
}

func (m *Model) serviceFlow(svc string) Flow {
	host := svc + "." + m.region + ".amazonaws.com"
	if svc == "ecr.dkr" {
		host = "<account>.dkr.ecr." + m.region + ".amazonaws.com"
	} else if svc == "ecr.api" {
		host = "api.ecr." + m.region + ".amazonaws.com"
	}
	f := Flow{Name: svc, Destination: host, Verdict: Reachable}
	w := &walk{f: &f}
	var iface, gw, maybe *evidence.VPCEndpoint
	unseen := ""
	if m.ev.Have(evidence.KindVPCEndpoints) {
		iface, gw, maybe = m.endpointsFor(svc)
		switch {
		case m.region == "" && len(m.ev.VPCEndpoints) > 0:
			unseen = "the region is not in the evidence, so which VPC endpoint would serve " + svc + " is not known"
		case gw != nil || iface != nil && iface.PrivateDNSEnabled:
		case iface != nil && iface.PrivateDNSUnknown:
			unseen = "whether interface endpoint " + orDefault(iface.ID, "of "+ServiceName(m.region, svc)) + " has private DNS enabled is not in the evidence (narrowed by a --query)"
		case maybe != nil:
			unseen = "the evidence does not say whether the " + strings.ToLower(maybe.Type) + " endpoint of " + ServiceName(m.region, svc) + " it lists serves the node's subnet (its VPC, state or route tables were narrowed away by a --query)"
		case iface == nil && m.ev.SubsetOf(evidence.KindVPCEndpoints) != "":
			unseen = "no endpoint of " + ServiceName(m.region, svc) + " among those in the evidence, but " + m.ev.SubsetOf(evidence.KindVPCEndpoints)
		}
	} else {
		unseen = m.missing(evidence.KindVPCEndpoints)
	}
	if unseen != "" {
		w.add(Hop{Name: "vpc endpoint", Verdict: Unknown, Detail: unseen, Check: CheckEndpointsMissing}, false)
		m.internetPath(w, CheckNoEgressRoute, svc)
		// A hop that blocks the way out blocks this flow only when no VPC endpoint carries it,
		// and the endpoints were not seen: the hop is unverified, not a cause.
		noEgress := m.noHTTPSEgress()
		for i := range f.Hops {
			if f.Hops[i].Verdict != Blocked {
				continue
			}
			if f.Hops[i].Check == CheckSGNodeEgress && noEgress {
				// no egress rule lets HTTPS out at all: an endpoint in the VPC is no way out either
				f.Hops[i].Detail += " (no egress rule of the node's security groups allows tcp 443 to any destination, so no VPC endpoint could serve " + svc + " either)"
				continue
			}
			f.Hops[i].Verdict = Unknown
			f.Hops[i].Detail += " (this blocks " + svc + " only if no VPC endpoint serves it; " + endpointsNote(unseen) + ")"
			f.Verdict = Unknown
		}
		if f.Verdict == Unknown && noEgress {
			f.Verdict = Blocked
		}
		return f
	}
	switch {
	case gw != nil:
		w.add(Hop{Name: "vpc endpoint", Resource: gw.ID, Verdict: Reachable, Detail: fmt.Sprintf("gateway endpoint %s is routed from the node's route table", gw.ID), Check: CheckEndpointsMissing}, false)
		m.s3PolicyHop(w, gw)
		m.sgEgress(w, m.listPeer(Peer{Prefixes: []netip.Prefix{anyIPv4}, PrefixLists: m.knownLists(svc)}, m.nodeGroups, true), 443, "S3 (0.0.0.0/0 or the S3 prefix list)")
		m.naclPair(w, m.nodeSubnet, anyIPv4, PortRange{443, 443}, m.ephemeral, "S3")
	case iface != nil && iface.PrivateDNSEnabled:
		w.add(Hop{Name: "vpc endpoint", Resource: iface.ID, Verdict: Reachable, Detail: "interface endpoint " + iface.ID + " with private DNS", Check: CheckEndpointPrivateDNS}, false)
		m.dnsHop(w, false)
		m.vpcPath(w, iface.SubnetIDs, iface.SecurityGroupIDs, 443, CheckEndpointSG)
	default:
		blame := CheckNoEgressRoute
		if iface != nil {
			w.add(Hop{Name: "vpc endpoint", Resource: iface.ID, Verdict: Reachable, Detail: "interface endpoint " + iface.ID + " has private DNS disabled: " + host + " resolves to the public service", Check: CheckEndpointPrivateDNS}, false)
			blame = CheckEndpointPrivateDNS
		} else {
			w.add(Hop{Name: "vpc endpoint", Verdict: Reachable, Detail: "no VPC endpoint for " + ServiceName(m.region, svc) + ": the node uses the public service", Check: CheckEndpointsMissing}, false)
			if m.hasInterfaceEndpoints() || (m.ev.Cluster != nil && !m.ev.Cluster.EndpointPublicAccess) {
				blame = CheckEndpointsMissing
			}
		}
		m.internetPath(w, blame, svc)
	}
	return f
}

// endpointsNote says why the VPC endpoints that may carry a flow are not known (serviceFlow's
// unseen): the kind's gap keeps the words the model always used.
func endpointsNote(unseen string) string {
	if strings.HasPrefix(unseen, "missing evidence: ") {
		return "the VPC endpoints are not in the evidence"
	}
	return unseen
}

// starportBucket is the bucket ECR serves image layers from
// (https://docs.aws.amazon.com/AmazonECR/latest/userguide/vpc-endpoints.html#ecr-setting-up-s3-gateway).
func starportBucket(region string) string {
	return "arn:aws:s3:::prod-" + region + "-starport-layer-bucket/*"
}

func (m *Model) s3PolicyHop(w *walk, gw *evidence.VPCEndpoint) {
	obj := starportBucket(m.region)
	h := Hop{Name: "endpoint policy", Resource: gw.ID, Check: CheckS3Policy}
	if gw.PolicyUnknown {
		h.Verdict, h.Detail = Unknown, "the policy of "+gw.ID+" is not in the evidence (narrowed by a --query)"
		w.add(h, false)
		return
	}
	allowed, stmt := PolicyAllows(gw.Policy, "s3:GetObject", obj)
	if allowed {
		h.Verdict, h.Detail = Reachable, "endpoint policy allows s3:GetObject on "+obj+stmt
	} else {
		h.Verdict, h.Detail = Blocked, "endpoint policy of "+gw.ID+" does not allow s3:GetObject on "+obj+" (ECR image layers)"+stmt
	}
	w.add(h, false)
}

// PolicyAllows evaluates an endpoint policy for one action on one resource: an explicit
// matching Deny wins, then any matching Allow; nil means the default full-access policy.
// Statements with conditions are taken at face value. It also returns a note naming the
// deciding statement.
func PolicyAllows(p *evidence.PolicyDocument, action, resource string) (bool, string) {
	if p == nil {
		return true, " (default policy)"
	}
	allowed, note := false, ""
	for i, st := range p.Statement {
		if !globAny(st.Action, action) || !globAny(orStar(st.Resource), resource) {
			continue
		}
		id := st.Sid
		if id == "" {
			id = fmt.Sprintf("#%d", i+1)
		}
		if strings.EqualFold(st.Effect, "Deny") {
			return false, " (denied by statement " + id + ")"
		}
		if strings.EqualFold(st.Effect, "Allow") && !allowed {
			allowed, note = true, " (statement "+id+")"
		}
	}
	return allowed, note
}

func orStar(l []string) []string {
	if len(l) == 0 {
		return []string{"*"}
	}
	return l
}

func globAny(patterns []string, s string) bool {
	for _, p := range patterns {
		if glob(strings.ToLower(p), strings.ToLower(s)) {
			return true
		}
	}
	return false
}

// glob matches IAM wildcards: * (any run) and ? (one character).
func glob(p, s string) bool {
	for len(p) > 0 {
		switch p[0] {
		case '*':
			for i := len(s); i >= 0; i-- {
				if glob(p[1:], s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
		default:
			if s == "" || s[0] != p[0] {
				return false
			}
		}
		p, s = p[1:], s[1:]
	}
	return s == ""
}

func (m *Model) kubeletFlow() Flow {
	c := m.ev.Cluster
	f := Flow{Name: "kubelet", Destination: fmt.Sprintf("%s:10250 from the control plane", m.node.PrivateIP), Verdict: Reachable}
	w := &walk{f: &f}
	var prefixes []netip.Prefix
	for _, id := range c.SubnetIDs {
		if sn := m.subnets[id]; sn != nil {
			if p, err := netip.ParsePrefix(sn.CIDR); err == nil {
				prefixes = append(prefixes, p)
			}
		}
	}
	check := m.controlPlaneCheck()
	m.sgIngress(w, m.node.SecurityGroupIDs, Peer{Prefixes: prefixes, Groups: m.clusterGroups()}, 10250, "the cluster security group "+strings.Join(m.clusterGroups(), ","), check)
	for i, id := range c.SubnetIDs {
		if i >= len(prefixes) {
			break
		}
		m.naclCheck(w, m.nodeSubnet, false, ProtoTCP, PortRange{10250, 10250}, prefixes[i], "into "+m.nodeSubnet.ID+" from the control plane in "+id)
		m.naclCheck(w, m.nodeSubnet, true, ProtoTCP, EphemeralAWS, prefixes[i], "return traffic out of "+m.nodeSubnet.ID+" to "+id)
	}
	return f
}

// Summary returns "reachable", "blocked at <hop>: <detail>" or "unknown: <detail>" for a flow.
func Summary(f Flow) string {
	for _, h := range f.Hops {
		if h.Verdict == Blocked {
			return fmt.Sprintf("blocked at %s: %s", h.Name, h.Detail)
		}
	}
	for _, h := range f.Hops {
		if h.Verdict == Unknown {
			return "unknown: " + h.Detail
		}
	}
	return "reachable"
}

// SortFlows orders flows by name.
func SortFlows(fs []Flow) { sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name }) }
