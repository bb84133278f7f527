package cli

// Red team 15, the leftovers: a gzip stream followed by other bytes, compressed files of
// other formats given as a snapshot.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHostileGzipTrailingBytes: a snapshot .tar.gz or a node log bundle with bytes after the
// end of its gzip stream (text appended, zero padding) is read whole, as gzip(1) reads it
// ("trailing garbage ignored"): the verdict and exit code are those of the clean archive, and
// one input problem says how many bytes were ignored, not that a CRC or size does not match
// or that the file is cut (red team 15: the snapshot exited 4, the bundle blamed its trailer).
func TestHostileGzipTrailingBytes(t *testing.T) {
	snap := packSnapshot(t, filepath.Join(fixtures, "snapshots", "auth-role-path"), "snap/", "tar.gz")
	bundleBytes, err := os.ReadFile(filepath.Join(fixtures, "bundles", "eks_i-0a1b2c3d4e5f60001_2026-07-24_1602-UTC_0.7.9-al2023-healthy.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	for name, junk := range map[string][]byte{
		"text appended": []byte("uploaded by case tool v2\n"),
		"zero padding":  make([]byte, 10240),
		"one byte":      {0x1f},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, "snap.tar.gz")
		os.WriteFile(p, append(bytes.Clone(snap), junk...), 0o644)
		code, out, stderr := run("why-not-joining", "i-0a1b2c3d4e5f60006", "--snapshot", p, "-o", "json")
		if code != ExitFindings || !strings.Contains(out, "auth.role-path") {
			t.Errorf("snapshot, %s: exit %d, stderr %q; want the clean archive's verdict (exit 1)", name, code, stderr)
		}
		want := strconv.Itoa(len(junk)) + " byte"
		if len(junk) > 1 {
			want += "s"
		}
		want += " after the end of the gzip stream w"
		if !strings.Contains(out, want) {
			t.Errorf("snapshot, %s: no input problem %q: %.600s", name, want, out)
		}
		b := filepath.Join(dir, "eks_i-0a1b2c3d4e5f60001_2026-07-24_1602-UTC_0.7.9.tar.gz")
		os.WriteFile(b, append(bytes.Clone(bundleBytes), junk...), 0o644)
		code, _, out, stderr = analyze(t, "", b)
		if code != ExitOK || strings.Contains(stderr, "damaged") {
			t.Errorf("bundle, %s: exit %d, stderr %q; want the clean bundle's exit 0", name, code, stderr)
		}
		if !strings.Contains(out, want) || strings.Contains(out, "CRC-32 or size in the gzip trailer does not match") {
			t.Errorf("bundle, %s: want the input problem %q, not a damaged trailer: %.600s", name, want, out)
		}
	}
}

// TestHostileSnapshotOfOtherCompression: a snapshot tar compressed with zstd, xz or bzip2 and
// named .tar.gz is refused naming the compression and the command that decompresses it, as
// analyze names it for a paste (red team 15: "not a snapshot archive").
func TestHostileSnapshotOfOtherCompression(t *testing.T) {
	plain := packSnapshot(t, filepath.Join(fixtures, "snapshots", "auth-role-path"), "snap/", "tar")
	for tool, want := range map[string]string{"zstd": "zstd-compressed", "xz": "xz-compressed", "bzip2": "bzip2-compressed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Logf("%s not installed", tool)
			continue
		}
		cmd := exec.Command(tool, "-c")
		cmd.Stdin = bytes.NewReader(plain)
		packed, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "snap.tar.gz")
		os.WriteFile(p, packed, 0o644)
		code, _, stderr := run("why-not-joining", "i-0a1b2c3d4e5f60006", "--snapshot", p, "-o", "json")
		cmdWant := tool + " -dc " + p + " >"
		if tool == "bzip2" {
			cmdWant = "bzip2 -dc " + p + " >"
		}
		if code != ExitInput || !strings.Contains(stderr, want) || !strings.Contains(stderr, cmdWant) {
			t.Errorf("%s: exit %d, stderr %q; want exit 4 naming %q and %q", tool, code, stderr, want, cmdWant)
		}
		code, _, _, stderr = analyze(t, "", p)
		if code != ExitInput || !strings.Contains(stderr, want) || !strings.Contains(stderr, cmdWant) {
			t.Errorf("analyze %s: exit %d, stderr %q; want exit 4 naming %q and %q", tool, code, stderr, want, cmdWant)
		}
	}
}

// TestHostileDeeplyNestedJSON: JSON nested deeper than the JSON reader goes (10,000 levels) is
// said to be JSON too deeply nested to read, naming the input and the limit, exit 4 (the input
// could not be read), not "unrecognised text" with exit 3 (red team 15: 200,000 levels).
func TestHostileDeeplyNestedJSON(t *testing.T) {
	const depth = 200000
	for name, doc := range map[string]string{
		"arrays":            strings.Repeat("[", depth) + strings.Repeat("]", depth),
		"objects":           strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth),
		"objects, pretty":   strings.Repeat("{\n \"Reservations\":\n", 20000) + "[]" + strings.Repeat("\n}", 20000),
		"cut, never closed": strings.Repeat(`{"Reservations": [`, depth),
	} {
		p := filepath.Join(t.TempDir(), "deep.json")
		os.WriteFile(p, []byte(doc+"\n"), 0o644)
		code, _, _, stderr := analyze(t, "", p)
		if code != ExitInput || !strings.Contains(stderr, p) || !strings.Contains(stderr, "nested") || !strings.Contains(stderr, "10000 levels") || strings.Contains(stderr, "unrecognised") {
			t.Errorf("%s: exit %d, stderr %q; want exit 4 naming the input, JSON too deeply nested and the limit", name, code, stderr)
		}
	}
}

// TestHostileCutPasteWithNothingRecognised: a paste cut by --max-bytes in whose read part
// nothing is recognised exits 4 (the input was not read whole: what it holds may lie in the
// rest), as a cut paste or bundle in whose read part nothing failed does; stderr names the
// limit. Whole, the same text exits 3. (Red team 15: the README's table read either way.)
func TestHostileCutPasteWithNothingRecognised(t *testing.T) {
	p := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(p, []byte(strings.Repeat("the node never showed up in the console, we checked twice\n", 2000)), 0o644)
	code, _, _, stderr := analyze(t, "", p, "--max-bytes", "4096")
	if code != ExitInput || !strings.Contains(stderr, "--max-bytes") || !strings.Contains(stderr, "nothing in") {
		t.Errorf("cut: exit %d, stderr %q; want 4 naming the limit and that nothing was recognised in what was read", code, stderr)
	}
	if code, _, _, _ := analyze(t, "", p); code != ExitNothingChecked {
		t.Errorf("whole: exit %d, want 3", code)
	}
}
