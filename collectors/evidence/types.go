package evidence

import (
	"strings"
	"time"
)

// Cluster is the part of EKS DescribeCluster the checks use
// (https://docs.aws.amazon.com/eks/latest/APIReference/API_Cluster.html).
type Cluster struct {
	Name    string
	Arn     string
	Version string // Kubernetes minor, e.g. "1.30"
	// Status is one of CREATING, ACTIVE, DELETING, FAILED, UPDATING, PENDING.
	Status   string
	Endpoint string // https URL of the API server
	// CertificateAuthority is certificateAuthority.data: base64 of a PEM bundle.
	CertificateAuthority  string
	RoleArn               string
	PlatformVersion       string
	VpcID                 string
	SubnetIDs             []string
	SecurityGroupIDs      []string
	ClusterSecurityGroup  string
	EndpointPublicAccess  bool
	EndpointPrivateAccess bool
	PublicAccessCidrs     []string
	ServiceIPv4CIDR       string
	ServiceIPv6CIDR       string
	IPFamily              string
	// AuthenticationMode is accessConfig.authenticationMode: CONFIG_MAP, API_AND_CONFIG_MAP or
	// API. Empty means unknown: DescribeCluster returns accessConfig for every cluster, so its
	// absence means an AWS CLI whose models predate it (botocore 1.34.2, 2023-12-18) or a
	// --query dropped it, not CONFIG_MAP.
	AuthenticationMode string
	HealthIssues       []HealthIssue
	Tags               map[string]string
	CreatedAt          time.Time
	// ComputeConfig is computeConfig (EKS Auto Mode); nil when DescribeCluster did not return it.
	ComputeConfig *ComputeConfig
}

// HealthIssue is one entry of a cluster's or node group's health.issues.
type HealthIssue struct {
	Code        string
	Message     string
	ResourceIDs []string
}

// AccessEntry is one EKS access entry (DescribeAccessEntry).
type AccessEntry struct {
	PrincipalArn     string
	Type             string // STANDARD, EC2_LINUX, EC2_WINDOWS, FARGATE_LINUX, HYBRID_LINUX
	Username         string
	KubernetesGroups []string
	// Described is false when only list-access-entries named the principal (type unknown).
	Described bool
	// DescribeGap says why the entry could not be described (e.g. a denied permission).
	DescribeGap string
	// Source is where an entry of Evidence.DescribedAccessEntries was read
	// ("snapshot:eks/describe-access-entry/NAME.json"); "" for entries of the list.
	Source string
}

// Nodegroup is the part of EKS DescribeNodegroup the checks use.
type Nodegroup struct {
	Name                  string
	Status                string
	Version               string
	ReleaseVersion        string
	AmiType               string // AL2_x86_64, AL2023_x86_64_STANDARD, BOTTLEROCKET_x86_64, WINDOWS_*, CUSTOM...
	NodeRole              string
	Subnets               []string
	AutoScalingGroups     []string
	LaunchTemplateID      string
	LaunchTemplateVersion string
	HealthIssues          []HealthIssue
}

// Instance is the part of EC2 DescribeInstances the checks use.
type Instance struct {
	ID               string
	ImageID          string
	InstanceType     string
	State            string // pending, running, shutting-down, terminated, stopping, stopped
	StateReason      string
	LaunchTime       time.Time
	AvailabilityZone string
	SubnetID         string
	VpcID            string
	PrivateIP        string
	PrivateDNSName   string
	PublicIP         string
	// Platform is "windows" for Windows instances and empty otherwise (EC2 semantics).
	Platform        string
	PlatformDetails string
	// InstanceProfileArn is IamInstanceProfile.Arn; empty when the instance has no profile.
	InstanceProfileArn string
	SecurityGroupIDs   []string
	Tags               map[string]string
	Metadata           MetadataOptions
	// Unreported names the DescribeInstances fields ("IamInstanceProfile", "Tags",
	// "SecurityGroups") the output did not carry because a --query picked other fields (a
	// pasted `--query 'Reservations[].Instances[].[InstanceId,State.Name]'`): their zero values
	// above mean unknown, not absent. Nil for whole outputs.
	Unreported []string
}

