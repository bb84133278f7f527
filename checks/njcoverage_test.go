package checks

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

var njRowPattern = regexp.MustCompile(`^\| NJ\d+ \|`)

var njIDPattern = regexp.MustCompile("`([a-z0-9]+\\.[a-z0-9-]+)`")

// TestNJCoverage checks docs/nj-coverage.md: one row for each of NJ1–NJ64, every check ID it
// names registered (or pending and marked as such), and a reason wherever no check covers a row.
func TestNJCoverage(t *testing.T) {
	b, err := os.ReadFile("../docs/nj-coverage.md")
	if err != nil {
		t.Fatal(err)
	}
	reg := Default()
	seen := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if !njRowPattern.MatchString(line) {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) != 6 {
			t.Errorf("row has %d cells, want 4 columns: %s", len(cells)-2, line)
			continue
		}
		nj, title, ids, note := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2]), strings.TrimSpace(cells[3]), strings.TrimSpace(cells[4])
		if seen[nj] {
			t.Errorf("%s appears twice", nj)
		}
		seen[nj] = true
		if title == "" {
			t.Errorf("%s has no title", nj)
		}
		if ids == "—" {
			if note == "" {
				t.Errorf("%s is not covered and says not why", nj)
			}
			continue
		}
		named := njIDPattern.FindAllStringSubmatch(ids, -1)
		if len(named) == 0 {
			t.Errorf("%s: Checks column %q names no check ID (use — and a reason)", nj, ids)
		}
		for _, m := range append(named, njIDPattern.FindAllStringSubmatch(note, -1)...) {
			id := m[1]
			if _, ok := reg.Get(id); !ok {
				t.Errorf("%s names %s, which is not a registered check", nj, id)
			}
		}
	}
	for i := 1; i <= 64; i++ {
		if nj := fmt.Sprintf("NJ%d", i); !seen[nj] {
			t.Errorf("%s has no row", nj)
		}
	}
	if len(seen) != 64 {
		t.Errorf("%d rows, want 64", len(seen))
	}
}
