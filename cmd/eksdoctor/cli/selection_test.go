package cli

import (
	"strings"
	"testing"
)

// TestSelectionLeavingJoinPathOutIsInconclusive: a --checks selection that leaves checks of the
// join path out cannot say "no cause found": one "Attempting to register node" line with
// --checks 'runtime.*' printed "No cause found. Every check of the join path ran and none
// failed.", exit 0, though no join-path check was selected and the log checks' silence proves
// nothing (red team 8b #20). It is inconclusive (exit 3), naming the checks the selection left
// out; a failure among the selected checks is still a cause.
func TestSelectionLeavingJoinPathOutIsInconclusive(t *testing.T) {
	const attempt = `Nov 24 10:00:01 ip-10-0-1-23.ec2.internal kubelet[2345]: I1124 10:00:01.123456    2345 kubelet_node_status.go:73] "Attempting to register node" node="ip-10-0-1-23.ec2.internal"` + "\n"
	const unauthorized = `Nov 24 10:00:02 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:00:02.123456    2345 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-23.ec2.internal"` + "\n"
	for _, sel := range []string{"runtime.*", "runtime.unauthorized", "runtime.*,auth.role-path"} {
		t.Run(sel, func(t *testing.T) {
			code, r, _, stderr := analyze(t, attempt, "-", "--checks", sel)
			if code != ExitNothingChecked || r.Diagnosis.Verdict != "inconclusive" {
				t.Fatalf("exit %d verdict %q, want 3 inconclusive: %s", code, r.Diagnosis.Verdict, stderr)
			}
			var left []string
			for _, u := range r.Diagnosis.Unchecked {
				if strings.Contains(u.Reason, "not selected (--checks)") {
					left = append(left, u.ID)
				}
			}
			if len(left) == 0 {
				t.Fatalf("no unchecked check names the selection: %+v", r.Diagnosis.Unchecked)
			}
			for _, id := range left {
				if strings.HasPrefix(id, "runtime.") {
					t.Errorf("selected check %s listed as not selected", id)
				}
			}
			if !strings.Contains(r.Diagnosis.Summary, "--checks") {
				t.Errorf("summary does not name the selection: %s", r.Diagnosis.Summary)
			}
			code, out, _ := runStdin(strings.NewReader(attempt), "analyze", "-", "--checks", sel)
			if code != ExitNothingChecked || strings.Contains(out, "Every check of the join path ran") || !strings.Contains(out, "--checks") {
				t.Errorf("table (exit %d):\n%s", code, out)
			}
			code, out, _ = runStdin(strings.NewReader(attempt), "analyze", "-", "-o", "markdown", "--checks", sel)
			if code != ExitNothingChecked || strings.Contains(out, "Every check of the join path ran") || !strings.Contains(out, "--checks") {
				t.Errorf("markdown (exit %d):\n%s", code, out)
			}
		})
	}
	// a failure among the selected checks is still the cause
	code, r, _, stderr := analyze(t, attempt+unauthorized, "-", "--checks", "runtime.*")
	if code != ExitFindings || r.Diagnosis.Verdict != "cause-found" || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.unauthorized" {
		t.Fatalf("exit %d verdict %q: %s", code, r.Diagnosis.Verdict, stderr)
	}
}
