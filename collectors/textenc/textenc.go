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

// Bytes returns b as UTF-8, as Reader does (and text in UTF-16LE and UTF-8 runs decoded run by
// run, Mixed; and UTF-16LE without a byte-order mark, recognised by utf16Start, whole): a new
// slice for UTF-16 with a byte-order mark
// (an odd trailing byte becomes U+FFFD), b without its first three bytes for a UTF-8
// byte-order mark, b itself otherwise.
func Bytes(b []byte) []byte {
	if out, ok := Mixed(b); ok {
		return out
	}
	switch {
	case utf16BOM(b):
		out, _, err := transform.Bytes(decoder(), b)
		if err != nil {
			return b
		}
		return out
	case bytes.HasPrefix(b, bomUTF8):
		return b[3:]
	case utf16Start(b) && utf16Run(b) == len(b):
		// UTF-16LE without a byte-order mark ([Text.Encoding]::Unicode.GetBytes, iconv -t
		// UTF-16LE): ASCII characters then NUL from the start to the end
		out, _, err := transform.Bytes(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder(), b)
		if err != nil {
			return b
		}
		return out
	}
	return b
}

// utf16Pairs is how many leading characters of ASCII in UTF-16LE (a printable byte or a line
// break, then NUL) mark the start of a UTF-16LE run that has no byte-order mark.
const utf16Pairs = 8

// utf16Start reports whether b starts a UTF-16LE run: with a byte-order mark (FF FE, not the
// UTF-32 one FF FE 00 00), or with utf16Pairs ASCII characters in UTF-16LE.
func utf16Start(b []byte) bool {
	if len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE {
		return !(len(b) >= 4 && b[2] == 0 && b[3] == 0)
	}
	if len(b) < 2*utf16Pairs {
		return false
	}
	for i := 0; i < 2*utf16Pairs; i += 2 {
		if c := b[i]; b[i+1] != 0 || (c < 0x20 || c >= 0x7F) && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}

// utf8Window is how many bytes after a UTF-16 line end must hold no NUL for the text to have
// switched to UTF-8 there (fewer at the end of the input).
const utf8Window = 32

// utf16Run returns the length of the UTF-16LE run b starts with (utf16Start): it ends after a
// line break ("\n\0") the next utf8Window bytes after which hold no NUL, or at b's end.
func utf16Run(b []byte) int {
	for i := 2; i+1 < len(b); i += 2 {
		if b[i-2] != '\n' || b[i-1] != 0 {
			continue
		}
		w := b[i:min(len(b), i+utf8Window)]
		if bytes.IndexByte(w, 0) < 0 && !utf16Start(b[i:]) {
			return i
		}
	}
	return len(b)
}

// Mixed decodes text that holds UTF-16LE and UTF-8 runs one after the other, each as what it
// is: Windows PowerShell 5.1 writes `>` and Out-File as UTF-16LE with a byte-order mark, and
// Add-Content appends in another encoding (`kubectl … > f.txt; Get-Content node.log |
// Add-Content f.txt`), so a file can switch encoding at a line break. A UTF-16LE run starts at
// a line start with a byte-order mark or with ASCII characters in UTF-16LE (utf16Start), and
// ends at a line break followed by utf8Window bytes without NUL. It returns the UTF-8 text and
// true only when b holds both encodings; for text in one encoding (or UTF-8 with runs of NUL
// bytes a crash left, or UTF-16 big-endian) it returns b and false.
func Mixed(b []byte) ([]byte, bool) {
	if len(b) == 0 || bytes.IndexByte(b, 0) < 0 {
		return b, false
	}
	var out []byte
	kinds := 0 // bit 1: a UTF-16 run, bit 2: a UTF-8 run
	for rest := b; len(rest) > 0; {
		if utf16Start(rest) {
			n := utf16Run(rest)
			part := rest[:n]
			if len(part) >= 2 && part[0] == 0xFF && part[1] == 0xFE {
				part = part[2:]
			}
			d, _, err := transform.Bytes(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder(), part)
			if err != nil {
				return b, false
			}
			out = append(out, d...)
			kinds |= 1
			rest = rest[n:]
			continue
		}
		// UTF-8 up to the line start where UTF-16 begins
		z := bytes.IndexByte(rest, 0)
		n := len(rest)
		if z >= 0 {
			n = bytes.LastIndexByte(rest[:z], '\n') + 1
			if bom := bytes.Index(rest[:z], []byte{0xFF, 0xFE}); bom >= n {
				n = bom // a byte-order mark within the line (no line break before it)
			}
			if n == 0 || !utf16Start(rest[n:]) {
				return b, false // a NUL that is no UTF-16 (a hole in a log): not for Mixed
			}
		}
		out = append(out, rest[:n]...)
		kinds |= 2
		rest = rest[n:]
	}
	if kinds != 3 {
		return b, false
	}
	return out, true
}
