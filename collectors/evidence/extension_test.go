package evidence

import "testing"

// TestRegisteredKindCarriesItsValue: a kind declared in a file of its own joins AllKinds (once),
// its typed value travels in the Evidence through Put and Get, and a Get of another type or of
// an unset kind says so.
func TestRegisteredKindCarriesItsValue(t *testing.T) {
	type volume struct {
		ID      string
		SizeGiB int32
	}
	const k Kind = "test:volumes"
	n := len(AllKinds)
	defer func() { AllKinds = AllKinds[:n] }()
	RegisterKind(k)
	RegisterKind(k)
	if len(AllKinds) != n+1 || AllKinds[n] != k {
		t.Fatalf("AllKinds grew by %d", len(AllKinds)-n)
	}
	ev := &Evidence{}
	if _, ok := Get[[]volume](ev, k); ok {
		t.Fatal("value before Put")
	}
	Put(ev, k, []volume{{"vol-0a1b", 20}})
	v, ok := Get[[]volume](ev, k)
	if !ok || len(v) != 1 || v[0].SizeGiB != 20 {
		t.Fatalf("Get = %v %v", v, ok)
	}
	if _, ok := Get[string](ev, k); ok {
		t.Fatal("Get of the wrong type succeeded")
	}
}
