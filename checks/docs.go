package checks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Page renders the documentation page of one check as Markdown (docs/checks/<ID>.md and
// `eksdoctor explain ID`).
func Page(m Meta) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", m.ID)
	fmt.Fprintf(&b, "**%s** — severity **%s**\n\n", m.Title, m.Severity)
	fmt.Fprintf(&b, "## Why it blocks the join\n\n%s\n\n", m.Why)
	fmt.Fprintf(&b, "## What to do\n\n%s\n\n", m.Remediation)
	fmt.Fprintf(&b, "## Evidence it reads\n\n")
	for _, k := range m.Needs {
		fmt.Fprintf(&b, "- `%s` (required)\n", k)
	}
	for _, k := range m.NeedsAny {
		fmt.Fprintf(&b, "- `%s` (required unless another kind marked so is present)\n", k)
	}
	for _, k := range m.Optional {
		fmt.Fprintf(&b, "- `%s` (used when present)\n", k)
	}
	fmt.Fprintf(&b, "\nWhen required evidence is missing the check reports `skipped` with the reason.\n")
	if m.ClusterWide {
		fmt.Fprintf(&b, "\n`eksdoctor scan` also runs it once for the cluster as a whole.\n")
	}
	if len(m.Explains) > 0 {
		fmt.Fprintf(&b, "\n## Findings it explains\n\nWhen this check fails, these failures are its consequences: %s.\n", "`"+strings.Join(m.Explains, "`, `")+"`")
	}
	fmt.Fprintf(&b, "\n## References\n\n")
	for _, d := range m.Docs {
		fmt.Fprintf(&b, "- %s\n", d)
	}
	return b.String()
}

// Index renders docs/checks/README.md: every check with its severity and title.
func Index(r *Registry) string {
	var b strings.Builder
	b.WriteString("# Checks\n\nGenerated from the registry by `make docs`; do not edit by hand.\n\n| Check | Severity | Title |\n|---|---|---|\n")
	for _, c := range r.All() {
		fmt.Fprintf(&b, "| [`%s`](%s.md) | %s | %s |\n", c.Meta.ID, c.Meta.ID, c.Meta.Severity, c.Meta.Title)
	}
	return b.String()
}

// WriteDocs writes every page and the index into dir, removing pages of checks that no
// longer exist. Errors are the file system's.
func WriteDocs(r *Registry, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	want := map[string]string{"README.md": Index(r)}
	for _, c := range r.All() {
		want[c.Meta.ID+".md"] = Page(c.Meta)
	}
	old, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	for _, p := range old {
		if _, ok := want[filepath.Base(p)]; !ok {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	for name, body := range want {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}
