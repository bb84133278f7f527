package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Provisioner-level faults are cluster-wide: scan reports them for the cluster, with the
// condition Karpenter or Auto Mode wrote quoted.
func TestScanReportsProvisionerFaultsForTheCluster(t *testing.T) {
	for fx, want := range map[string]string{
		"karpenter-nodeclass-not-ready":    `karpenter.nodeclass-not-ready fail ec2nodeclass/default EC2NodeClass default is not Ready: SubnetsReady=False reason SubnetsNotFound: "SubnetSelector did not match any Subnets"`,
		"karpenter-userdata-format":        "karpenter.userdata-format fail ec2nodeclass/default EC2NodeClass default (AMI family Bottlerocket) has spec.userData in the wrong format",
		"automode-nodeclass-not-ready":     "automode.nodeclass-not-ready fail nodeclass/default NodeClass default is not Ready: SecurityGroupsReady=False",
		"automode-node-role":               "automode.node-role fail arn:aws:iam::111122223333:role/prod-node-role Auto Mode node role arn:aws:iam::111122223333:role/prod-node-role (computeConfig nodeRoleArn) has no access entry",
		"karpenter-nodeclaim-not-launched": "karpenter.nodeclaim-not-launched fail nodeclaim/default-c3p0x NodeClaim default-c3p0x was not launched: Launched=False reason InsufficientCapacityError",
	} {
		_, out, errOut := run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", fx), "-o", "json")
		var s struct {
			ClusterFindings []struct{ ID, Status, Resource, Message string } `json:"clusterFindings"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%s: %v %s", fx, err, errOut)
		}
		found := false
		for _, f := range s.ClusterFindings {
			found = found || strings.HasPrefix(f.ID+" "+f.Status+" "+f.Resource+" "+f.Message, want)
		}
		if !found {
			t.Errorf("%s: no cluster finding %q in %+v", fx, want, s.ClusterFindings)
		}
	}
	// a cluster without Karpenter: the checks are skipped, saying so
	_, out, _ := run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", "healthy-al2023"), "-o", "json")
	if !strings.Contains(out, `Karpenter / EKS Auto Mode is not installed in the cluster`) {
		t.Errorf("healthy-al2023 scan does not say Karpenter is not installed")
	}
}

// A NodeClaim that never registered is diagnosed from its name alone: its instance comes from
// status.providerID, and the NodeClaim's own condition is quoted with its age. That the node never
// registered is a symptom: with nothing naming why, the verdict is inconclusive (exit 3).
func TestWhyNotJoiningNodeClaimByName(t *testing.T) {
	code, out, errOut := run("why-not-joining", "default-r2d2q", "--snapshot", filepath.Join(fixtures, "snapshots", "karpenter-nodeclaim-not-registered"), "-o", "json")
	if code != ExitNothingChecked {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"i-0a1b2c3d4e5f6", "karpenter.nodeclaim-not-registered", `"verdict": "inconclusive"`, `"mostLikelyCause": "karpenter.nodeclaim-not-registered"`, "only a symptom failed", `Registered=Unknown reason NodeNotFound: \"Node not registered with cluster\"`, "condition set 28m50s before collection"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, _, errOut = run("why-not-joining", "default-nope", "--snapshot", filepath.Join(fixtures, "snapshots", "karpenter-nodeclaim-not-registered"))
	if code != ExitInput || !strings.Contains(errOut, "default-nope is not in kube/nodeclaims.json (NodeClaims there: default-r2d2q)") {
		t.Errorf("unknown NodeClaim: exit %d %q", code, errOut)
	}
}

// TestPastedNodeClaimAwaitingRegistration: a NodeClaim pasted as kubectl get -o json (an object
// or a List) or as kubectl get's table with an age in years is judged, not reported as "not in
// the input given" (red team 3, F8); its node never registered is a symptom, so the run is
// inconclusive.
func TestPastedNodeClaimAwaitingRegistration(t *testing.T) {
	claim := `{"apiVersion": "karpenter.sh/v1", "kind": "NodeClaim",
 "metadata": {"name": "default-abcde", "creationTimestamp": "2020-01-01T00:00:00Z", "labels": {"karpenter.sh/nodepool": "default"}},
 "spec": {"nodeClassRef": {"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "default"}},
 "status": {"providerID": "aws:///us-east-1a/i-0123456789abcdef0", "conditions": [
  {"type": "Launched", "status": "True", "reason": "Launched", "lastTransitionTime": "2020-01-01T00:00:00Z", "message": ""},
  {"type": "Registered", "status": "Unknown", "reason": "AwaitingReconciliation", "lastTransitionTime": "2020-01-01T00:00:00Z", "message": "object is awaiting reconciliation"}]}}`
	for name, paste := range map[string]string{
		"object": claim,
		"list":   `{"apiVersion": "v1", "kind": "List", "items": [` + claim + `]}`,
		"table":  "NAME            TYPE       CAPACITY   ZONE         NODE   READY     AGE\ndefault-abcde   m5.large   on-demand  us-east-1a          Unknown   4y\n",
	} {
		code, out, errOut := runStdin(strings.NewReader(paste), "analyze", "-", "-o", "json")
		if code != ExitNothingChecked || !strings.Contains(out, `"id": "karpenter.nodeclaim-not-registered",
      "status": "fail"`) || strings.Contains(out, "kube:nodeclaims: not in the input given") {
			t.Errorf("%s: exit %d %s\n%s", name, code, errOut, out)
		}
	}
}

// TestPastedNodeClassRoleIsTheNodeRole: a ticket with a NodeClaim that never registered, its
// EC2NodeClass (spec.role KarpenterNodeRole-prod), aws-auth without that role and
// describe-cluster (CONFIG_MAP) names the cause: the node class's role, with the cluster's
// account, is the node role, and it is not mapped (red team 4: inconclusive for want of the
// node role).
func TestPastedNodeClassRoleIsTheNodeRole(t *testing.T) {
	code, out, errOut := run("analyze", filepath.Join(fixtures, "pastes", "karpenter-role-not-in-aws-auth.txt"), "-o", "json")
	if code != ExitFindings || !strings.Contains(out, `"mostLikelyCause": "auth.role-not-mapped"`) || !strings.Contains(out, "node role arn:aws:iam::111122223333:role/KarpenterNodeRole-prod is in neither aws-auth mapRoles") {
		t.Errorf("exit %d %s\n%s", code, errOut, out)
	}
}
