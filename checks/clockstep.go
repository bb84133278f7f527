package checks

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

// A time daemon's step sets the clock to the time of the source it follows, so every line
// logged after it is stamped on the new clock: in one log the lines jump in time at the step
// (back by the step when the clock was ahead), and only their place in the log orders them
// across it. journald stamps the step line itself on receipt, after the step, so it can carry
// an earlier time than "System clock wrong by" just above it. Whether the step put the clock
// right depends on the source: Amazon Time Sync is the reference AWS signs and checks requests
// against, another server is only as right as it is — the kubelet authenticating after the step
// shows it was right, the kubelet refused (401: its presigned STS token is dated off) shows it
// was not.

// clockStepFinding is the finding a clock step can resolve or leave standing.
const clockStepFinding = "runtime.clock-skew"

// clockStepSignatures are the catalog signatures of a time daemon stepping the clock.
var clockStepSignatures = map[string]bool{"chrony-clock-stepped": true}

// timeSourceFact is the fact naming the source a time daemon selected (logscan.FactNames).
const timeSourceFact = "timeSource"

// amazonTimeSync are the Amazon Time Sync Service's addresses as chronyd names a source it
// selected (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configure-ec2-ntp.html): the
// link-local IPv4 and IPv6 endpoints on every Nitro instance, and the public pool's name
// (time.aws.com), which chronyd prints in parentheses beside the address.
var amazonTimeSync = []string{"169.254.169.123", "fd00:ec2::123", "time.aws.com"}

// isAmazonTimeSync reports whether a selected time source ("169.254.169.123",
// "fd00:ec2::123 (fd00:ec2::123)", "3.33.186.244 (time.aws.com)") is Amazon Time Sync.
func isAmazonTimeSync(src string) bool {
	for _, part := range strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(strings.ToLower(src))) {
		for _, a := range amazonTimeSync {
			if part == a || strings.HasSuffix(part, "."+a) {
				return true
			}
		}
	}
	return false
}

// clockStepVerdict is what a time daemon's step says of the clock-skew failure lines before it.
type clockStepVerdict struct {
	// step is the step line's hit; nil when no step follows every failure line.
	step *evidence.SignatureHit
	// source is the source the clock follows after the step ("" when no line names it).
	source string
	// by is the line that shows the clock right after the step: the step itself when the source
	// is Amazon Time Sync, else the kubelet's registration or readiness after it; nil when none.
	by *evidence.SignatureHit
	// refused is the kubelet's latest refusal (runtime.unauthorized) after the step, when no
	// registration follows it; nil otherwise.
	refused *evidence.SignatureHit
}

// note says in words what the verdict found, for the finding's message.
func (v clockStepVerdict) note() string {
	src := "a source no line names"
	if v.source != "" {
		src = v.source
	}
	switch {
	case v.by != nil && v.by == v.step:
		return fmt.Sprintf("chronyd then stepped the clock (at %s) to follow %s, Amazon Time Sync: the clock is right since", where(v.step.Last), src)
	case v.by != nil:
		return fmt.Sprintf("chronyd then stepped the clock (at %s) to follow %s, and the kubelet authenticated after the step (%q, at %s): the clock was right",
			where(v.step.Last), src, v.by.Meaning, where(v.by.Last))
	case v.refused != nil:
		return fmt.Sprintf("chronyd stepped the clock (at %s) to follow %s, not Amazon Time Sync, and the API server still refused the kubelet after the step (401, at %s): the clock is only as right as %s, and its time is off — the kubelet's token is dated wrong",
			where(v.step.Last), src, where(v.refused.Last), src)
	}
	return fmt.Sprintf("chronyd then stepped the clock (at %s) to follow %s, and no refusal of the kubelet after the step shows that source wrong", where(v.step.Last), src)
}

// afterInLog reports whether line a came after line b: by their places when both are in one
// log stream (the order the node wrote them, whatever their stamps say across a step), else by
// their own times (logscan.Later).
func afterInLog(logs *evidence.NodeLogs, a, b evidence.LogLine) bool {
	if sameStream(logs, a, b) {
		return a.Line > b.Line
	}
	return logscan.Later(a, b)
}

// sameStream reports whether lines a and b are in one stream of logs (one file, or one document
// of a paste).
func sameStream(logs *evidence.NodeLogs, a, b evidence.LogLine) bool {
	if a.Path != b.Path {
		return false
	}
	for _, st := range logs.Streams {
		if st.Path == a.Path && st.FirstLine <= a.Line && a.Line <= st.LastLine {
			return st.FirstLine <= b.Line && b.Line <= st.LastLine
		}
	}
	return false
}

