package cli

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
)

// TestVersion: --version and `version` print the same line; `version -o json` carries the
// version, the Go version, the report schema and the check count.
func TestVersion(t *testing.T) {
	code, line, _ := run("--version")
	code2, line2, _ := run("version")
	if code != 0 || code2 != 0 || line != line2 || !strings.HasPrefix(line, "eksdoctor ") || !strings.Contains(line, "report schema eksdoctor/v1") {
		t.Fatalf("--version %d %q, version %d %q", code, line, code2, line2)
	}
	code, out, _ := run("version", "-o", "json")
	var b BuildInfo
	if code != 0 || json.Unmarshal([]byte(out), &b) != nil {
		t.Fatalf("version -o json: exit %d: %s", code, out)
	}
	if b.Version == "" || !strings.HasPrefix(b.Go, "go") || b.SchemaVersion != "eksdoctor/v1" || b.Checks != len(checks.Default().All()) {
		t.Errorf("version -o json = %+v", b)
	}
	if code, _, errOut := run("version", "-o", "markdown"); code != ExitUsage || !strings.Contains(errOut, "want table or json") {
		t.Errorf("version -o markdown: exit %d %s", code, errOut)
	}
}

// TestReportFlagsOnlyOnReportingCommands: --all, --checks and --exit-zero belong to the
// reporting commands; version, iam-policy and explain refuse them as usage errors.
func TestReportFlagsOnlyOnReportingCommands(t *testing.T) {
	for _, args := range [][]string{{"version", "--all"}, {"iam-policy", "--exit-zero"}, {"explain", "auth.role-path", "--checks", "auth.*"}} {
		if code, _, errOut := run(args...); code != ExitUsage || !strings.Contains(errOut, "unknown flag") {
			t.Errorf("%v: exit %d %s", args, code, errOut)
		}
	}
	if code, out, _ := run("checks", "list", "--checks", "auth.role-path"); code != 0 || !strings.Contains(out, "auth.role-path") || strings.Contains(out, "auth.aws-auth-malformed") {
		t.Errorf("checks list --checks: exit %d\n%s", code, out)
	}
}

