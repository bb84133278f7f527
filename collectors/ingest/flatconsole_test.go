package ingest

import (
	"strings"
	"testing"
)

// TestFlattenedConsoleIsUnjoined: console output whose line breaks were collapsed into spaces
// is cut before each systemd status record ("[  OK  ]", "[FAILED]", "Starting …...", "See
// 'systemctl status …' for details.") and each line timed since boot, the pieces keeping the line's number; a sentence that starts with
// "Starting" and mentions "[  OK  ]" twice is no console and is kept whole.
func TestFlattenedConsoleIsUnjoined(t *testing.T) {
	records := []string{
		"Starting bootstrap container setup...",
		"[FAILED] Failed to start bootstrap container setup.",
		"See 'systemctl status bootstrap-containers@setup.service' for details.",
		"Starting Isolates multi-user.target...",
		"[  OK  ] Started Kubelet.",
		"[  OK  ] Reached target Multi-User System.",
		`[  103.384903] host-ctr[491]: time="2021-04-14T17:12:12Z" level=fatal msg="retries exhausted"`,
	}
	got := unjoin([]line{{1, "before"}, {2, strings.Join(records, " ")}})
	if len(got) != len(records)+1 {
		t.Fatalf("unjoin gave %d lines, want %d: %+v", len(got), len(records)+1, got)
	}
	for i, r := range records {
		if got[i+1].text != r || got[i+1].n != 2 {
			t.Errorf("piece %d = %d %q, want 2 %q", i, got[i+1].n, got[i+1].text, r)
		}
	}
	prose := "We see the nodes come up and then fail when the kubelet starts, every time since the upgrade to 1.29 of the control plane last week. " +
		"Starting the node by hand shows [  OK  ] for every unit and [  OK  ] again for the kubelet itself, then it hangs for minutes before it is killed by the health check of the group."
	if got := unjoin([]line{{1, prose}}); len(got) != 1 {
		t.Errorf("prose was cut: %+v", got)
	}
}
