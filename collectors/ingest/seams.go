package ingest

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync/atomic"
)

// Seams: where one artefact ends and the next begins in a paste that has no blank line, fence
// or prompt between them (a `kubectl get nodes` table running into journal lines, describe-cluster
// JSON on the line after a log line and a NodeConfig or a user data script right under its "}").
// Each artefact's own grammar says where it ends: a JSON document at its balanced closing
// bracket, a log line by its timestamp at column 0, a YAML document by its first key at column 0.

// maxStray bounds the log lines at column 0 one JSON document may hold (another command's stderr
// printed into the listing on stdout): more is no listing with a few lines in it.
const maxStray = 8

// jsonScans counts the lines the JSON document scans of this file looked at: the lines a
// jsonScan indexed and the lines it validated as JSON. Tests read it to check the work is linear
// in the paste.
var jsonScans atomic.Int64

// jsonScan finds, in one pass over lines[lo:hi], where the JSON document that may start on each
// line ends (newJSONScan), and validates the documents asked about at most
// once each, within a budget of lines. Scanning each candidate from its first line to the end
// made the work quadratic: 100,000 lines of "{" (no document closes), or "{" under each line
// of an indented log, took minutes.
type jsonScan struct {
	lines  []line
	lo, hi int
	// end[i-lo] is the index after the line that closes the document starting on line i, or -1
	end []int32
	// the stray lines of that document are strays[strayFrom[i-lo]:strayTo[i-lo]]
	strayFrom, strayTo []int32
	strays             []int
	valid              map[int]bool // validity of the documents validated, by first line
	budget             int          // lines json.Valid may still read
}

// jsonValidBudget is how many lines a jsonScan validates as JSON per line it covers, and
// jsonValidSlack how many more: each document once is at most the paste once; only documents
// nested in others, under log lines, read their lines again. A document past the budget is
// taken as not valid, as it is when it does not parse: the lines are read as they would be
// without the seam.
const (
	jsonValidBudget = 2
	jsonValidSlack  = 20000
)

// newJSONScan indexes the JSON documents that may start in lines[lo:hi]: on every line
// jsonStart accepts, a document, which ends at the first line after which its brackets (outside
// strings, each line on its own) are balanced, and fails at a closing bracket with none open, at
// hi, or at a line at column 0 that is no bracket, string or blank line: inside a document such
// a line can only be a log or tool error line (logLine), another command's output printed into
// it (stray: at most maxStray of them), and any other text, or a stray line more, ends it: the
// text is no JSON document. The documents still open are kept on a stack, innermost last; a document's depth
// is the running depth of all lines less the depth before its first line, so one pass tells all
// of them apart.
func newJSONScan(lines []line, lo, hi int) *jsonScan {
	n := hi - lo
	s := &jsonScan{lines: lines, lo: lo, hi: hi, end: make([]int32, n), strayFrom: make([]int32, n), strayTo: make([]int32, n),
		valid: map[int]bool{}, budget: jsonValidBudget*n + jsonValidSlack}
	for k := range s.end {
		s.end[k] = -1
	}
	type open struct{ first, base, strays int }
	var stack []open // documents not yet closed, the outermost at stack[bottom]
	bottom, depth := 0, 0
	for k := lo; k < hi; k++ {
		t := lines[k].text
		if jsonStart(t) {
			stack = append(stack, open{k, depth, len(s.strays)})
		}
		if bottom == len(stack) {
			stack, bottom, depth = stack[:0], 0, 0 // nothing open: the depth counts from here
			continue
		}
		jsonScans.Add(1)
		if t != "" && !strings.ContainsRune(" \t{}[]\",", rune(t[0])) {
			// no document's first line (jsonStart): a stray log line or the end of them all
			if !logLine(t) {
				stack, bottom = stack[:0], 0
				continue
			}
			s.strays = append(s.strays, k)
			for bottom < len(stack) && len(s.strays)-stack[bottom].strays > maxStray {
				bottom++
			}
			continue
		}
		low, d := 0, 0
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
				d++
			case c == '}' || c == ']':
				d--
				low = min(low, d)
			}
		}
		// a closing bracket with none open ends the documents it closes below their start
		for len(stack) > bottom && depth+low < stack[len(stack)-1].base {
			stack = stack[:len(stack)-1]
		}
		depth += d
		if top := len(stack) - 1; top >= bottom && stack[top].base == depth {
			o := stack[top]
			s.end[o.first-lo], s.strayFrom[o.first-lo], s.strayTo[o.first-lo] = int32(k+1), int32(o.strays), int32(len(s.strays))
			stack = stack[:top]
		}
	}
	return s
}

// docEnd returns the index after the line that closes the document starting on line i, and the
// indexes of its stray lines; -1 when no document starts there or it does not close.
func (s *jsonScan) docEnd(i int) (end int, stray []int) {
	if i < s.lo || i >= s.hi || s.end[i-s.lo] < 0 {
		return -1, nil
	}
	k := i - s.lo
	return int(s.end[k]), s.strays[s.strayFrom[k]:s.strayTo[k]]
}

// validJSON reports whether doc, the n lines of the document starting on line i, is valid
// JSON: once per document, and false when the scan's budget of lines is spent.
func (s *jsonScan) validJSON(i int, doc func() []byte, n int) bool {
	if v, ok := s.valid[i]; ok {
		return v
	}
	v := false
	if n <= s.budget {
		s.budget -= n
		jsonScans.Add(int64(n))
		v = json.Valid(doc())
	}
	s.valid[i] = v
	return v
}

// validEnd returns docEnd's end when the document starting on line i is valid JSON as it stands
// (no stray line in it), else -1.
func (s *jsonScan) validEnd(i int) int {
	end, stray := s.docEnd(i)
	if end < 0 || len(stray) > 0 || !s.validJSON(i, func() []byte { return joinLines(s.lines[i:end]) }, end-i) {
		return -1
	}
	return end
}

// unstderr moves the stray lines of a JSON document (see newJSONScan) — an AWS CLI error a
// parallel command printed on stderr into a listing on stdout — to just under the document's
// closing line, when the document is valid JSON without them. Each line keeps its number: the
// document is read whole, and the error line after it as a log line of its own, not lost.
// Other lines are returned as they are.
func unstderr(lines []line) []line {
	var out []line // nil while nothing moved
	var scan *jsonScan
	for i := 0; i < len(lines); i++ {
		if !jsonStart(lines[i].text) {
			continue
		}
		if scan == nil {
			scan = newJSONScan(lines, i, len(lines))
		}
		end, stray := scan.docEnd(i)
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
		if !scan.validJSON(i, func() []byte { return joinLines(doc) }, len(doc)) {
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

// jsonAfterLog returns the end of a valid JSON document (validEnd: jsonScan.validEnd) that
// starts at column 0 on lines[i] right under a log or tool error line, or -1.
func jsonAfterLog(lines []line, i int, validEnd func(int) int) int {
	if i == 0 || !jsonStart(lines[i].text) || !logLine(lines[i-1].text) {
		return -1
	}
	return validEnd(i)
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
