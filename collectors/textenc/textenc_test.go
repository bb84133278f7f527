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

// TestUTF16LEWithoutBOM (red team 11b #22): a whole file in UTF-16LE without a byte-order mark
// is decoded; UTF-8 text is left as it is.
func TestUTF16LEWithoutBOM(t *testing.T) {
	want := "{\n  \"Reservations\": []\n}\n"
	var le []byte
	for _, c := range []byte(want) {
		le = append(le, c, 0)
	}
	if got := string(Bytes(le)); got != want {
		t.Errorf("UTF-16LE without BOM: got %q, want %q", got, want)
	}
	if got := string(Bytes([]byte(want))); got != want {
		t.Errorf("UTF-8: got %q", got)
	}
}
