package ingest

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// hitNamed returns the hit of signature name in nl, or nil.
func hitNamed(nl *evidence.NodeLogs, name string) *evidence.SignatureHit {
	if nl == nil {
		return nil
	}
	for i := range nl.Hits {
		if nl.Hits[i].Signature == name {
			return &nl.Hits[i]
		}
	}
	return nil
}

// TestTerraformDiagnosticIsOneRecord: a Terraform diagnostic block — boxed as a terminal shows
// it, or plain as -no-color or a CI log prints it — is read as one record on its summary's line:
// the error, the resource address ("with …") and the configuration line ("on … line N"), so a
// signature anchored on the error reads the resource as a fact. An Unauthorized writing aws-auth
// is the runner's access failing, so the role mappings aws-auth carries were never written; the
// same error about another resource, or a timeout reaching the cluster, is not that.
func TestTerraformDiagnosticIsOneRecord(t *testing.T) {
	boxed := `module.cluster.kubernetes_config_map.aws_auth[0]: Creating...
╷
│ Error: Unauthorized
│ 
│   with module.cluster.kubernetes_config_map.aws_auth[0],
│   on .terraform/modules/cluster/aws_auth.tf line 63, in resource "kubernetes_config_map" "aws_auth":
│   63: resource "kubernetes_config_map" "aws_auth" {
│ 
╵
Releasing state lock. This may take a few moments...
`
	plain := strings.NewReplacer("│ ", "", "│", "", "╷\n", "", "╵\n", "").Replace(boxed)
	for name, paste := range map[string]string{"boxed": boxed, "plain": plain} {
		r := Read([]byte(paste), "stdin", Options{})
		h := hitNamed(r.Evidence.NodeLogs, "tf-aws-auth-write-unauthorized")
		if h == nil {
			t.Errorf("%s: no tf-aws-auth-write-unauthorized hit; segments %+v", name, r.Segments)
			continue
		}
		if got := h.Facts["resource"]; len(got) != 1 || got[0] != "module.cluster.kubernetes_config_map.aws_auth[0]" {
			t.Errorf("%s: resource fact %v", name, got)
		}
		if h.Finding != "auth.role-not-mapped" || !strings.Contains(h.First.Text, "Error: Unauthorized") || !strings.Contains(h.First.Text, "line 63") {
			t.Errorf("%s: hit %s on %q", name, h.Finding, h.First.Text)
		}
		if want := 3; name == "boxed" && h.First.Line != int64(want) {
			t.Errorf("%s: record on line %d, want the summary's line %d", name, h.First.Line, want)
		}
	}
	for name, paste := range map[string]string{
		"another resource": strings.ReplaceAll(strings.ReplaceAll(boxed, "kubernetes_config_map.aws_auth[0]", "aws_eks_node_group.workers"), `"kubernetes_config_map" "aws_auth"`, `"aws_eks_node_group" "workers"`),
		"timeout":          strings.Replace(boxed, "Error: Unauthorized", `Error: Post "https://ABC.gr7.us-west-2.eks.amazonaws.com/api/v1/namespaces/kube-system/configmaps": dial tcp 10.0.1.5:443: i/o timeout`, 1),
		"apart":            strings.Replace(boxed, "│ Error: Unauthorized\n", "│ Error: Unauthorized\n╵\nsomething else entirely\n╷\n", 1),
	} {
		r := Read([]byte(paste), "stdin", Options{})
		if h := hitNamed(r.Evidence.NodeLogs, "tf-aws-auth-write-unauthorized"); h != nil {
			t.Errorf("%s: matched %q", name, h.First.Text)
		}
	}
}

