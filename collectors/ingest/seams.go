package ingest

import (
	"encoding/json"
	"regexp"
	"strings"
)

// Seams: where one artefact ends and the next begins in a paste that has no blank line, fence
// or prompt between them (a `kubectl get nodes` table running into journal lines, describe-cluster
// JSON on the line after a log line and a NodeConfig or a user data script right under its "}").
// Each artefact's own grammar says where it ends: a JSON document at its balanced closing
// bracket, a log line by its timestamp at column 0, a YAML document by its first key at column 0.

// maxStray bounds the log lines at column 0 one JSON document may hold (another command's stderr
// printed into the listing on stdout): more is no listing with a few lines in it.
const maxStray = 8

// jsonDocEnd scans the JSON document whose first line is lines[i] by its brackets outside
// strings, up to line hi, and returns the index of the line after the one that closes it, or -1
// when the brackets do not close first. Inside the document a line at column 0 can only be a
// bracket, a string or a blank line; a log or tool error line there (logLine) is stray, another
// command's output printed into it, and its index is returned in stray (at most maxStray); any
// other text at column 0 ends the scan with -1: the text is no JSON document.
func jsonDocEnd(lines []line, i, hi int) (end int, stray []int) {
	depth := 0
	for k := i; k < hi; k++ {
		t := lines[k].text
		if k > i && t != "" && !strings.ContainsRune(" \t{}[]\",", rune(t[0])) {
			if len(stray) < maxStray && logLine(t) {
				stray = append(stray, k)
				continue
			}
			return -1, nil
		}
		in, esc := false, false
		for j := 0; j < len(t); j++ {
			c := t[j]
			switch {
			case esc:
				esc = false
			case in && c == '\\':
				esc = true
			case c == '"':
				in = !in
			case in:
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
				if depth < 0 {
					return -1, nil
				}
			}
		}
		if depth == 0 {
			return k + 1, stray
		}
	}
	return -1, nil
}

// validJSONEnd returns jsonDocEnd's end when the document from line i is valid JSON as it stands
// (no stray line in it), else -1.
func validJSONEnd(lines []line, i, hi int) int {
	end, stray := jsonDocEnd(lines, i, hi)
	if end < 0 || len(stray) > 0 || !json.Valid(joinLines(lines[i:end])) {
		return -1
	}
	return end
}

// unstderr moves the stray lines of a JSON document (see jsonDocEnd) — an AWS CLI error a
// parallel command printed on stderr into a listing on stdout — to just under the document's
// closing line, when the document is valid JSON without them. Each line keeps its number: the
// document is read whole, and the error line after it as a log line of its own, not lost.
// Other lines are returned as they are.
func unstderr(lines []line) []line {
	var out []line // nil while nothing moved
	for i := 0; i < len(lines); i++ {
		if !jsonStart(lines[i].text) {
			continue
		}
		end, stray := jsonDocEnd(lines, i, len(lines))
		if end < 0 || len(stray) == 0 {
			continue
		}
		doc := make([]line, 0, end-i)
		for k, s := i, 0; k < end; k++ {
			if s < len(stray) && stray[s] == k {
				s++
				continue
			}
			doc = append(doc, lines[k])
		}
		if !json.Valid(joinLines(doc)) {
			continue
		}
		if out == nil {
			out = append(make([]line, 0, len(lines)), lines...)
		}
		// the lines i..end-1 again, reordered: the document, then its stray lines
		k := i + copy(out[i:end], doc)
		for _, s := range stray {
			out[k] = lines[s]
			k++
		}
		i = end - 1
	}
	if out == nil {
		return lines
	}
	return out
}

// reYAMLTopKey is a YAML mapping key at column 0 ("apiVersion: v1", "cluster:").
var reYAMLTopKey = regexp.MustCompile(`^[A-Za-z][\w.-]*:(?:\s|$)`)

// yamlRunEnd returns the index after the last line of the YAML text that starts at lines[i]
// (before hi): lines indented, list items, comments and keys at column 0 that are no log line.
func yamlRunEnd(lines []line, i, hi int) int {
	k := i + 1
	for ; k < hi; k++ {
		t := lines[k].text
		if t == "" || logLine(t) && !strings.HasPrefix(t, " ") {
			break
		}
		if t[0] != ' ' && t[0] != '\t' && !strings.HasPrefix(t, "- ") && t[0] != '#' && !reYAMLTopKey.MatchString(t) {
			break
		}
	}
	return k
}

// yamlAfterLog reports whether lines[i] starts a YAML document right under a journal, syslog,
// klog or timestamped line: a manifest's apiVersion: or kind: at column 0 with the other of the
// two at column 0 further down the same YAML text (kubectl -o yaml sorts the keys: kind comes
// after data), or another key at column 0 whose YAML text reads as a document eksdoctor knows
// (describe-cluster --output yaml). A ConfigMap appended to a log with no blank line between
// (Add-Content after `kubectl … >`) is a document of its own, not more of the log.
func yamlAfterLog(lines []line, i, hi int) bool {
	cur := lines[i].text
	if i == 0 || !reYAMLTopKey.MatchString(cur) || logLine(cur) || !strongLogLine(lines[i-1].text) {
		return false
	}
	end := yamlRunEnd(lines, i, hi)
	if end-i < 2 {
		return false
	}
	if reManifestStart.MatchString(cur) {
		other := "kind:"
		if strings.HasPrefix(cur, "kind:") {
			other = "apiVersion:"
		}
		for j := i + 1; j < end; j++ {
			if strings.HasPrefix(lines[j].text, other) {
				return true
			}
		}
		return false
	}
	return knownDocuments(lines[i:end])
}

// knownDocuments reports whether lines read as documents eksdoctor knows (user data included)
// that parse: not log text, prose or unknown data.
func knownDocuments(lines []line) bool {
	segs, ok := structured(lines, "")
	if !ok || len(segs) == 0 || unreadable(segs) {
		return false
	}
	for _, s := range segs {
		switch s.Type {
		case TypeLog, TypeProse, TypeData:
			return false
		}
	}
	return true
}

// jsonAfterLog returns the end of a JSON document (validJSONEnd) that starts at column 0 on
// lines[i] right under a log or tool error line, or -1.
func jsonAfterLog(lines []line, i, hi int) int {
	if i == 0 || !jsonStart(lines[i].text) || !logLine(lines[i-1].text) {
		return -1
	}
	return validJSONEnd(lines, i, hi)
}

// logAfterLine reports whether lines[i] is a log line stamped at column 0 (strongLogLine) right
// under a line that is no log line: where a log starts under a document's last line (docPiece
// decides whether the lines above are one). No JSON, YAML, TOML, script or MIME document goes on
// with a journal, klog or timestamped line at column 0.
func logAfterLine(lines []line, i int) bool {
	t := lines[i].text
	return t != "" && t[0] != ' ' && t[0] != '\t' && strongLogLine(t) && !logLine(lines[i-1].text)
}

// docPiece reports whether the lines [start, i) start as a document does and read as documents
// eksdoctor knows (knownDocuments). A shell's error report ("/etc/eks/bootstrap.sh: line 169:
// Copyright: unbound variable") starts as a YAML key and names the bootstrap script, but is the
// script's output: log text, as the lines under it are.
func docPiece(lines []line, start, i int) bool {
	t := lines[start].text
	return !logLine(t) && !reShellError.MatchString(t) && structuredStart(lines[start:i]) && knownDocuments(lines[start:i])
}
