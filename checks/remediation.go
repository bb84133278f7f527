package checks

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// Placeholders are the upper-case words a check's Meta.Remediation uses for values that differ
// from one account to the next (docs/checks/ show them as written). The runner replaces each with
// the value the evidence holds (concretize); a placeholder stays only when the evidence does not
// hold its value (a node log bundle names no role ARN).
//
// Each entry is a pattern and the value it stands for; a pattern with a group replaces only the
// group (the "ID" of "--instance-id ID", not every "ID").
var placeholders = []struct {
	re  *regexp.Regexp
	val func(v *fixValues) string
}{
	{regexp.MustCompile(`\bROLE_ARN_WITHOUT_PATH\b`), func(v *fixValues) string { return v.roleArnNoPath }},
	{regexp.MustCompile(`\bROLE_ARN\b`), func(v *fixValues) string { return v.roleArn }},
	{regexp.MustCompile(`\bROLE_NAME\b`), func(v *fixValues) string { return v.roleName }},
	{regexp.MustCompile(`--role-name (ROLE)\b`), func(v *fixValues) string { return v.roleName }},
	{regexp.MustCompile(`--role-name (CLUSTER_ROLE)\b`), func(v *fixValues) string { return v.clusterRole }},
	{regexp.MustCompile(`\bACCOUNT\b`), func(v *fixValues) string { return v.account }},
	{regexp.MustCompile(`\bCLUSTER_SG\b`), func(v *fixValues) string { return v.clusterSG }},
	{regexp.MustCompile(`\bNODE_SG\b`), func(v *fixValues) string { return v.nodeSG }},
	{regexp.MustCompile(`\bENDPOINT_SG\b`), func(v *fixValues) string { return v.endpointSG }},
	{regexp.MustCompile(`\bCLUSTER\b`), func(v *fixValues) string { return v.cluster }},
	{regexp.MustCompile(`\bREGION\b`), func(v *fixValues) string { return v.region }},
	{regexp.MustCompile(`\bPROFILE\b`), func(v *fixValues) string { return v.profile }},
	{regexp.MustCompile(`--(?:instance-ids?|resources) (ID)\b`), func(v *fixValues) string { return v.instance }},
	{regexp.MustCompile(`\bINSTANCE_ID\b`), func(v *fixValues) string { return v.instance }},
	{regexp.MustCompile(`\bNG\b`), func(v *fixValues) string { return v.nodegroup }},
	{regexp.MustCompile(`--auto-scaling-group-name (ASG)\b`), func(v *fixValues) string { return v.asg }},
	{regexp.MustCompile(`(?:--launch-template-id |id=)(LT)\b`), func(v *fixValues) string { return v.launchTemplate }},
	{regexp.MustCompile(`--vpc-id (VPC)\b`), func(v *fixValues) string { return v.vpc }},
	{regexp.MustCompile(`--subnet-id (SUBNET)\b`), func(v *fixValues) string { return v.subnet }},
	{regexp.MustCompile(`\bRTB\b`), func(v *fixValues) string { return v.routeTable }},
	{regexp.MustCompile(`--nat-gateway-id (NAT)\b`), func(v *fixValues) string { return v.nat }},
	{regexp.MustCompile(`\bVPCE\b`), func(v *fixValues) string { return v.vpce }},
	{regexp.MustCompile(`--network-acl-id (ACL)\b`), func(v *fixValues) string { return v.acl }},
	{regexp.MustCompile(`/optimized-ami/(VERSION)/`), func(v *fixValues) string { return v.version }},
	{regexp.MustCompile(`--source-version (N)\b`), func(v *fixValues) string { return v.ltVersion }},
	{regexp.MustCompile(`--instance-type (TYPE)\b`), func(v *fixValues) string { return v.instanceType }},
	{regexp.MustCompile(`--apiserver-endpoint (ENDPOINT)\b`), func(v *fixValues) string { return v.endpoint }},
	{regexp.MustCompile(`--b64-cluster-ca (CA)\b`), func(v *fixValues) string { return v.caCommand }},
	{regexp.MustCompile(`--dns-cluster-ip (SERVICE_CIDR\.10)\b`), func(v *fixValues) string { return v.dnsIP }},
	{regexp.MustCompile(`publicAccessCidrs=(EXISTING),`), func(v *fixValues) string { return v.publicCidrs }},
	{regexp.MustCompile(`\b(EIP)/32\b`), func(v *fixValues) string { return v.egressIP }},
	{regexp.MustCompile(`(?:kubectl (?:get|delete) csr|certificate approve|validatingwebhookconfiguration) (NAME)\b`), func(v *fixValues) string { return v.objectName }},
}

