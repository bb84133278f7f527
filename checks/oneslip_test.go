package checks

import "testing"

// TestOneSlip: one character added, dropped or two adjacent swapped is a slip; a replaced
// character, two edits or equal names are not.
func TestOneSlip(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"new_nodegroup_3", "xnew_nodegroup_3", true},
		{"new_nodegroup_3", "new_nodegroup_", true},
		{"new_nodegroup_3", "new_nodegroup3", true},
		{"new_nodegroup_3", "enw_nodegroup_3", true},
		{"new_nodegroup_3", "new_nodegroup_3", false},
		{"new_nodegroup_3", "new_nodegroup_2", false},
		{"new_nodegroup_3", "xnew_nodegroup_", false},
		{"abc", "", false},
	} {
		if got := oneSlip(c.a, c.b); got != c.want {
			t.Errorf("oneSlip(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
