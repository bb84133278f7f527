// Package logscan matches node log streams against the catalog of known failure signatures
// (Catalog) and records, per signature, how many lines matched and the first and last of them.
//
// It streams: input is read in blocks of BlockSize bytes, one automaton pass over each block
// finds every signature's literal anchor (see multi), and only lines containing an anchor are
// decoded further. Memory is bounded by the block size whatever
// the input size or line length; a line longer than a block is matched in block-sized pieces and
// counted in LongLines. The scanner classifies lines; judging what they mean is left to the
// runtime.* checks.
package logscan

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// BlockSize is the read block in bytes (and so the longest line matched whole).
const BlockSize = 1 << 20

// RecordSep separates the pieces of a record a reader rejoined from several lines (a Terraform
// diagnostic's summary, resource address, configuration line and detail; see
// ingest.records): a pattern may read across it, a fact never runs past it.
const RecordSep = " │ "

// Signature is one known log line shape, loaded from the YAML catalog (catalog/*.yaml, see
// Catalog).
type Signature struct {
	// Name is stable and unique ("kubelet-register-unauthorized").
	Name string `json:"name"`
	// Component names what emits the line (the catalog file: kubelet, nodeadm, karpenter …).
	Component string `json:"component"`
	// Finding is the catalog ID this signature is evidence for; empty for Normal signatures.
	Finding string `json:"finding,omitempty"`
	// Anchor is a literal every matching line contains (case-sensitive, at least MinAnchor bytes).
	Anchor string `json:"anchor"`
	// Pattern, when set, is a Go regular expression that must also match the line; its named
	// groups (FactNames) are the facts the line carries.
	Pattern string `json:"pattern,omitempty"`
	// Exclude lists literals that disqualify a line.
	Exclude []string `json:"exclude,omitempty"`
	// Normal marks healthy progress; Resolves names the findings it shows to be transient.
	Normal   bool     `json:"normal,omitempty"`
	Resolves []string `json:"resolves,omitempty"`
	// SameFact, on a Normal signature, names a fact of its pattern (FactNames) that keys what it
	// resolves: a failure line is resolved only by a later line of the same value ("PullImage X
	// returns image reference" resolves the failed pulls of X, not those of another image).
	SameFact string `json:"sameFact,omitempty"`
	// ConsequenceOf lists findings that, when they fail in the same input, explain this line:
	// it is then reported as their consequence, not as a cause.
	ConsequenceOf []string `json:"consequenceOf,omitempty"`
	// MinCount is how many matching lines make a failure: a line healthy nodes print once (a
	// first attempt that is retried) is a failure only when it repeats. 0 and 1 mean one line.
	MinCount int `json:"minCount,omitempty"`
	// EndsLog makes fewer than MinCount lines a failure when the log ends with them: a line a
	// component repeats while the fault lasts, in a log cut before it could repeat.
	EndsLog bool `json:"endsLog,omitempty"`
	// MinWait, in seconds, marks a line that starts a wait a healthy start also goes through
	// ("Checking for IPAM connectivity"): it is a failure only when the log does not show the
	// wait ending sooner — nothing dated follows it in its stream, or the stream's last dated
	// line is at least MinWait seconds later (see evidence.NodeLogs.WaitedOut).
	MinWait int `json:"minWait,omitempty"`
	// Less names two groups of Pattern holding decimal integers: the line matches only when
	// the first is less than the second (IPAMD's pool stats with fewer addresses assigned than
	// it holds: ["assigned", "total"]). Empty: no comparison.
	Less []string `json:"less,omitempty"`
	// AllValues, with ValuesOf naming a group of Pattern, makes the lines a failure only when,
	// between them, that fact has taken every one of these values: one line means nothing
	// alone. EC2Launch v1 logs "Zero or more than one <X> tag was not provided" for every tag
	// it did not find; it runs nothing only when it found neither <script> nor <powershell>.
	AllValues []string `json:"allValues,omitempty"`
	ValuesOf  string   `json:"valuesOf,omitempty"`
	// RepeatEvery, in seconds, marks a line the component writes again every RepeatEvery
	// seconds for as long as the fault lasts (the kubelet's runtime status loop: "Container
	// runtime network not ready" every 5 s): when the kubelet, or the signature's own component,
	// is seen logging on well after the last such line (evidence.SignatureHit.QuietAfter), the
	// fault is over although no line says so.
	RepeatEvery int `json:"repeatEvery,omitempty"`
	// OnlyOn lists the node OS families (OSFamilies) on which the line shows the fault: on
	// another, or when the input does not show the OS, it is no failure (cloud-init ignoring a
	// NodeConfig part is harmless on AL2023, whose nodeadm reads it, and the cause on AL2 or
	// Ubuntu, which have no nodeadm). Empty: every OS.
	OnlyOn []string `json:"onlyOn,omitempty"`
	// Milestone marks a step of the join sequence the line shows (Milestones): the node's
	// timeline is built from them, and "registered" / "ready" show that the node joined.
	Milestone string `json:"milestone,omitempty"`
	// Symptom marks a failure line that only says nodes did not join ("Instances failed to join
	// the kubernetes cluster", a tool timing out waiting for nodes, a NodeClaim never
	// registered), not why: a run whose only failures are symptoms is inconclusive
	// (checks.Finding.Symptom).
	Symptom bool `json:"symptom,omitempty"`
	// Meaning is one sentence shown with the evidence.
	Meaning string `json:"meaning"`
	// Source is the URL of the code that emits the message or of a public report showing it.
	Source string `json:"source,omitempty"`
	// Examples are lines the signature must match and near-misses it must not.
	Examples Examples `json:"-"`
}

