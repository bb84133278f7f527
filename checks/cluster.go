package checks

import (
	"fmt"
	"strings"
	"time"

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

// statusUnknown is the finding of a status check when the cluster's description holds no status:
// describe-cluster narrowed by --query (cluster.accessConfig, cluster.endpoint) leaves it out,
// and an empty status is no state the cluster is in.
func statusUnknown(ev *evidence.Evidence) Finding {
	c := ev.Cluster
	return Finding{Status: StatusSkipped, Resource: c.Arn,
		Message:  "the cluster's status is not in the evidence (its description was narrowed to other fields)",
		Evidence: []EvidenceItem{item(ev.Source(evidence.KindCluster), "no status field")}}
}

// healthIssueCheck maps a cluster health issue code (lower case) to the check that reports that
// issue on its own: StsRegionalEndpointDisabled is iam.sts-regional-disabled's
// (https://docs.aws.amazon.com/eks/latest/APIReference/API_ClusterIssue.html).
var healthIssueCheck = map[string]string{strings.ToLower(issueSTSRegional): idSTSRegional}

func clusterChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "cluster.not-active", ClusterWide: true, Title: "Cluster is not ACTIVE", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCluster}, Stage: StageCluster, Explains: []string{"*"},
			Why:         "Nodes register with the cluster's API server; while the cluster is CREATING, DELETING, FAILED or PENDING there is no API server to register with, and bootstrap.sh waits on 'aws eks wait cluster-active'.",
			Remediation: "Wait for the cluster to become ACTIVE (aws eks wait cluster-active --name CLUSTER); for FAILED, read 'aws eks describe-cluster --name CLUSTER --query cluster.health' and recreate the cluster.",
			Docs:        []string{docClusterAPI, docEKSTroubleshoot}},
			Eval: func(ev *evidence.Evidence) []Finding {
				c := ev.Cluster
				if c.Status == "" {
					return one(statusUnknown(ev))
				}
				it := item(ev.Source(evidence.KindCluster), "cluster %s status %s", c.Name, c.Status)
				if c.Status == "ACTIVE" || c.Status == "UPDATING" {
					return one(pass(c.Arn, fmt.Sprintf("cluster %s is %s", c.Name, c.Status), it))
				}
				return one(fail(c.Arn, fmt.Sprintf("cluster %s is %s, not ACTIVE", c.Name, c.Status), it))
			}},
		{Meta: Meta{ID: "cluster.updating", ClusterWide: true, Title: "Cluster update in progress", Severity: SeverityMedium,
			Needs: []evidence.Kind{evidence.KindCluster}, Stage: StageCluster,
			Why:         "While a cluster update runs (version, endpoint access, logging), the control plane endpoints can be replaced and joins can stall or time out until it finishes.",
			Remediation: "Wait for the update to finish (aws eks list-updates --name CLUSTER; aws eks describe-update --name CLUSTER --update-id ID), then replace nodes that failed to join.",
			Docs:        []string{docClusterAPI, "https://docs.aws.amazon.com/eks/latest/userguide/update-cluster.html"}},
			Eval: func(ev *evidence.Evidence) []Finding {
				c := ev.Cluster
				if c.Status == "" {
					return one(statusUnknown(ev))
				}
				it := item(ev.Source(evidence.KindCluster), "cluster %s status %s", c.Name, c.Status)
				if c.Status == "UPDATING" {
					return one(warn(c.Arn, fmt.Sprintf("cluster %s is UPDATING", c.Name), it))
				}
				return one(pass(c.Arn, fmt.Sprintf("no update in progress (status %s)", c.Status), it))
			}},
		{Meta: Meta{ID: "cluster.health-issues", ClusterWide: true, Title: "Cluster reports health issues", Severity: SeverityCritical,
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
				// issues that one more specific check reports from the same health issue (with its
				// own why and fix): when every issue is one such check's, this finding restates it
				// and ranks after it (Finding.ExplainedBy) when it fails
				restated := ""
				for k, i := range c.HealthIssues {
					own := healthIssueCheck[strings.ToLower(i.Code)]
					if own == "" || k > 0 && own != restated {
						restated = ""
						break
					}
					restated = own
				}
				var out []Finding
				for _, i := range c.HealthIssues {
					f := fail(c.Arn, fmt.Sprintf("cluster health issue %s: %s", i.Code, i.Message),
						item(ev.Source(evidence.KindCluster), "code %s, resources %s", i.Code, quoteList(i.ResourceIDs)))
					if restated != "" {
						f.ExplainedBy = []string{restated}
					}
					out = append(out, f)
				}
				return out
			}},
		{Meta: Meta{ID: "cluster.version-skew", Title: "Node kubelet version outside the skew policy", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCluster}, Optional: []evidence.Kind{evidence.KindNodes, evidence.KindNodeOS, evidence.KindNodeLogs, evidence.KindImage, evidence.KindNodegroups},
			Stage:       StageBootstrap,
			Why:         "The kubelet must not be newer than the API server and may be at most three minor versions older (two before Kubernetes 1.28); outside that range the API server rejects or mishandles the node.",
			Remediation: "Launch the node from an AMI for the cluster's Kubernetes version: aws ssm get-parameter --name /aws/service/eks/optimized-ami/VERSION/amazon-linux-2023/x86_64/standard/recommended/image_id, or update the node group (aws eks update-nodegroup-version).",
			Docs:        []string{docVersionSkew, docEKSVersions}},
			Eval: evalVersionSkew, Partial: partialVersionSkew},
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
			if ownNode(n, ev) {
				nodeVer, from, src = kubeMinor(n.KubeletVersion), "Node "+n.Name+" kubeletVersion "+n.KubeletVersion, ev.Source(evidence.KindNodes)
			}
		}
	}
	if ev.Instance == nil && (ev.NodeOS == nil || ev.NodeOS.KubeletVersion == "") && len(ev.Nodes) > 0 {
		return nodesVersionSkew(ev)
	}
	if nodeVer == "" && ev.NodeOS != nil && ev.NodeOS.KubeletVersion != "" {
		// the node's own report (bundle: nodeadm status, package list, Bottlerocket variant)
		nodeVer, from, src = kubeMinor(ev.NodeOS.KubeletVersion), "the node's kubelet "+ev.NodeOS.KubeletVersion, ev.Source(evidence.KindNodeOS)
	}
	if nodeVer == "" {
		// the kubelet prints its version first at every start ("Kubelet version" kubeletVersion=…)
		nodeVer, from, src = loggedKubeletVersion(ev)
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
		return one(notApplicable(ev.Target.InstanceID, "the node's kubelet version is unknown (no Node object, kubelet or bootstrap.sh version line, managed node group version or EKS AMI name)"))
	}
	f := skewFinding(ev.Target.InstanceID, nodeVer, c.Version, item(src, "%s; control plane %s", from, c.Version))
	if f.Status == StatusFail {
		f.Remediation = skewRemediation(ev, c.Version)
	}
	return one(f)
}