// Reported reports whether the instance's output carried field (a DescribeInstances field
// name, see Unreported).
func (in *Instance) Reported(field string) bool {
	for _, f := range in.Unreported {
		if f == field {
			return false
		}
	}
	return true
}

// MetadataOptions mirrors EC2 InstanceMetadataOptionsResponse
// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_InstanceMetadataOptionsResponse.html).
type MetadataOptions struct {
	HttpEndpoint string // enabled | disabled ("" = not reported)
	HttpTokens   string // optional | required
	// HopLimit is HttpPutResponseHopLimit (1..64); 0 means not reported.
	HopLimit int
}

// UserData is the raw user data of the instance.
type UserData struct {
	// Base64 is the value exactly as EC2 returns it.
	Base64 string
	// Empty is true when the instance has no user data.
	Empty bool
}

// Image is the part of EC2 DescribeImages the checks use.
type Image struct {
	ID              string
	Name            string
	Description     string
	Platform        string
	PlatformDetails string
	OwnerID         string
	// RootDeviceName is the device of the root volume ("/dev/xvda"); empty when not reported.
	RootDeviceName string
	// BlockDevices are the AMI's EBS block device mappings (its snapshots and their sizes).
	BlockDevices []BlockDevice
}

// BlockDevice is one EBS block device mapping of an AMI or a launch template.
type BlockDevice struct {
	DeviceName string
	// SizeGiB is Ebs.VolumeSize in GiB; 0 when the mapping does not set it.
	SizeGiB    int
	SnapshotID string
}

// InstanceType holds the network limits of an instance type (EC2 DescribeInstanceTypes
// NetworkInfo), which bound the pods the VPC CNI can address.
type InstanceType struct {
	Name       string
	MaxENIs    int // NetworkInfo.MaximumNetworkInterfaces
	IPv4PerENI int // NetworkInfo.Ipv4AddressesPerInterface
	// Hypervisor is DescribeInstanceTypes' Hypervisor: "nitro" or "xen"; "" for bare metal
	// types (which run on Nitro hardware without a hypervisor) and when not reported.
	Hypervisor string
	// BareMetal is DescribeInstanceTypes' BareMetal.
	BareMetal bool
}

// Subnet is the part of EC2 DescribeSubnets the checks use.
type Subnet struct {
	ID           string
	VpcID        string
	CIDR         string
	AvailableIPs int // AvailableIpAddressCount
	// FreeUnknown is true when the output was narrowed by a --query that did not keep
	// AvailableIpAddressCount (DescribeSubnets always returns it): AvailableIPs is then unknown,
	// not 0, and the rest of the subnet stands.
	FreeUnknown      bool
	AvailabilityZone string
	Tags             map[string]string
	// IPv6CIDRs are the subnet's associated IPv6 blocks.
	IPv6CIDRs []string
	// MapPublicIPOnLaunch is true for subnets that give instances a public IPv4 address.
	MapPublicIPOnLaunch bool
}

// VPC is the part of EC2 DescribeVpcs the checks use.
type VPC struct {
	ID            string
	CIDRs         []string // IPv4 (the primary CidrBlock first) then IPv6 CIDR blocks
	DHCPOptionsID string
}

// InstanceProfile is the part of IAM GetInstanceProfile the checks use.
type InstanceProfile struct {
	Name  string
	Arn   string
	Roles []Role
}

// Role is an IAM role (GetRole). TrustPolicy is nil when the document was not returned.
type Role struct {
	Name        string
	Arn         string
	Path        string
	TrustPolicy *PolicyDocument
	// PermissionsBoundary is the ARN of the managed policy set as the role's permissions
	// boundary (GetRole PermissionsBoundary.PermissionsBoundaryArn), "" when none is set or
	// the output did not show it. A boundary caps what the role's policies grant
	// (https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_boundaries.html).
	PermissionsBoundary string
}

