package snapshot

import (
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestOtherClusterOfTags (red team round 3, F6): which tags make an instance another cluster's.
func TestOtherClusterOfTags(t *testing.T) {
	for _, c := range []struct {
		tags    map[string]string
		cluster string
		want    string
	}{
		{map[string]string{"eks:cluster-name": "staging", "kubernetes.io/cluster/staging": "owned"}, "prod", "staging"},
		{map[string]string{"eks:cluster-name": "prod"}, "prod", ""},
		{map[string]string{"aws:eks:cluster-name": "dev"}, "prod", "dev"},
		// eks:cluster-name decides over a kubernetes.io/cluster/ key
		{map[string]string{"eks:cluster-name": "staging", "kubernetes.io/cluster/prod": "owned"}, "prod", "staging"},
		// a resource shared by several clusters is this one's when one key names it
		{map[string]string{"kubernetes.io/cluster/b": "shared", "kubernetes.io/cluster/prod": "shared"}, "prod", ""},
		{map[string]string{"kubernetes.io/cluster/zeta": "owned", "kubernetes.io/cluster/alpha": "owned"}, "prod", "alpha"},
		{map[string]string{"Name": "node"}, "prod", ""},
		{map[string]string{"eks:cluster-name": "staging"}, "", ""},
	} {
		if got := OtherClusterOfTags(c.tags, c.cluster); got != c.want {
			t.Errorf("OtherClusterOfTags(%v, %q) = %q, want %q", c.tags, c.cluster, got, c.want)
		}
	}
}

// TestOtherClusterOf (red team round 5, finding 8): with no tag naming any cluster, the cluster
// the user data bootstraps is the only evidence of the instance's cluster; a user data that
// points at this cluster's endpoint or CA is this cluster's node given a wrong name.
func TestOtherClusterOf(t *testing.T) {
	const ep, ca = "https://PROD.gr7.us-west-2.eks.amazonaws.com", "UFJPRENB"
	untagged := map[string]string{"Name": "staging-worker", "aws:autoscaling:groupName": "staging-workers"}
	for _, c := range []struct {
		name        string
		tags        map[string]string
		b           *evidence.BootstrapConfig
		want, wantS string
	}{
		{"user data of another cluster", untagged, &evidence.BootstrapConfig{ClusterName: "staging", APIServerEndpoint: "https://STAGING.gr7.us-west-2.eks.amazonaws.com"}, "staging", "user data"},
		{"user data names no endpoint", untagged, &evidence.BootstrapConfig{ClusterName: "staging"}, "staging", "user data"},
		{"tags decide over user data", map[string]string{"kubernetes.io/cluster/prod": "owned"}, &evidence.BootstrapConfig{ClusterName: "staging"}, "", ""},
		{"tags of another cluster", map[string]string{"eks:cluster-name": "dev"}, &evidence.BootstrapConfig{ClusterName: "prod"}, "dev", "tags"},
		{"this cluster's endpoint: a wrong name", untagged, &evidence.BootstrapConfig{ClusterName: "staging", APIServerEndpoint: ep + "/"}, "", ""},
		{"this cluster's CA, no endpoint: a wrong name", untagged, &evidence.BootstrapConfig{ClusterName: "staging", CertificateAuthority: ca}, "", ""},
		// the endpoint names the cluster the kubelet talks to: it decides over a CA (case15)
		{"this cluster's CA, another endpoint", untagged, &evidence.BootstrapConfig{ClusterName: "staging", CertificateAuthority: ca, APIServerEndpoint: "https://STAGING.gr7.us-west-2.eks.amazonaws.com"}, "staging", "user data"},
		{"user data of this cluster", untagged, &evidence.BootstrapConfig{ClusterName: "prod"}, "", ""},
		{"unresolved name", untagged, &evidence.BootstrapConfig{ClusterName: "staging", Unresolved: map[string]string{"clusterName": "$CLUSTER"}}, "", ""},
		{"a flag for a name", untagged, &evidence.BootstrapConfig{ClusterName: "--b64-cluster-ca"}, "", ""},
		{"no user data", untagged, nil, "", ""},
	} {
		got, src := OtherClusterOf(c.tags, c.b, "prod", ep, ca)
		if got != c.want || src != c.wantS {
			t.Errorf("%s: OtherClusterOf = %q, %q; want %q, %q", c.name, got, src, c.want, c.wantS)
		}
	}
}
