package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/fixtures/realworld"
)

// TestMixedPastesFromCorpus: a pasted issue body holding two artefacts of the real-world corpus
// (a log and a configuration, kubectl or AWS CLI output, each in a Markdown fence after prose)
// yields every expected finding each artefact yields alone, or reports it as a consequence of
// another of them that fails in the mix (one paste is read as one node: a failed bootstrap
// makes "cni plugin not initialized" its consequence).
func TestMixedPastesFromCorpus(t *testing.T) {
	cases, err := realworld.LoadCases(filepath.Join(fixtures, "realworld"))
	if err != nil {
		t.Fatal(err)
	}
	pairs := realworld.MixedPairs(cases)
	if len(pairs) < 20 {
		t.Fatalf("only %d mixed pastes from the corpus, want at least 20", len(pairs))
	}
	found, kept, explained := 0, 0, 0
	for _, p := range pairs {
		var inputs [2][]byte
		want := map[string]bool{}
		for k, c := range p {
			in, err := os.ReadFile(filepath.Join(c.Dir, "input.txt"))
			if err != nil {
				t.Fatal(err)
			}
			inputs[k] = in
			_, r, _, _ := analyze(t, string(in), "-")
			for _, f := range failing(r) {
				for _, e := range c.Expected {
					if e == f {
						want[f] = true
					}
				}
			}
		}
		_, r, _, stderr := analyze(t, string(realworld.IssueBody(inputs[0], inputs[1])), "-")
		got := map[string]bool{}
		for _, f := range failing(r) {
			got[f] = true
		}
		explainedBy := map[string][]string{}
		for _, f := range r.Findings {
			if causes := checks.ConsequenceCauses(f.Message); f.Status == "skipped" && causes != nil {
				explainedBy[f.ID] = causes
			}
		}
		for id := range want {
			found++
			if got[id] {
				kept++
				continue
			}
			explainedByFound := false
			for _, c := range explainedBy[id] {
				explainedByFound = explainedByFound || c != id && got[c] && want[c]
			}
			if explainedByFound {
				explained++
				t.Logf("%s + %s: %s is a consequence of %v in the mixed paste", filepath.Base(p[0].Dir), filepath.Base(p[1].Dir), id, explainedBy[id])
				continue
			}
			t.Logf("%s + %s: %s fails alone but not in the mixed paste\n%s", filepath.Base(p[0].Dir), filepath.Base(p[1].Dir), id, stderr)
		}
	}
	t.Logf("%d mixed pastes: %d of %d causes found alone are found in the mix, %d more reported as consequences of a cause found in it", len(pairs), kept, found, explained)
	if found == 0 || (kept+explained)*100 < found*95 {
		t.Errorf("%d of %d causes found alone are found in the mixes (%d more as consequences of one), want at least 95 %%", kept, found, explained)
	}
}
