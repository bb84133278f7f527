// Package evidence defines the one typed value that collectors fill and checks judge.
//
// Evidence is plain data: it performs no I/O and carries no behaviour beyond small accessors.
// Every kind of evidence is either collected (Have reports true and Source names where it came
// from, e.g. "snapshot:ec2/describe-subnets.json") or missing, in which case Gaps records why
// ("not in snapshot", "AccessDenied on ec2:DescribeSubnets", a parse error). Checks never guess
// about missing evidence: the runner turns a gap into a skipped finding.
package evidence

import (
	"sort"
	"strings"
	"sync"
	"time"
)

// Kind names one kind of evidence. The string form is stable and appears in JSON output
// and in skip reasons.
type Kind string

// Evidence kinds. Each comment names the AWS CLI / kubectl output (see docs/snapshot-format.md)
// or node artefact it comes from.
const (
	KindCluster          Kind = "eks:cluster"            // eks describe-cluster
	KindAccessEntries    Kind = "eks:access-entries"     // eks list-access-entries + describe-access-entry
	KindNodegroups       Kind = "eks:nodegroups"         // eks list-nodegroups + describe-nodegroup
	KindInstance         Kind = "ec2:instance"           // ec2 describe-instances
	KindUserData         Kind = "ec2:user-data"          // ec2 describe-instance-attribute --attribute userData
	KindImage            Kind = "ec2:image"              // ec2 describe-images
	KindInstanceType     Kind = "ec2:instance-type"      // ec2 describe-instance-types
	KindSubnets          Kind = "ec2:subnets"            // ec2 describe-subnets
	KindVPCs             Kind = "ec2:vpcs"               // ec2 describe-vpcs
	KindInstanceProfile  Kind = "iam:instance-profile"   // iam get-instance-profile
	KindNodeRole         Kind = "iam:node-role"          // iam get-role
	KindNodeRolePolicies Kind = "iam:node-role-policies" // iam list-attached-role-policies
	KindAutoScaling      Kind = "autoscaling:groups"     // autoscaling describe-auto-scaling-groups
	KindAWSAuth          Kind = "kube:aws-auth"          // kubectl -n kube-system get configmap aws-auth
	KindVPCCNIConfig     Kind = "kube:amazon-vpc-cni"    // kubectl -n kube-system get configmap amazon-vpc-cni
	KindNodes            Kind = "kube:nodes"             // kubectl get nodes
	KindCSRs             Kind = "kube:csrs"              // kubectl get csr
	KindAWSNode          Kind = "kube:aws-node"          // kubectl -n kube-system get daemonset aws-node
	KindBootstrap        Kind = "node:bootstrap-config"  // decoded user data (or node-side configuration)
	// KindClusterRole is the cluster's IAM role (describe-cluster roleArn): iam get-role.
	KindClusterRole Kind = "iam:cluster-role"
	// KindClusterRolePolicies are the managed policies attached to the cluster role: iam
	// list-attached-role-policies.
	KindClusterRolePolicies Kind = "iam:cluster-role-policies"
)

// Gap says why one kind of evidence is missing. Reason is a short human sentence such as
// "not in snapshot" or "parse error in ec2/describe-subnets.json: invalid character 'x'".
type Gap struct {
	Kind   Kind   `json:"kind"`
	Reason string `json:"reason"`
	// Permission is the IAM action (ec2:DescribeVpcEndpoints) or Kubernetes verb/resource whose
	// denial caused the gap; empty for other causes.
	Permission string `json:"permission,omitempty"`
}

// Target identifies what is being diagnosed.
type Target struct {
	InstanceID string `json:"instanceId,omitempty"`
	// NodeClaim is the Karpenter / Auto Mode NodeClaim diagnosed (why-not-joining NODECLAIM).
	NodeClaim string `json:"nodeClaim,omitempty"`
	Cluster   string `json:"cluster,omitempty"`
	Region    string `json:"region,omitempty"`
	// ClusterSource says how Cluster was chosen: "flag", "instance tag <key>", "user data",
	// "snapshot manifest" or "describe-cluster".
	ClusterSource string `json:"clusterSource,omitempty"`
	// Source names the evidence origin, e.g. "snapshot:fixtures/healthy-al2023".
	Source string `json:"source,omitempty"`
}

