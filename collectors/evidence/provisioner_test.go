package evidence

import (
	"strings"
	"testing"
)

// TestDetectProvisionerHybridAndFargate: hybrid nodes and Fargate nodes are told from the facts
// that name them — the Node's eks.amazonaws.com/compute-type label, an SSM managed-instance ID,
// a NodeConfig with spec.hybrid — before any EC2 tag.
func TestDetectProvisionerHybridAndFargate(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   *Evidence
		want string
	}{
		{"hybrid label", &Evidence{Target: Target{InstanceID: "i-0a1b2c3d4e5f60001"}, Instance: &Instance{ID: "i-0a1b2c3d4e5f60001", PrivateDNSName: "ip-10-0-1-23.eu-west-1.compute.internal", Tags: map[string]string{"aws:autoscaling:groupName": "g"}},
			Nodes: []Node{{Name: "ip-10-0-1-23.eu-west-1.compute.internal", Labels: map[string]string{"eks.amazonaws.com/compute-type": "hybrid"}}}}, ProvisionerHybrid},
		{"fargate label", &Evidence{Nodes: []Node{{Name: "fargate-ip-10-0-7-9.eu-west-1.compute.internal", Labels: map[string]string{"eks.amazonaws.com/compute-type": "fargate"}}}}, ProvisionerFargate},
		{"ssm managed instance", &Evidence{Target: Target{InstanceID: "mi-0123456789abcdef0"}}, ProvisionerHybrid},
		{"nodeadm hybrid config", &Evidence{Bootstrap: &BootstrapConfig{Hybrid: true}}, ProvisionerHybrid},
		{"ec2 managed node group", &Evidence{Target: Target{InstanceID: "i-1"}, Instance: &Instance{ID: "i-1", Tags: map[string]string{"eks:nodegroup-name": "ng"}}}, ProvisionerManagedNodegroup},
		{"hybrid nodeadm's lines, no instance", &Evidence{NodeLogs: &NodeLogs{Streams: []LogStream{{Path: "paste", Components: map[string]int64{"eks-hybrid": 3, "nodeadm": 1}}}}}, ProvisionerHybrid},
		{"hybrid nodeadm's lines beside an EC2 instance", &Evidence{Target: Target{InstanceID: "i-1"}, Instance: &Instance{ID: "i-1", Tags: map[string]string{"eks:nodegroup-name": "ng"}},
			NodeLogs: &NodeLogs{Streams: []LogStream{{Path: "paste", Components: map[string]int64{"eks-hybrid": 3}}}}}, ProvisionerManagedNodegroup},
		{"nothing known", &Evidence{}, ""},
	} {
		if got := DetectProvisioner(tc.ev); got.Kind != tc.want || tc.want != "" && got.Because == "" {
			t.Errorf("%s: %+v, want %s", tc.name, got, tc.want)
		}
	}
}

// TestDetectProvisionerAutoModeTagsWithoutComputeConfig: describe-cluster without computeConfig
// (AWS CLI models before 2024-12-02, or a --query) leaves Auto Mode unknown, not disabled (red
// team 11b #7). An instance carrying the tags only EKS Auto Mode puts on its instances
// (eks:kubernetes-node-pool-name, eks:kubernetes-node-class-name) is then Auto Mode's; plain
// Karpenter's tags (eks:eks-cluster-name and karpenter.sh/nodepool, both set by Karpenter v1 too)
// stay Karpenter's, and a computeConfig that says disabled is believed.
func TestDetectProvisionerAutoModeTagsWithoutComputeConfig(t *testing.T) {
	autoTags := func(extra ...string) map[string]string {
		m := map[string]string{"eks:eks-cluster-name": "prod", "karpenter.sh/nodepool": "general-purpose", "karpenter.sh/nodeclaim": "general-purpose-abcde"}
		for _, k := range extra {
			m[k] = map[string]string{"eks:kubernetes-node-pool-name": "general-purpose", "eks:kubernetes-node-class-name": "default"}[k]
		}
		return m
	}
	inst := func(tags map[string]string) *Instance { return &Instance{ID: "i-1", Tags: tags} }
	for _, tc := range []struct {
		name     string
		ev       *Evidence
		want     string
		because  string
		wantPool string
	}{
		{"pool tag, computeConfig not shown", &Evidence{Target: Target{InstanceID: "i-1"}, Instance: inst(autoTags("eks:kubernetes-node-pool-name")), Cluster: &Cluster{Name: "prod"}},
			ProvisionerAutoMode, "tag eks:kubernetes-node-pool-name", "general-purpose"},
		{"class tag, no describe-cluster", &Evidence{Target: Target{InstanceID: "i-1"}, Instance: inst(autoTags("eks:kubernetes-node-class-name"))},
			ProvisionerAutoMode, "tag eks:kubernetes-node-class-name", "general-purpose"},
		{"karpenter v1 tags, computeConfig not shown", &Evidence{Target: Target{InstanceID: "i-1"}, Instance: inst(autoTags()), Cluster: &Cluster{Name: "prod"}},
			ProvisionerKarpenter, "tag karpenter.sh/nodepool", "general-purpose"},
		{"pool tag, computeConfig disabled", &Evidence{Target: Target{InstanceID: "i-1"}, Instance: inst(autoTags("eks:kubernetes-node-pool-name")), Cluster: &Cluster{Name: "prod", ComputeConfig: &ComputeConfig{}}},
			ProvisionerKarpenter, "tag karpenter.sh/nodepool", "general-purpose"},
	} {
		got := DetectProvisioner(tc.ev)
		if got.Kind != tc.want || got.Name != tc.wantPool || !strings.Contains(got.Because, tc.because) {
			t.Errorf("%s: %+v, want %s (%s) because %q", tc.name, got, tc.want, tc.wantPool, tc.because)
		}
	}
}
