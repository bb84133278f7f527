// Package ingest reads what a person pastes or hands over — an issue body mixing prose, logs,
// ConfigMaps, user data, kubectl and AWS CLI output, or one file of any of those — as typed
// documents. Text is split into segments (Segments) at Markdown fences, shell prompts, document
// boundaries and changes of shape; each segment is recognised by its content and given a Type
// ("log:journal", "kube:configmap/kube-system/aws-auth", "text:kubectl-describe-csr",
// "userdata", "aws:ec2/describe-instances.json" …) and an origin ("paste:stdin:12-40") that
// findings quote. Providers (Read) decode every document into one Evidence; nothing here judges.
package ingest

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf16"

	"github.com/eksdoctor/eksdoctor/collectors/logscan"
	"github.com/eksdoctor/eksdoctor/collectors/packed"
	"github.com/eksdoctor/eksdoctor/collectors/textenc"
	"unicode/utf8"
)

// Problem says why an input cannot be read as text at all.
type Problem struct {
	// Unsupported is true for inputs that are well formed but of a kind eksdoctor does not
	// read (an xz archive, an image); false for damaged input.
	Unsupported bool
	Message     string
	// Packed is the compressed or archive format the input is, when it is one (Message then
	// says how to unpack it with FILE for the input's name: Packed.Unpack names the file).
	Packed *packed.Format
}

func (p *Problem) Error() string { return p.Message }

// magics are formats recognised by their first bytes that are not text (besides the compressed
// and archive formats packed.Sniff tells).
var magics = []struct {
	prefix []byte
	what   string
}{
	{[]byte("\x89PNG\r\n\x1A\n"), "a PNG image (eksdoctor reads text: paste the log or configuration itself)"},
	{[]byte{0xFF, 0xD8, 0xFF}, "a JPEG image (eksdoctor reads text: paste the log or configuration itself)"},
	{[]byte("GIF8"), "a GIF image (eksdoctor reads text: paste the log or configuration itself)"},
	{[]byte("%PDF-"), "a PDF document (eksdoctor reads text: paste the log or configuration itself)"},
	{[]byte("\x7FELF"), "an executable (ELF) file"},
	{[]byte("MZ"), "a Windows executable"},
	{[]byte("PK\x03\x04"), "a zip archive that is not a node log bundle"},
}

