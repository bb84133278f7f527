package checks

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docKarpenterTS       = "https://karpenter.sh/docs/troubleshooting/"
	docKarpenterNodeCls  = "https://karpenter.sh/docs/concepts/nodeclasses/"
	docKarpenterNodeClm  = "https://karpenter.sh/docs/concepts/nodeclaims/"
	docEC2LaunchTS       = "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/troubleshooting-launch.html"
	docSTSRegional       = "https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_temp_enable-regions.html"
	docNodegroupIssues   = "https://docs.aws.amazon.com/eks/latest/APIReference/API_Issue.html"
	docKarpenterMigrate  = "https://karpenter.sh/docs/getting-started/migrating-from-cas/"
	docKarpenterUserData = "https://karpenter.sh/docs/concepts/nodeclasses/#specuserdata"
)

// provisionerChecks judge how nodes are launched: EC2 launch errors whoever launched them, and
// Karpenter's NodeClaims and EC2NodeClasses. Today their evidence is what the provisioner's own
// output testifies (Karpenter controller logs, eksctl / CloudFormation / Terraform errors,
// Auto Scaling messages pasted into a ticket), read by the log signature catalog.
func provisionerChecks() []Check {
	logs := []evidence.Kind{evidence.KindNodeLogs}
	mk := func(id, title string, sev Severity, stage int, ex []string, why, fix string, docs ...string) Check {
		return Check{Meta: Meta{ID: id, Title: title, Severity: sev, Needs: logs, Stage: stage, Why: why, Remediation: fix,
			Docs: docs, Explains: ex}, Eval: evalSignatures(id)}
	}
	launchSymptoms := explains("karpenter.nodeclaim-not-launched", "nodegroup.asg-launch-failures")
	denied := mk("auth.authenticator-denied", "The control plane's authenticator refused an identity", SeverityCritical, StageAuth, explains("runtime.unauthorized"),
		"The EKS authenticator turns an IAM identity into a Kubernetes user only through an access entry or an aws-auth mapping; when it logs 'access denied' for the node role (ARN is not mapped, a session name it cannot turn into a node name), every request of that kubelet is Unauthorized.",
		"Map the ARN the log names: an EC2_LINUX (EC2_WINDOWS) access entry for a node role — aws eks create-access-entry --cluster-name CLUSTER --principal-arn ROLE_ARN --type EC2_LINUX — or an aws-auth mapRoles entry with the role ARN without path, username system:node:{{EC2PrivateDNSName}} and groups system:bootstrappers, system:nodes.",
		docAWSAuth, docAccessEntries)
	denied.Eval = func(ev *evidence.Evidence) []Finding {
		return deniedOfMappedRole(ev, deniedOfOthers(ev, evalSignatures(denied.Meta.ID)(ev)))
	}
	return []Check{
		mk("nodegroup.launch-errors", "EC2 refuses to launch the node", SeverityCritical, StageInstance, launchSymptoms,
			"RunInstances / CreateFleet fail before any instance exists: an invalid or missing instance profile, a KMS key the Auto Scaling or Karpenter role cannot use for the EBS volume, no capacity or quota for the instance type, an AMI or launch template the account cannot use. No instance means no node.",
			"Fix what the EC2 error names: the instance profile (name and role), kms:CreateGrant / kms:Decrypt on the volume key for the service-linked role, another instance type or Availability Zone for capacity errors, a vCPU quota increase for VcpuLimitExceeded, or the AMI / launch template parameter the message quotes.",
			docEC2LaunchTS, docNodegroupIssues, docKarpenterTS),
		mk("karpenter.nodeclaim-not-launched", "A Karpenter NodeClaim was never launched", SeverityCritical, StageInstance, explains(),
			"Karpenter creates a NodeClaim, then asks EC2 (CreateFleet) for an instance matching its NodePool's requirements; when no instance type, offering or subnet fits, or EC2 rejects the request, the NodeClaim is deleted and retried and no node appears.",
			"Read the NodeClaim's Launched condition (kubectl describe nodeclaim NAME): widen the NodePool's instance requirements or zones for insufficient capacity, fix the EC2NodeClass subnets / security groups / AMI selectors it names, and grant the Karpenter controller role the EC2 permissions the error lists.",
			docKarpenterNodeClm, docKarpenterTS),
		mk("karpenter.nodeclaim-not-registered", "A Karpenter NodeClaim launched but its node never registered", SeverityHigh, StageBootstrap, nil,
			"Karpenter launched the instance, but no Node with its provider ID appeared before the registration timeout, so Karpenter deletes the instance and tries again. The cause lies on the node: bootstrap user data, the node role's mapping, or the network path to the API server.",
			"Find why the instance did not join: run eksdoctor why-not-joining INSTANCE_ID against the account, or eksdoctor analyze on its console output; check that the EC2NodeClass role is mapped (an EC2_LINUX access entry or aws-auth mapRoles) and that its user data matches the AMI family.",
			docKarpenterNodeClm, docKarpenterTS),
		mk("karpenter.instance-profile", "Karpenter's instance profile or node role is unusable", SeverityCritical, StageIdentity, explains("karpenter.nodeclaim-not-launched", "nodegroup.launch-errors", "karpenter.nodeclass-not-ready"),
			"Karpenter launches nodes with the instance profile of the EC2NodeClass (spec.role or spec.instanceProfile); when the profile or role does not exist, Karpenter's controller role may not pass or manage it, or the role is not mapped in the cluster, nodes cannot launch or cannot join.",
			"Create the node role and set it in the EC2NodeClass spec.role (Karpenter then manages the instance profile) or point spec.instanceProfile at an existing profile; allow the controller role iam:PassRole on the node role and the iam:*InstanceProfile actions; map the role with an EC2_LINUX access entry.",
			docKarpenterNodeCls, docKarpenterMigrate, docInstanceProfile),
		mk("karpenter.nodeclass-not-ready", "An EC2NodeClass is not Ready", SeverityCritical, StageCluster, explains("karpenter.nodeclaim-not-launched"),
			"A NodeClaim can launch only from an EC2NodeClass whose subnets, security groups, AMIs and instance profile resolved; when a selector matches nothing the class is not Ready and Karpenter launches nothing from it.",
			"kubectl describe ec2nodeclass NAME shows which condition is False; fix the subnetSelectorTerms / securityGroupSelectorTerms tags (karpenter.sh/discovery) or the amiSelectorTerms / amiFamily so they match existing resources.",
			docKarpenterNodeCls, docKarpenterTS),
		mk("karpenter.userdata-format", "EC2NodeClass user data does not fit its AMI family", SeverityCritical, StageBootstrap, explains("karpenter.nodeclaim-not-registered"),
			"Karpenter merges spec.userData with the bootstrap it generates for the AMI family: AL2023 expects MIME multipart with NodeConfig, Bottlerocket TOML, AL2 a shell script. Bottlerocket user data that is not TOML Karpenter cannot merge, and the node never joins; on AL2023 and AL2 user data in another family's format becomes a part beside Karpenter's own NodeConfig or bootstrap.sh script, which still joins the node, so only what the custom part meant to set is lost (a warning). The same happens when amiSelectorTerms select an EKS-optimized AMI of another family than amiFamily (an AL2 amazon-eks-node-1.31-v… image under amiFamily AL2023): the image does not read the user data Karpenter writes. With amiFamily Custom Karpenter generates nothing: without spec.userData the node is never told which cluster to join.",
			"Write spec.userData in the AMI family's format: a MIME multipart NodeConfig for AL2023, TOML settings for Bottlerocket, a shell script for AL2 — or drop it and let Karpenter generate the bootstrap. Make amiFamily match the images amiSelectorTerms select (or select them with an alias such as al2023@latest).",
			docKarpenterUserData, docNodeadm, docBottlerocketK8s),
		denied,
	}
}

