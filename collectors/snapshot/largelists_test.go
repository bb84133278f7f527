package snapshot

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestListOverItemLimit: a list of more than MaxListItems items (a kubectl List, an AWS CLI
// output's list) is an input problem naming the limit, its evidence a gap, and reading it
// allocates a few bytes per input byte more than the healthy snapshot, however small its items. Red team 8b #21: a 60 MB
// kube/nodes.json of `{}` items (60 KB as .tar.gz) ran for more than a minute at 1.4–1.75 GB,
// every empty item held as a Node.
func TestListOverItemLimit(t *testing.T) {
	n := MaxListItems + 1
	healthy := fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
	alloc := func(files map[string][]byte) (*evidence.Evidence, *Snapshot, uint64) {
		s := FromFiles("test", files)
		ev, total := evidenceAlloc(t, s)
		return ev, s, total
	}
	alloc(healthy) // the log scanner's tables, built once
	_, _, base := alloc(healthy)
	for _, c := range []struct {
		path, doc string
		kind      evidence.Kind
	}{
		{"kube/nodes.json", `{"apiVersion":"v1","kind":"List","items":[{"kind":"Node"}` + strings.Repeat(",{}", n-1) + `]}`, evidence.KindNodes},
		{"ec2/describe-subnets.json", `{"Subnets":[` + strings.Repeat("{},", n-1) + `{}]}`, evidence.KindSubnets},
	} {
		files := fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
		files[c.path] = []byte(c.doc)
		ev, s, total := alloc(files)
		want := fmt.Sprintf("more than the %d items", MaxListItems)
		if pr := problemFor(s, c.path); !strings.Contains(pr, want) {
			t.Errorf("%s: input problem %q, want it to say %q", c.path, pr, want)
		}
		if src := ev.Source(c.kind); src != "" {
			t.Errorf("%s: %s read from %s, want a gap", c.path, c.kind, src)
		}
		perByte := (float64(total) - float64(base)) / float64(len(c.doc)) // beyond what the healthy snapshot allocates
		t.Logf("%s: %.1f bytes allocated per input byte", c.path, perByte)
		if perByte > 8 {
			t.Errorf("%s: %.0f bytes allocated per input byte, want at most 8", c.path, perByte)
		}
	}
}

// evidenceAlloc builds the evidence of s's first instance and returns it with the bytes allocated
// meanwhile (runtime.MemStats.TotalAlloc, after a collection).
func evidenceAlloc(t *testing.T, s *Snapshot) (*evidence.Evidence, uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return ev, after.TotalAlloc - before.TotalAlloc
}