// Evidence is everything known about one diagnosis target. A nil pointer or nil slice field
// is meaningless on its own: use Have to know whether a kind was collected.
type Evidence struct {
	Target Target
	// CollectedAt is the time the evidence was captured (snapshot manifest collectedAt or the
	// newest timestamp seen). Checks judge ages against it, never against the wall clock.
	// The zero value means unknown; age-based judgements are then skipped.
	CollectedAt time.Time

	Cluster       *Cluster
	AccessEntries []AccessEntry
	// DescribedAccessEntries are the entries read from `aws eks describe-access-entry` outputs
	// when `aws eks list-access-entries` is not in the evidence (KindAccessEntries not
	// collected): each says its principal's type, but the cluster's set of entries is unknown, so
	// no check may conclude from them that a principal has no entry.
	DescribedAccessEntries []AccessEntry
	Nodegroups             []Nodegroup
	Instance               *Instance
	UserData               *UserData
	Image                  *Image
	InstanceType           *InstanceType
	Subnets                []Subnet
	VPCs                   []VPC
	InstanceProfile        *InstanceProfile
	NodeRole               *Role
	// NodeRolePolicies lists the managed policies attached to the node role.
	NodeRolePolicies []AttachedPolicy
	// ClusterRole is the role named by the cluster's roleArn. A role that does not exist is
	// recorded as a Role with only Arn and Name set and Missing true.
	ClusterRole *ClusterRole
	// ClusterRolePolicies lists the managed policies attached to the cluster role.
	ClusterRolePolicies []AttachedPolicy
	AutoScalingGroups   []AutoScalingGroup
	AWSAuth             *AWSAuth
	// VPCCNIConfig is the data of ConfigMap kube-system/amazon-vpc-cni.
	VPCCNIConfig map[string]string
	Nodes        []Node
	// NodesPartial is true when Nodes holds only the nodes an input happened to show (a pasted
	// kubectl describe node) rather than the cluster's complete list.
	NodesPartial bool
	CSRs         []CSR
	AWSNode      *DaemonSet
	// Bootstrap is the node bootstrap configuration decoded from user data.
	Bootstrap *BootstrapConfig

	RouteTables      []RouteTable
	SecurityGroups   []SecurityGroup
	NetworkACLs      []NetworkACL
	VPCEndpoints     []VPCEndpoint
	NATGateways      []NATGateway
	InternetGateways []InternetGateway
	// VPCAttributes are the DNS attributes of the instance's VPC.
	VPCAttributes  *VPCAttributes
	DHCPOptions    []DHCPOptions
	LaunchTemplate *LaunchTemplateVersion
	// NodegroupLaunchTemplates are the launch template versions the cluster's managed node
	// groups name (nodegroup.launchTemplate), read for the cluster's evidence when there is no
	// instance (a node group whose launches all failed has none): the node group checks judge
	// each. Empty for an instance's evidence, which has LaunchTemplate.
	NodegroupLaunchTemplates []NodegroupLaunchTemplate
	// ConsoleOutput is the instance's console output; log signature checks read it.
	ConsoleOutput *ConsoleOutput

	// AWSNodeServiceAccount is ServiceAccount kube-system/aws-node (nil when it does not exist).
	AWSNodeServiceAccount *ServiceAccount
	// KubeDNS is Service kube-system/kube-dns (nil when it does not exist).
	KubeDNS  *Service
	NodeRBAC *NodeRBAC
	Webhooks []Webhook
	// ScalingActivities are recent activities of the Auto Scaling groups, newest first per group.
	ScalingActivities []ScalingActivity
	// NodeLogs are the node-side logs scanned for known failure signatures (bundles, artefacts).
	NodeLogs *NodeLogs
	// NodeOS is what the node reports about its OS and component versions (bundles).
	NodeOS *NodeOS
	// MappingChanges are changes to aws-auth mappings or access entries (a Terraform plan,
	// audit or CloudTrail events).
	MappingChanges []MappingChange
	// Fargate holds the Fargate profiles (KindFargateProfiles) and Pending pods (KindPendingPods).
	Fargate Fargate

	// NodeClaims, NodePools and NodeClasses are Karpenter's and EKS Auto Mode's objects
	// (KindNodeClaims, KindNodePools, KindEC2NodeClasses / KindNodeClasses: EC2NodeClasses and Auto
	// Mode NodeClasses share the NodeClass type, told apart by AutoMode).
	NodeClaims  []NodeClaim
	NodePools   []NodePool
	NodeClasses []NodeClass
	// NodeClaim is the NodeClaim being diagnosed (why-not-joining NODECLAIM, or the NodeClaim
	// whose providerID names the instance); nil when none does.
	NodeClaim *NodeClaim
	// Provisioner says how the target was launched (see Provisioner).
	Provisioner Provisioner

	sources map[Kind]string
	gaps    map[Kind]Gap
	// subsets holds, by kind, why a listing holds only some of the resources of its kind
	// (MarkSubset).
	subsets map[Kind]string
	// unreadable holds the kinds whose input was given but could not be read (MarkUnreadable).
	unreadable map[Kind]bool

	memoMu sync.Mutex
	memo   map[string]any
	// extension holds the values of kinds declared outside this struct (Put, Get).
	extension
}