// reInstanceSession is the session of an instance's role credentials (assumed-role/ROLE/i-…).
var reInstanceSession = regexp.MustCompile(`:assumed-role/[^/]+/i-[0-9a-f]{8,17}$`)

// deniedOfOthers turns an auth.authenticator-denied failure into a pass when every identity the
// authenticator refused is provably not this node's: the node's role is known — from the
// instance profile or node role collected, or from the same log's "access granted" lines that
// mapped a role to system:node:… — and each denied ARN is another role, not an instance's
// session of an unknown role. A control plane's authenticator log is the whole cluster's: a CI
// role or an SSO user polling the API is refused there every few seconds while nodes join.
func deniedOfOthers(ev *evidence.Evidence, fs []Finding) []Finding {
	nodeRoles := map[string]bool{}
	if r, ok := canonicalRoleArn(nodeRoleArn(ev)); ok {
		nodeRoles[r] = true
	}
	if ev.NodeLogs != nil {
		for _, h := range ev.NodeLogs.Hits {
			if h.Signature != "authenticator-node-access-granted" {
				continue
			}
			for _, a := range h.Facts["roleArn"] {
				if r, ok := canonicalRoleArn(sessionRole(a)); ok {
					nodeRoles[r] = true
				}
			}
		}
	}
	if len(nodeRoles) == 0 {
		return fs
	}
	var known []string
	for r := range nodeRoles {
		known = append(known, r)
	}
	sort.Strings(known)
	for i, f := range fs {
		if f.Status != StatusFail || f.Resource == "" {
			continue
		}
		others := true
		arns := strings.Split(f.Resource, ", ")
		for _, a := range arns {
			r, ok := canonicalRoleArn(sessionRole(a))
			if !ok || nodeRoles[r] || reInstanceSession.MatchString(a) {
				others = false
				break
			}
		}
		if !others {
			continue
		}
		p := pass(f.Resource, fmt.Sprintf("the authenticator refused only other identities (%s), not the node's role %s: another user's or tool's requests, not the node's", f.Resource, strings.Join(known, ", ")), f.Evidence...)
		fs[i] = p
	}
	return fs
}

