package cli

import (
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestRelevantGapsNeedsAny: a check that needs any one of several kinds and holds one of them
// does not make the others' gaps relevant (bootstrap.userdata-too-large reads an EC2NodeClass's
// user data only when no instance user data is held); with none held, every one is.
func TestRelevantGapsNeedsAny(t *testing.T) {
	c := checks.Check{Meta: checks.Meta{ID: "bootstrap.userdata-too-large", NeedsAny: []evidence.Kind{evidence.KindBootstrap, evidence.KindEC2NodeClasses}}}
	classes := evidence.Gap{Kind: evidence.KindEC2NodeClasses, Reason: "not installed"}
	if got := relevantGaps([]evidence.Gap{classes}, []checks.Check{c}, nil); len(got) != 0 {
		t.Errorf("user data held: gaps %v, want none", got)
	}
	both := []evidence.Gap{{Kind: evidence.KindBootstrap, Reason: "not collected"}, classes}
	if got := relevantGaps(both, []checks.Check{c}, nil); len(got) != 2 {
		t.Errorf("neither held: gaps %v, want both", got)
	}
}
