package ingest

import (
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
)

// classify reads one block (a fenced block, or the text between prompts) as segments. A block
// that is one structured document is read as that document; a fenced block that is not is log
// text; unfenced text is cut into paragraphs, each read as a document, a run of log lines, or prose.
//
// A block is cut where a Terraform heredoc, a sentence after YAML, a shell's error under the
// bootstrap call, kubectl output or a sentence of the poster's starts (see block.classify), and
// each part is read again the same way. The places a part could be cut are looked up in an index
// of the block's lines made once (newBlock), not searched for in the part: an issue that
// alternates the poster's words and log excerpts is cut thousands of times, and searching every
// remaining part again made that quadratic in its paragraphs.
func classify(lines []line, fenced bool, command string) []Segment {
	lines = trimBlank(lines)
	if len(lines) == 0 {
		return nil
	}
	b := newBlock(withFailedRequest(lines, command))
	return b.classify(0, len(b.lines), fenced, command)
}

// splitScans counts the lines newBlock indexed: each line of a block once. Tests read it to
// see that cutting a paste into parts is linear in its lines.
var splitScans atomic.Int64

// block is the lines of one classified block and, per line, where the next line of each kind
// that cuts a block is (len(lines) when there is none). Parts of the block are ranges [lo, hi)
// of its lines.
type block struct {
	lines []line
	blank []bool
	// nextNonBlank, nextBlank, nextProseKey, nextShellError and nextHeader have len(lines)+1
	// entries: the first index at or after i holding such a line.
	nextNonBlank, nextBlank []int
	// prevNonBlank[i] is the last non-blank line before i, or -1.
	prevNonBlank []int
	// nextProseKey: a sentence that YAML would read as a key (proseKey).
	nextProseKey []int
	// nextShellError: bash's report of an error in a script (reShellError).
	nextShellError []int
	// nextHeader: a kubectl get table's header, or a describe Name line after a blank line.
	nextHeader []int
	// nextAfterJSON: a manifest's first line (apiVersion:, kind: or "---") right under a JSON
	// document's closing "}" or "]" at column 0; nextJSONStart: a JSON document's first line at
	// column 0 (jsonStart). Files put together with `cat f1 f2 …` meet at such lines.
	nextAfterJSON, nextJSONStart []int
	// heredocs are the Terraform heredoc values' first lines, in order; heredocAt[i] is the
	// index in heredocs of the first at or after line i.
	heredocs  []heredoc
	heredocAt []int
	// plus are the lines of a plan's diff ("+ …"), in order.
	plus []int
	// bootEnd[i] is the first line at which a bootstrap call that starts at or after line i
	// ends (reBootstrapCall), or len(lines); made when first asked for.
	bootEnd []int
	// nextIntro[i] is the first paragraph at or after line i that is one or two of the poster's
	// sentences (introLine), or len(lines); made when first asked for.
	nextIntro []int
	// nextLogStart[i] is the first line at or after i that starts a run of log lines
	// (logStart), or len(lines); made when first asked for.
	nextLogStart []int
	// nextManifest[i] is the first line at or after i that starts a paragraph with apiVersion: or
	// kind: at column 0 (reManifestStart), or len(lines); manifestKeys[k][i] counts the lines
	// before i holding key k (0 apiVersion, 1 kind) at column 0. Made when first asked for.
	nextManifest []int
	manifestKeys [2][]int
}

// heredoc is the first line of a Terraform heredoc value and the first line after it that
// ends the scan for its body: its terminator, a diff line ("+ …"), or none (len(lines)).
type heredoc struct {
	line, stop int
	diff       bool // stop is a diff line: the value is a plan's diff, not shown whole
	// deciding is the index in block.heredocs of the first heredoc at or after this one whose
	// stop is not a diff line.
	deciding int
}

// reTFHeredocStart is the first line of a Terraform heredoc value: `user_data = <<-EOT`, in a plan
// with its diff marker, or passed to functions as configuration writes it
// (`user_data = base64encode(<<-EOT`).
var reTFHeredocStart = regexp.MustCompile(`^\s*[+~-]?\s*"?([\w.-]+)"?\s*=\s*(?:[a-z][a-z0-9_]*\(\s*)*<<-?([A-Z_]+)\s*$`)