type compiled struct {
	Signature
	anchor  []byte
	exclude [][]byte
	// the pattern is compiled when a line first holds the anchor: most signatures never
	// match a given input, and compiling hundreds of patterns would dominate start-up
	lazy *lazyRE
}

// lazyRE is a pattern compiled on first use, shared by the scanners of one catalog.
type lazyRE struct {
	once   sync.Once
	src    string
	re     *regexp.Regexp
	groups []string // named groups by submatch index ("" for unnamed)
	// pre rejects most lines the pattern cannot match without running it (see prefilter)
	pre prefilter
}

func (l *lazyRE) get() *regexp.Regexp {
	if l == nil {
		return nil
	}
	l.once.Do(func() {
		// patterns are checked to compile by LoadCatalog (the catalog tests); a bad one here
		// matches nothing rather than crashing a scan
		if re, err := regexp.Compile(l.src); err == nil {
			l.re, l.groups, l.pre = re, re.SubexpNames(), newPrefilter(l.src)
		} else {
			l.re = regexp.MustCompile(`$^`)
		}
	})
	return l.re
}

// compile prepares sg for matching; with check it compiles the pattern now and returns its error.
func compile(sg Signature, check bool) (compiled, error) {
	c := compiled{Signature: sg, anchor: []byte(sg.Anchor)}
	for _, x := range sg.Exclude {
		c.exclude = append(c.exclude, []byte(x))
	}
	if sg.Pattern != "" {
		c.lazy = &lazyRE{src: sg.Pattern}
		if check {
			if _, err := regexp.Compile(sg.Pattern); err != nil {
				return c, fmt.Errorf("pattern: %v", err)
			}
		}
	}
	return c, nil
}

// matches reports whether line is matched by the signature (anchor, exclusions, pattern).
func (c *compiled) matches(line []byte) bool {
	return bytes.Contains(line, c.anchor) && c.accept(line)
}

// Scanner scans streams into one evidence.NodeLogs. A Scanner is not safe for concurrent use.
type Scanner struct {
	sigs []compiled
	// presence[i] is the component of anchor len(sigs)+i of mt (a presence literal); "" for the
	// marks of the kubelet's JSON logging (epochTSMarks), which start at presence index jsonMark.
	presence []string
	jsonMark int
	mt       *multi
	hits     []*evidence.SignatureHit
	// Ref is the reference time used to give year-less journal timestamps a year (the
	// bundle's collection time); zero means the current year is not guessed and such lines
	// carry no time.
	Ref time.Time
	// tail holds the last lines of the block last matched (blockTail), for the stream's
	// LastTime.
	tail []byte
	// CSVQuoted, when set before Scan, undoes CSV quote doubling ("" → ") before matching, for
	// event logs exported as CSV (the Windows collector's kubelet-service.csv).
	CSVQuoted bool
	// Block is the read block in bytes, and so the longest line matched as one piece
	// (default BlockSize); set it before the first Scan.
	Block int
	logs  evidence.NodeLogs
	seq   int64 // lines read before the current stream
	base  int64
	// bufs holds the readAhead buffers of Block bytes blocks are read into (see readBlocks)
	bufs chan []byte
	// lastStart is match's per-signature line memory (see match)
	lastStart []int
	// takenSeq and taken are record's per-line memory: the line (LogLine.Seq, plus one; 0 for
	// none yet) and, per finding, the first signature recorded on it
	takenSeq int64
	taken    map[string]string
	lanes    scratch
	// presenceSeen counts the occurrences of each presence literal in the current stream
	presenceSeen []int64
	// sawDecember and sawJanuary say which ends of a year the year-less lines scanned so far
	// fell in (acrossNewYear)
	sawDecember, sawJanuary bool
	// patternRuns counts the signature patterns run over lines (matching, and extracting facts
	// from, a line), so tests can hold the scan to one run per signature and line
	patternRuns int64
}

