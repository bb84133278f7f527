// Package layout is the one table of the evidence files eksdoctor reads: for each snapshot path
// (docs/snapshot-format.md), the AWS CLI or kubectl command that writes it, the AWS operation or
// Kubernetes read it needs, the evidence kinds it serves, and how a pasted copy of the command's
// output is recognised. The snapshot format document, the pasted-output recognisers of
// collectors/ingest and the permission tests are checked against it.
package layout

import (
	"fmt"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// Entry is one file of the snapshot layout.
type Entry struct {
	// Path is the snapshot path; "<…>" marks a per-object name ("iam/get-role/<role-name>.json").
	Path string
	// Command is the command that writes the file, as docs/snapshot-format.md shows it.
	Command string
	// Permission is the IAM action ("ec2:DescribeSubnets") or the Kubernetes read
	// ("kubernetes:nodes/list") the command needs.
	Permission string
	// Kinds are the evidence kinds the file serves.
	Kinds []evidence.Kind
	// PasteKey is the top-level JSON key of the command's output that identifies a pasted copy
	// ("Subnets"); for kubectl output, the object kind ("Node", "ConfigMap/aws-auth").
	PasteKey string
	// NameFrom is the dotted JSON path, in the command's output, of the value that fills the
	// path's "<…>" part ("Role.RoleName"); empty for fixed paths.
	NameFrom string
	// NameArg is the command-line option whose value fills the path's "<…>" part when the
	// output does not carry it ("--prefix-list-id": get-managed-prefix-list-entries prints only
	// the entries): a pasted copy is placed by the command line shown above it, and without one
	// it cannot be placed.
	NameArg string
	// Addition marks files eksdoctor added to the original layout.
	Addition bool
	// Feeds are evidence kinds whose collection needs this file first, beyond the kinds it
	// serves: the instance profile names the node role, so GetInstanceProfile is called when only
	// the role or its policies are needed.
	Feeds []evidence.Kind
	// SnapshotOnly marks a file the live collector does not fetch because another call already
	// returns its facts (GetInstanceProfile embeds the role with its trust policy): the
	// published IAM policy leaves its permission out unless another file needs it.
	SnapshotOnly bool
}

// AWS splits an AWS permission ("ec2:DescribeSubnets") into service and operation; ok is false
// for Kubernetes permissions.
func (e Entry) AWS() (service, operation string, ok bool) {
	if strings.HasPrefix(e.Permission, "kubernetes:") {
		return "", "", false
	}
	return strings.Cut(e.Permission, ":")
}

// AWSOperation is one AWS API operation of the layout with every kind its files serve or feed.
type AWSOperation struct {
	// Service is the IAM service prefix ("ec2"), Name the operation ("DescribeSubnets").
	Service, Name string
	// Kinds are the evidence kinds served or fed by the operation's files, in layout order.
	Kinds []evidence.Kind
}

// AWSOperations lists the AWS operations the live collector calls, once each, in layout order:
// the collector's operation list and the published IAM policy are this list. Entries marked
// SnapshotOnly are left out.
func AWSOperations() []AWSOperation {
	var out []AWSOperation
	index := map[string]int{}
	for _, e := range Entries {
		svc, op, ok := e.AWS()
		if !ok || e.SnapshotOnly {
			continue
		}
		i, seen := index[e.Permission]
		if !seen {
			i = len(out)
			index[e.Permission] = i
			out = append(out, AWSOperation{Service: svc, Name: op})
		}
		for _, k := range append(append([]evidence.Kind{}, e.Kinds...), e.Feeds...) {
			if !hasKind(out[i].Kinds, k) {
				out[i].Kinds = append(out[i].Kinds, k)
			}
		}
	}
	return out
}

// KubernetesPermissions lists the Kubernetes reads of the layout the live collector makes
// ("nodes/list"), once each (SnapshotOnly entries left out).
func KubernetesPermissions() []string {
	var out []string
	for _, e := range Entries {
		if p, ok := strings.CutPrefix(e.Permission, "kubernetes:"); ok && !e.SnapshotOnly && !hasString(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func hasKind(l []evidence.Kind, k evidence.Kind) bool {
	for _, x := range l {
		if x == k {
			return true
		}
	}
	return false
}

func hasString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// Entries is the snapshot layout, in the order docs/snapshot-format.md lists it.
var Entries = []Entry{
	{Path: "eks/describe-cluster.json", Command: "aws eks describe-cluster --name C", Permission: "eks:DescribeCluster", Kinds: kinds(evidence.KindCluster), PasteKey: "cluster"},
	{Path: "eks/list-access-entries.json", Command: "aws eks list-access-entries --cluster-name C", Permission: "eks:ListAccessEntries", Kinds: kinds(evidence.KindAccessEntries), PasteKey: "accessEntries"},
	{Path: "eks/describe-access-entry/<role-name>.json", Command: "aws eks describe-access-entry --cluster-name C --principal-arn ARN", Permission: "eks:DescribeAccessEntry", Kinds: kinds(evidence.KindAccessEntries), PasteKey: "accessEntry", NameFrom: "accessEntry.principalArn"},
	{Path: "eks/list-nodegroups.json", Command: "aws eks list-nodegroups --cluster-name C", Permission: "eks:ListNodegroups", Kinds: kinds(evidence.KindNodegroups), PasteKey: "nodegroups"},
	{Path: "eks/describe-nodegroup/<nodegroup>.json", Command: "aws eks describe-nodegroup --cluster-name C --nodegroup-name N", Permission: "eks:DescribeNodegroup", Kinds: kinds(evidence.KindNodegroups), PasteKey: "nodegroup", NameFrom: "nodegroup.nodegroupName"},
	{Path: "ec2/describe-instances.json", Command: "aws ec2 describe-instances --instance-ids I...", Permission: "ec2:DescribeInstances", Kinds: kinds(evidence.KindInstance), PasteKey: "Reservations"},
	{Path: "ec2/instance-user-data/<instance-id>.json", Command: "aws ec2 describe-instance-attribute --instance-id I --attribute userData", Permission: "ec2:DescribeInstanceAttribute", Kinds: kinds(evidence.KindUserData, evidence.KindBootstrap), PasteKey: "UserData", NameFrom: "InstanceId"},
	{Path: "ec2/describe-launch-template-versions/<lt-id>.json", Command: "aws ec2 describe-launch-template-versions --launch-template-id LT --versions V", Permission: "ec2:DescribeLaunchTemplateVersions", Kinds: kinds(evidence.KindLaunchTemplate, evidence.KindUserData), PasteKey: "LaunchTemplateVersions", NameFrom: "LaunchTemplateVersions.0.LaunchTemplateId"},
	{Path: "ec2/describe-images.json", Command: "aws ec2 describe-images --image-ids AMI...", Permission: "ec2:DescribeImages", Kinds: kinds(evidence.KindImage), PasteKey: "Images"},
	{Path: "ec2/describe-instance-types.json", Command: "aws ec2 describe-instance-types --instance-types T...", Permission: "ec2:DescribeInstanceTypes", Kinds: kinds(evidence.KindInstanceType), PasteKey: "InstanceTypes"},
	{Path: "ec2/describe-subnets.json", Command: "aws ec2 describe-subnets --filters Name=vpc-id,Values=VPC", Permission: "ec2:DescribeSubnets", Kinds: kinds(evidence.KindSubnets), PasteKey: "Subnets"},
	{Path: "ec2/describe-route-tables.json", Command: "aws ec2 describe-route-tables --filters Name=vpc-id,Values=VPC", Permission: "ec2:DescribeRouteTables", Kinds: kinds(evidence.KindRouteTables), PasteKey: "RouteTables"},
	{Path: "ec2/describe-security-groups.json", Command: "aws ec2 describe-security-groups --filters Name=vpc-id,Values=VPC", Permission: "ec2:DescribeSecurityGroups", Kinds: kinds(evidence.KindSecurityGroups), PasteKey: "SecurityGroups"},
	{Path: "ec2/describe-managed-prefix-lists.json", Command: "aws ec2 describe-managed-prefix-lists --prefix-list-ids PL...", Permission: "ec2:DescribeManagedPrefixLists", Kinds: kinds(evidence.KindPrefixLists), PasteKey: "PrefixLists", Addition: true},
	{Path: "ec2/get-managed-prefix-list-entries/<pl-id>.json", Command: "aws ec2 get-managed-prefix-list-entries --prefix-list-id PL", Permission: "ec2:GetManagedPrefixListEntries", Kinds: kinds(evidence.KindPrefixLists), PasteKey: "Entries", NameArg: "--prefix-list-id", Addition: true},
	{Path: "ec2/describe-network-acls.json", Command: "aws ec2 describe-network-acls --filters Name=vpc-id,Values=VPC", Permission: "ec2:DescribeNetworkAcls", Kinds: kinds(evidence.KindNetworkACLs), PasteKey: "NetworkAcls"},
	{Path: "ec2/describe-vpcs.json", Command: "aws ec2 describe-vpcs --vpc-ids VPC", Permission: "ec2:DescribeVpcs", Kinds: kinds(evidence.KindVPCs, evidence.KindDHCPOptions), PasteKey: "Vpcs"},
	{Path: "ec2/vpc-attribute/<vpc-id>.enableDnsSupport.json", Command: "aws ec2 describe-vpc-attribute --vpc-id VPC --attribute enableDnsSupport", Permission: "ec2:DescribeVpcAttribute", Kinds: kinds(evidence.KindVPCAttributes), PasteKey: "EnableDnsSupport", NameFrom: "VpcId"},
	{Path: "ec2/vpc-attribute/<vpc-id>.enableDnsHostnames.json", Command: "aws ec2 describe-vpc-attribute --vpc-id VPC --attribute enableDnsHostnames", Permission: "ec2:DescribeVpcAttribute", Kinds: kinds(evidence.KindVPCAttributes), PasteKey: "EnableDnsHostnames", NameFrom: "VpcId"},
	{Path: "ec2/describe-dhcp-options.json", Command: "aws ec2 describe-dhcp-options --dhcp-options-ids DOPT", Permission: "ec2:DescribeDhcpOptions", Kinds: kinds(evidence.KindDHCPOptions), PasteKey: "DhcpOptions"},
	{Path: "ec2/describe-vpc-endpoints.json", Command: "aws ec2 describe-vpc-endpoints --filters Name=vpc-id,Values=VPC", Permission: "ec2:DescribeVpcEndpoints", Kinds: kinds(evidence.KindVPCEndpoints), PasteKey: "VpcEndpoints"},
	{Path: "ec2/describe-nat-gateways.json", Command: "aws ec2 describe-nat-gateways --filter Name=vpc-id,Values=VPC", Permission: "ec2:DescribeNatGateways", Kinds: kinds(evidence.KindNATGateways), PasteKey: "NatGateways"},
	{Path: "ec2/describe-internet-gateways.json", Command: "aws ec2 describe-internet-gateways --filters Name=attachment.vpc-id,Values=VPC", Permission: "ec2:DescribeInternetGateways", Kinds: kinds(evidence.KindInternetGateways), PasteKey: "InternetGateways"},
	{Path: "iam/get-instance-profile/<profile>.json", Command: "aws iam get-instance-profile --instance-profile-name P", Permission: "iam:GetInstanceProfile", Kinds: kinds(evidence.KindInstanceProfile), PasteKey: "InstanceProfile", NameFrom: "InstanceProfile.InstanceProfileName", Feeds: kinds(evidence.KindNodeRole, evidence.KindNodeRolePolicies)},
	{Path: "iam/get-role/<role-name>.json", Command: "aws iam get-role --role-name R", Permission: "iam:GetRole", Kinds: kinds(evidence.KindNodeRole, evidence.KindClusterRole), PasteKey: "Role", NameFrom: "Role.RoleName"},
	{Path: "iam/list-attached-role-policies/<role-name>.json", Command: "aws iam list-attached-role-policies --role-name R", Permission: "iam:ListAttachedRolePolicies", Kinds: kinds(evidence.KindNodeRolePolicies, evidence.KindClusterRolePolicies), PasteKey: "AttachedPolicies"},
	{Path: "autoscaling/describe-auto-scaling-groups.json", Command: "aws autoscaling describe-auto-scaling-groups", Permission: "autoscaling:DescribeAutoScalingGroups", Kinds: kinds(evidence.KindAutoScaling), PasteKey: "AutoScalingGroups"},
	{Path: "autoscaling/describe-scaling-activities/<asg-name>.json", Command: "aws autoscaling describe-scaling-activities --auto-scaling-group-name G", Permission: "autoscaling:DescribeScalingActivities", Kinds: kinds(evidence.KindScalingActivities), PasteKey: "Activities", NameFrom: "Activities.0.AutoScalingGroupName"},
	{Path: "ec2/get-console-output/<instance-id>.json", Command: "aws ec2 get-console-output --instance-id I --latest", Permission: "ec2:GetConsoleOutput", Kinds: kinds(evidence.KindConsoleOutput, evidence.KindNodeLogs), PasteKey: "Output", NameFrom: "InstanceId", Addition: true},
	{Path: "eks/list-fargate-profiles.json", Command: "aws eks list-fargate-profiles --cluster-name C", Permission: "eks:ListFargateProfiles", Kinds: kinds(evidence.KindFargateProfiles), PasteKey: "fargateProfileNames"},
	{Path: "eks/describe-fargate-profile/<name>.json", Command: "aws eks describe-fargate-profile --cluster-name C --fargate-profile-name N", Permission: "eks:DescribeFargateProfile", Kinds: kinds(evidence.KindFargateProfiles), PasteKey: "fargateProfile", NameFrom: "fargateProfile.fargateProfileName"},
	{Path: "kube/pending-pods.json", Command: "kubectl get pods -A --field-selector status.phase=Pending -o json", Permission: "kubernetes:pods/list", Kinds: kinds(evidence.KindPendingPods), PasteKey: "Pod"},
	{Path: "logs/authenticator-events.json", Command: "aws logs filter-log-events --log-group-name /aws/eks/C/cluster --log-stream-name-prefix authenticator --start-time T", Permission: "logs:FilterLogEvents", Kinds: kinds(evidence.KindNodeLogs, evidence.KindControlPlaneLogs), PasteKey: "events", Addition: true},
	{Path: "logs/audit-events.json", Command: "aws logs filter-log-events --log-group-name /aws/eks/C/cluster --log-stream-name-prefix kube-apiserver-audit --start-time T24 --filter-pattern '{ ($.objectRef.resource = \"certificatesigningrequests\") || ($.objectRef.name = \"aws-auth\") }'", Permission: "logs:FilterLogEvents", Kinds: kinds(evidence.KindNodeLogs, evidence.KindControlPlaneLogs), PasteKey: "events", Addition: true},
	{Path: "cloudtrail/lookup-events/<EventName>.json", Command: "aws cloudtrail lookup-events --lookup-attributes AttributeKey=EventName,AttributeValue=E --start-time T", Permission: "cloudtrail:LookupEvents", Kinds: kinds(evidence.KindLaunchEvents, evidence.KindAccessEntryEvents), PasteKey: "Events", NameFrom: "Events.0.EventName", Addition: true},
	{Path: "kube/aws-auth.yaml", Command: "kubectl -n kube-system get configmap aws-auth -o yaml", Permission: "kubernetes:configmaps/get", Kinds: kinds(evidence.KindAWSAuth), PasteKey: "ConfigMap/aws-auth"},
	{Path: "kube/amazon-vpc-cni.yaml", Command: "kubectl -n kube-system get configmap amazon-vpc-cni -o yaml", Permission: "kubernetes:configmaps/get", Kinds: kinds(evidence.KindVPCCNIConfig), PasteKey: "ConfigMap/amazon-vpc-cni"},
	{Path: "kube/nodes.json", Command: "kubectl get nodes -o json", Permission: "kubernetes:nodes/list", Kinds: kinds(evidence.KindNodes), PasteKey: "Node"},
	{Path: "kube/csrs.json", Command: "kubectl get csr -o json", Permission: "kubernetes:certificatesigningrequests/list", Kinds: kinds(evidence.KindCSRs), PasteKey: "CertificateSigningRequest"},
	{Path: "kube/aws-node.json", Command: "kubectl -n kube-system get daemonset aws-node -o json", Permission: "kubernetes:daemonsets/get", Kinds: kinds(evidence.KindAWSNode), PasteKey: "DaemonSet/aws-node"},
	{Path: "kube/aws-node-serviceaccount.json", Command: "kubectl -n kube-system get serviceaccount aws-node -o json", Permission: "kubernetes:serviceaccounts/get", Kinds: kinds(evidence.KindAWSNodeServiceAccount), PasteKey: "ServiceAccount/aws-node", Addition: true},
	{Path: "kube/kube-dns.json", Command: "kubectl -n kube-system get service kube-dns -o json", Permission: "kubernetes:services/get", Kinds: kinds(evidence.KindKubeDNS), PasteKey: "Service/kube-dns", Addition: true},
	{Path: "kube/clusterroles/<name>.json", Command: "kubectl get clusterrole eks:node-bootstrapper|eks:node-manager -o json", Permission: "kubernetes:clusterroles/get", Kinds: kinds(evidence.KindNodeRBAC), PasteKey: "ClusterRole", NameFrom: "metadata.name", Addition: true},
	{Path: "kube/clusterrolebindings/<name>.json", Command: "kubectl get clusterrolebinding eks:node-bootstrapper|eks:node-manager -o json", Permission: "kubernetes:clusterrolebindings/get", Kinds: kinds(evidence.KindNodeRBAC), PasteKey: "ClusterRoleBinding", NameFrom: "metadata.name", Addition: true},
	{Path: "kube/validatingwebhookconfigurations.json", Command: "kubectl get validatingwebhookconfigurations -o json", Permission: "kubernetes:validatingwebhookconfigurations/list", Kinds: kinds(evidence.KindWebhooks), PasteKey: "ValidatingWebhookConfiguration", Addition: true},
	{Path: "kube/mutatingwebhookconfigurations.json", Command: "kubectl get mutatingwebhookconfigurations -o json", Permission: "kubernetes:mutatingwebhookconfigurations/list", Kinds: kinds(evidence.KindWebhooks), PasteKey: "MutatingWebhookConfiguration", Addition: true},
	{Path: "kube/endpointslices/<ns>.<service>.json", Command: "kubectl -n NS get endpointslices -l kubernetes.io/service-name=SVC -o json", Permission: "kubernetes:endpointslices/list", Kinds: kinds(evidence.KindWebhookEndpoints), PasteKey: "EndpointSlice", Addition: true},
	{Path: "kube/nodeclaims.json", Command: "kubectl get nodeclaims.karpenter.sh -o json", Permission: "kubernetes:nodeclaims/list", Kinds: kinds(evidence.KindNodeClaims), PasteKey: "NodeClaim", Addition: true},
	{Path: "kube/nodepools.json", Command: "kubectl get nodepools.karpenter.sh -o json", Permission: "kubernetes:nodepools/list", Kinds: kinds(evidence.KindNodePools), PasteKey: "NodePool", Addition: true},
	{Path: "kube/ec2nodeclasses.json", Command: "kubectl get ec2nodeclasses.karpenter.k8s.aws -o json", Permission: "kubernetes:ec2nodeclasses/list", Kinds: kinds(evidence.KindEC2NodeClasses), PasteKey: "EC2NodeClass", Addition: true},
	{Path: "kube/nodeclasses.json", Command: "kubectl get nodeclasses.eks.amazonaws.com -o json", Permission: "kubernetes:nodeclasses/list", Kinds: kinds(evidence.KindNodeClasses), PasteKey: "NodeClass", Addition: true},
}

func kinds(k ...evidence.Kind) []evidence.Kind { return k }

// ByPasteKey returns the entry whose command output is identified by key (a top-level JSON key
// of AWS CLI output, or "Kind" / "Kind/name" of a Kubernetes object).
func ByPasteKey(key string) (Entry, bool) {
	for _, e := range Entries {
		if e.PasteKey == key {
			return e, true
		}
	}
	return Entry{}, false
}

// Keyed reports whether the path has a per-object name part.
func (e Entry) Keyed() bool { return strings.Contains(e.Path, "<") }

// PathFor fills the name part of a keyed path ("iam/get-role/<role-name>.json", "NodeRole" →
// "iam/get-role/NodeRole.json"); fixed paths are returned as they are.
func (e Entry) PathFor(name string) string {
	i, j := strings.IndexByte(e.Path, '<'), strings.IndexByte(e.Path, '>')
	if i < 0 || j < i {
		return e.Path
	}
	return e.Path[:i] + name + e.Path[j+1:]
}

// Lookup returns the value at a dotted path ("Role.RoleName", "Activities.0.AutoScalingGroupName")
// of a decoded JSON document, as a string; "" when absent or not a string.
func Lookup(doc any, dotted string) string {
	s, _ := LookupAny(doc, dotted).(string)
	return s
}

// LookupAny returns the value at a dotted path of a decoded JSON document, or nil.
func LookupAny(doc any, dotted string) any {
	cur := doc
	for _, part := range strings.Split(dotted, ".") {
		switch v := cur.(type) {
		case map[string]any:
			cur = v[part]
		case []any:
			i := 0
			for _, c := range part {
				if c < '0' || c > '9' {
					return nil
				}
				i = i*10 + int(c-'0')
			}
			if i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	return cur
}

// Match returns the entry whose path matches the snapshot path p; a "<…>" part matches one
// non-empty name without a slash ("iam/get-role/NodeRole.json" matches
// "iam/get-role/<role-name>.json"). YAML spellings of kube/ files (.yaml, .yml) match their
// .json or .yaml entry.
func Match(p string) (Entry, bool) {
	for _, e := range Entries {
		if e.matches(p) {
			return e, true
		}
	}
	if strings.HasPrefix(p, "kube/") {
		base := p
		for _, ext := range []string{".json", ".yaml", ".yml"} {
			base = strings.TrimSuffix(base, ext)
		}
		for _, ext := range []string{".json", ".yaml"} {
			for _, e := range Entries {
				if e.matches(base + ext) {
					return e, true
				}
			}
		}
	}
	return Entry{}, false
}

func (e Entry) matches(p string) bool {
	i, j := strings.IndexByte(e.Path, '<'), strings.LastIndexByte(e.Path, '>')
	if i < 0 || j < i {
		return p == e.Path
	}
	pre, suf := e.Path[:i], e.Path[j+1:]
	if len(p) <= len(pre)+len(suf) || !strings.HasPrefix(p, pre) || !strings.HasSuffix(p, suf) {
		return false
	}
	return !strings.Contains(p[len(pre):len(p)-len(suf)], "/")
}

// DocTable renders the layout as docs/snapshot-format.md shows it (inside its "Layout" code
// block): one line per file, the path padded to 44 columns then the command; a longer path has
// its command on the next line; files eksdoctor added are marked "(eksdoctor addition)".
func DocTable() string {
	var b strings.Builder
	for _, e := range Entries {
		cmd := e.Command
		if e.Addition {
			cmd += "   (eksdoctor addition)"
		}
		if len(e.Path) >= 44 {
			fmt.Fprintf(&b, "%s\n%44s%s\n", e.Path, "", cmd)
		} else {
			fmt.Fprintf(&b, "%-44s%s\n", e.Path, cmd)
		}
	}
	return b.String()
}
