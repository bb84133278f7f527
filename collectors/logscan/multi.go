package logscan

import (
	"bytes"
	"runtime"
	"sort"
	"sync"
	"unsafe"
)

// multi finds every occurrence of a set of literal anchors in one pass over a block with an
// Aho–Corasick automaton compiled to a dense DFA: one table lookup per input byte whatever the
// number of anchors, so adding signatures to the catalog does not slow the scan (issue 10's
// "one pass per block whatever the catalog size").
//
// Bytes that occur in no anchor share one equivalence class, so the table has one column per
// distinct anchor byte plus one; state numbers are pre-multiplied by the row width, and states
// with at least one match (their own or through a failure link) are numbered last, so the hot
// loop is a load, an add, a load and one comparison per byte.
type multi struct {
	cls    [256]uint8
	stride uint32
	// recip is ceil(2^32 / stride): (s * recip) >> 32 is s / stride for every state s (a
	// multiple of stride below 2^32), without a division in the scan loop
	recip    uint64
	trans    []uint32 // trans[state + cls[b]] = next state (pre-multiplied)
	matchMin uint32   // states >= matchMin have outputs
	// reportMin: states in [matchMin, reportMin) have tallied outputs only (see counted),
	// states >= reportMin at least one reported output
	reportMin uint32
	out       [][]int32
	lens      []int32
	// counted is the index of the first tallied anchor: occurrences of anchors from it on (the
	// presence literals, which may be on every line) are added up per anchor, not reported
	counted int32
	// newlineInAnchor disables lanes (a test catalog may hold such an anchor; the built-in one
	// may not)
	newlineInAnchor bool
}

// newMulti compiles anchors; those from index counted on are tallied (see each).
func newMulti(anchors [][]byte, counted int) *multi {
	mt := &multi{counted: int32(counted)}
	// byte classes: 0 for bytes in no anchor, then one per distinct byte
	var used [256]bool
	for _, a := range anchors {
		for _, b := range a {
			used[b] = true
		}
		mt.newlineInAnchor = mt.newlineInAnchor || bytes.IndexByte(a, '\n') >= 0
	}
	n := uint8(1)
	for b := 0; b < 256; b++ {
		if used[b] {
			mt.cls[b] = n
			n++
		}
	}
	stride := int(n)
	mt.stride = uint32(stride)
	mt.recip = (1<<32 + uint64(stride) - 1) / uint64(stride)

	// trie: rows[s*stride+c] is the goto edge of state s on class c while building (0: none;
	// the root is no state's child), completed breadth-first below into the full transition
	// function (in trie numbering); each anchor byte adds at most one state
	most := 1
	for _, a := range anchors {
		most += len(a)
	}
	rows := make([]int32, most*stride)
	outs := make([][]int32, 1, most) // outs[s]: the anchors ending at s, own and (below) through failure links
	for ai, a := range anchors {
		s := int32(0)
		for _, b := range a {
			at := int(s)*stride + int(mt.cls[b])
			if rows[at] == 0 {
				rows[at] = int32(len(outs))
				outs = append(outs, nil)
			}
			s = rows[at]
		}
		outs[s] = append(outs[s], int32(ai))
		mt.lens = append(mt.lens, int32(len(a)))
	}
	nstates := len(outs)

	// breadth-first: a state's goto edges are the non-zero entries of its row until it is
	// visited; then its missing entries are copied from its failure state's row, complete
	// because that state is shallower. Children are visited in class order, so the numbering
	// does not depend on anything but the anchors.
	fail := make([]int32, nstates)
	order := make([]int32, 0, nstates)
	order = append(order, 0)
	for q := 0; q < len(order); q++ {
		s := order[q]
		row := rows[int(s)*stride : int(s+1)*stride]
		frow := rows[int(fail[s])*stride : int(fail[s]+1)*stride]
		for c, child := range row {
			if child == 0 {
				if s != 0 {
					row[c] = frow[c]
				}
				continue
			}
			if s != 0 {
				fail[child] = frow[c]
			}
			if f := fail[child]; len(outs[f]) > 0 {
				outs[child] = append(outs[child], outs[f]...)
			}
			order = append(order, child)
		}
	}

	// renumber: states without outputs first (the root is one of them and stays 0)
	id := make([]uint32, nstates)
	next := uint32(0)
	for _, s := range order {
		if len(outs[s]) == 0 {
			id[s] = next
			next++
		}
	}
	mt.matchMin = next * mt.stride
	// then the states whose outputs are all tallied (a presence literal, on most lines of its
	// component), counted without leaving the scan loop; then the others
	tallyOnly := func(out []int32) bool {
		for _, ai := range out {
			if ai < mt.counted {
				return false
			}
		}
		return true
	}
	for _, tallied := range []bool{true, false} {
		if !tallied {
			mt.reportMin = next * mt.stride
		}
		for _, s := range order {
			if out := outs[s]; len(out) > 0 && tallyOnly(out) == tallied {
				id[s] = next
				next++
				sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
				mt.out = append(mt.out, out)
			}
		}
	}
	mt.trans = make([]uint32, nstates*stride)
	for s := 0; s < nstates; s++ {
		base := int(id[s]) * stride
		for c := 0; c < stride; c++ {
			mt.trans[base+c] = id[rows[s*stride+c]] * mt.stride
		}
	}
	return mt
}

