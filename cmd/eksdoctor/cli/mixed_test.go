package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/eksdoctor/eksdoctor/fixtures/realworld"
)

// TestMixedPastesFromCorpus: a pasted issue body holding two artefacts of the real-world corpus
// (a log and a configuration, kubectl or AWS CLI output, each in a Markdown fence after prose)
// yields every expected finding each artefact yields alone.
func TestMixedPastesFromCorpus(t *testing.T) {
	cases, err := realworld.LoadCases(filepath.Join(fixtures, "realworld"))
	if err != nil {
		t.Fatal(err)
	}
	pairs := realworld.MixedPairs(cases)
	if len(pairs) < 20 {
		t.Fatalf("only %d mixed pastes from the corpus, want at least 20", len(pairs))
	}
	found, kept := 0, 0
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
		for id := range want {
			found++
			if got[id] {
				kept++
				continue
			}
			// one paste is read as one node: another artefact can legitimately explain a line
			// (a failed bootstrap makes "cni plugin not initialized" its consequence)
			t.Logf("%s + %s: %s fails alone but not in the mixed paste\n%s", filepath.Base(p[0].Dir), filepath.Base(p[1].Dir), id, stderr)
		}
	}
	t.Logf("%d mixed pastes: %d of %d causes found alone are found in the mix", len(pairs), kept, found)
	if found == 0 || kept*100 < found*95 {
		t.Errorf("%d of %d causes found alone are found in the mixes, want at least 95 %%", kept, found)
	}
}