// Text turns raw input into UTF-8 text: a UTF-16 input (with a byte-order mark, or without one
// but with the NUL pattern of ASCII text in UTF-16) is decoded, and so is each run of text in
// UTF-16LE and UTF-8 one after the other (textenc.Mixed), a UTF-8 byte-order mark is
// dropped, CRLF line ends become LF (and a lone CR does in text with no LF but a final one); typographic substitutions of a chat client or web page
// are undone (untypeset); terminal escape sequences (stripANSI) and the spaces that
// pad line ends (trimLineEnds) are removed. It returns a Problem for binary input: a known
// non-text format (named), UTF-32 text (named: it is not decoded), bytes taken for UTF-16 that
// decode to no text (nonText: more than 1 in 100 characters), nothing but NUL bytes and line
// breaks, or data with NUL bytes or mostly invalid UTF-8.
func Text(raw []byte) ([]byte, *Problem) {
	if what := utf32(raw); what != "" {
		// checked before UTF-16: a UTF-32 LE byte-order mark starts with UTF-16 LE's
		return nil, &Problem{Unsupported: true, Message: "the input is " + what + ", an encoding eksdoctor does not read (convert it to UTF-8: iconv -f UTF-32 -t UTF-8 FILE)"}
	}
	decoded := "" // how the input was taken for UTF-16, when it was
	if mixed, ok := textenc.Mixed(raw); ok {
		// UTF-16LE and UTF-8 one after the other (PowerShell 5.1's `>`, then Add-Content)
		raw, decoded = mixed, "UTF-16 and UTF-8 text one after the other"
	} else if len(raw) >= 2 && (raw[0] == 0xFF && raw[1] == 0xFE || raw[0] == 0xFE && raw[1] == 0xFF) {
		raw, decoded = decodeUTF16(raw[2:], raw[0] == 0xFF), "UTF-16 text (it starts with a UTF-16 byte-order mark)"
	} else if le, ok := utf16Guess(raw); ok {
		raw, decoded = decodeUTF16(raw, le), "UTF-16 text (every other byte is NUL)"
	}
	if decoded != "" {
		if bad, n := nonText(raw[:min(len(raw), 64<<10)]); bad*100 > n {
			// bytes that only looked like UTF-16 (a binary file starting with FF FE): what they
			// decode to is no text, and reading it would find nothing without saying why
			return nil, &Problem{Unsupported: true, Message: fmt.Sprintf("the input is binary data, not text: it looks like %s, but %d of its first %d characters decoded that way are not text (unpaired surrogates, control characters)", decoded, bad, n)}
		}
	}
	raw = bytes.TrimPrefix(raw, []byte("\xEF\xBB\xBF"))
	if f, ok := packed.Sniff(raw); ok {
		return nil, &Problem{Unsupported: true, Message: "the input is " + f.What + " (" + f.Unpack("", "analyze the result") + ")", Packed: &f}
	}
	for _, m := range magics {
		if bytes.HasPrefix(raw, m.prefix) {
			return nil, &Problem{Unsupported: true, Message: "the input is " + m.what}
		}
	}
	if len(raw) > 262 && bytes.Equal(raw[257:262], []byte("ustar")) {
		return nil, &Problem{Unsupported: true, Message: "the input is an uncompressed tar archive that is not a node log bundle"}
	}
	head := raw[:min(len(raw), 64<<10)]
	if bytes.IndexByte(head, 0) >= 0 && len(bytes.Trim(raw, "\x00\r\n")) == 0 {
		// a log whose blocks a crash left unwritten (preallocated, never flushed): no text at all
		return nil, &Problem{Unsupported: true, Message: "the input holds only NUL bytes (a file whose blocks were never written, as a crash leaves a log), no text"}
	}
	if bytes.IndexByte(head, 0) >= 0 {
		if !textWithHoles(head) {
			return nil, &Problem{Unsupported: true, Message: "the input is binary data (it holds NUL bytes), not text"}
		}
		// a log a crash left runs of NUL bytes in (the blocks it had not written): the holes
		// end lines, the text around them is read
		raw = reNULs.ReplaceAll(raw, []byte("\n"))
	}
	if bad := invalidUTF8(head); bad*10 > len(head) && len(head) > 0 {
		return nil, &Problem{Unsupported: true, Message: fmt.Sprintf("the input is binary data (%d of its first %d bytes are not UTF-8), not text", bad, len(head))}
	}
	return clean(raw), nil
}

// clean undoes what the way text took did to it, keeping its lines where they were: line ends
// (CR LF, a lone CR), typographic substitutions (untypeset), terminal escape sequences and
// padding at line ends. Text cleans a paste with it, and a reader the text a document carries
// (a console output's Output, whose own CR LF and colour codes JSON escaped).
func clean(raw []byte) []byte {
	if bytes.IndexByte(raw, '\r') >= 0 {
		if lf := bytes.IndexByte(raw, '\n'); lf < 0 || lf == len(raw)-1 {
			// lines ended by a lone CR (classic Mac OS, some terminal clipboards): with no LF
			// but a final one, each CR ends a line, so YAML keeps its structure and the line
			// numbers findings cite exist
			raw = bytes.ReplaceAll(bytes.TrimSuffix(raw, []byte("\n")), []byte("\r"), []byte("\n"))
			if !bytes.HasSuffix(raw, []byte("\n")) && lf >= 0 {
				raw = append(raw, '\n')
			}
		} else {
			raw = bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))
		}
	}
	return trimLineEnds(stripANSI(untypeset(raw)))
}

// typeset maps what a chat client, word processor or web page substitutes when text passes
// through it back to what the machine printed: non-breaking and other Unicode spaces become a
// space, zero-width characters and soft hyphens go, curly quotes become straight ones. Logs,
// YAML and user data are ASCII in these places; a signature anchored on "Unauthorized" or a
// YAML key would otherwise not see the line. Dashes are kept: an en dash in user data can be
// what the node actually received.
var typeset = strings.NewReplacer(
	"\u00a0", " ", "\u2007", " ", "\u202f", " ", "\u2002", " ", "\u2003", " ", "\u2009", " ", "\u200a", " ", "\u3000", " ",
	"\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "", "\u00ad", "",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u2033", `"`,
	"\u2018", "'", "\u2019", "'", "\u201a", "'", "\u2032", "'",
)

