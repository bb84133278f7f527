package checks

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDocsUpToDate fails when docs/checks differs from the registry (run `make docs`).
func TestDocsUpToDate(t *testing.T) {
	dir := filepath.Join("..", "docs", "checks")
	r := Default()
	want := map[string]string{"README.md": Index(r)}
	for _, c := range r.All() {
		want[c.Meta.ID+".md"] = Page(c.Meta)
	}
	for name, body := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != body {
			t.Errorf("docs/checks/%s is stale or missing; run make docs", name)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	for _, f := range files {
		if _, ok := want[filepath.Base(f)]; !ok {
			t.Errorf("docs/checks/%s documents no registered check; run make docs", filepath.Base(f))
		}
	}
}
