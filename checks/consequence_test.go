package checks

import (
	"reflect"
	"testing"
)

// TestConsequenceCauses: the causes a consequence message names are read back; other messages
// name none.
func TestConsequenceCauses(t *testing.T) {
	msg := ConsequencePrefix + "runtime.tls-untrusted, runtime.bootstrap-failed"
	if got, want := ConsequenceCauses(msg), []string{"runtime.tls-untrusted", "runtime.bootstrap-failed"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ConsequenceCauses(%q) = %v, want %v", msg, got, want)
	}
	if got := ConsequenceCauses("no kubelet line was read"); got != nil {
		t.Errorf("a skip reason read as causes %v", got)
	}
}