// lanes is how many parts of a block one goroutine scans at once: a DFA step waits for the
// previous one's table load, so independent parts advancing in the same loop keep the CPU busy
// while each waits. Six is the most the amd64 registers hold without spilling (BenchmarkLanes:
// about 1.6× the four-lane speed and 3.5× the single-lane speed).
const lanes = 6

// laneMin is the smallest block split into lanes; parallelMin the smallest split between two
// goroutines (a bundle's blocks are 1 MiB: the scan of one then uses both cores while the
// decompression of the next waits for a free one).
const (
	laneMin     = 64 << 10
	parallelMin = 256 << 10
)

// hit is one occurrence found by a lane, replayed in order once the lanes are done.
type hit struct{ ai, at int32 }

// scratch holds the occurrences the lanes of each of two goroutines found in one block, and
// the second goroutine's tally.
type scratch struct {
	hits  [2][lanes][]hit
	tally []int64
}

// each calls fn(anchor index, start offset) for every occurrence of a reported anchor (index
// below counted), in order of the offset where the occurrence ends (occurrences ending at the
// same byte in anchor-index order), and adds the occurrences of each tallied anchor i to
// tally[i-counted] (tally holds one count per tallied anchor). Anchors hold no newline, so
// occurrences come line by line. sc holds the lanes' occurrences between calls (one per
// Scanner; nil scans in one lane).
func (mt *multi) each(text []byte, sc *scratch, tally []int64, fn func(ai int, at int)) {
	if sc == nil || len(text) < laneMin || mt.newlineInAnchor {
		mt.one(text, 0, tally, fn)
		return
	}
	parts := 1
	if len(text) >= parallelMin && runtime.GOMAXPROCS(0) > 1 {
		parts = 2
	}
	cut := len(text)
	if parts == 2 {
		cut = nextLine(text, len(text)/2)
		if len(sc.tally) != len(tally) {
			sc.tally = make([]int64, len(tally))
		}
		clear(sc.tally)
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			mt.lanes(text[cut:], cut, &sc.hits[1], sc.tally)
		}()
		mt.lanes(text[:cut], 0, &sc.hits[0], tally)
		wg.Wait()
		for i, n := range sc.tally {
			tally[i] += n
		}
	} else {
		mt.lanes(text, 0, &sc.hits[0], tally)
	}
	for p := 0; p < parts; p++ {
		for k := range sc.hits[p] {
			for _, h := range sc.hits[p][k] {
				fn(int(h.ai), int(h.at))
			}
		}
	}
}

// nextLine returns the offset just after the first newline at or after at (len(text) if none).
func nextLine(text []byte, at int) int {
	nl := bytes.IndexByte(text[at:], '\n')
	if nl < 0 {
		return len(text)
	}
	return at + nl + 1
}

// lanes scans text in six lanes, appending to out[k] the occurrences of lane k's reported
// anchors with offsets plus base, and adding those of tallied anchors to tally. Lanes start after a newline, where the automaton is in its start state (no anchor
// holds one), so each starts exactly where a single pass would be.
func (mt *multi) lanes(text []byte, base int, out *[lanes][]hit, tally []int64) {
	var bounds [lanes + 1]int
	bounds[lanes] = len(text)
	for k := 1; k < lanes; k++ {
		bounds[k] = nextLine(text, max(len(text)*k/lanes, bounds[k-1]))
	}
	for k := range out {
		out[k] = out[k][:0]
	}
	// n is the length every lane has: the common part is stepped together by step6, the
	// lanes' tails one by one below
	n := len(text)
	for k := 0; k < lanes; k++ {
		n = min(n, bounds[k+1]-bounds[k])
	}
	var st [lanes]uint32
	if n > 0 {
		var p [lanes]unsafe.Pointer
		for k := range p {
			p[k] = unsafe.Pointer(&text[bounds[k]]) // n > 0: every lane has a first byte
		}
		tp := unsafe.Pointer(&mt.trans[0])
		for j := 0; j < n; j++ {
			if j = step6(tp, &mt.cls, mt, tally, &p, j, n, &st); j == n {
				break
			}
			for k, s := range st {
				if s >= mt.reportMin {
					mt.collect(&out[k], tally, s, base+bounds[k]+j)
				} else if s >= mt.matchMin {
					mt.tallyState(tally, s)
				}
			}
		}
	}
	for k := 0; k < lanes; k++ {
		s := st[k]
		for i := bounds[k] + n; i < bounds[k+1]; i++ {
			s = mt.trans[s+uint32(mt.cls[text[i]])]
			if s >= mt.matchMin {
				mt.collect(&out[k], tally, s, base+i)
			}
		}
	}
}

