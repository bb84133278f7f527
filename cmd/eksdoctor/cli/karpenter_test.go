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

// TestPastedMachineAwaitingRegistration: Karpenter v0.28–v0.31 called a NodeClaim a Machine
// (karpenter.sh/v1alpha5, conditions MachineLaunched/MachineRegistered/MachineInitialized, its
// lifecycle controller logging "terminating machine due to registration ttl"; kubernetes-sigs/
// karpenter v0.29.0 pkg/apis/v1alpha5/machine_status.go and pkg/controllers/machine/lifecycle/
// liveness.go). Each form is read as the NodeClaim it is: the node that never registered is the
// karpenter.nodeclaim-not-registered symptom, inconclusive, not "unrecognised" (red team 10b #4).
func TestPastedMachineAwaitingRegistration(t *testing.T) {
	machine := `{"apiVersion": "karpenter.sh/v1alpha5", "kind": "Machine",
 "metadata": {"name": "default-x7k2p", "creationTimestamp": "2020-01-01T00:00:00Z", "labels": {"karpenter.sh/provisioner-name": "default"}},
 "spec": {"machineTemplateRef": {"name": "default"}, "requirements": []},
 "status": {"providerID": "aws:///us-west-2a/i-0a1b2c3d4e5f60006", "conditions": [
  {"type": "MachineInitialized", "status": "False", "reason": "NodeNotFound", "message": "Node not registered with cluster", "lastTransitionTime": "2020-01-01T00:00:30Z"},
  {"type": "MachineLaunched", "status": "True", "lastTransitionTime": "2020-01-01T00:00:30Z"},
  {"type": "Ready", "status": "False", "reason": "NodeNotFound", "message": "Node not registered with cluster", "lastTransitionTime": "2020-01-01T00:00:30Z"},
  {"type": "MachineRegistered", "status": "False", "reason": "NodeNotFound", "message": "Node not registered with cluster", "lastTransitionTime": "2020-01-01T00:00:30Z"}]}}`
	for name, paste := range map[string]string{
		"object":   machine,
		"list":     `{"apiVersion": "v1", "kind": "List", "items": [` + machine + `]}`,
		"table":    "$ kubectl get machines\nNAME            TYPE        ZONE         NODE   READY     AGE\ndefault-x7k2p   c5.xlarge   us-west-2a          Unknown   42m\n",
		"describe": "$ kubectl describe machine default-x7k2p\nName:         default-x7k2p\nNamespace:\nLabels:       karpenter.sh/provisioner-name=default\nAPI Version:  karpenter.sh/v1alpha5\nKind:         Machine\nMetadata:\n  Creation Timestamp:  2020-01-01T00:00:00Z\nStatus:\n  Conditions:\n    Last Transition Time:  2020-01-01T00:00:30Z\n    Status:                True\n    Type:                  MachineLaunched\n    Last Transition Time:  2020-01-01T00:00:30Z\n    Message:               Node not registered with cluster\n    Reason:                NodeNotFound\n    Status:                False\n    Type:                  MachineRegistered\n  Provider ID:             aws:///us-west-2a/i-0a1b2c3d4e5f60006\n",
		"log": "2023-03-12T10:00:02.000Z\tINFO\tcontroller.machine.lifecycle\tlaunched machine\t{\"commit\": \"a3a6b2b\", \"machine\": \"default-x7k2p\", \"provisioner\": \"default\", \"provider-id\": \"aws:///us-west-2a/i-0a1b2c3d4e5f60006\"}\n" +
			"2023-03-12T10:15:03.000Z\tDEBUG\tcontroller.machine.lifecycle\tterminating machine due to registration ttl\t{\"commit\": \"a3a6b2b\", \"machine\": \"default-x7k2p\", \"provisioner\": \"default\", \"ttl\": \"15m0s\"}\n",
	} {
		code, out, errOut := runStdin(strings.NewReader(paste), "analyze", "-", "-o", "json")
		if code != ExitNothingChecked || !strings.Contains(out, `"id": "karpenter.nodeclaim-not-registered",
      "status": "fail"`) || !strings.Contains(out, "default-x7k2p") {
			t.Errorf("%s: exit %d %s\n%s", name, code, errOut, out)
		}
	}
	// a Cluster API Machine (cluster.x-k8s.io) is not Karpenter's
	capi := "$ kubectl get machines\nNAME        CLUSTER   NODENAME   PROVIDERID   PHASE          AGE   VERSION\nmd-0-abcd   prod                              Provisioning   42m   v1.29.0\n"
	if code, out, _ := runStdin(strings.NewReader(capi), "analyze", "-", "-o", "json"); strings.Contains(out, `"id": "karpenter.nodeclaim-not-registered",
      "status": "fail"`) || code == ExitFindings {
		t.Errorf("Cluster API machines read as Karpenter's: exit %d\n%s", code, out)
	}
}
