package logscan

import (
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// EC2Launch v1 stamps UserdataExecution.log lines "2025/09/16 08:14:02Z: …" (UTC, a colon after
// the zone); EC2Launch v2's agent.log "2025-12-17 21:40:15 Info: …".
func TestParseTimeEC2Launch(t *testing.T) {
	for line, want := range map[string]time.Time{
		"2025/09/16 08:14:02Z: Userdata execution begins": time.Date(2025, 9, 16, 8, 14, 2, 0, time.UTC),
		"2025-12-17 21:40:15 Info: Try parsing user data": time.Date(2025, 12, 17, 21, 40, 15, 0, time.UTC),
		"2025/09/16 08:14:02Zebra: not EC2Launch's stamp": {},
	} {
		if got := ParseTime(line, time.Time{}); !got.Equal(want) {
			t.Errorf("%q: got %v want %v", line, got, want)
		}
	}
}

// ec2LaunchV1Log is EC2Launch v1's UserdataExecution.log for user data in which it found the
// tags not listed in found (Invoke-Userdata logs "Zero or more than one <X> tag was not provided"
// for every tag it did not find, then "<X> tag was provided.. running X content" for each script
// it runs).
func ec2LaunchV1Log(found ...string) string {
	var b strings.Builder
	b.WriteString("2025/09/16 08:14:02Z: Userdata execution begins\n")
	has := func(tag string) bool {
		for _, f := range found {
			if f == tag {
				return true
			}
		}
		return false
	}
	for _, tag := range []string{"persist", "runAsLocalSystem", "script", "powershellArguments", "powershell"} {
		if !has(tag) {
			b.WriteString("2025/09/16 08:14:05Z: Zero or more than one <" + tag + "> tag was not provided\n")
		}
	}
	if has("script") {
		b.WriteString("2025/09/16 08:14:05Z: <script> tag was provided.. running script content\n")
	}
	if has("powershell") {
		b.WriteString("2025/09/16 08:14:05Z: <powershell> tag was provided.. running powershell content\n")
	}
	b.WriteString("2025/09/16 08:14:09Z: Userdata execution done\n")
	return b.String()
}

// TestEC2LaunchNoScriptTag: EC2Launch v1 runs nothing only when it found neither a <script> nor
// a <powershell> tag; one of the two "not provided" lines alone is how every healthy run with the
// other tag reads.
func TestEC2LaunchNoScriptTag(t *testing.T) {
	for name, tc := range map[string]struct {
		log     string
		failing bool
	}{
		"neither tag":          {ec2LaunchV1Log(), true},
		"powershell ran":       {ec2LaunchV1Log("powershell"), false},
		"batch script ran":     {ec2LaunchV1Log("script"), false},
		"persist, powershell":  {ec2LaunchV1Log("persist", "powershell") + ec2LaunchV1Log("persist", "powershell"), false},
		"only the script line": {"2025/09/16 08:14:05Z: Zero or more than one <script> tag was not provided\n", false},
	} {
		sc := MustDefault()
		if err := sc.Scan(strings.NewReader(tc.log), "UserdataExecution.log", "ec2launch"); err != nil {
			t.Fatal(err)
		}
		logs := sc.Result("windows")
		failing := false
		for _, h := range logs.Hits {
			if h.Finding == "bootstrap.no-bootstrap" && logs.Failing(h) {
				failing = true
			}
		}
		if failing != tc.failing {
			t.Errorf("%s: bootstrap.no-bootstrap failing %v, want %v (hits %+v)", name, failing, tc.failing, logs.Hits)
		}
	}
}

// TestAllValuesValidation: allValues names values of a pattern group named by valuesOf, on a
// failure signature.
func TestAllValuesValidation(t *testing.T) {
	sg := Signature{Name: "c-x", Finding: "runtime.unauthorized", Anchor: "tag was not provided", Pattern: `<(?P<detail>a|b)> tag was not provided`,
		Meaning: "m", Source: "https://example.com/x", AllValues: []string{"a", "b"}, ValuesOf: "detail",
		Examples: Examples{Match: []string{"<a> tag was not provided"}}}
	if err := validate(sg); err != nil {
		t.Fatalf("valid: %v", err)
	}
	bad := sg
	bad.ValuesOf = "code"
	if err := validate(bad); err == nil || !strings.Contains(err.Error(), "allValues") {
		t.Errorf("valuesOf not a group: %v", err)
	}
	bad = sg
	bad.ValuesOf = ""
	if err := validate(bad); err == nil || !strings.Contains(err.Error(), "allValues") {
		t.Errorf("no valuesOf: %v", err)
	}
	h := evidence.SignatureHit{Finding: "x", Count: 3, AllValues: []string{"a", "b"}, ValuesOf: "detail", Facts: map[string][]string{"detail": {"a"}}}
	if h.AllValuesSeen() {
		t.Errorf("one of two values seen counts as all")
	}
	h.Facts["detail"] = append(h.Facts["detail"], "b")
	if !h.AllValuesSeen() {
		t.Errorf("both values seen do not count as all")
	}
}
