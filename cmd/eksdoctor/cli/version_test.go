package cli

import (
	"encoding/json"
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
