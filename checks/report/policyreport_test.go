package report

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

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

// TestReportObjectsEscapeYAMLForbiddenCharacters: a log value holding a character YAML 1.2
// leaves out of its printable set (C0 but tab, LF and CR; DEL; C1 but NEL; U+FFFE, U+FFFF; a
// lone byte of invalid UTF-8) still gives a ClusterPolicyReport and a ClusterReport that
// serialise to YAML, with the character written as a visible escape in the message.
func TestReportObjectsEscapeYAMLForbiddenCharacters(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\ufffe", `\ufffe`}, {"\uffff", `\uffff`}, {"\x01", `\x01`}, {"\x1b", `\x1b`},
		{"\x7f", `\x7f`}, {"\u0080", `\u0080`}, {"\u009f", `\u009f`}, {"\xff", `\xff`},
	} {
		node := "ip-10-0-12-34" + c.in
		s := &Scan{Cluster: "prod", Fleet: &Fleet{}, ClusterFindings: []checks.Finding{{
			ID: "runtime.unauthorized", Status: checks.StatusFail, Severity: checks.SeverityCritical,
			Message: `node "` + node + `" is Unauthorized`, Resource: node,
		}}}
		for kind, obj := range map[string]any{"policyreport": PolicyReport(s), "openreports": OpenReport(s)} {
			b, err := yaml.Marshal(obj)
			if err != nil {
				t.Fatalf("%s with %q: %v", kind, c.in, err)
			}
			if !strings.Contains(string(b), `ip-10-0-12-34`+strings.ReplaceAll(c.want, `\`, `\\`)) && !strings.Contains(string(b), "ip-10-0-12-34"+c.want) {
				t.Errorf("%s with %q: no %s in\n%s", kind, c.in, c.want, b)
			}
			var back map[string]any
			if err := yaml.Unmarshal(b, &back); err != nil {
				t.Errorf("%s with %q does not read back: %v", kind, c.in, err)
			}
		}
	}
}
