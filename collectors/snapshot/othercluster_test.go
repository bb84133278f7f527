package snapshot

import "testing"

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