// partialVersionSkew judges the skew without the cluster's own record (a node log bundle): the
// control plane's version is what aws-node's IPAMD read from the API server the node talks to
// ("Cluster Version is: v1.33", fact serverVersion), the kubelet's what the node reports. Nil
// when either is unknown or the lines name more than one control-plane version.
func partialVersionSkew(ev *evidence.Evidence) []Finding {
	if ev.NodeLogs == nil || ev.Have(evidence.KindCluster) {
		return nil
	}
	var server, said string
	for _, h := range ev.NodeLogs.Hits {
		for _, v := range h.Facts["serverVersion"] {
			if m := kubeMinor(v); minorNumber(m) < 0 || server != "" && m != server {
				return nil
			} else if server == "" {
				server, said = m, fmt.Sprintf("IPAMD %q (%s)", strings.TrimSpace(h.Last.Text), where(h.Last))
			}
		}
	}
	if server == "" {
		return nil
	}
	var nodeVer, from, src string
	if ev.NodeOS != nil && ev.NodeOS.KubeletVersion != "" {
		nodeVer, from, src = kubeMinor(ev.NodeOS.KubeletVersion), "the node's kubelet "+ev.NodeOS.KubeletVersion, ev.Source(evidence.KindNodeOS)
	} else {
		nodeVer, from, src = loggedKubeletVersion(ev)
	}
	if nodeVer == "" {
		return nil
	}
	f := skewFinding(ev.Target.InstanceID, nodeVer, server, item(src, "%s; control plane %s as %s read it", from, server, said))
	if f.Status == StatusFail {
		f.Remediation = skewRemediation(ev, server)
	}
	return one(f)
}

