package packed

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// TestGzipTrailing: members one after the other are read as one stream; bytes after the last
// member that do not start another are counted and named, not an error; a member that starts
// and does not read whole (a bad header, a cut, a bad CRC) stays an error.
func TestGzipTrailing(t *testing.T) {
	a, b := gz(t, "first member\n"), gz(t, "second member\n")
	for name, c := range map[string]struct {
		in       []byte
		want     string
		trailing int64
		note     string
		err      string
	}{
		"one member":            {in: a, want: "first member\n"},
		"two members":           {in: cat(a, b), want: "first member\nsecond member\n"},
		"text appended":         {in: cat(a, b, []byte("junk\n")), want: "first member\nsecond member\n", trailing: 5, note: "5 bytes after the end of the gzip stream were ignored (not the start of a gzip member"},
		"zero padding":          {in: cat(a, make([]byte, 512)), want: "first member\n", trailing: 512, note: "512 bytes after the end of the gzip stream were ignored (all zero"},
		"one magic byte":        {in: cat(a, []byte{0x1f}), want: "first member\n", trailing: 1, note: "1 byte after the end of the gzip stream was ignored"},
		"second header damaged": {in: cat(a, []byte{0x1f, 0x8b, 0x99, 0, 0, 0}), err: "does not start well"},
		"second member cut":     {in: cat(a, b[:len(b)-4]), err: "unexpected EOF"},
		"bad CRC":               {in: cat(a[:len(a)-8], []byte{1, 2, 3, 4}, a[len(a)-4:]), err: "checksum"},
	} {
		g, err := NewGzip(bytes.NewReader(c.in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := io.ReadAll(g)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v, want %q", name, err, c.err)
			}
			continue
		}
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, c.want)
		}
		if g.Trailing() != c.trailing || !strings.HasPrefix(g.TrailingNote(), c.note) || (c.note == "") != (g.TrailingNote() == "") {
			t.Errorf("%s: trailing %d note %q; want %d %q", name, g.Trailing(), g.TrailingNote(), c.trailing, c.note)
		}
	}
}

// TestGzipTrailingIsBounded: endless bytes after the stream stop being counted at MaxTrailing.
func TestGzipTrailingIsBounded(t *testing.T) {
	g, err := NewGzip(io.MultiReader(bytes.NewReader(gz(t, "x")), strings.NewReader(strings.Repeat("y", MaxTrailing+100))))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(g); err != nil || g.Trailing() != MaxTrailing || !strings.HasPrefix(g.TrailingNote(), "more than") {
		t.Errorf("%v %d %q", err, g.Trailing(), g.TrailingNote())
	}
}
