package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// junitXSD is the Jenkins JUnit schema `make junit-xsd` fetches (EKSDOCTOR_JUNIT_XSD); without
// it, and without xmllint, the test cannot validate and says so.
func junitXSD(t *testing.T) string {
	t.Helper()
	xsd := os.Getenv("EKSDOCTOR_JUNIT_XSD")
	if xsd == "" {
		t.Skip("EKSDOCTOR_JUNIT_XSD is not set: run `make junit-xsd` and set it to the schema it fetched (make test does both)")
	}
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Fatalf("EKSDOCTOR_JUNIT_XSD is set but xmllint is missing (make junit-xsd installs it): %v", err)
	}
	return xsd
}

// validateJUnit runs xmllint --schema on doc and returns its complaint ("" when valid).
func validateJUnit(t *testing.T, xsd, doc string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", "--schema", xsd, p).CombinedOutput()
	if err != nil {
		return strings.TrimSpace(string(out))
	}
	return ""
}

// TestJUnitValidAgainstXSD: the JUnit output of every reporting command — a failing, a healthy
// (passes and skips), a no-cause-found, an inconclusive and a joined why-not-joining, --all-pending with a
// cluster-wide fault, analyze of a bundle and of a paste, scan — is valid against the Jenkins
// JUnit schema; and the validation can fail: a testsuite without its required tests attribute
// is refused.
func TestJUnitValidAgainstXSD(t *testing.T) {
	xsd := junitXSD(t)
	snap := func(name string) string { return filepath.Join(fixtures, "snapshots", name) }
	cases := []struct {
		name string
		args []string
	}{
		{"why-not-joining cause", []string{"why-not-joining", "i-0a1b2c3d4e5f60006", "--snapshot", snap("auth-role-path")}},
		{"why-not-joining healthy", []string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", snap("healthy-al2023")}},
		{"why-not-joining joined", []string{"why-not-joining", "i-0a1b2c3d4e5f60033", "--snapshot", snap("nodegroup-asg-launch-failures")}},
		{"why-not-joining nodeclaim", []string{"why-not-joining", "default-r2d2q", "--snapshot", snap("karpenter-nodeclaim-not-registered")}},
		{"all-pending cluster-wide", []string{"why-not-joining", "--all-pending", "--snapshot", snap("subnet-ip-exhausted")}},
		{"analyze bundle", []string{"analyze", filepath.Join(fixtures, "bundles", "bottlerocket-unauthorized.tar.gz")}},
		{"scan", []string{"scan", "--snapshot", snap("nodegroup-asg-launch-failures")}},
	}
	paste := filepath.Join(t.TempDir(), "paste.txt")
	os.WriteFile(paste, []byte("Nov 20 09:32:10 ip-10-0-1-23 kubelet[2841]: E1120 09:32:10.118732    2841 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.eu-west-1.compute.internal\"\n"), 0o644)
	cases = append(cases, struct {
		name string
		args []string
	}{"analyze paste", []string{"analyze", paste}})
	// no-cause-found (not joined, nothing failed) and inconclusive (the cluster side unread)
	noCause := copyDir(t, snap("healthy-al2023"))
	unregister(t, noCause, "i-0a1b2c3d4e5f60001")
	inconclusive := copyDir(t, noCause)
	if err := os.RemoveAll(filepath.Join(inconclusive, "kube")); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]string{"why-not-joining no-cause-found": "no-cause-found", "why-not-joining inconclusive": "inconclusive", "why-not-joining cause": "cause-found", "why-not-joining joined": "joined"}
	cases = append(cases, struct {
		name string
		args []string
	}{"why-not-joining no-cause-found", []string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", noCause}}, struct {
		name string
		args []string
	}{"why-not-joining inconclusive", []string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", inconclusive}})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, out, errOut := run(append(tc.args, "-o", "junit")...)
			if !strings.HasPrefix(out, "<?xml") {
				t.Fatalf("not XML (%s): %.200s", errOut, out)
			}
			if problem := validateJUnit(t, xsd, out); problem != "" {
				t.Fatalf("invalid JUnit: %s\n%.2000s", problem, out)
			}
			if v, ok := verdicts[tc.name]; ok && !strings.Contains(out, `<property name="verdict" value="`+v+`">`) {
				t.Errorf("no verdict %s property:\n%.600s", v, out)
			}
			if strings.HasPrefix(tc.name, "all-pending") && strings.Count(out, `<testsuite name="cluster `) != 1 {
				t.Errorf("cluster-wide findings are not in one cluster suite:\n%.3000s", out)
			}
		})
	}
	_, out, _ := run("why-not-joining", "i-0a1b2c3d4e5f60006", "--snapshot", snap("auth-role-path"), "-o", "junit")
	broken := strings.Replace(out, `<testsuite name="instance i-0a1b2c3d4e5f60006" tests=`, `<testsuite name="instance i-0a1b2c3d4e5f60006" count=`, 1)
	if broken == out {
		t.Fatal("mutation did not apply")
	}
	if validateJUnit(t, xsd, broken) == "" {
		t.Fatal("a testsuite without tests= validated: the schema check cannot fail")
	}
}
