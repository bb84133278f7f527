package ingest

import (
	"strings"
	"testing"
)

// TestDocumentEndsWhereLogStarts: a configuration document (kubeconfig, NodeConfig, shell user
// data, Bottlerocket TOML, aws-auth) with kubelet lines pasted under it — after a blank line or
// right under its last line — ends where the log starts: the log is read as log (its finding is
// found), and the document is judged on its own lines (never "malformed" or "unparseable" for
// the journal lines under it). A document's own blank lines keep it whole.
func TestDocumentEndsWhereLogStarts(t *testing.T) {
	unauth := "Nov 24 10:00:01 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:00:01.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.ec2.internal\"\n" +
		"Nov 24 10:00:08 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:00:08.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.ec2.internal\"\n"
	x509 := "Nov 24 10:00:01 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:00:01.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Post \\\"https://ABCDEF.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes\\\": tls: failed to verify certificate: x509: certificate signed by unknown authority\" node=\"ip-10-0-1-23.ec2.internal\"\n"
	klog := "E1124 10:00:01.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.ec2.internal\"\n"
	kubeconfig := "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    certificate-authority: /etc/kubernetes/pki/ca.crt\n    server: https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com\n  name: kubernetes\ncontexts:\n- context:\n    cluster: kubernetes\n    user: kubelet\n  name: kubelet\ncurrent-context: kubelet\nusers:\n- name: kubelet\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: /usr/bin/aws-iam-authenticator\n      args:\n        - \"token\"\n        - \"-i\"\n        - \"prod\"\n"
	ca := "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo="
	nodeConfig := "---\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n    apiServerEndpoint: https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com\n    certificateAuthority: " + ca + "\n    cidr: 10.100.0.0/16\n"
	shell := "#!/bin/bash\nset -ex\n/etc/eks/bootstrap.sh prod --b64-cluster-ca " + ca + " --apiserver-endpoint https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com\n"
	shellBlank := "#!/bin/bash\nset -ex\n\nyum install -y amazon-ssm-agent\n\n/etc/eks/bootstrap.sh prod --b64-cluster-ca " + ca + " --apiserver-endpoint https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com\n"
	toml := "[settings.kubernetes]\ncluster-name = \"prod\"\napi-server = \"https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com\"\ncluster-certificate = \"" + ca + "\"\n"
	awsAuth := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/prod-node-role\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\n"
	console := "[    8.914201] [FAILED] Failed to start nodeadm-config.service - EKS Nodeadm Config.\n[    8.915330] See 'systemctl status nodeadm-config.service' for details.\n[   12.203017] cloud-init[2103]: /var/lib/cloud/instance/scripts/part-001: line 3: /etc/eks/bootstrap.sh: No such file or directory\n"
	n := func(s string) int { return strings.Count(s, "\n") }
	cases := []struct {
		name, doc, sep, log string
		want                Type
		finding             string
	}{
		{"kubeconfig, blank line, journal", kubeconfig, "\n", unauth, TypeKubeconfig, "runtime.unauthorized"},
		{"NodeConfig, blank line, journal", nodeConfig, "\n", unauth, TypeNodeConfig, "runtime.unauthorized"},
		{"shell user data, blank line, journal", shell, "\n", unauth, TypeUserData, "runtime.unauthorized"},
		{"shell user data with blank lines, blank line, journal", shellBlank, "\n", unauth, TypeUserData, "runtime.unauthorized"},
		{"Bottlerocket TOML, blank line, journal", toml, "\n", unauth, TypeUserData, "runtime.unauthorized"},
		{"aws-auth, blank line, journal", awsAuth, "\n", unauth, TypeAWSAuth, "runtime.unauthorized"},
		{"aws-auth, journal right under it", awsAuth, "", x509, TypeAWSAuth, "runtime.tls-untrusted"},
		{"kubeconfig, two blank lines, klog", kubeconfig, "\n\n", klog, TypeKubeconfig, "runtime.unauthorized"},
		{"shell user data, blank line, console output (kernel times)", shell, "\n", console, TypeUserData, "runtime.bootstrap-failed"},
		{"kubeconfig fenced with the journal", "```\n" + kubeconfig, "\n", unauth + "```\n", TypeKubeconfig, "runtime.unauthorized"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			paste := c.doc + c.sep + c.log
			segs := Segments([]byte(paste))
			first := 1
			if strings.HasPrefix(c.doc, "```") || strings.HasPrefix(c.doc, "---") { // a fence or document marker is not the document's
				first = 2
			}
			var doc, log *Segment
			for i := range segs {
				switch {
				case segs[i].Type == c.want && doc == nil:
					doc = &segs[i]
				case segs[i].Type == TypeLog:
					log = &segs[i]
				}
			}
			if doc == nil || log == nil {
				t.Fatalf("segments %v, want %s then log", types(segs), c.want)
			}
			if doc.First != first || doc.Last != n(c.doc) || doc.Problem != "" {
				t.Errorf("%s at lines %d-%d (problem %q), want lines %d-%d and no problem", doc.Type, doc.First, doc.Last, doc.Problem, first, n(c.doc))
			}
			if want := n(c.doc+c.sep) + 1; log.First != want {
				t.Errorf("log starts at line %d, want %d", log.First, want)
			}
			r := Read([]byte(paste), "paste.txt", Options{})
			if r.Evidence.NodeLogs == nil {
				t.Fatalf("no node log read; segments %v", types(r.Segments))
			}
			found := false
			for _, h := range r.Evidence.NodeLogs.Hits {
				found = found || h.Finding == c.finding
			}
			if !found {
				t.Errorf("no %s among the log's hits %+v", c.finding, r.Evidence.NodeLogs.Hits)
			}
		})
	}
}
