package snapshot

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// instancesPath is the snapshot path of `aws ec2 describe-instances`, the largest file of a
// snapshot of a big fleet (tens of MiB).
const instancesPath = "ec2/describe-instances.json"

// instanceIdx is ec2/describe-instances.json decoded once per snapshot: its instances in file
// order (every page), indexed by instance ID (an instance listed twice keeps its first copy and
// is an input problem), with the file's read outcome. Every reader of the file (InstanceIDs,
// InstancesGap, the instance's evidence, CloudTrail, IAM, scan) uses it; its values must not be
// modified (instances share their fleet-wide strings and tag lists).
type instanceIdx struct {
	list   []*EC2Instance
	byID   map[string]*EC2Instance
	res    readResult
	reason string
	// dups lists the IDs of the later copies of instances listed more than once, in file order.
	dups []string
}

// instanceIndex decodes ec2/describe-instances.json the first time it is called (once, even
// when evidence for several instances is built concurrently) and returns the index.
func (s *Snapshot) instanceIndex() *instanceIdx {
	s.instOnce.Do(func() { s.inst = s.loadInstances() })
	return s.inst
}

func (s *Snapshot) loadInstances() *instanceIdx {
	idx := &instanceIdx{byID: map[string]*EC2Instance{}}
	if s.streamInstances(idx) {
		s.duplicateInstances(idx)
		return idx
	}
	// Not the usual shape, or damaged, denied, missing: the whole-file path judges it, with the
	// same messages, problems and gaps as every other file (its bytes are then read whole).
	idx = &instanceIdx{byID: map[string]*EC2Instance{}}
	idx.res, idx.reason = decodeInto(s, instancesPath, func(o *DescribeInstancesOutput) {
		for _, r := range o.Reservations {
			for k := range r.Instances {
				idx.add(&r.Instances[k])
			}
		}
	})
	s.duplicateInstances(idx)
	return idx
}

// add indexes an instance; one whose ID is indexed already is set aside in dups (the first
// copy is kept, as for an archive member present twice).
func (idx *instanceIdx) add(i *EC2Instance) {
	if _, dup := idx.byID[i.InstanceID]; dup {
		idx.dups = append(idx.dups, i.InstanceID)
		return
	}
	idx.list = append(idx.list, i)
	idx.byID[i.InstanceID] = i
}

// duplicateInstances records, as an input problem of the file, the instances it lists more
// than once: two copies may disagree (one running, one stopped), and which is meant is unknown.
func (s *Snapshot) duplicateInstances(idx *instanceIdx) {
	if len(idx.dups) == 0 {
		return
	}
	ids := slices.Compact(slices.Sorted(slices.Values(idx.dups)))
	more := ""
	if len(ids) > 10 {
		ids, more = ids[:10], fmt.Sprintf(" and %d more", len(ids)-10)
	}
	copies := "1 extra copy"
	if len(idx.dups) > 1 {
		copies = fmt.Sprintf("%d extra copies", len(idx.dups))
	}
	s.problem(instancesPath, fmt.Sprintf("lists %s more than once (%s): the first copy is used, the later ones are ignored", strings.Join(ids, ", ")+more, copies))
}

// streamInstances decodes describe-instances from a reader, one instance at a time, so the
// file's bytes are never held whole: only the instances' fields (EC2Instance) are kept, their
// fleet-wide strings and tag lists shared. It accepts only what the whole-file path accepts
// with the same result (one or more concatenated objects, each with one "Reservations" list of
// reservation objects, each with at most one "Instances" list); on anything else (another shape,
// a parse or read error, a missing file or a source error) it returns false, having added
// nothing, and the caller takes the whole-file path, which names the problem.
func (s *Snapshot) streamInstances(idx *instanceIdx) bool {
	rc, ok, err := s.stream(instancesPath)
	if !ok || err != nil {
		return false
	}
	defer rc.Close()
	var list []*EC2Instance
	dk := newDupKeys()
	defer dk.release()
	next, docs, err := decodeInstances(bufio.NewReaderSize(io.TeeReader(rc, dk), 64<<10), func(i *EC2Instance) { list = append(list, i) })
	if err != nil {
		return false
	}
	if pr := dk.problem(); pr != "" {
		s.problem(instancesPath, pr)
	}
	for _, i := range list {
		idx.add(i)
	}
	s.cutAtPage(instancesPath, next, docs)
	idx.res = readOK
	return true
}

