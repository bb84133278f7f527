package report

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// mdEscape writes a value taken from the evidence (a log line, a tag, a paste, a message that
// quotes them) as Markdown text that renders as exactly that text, newlines as spaces, wherever
// the report puts it: in a paragraph, at the start of a line, in a list item or in a table cell.
// CommonMark 0.31 and GitHub Flavored Markdown are the references:
//   - &, < and > become entities, so no raw HTML, comment or autolink gets through (GFM 4.6, 6.5);
//   - \ ` * [ | ~ are backslash-escaped (code spans, emphasis, links and images, table cells,
//     strikethrough), and _ too unless it is inside a word, where it cannot emphasise (6.2);
//   - a leading # + - = or list number, and leading blanks, are escaped so the value cannot open a
//     heading, list, thematic break or indented code block;
//   - an @ that would start a mention is followed by a zero-width space (U+200B), so pasting the
//     report into GitHub or GitLab notifies nobody.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	var b strings.Builder
	b.Grow(len(s) + 8)
	lead := true // still at the start of the value
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case lead && (r == ' ' || r == '\t'):
			b.WriteString(map[rune]string{' ': "&#32;", '\t': "&#9;"}[r])
			i += size
			continue
		case lead && strings.ContainsRune("#+-=", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case lead && r >= '0' && r <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			b.WriteString(s[i:j])
			if j < len(s) && (s[j] == '.' || s[j] == ')') {
				b.WriteByte('\\')
				b.WriteByte(s[j])
				j++
			}
			i = j
			lead = false
			continue
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case strings.ContainsRune("\\`*[|~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '_':
			if !wordAt(s, i-1, true) || !wordAt(s, i+1, false) {
				b.WriteByte('\\')
			}
			b.WriteByte('_')
		case r == '@':
			b.WriteByte('@')
			if !wordAt(s, i-1, true) && i+1 < len(s) && isWordByte(s[i+1]) {
				b.WriteString("\u200b")
			}
		default:
			b.WriteString(s[i : i+size])
		}
		lead = false
		i += size
	}
	return b.String()
}

// wordAt says whether the rune ending (before) or starting (after) at byte i of s is a letter or
// digit; outside s it is not.
func wordAt(s string, i int, before bool) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	var r rune
	if before {
		r, _ = utf8.DecodeLastRuneInString(s[:i+1])
	} else {
		r, _ = utf8.DecodeRuneInString(s[i:])
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// mdCode writes a value taken from the evidence as a Markdown code span outside a table: a fence
// one backtick longer than the longest run of backticks in it, padded with a space when the value
// starts or ends with a backtick or a space (CommonMark 6.1), newlines as spaces. Nothing inside
// a code span is markup, so nothing else is escaped. An empty value gives "“", as before.
func mdCode(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if s == "" {
		return "``"
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// mdCodeCell is mdCode for a table cell: a | is backslash-escaped, which GFM's table parser
// undoes before it reads the code span (GFM 4.10), so the cell is not split.
func mdCodeCell(s string) string {
	return strings.ReplaceAll(mdCode(s), "|", `\|`)
}
