package cli

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	for _, name := range []string{"eksdoctor_findings", "eksdoctor_unjoined_instances", "eksdoctor_scan_duration_seconds", "eksdoctor_scan_errors"} {
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
		if labels["check"] == "nodegroup.asg-launch-failures" && labels["status"] == "fail" && labels["cluster"] == "prod" && labels["severity"] == "critical" {
			failing = m.Gauge.GetValue()
		}
	}
	if failing != 1 {
		t.Errorf("eksdoctor_findings{check=nodegroup.asg-launch-failures,status=fail} = %v", failing)
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