// skewRemediation is the version-skew fix for the node's AMI family: the SSM parameter of the
// family's AMI for the cluster's Kubernetes version (Bottlerocket's from its QUICKSTART-EKS.md,
// Windows' from the EKS Windows AMI page, Amazon Linux's from "Retrieve recommended Amazon Linux
// AMI IDs"), or "" (the check's own) when the family is unknown.
func skewRemediation(ev *evidence.Evidence, version string) string {
	fam, _ := amiFamily(ev)
	if fam == FamilyUnknown && ev.NodeOS != nil {
		fam = map[string]AMIFamily{"al2": FamilyAL2, "al2023": FamilyAL2023, "bottlerocket": FamilyBottlerocket, "windows": FamilyWindows}[ev.NodeOS.Family]
	}
	var param string
	switch fam {
	case FamilyBottlerocket:
		param = "/aws/service/bottlerocket/aws-k8s-" + version + "/x86_64/latest/image_id (arm64 for Graviton)"
	case FamilyAL2:
		param = "/aws/service/eks/optimized-ami/" + version + "/amazon-linux-2/recommended/image_id (Amazon Linux 2 AMIs end at Kubernetes 1.32)"
	case FamilyAL2023:
		param = "/aws/service/eks/optimized-ami/" + version + "/amazon-linux-2023/x86_64/standard/recommended/image_id (arm64 for Graviton)"
	case FamilyWindows:
		param = "/aws/service/ami-windows-latest/Windows_Server-2022-English-Core-EKS_Optimized-" + version + "/image_id"
	default:
		return ""
	}
	return "Launch the node from an AMI for the cluster's Kubernetes version " + version + ": aws ssm get-parameter --name " + param +
		", or update the node group (aws eks update-nodegroup-version)."
}

// loggedKubeletVersion returns the kubelet's minor version ("1.31") as the node's logs give it,
// with the line quoted and its source: the kubelet's own start-up line ("Kubelet version"
// kubeletVersion=…, or "Version: v1.14.9" before structured logging), else bootstrap.sh's "Using
// kubelet version 1.24.7" (it reads the binary's version before it judges its arguments;
// amazon-eks-ami templates/al2/runtime/bootstrap.sh). "" when the logs hold no such line or lines
// of more than one minor version (several nodes' logs, an upgrade).
func loggedKubeletVersion(ev *evidence.Evidence) (ver, from, src string) {
	if ev.NodeLogs == nil {
		return "", "", ""
	}
	said := map[string]string{"kubelet-started": "the kubelet's start-up line", "kubelet-started-legacy": "the kubelet's start-up line", "bootstrap-sh-kubelet-version": "bootstrap.sh's line"}
	for _, sig := range []string{"kubelet-started", "kubelet-started-legacy", "bootstrap-sh-kubelet-version"} {
		for _, h := range ev.NodeLogs.Hits {
			if h.Signature != sig {
				continue
			}
			for _, v := range h.Facts["kubernetesVersion"] {
				m := kubeMinor(v)
				if minorNumber(m) < 0 || (ver != "" && m != ver) {
					return "", "", ""
				}
				if ver == "" {
					from = fmt.Sprintf("%s %q (%s)", said[sig], strings.TrimSpace(h.Last.Text), where(h.Last))
				}
				ver = m
			}
		}
	}
	if ver == "" {
		return "", "", ""
	}
	return ver, from, ev.Source(evidence.KindNodeLogs)
}

