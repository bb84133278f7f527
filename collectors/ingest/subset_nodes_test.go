package ingest

import "testing"

// TestSubsetOfNodes: a kubectl get that names or selects nodes shows only those; the whole
// list (any output format) does not.
func TestSubsetOfNodes(t *testing.T) {
	for cmd, want := range map[string]bool{
		"kubectl get node ip-10-44-83-156.eu-west-2.compute.internal -o wide": true,
		"kubectl get nodes -o wide ip-10-0-1-5.ec2.internal":                  true,
		"kubectl get node/ip-10-0-1-5.ec2.internal":                           true,
		"kubectl get nodes -l eks.amazonaws.com/nodegroup=ng-1":               true,
		"kubectl get no --selector=karpenter.sh/nodepool=default":             true,
		"k get nodes -lkubernetes.io/os=windows":                              true,
		"kubectl get nodes":                                                   false,
		"kubectl get nodes -o wide":                                           false,
		"kubectl --context prod get nodes -o wide --sort-by .metadata.name":   false,
		"kubectl get nodes | grep NotReady":                                   true,
		"kubectl get nodes | sort":                                            false,
		"aws eks describe-cluster --name get":                                 false,
	} {
		if got := subsetOfNodes(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}
