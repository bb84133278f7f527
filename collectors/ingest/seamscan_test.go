package ingest

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// seamShapes are pastes of n repetitions that once made the seam readers scan JSON documents
// again from every line: brackets that never close (every line "{" or "[{", or "{" under an
// indented log line), documents nested under JSON log lines that are invalid deep inside, and
// the legitimate case beside them, listings with another command's error line in each.
var seamShapes = []struct {
	name string
	gen  func(n int) string
}{
	{"open braces", func(n int) string { return strings.Repeat("{\n", n) }},
	{"open arrays of objects", func(n int) string { return strings.Repeat("[{\n", n) }},
	{"open brace under an indented log line", func(n int) string {
		return strings.Repeat("  2024-01-02T10:00:00Z kubelet x y z failed\n{\n", n)
	}},
	{"nested documents under JSON log lines, invalid inside", func(n int) string {
		pad := "  " + strings.Repeat(`"x",`, 20) + "\n"
		return "[\n" + strings.Repeat(`{"level":"info","msg":"m"},`+"\n[\n"+pad+pad, n) + "1 2\n" + strings.Repeat("]\n", n) + "]\n"
	}},
	{"listings with an error line inside", func(n int) string {
		return strings.Repeat("{\n  \"Reservations\": [\n  {\"a\": 1}\n  ],\nAn error occurred (Throttling) when calling the DescribeInstances operation: Rate exceeded\n  \"b\": 2\n}\n", n)
	}},
}

// TestSeamsJSONScansLinear checks that finding where JSON documents end in a paste without seams
// (jsonDocEnd, validJSONEnd, unstderr, splitAtHeaders) looks at each line a bounded number of
// times: four times the paste, at most five times the lines scanned. Scanning each candidate
// document from its first line to the paste's end made 100,000 lines of "{" take minutes.
func TestSeamsJSONScansLinear(t *testing.T) {
	for _, sh := range seamShapes {
		t.Run(sh.name, func(t *testing.T) {
			scans := func(n int) int64 {
				before := jsonScans.Load()
				Read([]byte(sh.gen(n)), "t", Options{})
				return jsonScans.Load() - before
			}
			small, large := scans(500), scans(2000)
			if large > 5*small+100 {
				t.Errorf("JSON scans looked at %d lines for 500 repetitions, %d for 2,000: more than linear", small, large)
			}
		})
	}
}

// TestSeamsJSONScansBounded reads each shape at 10,000 repetitions (10,000 to 70,000 lines) in
// bounded work: at most ten lines scanned per line of paste (scanning each document to the end
// looked at hundreds of millions).
func TestSeamsJSONScansBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads pastes of up to 70,000 lines")
	}
	for _, sh := range seamShapes {
		text := sh.gen(10000)
		lines := strings.Count(text, "\n")
		before := jsonScans.Load()
		Read([]byte(text), "t", Options{})
		if n := jsonScans.Load() - before; n > int64(10*lines) {
			t.Errorf("%s: %d lines scanned for a paste of %d lines", sh.name, n, lines)
		}
	}
}

// jsonDocEndRef is the scan newJSONScan replaced: one document from its first line, up to hi.
func jsonDocEndRef(lines []line, i, hi int) (end int, stray []int) {
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

// seamLines are lines of JSON documents, log lines and other text, for random pastes.
var seamLines = []string{
	"{", "[", "}", "]", "},", "],", "[{", "}]", `{"a": 1}`, `{"a": [`, `  "b": "}]",`, `  "c": "\\\"{"`, "  ]}", "  {", "  }",
	`["x",`, `"y"]`, "", "  2024-01-02T10:00:00Z x", "An error occurred (Throttling) when calling X: y",
	"Jan 02 10:00:00 ip-10-0-1-5 kubelet[12]: E0102 x", "plain text", "  [1, 2]", `{"level":"info","msg":"m"},`, "}{", "][",
}

// TestJSONScanAsBefore checks that newJSONScan, which reads every document of a paste in one
// pass, finds the ends and stray lines jsonDocEndRef found scanning each document alone.
func TestJSONScanAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	for k := 0; k < 20000; k++ {
		n := 1 + r.Intn(40)
		lines := make([]line, n)
		for i := range lines {
			lines[i] = line{n: i + 1, text: seamLines[r.Intn(len(seamLines))]}
		}
		lo := r.Intn(n)
		scan := newJSONScan(lines, lo, n)
		for i := lo; i < n; i++ {
			if !jsonStart(lines[i].text) {
				continue
			}
			end, stray := scan.docEnd(i)
			wantEnd, wantStray := jsonDocEndRef(lines, i, n)
			if end != wantEnd || len(stray) != len(wantStray) || fmt.Sprint(stray) != fmt.Sprint(wantStray) {
				var b strings.Builder
				for _, l := range lines[lo:] {
					fmt.Fprintf(&b, "%d: %s\n", l.n-1, l.text)
				}
				t.Fatalf("document at %d: end %d, stray %v; want %d, %v in\n%s", i, end, stray, wantEnd, wantStray, b.String())
			}
		}
	}
}