// ClusterRole is the cluster's IAM role as iam get-role returned it.
type ClusterRole struct {
	Role
	// Missing is true when IAM answered NoSuchEntity: the role named by roleArn was deleted.
	Missing bool
}

// AttachedPolicy is one managed policy attached to a role.
type AttachedPolicy struct {
	Name string
	Arn  string
}

// PolicyDocument is an IAM policy document
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_grammar.html).
type PolicyDocument struct {
	Version   string
	Statement []PolicyStatement
}

// PolicyStatement is one statement; list-or-string fields are normalised to lists.
type PolicyStatement struct {
	Sid    string
	Effect string
	Action []string
	// Resource lists the statement's resources ("*" when absent in trust policies).
	Resource []string
	// Principal maps a principal type (Service, AWS, Federated, "*") to its values.
	Principal    map[string][]string
	HasCondition bool
	// Conditions is the statement's Condition block, one entry per operator and key (IAM
	// requires every one to match for the statement to apply); nil when there is none or it
	// could not be read (HasCondition then says one exists).
	Conditions []PolicyCondition
}

// PolicyCondition is one condition of a policy statement: an operator (StringEquals, ArnLike,
// StringEqualsIfExists…), a context key (aws:SourceAccount) and the values it is compared with,
// each as text (a JSON bool or number as written, true / 123).
// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition.html
type PolicyCondition struct {
	Operator string
	Key      string
	Values   []string
}

// AutoScalingGroup is the part of DescribeAutoScalingGroups the checks use.
type AutoScalingGroup struct {
	Name        string
	InstanceIDs []string
	Tags        map[string]string
}

// AWSAuth is ConfigMap kube-system/aws-auth parsed the way aws-iam-authenticator parses it.
type AWSAuth struct {
	// Present is false when the ConfigMap does not exist (kubectl NotFound).
	Present  bool
	Roles    []RoleMapping
	Users    []UserMapping
	Accounts []string
	// Problems are parse errors and silently ignored content, in file order.
	Problems []AuthProblem
}

// RoleMapping is one mapRoles entry.
type RoleMapping struct {
	RoleArn  string
	Username string
	Groups   []string
	// Index is the entry's 0-based position in mapRoles.
	Index int
	// Cut is true for the first entry of a pasted mapRoles fragment that begins inside it (its
	// list dash is above the cut): keys it lacks may only be out of view.
	Cut bool
}

// UserMapping is one mapUsers entry.
type UserMapping struct {
	UserArn  string
	Username string
	Groups   []string
}

// AuthProblem is something in aws-auth that the authenticator rejects or ignores.
type AuthProblem struct {
	Key     string // mapRoles, mapUsers, mapAccounts or "" for the object
	Line    int    // 1-based line inside the key's value, 0 when unknown
	Message string
	// Username marks a problem inside a mapping's username (a placeholder the authenticator does
	// not substitute): the ConfigMap parses, and the name is judged as a username, not as syntax.
	Username bool `json:",omitempty"`
}

// NamesNode reports whether a Node named name carries the instance's host name: its private DNS
// name, or — when a --query left only the private IPv4 address — the EC2 host name that address
// gives ("ip-10-0-1-23" then the region's domain, the name an EKS node registers under by default:
// https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-instance-naming.html). Whether the Node's
// providerID names another instance is the caller's to judge.
func (i *Instance) NamesNode(name string) bool {
	if name == "" {
		return false
	}
	if i.PrivateDNSName != "" {
		return name == i.PrivateDNSName
	}
	if i.PrivateIP == "" || strings.Contains(i.PrivateIP, ":") {
		return false
	}
	host := "ip-" + strings.ReplaceAll(i.PrivateIP, ".", "-")
	return name == host || strings.HasPrefix(name, host+".")
}

