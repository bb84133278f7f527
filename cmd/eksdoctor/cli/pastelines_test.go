package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPasteManyLines: a paste of more than MaxPasteLines lines is scanned as one log stream, as
// one over MaxPaste bytes is, and finds its cause; analyzing it allocates a few bytes per input
// byte. Red team F5: 2 MiB of one-character paragraphs after a kubelet's lines was split into
// documents in memory, 3.8 s and 388 MB of RSS (about 720 bytes allocated per input byte).
func TestPasteManyLines(t *testing.T) {
	dir := t.TempDir()
	head, err := os.ReadFile(filepath.Join(fixtures, "pastes", "kubelet-unauthorized.log")) // the red team's three kubelet lines
	if err != nil {
		t.Fatal(err)
	}
	paste := string(head) + strings.Repeat("x\n\n", 2<<20/3)
	p := filepath.Join(dir, "paras.txt")
	if err := os.WriteFile(p, []byte(paste), 0o644); err != nil {
		t.Fatal(err)
	}
	run("analyze", p, "-o", "json") // the scanner's and the checks' tables, built once
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code, out, errOut := run("analyze", p, "-o", "json")
	runtime.ReadMemStats(&after)
	if code != ExitFindings || !strings.Contains(out, "runtime.unauthorized") {
		t.Fatalf("exit %d, want %d with runtime.unauthorized; stderr:\n%s", code, ExitFindings, errOut)
	}
	if !strings.Contains(errOut, "as one log") || !strings.Contains(errOut, "1398103 lines, more than a paste") {
		t.Errorf("stderr does not say the paste was read as one log for its lines:\n%s", errOut)
	}
	perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(paste))
	t.Logf("%.1f bytes allocated per input byte", perByte)
	if perByte > 20 {
		t.Errorf("analyze allocated %.0f bytes per input byte, want at most 20", perByte)
	}

	// a JSON document of that many lines is refused by name, as one over MaxPaste bytes is
	doc := filepath.Join(dir, "doc.json")
	os.WriteFile(doc, []byte("[\n"+strings.Repeat("1,\n", MaxPasteLines)+"1\n]\n"), 0o644)
	code, _, errOut = run("analyze", doc)
	if code != ExitInput || !strings.Contains(errOut, "a JSON document of 200003 lines, more than the 200000 read as a paste") {
		t.Errorf("JSON of %d lines: exit %d, want %d naming the line budget; stderr:\n%s", MaxPasteLines+3, code, ExitInput, errOut)
	}

	// TOML starts with a table header, not a JSON array: it is scanned, not refused as JSON
	toml := filepath.Join(dir, "settings.toml")
	os.WriteFile(toml, []byte("[settings.kubernetes]\ncluster-name = \"prod\"\n"+strings.Repeat("x\n", MaxPasteLines)+string(head)), 0o644)
	code, out, errOut = run("analyze", toml, "-o", "json")
	if code != ExitFindings || !strings.Contains(out, "runtime.unauthorized") || strings.Contains(errOut, "JSON") {
		t.Errorf("TOML of %d lines: exit %d, want %d with runtime.unauthorized; stderr:\n%s", MaxPasteLines+5, code, ExitFindings, errOut)
	}
}
