package logscan

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// longLine returns one kubelet journal line (no newline) whose message, a registration
// rejected with Unauthorized, is repeated to about size bytes: a logger that lost its newlines,
// or the red-team's crafted paste.
func longLine(size int) []byte {
	const head = `Jul 24 15:30:01 ip-10-0-12-34 kubelet[2841]: E0724 15:30:01.118732    2841 kubelet_node_status.go:96] `
	const rep = `"Unable to register node with API server" err="Unauthorized" node="ip-10-0-12-34" `
	return []byte(head + strings.Repeat(rep, max(1, (size-len(head))/len(rep))))
}

// patternSignatures returns the signatures of s with a pattern whose anchor ln holds and
// whose exclusions it does not: those a scan of ln has to run the pattern of.
func patternSignatures(s *Scanner, ln []byte) int {
	n := 0
	for i := range s.sigs {
		if c := &s.sigs[i]; c.lazy != nil && bytes.Contains(ln, c.anchor) && !c.excluded(ln) {
			n++
		}
	}
	return n
}

// TestLongLineRunsEachPatternOnce: a line repeating a matching message runs each candidate
// signature's pattern once (its facts taken in the same run), not once per anchor occurrence (a pass over the whole line each:
// quadratic, 14 minutes for a 1 MiB line), and is recorded as the short line is — one
// matching line per signature, with the same facts.
func TestLongLineRunsEachPatternOnce(t *testing.T) {
	scan := func(ln []byte) *Scanner {
		s := MustDefault()
		s.Ref = time.Date(2026, 7, 25, 0, 0, 0, 0, time.UTC)
		if err := s.Scan(bytes.NewReader(append(ln, '\n')), "k.log", "kubelet"); err != nil {
			t.Fatal(err)
		}
		return s
	}
	// 64 KiB: about 780 occurrences of each anchor, yet a scan of seconds before the fix
	long, short := longLine(64<<10), longLine(0)
	s := scan(long)
	cands := patternSignatures(s, long)
	if cands == 0 {
		t.Fatal("no signature with a pattern is a candidate for the line")
	}
	// each candidate runs its pattern once, taking the facts in the same run
	if s.patternRuns > int64(cands) {
		t.Errorf("%d pattern runs over one line with %d candidate signatures, want at most one each", s.patternRuns, cands)
	}
	got, want := s.Result("x").Hits, scan(short).Result("x").Hits
	if len(got) == 0 || len(got) != len(want) {
		t.Fatalf("long line: %d hits, short line: %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Signature != w.Signature || g.Count != 1 || w.Count != 1 || !reflect.DeepEqual(g.Facts, w.Facts) || !g.First.Time.Equal(w.First.Time) {
			t.Errorf("long line hit %s ×%d %v %v, short line %s ×%d %v %v", g.Signature, g.Count, g.Facts, g.First.Time, w.Signature, w.Count, w.Facts, w.First.Time)
		}
	}
}

// BenchmarkScanLongLine scans one line repeating a matching message at three lengths: the
// time per byte (MB/s) stays the same as the line grows, so a line costs O(length).
func BenchmarkScanLongLine(b *testing.B) {
	for _, size := range []int{64 << 10, 256 << 10, BlockSize - 1} {
		data := append(longLine(size), '\n')
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) { benchScan(b, data, "k.log", "kubelet") })
	}
}

// BenchmarkScanFailingJournal scans a journal of a node failing to register, every line a
// matching Unauthorized line (a node that failed for days): the case where matching lines, not
// the automaton, set the speed.
func BenchmarkScanFailingJournal(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; buf.Len() < 32<<20; i++ {
		fmt.Fprintf(&buf, "Jul 24 15:%02d:%02d ip-10-0-12-34 kubelet[2841]: E0724 15:30:01.118732    2841 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-12-34\"\n", i/60%60, i%60)
	}
	benchScan(b, buf.Bytes(), "k.log", "kubelet")
}
