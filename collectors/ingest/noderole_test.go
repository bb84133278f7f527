package ingest

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// classRolePaste is a cluster in authenticationMode API (describe-cluster narrowed to its
// accessConfig: no arn), its access entries, none for the node role, and the EC2NodeClass's
// role read from a jsonpath output, the class the NodeClaim names: the node role is known by its
// name only.
const classRolePaste = narrowedCluster + `$ aws eks list-access-entries --cluster-name ledger
{
    "accessEntries": [
        "arn:aws:iam::999988887777:role/aws-reserved/sso.amazonaws.com/AWSReservedSSO_Admin_1a2b",
        "arn:aws:iam::999988887777:role/eks-ledger-system-ng-role",
        "arn:aws:iam::999988887777:role/karpenter-controller-ledger"
    ]
}

$ kubectl get ec2nodeclass default -o jsonpath='{.spec.role}'
KarpenterNodeRole-ledger

` + claimsWide

// claimsWide is a NodeClaim table: the claim names its node class (NODECLASS) and instance.
const claimsWide = `$ kubectl get nodeclaims -o wide
NAME            TYPE         CAPACITY    ZONE            NODE   READY     AGE   IMAGEID                 ID                                          NODEPOOL   NODECLASS   DRIFTED
default-b4kxn   m7i.xlarge   on-demand   ca-central-1a          Unknown   13m   ami-0d94c2e7a51f3b806   aws:///ca-central-1a/i-06c2f9a8e3d17b452    default    default

`

// narrowedCluster is describe-cluster narrowed to its accessConfig: no arn.
const narrowedCluster = `$ aws eks describe-cluster --name ledger --query 'cluster.accessConfig'
{
    "authenticationMode": "API"
}

`

// describedEntry is a pasted describe-access-entry of another principal than the node role.
func describedEntry(principal, typ, entryArn string) string {
	arn := ""
	if entryArn != "" {
		arn = `, "accessEntryArn": "` + entryArn + `"`
	}
	return `$ aws eks describe-access-entry --cluster-name ledger --principal-arn ` + principal + `
{"accessEntry": {"clusterName": "ledger", "principalArn": "` + principal + `", "kubernetesGroups": [], "username": "x", "type": "` + typ + `"` + arn + `}}

`
}