// nodesVersionSkew judges every listed Node's kubelet when there is no one instance to judge
// (a pasted `kubectl get nodes`, a cluster-wide run): a failure per Node outside the skew
// policy, else one pass naming how many were judged. A pasted list that shows the node the
// paste is about — its one NotReady Node among Ready ones (pastedNotReady) — has that node
// judged (fail or pass); a Ready Node outside the policy then gets a warning, not a failure:
// it joined, so its kubelet is not why the other did not. A list whose readiness is unknown
// has every Node judged.
func nodesVersionSkew(ev *evidence.Evidence) []Finding {
	c := ev.Cluster
	if minorNumber(c.Version) < 0 {
		return one(notApplicable(ev.Target.Cluster, "the control plane's version is unknown"))
	}
	subject := ""
	if st := pastedNotReady(ev); st != nil {
		subject = st.Name
	}
	var out []Finding
	var own *Finding
	judged := 0
	for _, n := range ev.Nodes {
		v := kubeMinor(n.KubeletVersion)
		if minorNumber(v) < 0 {
			continue
		}
		judged++
		f := skewFinding(n.Name, v, c.Version, item(ev.Source(evidence.KindNodes), "Node %s kubeletVersion %s; control plane %s", n.Name, n.KubeletVersion, c.Version))
		switch {
		case subject != "" && n.Name == subject:
			own = &f
		case subject != "" && f.Status == StatusFail && n.Ready:
			f.Status = StatusWarn
			f.Message += fmt.Sprintf(" (Node %s is Ready: it joined; the node the paste is about is NotReady Node %s)", n.Name, subject)
			out = append(out, f)
		case f.Status == StatusFail:
			out = append(out, f)
		}
	}
	if subject != "" {
		if own == nil {
			f := notApplicable(subject, "the NotReady Node "+subject+" the paste is about reports no kubelet version")
			own = &f
		}
		return append([]Finding{*own}, out...)
	}
	if judged == 0 {
		return one(notApplicable(ev.Target.Cluster, "no listed Node reports a kubelet version"))
	}
	if len(out) == 0 {
		out = append(out, pass(ev.Target.Cluster, fmt.Sprintf("no kubelet of the %d listed Node%s is outside the skew policy of control plane %s", judged, plural(int64(judged)), c.Version),
			item(ev.Source(evidence.KindNodes), "kubeletVersion of %d Node%s; control plane %s", judged, plural(int64(judged)), c.Version)))
	}
	return out
}

// skewFinding judges kubelet minor version nodeVer ("1.31") against the control plane's
// (clusterVersion) by the version skew policy (docVersionSkew): never newer, at most three
// minors older from 1.28 (two before).
func skewFinding(resource, nodeVer, clusterVersion string, it EvidenceItem) Finding {
	cm, nm := minorNumber(clusterVersion), minorNumber(nodeVer)
	if cm < 0 || nm < 0 {
		return notApplicable(resource, "versions do not parse")
	}
	maxOld := 3
	if cm < 28 {
		maxOld = 2
	}
	switch {
	case nm > cm:
		return fail(resource, fmt.Sprintf("kubelet %s is newer than the control plane %s", nodeVer, clusterVersion), it)
	case cm-nm > maxOld:
		return fail(resource, fmt.Sprintf("kubelet %s is %d minor versions older than the control plane %s (at most %d allowed)", nodeVer, cm-nm, clusterVersion, maxOld), it)
	}
	return pass(resource, fmt.Sprintf("kubelet %s is within the skew policy of control plane %s", nodeVer, clusterVersion), it)
}

// scopedNodegroups returns the node groups to judge: the instance's when there is an instance,
// else every node group of the cluster (cluster-wide scans).
func scopedNodegroups(ev *evidence.Evidence) ([]*evidence.Nodegroup, string) {
	if ev.Instance != nil {
		if ng := instanceNodegroup(ev); ng != nil {
			return []*evidence.Nodegroup{ng}, ""
		}
		return nil, "the instance is not in a managed node group (self-managed or Karpenter)"
	}
	var out []*evidence.Nodegroup
	for i := range ev.Nodegroups {
		out = append(out, &ev.Nodegroups[i])
	}
	if len(out) == 0 {
		return nil, "the cluster has no managed node group"
	}
	return out, ""
}

