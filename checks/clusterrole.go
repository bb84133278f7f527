package checks

import (
	"fmt"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docClusterRole     = "https://docs.aws.amazon.com/eks/latest/userguide/cluster-iam-role.html"
	docWindowsSupport  = "https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html"
	policyCluster      = "AmazonEKSClusterPolicy"
	policyVPCResCtrl   = "AmazonEKSVPCResourceController"
	servicePrincipalEK = "eks.amazonaws.com"
)

// clusterRoleChecks judge the cluster's own IAM role (describe-cluster roleArn).
func clusterRoleChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "iam.cluster-role", ClusterWide: true, Title: "The cluster role is missing, untrusted or lacks AmazonEKSClusterPolicy", Severity: SeverityCritical,
			Needs:    []evidence.Kind{evidence.KindCluster, evidence.KindClusterRole},
			Optional: []evidence.Kind{evidence.KindClusterRolePolicies, evidence.KindInstance, evidence.KindNodes},
			Stage:    StageCluster, Explains: explains("cluster.health-issues"),
			Why: "The EKS control plane acts in your account only as the cluster role: with it, it creates and keeps the network interfaces in the cluster subnets through which nodes reach a private endpoint and the API server reaches kubelets, and its cloud controller describes each new instance to initialise the Node (provider ID, addresses, removing the node.cloudprovider.kubernetes.io/uninitialized taint). " +
				"A deleted role, a trust policy that no longer lets eks.amazonaws.com assume it, or a role without AmazonEKSClusterPolicy leaves the control plane unable to do this: the cluster reports IamRoleNotFound or cannot be updated, new nodes can stay uninitialised (tainted, unschedulable) and nodes in a private-endpoint path lose the interfaces they reach the API server through. Windows nodes also need AmazonEKSVPCResourceController on it for their pod IP addresses.",
			Remediation: "Restore the role named by 'aws eks describe-cluster --name CLUSTER --query cluster.roleArn': let the service assume it (aws iam update-assume-role-policy --role-name CLUSTER_ROLE --policy-document '{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"eks.amazonaws.com\"},\"Action\":[\"sts:AssumeRole\",\"sts:TagSession\"]}]}') and attach the policy: aws iam attach-role-policy --role-name CLUSTER_ROLE --policy-arn arn:aws:iam::aws:policy/AmazonEKSClusterPolicy (for Windows nodes also arn:aws:iam::aws:policy/AmazonEKSVPCResourceController). A deleted role must be recreated with the same name, since a cluster's role cannot be changed.",
			Docs:        []string{docClusterRole, docWindowsSupport}},
			Eval: evalClusterRole},
	}
}

func evalClusterRole(ev *evidence.Evidence) []Finding {
	role := ev.ClusterRole
	src := ev.Source(evidence.KindClusterRole)
	if role.Missing {
		return one(fail(role.Arn, fmt.Sprintf("cluster role %s does not exist (IAM answers NoSuchEntity): the control plane cannot act in the account", role.Name),
			item(ev.Source(evidence.KindCluster), "roleArn %s", role.Arn), item(src, "NoSuchEntity")))
	}
	var problems []string
	var items []EvidenceItem
	if role.TrustPolicy != nil {
		allowed, denied := false, false
		for _, st := range role.TrustPolicy.Statement {
			if !actionMatches(st.Action, "sts:AssumeRole") || !principalHasService(st.Principal, servicePrincipalEK) {
				continue
			}
			if strings.EqualFold(st.Effect, "Deny") && !st.HasCondition {
				denied = true
			}
			if strings.EqualFold(st.Effect, "Allow") {
				allowed = true
			}
		}
		items = append(items, item(src, "AssumeRolePolicyDocument has %d statement%s", len(role.TrustPolicy.Statement), plural(int64(len(role.TrustPolicy.Statement)))))
		switch {
		case denied:
			problems = append(problems, "its trust policy denies sts:AssumeRole to "+servicePrincipalEK)
		case !allowed:
			problems = append(problems, "its trust policy does not let "+servicePrincipalEK+" assume it")
		}
	}
	windows := clusterHasWindowsNodes(ev)
	customerManaged, lacksCluster := false, false
	if ev.Have(evidence.KindClusterRolePolicies) {
		have := map[string]bool{}
		var names []string
		for _, p := range ev.ClusterRolePolicies {
			have[p.Name] = true
			names = append(names, p.Name)
			if p.Arn != "" && !strings.HasPrefix(p.Arn, "arn:aws:iam::aws:policy/") {
				customerManaged = true
			}
		}
		items = append(items, item(ev.Source(evidence.KindClusterRolePolicies), "attached: %s", quoteList(names)))
		if !have[policyCluster] {
			lacksCluster = true
			problems = append(problems, "it lacks "+policyCluster)
		}
		if windows != "" && !have[policyVPCResCtrl] {
			problems = append(problems, fmt.Sprintf("it lacks %s, which %s needs", policyVPCResCtrl, windows))
		}
	}
	switch {
	case len(problems) == 1 && lacksCluster && customerManaged:
		// Customer-managed policies may grant the same actions; their documents are not read.
		return one(warn(role.Arn, fmt.Sprintf("cluster role %s lacks %s; it has customer-managed policies whose permissions were not read", role.Name, policyCluster), items...))
	case len(problems) > 0:
		return one(fail(role.Arn, fmt.Sprintf("cluster role %s: %s", role.Name, strings.Join(problems, "; ")), items...))
	case role.TrustPolicy == nil || !ev.Have(evidence.KindClusterRolePolicies):
		missing := "its trust policy"
		if role.TrustPolicy != nil {
			missing = "its attached policies (" + ev.GapFor(evidence.KindClusterRolePolicies).Reason + ")"
		}
		return one(Finding{Status: StatusSkipped, Resource: role.Arn, Message: fmt.Sprintf("cluster role %s exists but %s could not be read", role.Name, missing), Evidence: items})
	}
	return one(pass(role.Arn, fmt.Sprintf("%s may assume cluster role %s, which has %s", servicePrincipalEK, role.Name, policyCluster), items...))
}

// clusterHasWindowsNodes names the Windows node the cluster serves ("Windows instance ID",
// "Windows node NAME"), or "" when there is none in the evidence.
func clusterHasWindowsNodes(ev *evidence.Evidence) string {
	if ev.Have(evidence.KindInstance) && ev.Instance != nil && strings.EqualFold(ev.Instance.Platform, "windows") {
		return "Windows instance " + ev.Instance.ID
	}
	if ev.Have(evidence.KindNodes) {
		for _, n := range ev.Nodes {
			if strings.EqualFold(n.OS, "windows") {
				return "Windows node " + n.Name
			}
		}
	}
	return ""
}
