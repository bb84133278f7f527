package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks/report"
)

// textCase is one text rendering of a fixture: its arguments and golden file.
type textCase struct {
	name, golden string
	args         []string
}

// textCases renders every snapshot scenario, every bundle, the fleet and the scan as tables.
func textCases(t *testing.T) []textCase {
	var out []textCase
	for _, sc := range loadScenarios(t) {
		out = append(out, textCase{sc.Name, filepath.Join(fixtures, "golden", "text", sc.Name+".txt"),
			[]string{"why-not-joining", sc.InstanceID, "--snapshot", filepath.Join(fixtures, "snapshots", sc.Name)}})
	}
	for _, sc := range bundleScenarios(t) {
		out = append(out, textCase{"bundle-" + sc.Name, filepath.Join(fixtures, "golden", "bundles", "text", sc.Name+".txt"),
			[]string{"analyze", filepath.Join(fixtures, "bundles", sc.File)}})
	}
	snap := filepath.Join(fixtures, "snapshots", "nodegroup-asg-launch-failures")
	out = append(out,
		textCase{"fleet", filepath.Join(fixtures, "golden", "text", "fleet-nodegroup-asg-launch-failures.txt"), []string{"why-not-joining", "--all-pending", "--snapshot", snap}},
		textCase{"scan", filepath.Join(fixtures, "golden", "text", "scan-nodegroup-asg-launch-failures.txt"), []string{"scan", "--snapshot", snap}})
	return out
}

// singularPlural finds a count of one with a plural noun ("1 warnings").
var singularPlural = regexp.MustCompile(`(?:^|[^0-9.])1 (?:checks|warnings|errors|lines|instances|peers|entries|failures)\b`)

// overWide returns the lines of out wider than width (visible columns, colour excluded).
func overWide(out string, width int) []string {
	var bad []string
	for i, l := range strings.Split(out, "\n") {
		if w := report.VisibleWidth(l); w > width {
			bad = append(bad, fmt.Sprintf("line %d is %d columns: %s", i+1, w, l))
		}
	}
	return bad
}

// TestTextGolden: the table output of every golden scenario (snapshots, bundles, the fleet and
// the scan) matches its golden text and, under COLUMNS=100, no line is wider than 100 columns.
func TestTextGolden(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	for _, tc := range textCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			_, out, errOut := run(tc.args...)
			if !strings.Contains(out, "check") && !strings.Contains(out, "Instances") {
				t.Fatalf("no report: %s %s", out, errOut)
			}
			for _, b := range overWide(out, 100) {
				t.Error(b)
			}
			for _, bad := range []string{"()", " : ", "(s)", "\x1b["} {
				if strings.Contains(out, bad) {
					t.Errorf("output holds %q", bad)
				}
			}
			if m := singularPlural.FindString(out); m != "" {
				t.Errorf("output holds %q", m)
			}
			checkGolden(t, tc.golden, out)
		})
	}
}

// TestTextFitsNarrowTerminals: at 72 and 60 columns, with --all (every finding and gap listed),
// every line still fits.
func TestTextFitsNarrowTerminals(t *testing.T) {
	for _, width := range []int{72, 60} {
		t.Setenv("COLUMNS", fmt.Sprint(width))
		for _, tc := range textCases(t) {
			_, out, _ := run(append(tc.args, "--all")...)
			for _, b := range overWide(out, width) {
				t.Errorf("%s at %d columns: %s", tc.name, width, b)
			}
		}
	}
}

// TestTextCountsAddUp: the closing line counts checks, not findings, and its parts add up.
func TestTextCountsAddUp(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	re := regexp.MustCompile(`(\d+) checks?: (\d+) failed, (\d+) warnings?, (\d+) passed, (\d+) skipped(?:, (\d+) errors?)?`)
	for _, tc := range textCases(t) {
		if tc.name == "fleet" || tc.name == "scan" {
			continue
		}
		_, out, _ := run(tc.args...)
		m := re.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no count line", tc.name)
		}
		var v [6]int
		for i := range v {
			v[i], _ = strconv.Atoi(m[i+1])
		}
		if v[0] == 0 || v[1]+v[2]+v[3]+v[4]+v[5] != v[0] {
			t.Errorf("%s: counts do not add up: %s", tc.name, m[0])
		}
	}
}

