package checks

import "testing"

// TestConntrackFullExplainsAPIServerTimeout: a full conntrack table drops the kubelet's own
// connections, so when both fail the table is the most likely cause and the timeouts are what
// it explains (bundles11/06: the timeouts outranked it on severity).
func TestConntrackFullExplainsAPIServerTimeout(t *testing.T) {
	metas := Default().Metas()
	d := Diagnose([]Finding{
		{ID: "runtime.apiserver-timeout", Status: StatusFail, Severity: SeverityCritical},
		{ID: "runtime.conntrack-full", Status: StatusFail, Severity: SeverityMedium},
	}, metas)
	if d.MostLikelyCause != "runtime.conntrack-full" {
		t.Fatalf("most likely %q, ranked %v", d.MostLikelyCause, d.Ranked)
	}
}

// TestSubnetExhaustedExplainsLaunchFailures: a node subnet without a free address refuses the
// instance's own address, so Auto Scaling's failed launch naming it is its consequence (pastes16/06
// ranked the launch failure first).
func TestSubnetExhaustedExplainsLaunchFailures(t *testing.T) {
	for _, launch := range []string{"nodegroup.asg-launch-failures", "nodegroup.launch-errors", "karpenter.nodeclaim-not-launched"} {
		d := Diagnose([]Finding{
			{ID: launch, Status: StatusFail, Severity: SeverityCritical},
			{ID: "subnet.ip-exhausted", Status: StatusFail, Severity: SeverityCritical},
		}, Default().Metas())
		if d.MostLikelyCause != "subnet.ip-exhausted" {
			t.Errorf("%s: most likely %q, ranked %v", launch, d.MostLikelyCause, d.Ranked)
		}
	}
}

// TestNodeRoleTrustExplainsMissingCredentials: a node role EC2 cannot assume leaves IMDS without
// credentials, which the node's AWS CLI and token helper report as "Unable to locate
// credentials" — read as no instance profile; the trust policy is the cause (blind
// pastes24/02 ranked the missing credentials first).
func TestNodeRoleTrustExplainsMissingCredentials(t *testing.T) {
	d := Diagnose([]Finding{
		{ID: "iam.no-instance-profile", Status: StatusFail, Severity: SeverityCritical},
		{ID: "iam.node-role-trust", Status: StatusFail, Severity: SeverityCritical},
	}, Default().Metas())
	if d.MostLikelyCause != "iam.node-role-trust" {
		t.Fatalf("most likely %q, ranked %v", d.MostLikelyCause, d.Ranked)
	}
}
