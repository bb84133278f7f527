package ingest

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// nodeConfigFor is a NodeConfig for cluster name, as nodeadm reads it (node.eks.aws/v1alpha1).
func nodeConfigFor(name string) string {
	return `apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: ` + name + `
    apiServerEndpoint: https://ABCDEF0123456789ABCDEF0123456789.gr7.eu-west-1.eks.amazonaws.com
    certificateAuthority: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==
    cidr: 10.100.0.0/16
`
}

// TestPastedNodeConfigInvalidYAML: a NodeConfig pasted whole whose YAML does not parse (a key
// indented one space off) is the node's user data that nodeadm rejects, as the same bytes are
// in a snapshot: it is read as NodeConfig user data with a parse error, never as a log.
func TestPastedNodeConfigInvalidYAML(t *testing.T) {
	bad := nodeConfigFor("prod") + "  kubelet:\n    config:\n      maxPods: 58\n     flags:\n      - --node-labels=team=a\n"
	for name, body := range map[string]string{
		"alone":        bad,
		"with marker":  "---\n" + bad,
		"after prompt": "$ cat nodeconfig.yaml\n---\n" + bad,
		"comment":      "# managed by terraform\n" + bad,
	} {
		t.Run(name, func(t *testing.T) {
			r := Read([]byte(body), "stdin", Options{})
			var got []string
			nc := false
			for _, s := range r.Segments {
				got = append(got, string(s.Type)+":"+s.Detail)
				if s.Type == TypeNodeConfig {
					nc = true
				}
				if s.Type == TypeLog {
					t.Errorf("read as a log: %v", got)
				}
			}
			if !nc {
				t.Fatalf("segments %v, want a NodeConfig", got)
			}
			b := r.Evidence.Bootstrap
			if !r.Evidence.Have(evidence.KindBootstrap) || b == nil || !b.HasErrors() {
				t.Fatalf("bootstrap %+v, want an error issue", b)
			}
			if msg := b.Issues[0].Message; !strings.Contains(msg, "YAML") {
				t.Errorf("issue %q does not say the YAML does not parse", msg)
			}
		})
	}
}

// TestPastedNodeConfigCommentQuoted: a NodeConfig under a "#" comment line whose apiVersion is
// quoted is plain YAML nodeadm decodes; pasted alone or after other output it is read as the
// node's NodeConfig and its cluster name is known.
func TestPastedNodeConfigCommentQuoted(t *testing.T) {
	nc := "# managed by terraform\n" + strings.Replace(nodeConfigFor("prod-old"), "apiVersion: node.eks.aws/v1alpha1", `apiVersion: "node.eks.aws/v1alpha1"`, 1)
	for name, body := range map[string]string{
		"alone":          nc,
		"minimal":        "# c\n" + `apiVersion: "node.eks.aws/v1alpha1"` + "\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod-old\n",
		"single quoted":  "# c\napiVersion: 'node.eks.aws/v1alpha1'\nkind: 'NodeConfig'\nspec:\n  cluster:\n    name: prod-old\n",
		"after a prompt": "$ aws sts get-caller-identity\n{\"UserId\": \"AIDAXXXXXXXXXXXXXXXXX\", \"Account\": \"111122223333\", \"Arn\": \"arn:aws:iam::111122223333:user/me\"}\n\n$ cat nodeconfig.yaml\n" + nc,
	} {
		t.Run(name, func(t *testing.T) {
			r := Read([]byte(body), "stdin", Options{})
			var got []string
			for _, s := range r.Segments {
				got = append(got, string(s.Type)+":"+s.Detail)
			}
			b := r.Evidence.Bootstrap
			if b == nil || b.ClusterName != "prod-old" {
				t.Fatalf("segments %v; bootstrap %+v, want cluster prod-old", got, b)
			}
		})
	}
}

// describeClusterOut is `aws eks describe-cluster --name prod` output, as the CLI prints it.
const describeClusterOut = `{
    "cluster": {
        "name": "prod",
        "arn": "arn:aws:eks:eu-west-1:111122223333:cluster/prod",
        "version": "1.31",
        "endpoint": "https://ABCDEF0123456789ABCDEF0123456789.gr7.eu-west-1.eks.amazonaws.com",
        "resourcesVpcConfig": {"clusterSecurityGroupId": "sg-0c1c1c1c1c1c1c1c1", "vpcId": "vpc-0a1b2c3d4e5f60001"},
        "kubernetesNetworkConfig": {"serviceIpv4Cidr": "10.100.0.0/16", "ipFamily": "ipv4"},
        "status": "ACTIVE"
    }
}
`

// TestCommandOutputThenDocument: a prompt's JSON output, a blank line, then a document pasted
// under it without a prompt of its own (MIME user data, a NodeConfig) are two documents: the
// JSON, complete above the blank line, cannot go on, so the command's output ends there.
func TestCommandOutputThenDocument(t *testing.T) {
	mime := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"==B==\"\n\n--==B==\nContent-Type: application/node.eks.aws\n\n" + nodeConfigFor("prod-old") + "\n--==B==--\n"
	for name, tail := range map[string]string{"MIME": mime, "NodeConfig": nodeConfigFor("prod-old"), "NodeConfig with marker": "---\n" + nodeConfigFor("prod-old")} {
		t.Run(name, func(t *testing.T) {
			body := "$ aws eks describe-cluster --name prod\n" + describeClusterOut + "\n" + tail
			r := Read([]byte(body), "stdin", Options{})
			var got []string
			for _, s := range r.Segments {
				got = append(got, string(s.Type)+":"+s.Detail)
			}
			if !r.Evidence.Have(evidence.KindCluster) || r.Evidence.Cluster == nil || r.Evidence.Cluster.Name != "prod" {
				t.Errorf("segments %v: the cluster was not read", got)
			}
			if b := r.Evidence.Bootstrap; b == nil || b.ClusterName != "prod-old" {
				t.Errorf("segments %v: bootstrap %+v, want cluster prod-old", got, b)
			}
		})
	}
}
