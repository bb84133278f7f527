package cli

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// unreachableAPI is what kubectl prints instead of an object when the API server cannot be
// reached (red team round 3, F2).
const unreachableAPI = "Unable to connect to the server: dial tcp 10.0.0.5:443: i/o timeout\n"

// snapshotWithKube copies the healthy snapshot and writes text into every kube/ file for which
// only(path) holds (every one when only is nil).
func snapshotWithKube(t *testing.T, text string, only func(rel string) bool) string {
	t.Helper()
	snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	kube := filepath.Join(snap, "kube")
	err := filepath.Walk(kube, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(snap, p)
		if only != nil && !only(filepath.ToSlash(rel)) {
			return nil
		}
		return os.WriteFile(p, []byte(text), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

type policyReportDoc struct {
	Summary struct{ Pass, Fail, Warn, Error, Skip int }
	Results []struct {
		Rule, Result, Message string
		Properties            map[string]string
	}
}

// TestScanClusterAPIUnreachable (red team round 3, F2): a scan whose every kube/ file holds
// kubectl's "Unable to connect to the server" exited 0 and read as all clear in every format.
// Now the scan names the cluster side as unread (errors, the cluster-wide section), exits 3,
// counts a scan error without a new last-success time, and the inconclusive instance is an
// error in JUnit and a result in the PolicyReport / OpenReports.
func TestScanClusterAPIUnreachable(t *testing.T) {
	snap := snapshotWithKube(t, unreachableAPI, nil)
	code, out, errOut := run("scan", "--cluster", "prod", "--snapshot", snap)
	if code != ExitNothingChecked {
		t.Errorf("table: exit %d, want %d (%s)", code, ExitNothingChecked, errOut)
	}
	if strings.Contains(out, "no cluster-wide problem") || !strings.Contains(out, "the cluster-side checks could not run") || !strings.Contains(out, "i/o timeout") {
		t.Errorf("table does not say the cluster side was not read:\n%s", out)
	}
	// the Nodes were never read: not "1 not joined, 0 joined"
	if flat := strings.Join(strings.Fields(out), " "); strings.Contains(flat, "not joined, 0 joined") || !strings.Contains(flat, "1 with no Node known (the cluster's Nodes could not be read)") {
		t.Errorf("table counts the instances as not joined although the Nodes were not read:\n%s", out)
	}

	metrics := filepath.Join(t.TempDir(), "m.prom")
	code, out, _ = run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json", "--metrics-file", metrics)
	var s struct {
		ClusterInconclusive string
		Errors              []string
		DeniedPermissions   []string
		Fleet               struct {
			Summary struct{ Verdicts map[string]int }
		}
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if code != ExitNothingChecked || len(s.Errors) != 1 || !strings.HasPrefix(s.Errors[0], "cluster: ") ||
		!strings.Contains(s.Errors[0], "Unable to connect to the server") || !strings.Contains(s.Errors[0], "kube/nodes.json") ||
		!strings.Contains(s.ClusterInconclusive, "Unable to connect to the server") || len(s.DeniedPermissions) != 0 {
		t.Errorf("json: exit %d %+v", code, s)
	}
	if s.Fleet.Summary.Verdicts["inconclusive"] != 1 {
		t.Errorf("verdicts = %v", s.Fleet.Summary.Verdicts)
	}
	// unjoined is unknown, not 1: an "unjoined > 0" alert must not fire on it
	if b, _ := os.ReadFile(metrics); !strings.Contains(string(b), "eksdoctor_scan_errors 1") || strings.Contains(string(b), "eksdoctor_last_success_timestamp_seconds") ||
		strings.Contains(string(b), "eksdoctor_unjoined_instances") {
		t.Errorf("metrics:\n%s", b)
	}
	code, out, _ = run("why-not-joining", "--all-pending", "--snapshot", snap, "-o", "json")
	var f struct{ NodesUnread string }
	if err := json.Unmarshal([]byte(out), &f); err != nil || code != ExitNothingChecked || !strings.Contains(f.NodesUnread, "i/o timeout") {
		t.Errorf("--all-pending: exit %d %+v %v", code, f, err)
	}

	code, out, _ = run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "junit")
	var j struct {
		Errors int `xml:"errors,attr"`
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name  string    `xml:"name,attr"`
				Error *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	verdictErr := false
	for _, su := range j.Suites {
		for _, c := range su.Cases {
			if su.Name == "instance i-0a1b2c3d4e5f60001" && c.Name == "verdict inconclusive" {
				verdictErr = c.Error != nil
			}
		}
	}
	if code != ExitNothingChecked || !verdictErr || j.Errors < 2 {
		t.Errorf("junit: exit %d, inconclusive verdict an error: %v, errors %d\n%s", code, verdictErr, j.Errors, out)
	}

	for _, kind := range []string{"policyreport", "openreports"} {
		code, out, _ = run("scan", "--cluster", "prod", "--snapshot", snap, "-o", kind)
		var pr policyReportDoc
		if err := yaml.Unmarshal([]byte(out), &pr); err != nil {
			t.Fatal(err)
		}
		instance, cluster := false, false
		for _, r := range pr.Results {
			if r.Rule == "scan.error" && r.Result == "error" {
				instance = instance || r.Properties["instance"] == "i-0a1b2c3d4e5f60001" && strings.Contains(r.Message, "inconclusive")
				cluster = cluster || strings.HasPrefix(r.Message, "cluster: ")
			}
		}
		if code != ExitNothingChecked || !instance || !cluster || pr.Summary.Error < 2 {
			t.Errorf("%s: exit %d, instance result %v, cluster result %v, summary %+v", kind, code, instance, cluster, pr.Summary)
		}
	}

	// --fail-on decides code 1 only: an inconclusive scan exits 3 in a pod too
	if code, _, _ := run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json", "--fail-on", "none"); code != ExitNothingChecked {
		t.Errorf("--fail-on none: exit %d", code)
	}
}

// TestScanClusterNodesDenied: when listing Nodes was refused, the scan names the permission
// and exits 5 (partial), with the error in every format as for an unreachable API.
func TestScanClusterNodesDenied(t *testing.T) {
	forbidden := `Error from server (Forbidden): nodes is forbidden: User "system:serviceaccount:eksdoctor:eksdoctor" cannot list resource "nodes" in API group "" at the cluster scope` + "\n"
	snap := snapshotWithKube(t, forbidden, func(rel string) bool { return rel == "kube/nodes.json" })
	code, out, _ := run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json")
	var s struct {
		Errors, DeniedPermissions []string
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if code != ExitPartial || len(s.Errors) != 1 || !strings.Contains(s.Errors[0], "missing permission kubernetes:nodes/list") ||
		strings.Join(s.DeniedPermissions, ",") != "kubernetes:nodes/list" {
		t.Errorf("exit %d %+v", code, s)
	}
}

// TestScanHealthyClusterHasNoError: a readable cluster keeps "no cluster-wide problem", no
// error and exit 0 (the check above does not fire on a healthy snapshot).
func TestScanHealthyClusterHasNoError(t *testing.T) {
	code, out, _ := run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	if code != ExitOK || !strings.Contains(out, "no cluster-wide problem") || strings.Contains(out, "error:") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// TestLiveScanUnusableClusterCA (red team round 3, F2, live): the cluster's CA could not be
// used, so no Kubernetes client was built ("cluster-side checks are skipped" on stderr only);
// the scan said errors [], scan_errors 0 and advanced last-success. It is an error of the scan,
// exit 3, as for a snapshot whose API was unreachable.
func TestLiveScanUnusableClusterCA(t *testing.T) {
	snap := withoutKube(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	p := filepath.Join(snap, "eks", "describe-cluster.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var dc map[string]map[string]any
	if err := json.Unmarshal(b, &dc); err != nil {
		t.Fatal(err)
	}
	dc["cluster"]["certificateAuthority"] = map[string]any{"data": "%%% not base64 %%%"}
	if b, err = json.Marshal(dc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	liveEnv(t, snap, nil)
	metrics := filepath.Join(t.TempDir(), "m.prom")
	code, out, errOut := run("scan", "--cluster", "prod", "-o", "json", "--metrics-file", metrics)
	if !strings.Contains(errOut, "cluster-side checks are skipped") {
		t.Fatalf("the client was built (the test would reach the network): %s", errOut)
	}
	var s struct{ Errors []string }
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if code != ExitNothingChecked || len(s.Errors) != 1 || !strings.HasPrefix(s.Errors[0], "cluster: ") || !strings.Contains(s.Errors[0], "not base64") {
		t.Errorf("exit %d %+v (%s)", code, s, errOut)
	}
	if b, _ := os.ReadFile(metrics); !strings.Contains(string(b), "eksdoctor_scan_errors 1") || strings.Contains(string(b), "eksdoctor_last_success_timestamp_seconds") {
		t.Errorf("metrics:\n%s", b)
	}
}