// untypeset applies typeset when the text holds any byte outside ASCII (every character it
// maps is multi-byte in UTF-8), so ASCII input is returned as it is; curly double quotes inside
// JSON strings are escaped first (jsonCurlyQuotes).
func untypeset(b []byte) []byte {
	for _, c := range b {
		if c >= 0x80 {
			return []byte(typeset.Replace(string(jsonCurlyQuotes(b))))
		}
	}
	return b
}

// curlyDouble are the characters typeset turns into a straight double quote.
var curlyDouble = []string{"\u201c", "\u201d", "\u201e", "\u2033"}

// jsonCurlyQuotes rewrites, on each line that starts as JSON does ({, [ or "), a curly double
// quote that stands inside a string whose closing straight quote follows on the line as an
// escaped quote (\"): the curly quote was content there (a name quoted in a message, or the
// quote of a record carried escaped in another document's string, as get-console-output's
// Output carries a log's records), and a plain quote would end the string early. A curly quote
// after which the line's open string does not close is left for typeset (it is the string's
// closing quote made curly). Linear in the line's length.
func jsonCurlyQuotes(b []byte) []byte {
	has := false
	for _, q := range curlyDouble {
		if bytes.Contains(b, []byte(q)) {
			has = true
			break
		}
	}
	if !has {
		return b
	}
	var out bytes.Buffer
	for len(b) > 0 {
		l := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			l = b[:i+1]
		}
		b = b[len(l):]
		if t := bytes.TrimLeft(l, " \t"); len(t) == 0 || (t[0] != '{' && t[0] != '[' && t[0] != '"') {
			out.Write(l)
			continue
		}
		// last is the offset of the line's last unescaped straight quote (-1: none)
		last := -1
		for i := 0; i < len(l); i++ {
			switch l[i] {
			case '\\':
				i++
			case '"':
				last = i
			}
		}
		inStr := false
		for i := 0; i < len(l); {
			r, size := utf8.DecodeRune(l[i:])
			switch {
			case r == '\\' && inStr && i+1 < len(l):
				out.Write(l[i : i+2])
				i += 2
				continue
			case r == '"':
				inStr = !inStr
			case r == '\u201c' || r == '\u201d' || r == '\u201e' || r == '\u2033':
				if inStr && last > i {
					out.WriteString(`\"`)
					i += size
					continue
				}
				inStr = !inStr
			}
			out.Write(l[i : i+size])
			i += size
		}
	}
	return out.Bytes()
}

// trimLineEnds removes spaces and tabs at the end of every line: text copied out of a terminal
// or a web page is padded to the width it was shown at, and a padded blank line no longer
// separates MIME headers from their body or one YAML document from the next.
func trimLineEnds(b []byte) []byte {
	if !bytes.Contains(b, []byte(" \n")) && !bytes.Contains(b, []byte("\t\n")) && !bytes.HasSuffix(b, []byte(" ")) && !bytes.HasSuffix(b, []byte("\t")) {
		return b
	}
	lines := bytes.Split(b, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " \t")
	}
	return bytes.Join(lines, []byte("\n"))
}

// reBareSGR matches a colour code whose ESC was lost on the way ("[0m", "[1;31m"): terminal
// output of eksctl, Terraform or Pulumi pasted into a web page keeps the rest.
var reBareSGR = regexp.MustCompile(`\[\d{1,3}(?:;\d{1,3})*m`)

// stripANSI removes terminal escape sequences, which a paste of coloured terminal or CI output
// carries inside the messages the signatures match ("\x1b[31mError\x1b[0m: ..."), and colour
// codes that lost their ESC when the text shows at least two resets ("[0m"); lines stay where
// they were.
func stripANSI(b []byte) []byte {
	if bytes.IndexByte(b, 0x1b) >= 0 {
		b = logscan.EscapeSequence.ReplaceAll(b, nil)
	}
	if bytes.Count(b, []byte("[0m")) >= 2 {
		b = reBareSGR.ReplaceAll(b, nil)
	}
	return b
}

