package checks

import (
	"fmt"
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
			Explains:    explains("iam.*", "auth.*", "windows.kube-proxy-group"),
			Why:         "The kubelet authenticates to EKS with the credentials of the instance profile's role; with no profile (or a profile without a role) the node has no IAM identity, so it cannot call DescribeCluster, pull from ECR or be mapped to a Kubernetes user.",
			Remediation: "Attach an instance profile holding the node role: aws ec2 associate-iam-instance-profile --instance-id ID --iam-instance-profile Name=PROFILE (or set IamInstanceProfile in the launch template); add a missing role with aws iam add-role-to-instance-profile --instance-profile-name PROFILE --role-name ROLE.",
			Docs:        []string{docNodeRole, docInstanceProfile}},
			Eval: func(ev *evidence.Evidence) []Finding {
				in := ev.Instance
				src := ev.Source(evidence.KindInstanceProfile)
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
			Needs: []evidence.Kind{evidence.KindNodeRole, evidence.KindNodeRolePolicies}, Optional: []evidence.Kind{evidence.KindAWSNode, evidence.KindAWSNodeServiceAccount},
			Stage: StageIdentity, Explains: explains("runtime.image-pull", "runtime.ipamd-no-ips", "runtime.cni-not-ready"),
			Why:         "AmazonEKSWorkerNodePolicy lets the node describe the cluster and itself, AmazonEC2ContainerRegistryReadOnly (or PullOnly) lets it pull the pause and add-on images, and AmazonEKS_CNI_Policy lets aws-node assign pod IPs unless aws-node has its own role (IRSA / Pod Identity); without them the node never becomes Ready.",
			Remediation: "aws iam attach-role-policy --role-name ROLE --policy-arn arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy (likewise AmazonEC2ContainerRegistryReadOnly and AmazonEKS_CNI_Policy, or give aws-node an IRSA / Pod Identity role with AmazonEKS_CNI_Policy).",
			Docs:        []string{docNodeRole, docCNIIRSA}},
			Eval: func(ev *evidence.Evidence) []Finding {
				role := ev.NodeRole
				have := map[string]bool{}
				var names []string
				for _, p := range ev.NodeRolePolicies {
					have[p.Name] = true
					names = append(names, p.Name)
				}
				src := ev.Source(evidence.KindNodeRolePolicies)
				it := item(src, "attached: %s", quoteList(names))
				var missing []string
				// EKS Auto Mode node roles take the minimal worker policy, and its networking runs
				// outside aws-node, so the CNI policy is not theirs to hold.
				autoMode := ev.Provisioner.Kind == evidence.ProvisionerAutoMode
				switch {
				case autoMode && !have[policyWorkerNode] && !have[policyWorkerMinimal]:
					missing = append(missing, policyWorkerMinimal+" (or "+policyWorkerNode+")")
				case !autoMode && !have[policyWorkerNode]:
					missing = append(missing, policyWorkerNode)
				}
				if !have[policyECRRead] && !have[policyECRPullOnly] {
					missing = append(missing, policyECRRead+" (or "+policyECRPullOnly+")")
				}
				cniMissing := !have[policyCNI] && !autoMode && !(ev.Cluster != nil && ev.Cluster.IPFamily == "ipv6" && hasIPv6CNIPolicy(names))
				cniNote := ""
				if cniMissing {
					switch {
					case !ev.Have(evidence.KindAWSNode):
						cniNote = "; " + policyCNI + " is also missing (needed unless aws-node uses IRSA or Pod Identity; the aws-node DaemonSet was not collected)"
					case awsNodeHasOwnRole(ev.AWSNode) || (ev.AWSNodeServiceAccount != nil && ev.AWSNodeServiceAccount.Annotations["eks.amazonaws.com/role-arn"] != ""):
						cniMissing = false
					default:
						missing = append(missing, policyCNI+" (aws-node has no IRSA / Pod Identity role)")
					}
				}
				if len(missing) > 0 {
					return one(fail(role.Arn, fmt.Sprintf("node role %s lacks %s%s", role.Name, strings.Join(missing, ", "), cniNote), it))
				}
				if cniNote != "" {
					return one(warn(role.Arn, fmt.Sprintf("node role %s has the worker and ECR policies%s", role.Name, cniNote), it))
				}
				return one(pass(role.Arn, fmt.Sprintf("node role %s has the required managed policies", role.Name), it))
			}},
		{Meta: Meta{ID: "iam.node-role-trust", Title: "Node role cannot be assumed by EC2", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindNodeRole}, Stage: StageIdentity, Explains: explains("auth.*"),
			Why:         "The instance gets its role's credentials only if the role's trust policy lets the service principal ec2.amazonaws.com call sts:AssumeRole; otherwise IMDS serves no credentials and nothing on the node can authenticate.",
			Remediation: "aws iam update-assume-role-policy --role-name ROLE --policy-document '{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"ec2.amazonaws.com\"},\"Action\":\"sts:AssumeRole\"}]}'",
			Docs:        []string{docNodeRole, "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_principal.html"}},
			Eval: func(ev *evidence.Evidence) []Finding {
				role := ev.NodeRole
				src := ev.Source(evidence.KindNodeRole)
				if role.TrustPolicy == nil {
					return one(Finding{Status: StatusSkipped, Resource: role.Arn, Message: "the role's AssumeRolePolicyDocument was not in the evidence"})
				}
				allowed, denied := false, false
				for _, st := range role.TrustPolicy.Statement {
					if !actionMatches(st.Action, "sts:AssumeRole") || !principalHasService(st.Principal, "ec2.amazonaws.com") {
						continue
					}
					if strings.EqualFold(st.Effect, "Deny") && !st.HasCondition {
						denied = true
					}
					if strings.EqualFold(st.Effect, "Allow") {
						allowed = true
					}
				}
				it := item(src, "AssumeRolePolicyDocument has %s", nOf(len(role.TrustPolicy.Statement), "statement", "statements"))
				switch {
				case denied:
					return one(fail(role.Arn, fmt.Sprintf("trust policy of %s denies sts:AssumeRole to ec2.amazonaws.com", role.Name), it))
				case !allowed:
					return one(fail(role.Arn, fmt.Sprintf("trust policy of %s does not allow ec2.amazonaws.com to assume it", role.Name), it))
				}
				return one(pass(role.Arn, fmt.Sprintf("ec2.amazonaws.com may assume %s", role.Name), it))
			}},
	}
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
		u := strings.ToUpper(n)
		if strings.Contains(u, "CNI") && strings.Contains(u, "IPV6") {
			return true
		}
	}
	return false
}