// errNotStreamed stops the streaming decoder at a shape it leaves to the whole-file path.
var errNotStreamed = errors.New("not the usual shape of describe-instances")

// decodeInstances walks the documents of r (Reservations → Instances) and passes each
// instance, decoded alone, to each. It returns the number of documents and the name of the
// next-page token the last one carries (awsPageKeys; "" for none).
func decodeInstances(r io.Reader, each func(*EC2Instance)) (next string, docs int, err error) {
	dec := json.NewDecoder(r)
	in := interner{}
	tags := &tagLists{}
	for {
		t, err := dec.Token()
		if err == io.EOF && docs > 0 {
			return next, docs, nil
		}
		if err != nil {
			return "", docs, err
		}
		if t != json.Delim('{') {
			return "", docs, errNotStreamed
		}
		docs++
		next = ""
		seen, err := walkKey(dec, "Reservations", func(key string) error {
			if !slices.Contains(awsPageKeys, key) {
				return skipValue(dec)
			}
			var tok any
			if err := dec.Decode(&tok); err != nil {
				return err
			}
			if s, ok := tok.(string); ok && s != "" {
				next = key
			}
			return nil
		}, func() error {
			return walkArray(dec, func() error {
				if t, err := dec.Token(); err != nil {
					return err
				} else if t != json.Delim('{') {
					return errNotStreamed
				}
				_, err := walkKey(dec, "Instances", func(string) error { return skipValue(dec) }, func() error {
					return walkArray(dec, func() error {
						i := new(EC2Instance)
						if err := dec.Decode(i); err != nil {
							return err
						}
						in.instance(i)
						i.Tags = tags.share(i.Tags)
						each(i)
						return nil
					})
				})
				return err
			})
		})
		if err != nil {
			return "", docs, err
		}
		if !seen {
			return "", docs, errNotStreamed
		}
	}
}

// walkKey walks the object whose '{' was just read, reading every value with other (which
// skips it or looks at it) but that of key name (matched case-insensitively, as encoding/json
// matches field names), which value reads. It reports whether the key was there; a second
// occurrence is errNotStreamed (the whole-file path then decides, as encoding/json would,
// which one counts).
func walkKey(dec *json.Decoder, name string, other func(key string) error, value func() error) (bool, error) {
	seen := false
	err := walkObject(dec, func(key string) error {
		if !strings.EqualFold(key, name) {
			return other(key)
		}
		if seen {
			return errNotStreamed
		}
		seen = true
		return value()
	})
	return seen, err
}

// walkObject calls field for each key of the object whose '{' was just read; field reads the
// key's value. It reads the closing '}'.
func walkObject(dec *json.Decoder, field func(key string) error) error {
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, ok := t.(string)
		if !ok {
			return errNotStreamed
		}
		if err := field(key); err != nil {
			return err
		}
	}
	_, err := dec.Token() // '}'
	return err
}

// walkArray reads a '[' (anything else, null included, is left to the whole-file path), calls
// elem for each element (elem reads it) and reads the closing ']'.
func walkArray(dec *json.Decoder, elem func() error) error {
	if t, err := dec.Token(); err != nil {
		return err
	} else if t != json.Delim('[') {
		return errNotStreamed
	}
	for dec.More() {
		if err := elem(); err != nil {
			return err
		}
	}
	_, err := dec.Token() // ']'
	return err
}

// skipValue reads one value without keeping it.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// tagLists shares one copy of each distinct tag list: the instances of a node group carry the
// same tags (cluster, node group, launch template, Name), 30 of them are about 1 KiB per
// instance. key is the scratch buffer lists are looked up with.
type tagLists struct {
	lists map[string][]Tag
	key   []byte
}

func (m *tagLists) share(tags []Tag) []Tag {
	if len(tags) == 0 {
		return tags
	}
	m.key = m.key[:0]
	for _, t := range tags {
		m.key = append(append(append(append(m.key, t.Key...), 0), t.Value...), 0)
	}
	if x, ok := m.lists[string(m.key)]; ok { // looked up without copying the key
		return x
	}
	if m.lists == nil {
		m.lists = map[string][]Tag{}
	}
	tags = slices.Clip(tags)
	m.lists[string(m.key)] = tags
	return tags
}
