package logscan

import (
	"bytes"
	"runtime"
	"sort"
	"sync"
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
	cls      [256]uint8
	stride   uint32
	trans    []uint32 // trans[state + cls[b]] = next state (pre-multiplied)
	matchMin uint32   // states >= matchMin have outputs
	out      [][]int32
	lens     []int32
	// newlineInAnchor disables lanes (a test catalog may hold such an anchor; the built-in one
	// may not)
	newlineInAnchor bool
}

func newMulti(anchors [][]byte) *multi {
	mt := &multi{}
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

	// trie: goto edges in a sparse form while building
	type node struct {
		next map[uint8]int32
		fail int32
		out  []int32
	}
	nodes := []node{{next: map[uint8]int32{}}}
	for ai, a := range anchors {
		s := int32(0)
		for _, b := range a {
			c := mt.cls[b]
			nx, ok := nodes[s].next[c]
			if !ok {
				nx = int32(len(nodes))
				nodes = append(nodes, node{next: map[uint8]int32{}})
				nodes[s].next[c] = nx
			}
			s = nx
		}
		nodes[s].out = append(nodes[s].out, int32(ai))
		mt.lens = append(mt.lens, int32(len(a)))
	}

	// breadth-first: failure links, inherited outputs and the dense rows (in trie numbering)
	rows := make([]int32, len(nodes)*stride)
	order := make([]int32, 0, len(nodes))
	queue := []int32{0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		order = append(order, s)
		row := rows[int(s)*stride : int(s+1)*stride]
		if s != 0 {
			copy(row, rows[int(nodes[s].fail)*stride:int(nodes[s].fail+1)*stride])
		}
		// visit children in class order so the numbering does not depend on map order
		cs := make([]int, 0, len(nodes[s].next))
		for c := range nodes[s].next {
			cs = append(cs, int(c))
		}
		sort.Ints(cs)
		for _, c := range cs {
			child := nodes[s].next[uint8(c)]
			if s == 0 {
				nodes[child].fail = 0
			} else {
				nodes[child].fail = rows[int(nodes[s].fail)*stride+c]
			}
			f := nodes[child].fail
			nodes[child].out = append(nodes[child].out, nodes[f].out...)
			row[c] = child
			queue = append(queue, child)
		}
	}

	// renumber: states without outputs first (the root is one of them and stays 0)
	id := make([]uint32, len(nodes))
	next := uint32(0)
	for _, s := range order {
		if len(nodes[s].out) == 0 {
			id[s] = next
			next++
		}
	}
	mt.matchMin = next * mt.stride
	for _, s := range order {
		if len(nodes[s].out) > 0 {
			id[s] = next
			next++
			out := nodes[s].out
			sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
			mt.out = append(mt.out, out)
		}
	}
	mt.trans = make([]uint32, len(nodes)*stride)
	for s := range nodes {
		base := int(id[s]) * stride
		for c := 0; c < stride; c++ {
			mt.trans[base+c] = id[rows[s*stride+c]] * mt.stride
		}
	}
	return mt
}

// lanes is how many parts of a block one goroutine scans at once: a DFA step waits for the
// previous one's table load, so independent parts advancing in the same loop keep the CPU busy
// while each waits (about 2× the single-lane speed on amd64).
const lanes = 4

// laneMin is the smallest block split into lanes; parallelMin the smallest split between two
// goroutines (a bundle's blocks are 1 MiB: the scan of one then uses both cores while the
// decompression of the next waits for a free one).
const (
	laneMin     = 64 << 10
	parallelMin = 256 << 10
)

// hit is one occurrence found by a lane, replayed in order once the lanes are done.
type hit struct{ ai, at int32 }

// scratch holds the occurrences the lanes of each of two goroutines found in one block.
type scratch [2][lanes][]hit

