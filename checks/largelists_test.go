package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestNodeMappingsLinearInEntries: judging aws-auth's node mappings looks at each mapRoles entry
// a bounded number of times, and the authenticator's rule (the last entry for an ARN decides)
// still holds. Red team 8b #21: an aws-auth of 22,872 mapRoles entries (3.9 MB, under the paste
// cap) ran for more than a minute; each node mapping was searched for in every entry.
func TestNodeMappingsLinearInEntries(t *testing.T) {
	judge := func(n int) ([]Finding, int64) {
		ev := healthyEvidence()
		ev.NodeRole, ev.InstanceProfile = nil, nil // a pasted aws-auth alone: every node mapping is judged
		roles := make([]evidence.RoleMapping, 0, n+1)
		for i := range n {
			roles = append(roles, evidence.RoleMapping{Index: i, RoleArn: fmt.Sprintf("arn:aws:iam::111122223333:role/r%d", i),
				Username: NodeUsername, Groups: []string{"system:bootstrappers", "system:nodes"}})
		}
		// a later entry for r1 (other case, spaces) drops system:nodes: that one decides
		roles = append(roles, evidence.RoleMapping{Index: n, RoleArn: " ARN:aws:iam::111122223333:role/R1 ", Username: NodeUsername, Groups: []string{"system:bootstrappers"}})
		ev.AWSAuth = &evidence.AWSAuth{Present: true, Roles: roles}
		before := mappingSteps.Load()
		var out []Finding
		for _, f := range Run(All(), ev) {
			if f.ID == "auth.missing-groups" {
				out = append(out, f)
			}
		}
		return out, mappingSteps.Load() - before
	}
	small, smallSteps := judge(500)
	large, largeSteps := judge(2000)
	for _, fs := range [][]Finding{small, large} {
		if len(fs) != 1 || fs[0].Status != StatusFail || !strings.Contains(fs[0].Message, "system:nodes") || !strings.Contains(fs[0].Message, "entry 2 also maps it as a node") {
			t.Fatalf("auth.missing-groups: %+v, want one failure for the last entry of r1, naming entry 2", fs)
		}
	}
	if largeSteps > 5*smallSteps {
		t.Errorf("mapRoles entries looked at: %d for 500 entries, %d for 2,000: more than linear", smallSteps, largeSteps)
	}
}