// New compiles sigs (normally Catalog()) and the presence literals of comps. It returns an
// error naming the first signature whose Pattern does not compile or whose Anchor is empty.
func New(sigs []Signature, comps []Component) (*Scanner, error) {
	s := &Scanner{}
	for _, sg := range sigs {
		if sg.Anchor == "" {
			return nil, fmt.Errorf("signature %s: empty anchor", sg.Name)
		}
		c, err := compile(sg, false)
		if err != nil {
			return nil, fmt.Errorf("signature %s: %v", sg.Name, err)
		}
		s.sigs = append(s.sigs, c)
	}
	anchors := make([][]byte, 0, len(s.sigs))
	for i := range s.sigs {
		anchors = append(anchors, s.sigs[i].anchor)
	}
	for _, c := range comps {
		for _, p := range c.Presence {
			anchors = append(anchors, []byte(p))
			s.presence = append(s.presence, c.Name)
		}
	}
	// the kubelet's JSON logging is told by its epoch time, tallied in the same pass as the
	// presence literals (a component named "": no component's lines)
	s.jsonMark = len(s.presence)
	for _, m := range epochTSMarks {
		anchors = append(anchors, m)
		s.presence = append(s.presence, "")
	}
	s.mt = newMulti(anchors, len(s.sigs))
	s.hits = make([]*evidence.SignatureHit, len(s.sigs))
	return s, nil
}

var (
	defaultOnce     sync.Once
	defaultSigs     []compiled
	defaultPresence []string
	defaultJSONMark int
	defaultMT       *multi
	defaultErr      error
)

// MustDefault returns a new Scanner over Catalog() (compiled once per process); the catalog is
// tested to compile, so a failure is a programming error and panics.
func MustDefault() *Scanner {
	defaultOnce.Do(compileDefault)
	if defaultErr != nil {
		panic(defaultErr)
	}
	return &Scanner{sigs: defaultSigs, mt: defaultMT, presence: defaultPresence, jsonMark: defaultJSONMark, hits: make([]*evidence.SignatureHit, len(defaultSigs))}
}

// compileDefault compiles the catalog into the default scanner's tables (about 15 ms:
// BenchmarkNewScanner).
func compileDefault() {
	defer func() {
		if r := recover(); r != nil { // Catalog panics on a broken embedded catalog
			defaultErr = fmt.Errorf("%v", r)
		}
	}()
	var s *Scanner
	s, defaultErr = New(Catalog(), Components())
	if s != nil {
		defaultSigs, defaultMT, defaultPresence, defaultJSONMark = s.sigs, s.mt, s.presence, s.jsonMark
	}
}

// Warm starts compiling the default scanner on another goroutine and returns at once, so the
// compilation overlaps with opening and decompressing the input; MustDefault waits for it. A
// catalog that does not compile is reported by MustDefault, not here.
func Warm() {
	go defaultOnce.Do(compileDefault)
}

// Scan reads r to its end as the log stream at path (kind stream, see evidence.LogStream) and
// records matches. It returns the read error, if any, after recording what was read before it.
func (s *Scanner) Scan(r io.Reader, path, stream string) error {
	return s.ScanFrom(r, path, stream, 1)
}

// ScanFrom is Scan for a stream whose first line is line firstLine of path (one part of a
// pasted text): recorded line numbers are those of path.
//
// A goroutine reads r ahead while the blocks already read are matched (see readBlocks), so
// reading a compressed stream (its decompression) and matching overlap on two cores; r is
// only read by that goroutine and never after ScanFrom returns.
func (s *Scanner) ScanFrom(r io.Reader, path, stream string, firstLine int64) error {
	if s.bufs == nil {
		if s.Block < 4096 {
			s.Block = BlockSize
		}
		s.bufs = make(chan []byte, readAhead)
		for i := 0; i < readAhead; i++ {
			s.bufs <- make([]byte, s.Block)
		}
	}
	st := evidence.LogStream{Path: path, Stream: stream, FirstLine: max(firstLine, 1)}
	if len(s.presenceSeen) != len(s.presence) {
		s.presenceSeen = make([]int64, len(s.presence))
	}
	clear(s.presenceSeen)
	s.base = s.seq
	line := max(firstLine, 1) // line number of the first byte of the next block
	blocks := make(chan block, readAhead-1)
	var rerr error
	go func() {
		defer close(blocks)
		rerr = readBlocks(r, s.bufs, s.CSVQuoted, blocks)
	}()
	for b := range blocks {
		// the automaton's pass over a block is split between two goroutines only when the
		// matching is the slower side of the pipeline (a block read and waiting: the reader is
		// ahead); while the matcher waits for the reader, as it does for a compressed input
		// (inflate costs about what the pass does), the second core is the reader's, and a pass
		// taking it too only delays the next block (and pays a fork and join per block)
		s.lanes.alone = len(blocks) == 0
		st.Bytes += b.read
		if b.long {
			st.LongLines++
		}
		s.match(b.text, path, line, &st)
		s.tail = append(s.tail[:0], blockTail(b.text)...)
		line += b.newlines
		st.Lines += b.lines
		s.bufs <- b.buf
	}
	// a component's lines are about as many as the occurrences of its most frequent marker (its
	// journal identifier is on each of them): the tallies of its markers and its signature
	// matches are not added up, since several of them fall on one line ("kubelet[" and
	// "kubelet_node_status.go"); tallied, not counted line by line, to keep the scan fast
	for i, n := range s.presenceSeen {
		if n > 0 && s.presence[i] != "" {
			if st.Components == nil {
				st.Components = map[string]int64{}
			}
			st.Components[s.presence[i]] = max(st.Components[s.presence[i]], n)
		}
	}
	st.LastTime = lastTime(s.tail, s.Ref)
	if st.LastTime.IsZero() {
		st.LastClock = lastClock(s.tail)
	}
	s.seq += st.Lines + 1
	st.LastLine = max(st.FirstLine+st.Lines-1, st.FirstLine)
	s.logs.Streams = append(s.logs.Streams, st)
	return rerr
}

