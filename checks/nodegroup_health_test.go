package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestNodegroupHealthCodesThatDoNotBlockJoining: managed node group health codes that name an
// update, drain, drift or deletion condition (botocore NodegroupIssueCode; EKS user guide
// "Managed node update behavior") are warnings, not a cause of nodes not joining; codes that
// stop instances launching or registering still fail (red team round 5, finding 2: case17).
func TestNodegroupHealthCodesThatDoNotBlockJoining(t *testing.T) {
	c, ok := Default().Get("nodegroup.health-issues")
	if !ok {
		t.Fatal("no check nodegroup.health-issues")
	}
	for _, tc := range []struct {
		code    string
		want    Status
		symptom bool
		msg     string
	}{
		{"PodEvictionFailure", StatusWarn, false, "does not keep nodes from joining"},
		{"NodeTerminationFailure", StatusWarn, false, "does not keep nodes from joining"},
		{"AutoScalingGroupInstanceRefreshActive", StatusWarn, false, "does not keep nodes from joining"},
		{"Ec2LaunchTemplateVersionMismatch", StatusWarn, false, "does not keep nodes from joining"},
		{"Ec2LaunchTemplateVersionMaxLimitExceeded", StatusWarn, false, "does not keep nodes from joining"},
		{"Ec2SecurityGroupDeletionFailure", StatusWarn, false, "does not keep nodes from joining"},
		{"Ec2LaunchTemplateDeletionFailure", StatusWarn, false, "does not keep nodes from joining"},
		{"NodeCreationFailure", StatusFail, true, "NodeCreationFailure"},
		{"AccessDenied", StatusFail, false, "AccessDenied"},
		{"IamNodeRoleNotFound", StatusFail, false, "IamNodeRoleNotFound"},
		{"InsufficientFreeAddresses", StatusFail, false, "InsufficientFreeAddresses"},
		{"AsgInstanceLaunchFailures", StatusFail, false, "AsgInstanceLaunchFailures"},
		{"Ec2SubnetInvalidConfiguration", StatusFail, false, "Ec2SubnetInvalidConfiguration"},
	} {
		t.Run(tc.code, func(t *testing.T) {
			ev := healthyEvidence()
			ev.Nodegroups[0].Status = "DEGRADED"
			ev.Nodegroups[0].HealthIssues = []evidence.HealthIssue{{Code: tc.code, Message: "m", ResourceIDs: []string{"eks-ng-1"}}}
			fs := Run([]Check{c}, ev)
			if len(fs) != 1 {
				t.Fatalf("got %d findings", len(fs))
			}
			f := fs[0]
			if f.ID != "nodegroup.health-issues" || f.Status != tc.want || f.Symptom != tc.symptom || !strings.Contains(f.Message, tc.msg) || !strings.Contains(f.Message, tc.code) {
				t.Fatalf("got %s %s symptom=%v %q, want %s symptom=%v containing %q", f.ID, f.Status, f.Symptom, f.Message, tc.want, tc.symptom, tc.msg)
			}
		})
	}
	// a join-blocking code next to a drain code: the group still fails for the former
	ev := healthyEvidence()
	ev.Nodegroups[0].HealthIssues = []evidence.HealthIssue{{Code: "PodEvictionFailure", Message: "m"}, {Code: "AccessDenied", Message: "m"}}
	fs := Run([]Check{c}, ev)
	got := map[Status]string{}
	for _, f := range fs {
		got[f.Status] += f.Message
	}
	if len(fs) != 2 || !strings.Contains(got[StatusFail], "AccessDenied") || !strings.Contains(got[StatusWarn], "PodEvictionFailure") {
		t.Errorf("findings %v, want a fail for AccessDenied and a warn for PodEvictionFailure", got)
	}
}
