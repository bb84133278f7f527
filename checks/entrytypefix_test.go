package checks

import (
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestAccessEntryTypeFixNamesTheTypeTheNodeNeeds: auth.access-entry-type's fix recreates the entry
// with the type this node needs — EC2 with the AmazonEKSAutoNodePolicy for an EKS Auto Mode node,
// HYBRID_LINUX for a hybrid node, EC2 for a node named after its instance ID — not the catalog's
// EC2_LINUX, which is the wrong type for those (it was the fix printed under an Auto Mode node's
// EC2_LINUX entry).
func TestAccessEntryTypeFixNamesTheTypeTheNodeNeeds(t *testing.T) {
	c, ok := Default().Get("auth.access-entry-type")
	if !ok {
		t.Fatal("auth.access-entry-type not registered")
	}
	for _, tc := range []struct {
		name      string
		set       func(*evidence.Evidence)
		has, lack []string
	}{
		{"Auto Mode", func(ev *evidence.Evidence) {
			ev.AccessEntries[0].Type = "EC2_LINUX"
			ev.Provisioner = evidence.Provisioner{Kind: evidence.ProvisionerAutoMode, Because: "NodeClaim a uses NodeClass b of eks.amazonaws.com"}
		}, []string{"--type EC2,", "AmazonEKSAutoNodePolicy", tRole}, []string{"EC2_LINUX (or"}},
		{"hybrid", func(ev *evidence.Evidence) {
			ev.Provisioner = evidence.Provisioner{Kind: evidence.ProvisionerHybrid, Because: "NodeConfig spec.hybrid"}
		}, []string{"--type HYBRID_LINUX", tRole}, []string{"EC2_LINUX (or"}},
		{"EC2 node with STANDARD", func(ev *evidence.Evidence) { ev.AccessEntries[0].Type = "STANDARD" }, []string{"--type EC2_LINUX"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := healthyEvidence()
			tc.set(ev)
			f := soleFinding(t, c, ev)
			if f.Status != StatusFail {
				t.Fatalf("status %s: %s", f.Status, f.Message)
			}
			textHolds(t, "fix", f.Remediation, tc.has, tc.lack)
		})
	}
}
