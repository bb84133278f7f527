package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestFlattenedConsoleKeepsItsOrder: a Bottlerocket console whose line breaks a web page
// collapsed into spaces is read record by record again — systemd's status records ("[  OK  ]",
// "[FAILED]", "Starting …...") and kernel-timed lines each a line — so a bootstrap container
// that failed before multi-user.target was activated did not stop the boot (nothing fails),
// while one after which the boot did not go on still fails runtime.bootstrap-failed; a Kubelet
// that failed to start fails runtime.kubelet-crashloop (systemd's "See …" line under it is a
// line of its own, not the end of the failure's).
func TestFlattenedConsoleKeepsItsOrder(t *testing.T) {
	failed := "         Starting bootstrap container setup...\n" +
		"[FAILED] Failed to start bootstrap container setup.\n" +
		"See 'systemctl status bootstrap-containers@setup.service' for details.\n"
	after := "         Starting Isolates multi-user.target...\n" +
		"[  OK  ] Started Kubelet.\n" +
		"[  OK  ] Reached target Multi-User System.\n" +
		"[   12.345678] host-ctr[491]: time=\"2021-04-14T17:12:12Z\" level=info msg=\"pulled image\"\n"
	before := "[  OK  ] Started Bottlerocket API server.\n" +
		"[  OK  ] Started containerd container runtime.\n" +
		"[  OK  ] Finished Bottlerocket data store migrator.\n" +
		"         Starting Bottlerocket initial configuration...\n" +
		"[    8.123456] sundog[1145]: Requesting settings values\n"
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") + "\n" }
	for _, c := range []struct {
		name, paste, id string
		fails           bool
	}{
		{"boot went on", flat(failed + after), "runtime.bootstrap-failed", false},
		{"boot stopped", flat(before + failed), "runtime.bootstrap-failed", true},
		// systemd's line under the failed kubelet is a line of its own: the Bottlerocket
		// kubelet signature ends at the unit's description
		{"kubelet failed", flat(before + "[FAILED] Failed to start Kubelet.\nSee 'systemctl status kubelet.service' for details.\n"), "runtime.kubelet-crashloop", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, r, _, errOut := analyze(t, c.paste, "-")
			if got := slices.Contains(failing(r), c.id); got != c.fails {
				t.Errorf("%s failing %v, want %v; failing %v\n%s", c.id, got, c.fails, failing(r), errOut)
			}
		})
	}
}
