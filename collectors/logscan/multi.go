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

	// trie with sparse goto edges (a dense row per state would be most×stride entries, most of
	// them empty, allocated and cleared only to be copied into trans): the root's edges in a
	// row of their own, every other state's in a list threaded through edges (head[s] is the
	// index of its first edge plus one); each anchor byte adds at most one state
	most := 1
	for _, a := range anchors {
		most += len(a)
	}
	type edge struct {
		c        uint8
		to, next int32
	}
	rootRow := make([]int32, stride)
	head := make([]int32, 1, most)
	edges := make([]edge, 0, most)
	goTo := func(s int32, c uint8) int32 {
		if s == 0 {
			return rootRow[c]
		}
		for e := head[s]; e != 0; e = edges[e-1].next {
			if edges[e-1].c == c {
				return edges[e-1].to
			}
		}
		return 0
	}
	outs := make([][]int32, 1, most) // outs[s]: the anchors ending at s, own and (below) through failure links
	for ai, a := range anchors {
		s := int32(0)
		for _, b := range a {
			c := mt.cls[b]
			next := goTo(s, c)
			if next == 0 {
				next = int32(len(outs))
				outs = append(outs, nil)
				head = append(head, 0)
				if s == 0 {
					rootRow[c] = next
				} else {
					edges = append(edges, edge{c: c, to: next, next: head[s]})
					head[s] = int32(len(edges))
				}
			}
			s = next
		}
		outs[s] = append(outs[s], int32(ai))
		mt.lens = append(mt.lens, int32(len(a)))
	}
	nstates := len(outs)

	// breadth-first, children in class order (so the numbering depends on nothing but the
	// anchors): a child's failure state is the goto of the nearest failure state of its parent
	// that has an edge on its class, else the root; it is shallower, so its outputs are
	// complete when the child inherits them
	fail := make([]int32, nstates)
	order := make([]int32, 0, nstates)
	order = append(order, 0)
	var kids []edge
	for q := 0; q < len(order); q++ {
		s := order[q]
		kids = kids[:0]
		if s == 0 {
			for c, child := range rootRow {
				if child != 0 {
					kids = append(kids, edge{c: uint8(c), to: child})
				}
			}
		} else {
			for e := head[s]; e != 0; e = edges[e-1].next {
				kids = append(kids, edges[e-1])
			}
			for i := 1; i < len(kids); i++ { // insertion sort: a state has few children
				for j := i; j > 0 && kids[j].c < kids[j-1].c; j-- {
					kids[j], kids[j-1] = kids[j-1], kids[j]
				}
			}
		}
		for _, k := range kids {
			if s != 0 {
				f := fail[s]
				for {
					if g := goTo(f, k.c); g != 0 {
						fail[k.to] = g
						break
					}
					if f == 0 {
						break
					}
					f = fail[f]
				}
			}
			if f := fail[k.to]; len(outs[f]) > 0 {
				outs[k.to] = append(outs[k.to], outs[f]...)
			}
			order = append(order, k.to)
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
	// the full transition function, in the final numbering and pre-multiplied: a state's row
	// is its failure state's (filled earlier: shallower, so earlier in order) with its own goto
	// edges over it; the root's missing edges lead back to the root (0)
	mt.trans = make([]uint32, nstates*stride)
	for _, s := range order {
		row := mt.trans[int(id[s])*stride : int(id[s]+1)*stride]
		if s == 0 {
			for c, child := range rootRow {
				if child != 0 {
					row[c] = id[child] * mt.stride
				}
			}
			continue
		}
		copy(row, mt.trans[int(id[fail[s]])*stride:int(id[fail[s]]+1)*stride])
		for e := head[s]; e != 0; e = edges[e-1].next {
			row[edges[e-1].c] = id[edges[e-1].to] * mt.stride
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
	// alone keeps the next blocks on one goroutine (see Scanner.ScanFrom): set while the
	// reader is the slower side of the pipeline, so the second core stays with it
	alone bool
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
	if len(text) >= parallelMin && !sc.alone && runtime.GOMAXPROCS(0) > 1 {
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
