package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestFlattenedEventListingKeepsItsAges: a `kubectl describe pod` event listing whose line
// breaks a web page collapsed into spaces is read row by row again, so the ages still tell a
// CNI series that stopped minutes ago (the node came up: nothing fails) from one that goes on
// (runtime.cni-not-ready fails).
func TestFlattenedEventListingKeepsItsAges(t *testing.T) {
	listing := func(age, over string) string {
		rows := "Events:\n  Type     Reason                  Age                    From               Message\n  ----     ------                  ----                   ----               -------\n" +
			"  Normal   Scheduled               3m24s                  default-scheduler  Successfully assigned kube-system/nvidia-device-plugin-daemonset-8mkh8 to ip-10-20-128-82.eu-west-1.compute.internal\n" +
			"  Warning  NetworkNotReady         " + age + " (x6 over " + over + ")  kubelet            network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\n" +
			"  Normal   SandboxChanged          3m11s                  kubelet            Pod sandbox changed, it will be killed and re-created.\n"
		return strings.Join(strings.Fields(rows), " ") + "\n"
	}
	for _, c := range []struct {
		name, paste string
		fails       bool
	}{
		{"series ended", listing("3m14s", "3m23s"), false},
		{"series goes on", listing("4s", "3m23s"), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, r, _, errOut := analyze(t, c.paste, "-")
			if got := slices.Contains(failing(r), "runtime.cni-not-ready"); got != c.fails {
				t.Errorf("runtime.cni-not-ready failing %v, want %v; failing %v\n%s", got, c.fails, failing(r), errOut)
			}
		})
	}
}
