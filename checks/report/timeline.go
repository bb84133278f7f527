package report

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
	"github.com/fatih/color"
)

// Timeline is the node's join sequence as its own logs tell it (a bundle, the console output,
// a paste): each milestone (logscan.Milestones) with the time of the first line showing it, the
// failure lines with their counts, and where the sequence stopped.
type Timeline struct {
	// Source names the logs read (a bundle, console output, a paste).
	Source string `json:"source"`
	// Milestones are every step of the join sequence in order, reached or not.
	Milestones []Milestone `json:"milestones"`
	// Failures are the failure signatures that matched, earliest first.
	Failures []TimelineFailure `json:"failures"`
	// Complete is true when the logs show the Node Ready.
	Complete bool `json:"complete"`
	// StoppedAfter is the last milestone reached when the node did not become Ready ("" when it
	// did, or when no milestone line was seen).
	StoppedAfter string `json:"stoppedAfter,omitempty"`
	// others are the nodes whose milestone lines were left out: another node's progress, pasted
	// beside the failing node's lines (said in the text only).
	others []string
}

// otherNodesMilestones returns, by index in logs.Hits, the node of each milestone line that is
// another node's than the failing lines' ("" for the rest): when every failing line (status
// fail) names its node (node facts), a milestone whose lines name only other nodes is that
// other node's progress (two nodes' logs pasted together, red team round 7, finding 9), and so
// is one naming no node whose journal host is such another node. Nil when a failing line names
// no node, or none fails.
func otherNodesMilestones(logs *evidence.NodeLogs, status map[string]checks.Status) map[int]string {
	var failing []string
	for _, h := range logs.Hits {
		if h.Normal || h.Finding == "" || status[h.Finding] != checks.StatusFail || !logs.Failing(h) {
			continue
		}
		if len(h.Facts["node"]) == 0 {
			return nil
		}
		failing = append(failing, h.Facts["node"]...)
	}
	if len(failing) == 0 {
		return nil
	}
	isFailing := func(n string) bool {
		return slices.ContainsFunc(failing, func(f string) bool { return firstLabel(f) == firstLabel(n) })
	}
	out := map[int]string{}
	var named []string
	for i, h := range logs.Hits {
		nodes := h.Facts["node"]
		if milestoneOf(h) == "" || len(nodes) == 0 || slices.ContainsFunc(nodes, isFailing) {
			continue
		}
		out[i] = nodes[0]
		named = append(named, nodes...)
	}
	for i, h := range logs.Hits {
		if milestoneOf(h) == "" || len(h.Facts["node"]) > 0 {
			continue
		}
		for _, n := range named {
			if firstLabel(checks.JournalHost(h.First.Text)) == firstLabel(n) && firstLabel(checks.JournalHost(h.Last.Text)) == firstLabel(n) {
				out[i] = n
				break
			}
		}
	}
	return out
}

// registerFailed is the kubelet's message when its call to create its Node fails, whatever the
// error ("Unable to register node with API server", and "Unable to register node %q with API
// server" before klog's structured form; kubernetes pkg/kubelet/kubelet_node_status.go).
const registerFailed = "Unable to register node"

// milestoneOf returns the milestone hit h shows: its signature's, or, for a failure whose first
// line is the kubelet's failed registration (registerFailed), "registration-attempt": a refused
// or timed-out attempt is an attempt (red team round 7, finding 5: 401s and cut dial timeouts
// in the paste, the timeline said "first registration attempt: not seen").
func milestoneOf(h evidence.SignatureHit) string {
	if h.Milestone != "" || h.Normal || h.Finding == "" {
		return h.Milestone
	}
	if strings.Contains(h.First.Text, registerFailed) {
		return "registration-attempt"
	}
	return ""
}

// firstLabel returns a node or host name's first DNS label, lower case (ip-10-0-12-34 for
// ip-10-0-12-34.ec2.internal): a journal's host and the kubelet's node name are one node's.
func firstLabel(n string) string {
	n, _, _ = strings.Cut(n, ".")
	return strings.ToLower(n)
}

// Milestone is one step of the join sequence.
type Milestone struct {
	// Name is one of logscan.Milestones: boot, bootstrap-started, bootstrap-done,
	// kubelet-started, registration-attempt, registered, csr-created, ready.
	Name string `json:"name"`
	// Label says it in words ("first registration attempt").
	Label   string `json:"label"`
	Reached bool   `json:"reached"`
	// Component wrote the line (kubelet, nodeadm, bootstrap-sh, cloud-init …).
	Component string `json:"component,omitempty"`
	// Line is the first line showing the milestone.
	Line *TimelineLine `json:"line,omitempty"`
}

