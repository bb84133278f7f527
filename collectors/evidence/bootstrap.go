package evidence

// BootstrapFormat names how a node is told to join a cluster.
type BootstrapFormat string

// Bootstrap formats.
const (
	// FormatNone: no bootstrap instruction was found (empty user data or a script that never
	// calls a bootstrap entry point).
	FormatNone BootstrapFormat = "none"
	// FormatBootstrapSh: a shell script (or eksctl cloud-config) calling /etc/eks/bootstrap.sh (AL2, Ubuntu).
	FormatBootstrapSh BootstrapFormat = "bootstrap.sh"
	// FormatNodeConfig: AL2023 nodeadm NodeConfig documents (application/node.eks.aws).
	FormatNodeConfig BootstrapFormat = "nodeconfig"
	// FormatBottlerocket: Bottlerocket TOML settings.
	FormatBottlerocket BootstrapFormat = "bottlerocket"
	// FormatWindows: PowerShell calling Start-EKSBootstrap.ps1.
	FormatWindows BootstrapFormat = "windows"
	// FormatManaged: a managed node group's settings as infrastructure code declares them
	// (labels, taints); EKS writes the bootstrap itself in the AMI family's format and passes
	// the labels to the kubelet's --node-labels
	// (https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateNodegroup.html#AmazonEKS-CreateNodegroup-request-labels).
	FormatManaged BootstrapFormat = "managed node group"
)

// BootstrapConfig is one normalised view of how the node was told to join, whatever format
// carried it. Empty strings and nil pointers mean "not set by the user data" (the node then
// uses its own default or discovers the value, e.g. bootstrap.sh calls DescribeCluster).
type BootstrapConfig struct {
	Format BootstrapFormat
	// Formats lists every format seen, in document order (a MIME document may mix them).
	Formats []BootstrapFormat
	// RawBytes is the size of the user data after base64 decoding (EC2's 16 KB limit applies
	// to this size: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-add-user-data.html).
	RawBytes int
	// Gzipped is true when the user data (or a part) was gzip-compressed.
	Gzipped bool
	// Parts describes each part found, e.g. "part 1 (text/x-shellscript)".
	Parts []string

	ClusterName       string
	APIServerEndpoint string
	// CertificateAuthority is base64 of the PEM CA bundle, as bootstrap.sh --b64-cluster-ca,
	// NodeConfig certificateAuthority and Bottlerocket cluster-certificate carry it.
	CertificateAuthority string
	// ClusterDNS lists cluster DNS IPs (--dns-cluster-ip, clusterDNS, cluster-dns-ip).
	ClusterDNS []string
	// ServiceCIDR is NodeConfig spec.cluster.cidr or bootstrap.sh --service-ipv4-cidr (nodeadm,
	// and bootstrap.sh when given the endpoint and CA, derive the cluster DNS IP from it).
	ServiceCIDR string
	// MaxPods is the max pods explicitly configured (kubelet flag, NodeConfig maxPods,
	// Bottlerocket max-pods); nil when left to the default.
	MaxPods *int
	// UseMaxPods is bootstrap.sh --use-max-pods (nil = default true).
	UseMaxPods       *bool
	Labels           map[string]string
	Taints           []string
	ContainerRuntime string
	// KubeletFlags are extra kubelet flags in "--name=value" form, in order.
	KubeletFlags []string
	// Hybrid is true when a NodeConfig sets spec.hybrid: nodeadm bootstraps an EKS hybrid node
	// (SSM or IAM Roles Anywhere credentials) rather than an EC2 instance
	// (https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-nodeadm.html). Only its
	// presence is kept: spec.hybrid.ssm.activationCode is a secret.
	Hybrid bool
	// HybridCredentials is how a hybrid node gets its AWS credentials, from the NodeConfig's
	// spec.hybrid: HybridSSM (spec.hybrid.ssm, an SSM hybrid activation) or
	// HybridIAMRolesAnywhere (spec.hybrid.iamRolesAnywhere); empty when neither is set
	// (aws/eks-hybrid api/v1alpha1/nodeconfig_types.go HybridOptions: the two are exclusive).
	HybridCredentials string
	// HybridRoleARN is spec.hybrid.iamRolesAnywhere.roleArn: the IAM role a hybrid node with IAM
	// Roles Anywhere authenticates as, which needs an access entry of type HYBRID_LINUX or an
	// aws-auth mapping (https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-creds.html).
	// An SSM node's role is chosen by its activation and is not in the NodeConfig.
	HybridRoleARN string
	// InstanceIDNodeName is true when the node names its Node object after its EC2 instance ID
	// rather than its private DNS name: nodeadm spec.featureGates.InstanceIdNodeName: true
	// (amazon-eks-ami nodeadm/internal/kubelet/config.go withCloudProvider; the last NodeConfig
	// document that sets the gate wins), Bottlerocket settings.kubernetes.hostname-override-source
	// "instance-id" or a hostname-override that is an instance ID (bottlerocket-core-kit
	// sources/api/pluto generate_node_name). Such a kubelet authenticates as
	// system:node:{{SessionName}} (an instance profile's session name is the instance ID), so its
	// mapping must use that username or an access entry of type EC2
	// (amazon-eks-ami nodeadm/doc/examples.md "Using instance ID as node name").
	InstanceIDNodeName bool
	// CallsBootstrap is true when a bootstrap entry point is invoked (bootstrap.sh,
	// NodeConfig present, Bottlerocket settings.kubernetes, Start-EKSBootstrap.ps1).
	CallsBootstrap bool
	// BootstrapUnreached, when set, says why a bootstrap.sh call in a script never runs: an
	// unconditional top-level exit (or exec of another program) comes before it, e.g.
	// "part 1, line 5: \"exit 0\" ends the script, so the bootstrap.sh call on line 6 never
	// runs". CallsBootstrap is false then unless another part bootstraps the node.
	BootstrapUnreached string
	// Unresolved lists values that came from variables the decoder could not resolve,
	// keyed by field (clusterName, apiServerEndpoint, certificateAuthority, clusterDNS,
	// kubeletExtraArgs, ...), with a sentence naming the variable.
	Unresolved map[string]string
	// Issues are parse problems, in document order.
	Issues []ParseIssue
	// Fragment is true when the user data shown is parts cut out of a multipart document
	// (starting at a boundary line, without the document's headers): the parts not shown may
	// bootstrap the node.
	Fragment bool
	// Truncated is true when the user data was parsed only in part: its decoded (or
	// decompressed) text is over the decoder's byte limit (1 MiB), it has more MIME parts than
	// the decoder visits (256), or parts nested deeper than it follows; or, pasted, it holds an
	// elision mark on a line of its own ("...", "…", "[...]") where the poster cut lines out
	// (a missing closing boundary is then not reported either). What was not parsed may
	// bootstrap the node or set the values looked for, so checks that would conclude from an
	// absence (no bootstrap step, a field not set) skip for missing evidence instead.
	// TruncatedWhy says which limit cut the parse.
	Truncated bool
	// TruncatedWhy says why Truncated is set, e.g. "it is over the 1048576-byte parse limit".
	TruncatedWhy string
	// Effective is true when this is the configuration the node actually used (nodeadm's
	// loaded configuration, Bottlerocket's settings), not user data that the launch path may
	// still complete (a managed node group adds its own NodeConfig part).
	Effective bool
	// KubeconfigOnly is true when the configuration is only what the kubelet's kubeconfig shows
	// (its server, the cluster its credential plugin signs for, an inline CA), with the kubelet
	// configuration beside it: what the kubelet actually used, but not the user data. Cross-checked
	// with the instance's user data, it overrides those fields and leaves the rest to the user data.
	KubeconfigOnly bool
}

