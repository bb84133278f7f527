package ingest

import (
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

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

// TestTerraformNodeGroupLabels: the labels map of a managed node group (terraform-aws-eks
// eks_managed_node_groups, aws_eks_node_group) is the kubelet's --node-labels whatever the AMI
// type, since EKS passes it to the kubelet; labels of Kubernetes objects declared in Terraform are
// not node labels.
func TestTerraformNodeGroupLabels(t *testing.T) {
	module := "module \"eks\" {\n  source  = \"terraform-aws-modules/eks/aws\"\n  name    = \"stage\"\n\n  eks_managed_node_groups = {\n    example = {\n      ami_type       = \"AL2023_ARM_64_STANDARD\"\n      instance_types = [\"t4g.medium\"]\n      labels = {\n        \"workload-type\"                      = \"management\"\n        \"node-role.kubernetes.io/management\" = \"true\"\n      }\n    }\n  }\n}\n"
	resource := "resource \"aws_eks_node_group\" \"main\" {\n  cluster_name    = aws_eks_cluster.main.name\n  node_group_name = \"main\"\n  labels = {\n    role = \"general\"\n  }\n}\n"
	pod := "resource \"kubernetes_deployment\" \"app\" {\n  metadata {\n    name = \"app\"\n    labels = {\n      \"app.kubernetes.io/name\" = \"app\"\n    }\n  }\n}\n"
	for _, c := range []struct {
		name, paste string
		labels      map[string]string
	}{
		{"module", module, map[string]string{"workload-type": "management", "node-role.kubernetes.io/management": "true"}},
		{"resource", resource, map[string]string{"role": "general"}},
		{"kubernetes object", pod, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Read([]byte(c.paste), "stdin", Options{})
			b := r.Evidence.Bootstrap
			if c.labels == nil {
				if b != nil {
					t.Fatalf("read as a node configuration: %+v", b)
				}
				return
			}
			if b == nil {
				t.Fatalf("no node configuration (segments %v)", types(r.Segments))
			}
			if len(b.Labels) != len(c.labels) {
				t.Errorf("labels %v, want %v", b.Labels, c.labels)
			}
			for k, v := range c.labels {
				if b.Labels[k] != v {
					t.Errorf("label %s = %q, want %q", k, b.Labels[k], v)
				}
			}
			if !b.CallsBootstrap || b.Format != evidence.FormatManaged || len(b.Issues) > 0 {
				t.Errorf("format %s, bootstraps %v, issues %v: want a managed node group's, which EKS bootstraps", b.Format, b.CallsBootstrap, b.Issues)
			}
		})
	}
}