// reHeredocTerm is a line that can end a heredoc: its terminator word alone.
var reHeredocTerm = regexp.MustCompile(`^[A-Z_]+$`)

// newBlock indexes lines: one pass over them for each kind of line that cuts a block.
func newBlock(lines []line) *block {
	n := len(lines)
	splitScans.Add(int64(n))
	b := &block{lines: lines, blank: make([]bool, n)}
	next := func(is func(i int) bool) []int {
		out := make([]int, n+1)
		out[n] = n
		for i := n - 1; i >= 0; i-- {
			if is(i) {
				out[i] = i
			} else {
				out[i] = out[i+1]
			}
		}
		return out
	}
	terms := map[string][]int{}
	type start struct {
		line int
		term string
	}
	var starts []start
	for i, l := range lines {
		t := strings.TrimSpace(l.text)
		b.blank[i] = t == ""
		if strings.HasPrefix(t, "+ ") {
			b.plus = append(b.plus, i)
		}
		if reHeredocTerm.MatchString(t) {
			terms[t] = append(terms[t], i)
		}
		if m := reTFHeredocStart.FindStringSubmatch(l.text); m != nil && m[1] != "mapRoles" && m[1] != "mapUsers" && m[1] != "mapAccounts" {
			// a plan's aws-auth mapRoles heredoc is left to the plan reader
			starts = append(starts, start{i, m[2]})
		}
	}
	b.nextNonBlank = next(func(i int) bool { return !b.blank[i] })
	b.nextBlank = next(func(i int) bool { return b.blank[i] })
	b.prevNonBlank = make([]int, n+1)
	b.prevNonBlank[0] = -1
	for i := 1; i <= n; i++ {
		b.prevNonBlank[i] = b.prevNonBlank[i-1]
		if !b.blank[i-1] {
			b.prevNonBlank[i] = i - 1
		}
	}
	b.nextProseKey = next(func(i int) bool { return proseKey(lines[i].text) })
	b.nextShellError = next(func(i int) bool { return reShellError.MatchString(lines[i].text) })
	b.nextHeader = next(func(i int) bool {
		return reTableHeader.MatchString(lines[i].text) || i > 0 && reDescribeName.MatchString(lines[i].text) && b.blank[i-1]
	})
	b.nextAfterJSON = next(func(i int) bool {
		return i > 0 && (lines[i-1].text == "}" || lines[i-1].text == "]") && (reManifestStart.MatchString(lines[i].text) || lines[i].text == "---")
	})
	b.nextJSONStart = next(func(i int) bool { return jsonStart(lines[i].text) })
	after := func(list []int, i int) int { // the first entry of list after line i, or n
		if k := sort.SearchInts(list, i+1); k < len(list) {
			return list[k]
		}
		return n
	}
	b.heredocs = make([]heredoc, len(starts))
	for k, s := range starts {
		h := heredoc{line: s.line, stop: after(terms[s.term], s.line)}
		if p := after(b.plus, s.line); p < h.stop {
			h.stop, h.diff = p, true
		}
		b.heredocs[k] = h
	}
	deciding := len(starts)
	for k := len(starts) - 1; k >= 0; k-- {
		if !b.heredocs[k].diff {
			deciding = k
		}
		b.heredocs[k].deciding = deciding
	}
	b.heredocAt = make([]int, n+1)
	k := 0
	for i := 0; i <= n; i++ {
		for k < len(starts) && starts[k].line < i {
			k++
		}
		b.heredocAt[i] = k
	}
	return b
}

// notDocument reports whether s is no JSON or YAML document of a known type: user data, log
// text, kubectl's human output, prose or unknown data.
func notDocument(s Segment) bool {
	switch s.Type {
	case TypeUserData, TypeLog, TypeProse, TypeData:
		return true
	}
	return strings.HasPrefix(string(s.Type), "text:") || s.value == nil
}

// nextDocument returns the first line after lo in [lo, hi) where a document starts right under
// the one that starts at lo (docAfterDoc), or hi.
func (b *block) nextDocument(lo, hi int) int {
	i := b.nextAfterJSON[lo+1]
	if yamlFirst(b.lines[lo].text) {
		i = min(i, b.nextJSONStart[lo+1])
	}
	return min(i, hi)
}