// TimelineLine locates one log line.
type TimelineLine struct {
	Path string `json:"path"`
	Line int64  `json:"line"`
	// Time is RFC 3339 UTC, empty when the line carries no timestamp.
	Time string `json:"time,omitempty"`
	Text string `json:"text"`
	// clock is the time of day the line's text shows when its timestamp could not be read
	// into Time (a klog line has no year): shown, never reported as a time.
	clock string
	// order is the line's time within an unnamed year (evidence.LogLine.Clock: a pasted
	// journal line with a month and day but no year), 0 when it has none: it orders lines of
	// different days that the time of day alone would not.
	order int64
	// dated is the line's "Nov 22 14:02:10" when its text shows one, for timelines of year-less
	// lines that span more than one day
	dated string
}

// reDated is a journal line's month, day and time of day (no year).
var reDated = regexp.MustCompile(`\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+\d\d:\d\d:\d\d\b`)

// multiDay is timelineDay's answer for a timeline of year-less lines (no RFC 3339 time) that
// span more than one day: each line then shows its own month and day.
const multiDay = "multi-day"

// dayOf returns the day within the unnamed year of an order (LogLine.Clock), counting from 0.
func dayOf(order int64) int64 { return (order - 1) / int64(24*time.Hour) }

// clockRe finds a time of day in a log line.
var clockRe = regexp.MustCompile(`\b([01]\d|2[0-3]):[0-5]\d:[0-5]\d\b`)

// clockHead is how far into an undated line its own time of day may start: a journal, klog or
// syslog prefix, possibly after a host or a pasted chat prefix. A time further on is the
// message's (a kernel banner's build time, a certificate's expiry), not the line's.
const clockHead = 40

// lineClock returns the time of day an undated line's head shows, or "".
func lineClock(text string) string {
	if loc := clockRe.FindStringIndex(text); loc != nil && loc[0] <= clockHead {
		return text[loc[0]:loc[1]]
	}
	return ""
}

// TimelineFailure is one failure signature seen in the logs.
type TimelineFailure struct {
	// Finding is the check the lines are evidence for; Status its status in this report (a
	// failure followed by a resolving line is transient and does not fail).
	Finding   string        `json:"finding"`
	Status    checks.Status `json:"status"`
	Signature string        `json:"signature"`
	Component string        `json:"component"`
	Meaning   string        `json:"meaning"`
	// Count is how many lines matched; First and Last the first and last of them.
	Count int64        `json:"count"`
	First TimelineLine `json:"first"`
	Last  TimelineLine `json:"last"`
}

// milestoneLabels say each milestone in words.
var milestoneLabels = map[string]string{
	"boot": "instance booted", "bootstrap-started": "bootstrap agent started", "bootstrap-done": "bootstrap agent finished",
	"kubelet-started": "kubelet started", "registration-attempt": "first registration attempt", "registered": "Node registered",
	"csr-created": "certificate requested (CSR)", "ready": "Node Ready",
}

func timelineLine(l evidence.LogLine) TimelineLine {
	t := TimelineLine{Path: l.Path, Line: l.Line, Text: strings.TrimSpace(l.Text)}
	if !l.Time.IsZero() {
		t.Time = l.Time.UTC().Format(time.RFC3339)
	} else {
		t.clock, t.order = lineClock(l.Text), l.Clock
		if t.order != 0 {
			t.dated = strings.Join(strings.Fields(reDated.FindString(l.Text)), " ")
		}
	}
	return t
}

// before orders two log lines: by timestamp when both have one, else in reading order.
func before(a, b evidence.LogLine) bool {
	if !a.Time.IsZero() && !b.Time.IsZero() && !a.Time.Equal(b.Time) {
		return a.Time.Before(b.Time)
	}
	return a.Seq < b.Seq
}