// utf16Guess recognises UTF-16 without a byte-order mark: ASCII text has a NUL in every other
// byte. It returns whether the text is little-endian and whether it is UTF-16 at all.
// utf32 names UTF-32 text, which is not read: by its byte-order mark (FF FE 00 00 or
// 00 00 FE FF), or without one when nine in ten of the characters of its first 512 bytes are
// printable ASCII or line breaks with their three NUL bytes. It returns "" for any other input.
func utf32(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
		return "UTF-32 text (little-endian, with a byte-order mark)"
	case bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}):
		return "UTF-32 text (big-endian, with a byte-order mark)"
	}
	n := min(len(b), 512) &^ 3
	if n < 16 {
		return ""
	}
	ascii := func(c byte) bool { return c >= 0x20 && c < 0x7F || c == '\n' || c == '\r' || c == '\t' }
	var le, be int
	for i := 0; i < n; i += 4 {
		if ascii(b[i]) && b[i+1] == 0 && b[i+2] == 0 && b[i+3] == 0 {
			le++
		}
		if b[i] == 0 && b[i+1] == 0 && b[i+2] == 0 && ascii(b[i+3]) {
			be++
		}
	}
	switch q := n / 4; {
	case le*10 >= q*9:
		return "UTF-32 text (little-endian, without a byte-order mark)"
	case be*10 >= q*9:
		return "UTF-32 text (big-endian, without a byte-order mark)"
	}
	return ""
}

func utf16Guess(b []byte) (littleEndian, ok bool) {
	n := min(len(b), 512) &^ 1
	if n < 8 {
		return false, false
	}
	var evenNul, oddNul int
	for i := 0; i < n; i += 2 {
		if b[i] == 0 {
			evenNul++
		}
		if b[i+1] == 0 {
			oddNul++
		}
	}
	half := n / 2
	switch {
	case oddNul*10 >= half*9 && evenNul == 0:
		return true, true
	case evenNul*10 >= half*9 && oddNul == 0:
		return false, true
	}
	return false, false
}

func decodeUTF16(b []byte, littleEndian bool) []byte {
	u := make([]uint16, len(b)/2)
	for i := range u {
		if littleEndian {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		} else {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		}
	}
	return []byte(string(utf16.Decode(u)))
}

// invalidUTF8 counts bytes that are not part of a valid UTF-8 sequence (a multi-byte rune cut at
// the end of b counts as valid).
func invalidUTF8(b []byte) int {
	bad := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			if len(b) < utf8.UTFMax && !utf8.FullRune(b) {
				break
			}
			bad++
		}
		b = b[size:]
	}
	return bad
}

// nonText counts the characters of UTF-8 text b that no text holds — the replacement character
// (what an unpaired UTF-16 surrogate decodes to), C0 control characters other than tab, line
// feed, form feed and carriage return, DEL and C1 control characters — and all its characters.
func nonText(b []byte) (bad, n int) {
	for _, r := range string(b) {
		n++
		switch {
		case r == utf8.RuneError, r < 0x20 && r != '\t' && r != '\n' && r != '\f' && r != '\r', r >= 0x7F && r < 0xA0:
			bad++
		}
	}
	return bad, n
}

// reNULs is a run of NUL bytes.
var reNULs = regexp.MustCompile("\x00+")

// textWithHoles reports whether b, which holds NUL bytes, is text apart from them: its other
// bytes have lines (a newline) and almost no control characters (at most 1 in 100 besides
// tab, CR and LF) or invalid UTF-8 (at most 1 in 10), as a log file a crash cut holes in has,
// and binary data (an executable, compressed or random bytes) does not.
func textWithHoles(b []byte) bool {
	var text, ctl, lines int
	for _, c := range b {
		switch {
		case c == 0:
			continue
		case c == '\n':
			lines++
		case c < 0x20 && c != '\t' && c != '\r', c == 0x7f:
			ctl++
		}
		text++
	}
	if text == 0 || lines == 0 || ctl*100 > text {
		return false
	}
	return invalidUTF8(bytes.ReplaceAll(b, []byte{0}, nil))*10 <= text
}