// trim drops the blank lines at either end of [lo, hi).
func (b *block) trim(lo, hi int) (int, int) {
	lo = b.nextNonBlank[min(lo, len(b.lines))]
	if lo >= hi {
		return hi, hi
	}
	return lo, b.prevNonBlank[hi] + 1
}

// classify reads the part [lo, hi) of the block as classify reads a block.
func (b *block) classify(lo, hi int, fenced bool, command string) []Segment {
	var out []Segment
	for {
		// each turn reads the head of [lo, hi) and goes on with what follows it
		if lo, hi = b.trim(lo, hi); lo >= hi {
			return out
		}
		if s, end, eof, ok := b.heredoc(lo, hi); ok {
			// a value Terraform prints as a heredoc: the document inside it, read on its own
			out = append(out, b.classify(lo, s, fenced, command)...)
			out = append(out, classify(dedent(b.lines[s+1:end]), false, "")...)
			if eof {
				return out
			}
			lo = end + 1
			continue
		}
		if awsTextOutput(command) {
			// the AWS CLI's text and table output hold no blank line: one ends the command's
			// output, and what follows is the poster's (a file's name, a Terraform block)
			if j := b.nextBlank[lo]; j < hi && b.nextNonBlank[j] < hi {
				out = append(out, b.classify(lo, j, fenced, command)...)
				lo, command = j, ""
				continue
			}
		}
		if reYAMLish.MatchString(b.lines[lo].text) || strings.TrimSpace(b.lines[lo].text) == "---" {
			// a sentence after a YAML document ("One or more Amazon EC2 Subnets of […] does not
			// … guide: https://…") is a message, not a key that happens to hold ": "
			if i := b.nextProseKey[lo+1]; i < hi {
				out = append(out, b.classify(lo, i, fenced, command)...)
				lo = i
				continue
			}
		}
		if i := b.shellError(lo, hi); i < hi {
			// a shell's error report under the bootstrap.sh command that printed it: the command
			// is the node's configuration, the report its output
			out = append(out, b.classify(lo, i, fenced, command)...)
			return append(out, seg(TypeLog, logDetail(b.lines[i:hi]), b.lines[i:hi]))
		}
		if i := b.nextHeader[lo+1]; i < hi {
			// kubectl output that starts after other lines (an error line above a table)
			out = append(out, b.classify(lo, i, fenced, command)...)
			lo = i
			continue
		}
		if i := b.nextDocument(lo, hi); i < hi {
			// files put together with `cat f1 f2 …`: a document starts right under another.
			// Only a first document that reads on its own as a known JSON or YAML document is
			// cut off: never user data, whose parts hold text of any shape, nor text
			if segs, ok := structured(trimBlank(b.lines[lo:i]), command); ok && !unreadable(segs) && !slices.ContainsFunc(segs, notDocument) {
				out = append(out, b.classify(lo, i, fenced, command)...)
				lo, command = i, ""
				continue
			}
		}
		if d := b.secondManifest(lo, hi); d < hi {
			// two manifests pasted one under the other with no "---" between them: the second
			// starts where a top-level apiVersion or kind comes again, and a line of the poster's
			// words just above it ("nodeadm config on the host:", which YAML reads as a key with
			// no value) is prose, not a key of the first. Only a first document that reads on
			// its own is cut off: text that does not parse is read as it was
			head, words := d, d
			if ps, pe := b.paragraphBefore(d); pe > 0 && ps > lo && separatorWords(b.lines[ps:pe]) {
				head, words = ps, pe
			}
			if segs, ok := structured(trimBlank(b.lines[lo:head]), command); ok && !unreadable(segs) {
				out = append(out, b.classify(lo, head, fenced, command)...)
				if words > head {
					out = append(out, seg(TypeProse, "", b.lines[head:words]))
				}
				lo, command = d, ""
				continue
			}
		}
		if !fenced && (command == "" || logsCommand(command)) {
			if i, j := b.introSentence(lo, hi); j > 0 {
				// a sentence of the poster's between artefacts ("And here is another node that
				// works fine:"): the documents on either side are read apart, never as one
				out = append(out, b.classify(lo, i, false, "")...)
				out = append(out, seg(TypeProse, "", b.lines[i:j]))
				lo = j
				continue
			}
		}
		lines := b.lines[lo:hi]
		if segs, ok := structured(lines, command); ok {
			if i := b.logStart(lo, hi); i < hi {
				// a configuration document with a log pasted under it, after a blank line or
				// right under its last line: no document goes on with a journal, klog or
				// timestamped line at column 0, so the document ends there and the log is read
				// as log (it made a kubeconfig swallow the kubelet's Unauthorized, and TOML
				// settings "unparseable")
				if head, ok := structured(trimBlank(b.lines[lo:i]), command); ok {
					out = append(out, head...)
					lo, command = i, ""
					continue
				}
			}
			if cut := foreignAfterBlank(lines); cut > 0 && unreadable(segs) {
				// a document that does not parse as a whole, with foreign text ("and", an events
				// table, log lines) after a blank line: two things pasted one under the other. The
				// document ends there, whether its part parses or was itself cut off mid-way
				// (a terminal's scrollback): the text after it is read on its own
				if head, ok := structured(trimBlank(lines[:cut]), command); ok {
					out = append(out, head...)
					lo, command = lo+cut, ""
					continue
				}
			}
			return append(out, segs...)
		}
		if command != "" {
			if cut := foreignAfterBlank(lines); cut > 0 {
				// a command's output, a blank line, then the poster's words ("and from my
				// laptop:"): the output is read as the command's, the words on their own
				if head, ok := structured(trimBlank(lines[:cut]), command); ok && !unreadable(head) {
					out = append(out, head...)
					lo, command = lo+cut, ""
					continue
				}
			}
		}
		if fenced || command != "" {
			return append(out, seg(TypeLog, logDetail(lines), lines))
		}
		return append(out, paragraphs(lines)...)
	}
}