// BuildTimeline derives the join timeline from the node's logs, or returns nil when the evidence
// holds no node logs. findings give each failure its status in the report.
func BuildTimeline(ev *evidence.Evidence, findings []checks.Finding) *Timeline {
	if !ev.Have(evidence.KindNodeLogs) || ev.NodeLogs == nil {
		return nil
	}
	logs := ev.NodeLogs
	tl := &Timeline{Source: ev.Source(evidence.KindNodeLogs), Milestones: []Milestone{}, Failures: []TimelineFailure{}}
	status := map[string]checks.Status{}
	rank := map[checks.Status]int{checks.StatusFail: 5, checks.StatusError: 4, checks.StatusWarn: 3, checks.StatusPass: 2, checks.StatusSkipped: 1}
	for _, f := range findings {
		if rank[f.Status] > rank[status[f.ID]] {
			status[f.ID] = f.Status
		}
	}
	others := otherNodesMilestones(logs, status)
	first := map[string]*evidence.SignatureHit{}
	for i := range logs.Hits {
		h := &logs.Hits[i]
		m := milestoneOf(*h)
		if m == "" || others[i] != "" {
			continue
		}
		if first[m] == nil || before(h.First, first[m].First) {
			first[m] = h
		}
	}
	for _, n := range others {
		if n != "" && !slices.Contains(tl.others, n) {
			tl.others = append(tl.others, n)
		}
	}
	sort.Strings(tl.others)
	last := ""
	for _, name := range logscan.Milestones {
		m := Milestone{Name: name, Label: milestoneLabels[name]}
		if h := first[name]; h != nil {
			l := timelineLine(h.First)
			m.Reached, m.Component, m.Line = true, h.Component, &l
			last = name
		}
		tl.Milestones = append(tl.Milestones, m)
	}
	tl.Complete = first["ready"] != nil
	if !tl.Complete {
		tl.StoppedAfter = last
	}
	var hits []*evidence.SignatureHit
	for i := range logs.Hits {
		h := &logs.Hits[i]
		// lines enough to be a fault on their own (not a log cut after one: EndsLog), and
		// not a wait the log was cut in
		if !h.Normal && h.Finding != "" && h.Count >= max(h.MinCount, 1) && logs.WaitedOut(*h) && h.AllValuesSeen() {
			hits = append(hits, h)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return before(hits[i].First, hits[j].First) })
	for _, h := range hits {
		st := status[h.Finding]
		if st == "" {
			st = checks.StatusSkipped // the check was not selected (--checks)
		}
		tl.Failures = append(tl.Failures, TimelineFailure{Finding: h.Finding, Status: st, Signature: h.Signature, Component: h.Component,
			Meaning: h.Meaning, Count: h.Count, First: timelineLine(h.First), Last: timelineLine(h.Last)})
	}
	if len(first) == 0 && len(tl.Failures) == 0 {
		return nil // logs with neither a milestone nor a failure line tell no sequence
	}
	return tl
}

// clock formats a line's RFC 3339 time as 15:04:05 (date included when it differs from day),
// else the time of day its text shows, else spaces.
func clock(l TimelineLine, day string) string {
	t, err := time.Parse(time.RFC3339, l.Time)
	if err != nil {
		if day == multiDay && l.dated != "" {
			return l.dated
		}
		if l.clock != "" {
			return l.clock
		}
		return strings.Repeat(" ", 8)
	}
	if d := t.Format("2006-01-02"); day != "" && d != day {
		return t.Format("01-02 15:04:05")
	}
	return t.Format("15:04:05")
}

// earlier reports whether line a is known to come before line b: by their times when both have
// one, else by the times of day their texts show (lines of one boot, read as the same day).
func earlier(a, b TimelineLine) bool {
	if a.Time != "" && b.Time != "" {
		return a.Time < b.Time
	}
	if a.order != 0 && b.order != 0 {
		return a.order < b.order
	}
	ka, kb := timeOfDay(a), timeOfDay(b)
	return ka != "" && kb != "" && ka < kb
}

// timeOfDay returns the line's time as 15:04:05, from its timestamp or its text, or "".
func timeOfDay(l TimelineLine) string {
	if len(l.Time) >= 19 {
		return l.Time[11:19]
	}
	return l.clock
}

// timelineDay returns the date of the first timestamped line, "" when none has a time.
func timelineDay(tl *Timeline) string {
	for _, m := range tl.Milestones {
		if m.Line != nil && m.Line.Time != "" {
			return m.Line.Time[:10]
		}
	}
	for _, f := range tl.Failures {
		if f.First.Time != "" {
			return f.First.Time[:10]
		}
	}
	days := map[int64]bool{}
	for _, m := range tl.Milestones {
		if m.Line != nil && m.Line.order != 0 {
			days[dayOf(m.Line.order)] = true
		}
	}
	for _, f := range tl.Failures {
		for _, l := range []TimelineLine{f.First, f.Last} {
			if l.order != 0 {
				days[dayOf(l.order)] = true
			}
		}
	}
	if len(days) > 1 {
		return multiDay
	}
	return ""
}

// timelineEvent is one line of the rendered timeline.
type timelineEvent struct {
	when, mark, what string
	failing          bool
}