// TestGapsSummarisedBySource: a bundle's 35 missing AWS and cluster kinds take one line; --all
// lists each.
func TestGapsSummarisedBySource(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	bundles, _ := filepath.Glob(filepath.Join(fixtures, "bundles", "*al2023-healthy.tar.gz"))
	_, out, _ := run("analyze", bundles[0])
	section := out[strings.Index(out, "Evidence not available"):]
	section = section[:strings.Index(section, "\n\n")]
	if got := strings.Count(section, "\n"); got > 3 {
		t.Errorf("gaps take %d lines:\n%s", got, section)
	}
	if !strings.Contains(section, "AWS and cluster evidence kinds: not in a node log bundle") {
		t.Errorf("gaps not summarised by source:\n%s", section)
	}
	_, all, _ := run("analyze", bundles[0], "--all")
	if !strings.Contains(all, "ec2:vpc-endpoints") || !strings.Contains(all, "kube:aws-auth") {
		t.Errorf("--all does not list each gap")
	}
}

// TestCrossCheckWarnings: a bundle cross-checked with a snapshot that does not hold its instance,
// or collected months apart, says so in the report; the cluster's provenance is the node's, not
// a flag nobody gave.
func TestCrossCheckWarnings(t *testing.T) {
	bundles, _ := filepath.Glob(filepath.Join(fixtures, "bundles", "*al2023-healthy.tar.gz"))
	_, r, out, stderr := analyze(t, "", bundles[0], "--snapshot", filepath.Join(fixtures, "snapshots", "net-nacl-blocks"))
	for _, want := range []string{"does not hold instance i-0a1b2c3d4e5f60001", "days apart"} {
		if !strings.Contains(out, want) || !strings.Contains(stderr, want) {
			t.Errorf("no warning %q in the report and on stderr: %s", want, stderr)
		}
	}
	if strings.Contains(out, `"clusterSource": "flag"`) {
		t.Errorf("provenance says flag without --cluster")
	}
	_ = r
}

// TestPasteTimeline: a pasted kubelet log gets its join timeline in JSON, table and Markdown:
// the milestones reached, the failure lines counted, and where the sequence stopped.
func TestPasteTimeline(t *testing.T) {
	paste := strings.Join([]string{
		`I0724 15:29:10.000000    2841 server.go:487] "Kubelet version" kubeletVersion="v1.31.4"`,
		`I0724 15:29:11.000000    2841 kubelet_node_status.go:75] "Attempting to register node" node="ip-10-0-1-2.ec2.internal"`,
		`E0724 15:29:40.000000    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-2.ec2.internal"`,
		`E0724 15:29:50.000000    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-2.ec2.internal"`,
	}, "\n") + "\n"
	var o, e bytes.Buffer
	cmd := NewRootCmd(&o, &e)
	cmd.SetIn(strings.NewReader(paste))
	cmd.SetArgs([]string{"analyze", "-", "-o", "json"})
	_ = cmd.Execute()
	var r struct {
		Timeline *struct {
			Milestones []struct {
				Name    string `json:"name"`
				Reached bool   `json:"reached"`
			} `json:"milestones"`
			Failures []struct {
				Finding string `json:"finding"`
				Status  string `json:"status"`
				Count   int    `json:"count"`
			} `json:"failures"`
			Complete     bool   `json:"complete"`
			StoppedAfter string `json:"stoppedAfter"`
		} `json:"timeline"`
	}
	if err := json.Unmarshal(o.Bytes(), &r); err != nil || r.Timeline == nil {
		t.Fatalf("no timeline (%v): %s", err, o.String())
	}
	reached := map[string]bool{}
	for _, m := range r.Timeline.Milestones {
		reached[m.Name] = m.Reached
	}
	if !reached["kubelet-started"] || !reached["registration-attempt"] || reached["registered"] || r.Timeline.Complete || r.Timeline.StoppedAfter != "registration-attempt" {
		t.Errorf("milestones %v, stopped after %q", reached, r.Timeline.StoppedAfter)
	}
	if len(r.Timeline.Failures) != 1 || r.Timeline.Failures[0].Finding != "runtime.unauthorized" || r.Timeline.Failures[0].Count != 2 || r.Timeline.Failures[0].Status != "fail" {
		t.Errorf("failures %+v", r.Timeline.Failures)
	}
	for format, want := range map[string]string{"table": "  15:29:40  ✗ runtime.unauthorized", "markdown": "- `15:29:11` ✓ first registration attempt (kubelet)"} {
		o.Reset()
		cmd := NewRootCmd(&o, &e)
		cmd.SetIn(strings.NewReader(paste))
		cmd.SetArgs([]string{"analyze", "-", "-o", format})
		_ = cmd.Execute()
		if !strings.Contains(o.String(), want) || !strings.Contains(o.String(), "Stopped after: first registration attempt; failing: runtime.unauthorized (2 lines).") {
			t.Errorf("%s lacks the timeline %q:\n%s", format, want, o.String())
		}
	}
}