// PlaceholderRe matches the placeholders remediation texts use, bare or in the option they
// follow (for tests that sweep reports for placeholders left in place).
var PlaceholderRe = regexp.MustCompile(`\b(?:INSTANCE_ID|ROLE_ARN_WITHOUT_PATH|ROLE_ARN|ROLE_NAME|ACCOUNT|CLUSTER_SG|NODE_SG|ENDPOINT_SG|CLUSTER|REGION|PROFILE|VPCE|RTB|SERVICE|EIP|EXISTING)\b` +
	`|--(?:nat-gateway-id NAT|network-acl-id ACL|auto-scaling-group-name ASG|launch-template-id LT|nodegroup-name NG|vpc-id VPC|subnet-id SUBNET|role-name ROLE|role-name CLUSTER_ROLE|instance-ids? ID|resources ID)\b`)

// fixValues are the values one finding's remediation can name.
type fixValues struct {
	cluster, region, account, roleArn, roleArnNoPath, roleName, profile, instance, instanceType  string
	nodegroup, asg, launchTemplate, vpc, subnet, routeTable, nat, vpce, acl, version             string
	clusterSG, nodeSG, endpointSG, endpoint, caCommand, dnsIP, publicCidrs, egressIP, objectName string
	ltVersion                                                                                    string
	// clusterRole is the name of the cluster's own role (describe-cluster roleArn).
	clusterRole string
}

