package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestPolicyReportNamesInconclusiveInstancesAndTheCut (red team round 3, F2): of 3,000
// instances that could not be judged, the ClusterPolicyReport named none (their findings are
// all skipped). Each now has a scan.error result with its instance, the scan's errors come
// before the instances', and when the bound of one object cuts results, the last one says how
// many were left out.
func TestPolicyReportNamesInconclusiveInstancesAndTheCut(t *testing.T) {
	f := &Fleet{Cluster: "prod"}
	for i := 0; i < 3000; i++ {
		r := &Report{Target: evidence.Target{InstanceID: fmt.Sprintf("i-%017d", i)}, Findings: []checks.Finding{{ID: "auth.role-not-mapped", Status: checks.StatusSkipped}}}
		r.Diagnosis.Verdict = checks.VerdictInconclusive
		r.Diagnosis.Summary = "inconclusive: no check failed, but 3 checks of the join path could not run"
		f.Instances = append(f.Instances, r)
	}
	f.Summarize()
	s := &Scan{Cluster: "prod", Fleet: f, Errors: []string{"cluster: the Kubernetes API could not be read"}}
	s.Summarize()
	pr := PolicyReport(s)
	if len(pr.Results) != maxPolicyReportResults {
		t.Fatalf("%d results, want %d", len(pr.Results), maxPolicyReportResults)
	}
	first, last := pr.Results[0], pr.Results[len(pr.Results)-1]
	if first.Rule != "scan.error" || first.Result != "error" || !strings.HasPrefix(first.Message, "cluster: ") {
		t.Errorf("first result %+v", first)
	}
	if r := pr.Results[1]; r.Rule != "scan.error" || r.Result != "error" || r.Properties["instance"] != "i-00000000000000000" || !strings.HasPrefix(r.Message, "inconclusive: ") {
		t.Errorf("an inconclusive instance's result %+v", r)
	}
	left := 3000 + 1 - (maxPolicyReportResults - 1)
	if last.Rule != "scan.error" || !strings.HasPrefix(last.Message, fmt.Sprintf("%d more results left out", left)) {
		t.Errorf("last result %+v", last)
	}
	if pr.Summary.Error != maxPolicyReportResults {
		t.Errorf("summary %+v", pr.Summary)
	}
}
