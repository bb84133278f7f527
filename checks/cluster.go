package checks

import (
	"fmt"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docEKSTroubleshoot   = "https://docs.aws.amazon.com/eks/latest/userguide/troubleshooting.html"
	docClusterAPI        = "https://docs.aws.amazon.com/eks/latest/APIReference/API_Cluster.html"
	docClusterIssue      = "https://docs.aws.amazon.com/eks/latest/APIReference/API_ClusterIssue.html"
	docVersionSkew       = "https://kubernetes.io/releases/version-skew-policy/"
	docEKSVersions       = "https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html"
	docAMIDeprecation    = "https://docs.aws.amazon.com/eks/latest/userguide/eks-ami-deprecation-faqs.html"
	docNodegroupIssue    = "https://docs.aws.amazon.com/eks/latest/APIReference/API_Issue.html"
	docManagedNodeGroups = "https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html"
)

func clusterChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "cluster.not-active", Title: "Cluster is not ACTIVE", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCluster}, Stage: StageCluster, Explains: []string{"*"},
			Why:         "Nodes register with the cluster's API server; while the cluster is CREATING, DELETING, FAILED or PENDING there is no API server to register with, and bootstrap.sh waits on 'aws eks wait cluster-active'.",
			Remediation: "Wait for the cluster to become ACTIVE (aws eks wait cluster-active --name CLUSTER); for FAILED, read 'aws eks describe-cluster --name CLUSTER --query cluster.health' and recreate the cluster.",
			Docs:        []string{docClusterAPI, docEKSTroubleshoot}},
			Eval: func(ev *evidence.Evidence) []Finding {
				c := ev.Cluster
				it := item(ev.Source(evidence.KindCluster), "cluster %s status %s", c.Name, c.Status)
				if c.Status == "ACTIVE" || c.Status == "UPDATING" {
					return one(pass(c.Arn, fmt.Sprintf("cluster %s is %s", c.Name, c.Status), it))
				}
				return one(fail(c.Arn, fmt.Sprintf("cluster %s is %s, not ACTIVE", c.Name, c.Status), it))
			}},
		{Meta: Meta{ID: "cluster.updating", Title: "Cluster update in progress", Severity: SeverityMedium,
			Needs: []evidence.Kind{evidence.KindCluster}, Stage: StageCluster,
			Why:         "While a cluster update runs (version, endpoint access, logging), the control plane endpoints can be replaced and joins can stall or time out until it finishes.",
			Remediation: "Wait for the update to finish (aws eks list-updates --name CLUSTER; aws eks describe-update --name CLUSTER --update-id ID), then replace nodes that failed to join.",
			Docs:        []string{docClusterAPI, "https://docs.aws.amazon.com/eks/latest/userguide/update-cluster.html"}},
			Eval: func(ev *evidence.Evidence) []Finding {
				c := ev.Cluster
				it := item(ev.Source(evidence.KindCluster), "cluster %s status %s", c.Name, c.Status)
				if c.Status == "UPDATING" {
					return one(warn(c.Arn, fmt.Sprintf("cluster %s is UPDATING", c.Name), it))
				}
				return one(pass(c.Arn, fmt.Sprintf("no update in progress (status %s)", c.Status), it))
			}},
		{Meta: Meta{ID: "cluster.health-issues", Title: "Cluster reports health issues", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCluster}, Stage: StageCluster,
			Explains:    []string{"nodegroup.health-issues", "csr.*", "auth.role-not-mapped"},
			Why:         "DescribeCluster health issues (Ec2SubnetNotFound, Ec2SecurityGroupNotFound, IamRoleNotFound, InsufficientFreeAddresses, StsRegionalEndpointDisabled, KMS key problems) mean the control plane cannot manage its network interfaces or authenticate callers, which breaks node registration.",
			Remediation: "Fix each issue named in 'aws eks describe-cluster --name CLUSTER --query cluster.health.issues': restore the deleted subnet/security group/role, free addresses in the cluster subnets, activate the regional STS endpoint, or re-enable the KMS key.",
			Docs:        []string{docClusterIssue, docEKSTroubleshoot}},
			Eval: func(ev *evidence.Evidence) []Finding {
				c := ev.Cluster
				if len(c.HealthIssues) == 0 {
					return one(pass(c.Arn, "cluster reports no health issues", item(ev.Source(evidence.KindCluster), "health.issues is empty")))
				}
				var out []Finding
				for _, i := range c.HealthIssues {
					out = append(out, fail(c.Arn, fmt.Sprintf("cluster health issue %s: %s", i.Code, i.Message),
						item(ev.Source(evidence.KindCluster), "code %s, resources %s", i.Code, quoteList(i.ResourceIDs))))
				}
				return out
			}},
		{Meta: Meta{ID: "cluster.version-skew", Title: "Node kubelet version outside the skew policy", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCluster}, Optional: []evidence.Kind{evidence.KindNodes, evidence.KindImage, evidence.KindNodegroups},
			Stage:       StageBootstrap,
			Why:         "The kubelet must not be newer than the API server and may be at most three minor versions older (two before Kubernetes 1.28); outside that range the API server rejects or mishandles the node.",
			Remediation: "Launch the node from an AMI for the cluster's Kubernetes version: aws ssm get-parameter --name /aws/service/eks/optimized-ami/VERSION/amazon-linux-2023/x86_64/standard/recommended/image_id, or update the node group (aws eks update-nodegroup-version).",
			Docs:        []string{docVersionSkew, docEKSVersions}},
			Eval: evalVersionSkew},
		{Meta: Meta{ID: "cluster.ami-family-unsupported", Title: "AMI family not offered for this Kubernetes version", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCluster, evidence.KindInstance}, Optional: []evidence.Kind{evidence.KindImage, evidence.KindNodegroups},
			Stage: StageBootstrap, Explains: []string{"bootstrap.wrong-format-for-ami"},
			Why:         "EKS publishes Amazon Linux 2 AMIs only up to Kubernetes 1.32; from 1.33 nodes must run AL2023, Bottlerocket or Windows. An AL2 AMI built for an older version cannot run a supported kubelet.",
			Remediation: "Move the node group to AL2023 (amiType AL2023_x86_64_STANDARD / AL2023_ARM_64_STANDARD) or Bottlerocket and convert bootstrap.sh user data to a nodeadm NodeConfig.",
			Docs:        []string{docAMIDeprecation, "https://docs.aws.amazon.com/eks/latest/userguide/al2023.html"}},
			Eval: func(ev *evidence.Evidence) []Finding {
				fam, from := amiFamily(ev)
				c := ev.Cluster
				if fam == FamilyUnknown {
					return one(notApplicable(ev.Instance.ImageID, "AMI family unknown (custom AMI or image not collected)"))
				}
				it := item(ev.Source(evidence.KindImage)+ev.Source(evidence.KindNodegroups), "%s; cluster version %s", from, c.Version)
				if fam == FamilyAL2 && minorNumber(c.Version) >= 33 {
					return one(fail(ev.Instance.ImageID, fmt.Sprintf("Amazon Linux 2 node on Kubernetes %s: EKS offers AL2 AMIs only up to 1.32", c.Version), it))
				}
				return one(pass(ev.Instance.ImageID, fmt.Sprintf("%s is offered for Kubernetes %s", fam, c.Version), it))
			}},
	}
}