// Node is a Kubernetes Node.
type Node struct {
	Name           string
	Labels         map[string]string
	ProviderID     string
	KubeletVersion string
	OS             string // status.nodeInfo.operatingSystem or label kubernetes.io/os
	Ready          bool
	// Pressure lists the node-pressure conditions whose status is True (DiskPressure,
	// MemoryPressure, PIDPressure: https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/).
	Pressure []string
	// ReadyReason and ReadyMessage are the reason and message of the Node's Ready condition
	// (status.conditions[type=Ready]; the kubelet writes KubeletNotReady with the failing
	// runtime state, e.g. "container runtime network not ready: NetworkReady=false
	// reason:NetworkPluginNotReady message:…", kubernetes pkg/kubelet/nodestatus/setters.go
	// ReadyCondition); "" when the input does not show them.
	ReadyReason, ReadyMessage string
	// ReadySince is the Ready condition's lastTransitionTime: since when the Node has been
	// Ready or NotReady; zero when the input does not show it.
	ReadySince time.Time
	// Taints are the Node's spec.taints as "key=value:Effect" ("key:Effect" without a value),
	// the form of kubelet --register-with-taints, whoever set them (the kubelet, a managed node
	// group, Karpenter, kubectl taint); nil when the Node has none or the input does not show them.
	Taints []string
	// Age is how old the Node was when it was listed (kubectl get nodes' AGE column: the time
	// since the Node object was created), for inputs that give an age; 0 when unknown.
	Age time.Duration
	// Unregistered marks a Node object its kubelet never reported on: no status conditions
	// and no nodeInfo.kubeletVersion (kubectl get nodes: STATUS Unknown, printed when the Node
	// has no Ready condition). The kubelet sets both when it registers the Node; a Node without
	// them was created by someone else — Karpenter v0.16–v0.27 created each Node itself with its
	// status cleared before the kubelet ran (aws/karpenter v0.16.0
	// pkg/controllers/provisioning/provisioner.go: `k8sNode.Status = v1.NodeStatus{}`) — and does
	// not show that the node joined.
	Unregistered bool
	// ReadyUnknown marks a Node whose Ready condition the input did not show because it was
	// not asked for (a `kubectl get nodes -o jsonpath=…` template or `-o custom-columns=…`
	// listing without .status.conditions[?(@.type=="Ready")].status): Ready is then false
	// without the Node being NotReady, and Unregistered is false without it being known.
	ReadyUnknown bool
}

// CSR is a certificates.k8s.io/v1 CertificateSigningRequest.
type CSR struct {
	Name       string
	SignerName string
	Username   string
	// CommonName is the subject CN of the embedded request, when it decodes.
	CommonName string
	Created    time.Time
	// Age is how old the CSR was when it was shown (kubectl get csr's AGE column), for inputs
	// that give an age instead of a creation time; 0 when unknown.
	Age time.Duration
	// State is Pending, Approved, Denied or Failed (from status.conditions).
	State   string
	Reason  string
	Message string
	Issued  bool
}

// DaemonSet is the part of a DaemonSet (aws-node) the checks use.
type DaemonSet struct {
	Name               string
	ServiceAccountName string
	// Env holds the env vars of the aws-node container (value or "valueFrom").
	Env map[string]string
	// ProjectedTokenAudiences lists audiences of projected service account tokens
	// (sts.amazonaws.com means IRSA; pods.eks.amazonaws.com means Pod Identity).
	ProjectedTokenAudiences []string
	Annotations             map[string]string
	// Tolerations of the pod template.
	Tolerations []Toleration
	// Desired and Ready are status.desiredNumberScheduled and status.numberReady.
	Desired, Ready int
}

// Kubernetes-side evidence kinds added by the live cluster collector.
const (
	KindAWSNodeServiceAccount Kind = "kube:aws-node-serviceaccount" // kubectl -n kube-system get sa aws-node
	KindKubeDNS               Kind = "kube:kube-dns"                // kubectl -n kube-system get svc kube-dns
	KindNodeRBAC              Kind = "kube:node-rbac"               // ClusterRoles/Bindings eks:node-bootstrapper, eks:node-manager
	KindWebhooks              Kind = "kube:webhooks"                // validating/mutating webhook configurations
	KindWebhookEndpoints      Kind = "kube:webhook-endpoints"       // EndpointSlices of fail-closed webhooks' services
)