// baseFixValues derives the values every finding of ev shares.
func baseFixValues(ev *evidence.Evidence) fixValues {
	var v fixValues
	v.cluster, v.region, v.instance = ev.Target.Cluster, ev.Target.Region, ev.Target.InstanceID
	if c := ev.Cluster; c != nil {
		if c.Name != "" {
			v.cluster = c.Name
		}
		v.clusterSG, v.version, v.endpoint, v.vpc = c.ClusterSecurityGroup, c.Version, c.Endpoint, c.VpcID
		if i := strings.LastIndexByte(c.RoleArn, '/'); i >= 0 {
			v.clusterRole = c.RoleArn[i+1:]
		}
		if len(c.PublicAccessCidrs) > 0 {
			v.publicCidrs = strings.Join(c.PublicAccessCidrs, ",")
		}
		if c.ServiceIPv4CIDR != "" {
			if p, err := netip.ParsePrefix(c.ServiceIPv4CIDR); err == nil && p.Addr().Is4() {
				a := p.Masked().Addr().As4()
				a[3] += 10
				v.dnsIP = netip.AddrFrom4(a).String()
			}
		}
	}
	if ev.KubeDNS != nil && ev.KubeDNS.ClusterIP != "" {
		v.dnsIP = ev.KubeDNS.ClusterIP
	}
	if v.cluster != "" && v.region != "" {
		v.caCommand = "\"$(aws eks describe-cluster --region " + v.region + " --name " + v.cluster + " --query cluster.certificateAuthority.data --output text)\""
	}
	if v.region == "" && ev.Cluster != nil {
		if parts := strings.Split(ev.Cluster.Arn, ":"); len(parts) > 4 {
			v.region = parts[3]
		}
	}
	v.roleArn = nodeRoleArn(ev)
	if ng := instanceNodegroup(ev); v.roleArn == "" && ng != nil {
		v.roleArn = ng.NodeRole
	}
	if v.roleArn == "" {
		v.roleArn = autoModeNodeRoleArn(ev)
	}
	if v.roleArn != "" {
		v.roleArnNoPath = canonicalArnForDisplay(v.roleArn)
		if parts := strings.Split(v.roleArn, ":"); len(parts) > 5 {
			v.account = parts[4]
		}
		v.roleName = v.roleArnNoPath[strings.LastIndexByte(v.roleArnNoPath, '/')+1:]
	}
	if ev.NodeRole != nil && ev.NodeRole.Name != "" {
		v.roleName = ev.NodeRole.Name
	}
	if ev.InstanceProfile != nil && ev.InstanceProfile.Name != "" {
		v.profile = ev.InstanceProfile.Name
	}
	if in := ev.Instance; in != nil {
		if v.instance == "" {
			v.instance = in.ID
		}
		if v.profile == "" && in.InstanceProfileArn != "" {
			v.profile = in.InstanceProfileArn[strings.LastIndexByte(in.InstanceProfileArn, '/')+1:]
		}
		v.instanceType, v.subnet = in.InstanceType, in.SubnetID
		if in.VpcID != "" {
			v.vpc = in.VpcID
		}
		v.nodegroup, v.asg = in.Tags["eks:nodegroup-name"], in.Tags["aws:autoscaling:groupName"]
		if len(in.SecurityGroupIDs) > 0 {
			v.nodeSG = in.SecurityGroupIDs[0]
		}
	}
	if ng := instanceNodegroup(ev); ng != nil {
		v.nodegroup = ng.Name
		if v.asg == "" && len(ng.AutoScalingGroups) == 1 {
			v.asg = ng.AutoScalingGroups[0]
		}
		v.launchTemplate = ng.LaunchTemplateID
	}
	if v.asg == "" && v.instance != "" {
		for _, g := range ev.AutoScalingGroups {
			for _, id := range g.InstanceIDs {
				if id == v.instance {
					v.asg = g.Name
				}
			}
		}
	}
	if ev.LaunchTemplate != nil && ev.LaunchTemplate.ID != "" {
		v.launchTemplate = ev.LaunchTemplate.ID
		if ev.LaunchTemplate.Version > 0 {
			v.ltVersion = strconv.Itoa(ev.LaunchTemplate.Version)
		}
	}
	v.routeTable = subnetRouteTable(ev, v.subnet, v.vpc)
	for _, n := range ev.NATGateways {
		if n.State == "available" && n.ConnectivityType != "private" && v.nat == "" && subnetInVPC(ev, n.SubnetID, v.vpc) {
			v.nat = n.ID
		}
	}
	return v
}

// subnetRouteTable returns the route table of subnet (its explicit association, else the VPC's
// main table), or "".
func subnetRouteTable(ev *evidence.Evidence, subnet, vpc string) string {
	main := ""
	for _, rt := range ev.RouteTables {
		for _, s := range rt.SubnetIDs {
			if s == subnet && subnet != "" {
				return rt.ID
			}
		}
		if rt.Main && (vpc == "" || rt.VpcID == vpc) {
			main = rt.ID
		}
	}
	return main
}

func subnetInVPC(ev *evidence.Evidence, subnet, vpc string) bool {
	for _, s := range ev.Subnets {
		if s.ID == subnet {
			return vpc == "" || s.VpcID == vpc
		}
	}
	return vpc == ""
}

// hybridAccessType is the access entry type of an EKS hybrid node's role
// (https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-creds.html).
const hybridAccessType = "HYBRID_LINUX"

// autoNodePolicyArn is the EKS access policy an Auto Mode node role's access entry is associated
// with (https://docs.aws.amazon.com/eks/latest/userguide/access-policy-permissions.html).
const autoNodePolicyArn = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSAutoNodePolicy"

// accessTypeRe matches the access entry type left to the reader's OS.
var accessTypeRe = regexp.MustCompile(`EC2_LINUX \(EC2_WINDOWS for Windows\)|EC2_LINUX \(or EC2_WINDOWS\)`)

var egressAddrRe = regexp.MustCompile(`egress address ([0-9a-f.:,]+) is not in`)

