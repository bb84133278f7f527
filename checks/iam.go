package checks

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docNodeRole        = "https://docs.aws.amazon.com/eks/latest/userguide/create-node-role.html"
	docCNIIRSA         = "https://docs.aws.amazon.com/eks/latest/userguide/cni-iam-role.html"
	docInstanceProfile = "https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_use_switch-role-ec2_instance-profiles.html"
)

// joinSymptoms are findings that any root cause of a failed join produces downstream.
var joinSymptoms = []string{"nodegroup.health-issues", "csr.pending", "karpenter.nodeclaim-not-registered"}

func explains(ids ...string) []string { return append(append([]string{}, ids...), joinSymptoms...) }

// Managed policies a node role needs (https://docs.aws.amazon.com/eks/latest/userguide/create-node-role.html).
const (
	policyWorkerNode = "AmazonEKSWorkerNodePolicy"
	// policyWorkerMinimal is what EKS Auto Mode node roles hold instead of AmazonEKSWorkerNodePolicy.
	policyWorkerMinimal = "AmazonEKSWorkerNodeMinimalPolicy"
	policyECRRead       = "AmazonEC2ContainerRegistryReadOnly"
	policyECRPullOnly   = "AmazonEC2ContainerRegistryPullOnly"
	policyCNI           = "AmazonEKS_CNI_Policy"
)

func iamChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "iam.no-instance-profile", Title: "Instance has no instance profile or the profile has no role", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindInstance, evidence.KindInstanceProfile}, Stage: StageIdentity,
			// not iam.node-role-trust: that check fails only for a known node role, whose profile
			// then exists; the node's "Unable to locate credentials" read as no profile is what a
			// role EC2 cannot assume gives, so trust explains it (node-role-trust's Explains)
			Explains:    explains("iam.node-role-policies", "iam.cluster-role", "auth.*", "windows.kube-proxy-group"),
			Why:         "The kubelet authenticates to EKS with the credentials of the instance profile's role; with no profile (or a profile without a role) the node has no IAM identity, so it cannot call DescribeCluster, pull from ECR or be mapped to a Kubernetes user.",
			Remediation: "Attach an instance profile holding the node role: aws ec2 associate-iam-instance-profile --instance-id ID --iam-instance-profile Name=PROFILE (or set IamInstanceProfile in the launch template); add a missing role with aws iam add-role-to-instance-profile --instance-profile-name PROFILE --role-name ROLE.",
			Docs:        []string{docNodeRole, docInstanceProfile}},
			Eval: func(ev *evidence.Evidence) []Finding {
				in := ev.Instance
				src := ev.Source(evidence.KindInstanceProfile)
				if in.InstanceProfileArn == "" && (in.State == "terminated" || in.State == "shutting-down") {
					// EC2 drops a terminated instance's IamInstanceProfile from its description (as its
					// network interfaces): the absence says nothing of how it was launched
					return one(notApplicable(in.ID, fmt.Sprintf("instance %s is %s: its description no longer shows an instance profile", in.ID, in.State)))
				}
				if in.InstanceProfileArn == "" {
					return one(fail(in.ID, fmt.Sprintf("instance %s has no IAM instance profile", in.ID), item(ev.Source(evidence.KindInstance), "IamInstanceProfile is absent")))
				}
				ip := ev.InstanceProfile
				if ip == nil || len(ip.Roles) == 0 {
					return one(fail(in.InstanceProfileArn, fmt.Sprintf("instance profile %s has no role (or no longer exists)", in.InstanceProfileArn), item(src, "Roles is empty")))
				}
				return one(pass(ip.Arn, fmt.Sprintf("instance profile %s holds role %s", ip.Name, ip.Roles[0].Name), item(src, "role %s", ip.Roles[0].Arn)))
			}},
		{Meta: Meta{ID: "iam.node-role-policies", Title: "Node role lacks required managed policies", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindNodeRole, evidence.KindNodeRolePolicies}, Optional: []evidence.Kind{evidence.KindAWSNode, evidence.KindAWSNodeServiceAccount, evidence.KindBootstrap, evidence.KindImage, evidence.KindNodegroups, evidence.KindNodeLogs},
			Stage: StageIdentity, Explains: explains("runtime.image-pull", "runtime.ipamd-no-ips", "runtime.cni-not-ready"),
			Why:         "AmazonEKSWorkerNodePolicy lets the node describe the cluster and itself, AmazonEC2ContainerRegistryReadOnly (or PullOnly) lets it pull the pause and add-on images, and AmazonEKS_CNI_Policy lets aws-node assign pod IPs unless aws-node has its own role (IRSA / Pod Identity); without them the node never becomes Ready. AmazonEKSWorkerNodeMinimalPolicy is enough instead for EKS Auto Mode and for a nodeadm node with featureGates.InstanceIdNodeName, which does not call ec2:DescribeInstances. Policy documents are not read: customer-managed policies and a permissions boundary (which caps what the policies grant) leave the check unverified.",
			Remediation: "Attach each missing policy: aws iam attach-role-policy --role-name ROLE --policy-arn arn:aws:iam::aws:policy/POLICY (the finding names the ones missing; for AmazonEKS_CNI_Policy, giving aws-node an IRSA / Pod Identity role with it does as well).",
			Docs:        []string{docNodeRole, docCNIIRSA, "https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/doc/examples.md#using-instance-id-as-node-name", "https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_boundaries.html"}},
			Eval: evalNodeRolePolicies},
		{Meta: Meta{ID: "iam.node-role-trust", Title: "Node role cannot be assumed by EC2", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindNodeRole}, Stage: StageIdentity, Explains: explains("auth.*", "iam.no-instance-profile"),
			Why:         "The instance gets its role's credentials only if the role's trust policy lets the service principal ec2.amazonaws.com call sts:AssumeRole, under a Condition (if any) that EC2 satisfies — aws:SourceAccount of another account or aws:SourceArn of a non-EC2 resource never does; otherwise IMDS serves no credentials and nothing on the node can authenticate.",
			Remediation: "aws iam update-assume-role-policy --role-name ROLE --policy-document '{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"ec2.amazonaws.com\"},\"Action\":\"sts:AssumeRole\"}]}'",
			Docs:        []string{docNodeRole, "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_principal.html", "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition.html"}},
			Eval: func(ev *evidence.Evidence) []Finding {
				role := ev.NodeRole
				src := ev.Source(evidence.KindNodeRole)
				if role.TrustPolicy == nil {
					return one(Finding{Status: StatusSkipped, Resource: roleResource(role), Message: "the role's AssumeRolePolicyDocument was not in the evidence"})
				}
				allowed, denied := false, false
				var never, unknown []string
				account := arnAccount(role.Arn)
				for _, st := range role.TrustPolicy.Statement {
					if !actionMatches(st.Action, "sts:AssumeRole") || !principalHasService(st.Principal, "ec2.amazonaws.com") {
						continue
					}
					if strings.EqualFold(st.Effect, "Deny") && !st.HasCondition {
						denied = true
					}
					if strings.EqualFold(st.Effect, "Allow") {
						switch v, what := ec2TrustConditions(st, account); v {
						case conditionMet:
							allowed = true
						case conditionNever:
							never = append(never, what)
						default:
							unknown = append(unknown, what)
						}
					}
				}
				it := item(src, "AssumeRolePolicyDocument has %s", nOf(len(role.TrustPolicy.Statement), "statement", "statements"))
				switch {
				case denied:
					return one(fail(roleResource(role), fmt.Sprintf("trust policy of %s denies sts:AssumeRole to ec2.amazonaws.com", role.Name), it))
				case allowed:
					return one(pass(roleResource(role), fmt.Sprintf("ec2.amazonaws.com may assume %s", role.Name), it))
				case len(unknown) > 0:
					return one(warn(roleResource(role), fmt.Sprintf("trust policy of %s allows ec2.amazonaws.com only under a condition: whether EC2 satisfies %s cannot be evaluated from the evidence", role.Name, strings.Join(unknown, "; ")), it))
				case len(never) > 0:
					return one(fail(roleResource(role), fmt.Sprintf("trust policy of %s allows ec2.amazonaws.com only with a condition EC2 never satisfies for this instance: %s", role.Name, strings.Join(never, "; ")), it))
				}
				return one(fail(roleResource(role), fmt.Sprintf("trust policy of %s does not allow ec2.amazonaws.com to assume it", role.Name), it))
			}},
	}
}

// conditionVerdict says whether a statement's Condition holds when EC2 assumes an instance's role.
type conditionVerdict int