// nonJoinIssueCodes are the managed node group health issue codes (botocore eks
// service-2.json NodegroupIssueCode) that name an update, drain, drift or deletion condition,
// each with what it means; none stops an instance launching or registering as a Node.
// PodEvictionFailure and NodeTerminationFailure are the drain and terminate steps of an update
// or scale-in ("Managed node update behavior",
// https://docs.aws.amazon.com/eks/latest/userguide/managed-node-update-behavior.html);
// Ec2LaunchTemplateVersionMismatch is the group's launch template edited outside EKS
// (API_Issue.html: "revert to the version that Amazon EKS created to recover");
// AutoScalingGroupInstanceRefreshActive is an instance refresh EKS waits for before updating;
// the deletion failures and the version limit stop deletion or the next update.
var nonJoinIssueCodes = map[string]string{
	"PodEvictionFailure":                       "pods could not be evicted while draining nodes for an update or scale-in",
	"NodeTerminationFailure":                   "nodes could not be terminated during an update or scale-in",
	"AutoScalingGroupInstanceRefreshActive":    "an Auto Scaling instance refresh is in progress, so EKS cannot update the group",
	"Ec2LaunchTemplateVersionMismatch":         "the group's launch template version was changed outside EKS, which blocks updates",
	"Ec2LaunchTemplateVersionMaxLimitExceeded": "the launch template has too many versions for EKS to add one, which blocks updates",
	"Ec2SecurityGroupDeletionFailure":          "the remote access security group could not be deleted",
	"Ec2LaunchTemplateDeletionFailure":         "the group's launch template could not be deleted",
}

// asgFailureWindow is how far back failed launches count (judged against CollectedAt).
const asgFailureWindow = 24 * time.Hour

func nodegroupChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "nodegroup.health-issues", ClusterWide: true, Title: "Managed node group reports health issues", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindNodegroups}, Optional: []evidence.Kind{evidence.KindInstance}, Stage: StageInstance,
			Why:         "EKS records why a managed node group cannot launch or register nodes (NodeCreationFailure, AsgInstanceLaunchFailures, IamInstanceProfileNotFound, Ec2SecurityGroupNotFound, AccessDenied…); these are the service's own diagnosis of the join failure. Codes of an update, drain or deletion (PodEvictionFailure, NodeTerminationFailure, AutoScalingGroupInstanceRefreshActive, Ec2LaunchTemplateVersionMismatch…) are warnings: they do not keep nodes from joining.",
			Remediation: "Read 'aws eks describe-nodegroup --cluster-name CLUSTER --nodegroup-name NG --query nodegroup.health.issues' and fix the named resources; NodeCreationFailure usually means the instances could not join: check the other findings for the reason.",
			Docs:        []string{docNodegroupIssue, docManagedNodeGroups, docEKSTroubleshoot}},
			Eval: func(ev *evidence.Evidence) []Finding {
				ngs, why := scopedNodegroups(ev)
				if ngs == nil {
					return one(notApplicable(ev.Target.InstanceID, why))
				}
				src := ev.Source(evidence.KindNodegroups)
				var out []Finding
				for _, ng := range ngs {
					for _, i := range ng.HealthIssues {
						if what, ok := nonJoinIssueCodes[i.Code]; ok {
							out = append(out, warn(ng.Name, fmt.Sprintf("node group %s: %s: %s (%s; it does not keep nodes from joining)", ng.Name, i.Code, i.Message, what),
								item(src, "code %s, resources %s", i.Code, quoteList(i.ResourceIDs))))
							continue
						}
						f := fail(ng.Name, fmt.Sprintf("node group %s: %s: %s", ng.Name, i.Code, i.Message),
							item(src, "code %s, resources %s", i.Code, quoteList(i.ResourceIDs)))
						// NodeCreationFailure is EKS saying the instances did not join, not why
						f.Symptom = i.Code == "NodeCreationFailure"
						out = append(out, f)
					}
					if len(ng.HealthIssues) == 0 && (ng.Status == "CREATE_FAILED" || ng.Status == "DEGRADED") {
						// NJ4: a failed or degraded group whose issues were cleared or not reported
						f := fail(ng.Name, fmt.Sprintf("node group %s is %s (no health issue listed)", ng.Name, ng.Status), item(src, "status %s", ng.Status))
						f.Symptom = true
						out = append(out, f)
					}
				}
				if out == nil {
					names := make([]string, 0, len(ngs))
					for _, ng := range ngs {
						names = append(names, ng.Name)
					}
					return one(pass(strings.Join(names, ","), fmt.Sprintf("%s %s no health issues", map[bool]string{true: "node group", false: "node groups"}[len(names) == 1], strings.Join(names, ", ")+map[bool]string{true: " reports", false: " report"}[len(names) == 1]), item(src, "health.issues is empty")))
				}
				return out
			}},
		{Meta: Meta{ID: "nodegroup.asg-launch-failures", ClusterWide: true, Title: "Auto Scaling group fails to launch instances", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindScalingActivities}, Optional: []evidence.Kind{evidence.KindInstance, evidence.KindNodegroups, evidence.KindAutoScaling},
			Stage: StageInstance, Explains: []string{"nodegroup.health-issues"},
			Why:         "When launches fail (no capacity for the instance type in the Availability Zone, an invalid or missing instance profile, a launch template error, a service quota), the node group never gets the nodes it asks for; the activity history holds the exact EC2 error.",
			Remediation: "Read the failed activities (aws autoscaling describe-scaling-activities --auto-scaling-group-name ASG) and fix the cause: add instance types or Availability Zones for capacity errors, fix the instance profile or launch template, or raise the quota.",
			Docs:        []string{"https://docs.aws.amazon.com/autoscaling/ec2/userguide/CHAP_Troubleshooting.html", docManagedNodeGroups}},
			// an instance no Auto Scaling group launched has no activities to read: EC2 Auto
			// Scaling tags every instance it launches with aws:autoscaling:groupName
			// (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-tagging.html)
			Partial: func(ev *evidence.Evidence) []Finding {
				if ev.Instance == nil || !ev.Have(evidence.KindInstance) || ev.Instance.Tags["aws:autoscaling:groupName"] != "" {
					return nil
				}
				return one(notApplicable(ev.Instance.ID, "the instance is not in an Auto Scaling group (no aws:autoscaling:groupName tag)"))
			},
			Eval: func(ev *evidence.Evidence) []Finding {
				groups := map[string]bool{}
				if ev.Instance != nil {
					if g := ev.Instance.Tags["aws:autoscaling:groupName"]; g != "" {
						groups[g] = true
					} else {
						return one(notApplicable(ev.Instance.ID, "the instance is not in an Auto Scaling group"))
					}
				}
				var out []Finding
				seen := map[string]bool{}
				// a launch that succeeded after failures (capacity back, another Availability
				// Zone) shows the group recovered: those failures are over
				recovered := map[string]time.Time{}
				for _, a := range ev.ScalingActivities {
					if a.StatusCode == "Successful" && strings.HasPrefix(a.Description, "Launching a new EC2 instance") && a.StartTime.After(recovered[a.AutoScalingGroup]) {
						recovered[a.AutoScalingGroup] = a.StartTime
					}
				}
				superseded := 0
				for _, a := range ev.ScalingActivities {
					if len(groups) > 0 && !groups[a.AutoScalingGroup] || a.StatusCode != "Failed" && a.StatusCode != "Cancelled" {
						continue
					}
					if r := recovered[a.AutoScalingGroup]; !a.StartTime.IsZero() && a.StartTime.Before(r) {
						superseded++
						continue
					}
					if !ev.CollectedAt.IsZero() && !a.StartTime.IsZero() && ev.CollectedAt.Sub(a.StartTime) > asgFailureWindow {
						continue
					}
					key := a.AutoScalingGroup + "|" + a.StatusMessage
					if seen[key] {
						continue
					}
					seen[key] = true
					f := fail(a.AutoScalingGroup, fmt.Sprintf("Auto Scaling group %s failed to launch: %s", a.AutoScalingGroup, a.StatusMessage),
						item(ev.Source(evidence.KindScalingActivities), "%s at %s: %s", a.StatusCode, a.StartTime.Format(time.RFC3339), a.Description))
					f.Remediation = archMismatchFix(ev, a.StatusMessage, a.Description)
					out = append(out, f)
				}
				if out != nil {
					return out
				}
				msg := fmt.Sprintf("no failed launch in the last %s (%d activities)", asgFailureWindow, len(ev.ScalingActivities))
				if superseded > 0 {
					msg = fmt.Sprintf("no failed launch in the last %s that a later successful launch did not follow (%d activities, %d failures before a success)", asgFailureWindow, len(ev.ScalingActivities), superseded)
				}
				return one(pass("auto scaling", msg, item(ev.Source(evidence.KindScalingActivities), "%d activities", len(ev.ScalingActivities))))
			}},
		{Meta: Meta{ID: "nodegroup.lt-network-interfaces", Title: "Launch template sets network interfaces for a managed node group", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindNodegroups, evidence.KindLaunchTemplate}, Optional: []evidence.Kind{evidence.KindInstance},
			Stage: StageInstance, Explains: []string{"nodegroup.health-issues", "nodegroup.asg-launch-failures", "nodegroup.launch-errors"},
			Why:         "A managed node group places nodes in its own subnets; a launch template that declares NetworkInterfaces (with a subnet or a public IP setting) conflicts with them, so EKS rejects the template or launches fail.",
			Remediation: "Remove NetworkInterfaces from the launch template (set SecurityGroupIds at the top level instead) and give the node group its subnets: aws ec2 create-launch-template-version … then aws eks update-nodegroup-version --launch-template id=LT,version=N.",
			Docs:        []string{docLaunchTemplates, docManagedNodeGroups}},
			Eval: func(ev *evidence.Evidence) []Finding {
				lt := ev.LaunchTemplate
				var users []string
				for _, ng := range ev.Nodegroups {
					if ng.LaunchTemplateID == lt.ID && len(ng.Subnets) > 0 {
						users = append(users, ng.Name)
					}
				}
				if len(users) == 0 {
					return one(notApplicable(lt.ID, "no managed node group with subnets uses this launch template"))
				}
				it := item(ev.Source(evidence.KindLaunchTemplate), "launch template %s version %d declares a network interface with a subnet or public IP setting: %v", lt.ID, lt.Version, lt.NetworkInterfaces)
				if lt.NetworkInterfaces {
					return one(fail(lt.ID, fmt.Sprintf("launch template %s version %d declares a network interface with a subnet or public IP setting while node group %s sets subnets", lt.ID, lt.Version, strings.Join(users, ", ")), it))
				}
				return one(pass(lt.ID, "the launch template leaves network interfaces to the node group", it))
			},
			Partial: nodegroupLTNetworkInterfaces},
	}
}