func evalVersionSkew(ev *evidence.Evidence) []Finding {
	c := ev.Cluster
	var nodeVer, from, src string
	if ev.Instance != nil {
		for _, n := range ev.Nodes {
			if n.Name == ev.Instance.PrivateDNSName || strings.HasSuffix(n.ProviderID, "/"+ev.Instance.ID) {
				nodeVer, from, src = kubeMinor(n.KubeletVersion), "Node "+n.Name+" kubeletVersion "+n.KubeletVersion, ev.Source(evidence.KindNodes)
			}
		}
	}
	if nodeVer == "" {
		if ng := instanceNodegroup(ev); ng != nil && ng.Version != "" && (ng.AmiType != "CUSTOM" || ev.Image == nil) {
			nodeVer, from, src = kubeMinor(ng.Version), "node group "+ng.Name+" version "+ng.Version, ev.Source(evidence.KindNodegroups)
		}
	}
	if nodeVer == "" && ev.Image != nil {
		nodeVer, from, src = kubeMinor(ev.Image.Name), "AMI "+ev.Image.ID+" name "+ev.Image.Name, ev.Source(evidence.KindImage)
	}
	if nodeVer == "" {
		return one(notApplicable(ev.Target.InstanceID, "the node's kubelet version is unknown (no Node object, managed node group version or EKS AMI name)"))
	}
	cm, nm := minorNumber(c.Version), minorNumber(nodeVer)
	it := item(src, "%s; control plane %s", from, c.Version)
	if cm < 0 || nm < 0 {
		return one(notApplicable(ev.Target.InstanceID, "versions do not parse"))
	}
	maxOld := 3
	if cm < 28 {
		maxOld = 2
	}
	switch {
	case nm > cm:
		return one(fail(ev.Target.InstanceID, fmt.Sprintf("kubelet %s is newer than the control plane %s", nodeVer, c.Version), it))
	case cm-nm > maxOld:
		return one(fail(ev.Target.InstanceID, fmt.Sprintf("kubelet %s is %d minor versions older than the control plane %s (at most %d allowed)", nodeVer, cm-nm, c.Version, maxOld), it))
	}
	return one(pass(ev.Target.InstanceID, fmt.Sprintf("kubelet %s is within the skew policy of control plane %s", nodeVer, c.Version), it))
}

func nodegroupChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "nodegroup.health-issues", Title: "Managed node group reports health issues", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindNodegroups, evidence.KindInstance}, Stage: StageInstance,
			Why:         "EKS records why a managed node group cannot launch or register nodes (NodeCreationFailure, AsgInstanceLaunchFailures, IamInstanceProfileNotFound, Ec2SecurityGroupNotFound, AccessDenied…); these are the service's own diagnosis of the join failure.",
			Remediation: "Read 'aws eks describe-nodegroup --cluster-name CLUSTER --nodegroup-name NG --query nodegroup.health.issues' and fix the named resources; NodeCreationFailure usually means the instances could not join: check the other findings for the reason.",
			Docs:        []string{docNodegroupIssue, docManagedNodeGroups, docEKSTroubleshoot}},
			Eval: func(ev *evidence.Evidence) []Finding {
				ng := instanceNodegroup(ev)
				if ng == nil {
					return one(notApplicable(ev.Instance.ID, "the instance is not in a managed node group (self-managed or Karpenter)"))
				}
				src := ev.Source(evidence.KindNodegroups)
				if len(ng.HealthIssues) == 0 {
					return one(pass(ng.Name, fmt.Sprintf("node group %s reports no health issues (status %s)", ng.Name, ng.Status), item(src, "health.issues is empty")))
				}
				var out []Finding
				for _, i := range ng.HealthIssues {
					out = append(out, fail(ng.Name, fmt.Sprintf("node group %s: %s: %s", ng.Name, i.Code, i.Message),
						item(src, "code %s, resources %s", i.Code, quoteList(i.ResourceIDs))))
				}
				return out
			}},
	}
}