// heredoc finds the first heredoc value of Terraform output in [lo, hi) (`+ user_data = <<-EOT`
// up to its `EOT`, or hi when the part ends inside it) whose lines are not a plan's diff of it
// (no "+ " line before its end): its first line s and the line end that ends it (hi with eof).
// A heredoc whose terminator follows its first line, before any other is found, ends the search.
func (b *block) heredoc(lo, hi int) (s, end int, eof, ok bool) {
	// a heredoc whose scan stops at a diff line inside the part is passed over, unless the
	// part ends before that line: the first heredoc after the part's last diff line is not
	first := b.heredocAt[lo]
	if first == len(b.heredocs) {
		return 0, 0, false, false
	}
	k := b.heredocs[first].deciding
	after := lo // the last diff line before hi, if after lo
	if p := sort.SearchInts(b.plus, hi) - 1; p >= 0 && b.plus[p] > lo {
		after = b.plus[p]
	}
	k = min(k, b.heredocAt[after])
	if k == len(b.heredocs) || b.heredocs[k].line >= hi-1 {
		return 0, 0, false, false // the last line of a part has no body under it
	}
	h := b.heredocs[k]
	if h.stop >= hi {
		return h.line, hi, true, true // the paste ends inside the heredoc
	}
	if h.stop == h.line+1 {
		return 0, 0, false, false
	}
	return h.line, h.stop, false, true
}

// shellError returns the first line in (lo, hi) that is bash's report of an error in a script
// (reShellError) with a bootstrap call (reBootstrapCall) in the lines from lo to it, or hi.
func (b *block) shellError(lo, hi int) int {
	i := b.nextShellError[lo+1]
	if i >= hi {
		return hi
	}
	if b.bootEnd == nil {
		b.indexBootCalls()
	}
	// the call must end on a line before the report
	if e := b.bootEnd[lo]; e >= i {
		if e+1 >= len(b.lines) {
			return hi
		}
		i = b.nextShellError[e+1]
	}
	return min(i, hi)
}

// reBootstrapCallAt is reBootstrapCall at the start of the text only.
var reBootstrapCallAt = regexp.MustCompile(`\A(?:` + reBootstrapCall.String() + `)`)

