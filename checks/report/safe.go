package report

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/redact"
)

// Limits of one string in a report, in bytes: longer ones (a 1 MiB log line quoted as evidence)
// are cut and say how long they were.
const (
	maxHumanString = 4 << 10
	maxJSONString  = 64 << 10
)

// safe prepares every string reachable from v (a *Report, *Fleet or *Scan) for output, in
// place: secrets are redacted (collectors/redact) in every format, strings are cut to a bounded
// length, and for human-readable output (table, Markdown, JUnit, metrics) control characters and
// escape sequences from logs, tags or pastes are escaped ("\x1b", "\u202e") so they never reach
// a terminal raw. Every renderer calls it first; it is idempotent, so rendering a report twice
// is harmless.
func safe(v any, human bool) {
	limit := maxJSONString
	if human {
		limit = maxHumanString
	}
	type key struct {
		s    string
		line bool
	}
	seen := map[key]string{} // the same texts recur in every report of a fleet
	clean := func(s string, line bool) string {
		if r, ok := seen[key{s, line}]; ok {
			return r
		}
		r := redact.String(s)
		if human && line {
			r = EscapeLine(r)
		} else if human {
			r = escapeControls(r)
		}
		r = cut(r, limit)
		if len(seen) < 1<<16 {
			seen[key{s, line}] = r
		}
		return r
	}
	walkStrings(reflect.ValueOf(v), clean, false, 0)
}

// oneLineTypes are the structs whose strings are names and short notes printed on one line
// (an input file's or archive member's path and its problem, the target and its source): a
// newline or tab in them is escaped too in human output, so a member named
// "x\nVerdict: joined" cannot forge a report line.
var oneLineTypes = map[reflect.Type]bool{
	reflect.TypeOf(InputProblem{}):    true,
	reflect.TypeOf(evidence.Target{}): true,
}

// oneLineFields are the names of string fields, in any struct, that are printed on one line:
// where a fact was read from (an evidence item's source, a file or member path) and what was
// judged.
var oneLineFields = map[string]bool{"Source": true, "Path": true, "Resource": true}

// walkStrings applies f to every settable string under v (structs' exported fields, pointers,
// slices, arrays, maps and interfaces); line is true under oneLineTypes and for oneLineFields.
func walkStrings(v reflect.Value, f func(string, bool) string, line bool, depth int) {
	if depth > 32 || !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkStrings(v.Elem(), f, line, depth+1)
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		c := reflect.New(e.Type()).Elem()
		c.Set(e)
		walkStrings(c, f, line, depth+1)
		if v.CanSet() {
			v.Set(c)
		}
	case reflect.Struct:
		line = line || oneLineTypes[v.Type()]
		for i := 0; i < v.NumField(); i++ {
			if fd := v.Type().Field(i); fd.IsExported() {
				walkStrings(v.Field(i), f, line || oneLineFields[fd.Name] && fd.Type.Kind() == reflect.String, depth+1)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkStrings(v.Index(i), f, line, depth+1)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			c := reflect.New(e.Type()).Elem()
			c.Set(e)
			walkStrings(c, f, line, depth+1)
			v.SetMapIndex(k, c)
		}
	case reflect.String:
		if v.CanSet() {
			if s := f(v.String(), line); s != v.String() {
				v.SetString(s)
			}
		}
	}
}

// escapeControls writes control characters (C0 but tab and newline, DEL, C1), bidirectional
// overrides, the noncharacters U+FFFE and U+FFFF and invalid UTF-8 as visible escapes. What is
// left is inside YAML 1.2's printable set (spec 5.1: tab, LF, x20-x7E, xA0-xD7FF, xE000-xFFFD,
// x10000-x10FFFF), so the report objects always serialise to YAML.
func escapeControls(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
			r == 0xfffe, r == 0xffff: // the noncharacters YAML 1.2 leaves out of its printable set

			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// cut shortens s to at most n bytes at a UTF-8 boundary, saying how long it was (so cutting
// again changes nothing).
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := n - 32
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return fmt.Sprintf("%s…[%d bytes]", s[:k], len(s))
}

// EscapeControls returns s with control characters (C0 but tab and newline, DEL, C1),
// bidirectional overrides, U+FFFE, U+FFFF and invalid UTF-8 written as visible escapes (\x1b, \u202e), so text
// taken from the input cannot drive the terminal it is printed to (stderr notes and errors).
func EscapeControls(s string) string { return escapeControls(s) }

// EscapeLine is EscapeControls for one line of stderr: newlines and tabs are escaped too (\n,
// \t), so a name or message taken from the input (a file name holding a newline) cannot forge a
// second "eksdoctor:" line.
func EscapeLine(s string) string {
	s = escapeControls(s)
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(s)
}
