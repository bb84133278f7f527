package ingest

import (
	"bytes"
	"regexp"

	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

// records rejoins what a tool printed as one record over several lines, so that the signature
// catalog, which matches one line at a time, sees the record whole: a Terraform diagnostic block
// (tfDiagnostics) and eksctl's failed stack wait with the stack events it fetched
// (eksctlStackEvents). The record is written on its first line; the lines it absorbed become
// empty, so the line numbers of the rest stay those of the input.
func records(text []byte) []byte {
	if !bytes.Contains(text, []byte("Error: ")) && !bytes.Contains(text, []byte("Warning: ")) && !bytes.Contains(text, []byte("fetching stack events")) {
		return text // the cheap test first: most logs hold neither
	}
	lines := bytes.Split(text, []byte("\n"))
	changed := tfDiagnostics(lines)
	changed = eksctlStackEvents(lines) || changed
	if !changed {
		return text
	}
	return bytes.Join(lines, []byte("\n"))
}

const (
	// maxTFBlock bounds the lines one Terraform diagnostic block may span.
	maxTFBlock = 80
	// maxTFSummary bounds the non-blank lines of a diagnostic's summary in the plain form,
	// where nothing but the "with"/"on" lines closes it.
	maxTFSummary = 12
)

var (
	// reTFDiagHead is the first line of a Terraform diagnostic, its box rule stripped:
	// "Error: SUMMARY" or "Warning: SUMMARY"
	// (https://github.com/hashicorp/terraform/blob/v1.9.0/internal/command/format/diagnostic.go).
	reTFDiagHead = regexp.MustCompile(`^(?:Error|Warning): \S`)
	// reTFDiagWith is the resource the diagnostic is about: "with ADDRESS,".
	reTFDiagWith = regexp.MustCompile(`^with [A-Za-z_][^,]*,$`)
	// reTFDiagOn is where in the configuration: "on FILE line N, in resource "T" "N":" or
	// "on FILE line N:".
	reTFDiagOn = regexp.MustCompile(`^on \S.* line \d+(?:, in .*)?:$`)
)

// tfBody returns a line of a Terraform diagnostic without its indentation, its left box rule
// ("│") and the spaces around the rest.
func tfBody(l []byte) []byte {
	t := bytes.TrimLeft(l, " \t")
	t = bytes.TrimPrefix(t, []byte("│"))
	return bytes.TrimSpace(t)
}

// tfDiagnostics rejoins each Terraform diagnostic block in lines into one record on its
// summary's line: the summary with the lines it continues on (an AWS error's "1 error occurred:"
// list), the resource address ("with ADDRESS,"), the configuration line ("on FILE line N, in
// resource …:") and the detail, the pieces separated by logscan.RecordSep. Terraform prints a
// block boxed ("╷", "│ " before each line, "╵"), or plain with -no-color or outside a terminal;
// the source excerpt under the "on" line ("  63: resource …", expression values) stays on its
// own lines. A block is joined when its extent is known: closed by "╵", or showing its "on"
// line within maxTFSummary lines of summary; in the plain form the detail after the excerpt
// has no end mark and is left as it is. It reports whether it joined any.
func tfDiagnostics(lines [][]byte) bool {
	changed := false
	for i := 0; i < len(lines); i++ {
		head := tfBody(lines[i])
		if !reTFDiagHead.Match(head) {
			continue
		}
		boxed := bytes.HasPrefix(bytes.TrimLeft(lines[i], " \t"), []byte("│"))
		const (
			summary = iota
			context // after "with", before "on"
			excerpt
			detail
		)
		phase := summary
		var parts []int // the absorbed lines, in order
		var withAt, onAt = -1, -1
		closed, end := false, i+1
		nSummary := 0
		for j := i + 1; j < len(lines) && j-i <= maxTFBlock; j++ {
			end = j + 1
			raw := bytes.TrimLeft(lines[j], " \t")
			b := tfBody(lines[j])
			if bytes.Equal(b, []byte("╵")) {
				closed, end = true, j
				break
			}
			if boxed && len(raw) > 0 && !bytes.HasPrefix(raw, []byte("│")) || bytes.Equal(b, []byte("╷")) || reTFDiagHead.Match(b) {
				end = j // left the box, or the next block
				break
			}
			switch phase {
			case summary:
				switch {
				case reTFDiagWith.Match(b):
					withAt, phase = j, context
				case reTFDiagOn.Match(b):
					onAt, phase = j, excerpt
				case len(b) > 0:
					nSummary++
					parts = append(parts, j)
				}
			case context:
				if !reTFDiagOn.Match(b) {
					withAt = -1 // "with" is always followed by "on": not a diagnostic's
				} else {
					onAt = j
				}
				phase = excerpt
			case excerpt:
				if len(b) == 0 {
					phase = detail
				}
			case detail:
				if len(b) > 0 {
					parts = append(parts, j)
				}
			}
			if withAt < 0 && phase == excerpt && onAt < 0 {
				break
			}
		}
		known := closed || onAt >= 0 && (boxed || nSummary <= maxTFSummary)
		if !known {
			continue
		}
		// the record: the summary's lines, then "with" and "on", then the detail when the
		// block's end is known
		var rec []byte
		rec = append(rec, bytes.TrimRight(lines[i], " \t\r")...)
		var sep bool
		add := func(j int, newPiece bool) {
			if newPiece || sep {
				rec = append(rec, logscan.RecordSep...)
			} else {
				rec = append(rec, ' ')
			}
			rec = append(rec, tfBody(lines[j])...)
			lines[j] = nil
		}
		absorbed := 0
		for _, j := range parts {
			if withAt >= 0 && j > withAt || onAt >= 0 && j > onAt {
				continue // the detail, below
			}
			add(j, false)
			absorbed++
		}
		if withAt >= 0 {
			add(withAt, true)
			absorbed++
		}
		if onAt >= 0 {
			add(onAt, true)
			absorbed++
		}
		if closed || onAt < 0 {
			first := true
			for _, j := range parts {
				if withAt >= 0 && j > withAt || onAt >= 0 && j > onAt {
					add(j, first)
					first = false
					absorbed++
				}
			}
		}
		if absorbed == 0 {
			continue
		}
		lines[i], changed = rec, true
		i = end - 1
	}
	return changed
}

var (
	// reEksctlStackWait is eksctl's failed wait for a CloudFormation stack
	// (https://github.com/eksctl-io/eksctl/blob/v0.230.0/pkg/cfn/manager/waiters.go).
	reEksctlStackWait = regexp.MustCompile(`while waiting for CloudFormation stack|waiting for CloudFormation stack "[^"]+": `)
	// reEksctlStackEvent is one stack event eksctl prints after "fetching stack events in
	// attempt to troubleshoot the root cause of the failure": "[ℹ]  TYPE/LOGICAL-ID: STATUS"
	// (with " – REASON" for a failure), a date and time before it when eksctl prints them.
	reEksctlStackEvent = regexp.MustCompile(`^\s*(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+)?\[[^\]]{1,4}\]\s+(AWS::[A-Za-z0-9]+::[A-Za-z0-9:]+/[A-Za-z0-9]+): ([A-Z_]+)`)
)

// maxStackEvents bounds the stack events appended to one stack wait's line.
const maxStackEvents = 40

// eksctlStackEvents appends to each line of eksctl's failed stack wait that is followed by
// "fetching stack events …" the events it fetched, as "stack events: TYPE/LOGICAL-ID STATUS,
// …" after logscan.RecordSep: which resources the stack holds tells an unmanaged node group's
// stack from a managed one's. The event lines stay as they are (each is a record of its own,
// with its reason); the summary leaves out their colons and reasons, so a signature of one
// event does not match it again. It reports whether it changed any line.
func eksctlStackEvents(lines [][]byte) bool {
	changed := false
	for i := 0; i+1 < len(lines); i++ {
		if !reEksctlStackWait.Match(lines[i]) || !bytes.Contains(lines[i+1], []byte("fetching stack events")) {
			continue
		}
		var ev []byte
		n := 0
		for j := i + 2; j < len(lines) && n < maxStackEvents; j++ {
			m := reEksctlStackEvent.FindSubmatch(lines[j])
			if m == nil {
				break
			}
			if n > 0 {
				ev = append(ev, ", "...)
			}
			ev = append(append(append(ev, m[1]...), ' '), m[2]...)
			n++
		}
		if n == 0 {
			continue
		}
		rec := append(append([]byte(nil), bytes.TrimRight(lines[i], " \t\r")...), logscan.RecordSep...)
		lines[i] = append(append(rec, "stack events: "...), ev...)
		changed = true
	}
	return changed
}
