package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// scanClusterFindings runs scan on a fixture and returns its exit code and cluster findings as
// "ID status resource message" lines.
func scanClusterFindings(t *testing.T, fixture string) (int, []string) {
	t.Helper()
	code, out, errOut := run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", fixture), "-o", "json")
	var s struct {
		ClusterFindings []struct{ ID, Status, Resource, Message string } `json:"clusterFindings"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%s: %v %s", fixture, err, errOut)
	}
	var lines []string
	for _, f := range s.ClusterFindings {
		lines = append(lines, f.ID+" "+f.Status+" "+f.Resource+" "+f.Message)
	}
	return code, lines
}

// Fargate faults are the cluster's: scan reports each fixture's one fault, with its pass
// counterparts, and the healthy Fargate (and CloudTrail) fixtures raise nothing.
func TestScanReportsFargateFaultsForTheCluster(t *testing.T) {
	for fx, want := range map[string][]string{
		"fargate-pod-execution-role": {"fargate.pod-execution-role fail arn:aws:iam::111122223333:role/prod-fargate-pods Fargate profile fp-serverless: pod execution role arn:aws:iam::111122223333:role/prod-fargate-pods has no FARGATE_LINUX access entry",
			"fargate.profile-public-subnet pass fp-serverless", "fargate.no-matching-profile pass"},
		"fargate-profile-public-subnet": {"fargate.profile-public-subnet fail fp-serverless Fargate profile fp-serverless uses public subnets: subnet-0a11b22c33d44e559 (rtb-0a1b2c3d4e5f60002: 0.0.0.0/0 → igw-",
			"fargate.pod-execution-role pass"},
		"fargate-no-matching-profile": {"fargate.no-matching-profile fail serverless/orders-7d9f8c6b5-x2k4q Pending pods meant for Fargate match no profile's selectors: serverless/orders-7d9f8c6b5-x2k4q"},
		"healthy-fargate":             {"fargate.pod-execution-role pass", "fargate.profile-public-subnet pass", "fargate.no-matching-profile pass"},
	} {
		_, lines := scanClusterFindings(t, fx)
		for _, w := range want {
			found := false
			for _, l := range lines {
				found = found || strings.HasPrefix(l, w)
			}
			if !found {
				t.Errorf("%s: no cluster finding %q in\n%s", fx, w, strings.Join(lines, "\n"))
			}
		}
	}
	for _, fx := range []string{"healthy-fargate", "healthy-cloudtrail"} {
		code, lines := scanClusterFindings(t, fx)
		for _, l := range lines {
			if strings.Contains(l, " fail ") || strings.Contains(l, " warn ") {
				t.Errorf("%s: %s", fx, l)
			}
		}
		if code != ExitOK {
			t.Errorf("%s: scan exit %d", fx, code)
		}
	}
}

// The control plane's own testimony: the authenticator's refusal of the node role's ARN (with
// its reason) corroborates the unmapped role, and an audit event shows a CSR denial the CSR
// cleaner has already removed from the cluster.
func TestControlPlaneLogFixtures(t *testing.T) {
	for _, c := range []struct{ fixture, id, finding string }{
		{"controlplane-authenticator-denied", "i-0a1b2c3d4e5f60056", "auth.authenticator-denied fail arn:aws:iam::111122223333:role/prod-node-role"},
		{"controlplane-csr-denied-audit", "i-0a1b2c3d4e5f60057", "csr.denied fail i-0a1b2c3d4e5f60057"},
	} {
		_, out, errOut := run("why-not-joining", c.id, "--snapshot", filepath.Join(fixtures, "snapshots", c.fixture), "-o", "json")
		m, _ := findingsOf(t, out)
		found := false
		for _, fs := range m {
			for _, f := range fs {
				line := f.ID + " " + f.Status + " " + f.Resource
				if line == c.finding && strings.Contains(strings.Join(f.Evidence, " "), "logs/") {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: no %q quoting the control-plane log: %s %s", c.fixture, c.finding, out, errOut)
		}
	}
}

// controlPlaneLogFiles counts the control-plane log files (logs/*.json) of a snapshot directory:
// each is one more FilterLogEvents call for the live collector.
func controlPlaneLogFiles(dir string) int {
	m, _ := filepath.Glob(filepath.Join(dir, "logs", "*.json"))
	return len(m)
}
