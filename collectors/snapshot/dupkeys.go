package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// dupKeys finds the keys a JSON object holds more than once ({"IamInstanceProfile": null,
// "IamInstanceProfile": {…}}), which encoding/json takes silently (the last one wins). It is fed
// the bytes of one or more JSON documents, in pieces (Write), and reads them once, without
// allocating in the steady state: the keys of the objects open at the moment are kept in one
// buffer, an object with many keys in a set. Keys are compared after unescaping ("k\u0031" is
// "k1"), exactly (encoding/json's case-insensitive match of struct fields is not followed: a
// map may hold "Name" and "name"). Input that is not JSON gives no reliable answer; the
// decoder reports it.
type dupKeys struct {
	line  int // current line, from 1
	inStr bool
	esc   bool
	isKey bool // the string being read is an object key
	key   []byte
	// keyEsc: the key being read holds an escape
	keyEsc bool
	arena  []byte   // the keys of the open objects, one after another
	spans  [][2]int // each key's start and end in arena
	frames []dupFrame
	// found holds the first duplicates (at most maxDupReports), n counts them all
	found []dupKey
	n     int
}

// dupFrame is one open object or array.
type dupFrame struct {
	obj       bool
	expectKey bool
	arena     int // len(arena) when the object opened
	spans     int // len(spans) when the object opened
	set       map[string]struct{}
}

// dupKey is one duplicate: the key and the line (from 1) of its later copy.
type dupKey struct {
	key  string
	line int
}

// maxDupReports bounds the duplicates named in one problem.
const maxDupReports = 5

// dupLinear is the number of keys of one object compared one by one; an object with more is
// looked up in a set (an object of a million keys stays linear in time).
const dupLinear = 64

// dupKeysPool keeps scanners with their buffers grown: checking every file of a snapshot then
// allocates nothing but the problems found.
var dupKeysPool = sync.Pool{New: func() any {
	return &dupKeys{key: make([]byte, 0, 64), arena: make([]byte, 0, 1024), spans: make([][2]int, 0, 64), frames: make([]dupFrame, 0, 16)}
}}

// newDupKeys returns a scanner at the start of its input; release gives it back.
func newDupKeys() *dupKeys {
	d := dupKeysPool.Get().(*dupKeys)
	*d = dupKeys{line: 1, key: d.key[:0], arena: d.arena[:0], spans: d.spans[:0], frames: d.frames[:0]}
	return d
}

// release returns d to the pool; d must not be used after.
func (d *dupKeys) release() {
	if cap(d.arena) > 1<<20 || cap(d.key) > 1<<20 {
		return // an outsized input's buffers are not kept
	}
	clear(d.frames[:cap(d.frames)]) // drop the sets
	dupKeysPool.Put(d)
}

// Write reads the next bytes of the input; it never fails.
func (d *dupKeys) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if d.inStr {
			if d.esc {
				d.esc = false
				if d.isKey {
					d.key = append(d.key, p[0])
				}
				p = p[1:]
				continue
			}
			// the next quote, then a backslash before it (two vectorised searches are faster
			// than one for either byte)
			i := bytes.IndexByte(p, '"')
			seg := p
			if i >= 0 {
				seg = p[:i]
			}
			if j := bytes.IndexByte(seg, '\\'); j >= 0 {
				i = j
			}
			if i < 0 {
				if d.isKey {
					d.key = append(d.key, p...)
				}
				return n, nil
			}
			if d.isKey {
				d.key = append(d.key, p[:i]...)
			}
			if p[i] == '\\' {
				d.esc = true
				if d.isKey {
					d.keyEsc = true
					d.key = append(d.key, '\\')
				}
			} else {
				d.inStr = false
				if d.isKey {
					d.addKey()
				}
			}
			p = p[i+1:]
			continue
		}
		c := p[0]
		p = p[1:]
		switch c {
		case '\n':
			d.line++
		case '"':
			d.inStr = true
			top := d.top()
			d.isKey = top != nil && top.obj && top.expectKey
			d.key, d.keyEsc = d.key[:0], false
		case '{':
			d.frames = append(d.frames, dupFrame{obj: true, expectKey: true, arena: len(d.arena), spans: len(d.spans)})
		case '[':
			d.frames = append(d.frames, dupFrame{})
		case '}', ']':
			if top := d.top(); top != nil {
				if top.obj {
					d.arena, d.spans = d.arena[:top.arena], d.spans[:top.spans]
				}
				d.frames = d.frames[:len(d.frames)-1]
			}
		case ':':
			if top := d.top(); top != nil && top.obj {
				top.expectKey = false
			}
		case ',':
			if top := d.top(); top != nil && top.obj {
				top.expectKey = true
			}
		}
	}
	return n, nil
}

func (d *dupKeys) top() *dupFrame {
	if len(d.frames) == 0 {
		return nil
	}
	return &d.frames[len(d.frames)-1]
}

// addKey records the key just read in the innermost object, noting it when it is there already.
func (d *dupKeys) addKey() {
	name := d.key
	if d.keyEsc {
		var s string
		if json.Unmarshal(append(append([]byte{'"'}, d.key...), '"'), &s) == nil {
			name = []byte(s)
		}
	}
	f := d.top()
	dup := false
	switch {
	case f.set != nil:
		_, dup = f.set[string(name)]
	case len(d.spans)-f.spans < dupLinear:
		for _, sp := range d.spans[f.spans:] {
			if bytes.Equal(d.arena[sp[0]:sp[1]], name) {
				dup = true
				break
			}
		}
	default:
		f.set = make(map[string]struct{}, 2*dupLinear)
		for _, sp := range d.spans[f.spans:] {
			f.set[string(d.arena[sp[0]:sp[1]])] = struct{}{}
		}
		_, dup = f.set[string(name)]
	}
	if dup {
		d.n++
		if len(d.found) < maxDupReports {
			d.found = append(d.found, dupKey{string(name), d.line})
		}
		return
	}
	if f.set != nil {
		f.set[string(name)] = struct{}{}
		return
	}
	start := len(d.arena)
	d.arena = append(d.arena, name...)
	d.spans = append(d.spans, [2]int{start, len(d.arena)})
}

// problem says what was found ("" for nothing): each key and line, and how many more.
func (d *dupKeys) problem() string {
	if d.n == 0 {
		return ""
	}
	var parts []string
	for _, k := range d.found {
		name := k.key
		if len(name) > 60 {
			name = name[:60] + "…"
		}
		parts = append(parts, fmt.Sprintf("key %q twice in one object (line %d)", name, k.line))
	}
	more := ""
	if d.n > len(d.found) {
		more = fmt.Sprintf(" and %d more", d.n-len(d.found))
	}
	return "holds " + strings.Join(parts, ", ") + more + ": the later copy is used, the earlier one ignored; a JSON object should hold each key once, so which is meant is unknown"
}
