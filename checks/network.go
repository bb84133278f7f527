package checks

import (
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks/netpath"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docNetworkReqs      = "https://docs.aws.amazon.com/eks/latest/userguide/network-reqs.html"
	docSGReqs           = "https://docs.aws.amazon.com/eks/latest/userguide/sec-group-reqs.html"
	docEndpointAccess   = "https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html"
	docNACL             = "https://docs.aws.amazon.com/vpc/latest/userguide/vpc-network-acls.html"
	docVPCDNS           = "https://docs.aws.amazon.com/vpc/latest/userguide/vpc-dns.html"
	docDHCP             = "https://docs.aws.amazon.com/vpc/latest/userguide/VPC_DHCP_Options.html"
	docECREndpoints     = "https://docs.aws.amazon.com/AmazonECR/latest/userguide/vpc-endpoints.html"
	docInterfaceEP      = "https://docs.aws.amazon.com/vpc/latest/privatelink/create-interface-endpoint.html"
	docRouteTables      = "https://docs.aws.amazon.com/vpc/latest/userguide/VPC_Route_Tables.html"
	docNATGateway       = "https://docs.aws.amazon.com/vpc/latest/userguide/vpc-nat-gateway.html"
	docLaunchTemplateSG = "https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html#launch-template-security-groups"
)

var networkKinds = []evidence.Kind{evidence.KindSubnets, evidence.KindCluster, evidence.KindRouteTables, evidence.KindSecurityGroups, evidence.KindNetworkACLs,
	evidence.KindVPCEndpoints, evidence.KindNATGateways, evidence.KindVPCAttributes, evidence.KindDHCPOptions, evidence.KindLaunchTemplate, evidence.KindPrefixLists}

// hopSource maps a hop to the evidence kind it read.
func hopSource(ev *evidence.Evidence, h netpath.Hop) string {
	k := evidence.KindRouteTables
	switch {
	case strings.HasPrefix(h.Name, "nacl"):
		k = evidence.KindNetworkACLs
	case strings.HasPrefix(h.Name, "security group"):
		k = evidence.KindSecurityGroups
	case h.Name == "nat gateway":
		k = evidence.KindNATGateways
	case h.Name == "dns":
		k = evidence.KindVPCAttributes
	case h.Name == "vpc endpoint" || h.Name == "endpoint policy":
		k = evidence.KindVPCEndpoints
	case h.Name == "public access cidrs" || h.Name == "endpoint access":
		k = evidence.KindCluster
	case h.Name == "public ip":
		k = evidence.KindInstance
	}
	if s := ev.Source(k); s != "" {
		return s
	}
	return "netpath"
}

// flowEval judges the hops the reachability model attributes to id: every blocking hop fails
// (grouped by hop), flows that stopped before reaching such a hop make the check unverifiable,
// and otherwise it passes naming how many hops it verified.
func flowEval(id string) func(ev *evidence.Evidence) []Finding {
	return func(ev *evidence.Evidence) []Finding {
		flows := netpath.Analyze(ev)
		if flows == nil {
			if fs := partialFlow(id)(ev); fs != nil {
				return fs
			}
			return one(Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Message: "missing evidence: the node's subnet is not in the evidence"})
		}
		type group struct {
			hop   netpath.Hop
			flows []string
			more  int
			// hops are the distinct blocking hops of the group (one per peer)
			hops []netpath.Hop
		}
		var order []string
		blocked := map[string]*group{}
		verified := 0
		var unknown []string
		for _, f := range flows {
			seen := false
			for _, h := range f.Hops {
				if h.Check != id {
					continue
				}
				seen = true
				switch h.Verdict {
				case netpath.Blocked:
					// one finding per blocking resource and hop kind (an ACL denying several
					// peers is one problem)
					key := h.Resource + "|" + h.Name
					g := blocked[key]
					if g == nil {
						g = &group{hop: h}
						blocked[key] = g
						order = append(order, key)
					} else if g.hop.Detail != h.Detail {
						g.more++
					}
					if !containsHop(g.hops, h) {
						g.hops = append(g.hops, h)
					}
					if len(g.flows) == 0 || g.flows[len(g.flows)-1] != f.Name {
						g.flows = append(g.flows, f.Name)
					}
				case netpath.Unknown:
					unknown = append(unknown, f.Name+": "+h.Detail)
				default:
					verified++
				}
			}
			if !seen && f.Stopped && f.Name != "kubelet" {
				// a flow that ended at a route or gateway before this check's hop: unverified.
				// One blocked past the routes (a security group, an ACL) was walked to its end,
				// so this check has nothing on it to judge
				// (the kubelet flow, control plane to node, is judged only by the checks
				// with a hop on it; its being blocked leaves no other check unverified)
				unknown = append(unknown, f.Name+": "+netpath.Summary(f))
			}
		}
		if len(order) > 0 {
			var out []Finding
			for _, k := range order {
				g := blocked[k]
				more := ""
				if g.more > 0 {
					more = fmt.Sprintf(" (and %s)", nOf(g.more, "more peer", "more peers"))
				}
				msg := fmt.Sprintf("%s blocked at %s: %s%s", flowList(g.flows), g.hop.Name, g.hop.Detail, more)
				judge := fail
				if len(g.flows) == 1 && g.flows[0] == "kubelet" {
					// the control plane dials the kubelet (10250) only for logs, exec,
					// port-forward and metrics; the kubelet registers by calling the API server
					// on 443 (https://docs.aws.amazon.com/eks/latest/userguide/sec-group-reqs.html):
					// what fails after the join, not why a node does not join
					judge = warn
					msg += kubeletAfterJoin
				}
				f := judge(orDefault(g.hop.Resource, ev.Target.InstanceID), msg,
					item(hopSource(ev, g.hop), "%s: %s", g.hop.Name, g.hop.Detail))
				netFix(id, ev, g.hops, g.flows, &f)
				out = append(out, f)
			}
			return out
		}
		if len(unknown) > 0 {
			// never a false pass: a flow that could not be followed leaves the check unverified
			return one(Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Message: "cannot verify: " + strings.Join(unique(unknown), "; ")})
		}
		if verified == 0 {
			return one(notApplicable(ev.Target.InstanceID, "no flow of this node passes through what this check judges"))
		}
		return one(pass(ev.Target.InstanceID, fmt.Sprintf("%s verified across the node's flows", nOf(verified, "hop", "hops")), item("netpath", "flows: %s", flowNames(flows))))
	}
}

