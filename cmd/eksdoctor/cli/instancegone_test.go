package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// goneSnapshot copies fixture and replaces its describe-instances with the AWS CLI's answer for
// an instance EC2 no longer knows (terminated more than about an hour before the collection).
func goneSnapshot(t *testing.T, fixture, id string) string {
	t.Helper()
	snap := copyDir(t, filepath.Join(fixtures, "snapshots", fixture))
	msg := "\nAn error occurred (InvalidInstanceID.NotFound) when calling the DescribeInstances operation: The instance ID '" + id + "' does not exist\n"
	if err := os.WriteFile(filepath.Join(snap, "ec2", "describe-instances.json"), []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestWhyNotJoiningInstanceGone: describe-instances answering InvalidInstanceID.NotFound says the
// instance is gone, a fact, not an unreadable input: the cluster as a whole is judged (a
// Karpenter EC2NodeClass whose AMI cannot read its user data is still the cause), the report says
// the instance no longer exists, and without a cause the run is inconclusive, never exit 4.
func TestWhyNotJoiningInstanceGone(t *testing.T) {
	const id = "i-0a1b2c3d4e5f60044"
	r := runBlind(t, "why-not-joining", id, "--snapshot", goneSnapshot(t, "karpenter-userdata-format", id), "-o", "json")
	if r.code != ExitFindings || r.verdict != "cause-found" || r.top != "karpenter.userdata-format" {
		t.Fatalf("exit %d verdict %s top %q failing %v", r.code, r.verdict, r.top, r.failing)
	}
	if !strings.Contains(r.out, id+" no longer exists") || !strings.Contains(r.out, "InvalidInstanceID.NotFound") {
		t.Errorf("the report does not say %s is gone:\n%s", id, r.out)
	}
	for _, bad := range []string{"instance.not-running", "iam.no-instance-profile"} {
		if slices.Contains(r.failing, bad) {
			t.Errorf("%s fails for an instance that is gone", bad)
		}
	}

	const healthy = "i-0a1b2c3d4e5f60001"
	r = runBlind(t, "why-not-joining", healthy, "--snapshot", goneSnapshot(t, "healthy-al2023", healthy), "-o", "json")
	if r.code != ExitNothingChecked || r.verdict != "inconclusive" || len(r.failing) > 0 {
		t.Fatalf("healthy cluster, instance gone: exit %d verdict %s failing %v", r.code, r.verdict, r.failing)
	}
}
