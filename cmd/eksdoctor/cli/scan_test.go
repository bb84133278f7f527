package cli

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

type scanJSON struct {
	Cluster         string
	ClusterFindings []struct{ ID, Status, Message string }
	Fleet           struct {
		Instances []struct {
			Target    struct{ InstanceID string }
			Diagnosis struct{ MostLikelyCause *string }
		}
		Joined []string
	}
	Errors  []string
	Summary struct{ ClusterFail, Unjoined, Failing, Joined int }
}

func TestScanSnapshot(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "nodegroup-asg-launch-failures")
	metrics := filepath.Join(t.TempDir(), "eksdoctor.prom")
	code, out, errOut := run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json", "--metrics-file", metrics)
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s scanJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range s.ClusterFindings {
		found = found || f.ID == "nodegroup.asg-launch-failures" && f.Status == "fail"
		if f.ID == "auth.role-not-mapped" {
			t.Errorf("instance check %s evaluated cluster-wide", f.ID)
		}
	}
	if !found || s.Summary.ClusterFail != 1 || s.Summary.Joined != 1 || s.Summary.Unjoined != 0 {
		t.Errorf("scan = %+v", s.Summary)
	}
	f, err := os.Open(metrics)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(f)
	if err != nil {
		t.Fatalf("metrics do not parse: %v", err)
	}
	for _, name := range []string{"eksdoctor_findings", "eksdoctor_unjoined_instances", "eksdoctor_scan_duration_seconds", "eksdoctor_scan_errors", "eksdoctor_last_success_timestamp_seconds", "eksdoctor_build_info"} {
		if families[name] == nil {
			t.Errorf("metric %s missing", name)
		}
	}
	failing := 0.0
	for _, m := range families["eksdoctor_findings"].Metric {
		labels := map[string]string{}
		for _, l := range m.Label {
			labels[l.GetName()] = l.GetValue()
		}
		if labels["check"] == "nodegroup.asg-launch-failures" && labels["status"] == "fail" && labels["severity"] == "critical" && len(labels) == 3 {
			failing = m.Gauge.GetValue()
		}
	}
	if failing != 1 {
		t.Errorf("eksdoctor_findings{check=nodegroup.asg-launch-failures,status=fail} = %v", failing)
	}
	lintMetrics(t, metrics)
}

// lintMetrics runs the client library's own linter (promlint) over a metrics file.
func lintMetrics(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	problems, err := promlint.New(f).Lint()
	if err != nil {
		t.Fatalf("promlint: %v", err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
}

func TestScanUnjoinedAndJUnit(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "auth-role-not-mapped")
	code, out, _ := run("scan", "--snapshot", snap, "-o", "json")
	var s scanJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != ExitFindings {
		t.Fatalf("exit %d: %v", code, err)
	}
	if len(s.Fleet.Instances) != 1 || s.Fleet.Instances[0].Diagnosis.MostLikelyCause == nil || *s.Fleet.Instances[0].Diagnosis.MostLikelyCause != "auth.role-not-mapped" {
		t.Fatalf("fleet = %+v", s.Fleet)
	}
	_, x, _ := run("scan", "--snapshot", snap, "-o", "junit")
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(x), &suites); err != nil {
		t.Fatalf("junit: %v\n%s", err, x)
	}
	if len(suites.Suites) != 2 || suites.Failures < 1 || !strings.HasPrefix(suites.Suites[1].Name, "instance i-") {
		t.Errorf("junit suites %d failures %d", len(suites.Suites), suites.Failures)
	}
	if code, _, _ := run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", "healthy-al2023"), "-o", "junit"); code != ExitOK {
		t.Errorf("healthy scan exit %d", code)
	}
	if code, _, errOut := run("scan", "--snapshot", snap, "-o", "yaml"); code != ExitUsage || !strings.Contains(errOut, "junit") {
		t.Errorf("bad output: %d %s", code, errOut)
	}
}

func TestScanFailOn(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "nodegroup-asg-launch-failures") // one critical failure
	for _, c := range []struct {
		args []string
		want int
	}{
		{nil, ExitFindings},
		{[]string{"--fail-on", "any"}, ExitFindings},
		{[]string{"--fail-on", "critical"}, ExitFindings},
		{[]string{"--fail-on", "none"}, ExitOK},
		{[]string{"--in-cluster"}, ExitOK}, // a Job does not fail because of findings
		{[]string{"--in-cluster", "--fail-on", "high"}, ExitFindings},
		{[]string{"--fail-on", "severe"}, ExitUsage},
	} {
		args := append([]string{"scan", "--cluster", "prod", "--snapshot", snap, "-o", "json"}, c.args...)
		if code, _, errOut := run(args...); code != c.want {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.want, errOut)
		}
	}
	s := &report.Scan{Fleet: &report.Fleet{}, ClusterFindings: []checks.Finding{{ID: "subnet.free-ips", Status: checks.StatusFail, Severity: checks.SeverityMedium}}}
	s.Summarize()
	for failOn, want := range map[string]bool{"any": true, "none": false, "critical": false, "high": false, "medium": true, "low": true} {
		if got := failsOn(s, failOn); got != want {
			t.Errorf("failsOn(medium failure, %s) = %v", failOn, got)
		}
	}
}

// TestScanPublicationFailureExits6 asks for a metrics file in a folder that does not exist: the
// report is written, stderr says why, and the exit code is ExitPublish in every output format,
// even with --exit-zero.
func TestScanPublicationFailureExits6(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "healthy-al2023")
	bad := filepath.Join(t.TempDir(), "missing", "eksdoctor.prom")
	for _, format := range []string{"table", "json", "markdown", "junit", "policyreport", "openreports"} {
		code, out, errOut := run("scan", "--snapshot", snap, "-o", format, "--metrics-file", bad, "--exit-zero")
		if code != ExitPublish || !strings.Contains(errOut, "publishing the metrics file failed") || !strings.Contains(errOut, "no such file") || out == "" {
			t.Errorf("-o %s: exit %d, stderr %q", format, code, errOut)
		}
	}
	code, _, errOut := run("scan", "--snapshot", snap, "--pushgateway", "http://127.0.0.1:1", "-o", "json")
	if code != ExitPublish || !strings.Contains(errOut, "publishing the Pushgateway push failed") {
		t.Errorf("unreachable Pushgateway: exit %d, stderr %q", code, errOut)
	}
}
