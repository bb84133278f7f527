package ingest

import "testing"

// TestTerraformNodeArgs: a Terraform block's kubelet_extra_args and bootstrap_extra_args are the
// bootstrap.sh arguments the module's AL2 template runs; interpolated values and blocks for AMIs
// that bootstrap otherwise are not read as such.
func TestTerraformNodeArgs(t *testing.T) {
	block := func(extra string) string {
		return "  self_managed_node_groups = {\n    spot = {\n      instance_type = \"m5.large\"\n" + extra + "      desired_size  = 1\n    }\n"
	}
	cases := []struct {
		name, paste string
		labels      map[string]string
		dns         string
	}{
		{"kubelet labels", block("      kubelet_extra_args = \"--node-labels=node.kubernetes.io/lifecycle=spot,team=a\"\n"),
			map[string]string{"node.kubernetes.io/lifecycle": "spot", "team": "a"}, ""},
		{"bootstrap flags", block("      bootstrap_extra_args = \"--dns-cluster-ip 172.29.0.10 --kubelet-extra-args '--node-labels=role=x'\"\n"),
			map[string]string{"role": "x"}, "172.29.0.10"},
		{"interpolated", block("      kubelet_extra_args = \"--node-labels=${local.labels}\"\n"), nil, ""},
		{"bottlerocket", block("      ami_type = \"BOTTLEROCKET_x86_64\"\n      bootstrap_extra_args = \"[settings.kubernetes.node-labels]\"\n"), nil, ""},
		{"al2023", block("      ami_type = \"AL2023_x86_64_STANDARD\"\n      bootstrap_extra_args = \"--node-labels=a=b\"\n"), nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Read([]byte(c.paste), "stdin", Options{})
			b := r.Evidence.Bootstrap
			if c.labels == nil {
				if b != nil {
					t.Fatalf("read as bootstrap configuration %+v (segments %v)", b, types(r.Segments))
				}
				return
			}
			if b == nil {
				t.Fatalf("no bootstrap configuration (segments %v)", types(r.Segments))
			}
			if b.ClusterName != "" {
				t.Errorf("cluster name %q from a block that shows none", b.ClusterName)
			}
			for k, v := range c.labels {
				if b.Labels[k] != v {
					t.Errorf("label %s = %q, want %q (labels %v)", k, b.Labels[k], v, b.Labels)
				}
			}
			if c.dns != "" && (len(b.ClusterDNS) != 1 || b.ClusterDNS[0] != c.dns) {
				t.Errorf("cluster DNS %v, want %s", b.ClusterDNS, c.dns)
			}
			for _, i := range b.Issues {
				t.Errorf("issue on the module's own script: %s", i.Message)
			}
		})
	}
}
