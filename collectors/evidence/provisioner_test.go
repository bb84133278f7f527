package evidence

import "testing"

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
		{"nothing known", &Evidence{}, ""},
	} {
		if got := DetectProvisioner(tc.ev); got.Kind != tc.want || tc.want != "" && got.Because == "" {
			t.Errorf("%s: %+v, want %s", tc.name, got, tc.want)
		}
	}
}
