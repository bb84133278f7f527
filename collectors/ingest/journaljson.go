package ingest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// journalKeys are fields only a journal entry exported by journalctl -o json or json-pretty
// carries (systemd.journal-fields(7): trusted fields start with "_", address fields with "__").
var journalKeys = []string{"__REALTIME_TIMESTAMP", "__CURSOR", "__MONOTONIC_TIMESTAMP", "_SYSTEMD_UNIT", "SYSLOG_IDENTIFIER", "_BOOT_ID"}

// reByteArray is a journal field written as an array of numbers: `"MESSAGE": [69, 49, …`.
var reByteArray = regexp.MustCompile(`"[A-Z_][A-Z0-9_]*"\s*:\s*\[\s*\d`)

// journalEntry reports whether m is a journal entry: it holds one of journalKeys.
func journalEntry(m map[string]any) bool {
	return hasAny(m, journalKeys...)
}

// journalText replaces, in the journal entry m, every field journald exported as an array of
// byte values with the text those bytes spell. journalctl's JSON output writes a field that
// holds a control character or bytes that are not UTF-8 (a terminal colour code, a cut
// multi-byte character) as an array of numbers 0-255 instead of a string (systemd's JSON
// export format, https://systemd.io/JOURNAL_EXPORT_FORMATS/#journal-json-format). It returns
// whether a field was replaced; an array holding anything but such numbers is left as it is.
func journalText(m map[string]any) bool {
	changed := false
	for k, v := range m {
		arr, ok := v.([]any)
		if !ok || len(arr) == 0 {
			continue
		}
		b := make([]byte, 0, len(arr))
		for _, e := range arr {
			var n float64
			switch x := e.(type) {
			case float64:
				n = x
			case json.Number:
				f, err := x.Float64()
				if err != nil {
					b = nil
				}
				n = f
			default:
				b = nil
			}
			if b == nil || n < 0 || n > 255 || n != float64(int(n)) {
				b = nil
				break
			}
			b = append(b, byte(n))
		}
		if b == nil {
			continue
		}
		m[k] = strings.ToValidUTF8(string(b), "\uFFFD")
		changed = true
	}
	return changed
}

// journalArrays rewrites each line that is a journal entry of `journalctl -o json` with a field
// written as an array of byte values (journalText) as the same entry with that field a string,
// so the entry's message is read like any other; other lines, and the line count, stay.
func journalArrays(lines []line) []line {
	var out []line
	for i, l := range lines {
		t := strings.TrimSpace(l.text)
		if !strings.HasPrefix(t, "{") || !reByteArray.MatchString(t) {
			continue
		}
		var m map[string]any
		if json.Unmarshal([]byte(t), &m) != nil || !journalEntry(m) || !journalText(m) {
			continue
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if enc.Encode(m) != nil {
			continue
		}
		if out == nil {
			out = make([]line, len(lines))
			copy(out, lines)
		}
		out[i].text = strings.TrimRight(buf.String(), "\n")
	}
	if out == nil {
		return lines
	}
	return out
}
