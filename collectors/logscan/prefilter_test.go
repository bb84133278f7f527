package logscan

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestPrefilterLiterals pins what the prefilter derives from a pattern's syntax: the rarest
// required factor of a concatenation, every branch of an alternation, nothing when a branch,
// or the whole pattern, has no literal one must contain.
func TestPrefilterLiterals(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{`err="Unauthorized"(.*node="(?P<node>[^"]+)")?`, []string{`err="Unauthorized"`}},
		{`(connect: connection refused|connect: no route to host)`, []string{"connection refused", "no route to host"}}, // the common prefix factored out
		{`(Unable to register node|eks\.amazonaws\.com).*:443: i/o timeout`, []string{":443: i/o timeout"}},
		{`pluto\[\d+\]:.*(?:DescribeInstances|EC2).*UnauthorizedOperation`, []string{"UnauthorizedOperation"}},
		{`(?:ab|cd)x`, nil},       // every literal shorter than minPrefilterLit
		{`(?i)unauthorized`, nil}, // case folded: left to the regexp
		{`(?i)unauthorized: \d+`, nil},
		{`(?:launching nodeclaim)?Unauthorized`, []string{"Unauthorized"}},
		{`(?:foo|bar)?`, nil},
		{`x{0,3}abcd`, []string{"abcd"}},
		{`(?:abcd){2,}`, []string{"abcd"}},
		{`(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen)`, nil},
	} {
		got := newPrefilter(tc.pattern)
		var lits []string
		for _, l := range got.any {
			lits = append(lits, string(l))
		}
		if !reflect.DeepEqual(lits, tc.want) {
			t.Errorf("%s: literals %q, want %q", tc.pattern, lits, tc.want)
		}
	}
}

// TestPrefilterNeverRejectsAMatch: over every signature of the catalog and every line of its
// examples, near-misses and the real-world corpus, a line the pattern matches is one the
// prefilter lets through (a prefilter that rejected it would lose a finding unsaid).
func TestPrefilterNeverRejectsAMatch(t *testing.T) {
	var lines []string
	sigs := Catalog()
	for _, sg := range sigs {
		lines = append(lines, sg.Examples.Match...)
		lines = append(lines, sg.Examples.NoMatch...)
	}
	inputs, _ := filepath.Glob("../../fixtures/realworld/*/input.txt")
	if len(inputs) < 100 {
		t.Fatalf("real-world corpus: %d inputs", len(inputs))
	}
	for _, p := range inputs {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		f.Close()
	}
	filtered, matched := 0, 0
	for _, sg := range sigs {
		if sg.Pattern == "" {
			continue
		}
		re := regexp.MustCompile(sg.Pattern)
		pre := newPrefilter(sg.Pattern)
		if len(pre.any) > 0 {
			filtered++
		}
		for _, l := range lines {
			if !strings.Contains(l, sg.Anchor) {
				continue
			}
			if re.MatchString(l) {
				matched++
				if !pre.mayMatch([]byte(l)) {
					t.Errorf("%s: the prefilter %q rejects %q, which the pattern matches", sg.Name, pre.any, l)
				}
			}
		}
	}
	// most patterns have a literal to filter on; a change that lost them would pass the test
	// above while making the prefilter useless
	if filtered*2 < len(sigs) || matched < 500 {
		t.Errorf("%d of %d signatures have a prefilter, %d matching lines checked", filtered, len(sigs), matched)
	}
}

// FuzzPrefilter: for any line, a catalog pattern that matches it is never refused by its
// prefilter.
func FuzzPrefilter(f *testing.F) {
	sigs := Catalog()
	for _, sg := range sigs {
		for _, ex := range sg.Examples.Match {
			f.Add(ex)
		}
	}
	type pair struct {
		re  *regexp.Regexp
		pre prefilter
	}
	var ps []pair
	for _, sg := range sigs {
		if sg.Pattern != "" {
			ps = append(ps, pair{regexp.MustCompile(sg.Pattern), newPrefilter(sg.Pattern)})
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, p := range ps {
			if p.re.MatchString(line) && !p.pre.mayMatch([]byte(line)) {
				t.Fatalf("%s: prefilter %q rejects %q", p.re, p.pre.any, line)
			}
		}
	})
}