// lastTimeLines is how many of a block's last lines lastTime looks at for a timestamp, and
// timeHead how many of the first bytes of each.
const (
	lastTimeLines = 8
	timeHead      = 256
)

// blockTail returns the last lastTimeLines lines of block that lie within its last
// lastTimeLines×timeHead bytes (whole lines only).
func blockTail(block []byte) []byte {
	win := block
	if limit := len(block) - lastTimeLines*timeHead; limit > 0 {
		win = block[limit:]
		nl := bytes.IndexByte(win, '\n')
		if nl < 0 {
			return nil // inside one long line
		}
		win = win[nl+1:]
	}
	rest, start := bytes.TrimRight(win, "\n"), 0
	for n := 0; n < lastTimeLines && len(rest) > 0; n++ {
		start = bytes.LastIndexByte(rest, '\n') + 1
		rest = bytes.TrimRight(rest[:start], "\n")
	}
	return win[start:]
}

// lastTime returns the timestamp of the last dated line among block's last lastTimeLines
// lines, or the zero time. A year-less line (journal, klog) takes its year from the nearest
// earlier line among them that carries a full date, else from ref (zero in a paste: undated).
func lastTime(block []byte, ref time.Time) time.Time {
	var tail []string // newest first
	rest := bytes.TrimRight(block, "\n")
	for n := 0; n < lastTimeLines && len(rest) > 0; n++ {
		start := bytes.LastIndexByte(rest, '\n') + 1
		// a timestamp is at the start of a record (the VPC CNI's "ts" within its first
		// fields): the head of a line is enough, and a block that is one long line costs
		// no more than a short one
		tail = append(tail, string(rest[start:min(len(rest), start+timeHead)]))
		rest = bytes.TrimRight(rest[:start], "\n")
	}
	for i, l := range tail {
		if t := ParseTime(l, time.Time{}); !t.IsZero() {
			return t // a full date
		}
		for _, e := range tail[i+1:] {
			if dated := ParseTime(e, time.Time{}); !dated.IsZero() {
				if t := ParseTime(l, dated); !t.IsZero() {
					return t
				}
				break
			}
		}
		if t := ParseTime(l, ref); !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// lastClock is lastTime for a block whose lines have year-less timestamps and nothing gave them
// a year: the year-less clock (evidence.LogLine.Clock) of the newest of its last lines that has
// one, or 0.
func lastClock(block []byte) int64 {
	rest := bytes.TrimRight(block, "\n")
	for n := 0; n < lastTimeLines && len(rest) > 0; n++ {
		start := bytes.LastIndexByte(rest, '\n') + 1
		if _, c := parseTime(string(rest[start:min(len(rest), start+timeHead)]), time.Time{}); c != 0 {
			return c
		}
		rest = bytes.TrimRight(rest[:start], "\n")
	}
	return 0
}

func (s *Scanner) match(block []byte, path string, firstLine int64, st *evidence.LogStream) {
	if len(block) < laneMin || s.mt.newlineInAnchor || len(s.presenceSeen) != len(s.presence) {
		// a small block is looked through for the kubelet's JSON records directly
		s.matchBlock(textForms(block), path, firstLine, st, false)
		return
	}
	// a large one is matched as it is unless the automaton's pass tallied an epoch "ts" (the
	// tallies are complete before the first occurrence is replayed): then its records are
	// rewritten to their text form and the block matched again, its presence tallies as before
	saved := slices.Clone(s.presenceSeen)
	if s.matchBlock(block, path, firstLine, st, true) {
		copy(s.presenceSeen, saved)
		s.matchBlock(textForms(block), path, firstLine, st, false)
	}
}

// jsonMarks returns how many epoch "ts" marks the current stream's tallies hold.
func (s *Scanner) jsonMarks() int64 {
	var n int64
	for _, c := range s.presenceSeen[s.jsonMark:] {
		n += c
	}
	return n
}

// matchBlock matches block (see match). With watch set it stops at its first occurrence, before
// recording anything, when the block holds the kubelet's JSON records (an epoch "ts" tallied),
// and reports so.
func (s *Scanner) matchBlock(block []byte, path string, firstLine int64, st *evidence.LogStream, watch bool) (kubeletJSON bool) {
	before := s.jsonMarks()
	decided := !watch
	lineNo, counted := firstLine, 0
	nsig := len(s.sigs)
	// lastStart[i] is the start of the last line of this block signature i was tried on: the
	// matcher reports occurrences by end offset, so one signature's two occurrences on a line
	// may have another signature's between them. A line is tried once per signature whatever
	// the result — it matches or not, its pattern says the same the next time — so a long line
	// repeating an anchor costs one pattern run, not one per occurrence (each a pass over the
	// whole line: quadratic).
	if len(s.lastStart) != nsig {
		s.lastStart = make([]int, nsig)
	}
	for i := range s.lastStart {
		s.lastStart[i] = -1
	}
	// [start, end) is the line of the last occurrence (end: its newline, or the block's end);
	// occurrences come line by line, so each line's ends are searched for once, not per
	// occurrence
	start, end := 0, -1
	// ll is the record of the line starting at llStart, shared by the signatures matching it
	var ll evidence.LogLine
	llStart := -1
	// countedStart and countedComp are the line and component last counted in st.Components
	countedStart, countedComp := -1, ""
	// presence literals (anchors from nsig on) are tallied in presenceSeen: one may occur on
	// every line, so they are counted in a slice, folded into the map per stream
	s.mt.each(block, &s.lanes, s.presenceSeen, func(i, at int) {
		if !decided {
			decided, kubeletJSON = true, s.jsonMarks() > before
		}
		if kubeletJSON {
			return
		}
		if at < start || at > end {
			start = bytes.LastIndexByte(block[:at], '\n') + 1
			end = bytes.IndexByte(block[at:], '\n')
			if end < 0 {
				end = len(block)
			} else {
				end += at
			}
		}
		if s.lastStart[i] == start {
			return // the same signature twice on one line is tried, and counts, once
		}
		s.lastStart[i] = start
		ln := block[start:end]
		ok, sub := s.accept(i, ln)
		if !ok {
			return
		}
		sg := &s.sigs[i]
		if start > counted {
			lineNo += int64(bytes.Count(block[counted:start], []byte{'\n'}))
			counted = start
		}
		if st.Components == nil {
			st.Components = map[string]int64{}
		}
		if (!sg.Normal || len(sg.Resolves) > 0) && (countedStart != start || countedComp != sg.Component) {
			// a milestone-only line (the kernel banner) shows no more than that the component
			// started: it does not make the component's failure lines absent; a line several
			// of the component's signatures match counts once
			st.Components[sg.Component]++
			countedStart, countedComp = start, sg.Component
		}
		if llStart != start {
			ll, llStart = s.logLine(ln, path, lineNo), start
		}
		s.record(i, ll, ln, sub)
	})
	return kubeletJSON || !decided && s.jsonMarks() > before
}

// accept reports whether ln, a line holding signature i's anchor, is matched by the signature
// (c.accept), running its pattern once (counted in patternRuns): as a plain match when there
// are no facts to take, else as a submatch whose positions, returned, record takes the facts
// from.
func (s *Scanner) accept(i int, ln []byte) (bool, []int) {
	c := &s.sigs[i]
	if c.excluded(ln) {
		return false, nil
	}
	re := c.lazy.get()
	if re == nil {
		return true, nil
	}
	if !c.lazy.pre.mayMatch(ln) {
		return false, nil
	}
	s.patternRuns++
	if len(c.Less) == 2 {
		sub := re.FindSubmatchIndex(ln)
		if !c.lessHolds(ln, sub) {
			return false, nil
		}
		if !s.wantFacts(i) {
			return true, nil
		}
		return true, sub
	}
	if !s.wantFacts(i) {
		return re.Match(ln), nil
	}
	sub := re.FindSubmatchIndex(ln)
	return sub != nil, sub
}

// wantFacts reports whether a line signature i matches may still add a fact: its pattern has
// a named group whose values are fewer than maxFactValues, or one not yet known to have more
// (read on until a value past the cap shows, so that FactsCapped says so).
func (s *Scanner) wantFacts(i int) bool {
	h := s.hits[i]
	for _, name := range s.sigs[i].lazy.groups {
		if name != "" && (h == nil || len(h.Facts[name]) < maxFactValues || !slices.Contains(h.FactsCapped, name)) {
			return true
		}
	}
	return false
}

// excluded reports whether ln holds one of the signature's Exclude literals.
func (c *compiled) excluded(ln []byte) bool {
	for _, x := range c.exclude {
		if bytes.Contains(ln, x) {
			return true
		}
	}
	return false
}

// accept reports whether ln, a line holding the anchor, is matched by the signature: no
// Exclude literal and the Pattern, if any, matches.
func (c *compiled) accept(ln []byte) bool {
	if c.excluded(ln) {
		return false
	}
	re := c.lazy.get()
	if re == nil {
		return true
	}
	if !c.lazy.pre.mayMatch(ln) {
		return false
	}
	if len(c.Less) == 2 {
		return c.lessHolds(ln, re.FindSubmatchIndex(ln))
	}
	return re.Match(ln)
}

// lessHolds reports whether sub, the submatch positions of c's pattern in ln (nil: no match),
// has its Less groups holding integers the first of which is less than the second. A group that
// did not take part or is no integer fails the comparison.
func (c *compiled) lessHolds(ln []byte, sub []int) bool {
	if sub == nil {
		return false
	}
	var v [2]int64
	for k, name := range c.Less {
		// the group of that name that took part (a name may head each alternative)
		found := false
		for gi, g := range c.lazy.groups {
			if g != name || 2*gi+1 >= len(sub) || sub[2*gi] < 0 {
				continue
			}
			n, err := strconv.ParseInt(string(ln[sub[2*gi]:sub[2*gi+1]]), 10, 64)
			if err != nil {
				return false
			}
			v[k], found = n, true
			break
		}
		if !found {
			return false
		}
	}
	return v[0] < v[1]
}

// recordSep is RecordSep as bytes.
var recordSep = []byte(RecordSep)

// maxFactValues bounds the distinct values kept per fact of one signature.
const maxFactValues = 8

// logLine returns the record of line ln, number lineNo of path: its first 400 bytes and its time.
func (s *Scanner) logLine(ln []byte, path string, lineNo int64) evidence.LogLine {
	text := strings.ToValidUTF8(string(ln[:min(len(ln), 400)]), "\uFFFD")
	text = strings.TrimRight(text, "\r")
	l := evidence.LogLine{Path: path, Line: lineNo, Text: text, Seq: s.base + lineNo}
	l.Time, l.Clock = parseTime(text, s.Ref)
	if s.CSVQuoted {
		l.Text = csvFirstField(text)
	}
	if l.Clock != 0 {
		l.Clock = s.acrossNewYear(l.Clock)
	}
	if l.Time.IsZero() && l.Clock == 0 && len(ln) > len(text) {
		// a copied console row carries its time in a column after the long message
		l.Time = ParseTime(string(ln), s.Ref)
	}
	return l
}

// record counts line l (ln its text) as matched by signature i; sub, when not nil, holds the
// positions in ln of the pattern's submatches, the facts.
func (s *Scanner) record(i int, l evidence.LogLine, ln []byte, sub []int) {
	h := s.hits[i]
	sg := &s.sigs[i]
	if h == nil {
		h = &evidence.SignatureHit{Signature: sg.Name, Component: sg.Component, Finding: sg.Finding, Normal: sg.Normal,
			Resolves: sg.Resolves, SameFact: sg.SameFact, ConsequenceOf: sg.ConsequenceOf, MinCount: int64(sg.MinCount), AllValues: sg.AllValues, ValuesOf: sg.ValuesOf, EndsLog: sg.EndsLog, MinWait: time.Duration(sg.MinWait) * time.Second, RepeatEvery: time.Duration(sg.RepeatEvery) * time.Second, Milestone: sg.Milestone, Symptom: sg.Symptom, OnlyOn: sg.OnlyOn, Meaning: sg.Meaning, First: l}
		s.hits[i] = h
	}
	h.Count++
	if sg.Finding != "" && !sg.Normal {
		// a line several signatures of one finding match is one line of that finding: the
		// later signatures note whose line it already was (SignatureHit.SharedWith)
		if s.takenSeq != l.Seq+1 || s.taken == nil {
			s.takenSeq, s.taken = l.Seq+1, map[string]string{}
		}
		if first, ok := s.taken[sg.Finding]; ok && first != sg.Name {
			if h.SharedWith == nil {
				h.SharedWith = map[string]int64{}
			}
			h.SharedWith[first]++
		} else {
			s.taken[sg.Finding] = sg.Name
		}
	}
	if later(h.First, l) {
		h.First = l
	}
	// an undated line cannot be placed after a dated one of the same signature: a retelling
	// of the message in a poster's prose, a copy without the log's header; the last dated line
	// stays the hit's last, so what resolves the failure is judged by the log's own times
	if h.Count == 1 || (later(l, h.Last) && (!l.Time.IsZero() || h.Last.Time.IsZero())) {
		h.Last = l
	}
	if sub == nil {
		return
	}
	for gi, name := range sg.lazy.groups {
		if name == "" || 2*gi+1 >= len(sub) || sub[2*gi] < 0 || sub[2*gi] == sub[2*gi+1] {
			continue
		}
		raw := ln[sub[2*gi]:sub[2*gi+1]]
		if k := bytes.Index(raw, recordSep); k >= 0 {
			raw = raw[:k] // a fact of one piece of a rejoined record ends with it
		}
		if len(raw) == 0 {
			continue
		}
		v := strings.ToValidUTF8(string(raw[:min(len(raw), 200)]), "\uFFFD")
		if name == "image" {
			v = registryImage(v)
		}
		addFact(h, name, v, l)
	}
}

// registryImage returns the image an image fact names: a registry API path (OCI distribution
// spec, /v2/<name>/manifests/<reference>, which containerd 2.x quotes in "unexpected status from
// HEAD request to https://…/v2/eks/pause/manifests/3.10") as <name>:<reference>, or
// <name>@<digest> for a digest; a trailing colon (the error's own punctuation) is dropped.
func registryImage(v string) string {
	v = strings.TrimRight(v, ":")
	if name, ref, ok := strings.Cut(v, "/manifests/"); ok && name != "" && ref != "" {
		if strings.Contains(ref, ":") {
			return name + "@" + ref
		}
		return name + ":" + ref
	}
	return v
}

// addFact records value v of fact name, seen on line l, in h: a new value is appended (up to
// maxFactValues), and the value's last line (FactLast) is kept by the lines' order in time.
func addFact(h *evidence.SignatureHit, name, v string, l evidence.LogLine) {
	if h.Facts == nil {
		h.Facts = map[string][]string{}
		h.FactLast = map[string][]evidence.LogLine{}
	}
	vals := h.Facts[name]
	for i, x := range vals {
		if x == v {
			if last := h.FactLast[name][i]; later(l, last) && (!l.Time.IsZero() || last.Time.IsZero()) {
				h.FactLast[name][i] = l
			}
			return
		}
	}
	if len(vals) >= maxFactValues {
		// a value past the cap: the kept values are a sample, and the report must say so
		if !slices.Contains(h.FactsCapped, name) {
			h.FactsCapped = append(h.FactsCapped, name)
			slices.Sort(h.FactsCapped)
		}
		return
	}
	h.Facts[name] = append(vals, v)
	h.FactLast[name] = append(h.FactLast[name], l)
}

// later reports whether a happened after b: by timestamps when both have one, else by read order.
func later(a, b evidence.LogLine) bool {
	if !a.Time.IsZero() && !b.Time.IsZero() && !a.Time.Equal(b.Time) {
		return a.Time.After(b.Time)
	}
	if a.Time.IsZero() && b.Time.IsZero() && a.Clock != 0 && b.Clock != 0 && a.Clock != b.Clock {
		return a.Clock > b.Clock
	}
	return a.Seq > b.Seq
}

// Gap returns how long after line b line a happened, by their timestamps when both have one or
// their year-less clock times when neither has a year (LogLine.Clock); ok is false when their
// times cannot be compared.
func Gap(a, b evidence.LogLine) (d time.Duration, ok bool) {
	return gapAt(a.Time, a.Clock, b)
}

// gapAt is Gap for a time given as a timestamp t or, with t zero, a year-less clock.
func gapAt(t time.Time, clock int64, b evidence.LogLine) (time.Duration, bool) {
	switch {
	case !t.IsZero() && !b.Time.IsZero():
		return t.Sub(b.Time), true
	case t.IsZero() && b.Time.IsZero() && clock != 0 && b.Clock != 0:
		return time.Duration(clock - b.Clock), true
	}
	return 0, false
}

// StreamGap returns how long after line b the stream st's last dated line is (see Gap).
func StreamGap(st evidence.LogStream, b evidence.LogLine) (time.Duration, bool) {
	return gapAt(st.LastTime, st.LastClock, b)
}

// Later reports whether line a happened after line b (timestamps when both have one, their
// year-less clock times when neither has a year (LogLine.Clock), else the order they were read
// in).
func Later(a, b evidence.LogLine) bool { return later(a, b) }

// Result returns what was scanned so far, with hits in catalog order. origin names the input kind.
func (s *Scanner) Result(origin string) *evidence.NodeLogs {
	out := s.logs
	out.Origin = origin
	out.Hits = nil
	for _, h := range s.hits {
		if h != nil {
			out.Hits = append(out.Hits, *h)
		}
	}
	return &out
}

// readAhead is how many blocks a Scanner's buffers hold: one being matched, one being read,
// one read and waiting.
const readAhead = 3

// block is one part of a stream cut at a line end (or, for a line longer than a buffer, at the
// buffer's end), ready to be matched.
type block struct {
	buf  []byte // the buffer it was read into, returned to the pool once matched
	text []byte // the bytes to match: the buffer up to the cut (CSV quotes undone if asked)
	// read counts the bytes read into buf for this block (those carried over from the
	// previous block excluded); newlines those in text; lines the lines text ends (newlines,
	// plus one for a last line without a newline at the end of the stream)
	read, newlines, lines int64
	// long marks the first piece of a line longer than a buffer
	long bool
}

// readBlocks reads r to its end into buffers taken from bufs, sending each block cut at its
// last line end to out; the bytes after the cut are carried to the front of the next buffer.
// It returns the read error other than io.EOF, after sending what was read before it. The
// receiver returns each block's buffer to bufs once done with it.
func readBlocks(r io.Reader, bufs chan []byte, csvQuoted bool, out chan<- block) error {
	buf := <-bufs
	carry := 0      // bytes at the start of buf carried over from the previous block
	inLong := false // buf starts in the middle of an over-long line
	for {
		n, err := fill(r, buf[carry:])
		end := carry + n
		eof := err == io.EOF
		var rerr error
		if err != nil && !eof {
			rerr = err
		}
		if end == 0 {
			bufs <- buf
			return rerr
		}
		last := eof || rerr != nil
		b := block{buf: buf, read: int64(n)}
		cut := bytes.LastIndexByte(buf[:end], '\n') + 1
		if last {
			cut = end
		} else if cut == 0 { // a line longer than the buffer: match this piece alone
			cut = end
			b.long = !inLong
		}
		b.text = buf[:cut]
		b.newlines = int64(bytes.Count(b.text, []byte{'\n'}))
		b.lines = b.newlines
		if eof && buf[end-1] != '\n' {
			b.lines++
		}
		if csvQuoted {
			b.text = bytes.ReplaceAll(b.text, []byte(`""`), []byte(`"`))
		}
		if bytes.IndexByte(b.text, 0x1b) >= 0 {
			// a log written through a terminal library keeps its colours ("\x1b[31mError"), and
			// JSON records behind a colour code are no longer JSON to a reader
			b.text = EscapeSequence.ReplaceAll(b.text, nil)
		}
		inLong = buf[cut-1] != '\n'
		out <- b
		if last {
			return rerr
		}
		// the block's buffer is only read from here on (by the receiver too), so its tail can
		// be copied while it is matched
		next := <-bufs
		carry = copy(next, buf[cut:end])
		buf = next
	}
}

// EscapeSequence matches a terminal escape sequence (ECMA-48): a control sequence (ESC [
// parameters intermediates final byte: colours, cursor moves), an operating-system command
// (ESC ] … BEL or ESC \, a hyperlink or window title; never across a line end), or another
// escape (ESC, intermediates, final byte: a character set "ESC ( B", a two-byte escape). Removing
// every match from a line leaves the text a terminal shows.
var EscapeSequence = regexp.MustCompile(`\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)|[ -/]*[0-~])`)

// fill reads into buf until it is full or r ends. Unlike io.ReadFull it returns io.EOF for a
// clean end however many bytes were read, so a truncated stream's own io.ErrUnexpectedEOF
// (a gzip member cut short) is returned as the error it is, never taken for the end.
func fill(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
		if m == 0 {
			// a reader returning 0, nil repeatedly: retry a bounded number of times
			for k := 0; k < 100 && m == 0 && err == nil; k++ {
				m, err = r.Read(buf[n:])
			}
			n += m
			if err != nil {
				return n, err
			}
			if m == 0 {
				return n, io.ErrNoProgress
			}
		}
	}
	return n, nil
}

// yearNanos is the length of the unnamed year clocks are counted in (year 0, a leap year: 366
// days), in nanoseconds: the step acrossNewYear moves a clock by.
const yearNanos = int64(366 * 24 * time.Hour)

// acrossNewYear places a year-less clock (LogLine.Clock) of a log crossing New Year: once the
// scanner has seen lines of December and of January, January's come a year after December's,
// whichever order the log is in (in time order, or newest first).
func (s *Scanner) acrossNewYear(clock int64) int64 {
	switch time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(clock - 1)).Month() {
	case time.December:
		s.sawDecember = true
		if s.sawJanuary {
			return clock - yearNanos
		}
	case time.January:
		s.sawJanuary = true
		if s.sawDecember {
			return clock + yearNanos
		}
	}
	return clock
}

