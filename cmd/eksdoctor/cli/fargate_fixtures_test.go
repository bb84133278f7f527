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
		"healthy-fargate": {"fargate.pod-execution-role pass", "fargate.profile-public-subnet pass", "fargate.no-matching-profile pass"},
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
