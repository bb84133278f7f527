package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// soleFinding runs check c on ev and returns its one finding; the test stops when c gives none
// or several.
func soleFinding(t *testing.T, c Check, ev *evidence.Evidence) Finding {
	t.Helper()
	fs := Run([]Check{c}, ev)
	if len(fs) != 1 {
		t.Fatalf("got %d findings: %+v", len(fs), fs)
	}
	return fs[0]
}

// textHolds reports a test error for each string of has that text (a finding's message or
// remediation, named what) lacks and each of hasNot it holds.
func textHolds(t *testing.T, what, text string, has, hasNot []string) {
	t.Helper()
	for _, s := range has {
		if !strings.Contains(text, s) {
			t.Errorf("%s %q lacks %q", what, text, s)
		}
	}
	for _, s := range hasNot {
		if strings.Contains(text, s) {
			t.Errorf("%s %q holds %q", what, text, s)
		}
	}
}