// deniedOfMappedRole rewrites the auth.authenticator-denied failures whose denied ARNs (the
// roleArn fact, a session turned into its role) are all the node role while the collected
// aws-auth or access entries map that role: the message says so, with the collection time, and
// the fix compares instead of creating a mapping that exists (create-access-entry would fail
// with ResourceInUseException). Other findings are returned unchanged.
func deniedOfMappedRole(ev *evidence.Evidence, fs []Finding) []Finding {
	role, ok := canonicalRoleArn(nodeRoleArn(ev))
	if !ok {
		return fs
	}
	var where []string
	if ev.Have(evidence.KindAWSAuth) && ev.AWSAuth != nil {
		if m := exactRoleMapping(ev.AWSAuth, nodeRoleArn(ev)); m != nil {
			where = append(where, fmt.Sprintf("aws-auth mapRoles entry %d", m.Index+1))
		}
	}
	if ev.Have(evidence.KindAccessEntries) {
		if e := nodeAccessEntry(ev, nodeRoleArn(ev)); e != nil {
			where = append(where, "access entry type "+orUnknown(e.Type))
		}
	}
	if len(where) == 0 {
		return fs
	}
	at := "an unknown time"
	if !ev.CollectedAt.IsZero() {
		at = ev.CollectedAt.UTC().Format(time.RFC3339)
	}
	for i, f := range fs {
		if f.Status != StatusFail {
			continue
		}
		arns := strings.Split(f.Resource, ", ")
		all := len(arns) > 0
		for _, a := range arns {
			if got, ok := canonicalRoleArn(sessionRole(a)); !ok || got != role {
				all = false
			}
		}
		if !all {
			continue
		}
		fs[i].Message += fmt.Sprintf("; the evidence collected at %s maps this role (%s)", at, strings.Join(where, ", "))
		fs[i].Remediation = "The role is already mapped (" + strings.Join(where, ", ") + "); do not create another mapping. Compare the denied ARN and time with the mapping: a denial before the mapping was made or changed is over — restart the kubelet or replace the instance to retry; one after it points to an aws-auth entry with an IAM path or another account, a role deleted and recreated since the mapping (delete and recreate the access entry), or an authenticationMode that ignores the source holding the mapping (see auth.role-path, auth.access-mode)."
	}
	return fs
}
