package textenc

import (
	"io"
	"strings"
	"testing"
)

// TestBytesAndReader: UTF-16 little- and big-endian with a byte-order mark and UTF-8 with one
// come out as the same UTF-8 through both functions; text without a mark is unchanged.
func TestBytesAndReader(t *testing.T) {
	const want = "{\"Vpcs\": [\"é\"]}\n"
	le := []byte{0xFF, 0xFE}
	be := []byte{0xFE, 0xFF}
	for _, r := range want {
		le = append(le, byte(r), byte(r>>8))
		be = append(be, byte(r>>8), byte(r))
	}
	for name, in := range map[string][]byte{
		"UTF-16LE": le, "UTF-16BE": be, "UTF-8 BOM": append([]byte{0xEF, 0xBB, 0xBF}, want...), "plain": []byte(want),
	} {
		if got := string(Bytes(in)); got != want {
			t.Errorf("Bytes(%s) = %q", name, got)
		}
		got, err := io.ReadAll(Reader(strings.NewReader(string(in))))
		if err != nil || string(got) != want {
			t.Errorf("Reader(%s) = %q, %v", name, got, err)
		}
	}
	if got := Bytes(nil); len(got) != 0 {
		t.Errorf("Bytes(nil) = %q", got)
	}
}
