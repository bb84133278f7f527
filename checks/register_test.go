package checks

import (
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestRegisteredChecksJoinAll: a check group a file registers for itself is part of All, after
// the built-in groups, without an edit of all.go.
func TestRegisteredChecksJoinAll(t *testing.T) {
	saved := registered
	defer func() { registered = saved }()
	n := len(All())
	registerChecks(func() []Check {
		return []Check{{Meta: Meta{ID: "example.volumes", Title: "example"}, Eval: func(*evidence.Evidence) []Finding { return nil }}}
	})
	all := All()
	if len(all) != n+1 || all[len(all)-1].Meta.ID != "example.volumes" {
		t.Fatalf("All has %d checks (was %d), last %q", len(all), n, all[len(all)-1].Meta.ID)
	}
}