// indexBootCalls fills bootEnd. A call starts at the start of a line (reBootstrapCall is
// multi-line: "^\s*…"), so it is looked for there; one found in lines lo to i-1 joined
// (withFailedRequest's reading) is one that starts at such a line and ends before line i. A
// blank line starts none of its own: one whose "\s*" runs on from it runs on from the next
// line's start as well.
func (b *block) indexBootCalls() {
	n := len(b.lines)
	text := joinLines(b.lines)
	starts := make([]int, n+1) // byte offset of each line, and of the end
	for i, l := range b.lines {
		starts[i+1] = starts[i] + len(l.text) + 1
	}
	b.bootEnd = make([]int, n+1)
	b.bootEnd[n] = n
	for i := n - 1; i >= 0; i-- {
		b.bootEnd[i] = b.bootEnd[i+1]
		if b.blank[i] {
			continue
		}
		if loc := reBootstrapCallAt.FindIndex(text[starts[i]:]); loc != nil {
			// the line holding the call's last byte
			end := sort.SearchInts(starts, starts[i]+loc[1]) - 1
			b.bootEnd[i] = min(b.bootEnd[i], end)
		}
	}
}

// logStart returns the first line in (lo, hi) that starts a log pasted under a document at lo
// (strongLogLine at column 0, after a line that is no log line), or hi. The part at lo must
// start as a document does (structuredStart) and not as a log.
func (b *block) logStart(lo, hi int) int {
	if logLine(b.lines[lo].text) || !structuredStart(b.lines[lo:hi]) {
		return hi
	}
	if b.nextLogStart == nil {
		n := len(b.lines)
		b.nextLogStart = make([]int, n+1)
		b.nextLogStart[n] = n
		for i := n - 1; i >= 0; i-- {
			b.nextLogStart[i] = b.nextLogStart[i+1]
			t := b.lines[i].text
			if t == "" || t[0] == ' ' || t[0] == '\t' || !strongLogLine(t) {
				continue
			}
			if p := b.prevNonBlank[i]; p >= 0 && !logLine(b.lines[p].text) {
				b.nextLogStart[i] = i
			}
		}
	}
	return min(b.nextLogStart[lo+1], hi)
}

// secondManifest returns the first line in (lo, hi) that starts a second manifest in a part
// that starts as one (apiVersion: or kind: at column 0 on line lo): a paragraph whose first line is apiVersion: or
// kind: at column 0 (reManifestStart) when the same key is at column 0 on a line from lo on. A
// YAML mapping holds a key once (YAML 1.2, 3.2.1.1), so the key again is another document pasted
// with no "---" before it. It returns hi when there is none.
func (b *block) secondManifest(lo, hi int) int {
	if !reManifestStart.MatchString(b.lines[lo].text) {
		return hi
	}
	if b.nextManifest == nil {
		n := len(b.lines)
		b.nextManifest = make([]int, n+1)
		b.nextManifest[n] = n
		for i := n - 1; i >= 0; i-- {
			b.nextManifest[i] = b.nextManifest[i+1]
			if (i == 0 || b.blank[i-1]) && reManifestStart.MatchString(b.lines[i].text) {
				b.nextManifest[i] = i
			}
		}
		for k, key := range []string{"apiVersion:", "kind:"} {
			c := make([]int, n+1)
			for i, l := range b.lines {
				c[i+1] = c[i]
				if strings.HasPrefix(l.text, key) {
					c[i+1]++
				}
			}
			b.manifestKeys[k] = c
		}
	}
	for d := b.nextManifest[lo+1]; d < hi; d = b.nextManifest[d+1] {
		k := 0
		if strings.HasPrefix(b.lines[d].text, "kind:") {
			k = 1
		}
		if c := b.manifestKeys[k]; c[d]-c[lo] > 0 {
			return d
		}
	}
	return hi
}

// paragraphBefore returns the lines [ps, pe) of the paragraph that ends at the last non-blank
// line before line d, when a blank line is between them; pe is 0 when there is none.
func (b *block) paragraphBefore(d int) (int, int) {
	if d == 0 || !b.blank[d-1] {
		return 0, 0
	}
	e := b.prevNonBlank[d]
	if e < 0 {
		return 0, 0
	}
	s := e
	for s > 0 && !b.blank[s-1] {
		s--
	}
	return s, e + 1
}