// concretize returns f's remediation with every placeholder whose value ev holds replaced by that
// value. Values specific to the finding (the ACL, endpoint or security group it names) come from
// its resource and evidence.
func concretize(f Finding, ev *evidence.Evidence) string {
	if f.Remediation == "" {
		return ""
	}
	v := ev.Memo("checks.fixValues", func() any { return baseFixValues(ev) }).(fixValues)
	switch r := f.Resource; {
	case strings.HasPrefix(r, "acl-"):
		v.acl = r
	case strings.HasPrefix(r, "vpce-"):
		v.vpce = r
	case strings.HasPrefix(r, "rtb-"):
		v.routeTable = r
	case strings.HasPrefix(r, "sg-") && !strings.Contains(r, ","):
		switch f.ID {
		case "net.vpc-endpoint-sg":
			v.endpointSG = r
		case "net.sg-node-egress":
			v.nodeSG = r
		}
	case strings.HasPrefix(r, "nat-"):
		// the NAT gateway named is the broken one; propose only a working one
	case r != "" && !strings.HasPrefix(r, "i-") && !strings.HasPrefix(r, "arn:"):
		v.objectName = r
	}
	for _, it := range f.Evidence {
		if m := egressAddrRe.FindStringSubmatch(it.Text); m != nil {
			v.egressIP = strings.Split(m[1], ",")[0]
		}
	}
	out := f.Remediation
	switch {
	case ev.Provisioner.Kind == evidence.ProvisionerHybrid:
		// a hybrid node's role takes a HYBRID_LINUX entry, or an aws-auth mapping with the
		// username system:node:{{SessionName}}
		// (https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-creds.html)
		out = strings.ReplaceAll(accessTypeRe.ReplaceAllString(out, hybridAccessType), "--type EC2_LINUX", "--type "+hybridAccessType)
		out = strings.ReplaceAll(out, NodeUsername, SessionNodeUsername)
	case ev.Provisioner.Kind == evidence.ProvisionerAutoMode:
		// an EKS Auto Mode node role takes an access entry of type EC2 (username
		// system:node:{{SessionName}}) with the AmazonEKSAutoNodePolicy access policy
		// (https://docs.aws.amazon.com/eks/latest/userguide/create-node-role.html#auto-mode-node-role)
		out = accessTypeRe.ReplaceAllString(out, "EC2_LINUX")
		if strings.Contains(out, "--type EC2_LINUX") {
			out = strings.ReplaceAll(out, "--type EC2_LINUX", "--type EC2")
			out = strings.TrimSuffix(strings.TrimSpace(out), ".") + ", then aws eks associate-access-policy --cluster-name CLUSTER --principal-arn ROLE_ARN --policy-arn " + autoNodePolicyArn + " --access-scope type=cluster."
		}
		out = strings.ReplaceAll(out, "EC2_LINUX", "EC2")
		out = strings.ReplaceAll(out, NodeUsername, SessionNodeUsername)
	case ev.Instance != nil || ev.Image != nil || ev.NodeOS != nil:
		// the OS is known: the access entry type is no longer a choice
		typ := "EC2_LINUX"
		if isWindows(ev) || ev.NodeOS != nil && ev.NodeOS.Family == "windows" {
			typ = "EC2_WINDOWS"
		}
		out = strings.ReplaceAll(accessTypeRe.ReplaceAllString(out, typ), "--type EC2_LINUX", "--type "+typ)
	}
	for _, p := range placeholders {
		val := p.val(&v)
		if val == "" {
			continue
		}
		out = replaceGroup(p.re, out, val)
	}
	return out
}

// replaceGroup replaces, in every match of re in s, the first group (or the whole match when re
// has no group) with val.
func replaceGroup(re *regexp.Regexp, s, val string) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		from, to := m[0], m[1]
		if len(m) >= 4 && m[2] >= 0 {
			from, to = m[2], m[3]
		}
		b.WriteString(s[last:from])
		b.WriteString(val)
		last = to
	}
	b.WriteString(s[last:])
	return b.String()
}
