package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExplainMarkdownIsTheDocsPage: `explain ID -o markdown` (and -o md) prints, byte for byte,
// the page published in docs/checks/ID.md; unknown -o values and unknown checks are usage
// errors (exit 2) that print nothing on stdout.
func TestExplainMarkdownIsTheDocsPage(t *testing.T) {
	for _, id := range []string{"auth.role-not-mapped", "subnet.ip-exhausted", "karpenter.nodeclaim-not-registered"} {
		want, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "checks", id+".md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []string{"markdown", "md"} {
			code, out, errOut := run("explain", id, "-o", o)
			if code != ExitOK || out != string(want) {
				t.Errorf("explain %s -o %s: exit %d (%s), output differs from docs/checks/%s.md:\n%s", id, o, code, errOut, id, out)
			}
		}
	}
	for _, args := range [][]string{
		{"explain", "auth.role-not-mapped", "-o", "json"},
		{"explain", "auth.role-not-mapped", "-o", "junit"},
		{"explain", "auth.role-not-mapped", "-o", "table"},
		{"explain", "no.such-check"},
	} {
		if code, out, errOut := run(args...); code != ExitUsage || out != "" {
			t.Errorf("%v: exit %d, stdout %q (stderr %s), want a usage error (exit 2) and no output", args, code, out, errOut)
		}
	}
}
