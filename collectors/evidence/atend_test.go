package evidence

import (
	"testing"
	"time"
)

// TestAtEndNewestFirst: a listing printed newest first (Get-WinEvent, journalctl -r) ends with
// its oldest line; a failure there is not where the log was cut when a line above it is dated
// later (blind pastes25/13), while in a log in time order the last lines still end it.
func TestAtEndNewestFirst(t *testing.T) {
	at := func(line int64, sec int) LogLine {
		return LogLine{Path: "p", Line: line, Time: time.Date(2025, 12, 9, 11, 26, sec, 0, time.UTC)}
	}
	cni := SignatureHit{Signature: "cni", Finding: "runtime.cni-not-ready", Count: 1, MinCount: 2, EndsLog: true}
	reg := SignatureHit{Signature: "registered", Normal: true, Count: 1}
	for _, tc := range []struct {
		name         string
		cniAt, regAt LogLine
		want         bool
	}{
		{"newest first", at(4, 47), at(1, 48), false},
		{"in time order", at(4, 49), at(1, 48), true},
		{"a later line below it", at(3, 47), at(4, 48), true},
	} {
		c, r := cni, reg
		c.First, c.Last = tc.cniAt, tc.cniAt
		r.First, r.Last = tc.regAt, tc.regAt
		l := &NodeLogs{Streams: []LogStream{{Path: "p", FirstLine: 1, LastLine: 4}}, Hits: []SignatureHit{c, r}}
		if got := l.AtEnd(c); got != tc.want {
			t.Errorf("%s: AtEnd %v, want %v", tc.name, got, tc.want)
		}
	}
}
