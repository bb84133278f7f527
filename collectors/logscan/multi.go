package logscan

import "bytes"

// multi finds every occurrence of a set of literal anchors in one pass over a block, using the
// Wu–Manber shift table over 2-byte blocks: the window is the length m of the shortest anchor,
// and the scan jumps by up to m-1 bytes whenever the last two bytes of the window cannot end
// the first m bytes of any anchor. Healthy logs, where no anchor occurs, are skipped at a
// fraction of a comparison per byte.
type multi struct {
	m       int
	shift   [1 << 16]uint8
	buckets [1 << 16][]int32 // anchors whose first m bytes end with the 2-byte block
	anchors [][]byte
}

func newMulti(anchors [][]byte) *multi {
	mt := &multi{anchors: anchors, m: 255}
	for _, a := range anchors {
		if len(a) < mt.m {
			mt.m = len(a)
		}
	}
	if mt.m < 2 {
		mt.m = 2 // 1-byte anchors are rejected by New; keep the table well-formed anyway
	}
	def := uint8(mt.m - 1)
	for i := range mt.shift {
		mt.shift[i] = def
	}
	for ai, a := range anchors {
		p := a[:mt.m]
		for j := 0; j+2 <= mt.m; j++ {
			h := uint16(p[j])<<8 | uint16(p[j+1])
			if s := uint8(mt.m - j - 2); s < mt.shift[h] {
				mt.shift[h] = s
			}
		}
		h := uint16(p[mt.m-2])<<8 | uint16(p[mt.m-1])
		mt.buckets[h] = append(mt.buckets[h], int32(ai))
	}
	return mt
}

// each calls fn(anchor index, start offset) for every occurrence, in increasing offset order
// (occurrences of different anchors at the same offset in anchor-index order).
func (mt *multi) each(text []byte, fn func(ai int, at int)) {
	m := mt.m
	for pos := m - 1; pos < len(text); {
		h := uint16(text[pos-1])<<8 | uint16(text[pos])
		if s := mt.shift[h]; s > 0 {
			pos += int(s)
			continue
		}
		start := pos - m + 1
		for _, ai := range mt.buckets[h] {
			a := mt.anchors[ai]
			if start+len(a) <= len(text) && bytes.Equal(text[start:start+len(a)], a) {
				fn(int(ai), start)
			}
		}
		pos++
	}
}