// TestNodeClassRoleAccount: a node class's role, a role name, takes its ARN from the cluster's
// account where the paste shows it reliably — an ARN of the cluster's own EKS resources, an
// access entry of a type other than STANDARD (whose principal must be in the cluster's account),
// the instance the NodeClaim launched (its profile's role is in its own account) — and from
// no principal that may be another account's (a STANDARD entry, the list of entries). Without
// the account, the role is known by name, and its source says where the name was read.
func TestNodeClassRoleAccount(t *testing.T) {
	const role = "KarpenterNodeRole-ledger"
	cases := []struct {
		name, extra, arn, why string
	}{
		{"no account shown", "", "", ""},
		{"describe-cluster's arn", "$ aws eks describe-cluster --name ledger\n{\"cluster\": {\"name\": \"ledger\", \"arn\": \"arn:aws:eks:ca-central-1:111122223333:cluster/ledger\", \"accessConfig\": {\"authenticationMode\": \"API\"}}}\n\n",
			"arn:aws:iam::111122223333:role/" + role, "arn:aws:eks:ca-central-1:111122223333:cluster/ledger"},
		{"an EC2_LINUX entry of another role", describedEntry("arn:aws:iam::111122223333:role/eks-ledger-system-ng-role", "EC2_LINUX", ""),
			"arn:aws:iam::111122223333:role/" + role, "other than STANDARD"},
		{"a STANDARD entry of another account", describedEntry("arn:aws:iam::444455556666:role/ci", "STANDARD", ""), "", ""},
		{"a STANDARD entry's accessEntryArn", describedEntry("arn:aws:iam::444455556666:role/ci", "STANDARD", "arn:aws:eks:ca-central-1:111122223333:access-entry/ledger/role/444455556666/ci/6ec9a4c0"),
			"arn:aws:iam::111122223333:role/" + role, "access-entry/ledger"},
		{"another cluster's accessEntryArn", describedEntry("arn:aws:iam::444455556666:role/ci", "STANDARD", "arn:aws:eks:ca-central-1:111122223333:access-entry/other/role/444455556666/ci/6ec9a4c0"),
			"", ""},
		{"a node group's arn", "$ aws eks describe-nodegroup --cluster-name ledger --nodegroup-name system --query nodegroup.nodegroupArn --output text\narn:aws:eks:ca-central-1:111122223333:nodegroup/ledger/system/a2c9\n\n",
			"arn:aws:iam::111122223333:role/" + role, "nodegroup/ledger/system"},
		{"two accounts", "$ aws eks describe-nodegroup --cluster-name ledger --nodegroup-name system --query nodegroup.nodegroupArn --output text\narn:aws:eks:ca-central-1:111122223333:nodegroup/ledger/system/a2c9\n\n" +
			describedEntry("arn:aws:iam::999988887777:role/eks-ledger-system-ng-role", "EC2_LINUX", ""), "", ""},
		{"the NodeClaim's instance", "$ kubectl get nodeclaim default-b4kxn -o yaml\napiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: default-b4kxn\nspec:\n  nodeClassRef:\n    group: karpenter.k8s.aws\n    kind: EC2NodeClass\n    name: default\nstatus:\n  providerID: aws:///ca-central-1a/i-06c2f9a8e3d17b452\n\n" +
			"$ aws ec2 describe-instances --instance-ids i-06c2f9a8e3d17b452 i-0aaaaaaaaaaaaaaa1\n{\"Reservations\": [{\"OwnerId\": \"111122223333\", \"Instances\": [{\"InstanceId\": \"i-06c2f9a8e3d17b452\", \"State\": {\"Name\": \"running\"}}]}, {\"OwnerId\": \"555566667777\", \"Instances\": [{\"InstanceId\": \"i-0aaaaaaaaaaaaaaa1\", \"State\": {\"Name\": \"running\"}}]}]}\n\n",
			"arn:aws:iam::111122223333:role/" + role, "OwnerId"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			paste := classRolePaste + c.extra
			if strings.HasPrefix(c.extra, "$ aws eks describe-cluster") {
				paste = strings.TrimPrefix(paste, narrowedCluster)
			}
			ev := Read([]byte(paste), "stdin", Options{}).Evidence
			if !ev.Have(evidence.KindNodeRole) || ev.NodeRole == nil || ev.NodeRole.Name != role {
				t.Fatalf("node role %+v (gap %q)", ev.NodeRole, ev.GapFor(evidence.KindNodeRole).Reason)
			}
			if ev.NodeRole.Arn != c.arn {
				t.Errorf("node role ARN %q, want %q (source %q)", ev.NodeRole.Arn, c.arn, ev.Source(evidence.KindNodeRole))
			}
			src := ev.Source(evidence.KindNodeRole)
			if !strings.Contains(src, "EC2NodeClass default spec.role") || !strings.Contains(src, c.why) {
				t.Errorf("source %q does not say %q", src, c.why)
			}
		})
	}
}

// TestNodeClassRolesTwo: two node classes with different roles and no NodeClaim to tie one:
// no node role is chosen, by name or by ARN.
func TestNodeClassRolesTwo(t *testing.T) {
	classes := `$ kubectl get ec2nodeclass -o yaml
apiVersion: v1
kind: List
items:
- apiVersion: karpenter.k8s.aws/v1
  kind: EC2NodeClass
  metadata:
    name: default
  spec:
    role: KarpenterNodeRole-ledger
    amiSelectorTerms:
    - alias: al2023@latest
- apiVersion: karpenter.k8s.aws/v1
  kind: EC2NodeClass
  metadata:
    name: gpu
  spec:
    role: KarpenterNodeRole-gpu
    amiSelectorTerms:
    - alias: al2023@latest

`
	paste := strings.TrimSuffix(classRolePaste, claimsWide)
	paste = paste[:strings.Index(paste, "$ kubectl get ec2nodeclass")] + classes
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if len(ev.NodeClasses) != 2 {
		t.Fatalf("node classes %+v", ev.NodeClasses)
	}
	if ev.Have(evidence.KindNodeRole) {
		t.Fatalf("node role %+v chosen from two node classes (%s)", ev.NodeRole, ev.Source(evidence.KindNodeRole))
	}
}
