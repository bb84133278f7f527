package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/awsapi/awsfake"
)

// notJoinedLive copies healthy-al2023 with a Node list that has no Node of its instance: live,
// with every call answered, the instance is "no cause found" (exit 0).
func notJoinedLive(t *testing.T) string {
	t.Helper()
	snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	if err := os.WriteFile(filepath.Join(snap, "kube", "nodes.json"), []byte(`{"apiVersion":"v1","kind":"List","items":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return snap
}

// inputProblemNaming returns the input problem of the JSON report out whose text holds every
// one of words, "" when none does.
func inputProblemNaming(t *testing.T, out string, words ...string) string {
	t.Helper()
	var r struct {
		InputProblems []struct{ Path, Problem string } `json:"inputProblems"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON (%v): %s", err, out)
	}
next:
	for _, p := range r.InputProblems {
		for _, w := range words {
			if !strings.Contains(p.Path+" "+p.Problem, w) {
				continue next
			}
		}
		return p.Path + ": " + p.Problem
	}
	return ""
}

// TestLiveKubeFailedCallIsNamed (red team 13b #1, #2): a Kubernetes read that failed without
// being a denial — a 503 of the API server or of an aggregated API, a 429 never cleared, a
// list whose continue token expired (410) — left a gap at most, and with
// the evidence optional to the checks ("every check of the join path ran") the run said "No
// cause found" and exited 0, where the same read denied exits 5. The call is an input problem
// naming it, and a verdict resting on it is partial (5), in why-not-joining and scan alike.
func TestLiveKubeFailedCallIsNamed(t *testing.T) {
	const id = "i-0a1b2c3d4e5f60001"
	for _, tc := range []struct {
		name, key, op string
		fault         kubeFault
		scanOnly      bool
	}{
		{"aws-node 503", "daemonsets/aws-node", "get daemonsets kube-system/aws-node", kubeFault{Status: 503}, false},
		{"aws-node 429", "daemonsets/aws-node", "get daemonsets kube-system/aws-node", kubeFault{Status: 429}, false},
		{"nodeclaims aggregated API unavailable", "/apis/karpenter.sh/v1/nodeclaims", "list nodeclaims.karpenter.sh", kubeFault{Status: 503}, true},
		{"pending pods continue expired", "/api/v1/pods", "list pods", kubeFault{ExpireContinue: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := notJoinedLive(t)
			liveEnv(t, withoutKube(t, src), nil)
			kc := fakeKube(t, src, map[string]kubeFault{tc.key: tc.fault})
			if !tc.scanOnly {
				code, out, errOut := run("why-not-joining", id, "--kubeconfig", kc, "-o", "json")
				if p := inputProblemNaming(t, out, tc.op, "failed", "not read"); p == "" {
					t.Errorf("why-not-joining: no input problem names the failed %s (%s)", tc.op, errOut)
				}
				if code != ExitPartial {
					t.Errorf("why-not-joining: exit %d, want %d (a read failed)", code, ExitPartial)
				}
				code, text, _ := run("why-not-joining", id, "--kubeconfig", kc)
				if !strings.Contains(strings.Join(strings.Fields(text), " "), tc.op) || code != ExitPartial {
					t.Errorf("why-not-joining table: exit %d, %s not named:\n%s", code, tc.op, text)
				}
				code, _, _ = run("why-not-joining", "--all-pending", "--cluster", "prod", "--kubeconfig", kc)
				if code != ExitPartial {
					t.Errorf("--all-pending: exit %d, want %d", code, ExitPartial)
				}
			}
			scanNames(t, kc, tc.op, ExitPartial)
		})
	}
}

// scanNames runs scan in each format the CronJob uses (JSON, Markdown, JUnit, the metrics file)
// and wants the failed call op named and exit want (5, or 3 when the instance is inconclusive
// without it), never 0 (also with a pod's default, --fail-on none).
func scanNames(t *testing.T, kc, op string, want int) {
	t.Helper()
	metrics := filepath.Join(t.TempDir(), "eksdoctor.prom")
	code, out, errOut := run("scan", "--cluster", "prod", "--kubeconfig", kc, "-o", "json", "--metrics-file", metrics, "--fail-on", "none", "--call-timeout", "2s")
	var s struct{ Errors []string }
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("scan: not JSON (%v): %s%s", err, out, errOut)
	}
	if !strings.Contains(strings.Join(s.Errors, "\n"), op) {
		t.Errorf("scan JSON: errors do not name the failed %s: %q", op, s.Errors)
	}
	if code != want {
		t.Errorf("scan: exit %d, want %d", code, want)
	}
	if b, _ := os.ReadFile(metrics); !strings.Contains(string(b), "eksdoctor_scan_errors 1") && !strings.Contains(string(b), "eksdoctor_scan_errors 2") {
		t.Errorf("metrics do not count the failed call as a scan error:\n%s", b)
	}
	for _, format := range []string{"markdown", "junit", "table"} {
		_, out, _ := run("scan", "--cluster", "prod", "--kubeconfig", kc, "-o", format, "--call-timeout", "2s")
		if !strings.Contains(strings.Join(strings.Fields(out), " "), op) {
			t.Errorf("scan -o %s does not name the failed %s:\n%s", format, op, out)
		}
	}
}

// TestScanFailedAWSCallIsNamed (red team 13b #3): scan reads user data from the launch template
// versions (collectMode batch: no DescribeInstanceAttribute per instance); with that call, or the
// node groups' Auto Scaling groups, throttled forever, the scan's report said nothing of it in the
// formats the CronJob publishes and exited 0.
func TestScanFailedAWSCallIsNamed(t *testing.T) {
	// without the launch template's user data the instance is inconclusive (3)
	for op, want := range map[string]int{"ec2:DescribeLaunchTemplateVersions": ExitNothingChecked, "autoscaling:DescribeAutoScalingGroups": ExitPartial} {
		t.Run(op, func(t *testing.T) {
			src := notJoinedLive(t)
			liveEnv(t, withoutKube(t, src), func(s *awsfake.Server) { s.Faults = map[string]awsfake.Fault{op: throttledForever(op)} })
			t.Setenv("AWS_MAX_ATTEMPTS", "1")
			kc := fakeKube(t, src, nil)
			scanNames(t, kc, op, want)
		})
	}
}
