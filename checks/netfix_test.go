package checks

import "testing"

func TestFreeRuleBelow(t *testing.T) {
	taken := map[int]bool{90: true, 89: true, 100: true, 32767: true}
	if got := freeRuleBelow(taken, 90); got != 88 {
		t.Errorf("below 90 = %d, want 88 (89 is taken)", got)
	}
	if got := freeRuleBelow(map[int]bool{1: true}, 1); got != 0 {
		t.Errorf("below 1 = %d, want 0 (none free)", got)
	}
	if got := freeRuleBelow(taken, 0); got != 110 {
		t.Errorf("before the final * rule = %d, want 110", got)
	}
}