// each calls fn(anchor index, start offset) for every occurrence, in order of the offset where
// the occurrence ends (occurrences ending at the same byte in anchor-index order). Anchors hold
// no newline, so occurrences come line by line. sc holds the lanes' occurrences between calls
// (one per Scanner; nil scans in one lane).
func (mt *multi) each(text []byte, sc *scratch, fn func(ai int, at int)) {
	if sc == nil || len(text) < laneMin || mt.newlineInAnchor {
		mt.one(text, 0, fn)
		return
	}
	parts := 1
	if len(text) >= parallelMin && runtime.GOMAXPROCS(0) > 1 {
		parts = 2
	}
	cut := len(text)
	if parts == 2 {
		cut = nextLine(text, len(text)/2)
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			mt.lanes(text[cut:], cut, &sc[1])
		}()
		mt.lanes(text[:cut], 0, &sc[0])
		wg.Wait()
	} else {
		mt.lanes(text, 0, &sc[0])
	}
	for p := 0; p < parts; p++ {
		for k := range sc[p] {
			for _, h := range sc[p][k] {
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

// lanes scans text in four lanes, appending to out[k] the occurrences of lane k with offsets
// plus base. Lanes start after a newline, where the automaton is in its start state (no anchor
// holds one), so each starts exactly where a single pass would be.
func (mt *multi) lanes(text []byte, base int, out *[lanes][]hit) {
	var bounds [lanes + 1]int
	bounds[lanes] = len(text)
	for k := 1; k < lanes; k++ {
		bounds[k] = nextLine(text, max(len(text)*k/lanes, bounds[k-1]))
	}
	for k := range out {
		out[k] = out[k][:0]
	}
	trans, cls, mm := mt.trans, &mt.cls, mt.matchMin
	n := min(bounds[1]-bounds[0], bounds[2]-bounds[1], bounds[3]-bounds[2], bounds[4]-bounds[3])
	l0 := text[bounds[0] : bounds[0]+n]
	l1 := text[bounds[1] : bounds[1]+n]
	l2 := text[bounds[2] : bounds[2]+n]
	l3 := text[bounds[3] : bounds[3]+n]
	l1, l2, l3 = l1[:len(l0)], l2[:len(l0)], l3[:len(l0)]
	var s0, s1, s2, s3 uint32
	for j := range l0 {
		s0 = trans[s0+uint32(cls[l0[j]])]
		s1 = trans[s1+uint32(cls[l1[j]])]
		s2 = trans[s2+uint32(cls[l2[j]])]
		s3 = trans[s3+uint32(cls[l3[j]])]
		if s0|s1|s2|s3 >= mm { // cheap test for "some lane is in a match state"
			if s0 >= mm {
				mt.collect(&out[0], s0, base+bounds[0]+j)
			}
			if s1 >= mm {
				mt.collect(&out[1], s1, base+bounds[1]+j)
			}
			if s2 >= mm {
				mt.collect(&out[2], s2, base+bounds[2]+j)
			}
			if s3 >= mm {
				mt.collect(&out[3], s3, base+bounds[3]+j)
			}
		}
	}
	// each lane's tail
	st := [lanes]uint32{s0, s1, s2, s3}
	for k := 0; k < lanes; k++ {
		s := st[k]
		for i := bounds[k] + n; i < bounds[k+1]; i++ {
			s = trans[s+uint32(cls[text[i]])]
			if s >= mm {
				mt.collect(&out[k], s, base+i)
			}
		}
	}
}

func (mt *multi) collect(dst *[]hit, s uint32, i int) {
	for _, ai := range mt.out[(s-mt.matchMin)/mt.stride] {
		*dst = append(*dst, hit{ai, int32(i + 1 - int(mt.lens[ai]))})
	}
}

// one scans text in a single lane; offsets reported are relative to text plus base.
func (mt *multi) one(text []byte, base int, fn func(ai int, at int)) {
	trans, cls, mm, stride := mt.trans, &mt.cls, mt.matchMin, mt.stride
	s := uint32(0)
	for i, b := range text {
		s = trans[s+uint32(cls[b])]
		if s >= mm {
			for _, ai := range mt.out[(s-mm)/stride] {
				fn(int(ai), base+i+1-int(mt.lens[ai]))
			}
		}
	}
}
