package snapshot

import (
	"reflect"
	"testing"
	"time"
)

// TestNodeTaintsAndReadyCondition: a Node's spec.taints and its Ready condition's reason and
// message are read (red team 11a #2, #3: a GPU node's nvidia.com/gpu taint set on the Node, not
// in the user data, and a NotReady node's NetworkPluginNotReady message).
func TestNodeTaintsAndReadyCondition(t *testing.T) {
	dir := writeSnap(t, map[string]string{
		"ec2/describe-instances.json": instances,
		"kube/nodes.json": `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"ip-10-0-0-1.eu-west-1.compute.internal"},
"spec":{"providerID":"aws:///eu-west-1b/i-1","taints":[{"key":"node.kubernetes.io/not-ready","effect":"NoSchedule"},{"key":"nvidia.com/gpu","value":"true","effect":"NoSchedule"}]},
"status":{"conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady","lastTransitionTime":"2026-11-24T13:58:51Z","message":"container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"}],
"nodeInfo":{"kubeletVersion":"v1.31.2-eks-1234567","operatingSystem":"linux"}}}]}`,
	})
	s, err := Open(dir, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := s.Evidence("i-1", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Nodes) != 1 {
		t.Fatalf("nodes = %+v", ev.Nodes)
	}
	n := ev.Nodes[0]
	if want := []string{"node.kubernetes.io/not-ready:NoSchedule", "nvidia.com/gpu=true:NoSchedule"}; !reflect.DeepEqual(n.Taints, want) {
		t.Errorf("taints = %q, want %q", n.Taints, want)
	}
	if n.Ready || n.ReadyReason != "KubeletNotReady" || n.ReadyMessage != "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized" {
		t.Errorf("ready = %v %q %q", n.Ready, n.ReadyReason, n.ReadyMessage)
	}
	if want := time.Date(2026, 11, 24, 13, 58, 51, 0, time.UTC); !n.ReadySince.Equal(want) {
		t.Errorf("ready since %v, want %v", n.ReadySince, want)
	}
}
