package snapshot

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/layout"
)

// TestNarrowedOutputsReadAsTheCommand: every fixture snapshot whose AWS CLI files were saved
// narrowed by a --query (the list of items without the output's top-level key, instances as
// `--query 'Reservations[].Instances[]'` gives them, single objects as `--query cluster` gives
// them) is diagnosed as the original is: the same verdict, most likely cause and failing IDs,
// and no file reported unusable; and each narrowed value alone (a paste without its command
// line) names the command it came from.
func TestNarrowedOutputsReadAsTheCommand(t *testing.T) {
	ents, err := os.ReadDir("../../fixtures/snapshots")
	if err != nil {
		t.Fatal(err)
	}
	metas := map[string]checks.Meta{}
	for _, c := range checks.All() {
		metas[c.Meta.ID] = c.Meta
	}
	diagnose := func(files map[string][]byte) (string, []FileProblem) {
		s := FromFiles("test", files)
		ids := s.InstanceIDs()
		if len(ids) == 0 {
			return "no instance", s.Problems
		}
		ev, err := s.Evidence(ids[0], "")
		if err != nil {
			return "error: " + err.Error(), s.Problems
		}
		fs := checks.Run(checks.All(), ev)
		d := checks.Conclude(fs, metas, ev)
		var failing []string
		for _, f := range fs {
			if f.Status == checks.StatusFail {
				failing = append(failing, f.ID)
			}
		}
		slices.Sort(failing)
		return string(d.Verdict) + " " + d.MostLikelyCause + " " + strings.Join(failing, ","), s.Problems
	}
	narrowed := 0
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		files := fixtureFiles(t, "../../fixtures/snapshots/"+e.Name())
		want, wantProblems := diagnose(files)
		changed := map[string][]byte{}
		for p, b := range files {
			if n, ok := narrow(p, b); ok {
				changed[p] = n
				// pasted without a command line, the narrowed value names its command alone
				var v any
				_ = json.Unmarshal(n, &v)
				want, _ := layout.Match(p)
				if got, _, ok := layout.RewrapAny(v); !ok || got.Path != want.Path {
					t.Errorf("%s/%s narrowed: RewrapAny = %s, %v; want %s", e.Name(), p, got.Path, ok, want.Path)
				}
			}
		}
		for p, n := range changed {
			files[p] = n
			narrowed++
		}
		got, problems := diagnose(files)
		if got != want || len(problems) != len(wantProblems) {
			t.Errorf("%s with %d files narrowed: %q (problems %v), want %q (problems %v)", e.Name(), len(changed), got, problems, want, wantProblems)
		}
	}
	if narrowed < 200 {
		t.Fatalf("only %d files narrowed", narrowed)
	}
}

// narrow returns the file at p as a --query would narrow it: its top-level key's value (the
// instances of every reservation for describe-instances), when the layout has an item shape
// for it.
func narrow(p string, b []byte) ([]byte, bool) {
	e, ok := layout.Match(p)
	if !ok || strings.HasPrefix(e.Path, "kube/") {
		return nil, false
	}
	var top map[string]any
	if json.Unmarshal(b, &top) != nil {
		return nil, false
	}
	v, ok := top[e.PasteKey]
	if !ok {
		return nil, false
	}
	if e.PasteKey == "Reservations" {
		var insts []any
		for _, r := range v.([]any) {
			insts = append(insts, r.(map[string]any)["Instances"].([]any)...)
		}
		v = insts
	}
	if l, isList := v.([]any); isList && len(l) == 0 {
		return nil, false // an empty list names no command
	}
	if _, rewrappable := e.Rewrap(v); !rewrappable {
		return nil, false
	}
	n, err := json.MarshalIndent(v, "", "  ")
	return n, err == nil
}