// step6 advances the six lanes in st from byte j of each until one of them enters a state
// with outputs (states >= mm) or j reaches n, and returns j (the byte that made the match, or
// n). p[k] points at lane k's first byte and every lane holds at least n bytes; tp points at
// the transition table, and every state is a row start in it, so state + class is in it:
// the loads need no bounds checks, which with the states kept in registers (a separate
// function, not inlined, so the caller's variables do not compete for them) is most of the
// speed-up over indexing slices.
//
//go:noinline
func step6(tp unsafe.Pointer, cls *[256]uint8, mt *multi, tally []int64, p *[lanes]unsafe.Pointer, j, n int, st *[lanes]uint32) int {
	mm, rm := mt.matchMin, mt.reportMin
	s0, s1, s2, s3, s4, s5 := st[0], st[1], st[2], st[3], st[4], st[5]
	p0, p1, p2, p3, p4, p5 := p[0], p[1], p[2], p[3], p[4], p[5]
	for ; j < n; j++ {
		s0 = *(*uint32)(unsafe.Add(tp, uintptr(s0+uint32(cls[*(*byte)(unsafe.Add(p0, j))]))*4))
		s1 = *(*uint32)(unsafe.Add(tp, uintptr(s1+uint32(cls[*(*byte)(unsafe.Add(p1, j))]))*4))
		s2 = *(*uint32)(unsafe.Add(tp, uintptr(s2+uint32(cls[*(*byte)(unsafe.Add(p2, j))]))*4))
		s3 = *(*uint32)(unsafe.Add(tp, uintptr(s3+uint32(cls[*(*byte)(unsafe.Add(p3, j))]))*4))
		s4 = *(*uint32)(unsafe.Add(tp, uintptr(s4+uint32(cls[*(*byte)(unsafe.Add(p4, j))]))*4))
		s5 = *(*uint32)(unsafe.Add(tp, uintptr(s5+uint32(cls[*(*byte)(unsafe.Add(p5, j))]))*4))
		if s0|s1|s2|s3|s4|s5 >= mm { // cheap test for "some lane may be in a match state"
			if s0 >= rm || s1 >= rm || s2 >= rm || s3 >= rm || s4 >= rm || s5 >= rm {
				break
			}
			// only presence literals (or no match: the test above is loose): tallied here
			mt.tally6(tally, s0, s1, s2, s3, s4, s5)
		}
	}
	st[0], st[1], st[2], st[3], st[4], st[5] = s0, s1, s2, s3, s4, s5
	return j
}

// tally6 tallies the outputs of those of six lane states that are tally-only match states.
//
//go:noinline
func (mt *multi) tally6(tally []int64, s0, s1, s2, s3, s4, s5 uint32) {
	for _, s := range [lanes]uint32{s0, s1, s2, s3, s4, s5} {
		if s >= mt.matchMin {
			mt.tallyState(tally, s)
		}
	}
}

// tallyState adds the outputs of tally-only match state s to tally.
func (mt *multi) tallyState(tally []int64, s uint32) {
	for _, ai := range mt.out[mt.row(s-mt.matchMin)] {
		tally[ai-mt.counted]++
	}
}

// collect records the outputs of match state s entered at byte i: reported anchors in dst,
// tallied ones in tally.
func (mt *multi) collect(dst *[]hit, tally []int64, s uint32, i int) {
	for _, ai := range mt.out[mt.row(s-mt.matchMin)] {
		if ai >= mt.counted {
			tally[ai-mt.counted]++
			continue
		}
		*dst = append(*dst, hit{ai, int32(i + 1 - int(mt.lens[ai]))})
	}
}

// one scans text in a single lane; offsets reported are relative to text plus base, tallies
// are added to tally (see each).
func (mt *multi) one(text []byte, base int, tally []int64, fn func(ai int, at int)) {
	trans, cls, mm := mt.trans, &mt.cls, mt.matchMin
	s := uint32(0)
	for i, b := range text {
		s = trans[s+uint32(cls[b])]
		if s >= mm {
			for _, ai := range mt.out[mt.row(s-mm)] {
				if ai >= mt.counted {
					tally[ai-mt.counted]++
					continue
				}
				fn(int(ai), base+i+1-int(mt.lens[ai]))
			}
		}
	}
}

// row returns the row of pre-multiplied state offset s (a multiple of the stride): s / stride
// by a multiplication with the reciprocal.
func (mt *multi) row(s uint32) uint32 { return uint32((uint64(s) * mt.recip) >> 32) }
