package evidence

import "testing"

// TestDetectProvisionerPastedAutoModeNodeClaims: with no instance named, NodeClaims that all
// reference an eks.amazonaws.com NodeClass make the subject an Auto Mode node; one of Karpenter's
// own (karpenter.k8s.aws) among them leaves it unknown.
func TestDetectProvisionerPastedAutoModeNodeClaims(t *testing.T) {
	auto := NodeClaim{Name: "gpu-batch-7tq4m", NodePool: "gpu-batch", NodeClassRef: NodeClassRef{Group: "eks.amazonaws.com", Kind: "NodeClass", Name: "gpu-batch"}}
	own := NodeClaim{Name: "default-x", NodeClassRef: NodeClassRef{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"}}
	if p := DetectProvisioner(&Evidence{NodeClaims: []NodeClaim{auto}}); p.Kind != ProvisionerAutoMode || p.Name != "gpu-batch" {
		t.Errorf("Auto Mode NodeClaims: %+v", p)
	}
	if p := DetectProvisioner(&Evidence{NodeClaims: []NodeClaim{auto, own}}); p.Kind != "" {
		t.Errorf("mixed NodeClaims: %+v, want unknown", p)
	}
}
