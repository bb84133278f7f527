package ingest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// awsAuthManifest is an aws-auth ConfigMap as kubectl -n kube-system get cm aws-auth -o yaml
// prints it (17 lines), mapping a node role and a hybrid nodes role.
const awsAuthManifest = `apiVersion: v1
kind: ConfigMap
metadata:
  name: aws-auth
  namespace: kube-system
data:
  mapRoles: |
    - rolearn: arn:aws:iam::111122223333:role/prod-node-role
      username: system:node:{{EC2PrivateDNSName}}
      groups:
        - system:bootstrappers
        - system:nodes
    - rolearn: arn:aws:iam::111122223333:role/AmazonEKSHybridNodesRole
      username: system:node:{{SessionName}}
      groups:
        - system:bootstrappers
        - system:nodes
`

// TestTwoManifestsWithoutSeparator: two Kubernetes-style YAML documents pasted one under the
// other with no "---" between them, only blank lines and perhaps one line of the poster's
// words that YAML would read as a key with no value ("nodeadm config on the host:"), are two
// documents: YAML forbids a mapping's key twice, so a second apiVersion or kind at column 0 after
// a blank line starts another document. Each is read alone and the words between them are prose,
// whatever their case or punctuation (red team 11a #8: the aws-auth ConfigMap and the NodeConfig
// became one NodeConfig, aws-auth was lost and "data" was an unknown NodeConfig field).
func TestTwoManifestsWithoutSeparator(t *testing.T) {
	nc := nodeConfigFor("prod")
	for _, sep := range []string{
		"nodeadm config on the host:",
		"then:",
		"NodeConfig:",
		"and here's the nodeconfig, from /etc/eks/nodeadm.yaml:",
		"Here is the nodeadm config on the host:",
		"",
	} {
		for _, order := range []string{"aws-auth first", "NodeConfig first"} {
			t.Run(order+"/"+sep, func(t *testing.T) {
				first, second := awsAuthManifest, nc
				firstType, secondType := TypeAWSAuth, TypeNodeConfig
				if order == "NodeConfig first" {
					first, second, firstType, secondType = nc, awsAuthManifest, TypeNodeConfig, TypeAWSAuth
				}
				body := "Hybrid nodes don't register. Cluster is CONFIG_MAP auth mode.\n\n" + first + "\n"
				if sep != "" {
					body += sep + "\n\n"
				}
				body += second
				firstLo := 3
				firstHi := firstLo + strings.Count(first, "\n") - 1
				secondLo := firstHi + 2
				if sep != "" {
					secondLo += 2
				}
				secondHi := secondLo + strings.Count(second, "\n") - 1
				r := Read([]byte(body), "paste.txt", Options{})
				var got []string
				for _, s := range r.Segments {
					got = append(got, fmt.Sprintf("%s %d-%d", s.Type, s.First, s.Last))
				}
				want := []string{
					fmt.Sprintf("%s %d-%d", firstType, firstLo, firstHi),
					fmt.Sprintf("%s %d-%d", secondType, secondLo, secondHi),
				}
				if sep != "" {
					want = []string{want[0], fmt.Sprintf("%s %d-%d", TypeProse, firstHi+2, firstHi+2), want[1]}
				}
				want = append([]string{fmt.Sprintf("%s 1-1", TypeProse)}, want...)
				if strings.Join(got, "; ") != strings.Join(want, "; ") {
					t.Fatalf("segments\n  %s\nwant\n  %s", strings.Join(got, "; "), strings.Join(want, "; "))
				}
				if !r.Evidence.Have(evidence.KindAWSAuth) {
					t.Errorf("aws-auth not read")
				}
				if b := r.Evidence.Bootstrap; b == nil || b.HasErrors() || len(b.Issues) > 0 {
					t.Errorf("bootstrap %+v, want a NodeConfig with no issue", b)
				}
			})
		}
	}
}

// TestHybridNodeConfigTarget: a pasted hybrid NodeConfig (spec.hybrid) names the cluster, and the
// run says the configuration is a hybrid node's; spec.cluster.region, a field of the hybrid
// nodeadm's API (aws/eks-hybrid api/v1alpha1/nodeconfig_types.go), is no unknown field (red
// team 11a #6).
func TestHybridNodeConfigTarget(t *testing.T) {
	r := Read([]byte(`apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: my-hybrid-cluster
    region: us-west-2
  hybrid:
    ssm:
      activationCode: ys25k3gpt8zzyl9jhn6gq8rj3519owjelyz7
      activationId: 57be8cce-1137-32d4-ce32-ba044ea5df48
`), "nodeconfig.yaml", Options{})
	if got := r.Evidence.Target; got.Cluster != "my-hybrid-cluster" || got.ClusterSource != "the hybrid node's NodeConfig" {
		t.Errorf("target cluster %q from %q, want my-hybrid-cluster from the hybrid node's NodeConfig", got.Cluster, got.ClusterSource)
	}
	if b := r.Evidence.Bootstrap; b == nil || len(b.Issues) > 0 {
		t.Errorf("bootstrap %+v, want no issue", b)
	}
}
