package ingest

import (
	"strings"
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

// TestTerraformCluster: an aws_eks_cluster resource in a Terraform plan gives the cluster's
// authentication mode, version and endpoint access after the change; the apply output after the
// resource is still read as log, and a plan of another resource gives no cluster.
func TestTerraformCluster(t *testing.T) {
	plan := "  # module.eks.aws_eks_cluster.this[0] will be updated in-place\n" +
		"  ~ resource \"aws_eks_cluster\" \"this\" {\n        id                            = \"analytics-dev\"\n        name                          = \"analytics-dev\"\n        # (13 unchanged attributes hidden)\n\n" +
		"      ~ access_config {\n          ~ authentication_mode                         = \"API_AND_CONFIG_MAP\" -> \"API\"\n            # (1 unchanged attribute hidden)\n        }\n\n" +
		"      ~ version                       = \"1.29\" -> \"1.30\"\n      ~ vpc_config {\n          ~ endpoint_public_access  = true -> false\n        }\n        # (5 unchanged blocks hidden)\n    }\n"
	cases := []struct {
		name, paste      string
		mode, version    string
		public, logLines bool
	}{
		{"plan", plan, "API", "1.30", false, false},
		{"plan then an apply error", plan + "\n│ Error: waiting for EKS Node Group (analytics-dev:spot) create: unexpected state 'CREATE_FAILED', wanted target 'ACTIVE'. last error: i-0abc: NodeCreationFailure: Instances failed to join the kubernetes cluster\n", "API", "1.30", false, true},
		{"configuration", "resource \"aws_eks_cluster\" \"main\" {\n  name     = \"prod\"\n  version  = \"1.31\"\n  role_arn = aws_iam_role.cluster.arn\n\n  access_config {\n    authentication_mode = \"CONFIG_MAP\"\n  }\n}\n", "CONFIG_MAP", "1.31", true, false},
		{"another resource", "  # aws_eks_node_group.spot will be updated in-place\n  ~ resource \"aws_eks_node_group\" \"spot\" {\n      ~ version = \"1.29\" -> \"1.30\"\n    }\n", "", "", true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Read([]byte(c.paste), "stdin", Options{})
			cl := r.Evidence.Cluster
			if c.mode == "" {
				if cl != nil {
					t.Fatalf("a cluster %+v from %v", cl, types(r.Segments))
				}
				return
			}
			if cl == nil {
				t.Fatalf("no cluster (segments %v)", types(r.Segments))
			}
			if cl.AuthenticationMode != c.mode || cl.Version != c.version {
				t.Errorf("mode %q version %q, want %q %q", cl.AuthenticationMode, cl.Version, c.mode, c.version)
			}
			if cl.EndpointPublicAccess != c.public && c.name != "configuration" {
				t.Errorf("public access %v, want %v", cl.EndpointPublicAccess, c.public)
			}
			hits := r.Evidence.NodeLogs != nil && len(r.Evidence.NodeLogs.Hits) > 0
			if hits != c.logLines {
				t.Errorf("log hits %v, want %v (segments %v)", hits, c.logLines, types(r.Segments))
			}
		})
	}
}

// TestTerraformAWSAuthGivesWay: an aws-auth whose roles are Terraform references gives way to a
// later copy that names them by ARN (the ConfigMap as the cluster has it); otherwise the first
// aws-auth of a paste is used.
func TestTerraformAWSAuthGivesWay(t *testing.T) {
	tf := "module \"aws_auth\" {\n  source  = \"terraform-aws-modules/eks/aws//modules/aws-auth\"\n  manage_aws_auth_configmap = true\n  aws_auth_roles = [\n    {\n      rolearn  = aws_iam_role.spot.arn\n      username = \"system:node:{{EC2PrivateDNSName}}\"\n      groups   = [\"system:bootstrappers\", \"system:nodes\"]\n    },\n  ]\n}\n"
	cm := "$ kubectl -n kube-system get cm aws-auth -o jsonpath='{.data.mapRoles}'\n- \"groups\":\n  - \"system:bootstrappers\"\n  - \"system:nodes\"\n  \"rolearn\": \"arn:aws:iam::111122223333:role/spot-node\"\n  \"username\": \"system:node:{{EC2PrivateDNSName}}\"\n"
	for name, c := range map[string]struct {
		paste, want string
	}{
		"reference then ARN": {tf + "\n" + cm, "arn:aws:iam::111122223333:role/spot-node"},
		"two by ARN":         {cm + "\n" + strings.ReplaceAll(cm, "spot-node", "other-node"), "arn:aws:iam::111122223333:role/other-node"}, // shown again: the later copy
	} {
		t.Run(name, func(t *testing.T) {
			r := Read([]byte(c.paste), "stdin", Options{})
			a := r.Evidence.AWSAuth
			if a == nil || len(a.Roles) != 1 || a.Roles[0].RoleArn != c.want {
				t.Fatalf("aws-auth %+v, want the role %s (segments %v)", a, c.want, types(r.Segments))
			}
		})
	}
}

// TestTerraformUserDataHeredocInFunction: an aws_launch_template whose user_data is a heredoc
// passed to a function (base64encode(<<-EOT … EOT)), as Terraform configuration writes it (red
// team 10a finding 12, case46), is read as the user data inside: a NodeConfig naming another
// cluster is known, never "log (text)".
func TestTerraformUserDataHeredocInFunction(t *testing.T) {
	nc := "    " + strings.ReplaceAll(strings.TrimRight("---\n"+nodeConfigFor("staging"), "\n"), "\n", "\n    ")
	for _, fn := range []string{"base64encode(", "base64gzip(", ""} {
		body := "resource \"aws_launch_template\" \"nodes\" {\n  name_prefix = \"prod-nodes-\"\n\n  user_data = " + fn + "<<-EOT\n" + nc + "\n  EOT\n"
		if fn != "" {
			body += "  )\n"
		}
		body += "}\n"
		r := Read([]byte(body), "main.tf", Options{})
		var got []string
		for _, s := range r.Segments {
			got = append(got, string(s.Type)+":"+s.Detail)
			if s.Type == TypeLog {
				t.Errorf("%q: read as a log: %v", fn, got)
			}
		}
		if b := r.Evidence.Bootstrap; b == nil || b.ClusterName != "staging" {
			t.Errorf("%q: segments %v; bootstrap %+v, want cluster staging", fn, got, b)
		}
	}
}