// TestScanJUnitShape: the scan's JUnit has one suite for the cluster and one per unjoined
// instance, counts that add up (tests, failures, errors, skipped on every suite and on the
// root), each instance's verdict, and a cluster-wide failure only in the cluster suite.
func TestScanJUnitShape(t *testing.T) {
	_, out, _ := run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", "subnet-ip-exhausted"), "-o", "junit")
	type tc struct {
		Name    string    `xml:"name,attr"`
		Failure *struct{} `xml:"failure"`
		Error   *struct{} `xml:"error"`
		Skipped *struct{} `xml:"skipped"`
	}
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Tests   int      `xml:"tests,attr"`
		Fails   int      `xml:"failures,attr"`
		Errors  *int     `xml:"errors,attr"`
		Suites  []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Errors   *int   `xml:"errors,attr"`
			Skipped  int    `xml:"skipped,attr"`
			Cases    []tc   `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Suites) != 2 || doc.Suites[0].Name != "cluster prod" || !strings.HasPrefix(doc.Suites[1].Name, "instance i-") || doc.Errors == nil {
		t.Fatalf("suites:\n%s", out)
	}
	tests, fails := 0, 0
	for _, s := range doc.Suites {
		f, k := 0, 0
		for _, c := range s.Cases {
			if c.Failure != nil {
				f++
			}
			if c.Skipped != nil {
				k++
			}
		}
		if s.Errors == nil || len(s.Cases) != s.Tests || f != s.Failures || k != s.Skipped {
			t.Errorf("suite %s counts do not add up: tests %d/%d failures %d/%d skipped %d/%d", s.Name, s.Tests, len(s.Cases), s.Failures, f, s.Skipped, k)
		}
		tests, fails = tests+s.Tests, fails+s.Failures
	}
	if tests != doc.Tests || fails != doc.Fails {
		t.Errorf("root counts %d/%d, suites %d/%d", doc.Tests, doc.Fails, tests, fails)
	}
	inst := doc.Suites[1]
	if len(inst.Cases) == 0 || !strings.HasPrefix(inst.Cases[0].Name, "verdict cause-found") || inst.Cases[0].Failure == nil {
		t.Errorf("instance suite does not start with its verdict:\n%s", out)
	}
	for _, c := range inst.Cases {
		if strings.HasPrefix(c.Name, "subnet.ip-exhausted") {
			t.Errorf("the cluster-wide subnet.ip-exhausted is repeated in the instance suite")
		}
	}
}

// TestCollectArchiveFlag: collect takes its archive path as --archive (-f); -o, the output
// format elsewhere, is refused with a message naming --archive.
func TestCollectArchiveFlag(t *testing.T) {
	code, _, errOut := run("collect", "--cluster", "prod", "-o", "snap.tar.gz")
	if code != ExitUsage || !strings.Contains(errOut, "--archive") {
		t.Errorf("collect -o: exit %d %s", code, errOut)
	}
	if code, _, errOut := run("collect", "--cluster", "prod"); code != ExitUsage || !strings.Contains(errOut, "--archive FILE.tar.gz") {
		t.Errorf("collect without an archive: exit %d %s", code, errOut)
	}
}

// TestMarkdownHasNoEmptyTables: a healthy node's report, a fleet without unjoined instances and
// a scan without cluster-wide failures print no table header without rows.
func TestMarkdownHasNoEmptyTables(t *testing.T) {
	for _, args := range [][]string{
		{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", filepath.Join(fixtures, "snapshots", "healthy-al2023"), "-o", "markdown"},
		{"why-not-joining", "--all-pending", "--snapshot", filepath.Join(fixtures, "snapshots", "healthy-al2023"), "-o", "markdown"},
		{"scan", "--snapshot", filepath.Join(fixtures, "snapshots", "healthy-al2023"), "-o", "markdown"},
	} {
		_, out, _ := run(args...)
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "|---") && (i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "|")) {
				t.Errorf("%v: a table without rows:\n%s", args, out)
			}
		}
	}
}

// TestDebugAndEndpointURL: --endpoint-url sends every AWS call to the given endpoint (here the
// AWS wire-protocol fake, with AWS_ENDPOINT_URL pointing nowhere), and -v prints each call with
// its outcome and duration on stderr, never a credential.
func TestDebugAndEndpointURL(t *testing.T) {
	snap := withoutKube(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	liveEnv(t, snap, nil)
	url := os.Getenv("AWS_ENDPOINT_URL")               // the fake liveEnv started
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1") // nothing listens there
	code, _, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "--no-kube", "--endpoint-url", url, "-v", "-o", "json")
	if code != ExitNothingChecked { // healthy, but the cluster side was not read
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	for _, want := range []string{"ec2:DescribeInstances", "eks:DescribeCluster", " ok (", "request(s))"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("-v output lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "AKIDFAKEFAKEFAKE") || strings.Contains(errOut, "fake-secret") {
		t.Errorf("-v printed a credential:\n%s", errOut)
	}
}

// TestCompletionOffersValues: shell completion offers the -o values of a command, check IDs and
// areas for --checks, the shared config's profiles for --profile and regions for --region.
func TestCompletionOffersValues(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(cfg, []byte("[default]\nregion=eu-west-1\n[profile prod-readonly]\nregion=eu-west-1\n[sso-session corp]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	for _, tc := range []struct {
		args []string
		want []string
		not  []string
	}{
		{[]string{"__complete", "scan", "-o", ""}, []string{"junit", "policyreport", "openreports"}, nil},
		{[]string{"__complete", "why-not-joining", "-o", ""}, []string{"json", "markdown", "junit"}, []string{"policyreport"}},
		{[]string{"__complete", "checks", "list", "-o", ""}, []string{"json", "markdown"}, []string{"junit"}},
		{[]string{"__complete", "explain", "auth.role-path", "-o", ""}, []string{"text", "markdown"}, []string{"json", "junit"}},
		{[]string{"__complete", "analyze", "--checks", ""}, []string{"auth.role-not-mapped", "auth.*"}, nil},
		{[]string{"__complete", "why-not-joining", "--profile", ""}, []string{"default", "prod-readonly"}, []string{"corp"}},
		{[]string{"__complete", "scan", "--region", ""}, []string{"eu-west-1", "us-east-1"}, nil},
	} {
		_, out, _ := run(tc.args...)
		for _, w := range tc.want {
			if !strings.Contains(out, w+"\n") {
				t.Errorf("%v: no %q in\n%s", tc.args, w, out)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(out, w+"\n") {
				t.Errorf("%v: offers %q", tc.args, w)
			}
		}
	}
}