// syslogHeader matches a syslog or journal line's "HOST PROGRAM[PID]: " header.
var syslogHeader = regexp.MustCompile(`(\S+) ([\w.@/-]+)\[(\d+)\]: `)

// sameWriter reports whether lines a and b can be of one node (their syslog hosts, compared by
// short name, agree or either has none) and, when both are of one program, of one process.
func sameWriter(a, b evidence.LogLine) bool {
	ma, mb := syslogHeader.FindStringSubmatch(a.Text), syslogHeader.FindStringSubmatch(b.Text)
	if ma == nil || mb == nil {
		return true
	}
	short := func(h string) string { s, _, _ := strings.Cut(h, "."); return strings.ToLower(s) }
	if short(ma[1]) != short(mb[1]) {
		return false
	}
	return ma[2] != mb[2] || ma[3] == mb[3]
}

// judgeClockStep judges a clock step that comes after every clock-skew failure line of failing
// (afterInLog) and is not another node's. The source the clock follows is the time daemon's
// last "Selected source" before the step in the same log and process, else its first after
// it. The step shows the clock right when that source is Amazon Time Sync, or when the kubelet
// registers or becomes Ready after it (and after any refusal after it); it shows it still wrong
// when the source is another server (or unnamed) and the kubelet is refused after it. Neither
// (another server, nothing of the kubelet after the step): the verdict has a step but neither
// by nor refused, and the step, the later line, resolves the failure as any progress line does.
func judgeClockStep(logs *evidence.NodeLogs, failing []evidence.SignatureHit) clockStepVerdict {
	var v clockStepVerdict
	for i := range logs.Hits {
		s := &logs.Hits[i]
		if !clockStepSignatures[s.Signature] || otherNodes(failing, *s) {
			continue
		}
		after := true
		for _, f := range failing {
			after = after && afterInLog(logs, s.Last, f.Last) && sameWriter(s.Last, f.Last)
		}
		if after && (v.step == nil || afterInLog(logs, s.Last, v.step.Last)) {
			v.step = s
		}
	}
	if v.step == nil {
		return v
	}
	step := v.step.Last
	var before, next *evidence.LogLine
	for _, h := range logs.Hits {
		for i, src := range h.Facts[timeSourceFact] {
			if i >= len(h.FactLast[timeSourceFact]) {
				break
			}
			l := h.FactLast[timeSourceFact][i]
			if !sameStream(logs, l, step) || !sameWriter(l, step) {
				continue
			}
			switch {
			case l.Line < step.Line && (before == nil || l.Line > before.Line):
				before, v.source = &l, src
			case l.Line > step.Line && before == nil && (next == nil || l.Line < next.Line):
				next, v.source = &l, src
			}
		}
	}
	if isAmazonTimeSync(v.source) {
		v.by = v.step
		return v
	}
	for i := range logs.Hits {
		h := &logs.Hits[i]
		if otherNodes(failing, *h) || !sameWriterHost(h.Last, step) || !afterInLog(logs, h.Last, step) {
			continue
		}
		switch {
		case h.Normal && (h.Milestone == "registered" || h.Milestone == "ready") && resolvesID(h, clockStepFinding):
			if v.by == nil || afterInLog(logs, h.Last, v.by.Last) {
				v.by = h
			}
		case !h.Normal && h.Finding == "runtime.unauthorized":
			if v.refused == nil || afterInLog(logs, h.Last, v.refused.Last) {
				v.refused = h
			}
		}
	}
	if v.by != nil && v.refused != nil && afterInLog(logs, v.refused.Last, v.by.Last) {
		v.by = nil // refused again after it registered
	}
	if v.by != nil {
		v.refused = nil
	}
	return v
}

// sameWriterHost reports whether lines a and b can be of one node by their syslog hosts
// (sameWriter without the process).
func sameWriterHost(a, b evidence.LogLine) bool {
	ma, mb := syslogHeader.FindStringSubmatch(a.Text), syslogHeader.FindStringSubmatch(b.Text)
	if ma == nil || mb == nil {
		return true
	}
	short := func(h string) string { s, _, _ := strings.Cut(h, "."); return strings.ToLower(s) }
	return short(ma[1]) == short(mb[1])
}

// resolvesID reports whether hit h resolves finding id.
func resolvesID(h *evidence.SignatureHit, id string) bool {
	for _, r := range h.Resolves {
		if r == id {
			return true
		}
	}
	return false
}
