package cli

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eksdoctor/eksdoctor/checks"
)

// TestExplainRendering: explain -o markdown prints the check's page source; the default output
// in a pipe is plain text within COLUMNS — no escape codes, no Markdown markers — with every
// section of the page; with colour the renderer styles it; an unknown -o is a usage error.
func TestExplainRendering(t *testing.T) {
	c, _ := checks.Default().Get("auth.role-path")
	page := checks.Page(c.Meta)
	code, out, _ := run("explain", "auth.role-path", "-o", "markdown")
	if code != 0 || out != page {
		t.Fatalf("-o markdown: exit %d, differs from the page:\n%s", code, out)
	}
	t.Setenv("COLUMNS", "80")
	for _, id := range []string{"auth.role-path", "net.nacl-blocks", "bootstrap.ca-mismatch"} {
		code, out, _ = run("explain", id)
		if code != 0 {
			t.Fatalf("%s: exit %d", id, code)
		}
		for _, marker := range []string{"\x1b[", "**", "`", "\n#", "## "} {
			if strings.Contains(out, marker) {
				t.Errorf("%s: plain output holds %q:\n%s", id, marker, out)
			}
		}
		for _, want := range []string{id, "Why it blocks the join", "What to do", "References", "- "} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", id, want, out)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			if utf8.RuneCountInString(l) > 80 {
				t.Errorf("%s: line of %d columns under COLUMNS=80: %q", id, utf8.RuneCountInString(l), l)
			}
		}
	}
	// a code span and the punctuation after it are one word: never a line starting with ","
	if code, out, _ = run("explain", "auth.role-path"); !strings.Contains(out, "auth.role-not-mapped,") || strings.Contains(out, "\n,") {
		t.Errorf("code span cut from its comma:\n%s", out)
	}
	styled := renderMarkdown(page, true, 100)
	if !strings.Contains(styled, "\x1b[") {
		t.Fatalf("colour rendering has no styling:\n%s", styled)
	}
	if code, _, errOut := run("explain", "auth.role-path", "-o", "json"); code != ExitUsage || !strings.Contains(errOut, "unknown --output") {
		t.Fatalf("-o json: exit %d %s", code, errOut)
	}
}