// TestScanProvenance: scan without --cluster takes the cluster from the snapshot and says so; no
// instance's report claims a flag.
func TestScanProvenance(t *testing.T) {
	_, out, _ := run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", "auth-role-not-mapped"), "-o", "json")
	if strings.Contains(out, `"clusterSource": "flag"`) || !strings.Contains(out, `"clusterSource": "snapshot manifest"`) {
		t.Errorf("provenance: %s", out[:min(len(out), 2000)])
	}
	_, out, _ = run("scan", "--cluster", "prod", "--snapshot", filepath.Join(fixtures, "snapshots", "auth-role-not-mapped"), "-o", "json")
	if !strings.Contains(out, `"clusterSource": "flag"`) {
		t.Errorf("--cluster given but provenance is not flag")
	}
}

// TestInconclusivePasteIsShort: a paste holding one artefact (user data) is inconclusive, and the
// table says so in a few lines grouped by why the evidence is missing, with how to get it, not
// one block per check.
func TestInconclusivePasteIsShort(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	p := filepath.Join(t.TempDir(), "ud.sh")
	if err := os.WriteFile(p, []byte("#!/bin/bash\n/etc/eks/bootstrap.sh prod --kubelet-extra-args '--node-labels=a=b'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run("analyze", p)
	if code != ExitNothingChecked {
		t.Fatalf("exit %d, want %d (inconclusive)\n%s", code, ExitNothingChecked, out)
	}
	start := strings.Index(out, "Inconclusive.")
	end := strings.Index(out, "Evidence not available")
	if start < 0 || end < start {
		t.Fatalf("no inconclusive block:\n%s", out)
	}
	block := out[start:end]
	if n := strings.Count(strings.TrimSpace(block), "\n") + 1; n > 14 {
		t.Errorf("inconclusive block is %d lines:\n%s", n, block)
	}
	for _, want := range []string{"could not run, for want of evidence", "not in the input given — ", "ec2:instance", "kube:aws-auth", "… and ", "(--all", "--snapshot SNAP"} {
		if !strings.Contains(block, want) {
			t.Errorf("inconclusive block lacks %q:\n%s", want, block)
		}
	}
	_, all, _ := run("analyze", p, "--all")
	if !strings.Contains(all, "windows.kube-proxy-group") || strings.Contains(all[strings.Index(all, "Inconclusive."):strings.Index(all, "Evidence not available")], "… and ") {
		t.Errorf("--all does not list every unchecked check")
	}
}

// TestScanWithoutInstancesDoesNotSayAllJoined: a cluster whose describe-instances lists nothing
// (every NodeClaim failed to launch) gets its cluster-wide causes and no claim that every
// instance joined.
func TestScanWithoutInstancesDoesNotSayAllJoined(t *testing.T) {
	code, out, errOut := run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", "karpenter-nodeclass-not-ready"))
	if code != ExitFindings || !strings.Contains(out, "karpenter.nodeclass-not-ready") {
		t.Fatalf("exit %d, want %d with the cluster-wide cause:\n%s%s", code, ExitFindings, out, errOut)
	}
	if strings.Contains(out, "Every instance of the cluster has a Node object") || !strings.Contains(out, "No instance of the cluster was listed") {
		t.Errorf("scan of a cluster without instances:\n%s", out)
	}
}
