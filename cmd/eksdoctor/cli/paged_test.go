package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// addTopKey writes the JSON object at path with key set to the string value at its top level.
func addTopKey(t *testing.T, path, key, value string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m[key] = value
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPagedAccessEntriesAreInconclusive (red team round 3, F3): list-access-entries saved with a
// nextToken in an API_AND_CONFIG_MAP cluster whose aws-auth does not map the node role: the
// node role's entry may be on the page not read, so auth.role-not-mapped does not fail, the run
// is inconclusive (exit 3) and the input problem names the file and the token.
func TestPagedAccessEntriesAreInconclusive(t *testing.T) {
	snap := copyDir(t, filepath.Join(fixtures, "snapshots", "auth-role-not-mapped"))
	dc := filepath.Join(snap, "eks", "describe-cluster.json")
	b, err := os.ReadFile(dc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dc, bytes.Replace(b, []byte(`"CONFIG_MAP"`), []byte(`"API_AND_CONFIG_MAP"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	id := "i-0a1b2c3d4e5f60005"
	if code, _, errOut := run("why-not-joining", id, "--snapshot", snap, "-o", "json"); code != ExitFindings {
		t.Fatalf("without a token: exit %d, want %d (%s)", code, ExitFindings, errOut)
	}
	addTopKey(t, filepath.Join(snap, "eks", "list-access-entries.json"), "nextToken", "eyJuZXh0IjoyfQ==")
	code, out, errOut := run("why-not-joining", id, "--snapshot", snap, "-o", "json")
	if code != ExitNothingChecked {
		t.Errorf("exit %d, want %d (%s)", code, ExitNothingChecked, errOut)
	}
	if status, msg := findingOf(t, out, "auth.role-not-mapped"); status == "fail" {
		t.Errorf("auth.role-not-mapped fails on a cut list: %s", msg)
	}
	var r struct {
		Diagnosis     struct{ Verdict string }
		InputProblems []struct{ Path, Problem string }
		Gaps          []struct{ Kind, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Diagnosis.Verdict != "inconclusive" {
		t.Errorf("verdict %s", r.Diagnosis.Verdict)
	}
	found := false
	for _, p := range r.InputProblems {
		found = found || p.Path == "eks/list-access-entries.json" && strings.Contains(p.Problem, "lists only the first page (nextToken present)")
	}
	if !found {
		t.Errorf("input problems %+v", r.InputProblems)
	}
}

// TestPagedInstancesScanIsInconclusive: a scan whose describe-instances stops at a page cannot
// say every instance of the cluster joined: the fleet says the list is cut (JSON "incomplete",
// a line in the text) and the run exits 3, not 0.
func TestPagedInstancesScanIsInconclusive(t *testing.T) {
	snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	addTopKey(t, filepath.Join(snap, "ec2", "describe-instances.json"), "NextToken", "AAAApage2")
	code, out, errOut := run("scan", "--snapshot", snap, "-o", "json")
	if code != ExitNothingChecked {
		t.Errorf("exit %d, want %d (%s)", code, ExitNothingChecked, errOut)
	}
	var s struct{ Fleet struct{ Incomplete string } }
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.Fleet.Incomplete, "ec2/describe-instances.json lists only the first page (NextToken present)") {
		t.Errorf("fleet incomplete = %q", s.Fleet.Incomplete)
	}
	_, text, _ := run("scan", "--snapshot", snap)
	if strings.Contains(text, "Every instance of the cluster has a Node object") || !strings.Contains(text, "lists only the first page (NextToken present)") {
		t.Errorf("scan text:\n%s", text)
	}
	code, out, _ = run("why-not-joining", "--all-pending", "--snapshot", snap, "-o", "json")
	if code != ExitNothingChecked || !strings.Contains(out, `"incomplete": "ec2/describe-instances.json lists only the first page`) {
		t.Errorf("why-not-joining --all-pending: exit %d\n%s", code, out)
	}
}

// TestPagedInstancesJUnitHasAnError: the cut instance list is an error case in the scan's and
// the fleet's JUnit, so CI does not see a green run.
func TestPagedInstancesJUnitHasAnError(t *testing.T) {
	snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	addTopKey(t, filepath.Join(snap, "ec2", "describe-instances.json"), "NextToken", "AAAApage2")
	for _, args := range [][]string{{"scan"}, {"why-not-joining", "--all-pending"}} {
		code, out, _ := run(append(args, "--snapshot", snap, "-o", "junit")...)
		if code != ExitNothingChecked || !strings.Contains(out, `name="instances not listed"`) || !strings.Contains(out, "lists only the first page (NextToken present)") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
}
