package cli

import (
	"os"
	"path/filepath"
	"strings"
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

// TestConsequenceNeedsTheSameAttempt: "cni plugin not initialized" follows from a TLS failure
// of the same attempt to join (the kubelet never registers, aws-node never starts), but not
// from one logged days earlier: artefacts of two nodes or two days pasted together each keep
// their own cause.
func TestConsequenceNeedsTheSameAttempt(t *testing.T) {
	tls := `2024-07-24T15:30:01.118732Z stderr F E0724 15:30:01.118732    2841 kubelet_node_status.go:107] "Unable to register node with API server" err="Post \"https://0A1B.gr7.us-west-2.eks.amazonaws.com/api/v1/nodes\": tls: failed to verify certificate: x509: certificate signed by unknown authority" node="ip-10-0-12-34"` + "\n"
	cni := func(day string) string {
		return "2024-07-" + day + `T15:30:02.118732Z stderr F E07` + day + ` 15:30:02.118732    2841 kubelet.go:3117] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"` + "\n"
	}
	// CRI-format lines (RFC 3339 prefixes): the times are dated, so they can be compared
	status := func(in string) (cni string, tlsFails bool) {
		_, r, _, _ := analyze(t, in, "-")
		for _, f := range r.Findings {
			switch f.ID {
			case "runtime.cni-not-ready":
				cni = f.Status + " " + f.Message
			case "runtime.tls-untrusted":
				tlsFails = f.Status == "fail"
			}
		}
		return
	}
	same := tls + cni("24") + cni("24") + cni("24")
	if got, ok := status(same); !ok || !strings.HasPrefix(got, "skipped "+checks.ConsequencePrefix) {
		t.Errorf("same attempt: runtime.cni-not-ready = %q (tls fails: %v), want a consequence of runtime.tls-untrusted", got, ok)
	}
	apart := tls + cni("27") + cni("27") + cni("27")
	if got, ok := status(apart); !ok || !strings.HasPrefix(got, "fail ") {
		t.Errorf("three days apart: runtime.cni-not-ready = %q (tls fails: %v), want it failing on its own", got, ok)
	}
}