// nodegroupLTNetworkInterfaces judges nodegroup.lt-network-interfaces for the cluster's evidence
// (no instance: a node group whose launches all fail has none) on each managed node group's own
// launch template version; nil when none was read.
func nodegroupLTNetworkInterfaces(ev *evidence.Evidence) []Finding {
	if ev.Instance != nil || !ev.Have(evidence.KindNodegroups) {
		return nil
	}
	subnets := map[string]bool{}
	for _, ng := range ev.Nodegroups {
		subnets[ng.Name] = len(ng.Subnets) > 0
	}
	var out []Finding
	for _, n := range ev.NodegroupLaunchTemplates {
		lt := n.Template
		it := item(n.Source, "launch template %s version %d declares a network interface with a subnet or public IP setting: %v", lt.ID, lt.Version, lt.NetworkInterfaces)
		switch {
		case !subnets[n.Nodegroup]:
		case lt.NetworkInterfaces:
			out = append(out, fail(lt.ID, fmt.Sprintf("launch template %s version %d declares a network interface with a subnet or public IP setting while node group %s sets subnets", lt.ID, lt.Version, n.Nodegroup), it))
		default:
			out = append(out, pass(lt.ID, fmt.Sprintf("launch template %s of node group %s leaves network interfaces to the node group", lt.ID, n.Nodegroup), it))
		}
	}
	return out
}