// separatorWords reports whether a paragraph between two manifests is the poster's words and
// not the end of the first manifest: one or two lines at column 0, each either no YAML at all
// or a key with no value ("nodeadm config on the host:", "then:") — a key whose value is in the
// lines under it would have them indented, and the paragraph has none.
func separatorWords(p []line) bool {
	if len(p) > 2 {
		return false
	}
	for _, l := range p {
		t := l.text
		if t == "" || t[0] == ' ' || t[0] == '\t' || t[0] == '-' || t[0] == '#' {
			return false
		}
		if reYAMLish.MatchString(t) || strings.Contains(t, ": ") {
			if !strings.HasSuffix(strings.TrimSpace(t), ":") {
				return false
			}
		}
	}
	return true
}

// awsTextOutput reports whether command is an `aws` command printing --output text or table
// itself (not into a pipe).
func awsTextOutput(command string) bool {
	if !strings.HasPrefix(command, "aws ") || strings.Contains(command, "|") {
		// piped (`| base64 -d`, `| jq`): what is printed is the pipeline's, not the CLI's
		return false
	}
	f := strings.Fields(command)
	for i, a := range f {
		if a == "--output" && i+1 < len(f) || strings.HasPrefix(a, "--output=") {
			v := strings.TrimPrefix(a, "--output=")
			if a == "--output" {
				v = f[i+1]
			}
			return v == "text" || v == "table"
		}
	}
	return false
}

// logsCommand reports whether command prints log lines (journalctl, systemctl status, tail, cat,
// grep, dmesg, kubectl logs …, after sudo): a paragraph of the poster's sentences under its
// output is theirs, as it is between artefacts without a command; the output of other commands
// (kubectl describe, aws …) may hold sentences of its own.
func logsCommand(command string) bool {
	f := strings.Fields(command)
	for len(f) > 0 && (f[0] == "sudo" || f[0] == "$" || f[0] == "#") {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	switch path.Base(f[0]) {
	case "journalctl", "systemctl", "tail", "head", "cat", "zcat", "less", "grep", "egrep", "zgrep", "dmesg":
		return true
	case "kubectl", "k":
		return len(f) > 1 && f[1] == "logs"
	}
	return false
}

// introSentence finds a paragraph of one or two sentences standing between blank lines with
// other text around it in [lo, hi) — a poster's words introducing what follows ("Here is what I
// see:") — and returns its lines [i, j), or j = 0. A sentence is an introLine; a leading one may
// end the part's first paragraph, others need text before and after them.
func (b *block) introSentence(lo, hi int) (int, int) {
	// the part's first paragraph starts at lo, whatever the line above it
	if j := min(b.nextBlank[lo], hi); j-lo <= 2 && b.nextNonBlank[j] < hi && b.sentences(lo, j) {
		return lo, j
	}
	if b.nextIntro == nil {
		n := len(b.lines)
		b.nextIntro = make([]int, n+1)
		b.nextIntro[n] = n
		for i := n - 1; i >= 0; i-- {
			b.nextIntro[i] = b.nextIntro[i+1]
			if j := b.nextBlank[i]; (i == 0 || b.blank[i-1]) && !b.blank[i] && j-i <= 2 && b.sentences(i, j) {
				b.nextIntro[i] = i
			}
		}
	}
	// a paragraph cut by hi has nothing after it in the part, nor has any after it
	if i := b.nextIntro[lo+1]; i < hi {
		if j := b.nextBlank[i]; j < hi && b.nextNonBlank[j] < hi {
			return i, j
		}
	}
	return 0, 0
}

// sentences reports whether lines [i, j) are each an introLine.
func (b *block) sentences(i, j int) bool {
	for k := i; k < j; k++ {
		if !introLine(b.lines[k].text) {
			return false
		}
	}
	return true
}

// introLine reports whether a line is a sentence of the poster's: it starts with a capital
// letter, has at least four words, ends in '.', ':', '!' or '?', and is neither a log line, a
// "key: value" line, nor a message a component's failure signature knows (an Auto Scaling
// activity's "Launching a new EC2 instance. Status Reason: … Launching EC2 instance failed."
// reads as sentences too).
func introLine(t string) bool {
	t = strings.TrimSpace(t)
	if len(t) < 12 || t[0] < 'A' || t[0] > 'Z' || !strings.ContainsAny(t[len(t)-1:], ".:!?") ||
		len(strings.Fields(t)) < 4 || logLine(t) || reYAMLish.MatchString(t) {
		return false
	}
	return sentences([]byte(t)) && !logscan.KnownMessage([]byte(t))
}
