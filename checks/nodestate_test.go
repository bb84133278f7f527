package checks

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// notReadyNetwork is the kubelet's Ready condition message of a node whose CNI never wrote its
// configuration (kubernetes pkg/kubelet/nodestatus/setters.go ReadyCondition, the runtime's
// NetworkReady=false status).
const notReadyNetwork = "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"

// targetNotReady makes the target's own Node (by providerID) NotReady with msg as its Ready
// condition message, as a snapshot's kube/nodes.json shows it.
func targetNotReady(ev *evidence.Evidence, msg string) {
	ev.Nodes[0].Ready, ev.Nodes[0].ReadyReason, ev.Nodes[0].ReadyMessage = false, "KubeletNotReady", msg
	ev.Nodes[0].Taints = []string{"node.kubernetes.io/not-ready:NoSchedule"}
	ev.Nodes[0].ReadySince = ev.CollectedAt.Add(-20 * time.Minute)
}

// TestNodeObjectState covers red team 11a #2, #3 and #5 (Auto Mode, Windows): the Node object's
// own taints and Ready condition are read, and a CNI that is not the aws-node DaemonSet's is
// not blamed on aws-node.
func TestNodeObjectState(t *testing.T) {
	cases := []struct {
		name    string
		mutate  func(ev *evidence.Evidence)
		want    Status
		msg     string
		fix     string // substring of the remediation
		notInFx string // must not be in the remediation
	}{
		{"taint on the Node object, not in the user data (#2)", func(ev *evidence.Evidence) {
			ev.AWSNode.Tolerations = []evidence.Toleration{{Key: "CriticalAddonsOnly", Operator: "Exists"}, {Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: "NoSchedule"}}
			targetNotReady(ev, "")
			ev.Nodes[0].Taints = append(ev.Nodes[0].Taints, "nvidia.com/gpu=true:NoSchedule")
		}, StatusFail, "Node ip-10-0-1-23.eu-west-1.compute.internal has taint nvidia.com/gpu=true:NoSchedule, which aws-node does not tolerate", "tolerate", ""},
		{"taint on a Ready Node object", func(ev *evidence.Evidence) {
			ev.AWSNode.Tolerations = []evidence.Toleration{{Key: "CriticalAddonsOnly", Operator: "Exists"}}
			ev.Nodes[0].Taints = []string{"nvidia.com/gpu=true:NoSchedule"}
		}, StatusWarn, "is Ready, so a CNI runs on it", "", ""},
		{"NotReady with the network condition, aws-node healthy (#3)", func(ev *evidence.Evidence) {
			targetNotReady(ev, notReadyNetwork)
		}, StatusFail, "the Ready condition of Node ip-10-0-1-23.eu-west-1.compute.internal says the container network is not ready", "aws-node", ""},
		{"NotReady with the network condition for a minute: aws-node still starting", func(ev *evidence.Evidence) {
			// blind snapshots8/02: a Karpenter node caught 1m3s after it registered
			targetNotReady(ev, notReadyNetwork)
			ev.Nodes[0].ReadySince = ev.CollectedAt.Add(-63 * time.Second)
		}, StatusPass, "tolerates the node's taints", "", ""},
		{"NotReady for another reason: not the CNI", func(ev *evidence.Evidence) {
			targetNotReady(ev, "PLEG is not healthy: pleg was last seen active 3m0s ago")
		}, StatusPass, "tolerates the node's taints", "", ""},
		{"Windows node: aws-node is Linux-only (#5)", func(ev *evidence.Evidence) {
			targetNotReady(ev, notReadyNetwork)
			ev.Nodes[0].OS = "windows"
		}, StatusFail, "Windows node", "enable-windows-ipam", "aws-node"},
		{"Auto Mode node: the CNI is part of the node (#5)", func(ev *evidence.Evidence) {
			targetNotReady(ev, notReadyNetwork)
			ev.Nodes[0].Labels = map[string]string{"eks.amazonaws.com/compute-type": "auto"}
			ev.Provisioner = evidence.Provisioner{Kind: evidence.ProvisionerAutoMode, Because: "Node label eks.amazonaws.com/compute-type=auto"}
		}, StatusFail, "EKS Auto Mode node", "NodeClass", "update-addon"},
	}
	c, _ := Default().Get("runtime.cni-not-ready")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ev := healthyEvidence()
			tc.mutate(ev)
			fs := Run([]Check{c}, ev)
			f := fs[0]
			if f.ID != "runtime.cni-not-ready" || f.Status != tc.want || !strings.Contains(f.Message, tc.msg) {
				t.Fatalf("got %s %s %q, want %s containing %q (all: %+v)", f.ID, f.Status, f.Message, tc.want, tc.msg, fs)
			}
			if tc.fix != "" && !strings.Contains(f.Remediation, tc.fix) {
				t.Errorf("remediation %q lacks %q", f.Remediation, tc.fix)
			}
			if tc.notInFx != "" && strings.Contains(f.Remediation, tc.notInFx) {
				t.Errorf("remediation %q names %q", f.Remediation, tc.notInFx)
			}
			if f.Status == StatusFail && (len(f.Evidence) == 0 || f.Why == "") {
				t.Errorf("failing finding lacks evidence or why: %+v", f)
			}
		})
	}
}

// TestAutoModeWithoutUserDataBootstrapNotApplicable (red team 11a #13): EKS Auto Mode manages
// its nodes' user data, so a check that needs the node's bootstrap configuration is not
// applicable when the user data was not read — not a gap that leaves the run inconclusive. A
// self-managed node without its user data still lacks the evidence.
func TestAutoModeWithoutUserDataBootstrapNotApplicable(t *testing.T) {
	noUserData := func(ev *evidence.Evidence) {
		ev.UserData, ev.Bootstrap = nil, nil
		ev.AddGapForce(evidence.KindUserData, "not in snapshot (ec2/instance-user-data/i-1.json)")
		ev.AddGapForce(evidence.KindBootstrap, "not in snapshot (ec2/instance-user-data/i-1.json)")
	}
	var bootstrapChecks []Check
	for _, c := range Default().All() {
		if slices.Contains(c.Meta.Needs, evidence.KindBootstrap) || slices.Contains(c.Meta.Needs, evidence.KindUserData) {
			bootstrapChecks = append(bootstrapChecks, c)
		}
	}
	if len(bootstrapChecks) < 5 {
		t.Fatalf("only %d checks need the bootstrap configuration", len(bootstrapChecks))
	}
	ev := healthyEvidence()
	noUserData(ev)
	ev.Provisioner = evidence.Provisioner{Kind: evidence.ProvisionerAutoMode, Because: "NodeClaim general-purpose-x uses NodeClass default of eks.amazonaws.com"}
	for _, f := range Run(bootstrapChecks, ev) {
		if f.Status != StatusSkipped || !strings.HasPrefix(f.Message, "not applicable: ") || f.ID != "bootstrap.no-bootstrap" && !strings.Contains(f.Message, "EKS Auto Mode manages the node's user data") {
			t.Errorf("Auto Mode, no user data: %s %s %q", f.ID, f.Status, f.Message)
		}
	}
	ev = healthyEvidence()
	noUserData(ev)
	ev.Provisioner = evidence.Provisioner{Kind: evidence.ProvisionerSelfManaged, Because: "no node group or provisioner tag"}
	for _, f := range Run(bootstrapChecks, ev) {
		if f.Status == StatusSkipped && strings.HasPrefix(f.Message, "not applicable: EKS Auto Mode") {
			t.Errorf("self-managed, no user data: %s %q", f.ID, f.Message)
		}
	}
}