const (
	// conditionMet: the statement has no condition, or every one is known to hold.
	conditionMet conditionVerdict = iota
	// conditionNever: a condition can never hold for this instance, so the statement never applies.
	conditionNever
	// conditionUnknown: a condition cannot be evaluated from the evidence.
	conditionUnknown
)

// ec2TrustConditions judges the Condition of an Allow statement of a node role's trust policy for
// EC2 assuming the role of an instance in account. IAM applies a statement only when every
// condition matches, and a key absent from the request context fails every operator but the
// negated and …IfExists ones
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition.html).
// Judged: aws:SourceAccount with StringEquals / StringLike (and their IgnoreCase form), which holds
// only for the instance's own account; aws:SourceArn with ArnEquals / ArnLike / StringEquals /
// StringLike whose every value names a service other than ec2 (EC2 is the source when it assumes
// an instance's role, so such an ARN never matches, present or absent). Every other condition,
// and a block that was not read, is unknown. It returns the verdict and, when not met, the
// condition at fault as "Operator key values".
func ec2TrustConditions(st evidence.PolicyStatement, account string) (conditionVerdict, string) {
	if !st.HasCondition {
		return conditionMet, ""
	}
	if len(st.Conditions) == 0 {
		return conditionUnknown, "its Condition block (it was not read)"
	}
	var unknown string
	for _, c := range st.Conditions {
		what := c.Operator + " " + c.Key + " " + strings.Join(c.Values, ", ")
		key := strings.ToLower(c.Key)
		switch {
		case key == "aws:sourceaccount" && (c.Operator == "StringEquals" || c.Operator == "StringLike" || c.Operator == "StringEqualsIgnoreCase"):
			if account == "" {
				unknown = what
				continue
			}
			match := false
			for _, v := range c.Values {
				if v == account || c.Operator == "StringLike" && globMatch(v, account) {
					match = true
				}
			}
			if !match {
				return conditionNever, what + " (the instance's account is " + account + ")"
			}
		case key == "aws:sourcearn" && (c.Operator == "ArnEquals" || c.Operator == "ArnLike" || c.Operator == "StringEquals" || c.Operator == "StringLike"):
			services := map[string]bool{}
			for _, v := range c.Values {
				p := strings.SplitN(v, ":", 4)
				if len(p) < 4 || p[0] != "arn" || p[2] == "" || strings.ContainsAny(p[2], "*?") || strings.EqualFold(p[2], "ec2") {
					services = nil
					break
				}
				services[strings.ToLower(p[2])] = true
			}
			if len(services) == 0 {
				unknown = what
				continue
			}
			names := make([]string, 0, len(services))
			for s := range services {
				names = append(names, s)
			}
			sort.Strings(names)
			return conditionNever, what + " (EC2 is the source when it assumes an instance's role, never an " + strings.Join(names, " or ") + " resource)"
		default:
			unknown = what
		}
	}
	if unknown != "" {
		return conditionUnknown, unknown
	}
	return conditionMet, ""
}

// arnAccount returns the account field of an ARN (arn:partition:service:region:account:…), or "".
func arnAccount(arn string) string {
	p := strings.SplitN(arn, ":", 6)
	if len(p) < 6 || p[0] != "arn" {
		return ""
	}
	return p[4]
}