// IssueLevel says whether the consumer on the node rejects or merely tolerates a problem.
type IssueLevel string

// Issue levels.
const (
	// IssueError: cloud-init, nodeadm or Bottlerocket rejects or drops this content.
	IssueError IssueLevel = "error"
	// IssueWarning: accepted on the node, but suspicious (for example a missing closing
	// boundary that cloud-init tolerates).
	IssueWarning IssueLevel = "warning"
)

// ParseIssue is one problem found while decoding user data.
type ParseIssue struct {
	Level IssueLevel
	// Part names where, e.g. "user data", "part 2 (application/node.eks.aws)".
	Part string
	// Line is 1-based within the decoded user data text (0 when unknown).
	Line    int
	Message string
	// NotRun marks an error saying the user data parses but its agent runs none of it
	// (Start-EKSBootstrap.ps1 outside any <powershell> or <script> tag): the node never
	// bootstraps, which bootstrap.no-bootstrap reports (with BootstrapConfig.BootstrapUnreached),
	// not bootstrap.userdata-unparseable.
	NotRun bool `json:",omitempty"`
	// ModelRejects marks an error that is Bottlerocket's settings model refusing a value's type
	// or format (a quoted max-pods, a taint that is not "value:Effect"): the API would not take
	// the settings. Settings a running node's API printed were taken, so there such an error is
	// a stricter reading of the model than the node's version has (AcceptedByAPI).
	ModelRejects bool `json:",omitempty"`
}

// AcceptedByAPI records that b is Bottlerocket settings as a running node's API holds them
// (`apiclient get`, a log bundle's settings.json), which its settings model accepted when they
// were set: each ModelRejects error becomes a warning that says so and names source. Other
// errors (standalone-mode on) stand.
func (b *BootstrapConfig) AcceptedByAPI(source string) {
	for i, is := range b.Issues {
		if is.ModelRejects && is.Level == IssueError {
			b.Issues[i].Level = IssueWarning
			b.Issues[i].Message += "; but these are the settings the node's API holds (" + source + "), which it accepted, so this node's settings model takes the value"
		}
	}
}

// HasErrors reports whether any issue is an error.
func (b *BootstrapConfig) HasErrors() bool {
	for _, i := range b.Issues {
		if i.Level == IssueError {
			return true
		}
	}
	return false
}

// Values of BootstrapConfig.HybridCredentials.
const (
	// HybridSSM: the hybrid node registers with an SSM hybrid activation (spec.hybrid.ssm).
	HybridSSM = "ssm"
	// HybridIAMRolesAnywhere: the hybrid node gets credentials from IAM Roles Anywhere
	// (spec.hybrid.iamRolesAnywhere).
	HybridIAMRolesAnywhere = "iam-roles-anywhere"
)
