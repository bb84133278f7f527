package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
)

// placeholderAllowed lists the placeholders a fix may keep in a golden scenario because the
// evidence does not hold their value: scenario → check → placeholders, with the reason.
var placeholderAllowed = map[string]map[string][]string{
	// the instance has no instance profile: the profile to attach is the user's choice
	"iam-no-instance-profile": {"iam.no-instance-profile": {"PROFILE"}},
}

// TestRemediationsHoldNoKnownPlaceholders sweeps every golden report: a fix keeps no
// placeholder (CLUSTER, ROLE_ARN, REGION, VPCE, ...) whose value the evidence holds. Snapshot
// scenarios hold every AWS value the catalog's fixes name; node log bundles hold at most the
// cluster, region and instance (the target), so only those are required there.
func TestRemediationsHoldNoKnownPlaceholders(t *testing.T) {
	words := checks.PlaceholderRe
	goldens, _ := filepath.Glob(filepath.Join(fixtures, "golden", "*.json"))
	bundles, _ := filepath.Glob(filepath.Join(fixtures, "golden", "bundles", "*.json"))
	if len(goldens) < 30 || len(bundles) < 15 {
		t.Fatalf("only %d snapshot and %d bundle goldens", len(goldens), len(bundles))
	}
	checked := 0
	for _, g := range append(goldens, bundles...) {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Target struct {
				InstanceID, Cluster, Region string
			} `json:"target"`
			Findings []struct {
				ID, Status, Remediation string
			} `json:"findings"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		name := strings.TrimSuffix(filepath.Base(g), ".json")
		bundle := strings.Contains(g, string(filepath.Separator)+"bundles"+string(filepath.Separator))
		for _, f := range r.Findings {
			if f.Remediation == "" {
				continue
			}
			checked++
			var left []string
			for _, w := range words.FindAllString(f.Remediation, -1) {
				switch {
				case bundle && w == "CLUSTER" && r.Target.Cluster == "",
					bundle && w == "REGION" && r.Target.Region == "",
					bundle && strings.HasSuffix(w, " ID") && r.Target.InstanceID == "",
					bundle && w != "CLUSTER" && w != "REGION" && !strings.HasSuffix(w, " ID"),
					w == "INSTANCE_ID" && !strings.HasPrefix(r.Target.InstanceID, "i-"):
					continue // a log bundle (or a NodeClaim that launched nothing) does not hold the value
				}
				allowed := false
				for _, a := range placeholderAllowed[name][f.ID] {
					allowed = allowed || a == w
				}
				if !allowed {
					left = append(left, w)
				}
			}
			if len(left) > 0 {
				t.Errorf("%s: %s fix keeps %v although the evidence holds the values: %s", name, f.ID, left, f.Remediation)
			}
			if strings.Contains(f.Remediation, "com.amazonaws.REGION") || strings.Contains(f.Remediation, ".SERVICE") {
				t.Errorf("%s: %s fix names no service: %s", name, f.ID, f.Remediation)
			}
		}
	}
	if checked < 40 {
		t.Fatalf("only %d remediations swept", checked)
	}
}

// TestNACLFixPrecedesDeny: the NACL fix proposes a free rule number below the deny rule it must
// precede, for the very ACL, direction and ports that are denied.
func TestNACLFixPrecedesDeny(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(fixtures, "golden", "net-nacl-blocks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r jsonReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	fix := r.Findings[0].Remediation
	for _, want := range []string{"--network-acl-id acl-0a1b2c3d4e5f60001 --ingress --rule-number 89 ", "--port-range From=32768,To=60999", "(before deny rule 90)"} {
		if r.Findings[0].ID != "net.nacl-blocks" || !strings.Contains(fix, want) {
			t.Errorf("%s fix lacks %q: %s", r.Findings[0].ID, want, fix)
		}
	}
	if strings.Contains(fix, "--rule-number 100 ") {
		t.Errorf("fix proposes a rule after the deny: %s", fix)
	}
}

// TestEndpointFindingsNameServiceAndEndpoint: the endpoint checks name the missing service's
// endpoint name and the endpoint with private DNS off, not the route table.
func TestEndpointFindingsNameServiceAndEndpoint(t *testing.T) {
	for scenario, want := range map[string][]string{
		"net-vpc-endpoints-missing":    {"com.amazonaws.eu-west-1.ecr.dkr", "--service-name com.amazonaws.eu-west-1.ecr.dkr", "--vpc-id vpc-"},
		"net-vpc-endpoint-private-dns": {"vpce-00000000000000004", "--vpc-endpoint-id vpce-00000000000000004 --private-dns-enabled"},
	} {
		b, err := os.ReadFile(filepath.Join(fixtures, "golden", scenario+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var r jsonReport
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		f := r.Findings[0]
		if strings.HasPrefix(f.Resource, "rtb-") || !strings.Contains(f.Resource+" "+f.Message, want[0]) {
			t.Errorf("%s: resource %q message %q do not name %s", scenario, f.Resource, f.Message, want[0])
		}
		for _, w := range want[1:] {
			if !strings.Contains(f.Remediation, w) {
				t.Errorf("%s: fix lacks %q: %s", scenario, w, f.Remediation)
			}
		}
	}
}

// TestAccessEntryTypeFollowsOS: a Windows node's fix creates an EC2_WINDOWS access entry, a
// Linux node's an EC2_LINUX one; the choice is not left to the reader once the OS is known.
func TestAccessEntryTypeFollowsOS(t *testing.T) {
	for golden, want := range map[string]string{
		filepath.Join("bundles", "windows-unauthorized.json"): "--type EC2_WINDOWS",
		"auth-role-not-mapped.json":                           "--type EC2_LINUX,",
	} {
		b, err := os.ReadFile(filepath.Join(fixtures, "golden", golden))
		if err != nil {
			t.Fatal(err)
		}
		var r jsonReport
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if fix := r.Findings[0].Remediation; !strings.Contains(fix, want) || strings.Contains(fix, "for Windows") {
			t.Errorf("%s: %s fix: %s", golden, r.Findings[0].ID, fix)
		}
	}
}