// globMatch matches s against an IAM StringLike pattern: * any run of characters, ? one.
func globMatch(pattern, s string) bool {
	if pattern == "" {
		return s == ""
	}
	switch pattern[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if globMatch(pattern[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && globMatch(pattern[1:], s[1:])
	}
	return s != "" && s[0] == pattern[0] && globMatch(pattern[1:], s[1:])
}

func actionMatches(actions []string, want string) bool {
	for _, a := range actions {
		a = strings.ToLower(a)
		if a == "*" || a == "sts:*" || a == strings.ToLower(want) {
			return true
		}
	}
	return false
}

func principalHasService(p map[string][]string, svc string) bool {
	if v, ok := p["*"]; ok && hasString(v, "*") {
		return true
	}
	for _, s := range p["Service"] {
		if strings.EqualFold(s, svc) {
			return true
		}
	}
	return false
}

// awsNodeHasOwnRole reports whether the aws-node DaemonSet gets AWS credentials of its own:
// IRSA (AWS_ROLE_ARN env / sts.amazonaws.com projected token) or Pod Identity
// (pods.eks.amazonaws.com token / AWS_CONTAINER_CREDENTIALS_FULL_URI).
func awsNodeHasOwnRole(ds *evidence.DaemonSet) bool {
	if ds == nil {
		return false
	}
	if ds.Env["AWS_ROLE_ARN"] != "" || ds.Env["AWS_CONTAINER_CREDENTIALS_FULL_URI"] != "" {
		return true
	}
	for _, a := range ds.ProjectedTokenAudiences {
		if a == "sts.amazonaws.com" || a == "pods.eks.amazonaws.com" {
			return true
		}
	}
	return ds.Annotations["eks.amazonaws.com/role-arn"] != ""
}

// hasIPv6CNIPolicy reports whether names hold the customer-managed policy the EKS IPv6 guide has
// one create for the VPC CNI in place of AmazonEKS_CNI_Policy (AmazonEKS_CNI_IPv6_Policy: its
// name holds CNI and IPv6). https://docs.aws.amazon.com/eks/latest/userguide/cni-iam-role.html#cni-iam-role-create-ipv6-policy
func hasIPv6CNIPolicy(names []string) bool {
	for _, n := range names {
		if isIPv6CNIPolicy(n) {
			return true
		}
	}
	return false
}

// isIPv6CNIPolicy reports whether a policy's name holds CNI and IPv6 (see hasIPv6CNIPolicy).
func isIPv6CNIPolicy(name string) bool {
	u := strings.ToUpper(name)
	return strings.Contains(u, "CNI") && strings.Contains(u, "IPV6")
}

func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}

// awsManagedPolicyRe matches the ARN of an AWS-managed policy in any partition
// (arn:aws:iam::aws:policy/…, arn:aws-cn:…, arn:aws-us-gov:…): the account field is "aws".
// https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_managed-vs-inline.html#aws-managed-policies
var awsManagedPolicyRe = regexp.MustCompile(`^arn:aws[a-z-]*:iam::aws:policy/`)

// nodePolicyNeed is one set of permissions a node role needs, and the AWS-managed policies
// (by name) known to grant all of it.
type nodePolicyNeed struct {
	// label names the need as the finding says it ("AmazonEKSWorkerNodePolicy").
	label string
	// attach is the AWS-managed policy the fix attaches.
	attach string
	// by lists the AWS-managed policies granting the need: the policy itself, its alternatives
	// and the broad AWS-managed policies that hold its actions (AdministratorAccess "*";
	// PowerUserAccess every action but iam:*, organizations:* and account:*; the ECR power
	// user and full access policies hold the pull actions; AmazonEC2FullAccess holds ec2:*,
	// which is all AmazonEKS_CNI_Policy grants). https://docs.aws.amazon.com/aws-managed-policy/latest/reference/
	by []string
}

// broadPolicies are AWS-managed policies that grant every action a node role needs.
var broadPolicies = []string{"AdministratorAccess", "PowerUserAccess"}

// evalNodeRolePolicies judges iam.node-role-policies. A required AWS-managed policy absent from
// the role is a cause (fail) only when nothing eksdoctor did not read could grant the same
// permissions: eksdoctor reads the names of the attached managed policies, never a policy
// document, and never lists EKS Pod Identity associations. So a role that also holds customer-
// managed policies, or a CNI policy aws-node could get from a Pod Identity association, is
// unverified (warn, naming what was not read), and so is a role with a permissions boundary
// (Role.PermissionsBoundary), which caps what its policies grant. The remediation names only
// what is missing.
func evalNodeRolePolicies(ev *evidence.Evidence) []Finding {
	role := ev.NodeRole
	have := map[string]bool{}
	var names, unread []string
	for _, p := range ev.NodeRolePolicies {
		names = append(names, p.Name)
		switch {
		case p.Arn != "" && awsManagedPolicyRe.MatchString(p.Arn):
			have[p.Arn[strings.LastIndex(p.Arn, "/")+1:]] = true
		case isIPv6CNIPolicy(p.Name):
			// named for the VPC CNI's IPv6 permissions (the EKS IPv6 guide's customer-managed policy)
			have[p.Name] = true
		case p.Arn == "" && knownAWSPolicyName(p.Name):
			have[p.Name] = true // a listing without ARNs: the AWS-managed names are known
		default:
			unread = append(unread, p.Name)
		}
	}
	it := item(ev.Source(evidence.KindNodeRolePolicies), "attached: %s", quoteList(names))
	// EKS Auto Mode node roles take the minimal worker policy, and its networking runs
	// outside aws-node, so the CNI policy is not theirs to hold.
	autoMode := ev.Provisioner.Kind == evidence.ProvisionerAutoMode
	worker := nodePolicyNeed{label: policyWorkerNode, attach: policyWorkerNode, by: append([]string{policyWorkerNode}, broadPolicies...)}
	if autoMode {
		worker = nodePolicyNeed{label: policyWorkerMinimal + " (or " + policyWorkerNode + ")", attach: policyWorkerMinimal,
			by: append([]string{policyWorkerMinimal, policyWorkerNode}, broadPolicies...)}
	}
	// AmazonEKSWorkerNodeMinimalPolicy grants only eks-auth:AssumeRoleForPodIdentity. A nodeadm
	// node whose featureGates.InstanceIdNodeName is on names its Node after its instance ID and
	// does not call ec2:DescribeInstances (amazon-eks-ami nodeadm/internal/api/status.go; "The
	// ec2:DescribeInstances permission can be removed", nodeadm/doc/examples.md), and its
	// NodeConfig carries the endpoint and CA, so nothing on its join path needs the broad policy.
	minimalNote, minimalUnknown := "", ""
	if !autoMode && have[policyWorkerMinimal] && !anyOf(have, worker.by) {
		fam, _ := amiFamily(ev)
		named, how := instanceIDNodeName(ev)
		nodeadm := ev.Bootstrap == nil || ev.Bootstrap.Format != evidence.FormatBottlerocket
		switch {
		case named == nameByInstanceID && nodeadm:
			worker.by = append(worker.by, policyWorkerMinimal)
			minimalNote = " (" + policyWorkerMinimal + " suffices: with " + how + " nodeadm does not call ec2:DescribeInstances)"
		case named == nameUnknown && nodeadm && (fam == FamilyAL2023 || fam == FamilyUnknown):
			worker.by = append(worker.by, policyWorkerMinimal)
			minimalUnknown = fmt.Sprintf("node role %s has %s, not %s: enough only for a node that names itself after its instance ID (nodeadm featureGates.InstanceIdNodeName); %s, so whether this node does cannot be told — otherwise nodeadm's ec2:DescribeInstances call for the node name is denied",
				role.Name, policyWorkerMinimal, policyWorkerNode, how)
		case fam == FamilyAL2023 || nodeadm && ev.Bootstrap != nil && ev.Bootstrap.Format == evidence.FormatNodeConfig:
			worker.label += " (" + policyWorkerMinimal + " lacks ec2:DescribeInstances, which nodeadm calls for the node name unless featureGates.InstanceIdNodeName is on)"
		default:
			worker.label += " (" + policyWorkerMinimal + " grants only eks-auth:AssumeRoleForPodIdentity)"
		}
	}
	needs := []nodePolicyNeed{worker, {label: policyECRRead + " (or " + policyECRPullOnly + ")", attach: policyECRRead,
		by: append([]string{policyECRRead, policyECRPullOnly, "AmazonEC2ContainerRegistryPowerUser", "AmazonEC2ContainerRegistryFullAccess"}, broadPolicies...)}}
	var missing []nodePolicyNeed
	for _, n := range needs {
		if !anyOf(have, n.by) {
			missing = append(missing, n)
		}
	}
	ipv6CNI := ev.Cluster != nil && ev.Cluster.IPFamily == "ipv6" && hasIPv6CNIPolicy(names)
	cniMissing := !autoMode && !ipv6CNI && !anyOf(have, append([]string{policyCNI, "AmazonEC2FullAccess"}, broadPolicies...))
	cniNote := ""
	var cniProof []EvidenceItem // what shows that aws-node runs with the node role
	if cniMissing {
		caller, denied, deniedAt := ipamdDeniedAsRole(ev, role)
		switch {
		case ev.Have(evidence.KindAWSNode) && (awsNodeHasOwnRole(ev.AWSNode) || (ev.AWSNodeServiceAccount != nil && ev.AWSNodeServiceAccount.Annotations["eks.amazonaws.com/role-arn"] != "")):
			cniMissing = false
		case denied != nil:
			// IPAMD's EC2 calls are made with whatever credentials aws-node has: a denial whose
			// caller is the node role's session shows those credentials are the node role's
			cniProof = append(cniProof, hitItem(deniedAt, *denied))
			needs = append(needs, nodePolicyNeed{label: fmt.Sprintf("%s (IPAMD's EC2 calls are denied to %s, the node role's own session: aws-node runs with the node role, not an IRSA or Pod Identity role)", policyCNI, caller),
				attach: policyCNI})
			missing = append(missing, needs[len(needs)-1])
		case !ev.Have(evidence.KindAWSNode):
			cniNote = policyCNI + " is not attached either (needed unless aws-node uses IRSA or Pod Identity; the aws-node DaemonSet was not collected)"
		default:
			cniNote = policyCNI + " is not attached and aws-node has no IRSA role; whether an EKS Pod Identity association gives aws-node its own role is unverified (associations are not read: aws eks list-pod-identity-associations)"
		}
	}
	var labels []string
	for _, n := range missing {
		labels = append(labels, n.label)
	}
	// a permissions boundary caps what the attached policies grant; its document is not read,
	// so a role that holds every needed policy is unverified, not fine (a policy missing stays
	// a cause: a boundary only takes away)
	boundary := role.PermissionsBoundary
	boundaryNote := ""
	if boundary != "" {
		boundaryNote = "; its permissions boundary " + boundary + " is not read either"
	}
	cniOpen := cniMissing && len(cniProof) == 0 // the CNI policy missing, and whether aws-node needs it unknown
	if len(unread) > 0 && (len(missing) > 0 || cniMissing) {
		gap := append([]string{}, labels...)
		if cniOpen {
			gap = append(gap, policyCNI)
		}
		f := warn(roleResource(role), fmt.Sprintf("node role %s has no AWS-managed %s; whether its customer-managed %s %s %s the same permissions is unverified (policy documents and inline policies are not read)",
			role.Name, strings.Join(gap, ", "), pick(len(unread) == 1, "policy", "policies"), quoteList(unread), pick(len(unread) == 1, "grants", "grant")), append([]EvidenceItem{it}, cniProof...)...)
		if cniOpen {
			f.Message += "; aws-node may also have its own role (IRSA or Pod Identity) for " + policyCNI
		}
		f.Message += boundaryNote
		f.Remediation = fmt.Sprintf("Read what %s grant (aws iam get-policy-version --policy-arn ARN --version-id DEFAULT_VERSION); if they lack the permissions of %s, %s",
			quoteList(unread), strings.Join(gap, ", "), attachFix(role, append(missing, cniNeedIf(cniOpen)...)))
		return one(f)
	}
	if len(missing) > 0 {
		msg := fmt.Sprintf("node role %s lacks %s", role.Name, strings.Join(labels, ", "))
		fix := attachFix(role, missing)
		if cniNote != "" {
			msg += "; " + cniNote
			fix += fmt.Sprintf(" Unless aws-node has its own role, also: %s", attachFix(role, cniNeedIf(true)))
		}
		f := fail(roleResource(role), msg, append([]EvidenceItem{it}, cniProof...)...)
		f.Remediation = fix
		return one(f)
	}
	if minimalUnknown != "" {
		msg := minimalUnknown
		if cniNote != "" {
			msg += "; " + cniNote
		}
		f := warn(roleResource(role), msg+boundaryNote, it)
		f.Remediation = "Unless the node's NodeConfig sets featureGates.InstanceIdNodeName: true, " + attachFix(role, []nodePolicyNeed{{label: policyWorkerNode, attach: policyWorkerNode}})
		return one(f)
	}
	if cniNote != "" {
		f := warn(roleResource(role), fmt.Sprintf("node role %s has the worker and ECR policies; %s%s", role.Name, cniNote, boundaryNote), it)
		f.Remediation = "Check for an association: aws eks list-pod-identity-associations --cluster-name CLUSTER --namespace kube-system --service-account aws-node; if there is none and aws-node has no IRSA role, " + attachFix(role, cniNeedIf(true))
		return one(f)
	}
	if boundary != "" {
		f := warn(roleResource(role), fmt.Sprintf("node role %s has the required managed policies%s, but its permissions boundary %s caps what they grant and its document is not read: whether it allows what the node needs is unverified", role.Name, minimalNote, boundary),
			it, item(ev.Source(evidence.KindNodeRole), "PermissionsBoundary %s", boundary))
		f.Remediation = fmt.Sprintf("Read the boundary (aws iam get-policy --policy-arn %s, then aws iam get-policy-version --policy-arn %s --version-id DEFAULT_VERSION) and check that it allows what the attached policies grant the node (ec2:DescribeInstances, ecr:GetAuthorizationToken and the image pull actions, the VPC CNI's ec2 actions); or remove it: aws iam delete-role-permissions-boundary --role-name %s.", boundary, boundary, role.Name)
		return one(f)
	}
	return one(pass(roleResource(role), fmt.Sprintf("node role %s has the required managed policies%s", role.Name, minimalNote), it))
}

// cniNeedIf returns the CNI policy need when on is true, else nothing.
func cniNeedIf(on bool) []nodePolicyNeed {
	if !on {
		return nil
	}
	return []nodePolicyNeed{{label: policyCNI, attach: policyCNI}}
}

// attachFix is the attach-role-policy command for each need, in the role's partition.
func attachFix(role *evidence.Role, needs []nodePolicyNeed) string {
	partition := "aws"
	if p := strings.Split(role.Arn, ":"); len(p) > 1 && strings.HasPrefix(p[1], "aws") {
		partition = p[1]
	}
	var cmds []string
	for _, n := range needs {
		cmds = append(cmds, fmt.Sprintf("aws iam attach-role-policy --role-name %s --policy-arn arn:%s:iam::aws:policy/%s", role.Name, partition, n.attach))
	}
	return strings.Join(cmds, "; ") + "."
}

func anyOf(have map[string]bool, names []string) bool {
	for _, n := range names {
		if have[n] {
			return true
		}
	}
	return false
}

// knownAWSPolicyName reports whether name is one of the AWS-managed policies this check knows,
// for listings that give names without ARNs.
func knownAWSPolicyName(name string) bool {
	switch name {
	case policyWorkerNode, policyWorkerMinimal, policyECRRead, policyECRPullOnly, policyCNI,
		"AmazonEC2ContainerRegistryPowerUser", "AmazonEC2ContainerRegistryFullAccess", "AmazonEC2FullAccess",
		"AdministratorAccess", "PowerUserAccess", "AmazonSSMManagedInstanceCore", "CloudWatchAgentServerPolicy", "AmazonEBSCSIDriverPolicy":
		return true
	}
	return false
}

// roleResource names a role in a finding: its ARN, or its name when the evidence gave only the
// name (a pasted list-attached-role-policies --role-name with nothing that gives the ARN).
func roleResource(r *evidence.Role) string {
	if r.Arn != "" {
		return r.Arn
	}
	return r.Name
}

// ipamdDeniedAsRole finds an IPAMD EC2 denial (a failing runtime.ipamd-no-ips line of the
// vpc-cni component) whose caller, as the line names it ("User: arn:aws:sts::ACCOUNT:assumed-role/
// NAME/SESSION is not authorized to perform: ec2:…", the roleArn fact), is a session of role: the
// node role by its ARN (account and name; the session ARN drops the role's path) or, when only
// its name is known, by name (IAM role names are unique in an account and compared without case).
// It returns the caller's ARN, the hit and the logs' source; a nil hit when no such line was read.
// A denial naming another role (aws-node's IRSA or Pod Identity role) is not the node role's.
func ipamdDeniedAsRole(ev *evidence.Evidence, role *evidence.Role) (string, *evidence.SignatureHit, string) {
	if ev.NodeLogs == nil || role == nil {
		return "", nil, ""
	}
	want, byArn := canonicalRoleArn(role.Arn)
	for i := range ev.NodeLogs.Hits {
		h := &ev.NodeLogs.Hits[i]
		if h.Normal || h.Component != "vpc-cni" || h.Finding != "runtime.ipamd-no-ips" {
			continue
		}
		for _, a := range h.Facts["roleArn"] {
			if !strings.Contains(a, ":assumed-role/") {
				continue
			}
			got, ok := canonicalRoleArn(sessionRole(a))
			if !ok {
				continue
			}
			switch {
			case byArn && got == want:
			case !byArn && role.Name != "" && strings.EqualFold(got[strings.LastIndex(got, "/")+1:], role.Name):
			default:
				continue
			}
			return a, h, ev.Source(evidence.KindNodeLogs)
		}
	}
	return "", nil, ""
}
