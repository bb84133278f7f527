package evidence

import "time"

// Network evidence: the VPC as EC2 describes it. Shapes follow the EC2 API reference
// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/); CIDRs are strings as EC2 prints them.

// Network evidence kinds.
const (
	KindRouteTables      Kind = "ec2:route-tables"      // ec2 describe-route-tables
	KindSecurityGroups   Kind = "ec2:security-groups"   // ec2 describe-security-groups
	KindNetworkACLs      Kind = "ec2:network-acls"      // ec2 describe-network-acls
	KindVPCEndpoints     Kind = "ec2:vpc-endpoints"     // ec2 describe-vpc-endpoints
	KindNATGateways      Kind = "ec2:nat-gateways"      // ec2 describe-nat-gateways
	KindInternetGateways Kind = "ec2:internet-gateways" // ec2 describe-internet-gateways
	KindVPCAttributes    Kind = "ec2:vpc-attributes"    // ec2 describe-vpc-attribute (DNS support, DNS hostnames)
	KindDHCPOptions      Kind = "ec2:dhcp-options"      // ec2 describe-dhcp-options
	KindLaunchTemplate   Kind = "ec2:launch-template"   // ec2 describe-launch-template-versions
)

// RouteTable is one VPC route table with its subnet associations.
type RouteTable struct {
	ID    string
	VpcID string
	// Main is true for the VPC's main route table (used by subnets without an explicit association).
	Main      bool
	SubnetIDs []string
	Routes    []Route
	// SelectedBy names the command-line filter or IDs that picked this table out of its VPC's
	// when the output does not say it whole (a pasted `aws ec2 describe-route-tables --filters
	// Name=association.subnet-id,Values=subnet-…`), with where it was read; "" for a table listed
	// with its associations. SubnetIDs and Main may come from that filter when a --query dropped
	// the table's Associations: the filter is then the only word on which subnets use it.
	SelectedBy string
	// RoutesPartial says why Routes may not be all of the table's routes (a --query kept one
	// route, or dropped the destinations of some); "" when they are. A destination no route
	// shown matches is then unknown, not unrouted.
	RoutesPartial string
}

// Route is one route. Exactly one destination field and one target field are set.
type Route struct {
	DestinationCIDR     string // IPv4 or IPv6 CIDR ("" when the destination is a prefix list)
	DestinationPrefixID string // pl-…
	// Target is the target's ID: "local", igw-…, nat-…, tgw-…, pcx-…, eni-…, i-…, vgw-…, vpce-…, eigw-…, lgw-…, cagw-… or a core network ARN.
	Target string
	// State is active or blackhole.
	State string
}

// SecurityGroup is one security group with its rules.
type SecurityGroup struct {
	ID      string
	Name    string
	VpcID   string
	Ingress []SGRule
	Egress  []SGRule
}

// SGRule is one IpPermission. Protocol is "-1" (all), "tcp", "udp", "icmp" or a number;
// FromPort/ToPort are -1 (or 0) for all ports when Protocol is "-1".
type SGRule struct {
	Protocol      string
	FromPort      int
	ToPort        int
	CIDRs         []string // IPv4 and IPv6 ranges
	PrefixListIDs []string
	GroupIDs      []string // referenced security groups
}

// NetworkACL is one network ACL with its subnet associations.
type NetworkACL struct {
	ID        string
	VpcID     string
	Default   bool
	SubnetIDs []string
	Entries   []NACLEntry
}

// NACLEntry is one ordered rule. Protocol is "-1" (all) or a protocol number ("6" TCP, "17" UDP).
type NACLEntry struct {
	RuleNumber int
	Egress     bool
	Protocol   string
	// PortFrom/PortTo bound the destination port (both 0 when the rule has no port range).
	PortFrom int
	PortTo   int
	CIDR     string // IPv4 or IPv6
	Allow    bool
}

// VPCEndpoint is one VPC endpoint.
type VPCEndpoint struct {
	ID          string
	VpcID       string
	ServiceName string // com.amazonaws.<region>.<service>
	Type        string // Interface, Gateway, GatewayLoadBalancer
	State       string // available, pending, …
	// PrivateDNSEnabled applies to interface endpoints.
	PrivateDNSEnabled bool
	SubnetIDs         []string
	SecurityGroupIDs  []string
	RouteTableIDs     []string
	// Policy is the endpoint policy; nil means the default (full access) unless PolicyUnknown.
	Policy *PolicyDocument
	// PrivateDNSUnknown, RoutesUnknown and PolicyUnknown are true when a --query dropped
	// PrivateDnsEnabled, RouteTableIds or PolicyDocument (DescribeVpcEndpoints returns them for
	// every endpoint of the type they apply to): the value is then unknown, not false, none or
	// the default policy.
	PrivateDNSUnknown, RoutesUnknown, PolicyUnknown bool
}

// NATGateway is one NAT gateway.
type NATGateway struct {
	ID       string
	SubnetID string
	// State is available, pending, failed, deleting or deleted; "" when a --query dropped it
	// (unknown: DescribeNatGateways always returns it).
	State            string
	ConnectivityType string // public or private
	PublicIPs        []string
}

// InternetGateway is one internet gateway and the VPCs it is attached to.
type InternetGateway struct {
	ID     string
	VpcIDs []string
}

// VPCAttributes are the DNS attributes of the instance's VPC; nil pointers mean not reported.
type VPCAttributes struct {
	VpcID              string
	EnableDNSSupport   *bool
	EnableDNSHostnames *bool
}

// DHCPOptions is one DHCP options set.
type DHCPOptions struct {
	ID                string
	DomainName        []string
	DomainNameServers []string
}

// LaunchTemplateVersion is the launch template version the instance was launched from.
type LaunchTemplateVersion struct {
	ID      string
	Version int
	// SecurityGroupIDs are the groups the template sets (SecurityGroupIds or the primary
	// network interface's Groups); empty when the template sets none.
	SecurityGroupIDs []string
	// NetworkInterfaces is true when the template declares a network interface that sets a
	// subnet or a public IP address setting: what a managed node group's own subnets conflict
	// with (https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html); an
	// interface that only sets security groups or the interface type (EFA) does not count.
	NetworkInterfaces bool
	ImageID           string
	// BlockDevices are the template's EBS block device mappings (overrides of the AMI's sizes).
	BlockDevices []BlockDevice
}

// KindConsoleOutput is the instance's serial console output (ec2 get-console-output).
const KindConsoleOutput Kind = "ec2:console-output"

// ConsoleOutput is the latest console output of the instance, decoded from base64.
type ConsoleOutput struct {
	Text string
	// Timestamp is when EC2 captured the output (zero when not reported).
	Timestamp time.Time
}
