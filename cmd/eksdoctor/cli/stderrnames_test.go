package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStderrEscapesControlCharactersInNames: a file name holding a newline, a carriage return, a
// tab or an escape sequence is written escaped (\n, \x0d, \t, \x1b) in every line eksdoctor
// writes on stderr about it — the note saying what it was read as and the error refusing it —
// so it cannot forge a second "eksdoctor:" line or drive the terminal.
func TestStderrEscapesControlCharactersInNames(t *testing.T) {
	dir := t.TempDir()
	name := "x\neksdoctor: read as a snapshot (forged)\r\t\x1b]0;pwned\x07"
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(strings.Repeat(unauthorizedWith(""), 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze", p, "-o", "json"}, "eksdoctor: " + dir + `/x\neksdoctor: read as a snapshot (forged)\x0d\t\x1b]0;pwned\x07 lines 1-2`},
		{[]string{"analyze", p + "-missing", "-o", "json"}, `x\neksdoctor: read as a snapshot (forged)\x0d\t\x1b]0;pwned\x07-missing`},
		{[]string{"analyze", "--snapshot", p, p, "-o", "json"}, `x\neksdoctor: read as a snapshot (forged)\x0d\t\x1b]0;pwned\x07`},
	} {
		_, _, errOut := run(c.args...)
		if strings.ContainsAny(errOut, "\r\t\x1b\x07") || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: stderr %q, want it escaped (%q)", c.args, errOut, c.want)
		}
		for _, l := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
			if !strings.HasPrefix(l, "eksdoctor: ") && !strings.HasPrefix(l, "  ") {
				t.Errorf("%q: stderr line %q is not eksdoctor's", c.args, l)
			}
			if strings.HasPrefix(l, "eksdoctor: read as a snapshot (forged)") {
				t.Errorf("%q: forged line on stderr: %q", c.args, errOut)
			}
		}
	}
}