// TestTerraformDiagnosticKeepsItsParts: the record of a block whose summary spans lines (the AWS
// provider's "1 error occurred:" list) and has a detail after the source excerpt holds them all;
// a fact of the summary stays within its piece, and the lines after the block keep their numbers.
func TestTerraformDiagnosticKeepsItsParts(t *testing.T) {
	paste := `╷
│ Error: waiting for EKS Node Group (prod:ng-1) create: unexpected state 'CREATE_FAILED', wanted target 'ACTIVE'. last error: 1 error occurred:
│ 	* i-0a1b2c3d4e5f60718: NodeCreationFailure: Instances failed to join the kubernetes cluster
│ 
│ 
│   with module.eks.module.eks_managed_node_group["one"].aws_eks_node_group.this[0],
│   on .terraform/modules/eks/modules/eks-managed-node-group/main.tf line 272, in resource "aws_eks_node_group" "this":
│  272: resource "aws_eks_node_group" "this" {
│ 
│ The node group's instances did not register.
╵
module.eks.aws_eks_addon.this["coredns"]: Still creating... [10s elapsed]
`
	r := Read([]byte(paste), "stdin", Options{})
	h := hitNamed(r.Evidence.NodeLogs, "tf-nodegroup-node-creation-failure")
	if h == nil {
		t.Fatalf("no NodeCreationFailure hit; segments %+v", r.Segments)
	}
	if h.First.Line != 2 || !strings.Contains(h.First.Text, "i-0a1b2c3d4e5f60718: NodeCreationFailure") || !strings.Contains(h.First.Text, `with module.eks.module.eks_managed_node_group["one"]`) {
		t.Errorf("record line %d %q", h.First.Line, h.First.Text)
	}
	if got := h.Facts["instanceId"]; len(got) != 1 || got[0] != "i-0a1b2c3d4e5f60718" {
		t.Errorf("instanceId %v", got)
	}
	if got := h.Facts["detail"]; len(got) != 1 || got[0] != "Instances failed to join the kubernetes cluster" {
		t.Errorf("detail %q: a fact ran past its piece of the record", got)
	}
	text := string(records([]byte(paste)))
	if lines := strings.Split(text, "\n"); len(lines) != strings.Count(paste, "\n")+1 || !strings.Contains(lines[1], "│ The node group's instances did not register.") || !strings.HasPrefix(lines[11], "module.eks.aws_eks_addon") || !strings.Contains(lines[7], "272: resource") {
		t.Errorf("records:\n%s", text)
	}
}

// TestEksctlStackWaitCarriesItsEvents: eksctl's stack wait that stopped while the node group's
// stack was still in progress is followed by the stack events it fetched; those name the
// stack's resources, which tell an unmanaged node group (an Auto Scaling group, a launch
// configuration, an instance profile of eksctl's own), whose role eksctl maps in aws-auth only
// after the stack completes, from a managed one, which EKS maps.
func TestEksctlStackWaitCarriesItsEvents(t *testing.T) {
	unmanaged := `[ℹ]  creating nodegroup stack "eksctl-prod-nodegroup-ng-1"
[✖]  unexpected status "CREATE_IN_PROGRESS" while waiting for CloudFormation stack "eksctl-prod-nodegroup-ng-1" to reach "CREATE_COMPLETE" status
[ℹ]  fetching stack events in attempt to troubleshoot the root cause of the failure
[ℹ]  AWS::AutoScaling::AutoScalingGroup/NodeGroup: CREATE_IN_PROGRESS
[ℹ]  AWS::IAM::InstanceProfile/NodeInstanceProfile: CREATE_COMPLETE
`
	r := Read([]byte(unmanaged), "stdin", Options{})
	h := hitNamed(r.Evidence.NodeLogs, "eksctl-unmanaged-nodegroup-stack-wait-timed-out")
	if h == nil || h.Finding != "auth.role-not-mapped" || h.First.Line != 2 {
		t.Fatalf("hit %+v; segments %+v", h, r.Segments)
	}
	if got := h.Facts["nodegroup"]; len(got) != 1 || got[0] != "ng-1" {
		t.Errorf("nodegroup %v", got)
	}
	managed := strings.NewReplacer("AWS::AutoScaling::AutoScalingGroup/NodeGroup", "AWS::EKS::Nodegroup/ManagedNodeGroup", "AWS::IAM::InstanceProfile/NodeInstanceProfile", "AWS::EC2::LaunchTemplate/LaunchTemplate").Replace(unmanaged)
	bare := strings.Join(strings.Split(unmanaged, "\n")[:2], "\n") + "\n"
	for name, paste := range map[string]string{"managed": managed, "no events": bare} {
		r := Read([]byte(paste), "stdin", Options{})
		if h := hitNamed(r.Evidence.NodeLogs, "eksctl-unmanaged-nodegroup-stack-wait-timed-out"); h != nil {
			t.Errorf("%s: matched %q", name, h.First.Text)
		}
		if h := hitNamed(r.Evidence.NodeLogs, "eksctl-nodegroup-stack-wait-timed-out"); h == nil {
			t.Errorf("%s: the stack wait is no longer read", name)
		}
	}
}