// Memo returns the value derived from this evidence under key, computing it once. Checks use it
// for derivations several of them share (the network path model); compute must be a pure
// function of the evidence.
func (e *Evidence) Memo(key string, compute func() any) any {
	e.memoMu.Lock()
	defer e.memoMu.Unlock()
	if v, ok := e.memo[key]; ok {
		return v
	}
	if e.memo == nil {
		e.memo = map[string]any{}
	}
	v := compute()
	e.memo[key] = v
	return v
}

// MarkSubset records that the listing of kind holds only the resources a filter or a list of
// IDs picked (a pasted `aws ec2 describe-nat-gateways --nat-gateway-ids nat-…`): why says which,
// and where it was read. A resource absent from such a listing may exist; a check may not
// conclude from its absence.
func (e *Evidence) MarkSubset(kind Kind, why string) {
	if e.subsets == nil {
		e.subsets = map[Kind]string{}
	}
	e.subsets[kind] = why
}

// SubsetOf returns why the listing of kind holds only some of its resources (MarkSubset); ""
// when it is whole or was not collected.
func (e *Evidence) SubsetOf(kind Kind) string { return e.subsets[kind] }

// Mark records that kind was collected from source (for example
// "snapshot:ec2/describe-instances.json"). It clears a previous gap for that kind.
func (e *Evidence) Mark(kind Kind, source string) {
	if e.sources == nil {
		e.sources = map[Kind]string{}
	}
	e.sources[kind] = source
	delete(e.gaps, kind)
	delete(e.unreadable, kind)
}

// MarkUnreadable records that kind's input was given (a file in the snapshot) but could not be
// read: its gap (AddGap) says why. For testimony (the node's logs, its console) this differs
// from input never given: what it holds is lost, so the silence of the checks that read it is
// no all-clear (checks.Judge). Mark clears it.
func (e *Evidence) MarkUnreadable(kind Kind) {
	if e.unreadable == nil {
		e.unreadable = map[Kind]bool{}
	}
	e.unreadable[kind] = true
}

// Unreadable reports whether kind's input was given but could not be read (MarkUnreadable).
func (e *Evidence) Unreadable(kind Kind) bool { return e.unreadable[kind] }

// AddGap records that kind could not be collected and why. A kind already marked collected
// is left as it is. A reason starting "missing permission ACTION" records ACTION as the
// gap's Permission (the convention collectors use for access-denied errors).
func (e *Evidence) AddGap(kind Kind, reason string) {
	if _, ok := e.sources[kind]; ok {
		return
	}
	if e.gaps == nil {
		e.gaps = map[Kind]Gap{}
	}
	g := Gap{Kind: kind, Reason: reason}
	if rest, ok := strings.CutPrefix(reason, "missing permission "); ok {
		g.Permission = strings.Fields(rest + " ")[0]
	}
	e.gaps[kind] = g
}

// PermissionGaps returns the gaps caused by denied permissions, sorted by kind.
func (e *Evidence) PermissionGaps() []Gap {
	var out []Gap
	for _, g := range e.Gaps() {
		if g.Permission != "" {
			out = append(out, g)
		}
	}
	return out
}

// Have reports whether kind was collected.
func (e *Evidence) Have(kind Kind) bool {
	_, ok := e.sources[kind]
	return ok
}

// Source returns where kind was collected from, or "" when it was not.
func (e *Evidence) Source(kind Kind) string { return e.sources[kind] }

// GapFor returns the reason kind is missing; "not collected" when no gap was recorded.
func (e *Evidence) GapFor(kind Kind) Gap {
	if g, ok := e.gaps[kind]; ok {
		return g
	}
	return Gap{Kind: kind, Reason: "not collected"}
}

// Gaps returns every recorded gap, sorted by kind.
func (e *Evidence) Gaps() []Gap {
	out := make([]Gap, 0, len(e.gaps))
	for _, g := range e.gaps {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}

// CollectedKinds returns the kinds that were collected, sorted.
func (e *Evidence) CollectedKinds() []Kind {
	out := make([]Kind, 0, len(e.sources))
	for k := range e.sources {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// AddGapForce records a gap for kind even when it was marked collected, dropping the
// collected value's source. Tests and collectors that learn late that a kind is unusable use it.
func (e *Evidence) AddGapForce(kind Kind, reason string) {
	delete(e.sources, kind)
	e.AddGap(kind, reason)
}

// NodegroupLaunchTemplate is the launch template version a managed node group names, with the
// snapshot file or API call it was read from.
type NodegroupLaunchTemplate struct {
	Nodegroup string
	Template  LaunchTemplateVersion
	Source    string
}