// ServiceAccount is a Kubernetes ServiceAccount (its annotations carry IRSA's role ARN).
type ServiceAccount struct {
	Name        string
	Annotations map[string]string
}

// Service is a Kubernetes Service.
type Service struct {
	Name      string
	ClusterIP string
}

// NodeRBAC says which of the EKS node ClusterRoles and ClusterRoleBindings exist, by name.
type NodeRBAC struct {
	ClusterRoles        map[string]bool
	ClusterRoleBindings map[string]bool
}

// Webhook is one admission webhook.
type Webhook struct {
	Configuration string
	Name          string
	// Mutating is false for validating webhooks.
	Mutating bool
	// FailurePolicy is Fail or Ignore (Fail when unset, the API default).
	FailurePolicy string
	Rules         []WebhookRule
	// Service is "namespace/name" of the in-cluster service called, empty for a URL.
	Service string
	// ReadyEndpoints counts ready endpoints of Service; -1 when unknown.
	ReadyEndpoints int
	// EndpointsGap says why ReadyEndpoints is unknown.
	EndpointsGap string
	// NamespaceSelector is the webhook's namespaceSelector; nil matches every namespace. It
	// decides only for namespaced objects: a cluster-scoped object other than a Namespace never
	// skips the webhook (admissionregistration/v1 ValidatingWebhook.namespaceSelector).
	NamespaceSelector *LabelSelector
}

// WebhookRule is one rule of a webhook.
type WebhookRule struct {
	APIGroups, Resources, Operations []string
	// Scope is the rule's scope: "Cluster" (only cluster-scoped resources match), "Namespaced"
	// (only namespaced resources) or "*" (both); empty means "*", the API default
	// (admissionregistration/v1 Rule.scope).
	Scope string
}

// LabelSelector is a metav1.LabelSelector: every matchLabels pair and every matchExpressions
// requirement must hold.
type LabelSelector struct {
	MatchLabels      map[string]string
	MatchExpressions []LabelRequirement
}

// LabelRequirement is one matchExpressions entry: Operator In, NotIn, Exists or DoesNotExist.
type LabelRequirement struct {
	Key, Operator string
	Values        []string
}

// Toleration is a pod toleration.
type Toleration struct {
	Key, Operator, Value, Effect string
}

// KindScalingActivities are the recent Auto Scaling activities of the node groups' groups
// (autoscaling describe-scaling-activities).
const KindScalingActivities Kind = "autoscaling:scaling-activities"

// ScalingActivity is one Auto Scaling activity.
type ScalingActivity struct {
	AutoScalingGroup string
	// StatusCode is Successful, Failed, Cancelled, InProgress, …
	StatusCode    string
	StatusMessage string
	Description   string
	StartTime     time.Time
}

// KindMappingChanges are changes to the cluster's IAM-to-Kubernetes mappings: aws-auth mapRoles
// entries or access entries added or removed: a pasted Terraform plan of aws-auth, and the
// aws-auth writes of the control plane's audit log (collectors/snapshot/auditmapping.go).
const KindMappingChanges Kind = "auth:mapping-changes"

// KindControlPlaneLogs are the cluster's own control-plane logs read from CloudWatch Logs (log
// group /aws/eks/CLUSTER/cluster): authenticator events and kube-apiserver audit events about
// CSRs and aws-auth. Their lines join the node logs (KindNodeLogs) as further streams; this kind
// records whether they were read, and its gap says why not and how to turn logging on
// (https://docs.aws.amazon.com/eks/latest/userguide/control-plane-logs.html).
const KindControlPlaneLogs Kind = "logs:control-plane"

// MappingChange is one mapping added or removed.
type MappingChange struct {
	// Action is "removed", "added", or "left-out": a write whose earlier content the source
	// does not show (the first audited aws-auth write) has no mapping for the role.
	Action string
	// RoleArn is the mapped role (or user) ARN as written.
	RoleArn  string
	Username string
	Groups   []string
	// Via names the change: "terraform plan of module.eks.kubernetes_config_map.aws_auth[0]".
	Via string
	// Line is the 1-based line of the input that shows the change (0 when unknown).
	Line int
}
