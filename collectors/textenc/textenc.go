// Package textenc turns text that Windows tools saved into the UTF-8 every reader of eksdoctor
// expects: Windows PowerShell 5.1 writes `>` and Out-File redirections as UTF-16LE with a
// byte-order mark, and PowerShell 7's and Notepad's "UTF-8 with BOM" starts with EF BB BF
// (docs/bundle-formats.md §4.4; the same holds for a snapshot collected on Windows,
// docs/snapshot-format.md). Decoding is golang.org/x/text's.
package textenc

import (
	"bytes"
	"io"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

var bomUTF8 = []byte{0xEF, 0xBB, 0xBF}

// utf16BOM reports whether b starts with a UTF-16 byte-order mark (FF FE little-endian, FE FF
// big-endian).
func utf16BOM(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF)
}

// decoder decodes UTF-16 by its byte-order mark (which it drops).
func decoder() transform.Transformer {
	return unicode.BOMOverride(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder())
}

// Reader returns r as UTF-8: UTF-16 with a byte-order mark is decoded as it is read, a UTF-8
// byte-order mark is dropped, other input passes through unchanged. It reads r's first three
// bytes to tell, and adds no buffer of its own: a bundle of 200,000 one-line members allocated
// a 64 KiB buffer for each (12 GB; red team 8b #12). Read errors are r's.
func Reader(r io.Reader) io.Reader {
	var head [3]byte
	n, err := io.ReadFull(r, head[:])
	rest := r
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		rest = errReader{err}
	}
	switch {
	case utf16BOM(head[:n]):
		return transform.NewReader(io.MultiReader(bytes.NewReader(head[:n]), rest), decoder())
	case n == 3 && bytes.Equal(head[:], bomUTF8):
		return rest
	case n == 0:
		return rest
	}
	return io.MultiReader(bytes.NewReader(head[:n]), rest)
}

// errReader returns err from every Read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// Bytes returns b as UTF-8, as Reader does: a new slice for UTF-16 with a byte-order mark
// (an odd trailing byte becomes U+FFFD), b without its first three bytes for a UTF-8
// byte-order mark, b itself otherwise.
func Bytes(b []byte) []byte {
	switch {
	case utf16BOM(b):
		out, _, err := transform.Bytes(decoder(), b)
		if err != nil {
			return b
		}
		return out
	case bytes.HasPrefix(b, bomUTF8):
		return b[3:]
	}
	return b
}