// knowers are default Scanners kept for Knows between calls (a Scanner is not safe for
// concurrent use; each holds a slot per signature).
var knowers = sync.Pool{New: func() any { return MustDefault() }}

// KnownMessage reports whether a failure signature of the default catalog matches line (see
// Scanner.Knows); safe for concurrent use.
func KnownMessage(line []byte) bool {
	s := knowers.Get().(*Scanner)
	defer knowers.Put(s)
	return s.Knows(line)
}

// Knows reports whether a failure signature of the scanner's catalog (not a normal one)
// matches line, one line without its newline: a component's message, which a poster's sentence
// does not become by reading like one. It records nothing and may be called between scans.
func (s *Scanner) Knows(line []byte) bool {
	if len(s.presence) > 0 && len(s.presenceSeen) != len(s.presence) {
		s.presenceSeen = make([]int64, len(s.presence))
	}
	found := false
	line = TextForm(line)
	s.mt.each(line, nil, s.presenceSeen, func(i, _ int) {
		if !found && !s.sigs[i].Normal {
			found, _ = s.accept(i, line)
		}
	})
	clear(s.presenceSeen)
	return found
}

// csvFirstField returns the first field of a CSV record whose quotes were already undoubled
// (Scanner.CSVQuoted): a Windows event exported by Get-WinEvent | Export-Csv starts with its
// Message field, and the rest of the record (Id, Version, …, TimeCreated, the EventBookmark
// type name) is no part of what the component logged. The field ends at the first `",` followed
// by a quote, a comma (an empty field) or the end of the line; a line that does not start with
// a quote, or has no such end, is returned whole.
func csvFirstField(text string) string {
	if !strings.HasPrefix(text, `"`) {
		return text
	}
	rest := text[1:]
	for i := 0; i+1 < len(rest); i++ {
		if rest[i] != '"' || rest[i+1] != ',' {
			continue
		}
		if i+2 == len(rest) || rest[i+2] == '"' || rest[i+2] == ',' {
			return rest[:i]
		}
	}
	return text
}
