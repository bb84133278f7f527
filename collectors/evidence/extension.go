package evidence

import "sync"

// RegisterKind adds a kind to AllKinds; call it from an init function of the file that declares
// the kind and its typed value (docs/design.md, "Adding an AWS evidence kind"), so a new kind
// touches no shared file of this package. Registering a kind twice is a no-op.
func RegisterKind(k Kind) {
	for _, x := range AllKinds {
		if x == k {
			return
		}
	}
	AllKinds = append(AllKinds, k)
}

// Put stores the typed value of a kind declared outside the Evidence struct (a kind added with
// RegisterKind); providers call it, then Mark. A later Put replaces the value.
func Put[T any](e *Evidence, k Kind, v T) {
	e.extraMu.Lock()
	defer e.extraMu.Unlock()
	if e.extra == nil {
		e.extra = map[Kind]any{}
	}
	e.extra[k] = v
}

// Get returns the value Put stored for kind k; ok is false when none was stored or it is not a
// T. Checks read a registered kind's value with it (after Meta.Needs made sure it was collected).
func Get[T any](e *Evidence, k Kind) (v T, ok bool) {
	e.extraMu.Lock()
	defer e.extraMu.Unlock()
	v, ok = e.extra[k].(T)
	return v, ok
}

// extension holds the values of registered kinds; embedded in Evidence.
type extension struct {
	extraMu sync.Mutex
	extra   map[Kind]any
}