// timelineEvents lays the timeline out in order: the milestones reached (those before the first
// one seen are left out: the logs do not reach back that far), each failure after the last
// milestone reached before it began, then the milestones never reached.
func timelineEvents(tl *Timeline) []timelineEvent {
	day := timelineDay(tl)
	var out []timelineEvent
	placed := make([]bool, len(tl.Failures))
	failure := func(i int) {
		f := tl.Failures[i]
		what := fmt.Sprintf("%s: %s (%s)", f.Finding, f.Meaning, nOf(int(f.Count), "line", "lines"))
		if f.Count > 1 && clock(f.Last, day) != clock(f.First, day) && strings.TrimSpace(clock(f.Last, day)) != "" {
			what += ", last at " + clock(f.Last, day)
		}
		if f.Status != checks.StatusFail {
			what += " — does not fail in this report (" + string(f.Status) + ")"
		}
		out = append(out, timelineEvent{when: clock(f.First, day), mark: "✗", what: what, failing: f.Status == checks.StatusFail})
		placed[i] = true
	}
	lastReached := -1
	for i, m := range tl.Milestones {
		if m.Reached {
			lastReached = i
		}
	}
	seen := false
	for i, m := range tl.Milestones {
		if !m.Reached {
			if seen && i < lastReached {
				out = append(out, timelineEvent{when: strings.Repeat(" ", 8), mark: "·", what: m.Label + ": no line in the logs"})
			}
			continue
		}
		seen = true
		// failures that began before this milestone's line
		for j, f := range tl.Failures {
			if !placed[j] && earlier(f.First, *m.Line) {
				failure(j)
			}
		}
		what := m.Label
		if m.Component != "" {
			what += " (" + m.Component + ")"
		}
		out = append(out, timelineEvent{when: clock(*m.Line, day), mark: "✓", what: what})
	}
	for j := range tl.Failures {
		if !placed[j] {
			failure(j)
		}
	}
	if !tl.Complete {
		for i, m := range tl.Milestones {
			if !m.Reached && i > lastReached {
				out = append(out, timelineEvent{when: strings.Repeat(" ", 8), mark: "·", what: m.Label + ": not seen"})
			}
		}
	}
	// the rows without a time line up with the widest time shown ("Nov 22 14:02:10")
	width := 8
	for _, e := range out {
		width = max(width, len(e.when))
	}
	for i := range out {
		if strings.TrimSpace(out[i].when) == "" {
			out[i].when = strings.Repeat(" ", width)
		}
	}
	return out
}

// stoppedText says where the sequence stopped and the failing lines' counts.
func stoppedText(tl *Timeline) string {
	s := stoppedSequence(tl)
	if len(tl.others) > 0 {
		s += " Milestones of other nodes left out: " + strings.Join(tl.others, ", ") + "."
	}
	return s
}

// stoppedSequence says where the sequence stopped and the failing lines' counts.
func stoppedSequence(tl *Timeline) string {
	if tl.Complete {
		return "The logs show the Node Ready."
	}
	var order []string
	lines := map[string]int{}
	for _, f := range tl.Failures {
		if f.Status == checks.StatusFail {
			if _, ok := lines[f.Finding]; !ok {
				order = append(order, f.Finding)
			}
			lines[f.Finding] += int(f.Count)
		}
	}
	var failing []string
	for _, id := range order {
		failing = append(failing, fmt.Sprintf("%s (%s)", id, nOf(lines[id], "line", "lines")))
	}
	s := "No milestone of the join sequence is in the logs"
	if len(tl.others) > 0 {
		s = "No milestone of the failing node's join sequence is in the logs"
	}
	if tl.StoppedAfter != "" {
		s = "Stopped after: " + milestoneLabels[tl.StoppedAfter]
	}
	if len(failing) > 0 {
		s += "; failing: " + strings.Join(failing, ", ")
	}
	return s + "."
}

// timelineText writes the timeline section of the table output.
func timelineText(w io.Writer, tl *Timeline, p painter, width int) {
	head := "Join timeline"
	if day := timelineDay(tl); day != "" && day != multiDay {
		head += " (" + day + ", UTC)"
	}
	fmt.Fprintln(w, p.paint(head, color.Bold))
	for _, e := range timelineEvents(tl) {
		mark := e.mark
		switch {
		case e.mark == "✓":
			mark = p.paint(mark, color.FgGreen)
		case e.failing:
			mark = p.paint(mark, color.FgRed)
		case e.mark == "✗":
			mark = p.paint(mark, color.FgYellow)
		}
		para(w, width, "  "+e.when+"  "+mark+" ", e.what)
	}
	para(w, width, "  ", stoppedText(tl))
}

// timelineMarkdown writes the timeline section of the Markdown output.
func timelineMarkdown(w io.Writer, tl *Timeline) {
	head := "### Join timeline"
	if day := timelineDay(tl); day != "" && day != multiDay {
		head += " (" + day + ", UTC)"
	}
	fmt.Fprintf(w, "%s\n\n", head)
	for _, e := range timelineEvents(tl) {
		when := strings.TrimSpace(e.when)
		if when == "" {
			when = "—"
		}
		fmt.Fprintf(w, "- %s %s %s\n", mdCode(when), e.mark, mdEscape(e.what))
	}
	fmt.Fprintf(w, "\n%s\n\n", mdEscape(stoppedText(tl)))
}