// kubeletAfterJoin is what a finding of a blocked kubelet flow (control plane to node, TCP 10250)
// adds: that flow does not gate registration (the kubelet calls the API server on 443), it
// breaks what the API server proxies to the kubelet once the node joined.
const kubeletAfterJoin = ": not what keeps a node from registering (the kubelet calls the API server on 443), but once it joins, kubectl logs/exec/port-forward, metrics-server and webhooks served on nodes fail"

func flowList(names []string) string {
	if len(names) == 1 {
		return "flow " + names[0]
	}
	return "flows " + strings.Join(names, ", ")
}

func flowNames(fs []netpath.Flow) string {
	var n []string
	for _, f := range fs {
		n = append(n, f.Name+"="+string(f.Verdict))
	}
	return strings.Join(n, " ")
}

func unique(l []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range l {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func netMeta(id, title string, sev Severity, needs []evidence.Kind, why, fix string, docs []string, explains ...string) Meta {
	var optional []evidence.Kind
	for _, k := range networkKinds {
		if !containsKindList(needs, k) {
			optional = append(optional, k)
		}
	}
	return Meta{ID: id, Title: title, Severity: sev, Needs: needs, Optional: optional, Stage: StageNetwork,
		Why: why, Remediation: fix, Docs: docs, Explains: explains}
}

func containsKindList(l []evidence.Kind, k evidence.Kind) bool {
	for _, x := range l {
		if x == k {
			return true
		}
	}
	return false
}

// baseNet are the kinds every check of the network path needs: the instance. Its subnet's
// record (describe-subnets) is used when present; without it the subnet is known by the ID the
// instance names (netpath.NodeVPC), its CIDR and network ACL unknown.
var baseNet = []evidence.Kind{evidence.KindInstance}

func kinds(extra ...evidence.Kind) []evidence.Kind {
	return append(append([]evidence.Kind{}, baseNet...), extra...)
}

func networkChecks() []Check {
	runtimeNet := []string{"runtime.apiserver-timeout", "runtime.image-pull", "runtime.ipamd-no-ec2", "runtime.exec-credential-failed"}
	return []Check{
		{Meta: netMeta(netpath.CheckEndpointUnreachable, "No path from the node to the API server endpoint", SeverityCritical,
			kinds(evidence.KindCluster, evidence.KindRouteTables),
			"The kubelet must reach the cluster endpoint on TCP 443. A private-only endpoint is reachable only from inside the cluster VPC (or networks routed to it); a public-only endpoint needs a route to the internet from the node's subnet.",
			"Enable private endpoint access (aws eks update-cluster-config --name CLUSTER --resources-vpc-config endpointPrivateAccess=true), or give the node subnet a route to a NAT gateway (aws ec2 create-route --route-table-id RTB --destination-cidr-block 0.0.0.0/0 --nat-gateway-id NAT).",
			[]string{docEndpointAccess, docNetworkReqs}, explains(runtimeNet...)...),
			Eval: flowEval(netpath.CheckEndpointUnreachable)},
		{Meta: netMeta(netpath.CheckPublicCIDRs, "Public endpoint CIDRs exclude the node's egress address", SeverityCritical,
			kinds(evidence.KindCluster, evidence.KindRouteTables),
			"With public access restricted by publicAccessCidrs, the API server drops connections from any other address; nodes reaching the public endpoint through a NAT gateway or their own public IP must have that address in the list.",
			"Add the egress address: aws eks update-cluster-config --name CLUSTER --resources-vpc-config publicAccessCidrs=EXISTING,EIP/32 — or enable private endpoint access so in-VPC nodes do not use the public endpoint.",
			[]string{docEndpointAccess}, explains(runtimeNet...)...),
			Eval: flowEval(netpath.CheckPublicCIDRs), Partial: partialFlow(netpath.CheckPublicCIDRs)},
		{Meta: netMeta(netpath.CheckNoEgressRoute, "Node subnet has no working route out", SeverityCritical,
			kinds(evidence.KindRouteTables),
			"Without a default route to a NAT gateway, internet gateway or transit gateway (and without VPC endpoints), the node cannot reach the API server, ECR, STS or EC2; a blackhole route or a NAT gateway without its own internet route drops the traffic silently.",
			"Add or repair the default route: aws ec2 replace-route --route-table-id RTB --destination-cidr-block 0.0.0.0/0 --nat-gateway-id NAT (the NAT gateway's subnet needs 0.0.0.0/0 → igw-…), or create the VPC endpoints for a private cluster.",
			[]string{docRouteTables, docNATGateway, docNetworkReqs}, explains(append(runtimeNet, netpath.CheckEndpointUnreachable, netpath.CheckEndpointsMissing)...)...),
			Eval: flowEval(netpath.CheckNoEgressRoute)},
		{Meta: netMeta(netpath.CheckPublicNoIP, "Node in a public subnet without a public IP", SeverityCritical,
			kinds(evidence.KindRouteTables),
			"A subnet whose default route points at an internet gateway sends traffic out only for instances with a public IPv4 address; without one the node reaches nothing outside the VPC.",
			"Launch nodes in private subnets routed through a NAT gateway, or enable public IPs: aws ec2 modify-subnet-attribute --subnet-id SUBNET --map-public-ip-on-launch (and AssociatePublicIpAddress in the launch template).",
			[]string{docNetworkReqs, "https://docs.aws.amazon.com/vpc/latest/userguide/vpc-ip-addressing.html"}, explains(runtimeNet...)...),
			Eval: flowEval(netpath.CheckPublicNoIP)},
		{Meta: netMeta(netpath.CheckEndpointsMissing, "Interface endpoints missing for a node without internet access", SeverityCritical,
			kinds(evidence.KindVPCEndpoints, evidence.KindRouteTables),
			"A node without a route to the internet reaches AWS services only through VPC endpoints: ec2, ecr.api, ecr.dkr, sts (interface) and s3 (gateway); each one missing breaks IP assignment, image pulls or authentication.",
			"Create the missing endpoints: aws ec2 create-vpc-endpoint --vpc-id VPC --vpc-endpoint-type Interface --service-name com.amazonaws.REGION.SERVICE --subnet-ids … --security-group-ids … --private-dns-enabled (Gateway for s3 with --route-table-ids).",
			[]string{"https://docs.aws.amazon.com/eks/latest/userguide/private-clusters.html", docECREndpoints}, explains(runtimeNet...)...),
			Eval: flowEval(netpath.CheckEndpointsMissing)},
		{Meta: netMeta(netpath.CheckEndpointSG, "Interface endpoint security group does not admit the node", SeverityCritical,
			kinds(evidence.KindVPCEndpoints, evidence.KindSecurityGroups),
			"Interface endpoints are network interfaces guarded by their own security groups; unless one admits TCP 443 from the node (its security group or address), calls to that service time out.",
			"Allow HTTPS from the nodes: aws ec2 authorize-security-group-ingress --group-id ENDPOINT_SG --protocol tcp --port 443 --source-group NODE_SG (or the VPC CIDR).",
			[]string{docInterfaceEP, docECREndpoints}, explains(runtimeNet...)...),
			Eval: flowEval(netpath.CheckEndpointSG)},
		{Meta: netMeta(netpath.CheckEndpointPrivateDNS, "Interface endpoint has private DNS disabled", SeverityCritical,
			kinds(evidence.KindVPCEndpoints),
			"Without private DNS the service's regular name still resolves to its public address, so a node without internet access cannot use the endpoint it has.",
			"aws ec2 modify-vpc-endpoint --vpc-endpoint-id VPCE --private-dns-enabled (the VPC needs enableDnsSupport and enableDnsHostnames).",
			[]string{docInterfaceEP}, explains(runtimeNet...)...),
			Eval: evalPrivateDNS},
		{Meta: netMeta(netpath.CheckS3Policy, "S3 gateway endpoint policy blocks ECR image layers", SeverityHigh,
			kinds(evidence.KindVPCEndpoints, evidence.KindRouteTables),
			"ECR serves image layers from the S3 bucket prod-<region>-starport-layer-bucket; when the node's S3 traffic goes through a gateway endpoint whose policy does not allow s3:GetObject on it, every image pull from ECR (aws-node, kube-proxy) fails: the node registers (no image is pulled to register, and EKS AMIs cache the pause image) but stays NotReady. For a node not seen joined it is a warning, not the reason it has no Node.",
			"Add a statement to the endpoint policy: {\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::prod-REGION-starport-layer-bucket/*\"} (aws ec2 modify-vpc-endpoint --vpc-endpoint-id VPCE --policy-document file://policy.json).",
			// no layer of the aws-node image either: the CNI never comes up, the node stays NotReady
			[]string{docECREndpoints}, "runtime.image-pull", "runtime.cni-not-ready"),
			Eval: evalS3Policy},
		{Meta: netMeta(netpath.CheckSGNodeEgress, "Node security groups block HTTPS out", SeverityCritical,
			kinds(evidence.KindSecurityGroups),
			"Security groups are stateful but still filter new outbound connections: unless a node security group allows TCP 443 to the API server, the endpoints and AWS services, the kubelet cannot connect.",
			"aws ec2 authorize-security-group-egress --group-id NODE_SG --protocol tcp --port 443 --cidr 0.0.0.0/0 (or to the cluster security group and endpoint security groups).",
			[]string{docSGReqs}, explains(runtimeNet...)...),
			Eval: flowEval(netpath.CheckSGNodeEgress), Partial: partialFlow(netpath.CheckSGNodeEgress)},
		{Meta: netMeta(netpath.CheckSGControlPlane, "Control plane and node security groups do not admit each other", SeverityHigh,
			kinds(evidence.KindCluster, evidence.KindSecurityGroups),
			"Through the private endpoint the cluster security group must admit TCP 443 from the nodes, and the nodes must admit TCP 10250 from the control plane; otherwise the node cannot register privately, or it joins but kubectl logs/exec, metrics and webhooks fail. A blocked 10250 alone is a warning: the kubelet registers by calling the API server on 443, so it explains what fails after the join, not a node that does not join.",
			"aws ec2 authorize-security-group-ingress --group-id CLUSTER_SG --protocol tcp --port 443 --source-group NODE_SG; aws ec2 authorize-security-group-ingress --group-id NODE_SG --protocol tcp --port 10250 --source-group CLUSTER_SG.",
			[]string{docSGReqs}, explains("runtime.apiserver-timeout")...),
			Eval: flowEval(netpath.CheckSGControlPlane)},
		{Meta: netMeta(netpath.CheckNACL, "A network ACL drops the node's traffic", SeverityCritical,
			kinds(evidence.KindNetworkACLs),
			"Network ACLs are stateless: the subnet's ACL must allow HTTPS out and the return traffic back in on the ephemeral ports (1024-65535), and the ACLs of the cluster's or endpoints' subnets must allow the opposite directions; the first matching rule by number wins.",
			"Add rules before the deny: aws ec2 create-network-acl-entry --network-acl-id ACL --rule-number 100 --protocol 6 --port-range From=1024,To=65535 --cidr-block 0.0.0.0/0 --rule-action allow --ingress (and --egress for 443).",
			[]string{docNACL, "https://docs.aws.amazon.com/vpc/latest/userguide/custom-network-acl.html#nacl-ephemeral-ports"}, explains(runtimeNet...)...),
			Eval: flowEval(netpath.CheckNACL), Partial: partialFlow(netpath.CheckNACL)},
		{Meta: netMeta(netpath.CheckVPCDNS, "VPC DNS support or DNS hostnames disabled", SeverityCritical,
			[]evidence.Kind{evidence.KindVPCAttributes},
			"Nodes resolve the API server and AWS endpoints through the Amazon-provided resolver (enableDnsSupport), and private endpoints resolve to private addresses only with enableDnsHostnames; EKS requires both.",
			"aws ec2 modify-vpc-attribute --vpc-id VPC --enable-dns-support '{\"Value\":true}' and aws ec2 modify-vpc-attribute --vpc-id VPC --enable-dns-hostnames '{\"Value\":true}'.",
			[]string{docVPCDNS, docNetworkReqs}, explains(append(runtimeNet, "runtime.node-name-not-found", netpath.CheckEndpointPrivateDNS)...)...),
			Eval: evalVPCDNS},
		{Meta: netMeta("net.dhcp-options", "DHCP options break name resolution or the node name", SeverityCritical,
			[]evidence.Kind{evidence.KindDHCPOptions, evidence.KindVPCs},
			"Without the VPC resolver among the domain-name-servers (AmazonProvidedDNS, or its addresses: the primary CIDR's base +2, 169.254.169.253, fd00:ec2::253), the node can resolve private endpoint and cluster names only if the custom DNS servers forward to the VPC resolver; a custom domain-name changes the host name, so the node may register under a name that does not match its private DNS name.",
			"Use a DHCP options set with domain-name-servers=AmazonProvidedDNS and domain-name=REGION.compute.internal (ec2.internal in us-east-1): aws ec2 create-dhcp-options … then aws ec2 associate-dhcp-options --dhcp-options-id DOPT --vpc-id VPC, or forward the VPC domains from your DNS servers to the Route 53 Resolver.",
			[]string{docDHCP, docNetworkReqs}, explains("runtime.node-name-not-found", "runtime.apiserver-timeout")...),
			Eval: evalDHCP},
		{Meta: netMeta("net.cidr-overlap", "VPC CIDR overlaps the container bridge or the service CIDR", SeverityHigh,
			[]evidence.Kind{evidence.KindVPCs, evidence.KindInstance},
			"A VPC range overlapping the service CIDR makes ClusterIP traffic and node traffic ambiguous; one overlapping Docker's default bridge 172.17.0.0/16 breaks connectivity on nodes that create that bridge.",
			"Use a service CIDR outside the VPC ranges (set at cluster creation: --kubernetes-network-config serviceIpv4Cidr=…), and avoid 172.17.0.0/16 for VPC and secondary CIDRs (or keep --enable-docker-bridge false).",
			[]string{docNetworkReqs, "https://docs.aws.amazon.com/eks/latest/userguide/cni-custom-network.html"}),
			Eval: evalCIDROverlap},
		{Meta: netMeta(netpath.CheckLTCustomSG, "Launch template security groups replace the cluster security group without equivalent rules", SeverityHigh,
			kinds(evidence.KindLaunchTemplate, evidence.KindSecurityGroups, evidence.KindCluster),
			"When a managed node group's launch template names security groups, EKS does not attach the cluster security group; the template's groups must then allow what the cluster security group did: 443 to and 10250 from the control plane. A blocked 10250 alone is a warning (logs, exec and metrics fail once the node joins; registration needs only 443); blocked HTTPS out of the node is net.sg-node-egress's.",
			"Add the cluster security group to the launch template (SecurityGroupIds: [CLUSTER_SG, …]) and roll the node group, or add the equivalent rules to the template's groups.",
			[]string{docLaunchTemplateSG, docSGReqs}, explains(netpath.CheckSGControlPlane, netpath.CheckSGNodeEgress, "runtime.apiserver-timeout")...),
			Eval: func(ev *evidence.Evidence) []Finding {
				if !netpath.CustomLTWithoutClusterSG(ev) {
					why := "the instance is not in a managed node group with launch template security groups"
					if ev.LaunchTemplate != nil && len(ev.LaunchTemplate.SecurityGroupIDs) > 0 && ev.Instance.Tags["eks:nodegroup-name"] != "" {
						return one(pass(ev.LaunchTemplate.ID, "the launch template's security groups include the cluster security group "+ev.Cluster.ClusterSecurityGroup,
							item(ev.Source(evidence.KindLaunchTemplate), "SecurityGroupIds %s", quoteList(ev.LaunchTemplate.SecurityGroupIDs))))
					}
					return one(notApplicable(ev.Target.InstanceID, why))
				}
				return flowEval(netpath.CheckLTCustomSG)(ev)
			}},
	}
}

// evalS3Policy judges the S3 gateway endpoint's policy (flowEval). A blocked layer bucket fails
// image pulls, not registration: the kubelet registers without pulling an image and EKS AMIs cache
// the pause image (amazon-eks-ami templates/al2023/provisioners/cache-pause-container.sh), so the
// node joins and stays NotReady. For a node not seen joined the failure is a warning saying so;
// for a joined node it stays the failure that explains NotReady.
func evalS3Policy(ev *evidence.Evidence) []Finding {
	fs := flowEval(netpath.CheckS3Policy)(ev)
	if JoinedNode(ev) != nil {
		return fs
	}
	for i := range fs {
		if fs[i].Status == StatusFail {
			fs[i].Status = StatusWarn
			fs[i].Message += ": not what keeps a node from registering (no image is pulled to register; EKS AMIs cache the pause image), but once it joins it stays NotReady: aws-node, kube-proxy and every other image from ECR fail to pull"
		}
	}
	return fs
}

func evalPrivateDNS(ev *evidence.Evidence) []Finding {
	fs := flowEval(netpath.CheckEndpointPrivateDNS)(ev)
	if fs[0].Status == StatusFail {
		return fs
	}
	var off []string
	for _, e := range ev.VPCEndpoints {
		if e.Type == "Interface" && !e.PrivateDNSEnabled && !e.PrivateDNSUnknown && (ev.Instance == nil || e.VpcID == ev.Instance.VpcID) {
			off = append(off, e.ID+" ("+e.ServiceName+")")
		}
	}
	if len(off) > 0 {
		return one(warn(ev.Target.InstanceID, "interface endpoints with private DNS disabled (the node currently reaches these services another way): "+strings.Join(off, ", "),
			item(ev.Source(evidence.KindVPCEndpoints), "PrivateDnsEnabled false: %s", strings.Join(off, ", "))))
	}
	return fs
}

func evalVPCDNS(ev *evidence.Evidence) []Finding {
	a := ev.VPCAttributes
	it := item(ev.Source(evidence.KindVPCAttributes), "enableDnsSupport %s, enableDnsHostnames %s", boolText(a.EnableDNSSupport), boolText(a.EnableDNSHostnames))
	var off []string
	if a.EnableDNSSupport != nil && !*a.EnableDNSSupport {
		off = append(off, "enableDnsSupport")
	}
	if a.EnableDNSHostnames != nil && !*a.EnableDNSHostnames {
		off = append(off, "enableDnsHostnames")
	}
	if len(off) > 0 {
		return one(fail(a.VpcID, fmt.Sprintf("VPC %s has %s disabled", a.VpcID, strings.Join(off, " and ")), it))
	}
	return one(pass(a.VpcID, "VPC DNS support and DNS hostnames are enabled", it))
}

func boolText(b *bool) string {
	if b == nil {
		return "not reported"
	}
	return fmt.Sprint(*b)
}

// defaultDomain is the domain-name AWS's default DHCP options use in region.
func defaultDomain(region string) string {
	if region == "us-east-1" {
		return "ec2.internal"
	}
	return region + ".compute.internal"
}

// evalDHCP judges the DHCP options of the instance's VPC or, without an instance (the cluster as a
// whole, before its first node), of the cluster's VPC (resourcesVpcConfig.vpcId).
func evalDHCP(ev *evidence.Evidence) []Finding {
	vpcID, whose := "", ""
	switch {
	case ev.Instance != nil:
		vpcID = ev.Instance.VpcID
	case ev.Cluster != nil && ev.Cluster.VpcID != "":
		vpcID = ev.Cluster.VpcID
		whose = " of the cluster's VPC " + vpcID
	default:
		return one(Finding{Status: StatusSkipped, Message: "missing evidence: the VPC is not known (no instance, and the cluster's resourcesVpcConfig.vpcId is not in the evidence)"})
	}
	var vpc *evidence.VPC
	for i := range ev.VPCs {
		if ev.VPCs[i].ID == vpcID {
			vpc = &ev.VPCs[i]
		}
	}
	if vpc == nil || vpc.DHCPOptionsID == "" {
		return one(Finding{Status: StatusSkipped, Resource: vpcID, Message: "missing evidence: the VPC's DhcpOptionsId is not in the evidence"})
	}
	if vpc.DHCPOptionsID == "default" {
		return one(pass(vpc.ID, "the VPC uses the default DHCP options", item(ev.Source(evidence.KindVPCs), "DhcpOptionsId default")))
	}
	var d *evidence.DHCPOptions
	for i := range ev.DHCPOptions {
		if ev.DHCPOptions[i].ID == vpc.DHCPOptionsID {
			d = &ev.DHCPOptions[i]
		}
	}
	if d == nil {
		return one(Finding{Status: StatusSkipped, Resource: vpc.DHCPOptionsID, Message: "missing evidence: DHCP options " + vpc.DHCPOptionsID + " are not in " + ev.Source(evidence.KindDHCPOptions)})
	}
	it := item(ev.Source(evidence.KindDHCPOptions), "%s: domain-name %s; domain-name-servers %s", d.ID, quoteList(d.DomainName), quoteList(d.DomainNameServers))
	resolver := vpcResolver(vpc)
	amazon := ""
	for _, srv := range d.DomainNameServers {
		if a, err := netip.ParseAddr(strings.TrimSpace(srv)); srv == "AmazonProvidedDNS" || err == nil && (a == linkLocalResolver || a == ipv6Resolver || resolver.IsValid() && a == resolver) {
			amazon = srv
			break
		}
	}
	if amazon == "" {
		head := fmt.Sprintf("DHCP options %s%s use DNS servers %s without AmazonProvidedDNS", d.ID, whose, quoteList(d.DomainNameServers))
		if sig := failingLookups(ev); sig != "" {
			return one(fail(d.ID, head+", and the node's logs show AWS or EKS names failing to resolve ("+sig+")", it))
		}
		if where, why := unroutedServers(ev, vpc, d.DomainNameServers); why != "" {
			return one(fail(d.ID, fmt.Sprintf("%s, and no route of %s reaches them (%s): the node has no DNS server", head, where, why), it, item(ev.Source(evidence.KindRouteTables), "%s", why)))
		}
		return one(warn(d.ID, head+": unverified: they resolve EKS and AWS names only if they forward to the VPC resolver ("+resolverText(resolver)+"), which the evidence cannot show; private hosted zones (interface endpoints' private DNS) resolve only through it", it))
	}
	want := defaultDomain(ev.Target.Region)
	for _, dn := range d.DomainName {
		for _, part := range strings.Fields(dn) {
			if part != want {
				return one(warn(d.ID, fmt.Sprintf("DHCP options %s%s set domain-name %q instead of %s: the node's host name will not match its private DNS name unless the kubelet overrides it", d.ID, whose, dn, want), it))
			}
		}
	}
	if amazon != "AmazonProvidedDNS" {
		return one(pass(d.ID, "DHCP options name the VPC resolver ("+amazon+"), the same Route 53 Resolver as AmazonProvidedDNS", it))
	}
	return one(pass(d.ID, "DHCP options use AmazonProvidedDNS", it))
}

// The Route 53 Resolver's fixed addresses besides the VPC's base +2: 169.254.169.253 and, on
// Nitro instances, fd00:ec2::253 (Amazon VPC User Guide, "Amazon DNS server").
var (
	linkLocalResolver = netip.MustParseAddr("169.254.169.253")
	ipv6Resolver      = netip.MustParseAddr("fd00:ec2::253")
)

// vpcResolver returns the VPC resolver's address in the VPC's primary IPv4 CIDR (its base +2;
// the first IPv4 block in vpc.CIDRs, which the snapshot reader puts first); the zero Addr when
// the VPC has no IPv4 block. Secondary blocks' base +2 is reserved but answers no DNS (Amazon VPC
// User Guide, "Amazon DNS server": "For VPCs with multiple IPv4 CIDR blocks, the DNS server IP
// address is located in the primary CIDR").
func vpcResolver(vpc *evidence.VPC) netip.Addr {
	for _, c := range vpc.CIDRs {
		if p, err := netip.ParsePrefix(c); err == nil && p.Addr().Is4() {
			b := p.Masked().Addr().As4()
			b[3] += 2
			return netip.AddrFrom4(b)
		}
	}
	return netip.Addr{}
}

func resolverText(a netip.Addr) string {
	if a.IsValid() {
		return a.String() + " or " + linkLocalResolver.String()
	}
	return linkLocalResolver.String()
}

// dnsLookupSignatures are the node-log signatures outside net.dhcp-options' own that show the
// API endpoint's name failing to resolve (collectors/logscan/catalog/kubelet.yaml).
var dnsLookupSignatures = map[string]bool{"apiserver-no-such-host": true, "apiserver-dns-servfail": true}

// failingLookups returns the name of the first failing node-log signature that shows AWS or EKS
// names failing to resolve (a net.dhcp-options signature, or the kubelet's API endpoint lookup
// failures); "" when the logs show none or were not read.
func failingLookups(ev *evidence.Evidence) string {
	if ev.NodeLogs == nil {
		return ""
	}
	for _, h := range ev.NodeLogs.Hits {
		if (h.Finding == "net.dhcp-options" || dnsLookupSignatures[h.Signature]) && ev.NodeLogs.Failing(h) {
			return h.Signature
		}
	}
	return ""
}

// unroutedServers reports whether no DNS server in servers can be reached from the node's subnet
// (or, cluster-wide, from any of the cluster's subnets), by the route tables in the evidence.
// where names the subnets ("the node's subnet subnet-a"); why says, per distinct path, where the
// packets go ("rtb-main sends them to nat-1, which sends them to igw-1"); why is "" when a
// server is or may be reachable, or the route tables, NAT gateways or subnets needed are not in
// the evidence. A server is reachable inside the VPC's CIDRs, over an active route to any target
// but an internet gateway for a private address (an internet gateway carries only public
// addresses; RFC 1918 and 100.64.0.0/10 are not routed on the internet), and through a NAT
// gateway whose own subnet routes it onward the same way (Amazon VPC User Guide, "Route tables"
// and "NAT gateways").
func unroutedServers(ev *evidence.Evidence, vpc *evidence.VPC, servers []string) (where, why string) {
	if !ev.Have(evidence.KindRouteTables) || len(ev.RouteTables) == 0 {
		return "", ""
	}
	var subnets []string
	if ev.Instance != nil {
		if ev.Instance.SubnetID == "" {
			return "", ""
		}
		subnets, where = []string{ev.Instance.SubnetID}, "the node's subnet "+ev.Instance.SubnetID
	} else {
		if ev.Cluster == nil || len(ev.Cluster.SubnetIDs) == 0 {
			return "", ""
		}
		subnets, where = ev.Cluster.SubnetIDs, "the cluster's subnets "+strings.Join(ev.Cluster.SubnetIDs, ", ")
	}
	var reasons []string
	seen := map[string]bool{}
	for _, srv := range servers {
		a, err := netip.ParseAddr(strings.TrimSpace(srv))
		if err != nil || !a.Is4() {
			return "", ""
		}
		for _, c := range vpc.CIDRs {
			if p, err := netip.ParsePrefix(c); err == nil && p.Contains(a) {
				return "", ""
			}
		}
		for _, sn := range subnets {
			id, tail := unroutedVia(ev, vpc.ID, sn, a, true)
			if tail == "" {
				return "", ""
			}
			r := id + " " + tail
			if !seen[r] {
				seen[r] = true
				reasons = append(reasons, r)
			}
		}
	}
	return where, strings.Join(reasons, "; ")
}

// unroutedVia says where subnet's route table sends packets to a and why they cannot arrive,
// as the table's ID and a clause ("has no route to 10.50.0.10", "sends them to igw-1"); tail is
// "" when they can or may arrive, or the evidence does not say. nat is false on the hop after a
// NAT gateway, so that only one NAT hop is followed.
func unroutedVia(ev *evidence.Evidence, vpcID, subnet string, a netip.Addr, nat bool) (rtID, tail string) {
	var rt *evidence.RouteTable
	for i := range ev.RouteTables {
		if slices.Contains(ev.RouteTables[i].SubnetIDs, subnet) {
			rt = &ev.RouteTables[i]
		}
	}
	if rt == nil {
		for i := range ev.RouteTables {
			if ev.RouteTables[i].Main && ev.RouteTables[i].VpcID == vpcID {
				rt = &ev.RouteTables[i]
			}
		}
	}
	if rt == nil {
		return "", ""
	}
	r, ok := netpath.SelectRoute(rt, netip.PrefixFrom(a, 32))
	switch {
	case !ok:
		return rt.ID, "has no route to " + a.String()
	case r.State == "blackhole":
		return rt.ID, "has a blackhole route " + r.DestinationCIDR + " to " + r.Target
	case strings.HasPrefix(r.Target, "igw-"):
		if a.IsPrivate() || cgnat.Contains(a) {
			return rt.ID, "sends them to " + r.Target
		}
	case strings.HasPrefix(r.Target, "nat-") && nat && ev.Have(evidence.KindNATGateways):
		for _, n := range ev.NATGateways {
			if n.ID == r.Target && n.SubnetID != "" {
				if _, next := unroutedVia(ev, vpcID, n.SubnetID, a, false); next != "" {
					return rt.ID, "sends them to " + r.Target + ", which " + next
				}
			}
		}
	}
	return rt.ID, ""
}

// cgnat is the shared address space 100.64.0.0/10 (RFC 6598), not routed on the internet.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

func evalCIDROverlap(ev *evidence.Evidence) []Finding {
	var vpc *evidence.VPC
	for i := range ev.VPCs {
		if ev.VPCs[i].ID == ev.Instance.VpcID {
			vpc = &ev.VPCs[i]
		}
	}
	if vpc == nil {
		return one(Finding{Status: StatusSkipped, Resource: ev.Instance.VpcID, Message: "missing evidence: the instance's VPC is not in " + ev.Source(evidence.KindVPCs)})
	}
	it := item(ev.Source(evidence.KindVPCs), "VPC %s CIDRs %s", vpc.ID, quoteList(vpc.CIDRs))
	bridge := netip.MustParsePrefix("172.17.0.0/16")
	var svc netip.Prefix
	if ev.Cluster != nil {
		svc, _ = netip.ParsePrefix(ev.Cluster.ServiceIPv4CIDR)
	}
	var bad []string
	sorted := append([]string(nil), vpc.CIDRs...)
	sort.Strings(sorted)
	for _, c := range sorted {
		p, err := netip.ParsePrefix(c)
		if err != nil {
			continue
		}
		if svc.IsValid() && p.Overlaps(svc) {
			return one(fail(vpc.ID, fmt.Sprintf("VPC %s CIDR %s overlaps the cluster's service CIDR %s", vpc.ID, c, svc), it))
		}
		if p.Overlaps(bridge) {
			bad = append(bad, c)
		}
	}
	if len(bad) > 0 {
		return one(warn(vpc.ID, fmt.Sprintf("VPC %s CIDR %s overlaps Docker's default bridge 172.17.0.0/16", vpc.ID, strings.Join(bad, ", ")), it))
	}
	return one(pass(vpc.ID, "VPC CIDRs overlap neither the service CIDR nor 172.17.0.0/16", it))
}
