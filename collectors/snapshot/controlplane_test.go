package snapshot

import (
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// authenticatorEvents is `aws logs filter-log-events` output holding authenticator lines as
// aws-iam-authenticator's logrus writes them (pkg/server/server.go, "access denied").
func authenticatorEvents(t *testing.T, lines ...string) []byte {
	t.Helper()
	var out struct {
		Events []map[string]any `json:"events"`
	}
	for i, l := range lines {
		out.Events = append(out.Events, map[string]any{"logStreamName": "authenticator-0123", "timestamp": 1795600000000 + int64(i)*1000, "message": l})
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func findingOf(ev *evidence.Evidence, id string) checks.Finding {
	for _, f := range checks.Run(checks.All(), ev) {
		if f.ID == id {
			return f
		}
	}
	return checks.Finding{}
}

// TestAuthenticatorEventsNameTheDeniedNodeRole: the authenticator's denial of the instance's
// role in the control plane's log fails auth.authenticator-denied with the ARN and the reason;
// a denial of a person's role is not this node's problem.
func TestAuthenticatorEventsNameTheDeniedNodeRole(t *testing.T) {
	node := `time="2026-11-20T09:40:00Z" level=warning msg="access denied" arn="arn:aws:iam::111122223333:role/prod-node-role" client="127.0.0.1:40378" error="identity is not mapped" method=POST path=/authenticate`
	person := `time="2026-11-20T09:40:01Z" level=warning msg="access denied" arn="arn:aws:iam::111122223333:role/alice-admin" client="127.0.0.1:40379" error="identity is not mapped" method=POST path=/authenticate`
	for _, tc := range []struct {
		name  string
		lines []string
		fails bool
	}{{"node role", []string{node, node}, true}, {"someone else", []string{person, person}, false}} {
		t.Run(tc.name, func(t *testing.T) {
			files := fixtureFiles(t, hostileFixture)
			files[authenticatorEventsPath] = authenticatorEvents(t, tc.lines...)
			ev, err := FromFiles("snapshot", files).Evidence("i-0a1b2c3d4e5f60001", "")
			if err != nil {
				t.Fatal(err)
			}
			f := findingOf(ev, "auth.authenticator-denied")
			if failed := f.Status == checks.StatusFail; failed != tc.fails {
				t.Fatalf("auth.authenticator-denied %s: %s", f.Status, f.Message)
			}
			quoted, _ := json.Marshal(f)
			if tc.fails && (!strings.Contains(string(quoted), "prod-node-role") || !strings.Contains(string(quoted), "identity is not mapped")) {
				t.Errorf("the finding does not quote the ARN and the reason: %s", quoted)
			}
			if tc.fails && !strings.Contains(ev.Source(evidence.KindNodeLogs), authenticatorEventsPath) {
				t.Errorf("node-log source %q does not name %s", ev.Source(evidence.KindNodeLogs), authenticatorEventsPath)
			}
		})
	}
}

// TestControlPlaneLoggingGapHeldOnce: the cluster's logging gap (a 200-byte command) is the
// same for every instance of a fleet, and held once, not once per instance report.
func TestControlPlaneLoggingGapHeldOnce(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files[instancesPath] = largeInstances(t, 2)
	s := FromFiles("mem", files)
	var reasons []string
	for _, id := range s.InstanceIDs() {
		ev, err := s.Evidence(id, "")
		if err != nil {
			t.Fatal(err)
		}
		reasons = append(reasons, ev.GapFor(evidence.KindControlPlaneLogs).Reason)
	}
	if !strings.Contains(reasons[0], "logging is off") || reasons[0] != reasons[1] {
		t.Fatalf("gaps %q", reasons)
	}
	if unsafe.StringData(reasons[0]) != unsafe.StringData(reasons[1]) {
		t.Errorf("the gap %q is held once per instance", reasons[0])
	}
}
