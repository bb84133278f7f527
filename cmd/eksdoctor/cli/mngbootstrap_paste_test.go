package cli

import (
	"slices"
	"testing"
)

// TestManagedNodeGroupUserDataWithoutBootstrap: the user data of a managed node group's launch
// template, pasted beside describe-nodegroup, lacks the bootstrap step because EKS adds it (it
// merges its own settings into Bottlerocket TOML, appends bootstrap.sh to AL2's MIME parts,
// adds a NodeConfig part on AL2023) unless the group's amiType is CUSTOM: bootstrap.no-bootstrap
// does not fail then; with a CUSTOM group it does.
func TestManagedNodeGroupUserDataWithoutBootstrap(t *testing.T) {
	toml := "This is the user data of our launch template:\n\n[settings.kubernetes.node-labels]\n\"workload\" = \"batch\"\n\n[settings.kernel.sysctl]\n\"vm.max_map_count\" = \"262144\"\n\n"
	ng := func(amiType string) string {
		return "$ aws eks describe-nodegroup --cluster-name analytics-eu --nodegroup-name br-batch-a\n{\n    \"nodegroup\": {\n        \"nodegroupName\": \"br-batch-a\",\n        \"clusterName\": \"analytics-eu\",\n        \"version\": \"1.31\",\n        \"status\": \"CREATE_FAILED\",\n        \"amiType\": \"" + amiType + "\",\n        \"nodeRole\": \"arn:aws:iam::123456789012:role/br-node\",\n        \"launchTemplate\": {\"id\": \"lt-0abc\", \"version\": \"3\"}\n    }\n}\n"
	}
	for _, c := range []struct {
		amiType string
		fails   bool
	}{{"BOTTLEROCKET_x86_64", false}, {"CUSTOM", true}} {
		t.Run(c.amiType, func(t *testing.T) {
			_, r, _, errOut := analyze(t, toml+ng(c.amiType), "-")
			if got := slices.Contains(failing(r), "bootstrap.no-bootstrap"); got != c.fails {
				t.Errorf("bootstrap.no-bootstrap fails %v, want %v: %v\n%s", got, c.fails, failing(r), errOut)
			}
		})
	}
}
