package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// nameOnlyRole is evidence as a paste gives it when the node role is known only by its name
// (an EC2NodeClass's spec.role) and the cluster's account is not shown (describe-cluster
// narrowed to accessConfig): no instance, no instance profile, the role without an ARN.
func nameOnlyRole(mode string) *evidence.Evidence {
	ev := healthyEvidence()
	ev.Instance, ev.InstanceProfile = nil, nil
	ev.AddGapForce(evidence.KindInstance, "not in the input given")
	ev.AddGapForce(evidence.KindInstanceProfile, "not in the input given")
	ev.Target.InstanceID = ""
	ev.NodeRole = &evidence.Role{Name: "KarpenterNodeRole-prod"}
	ev.Mark(evidence.KindNodeRole, "paste:stdin:40 (EC2NodeClass default spec.role)")
	ev.Cluster.Arn, ev.Cluster.AuthenticationMode = "", mode
	ev.AccessEntries = []evidence.AccessEntry{
		{PrincipalArn: "arn:aws:iam::111122223333:role/eks-prod-system-ng-role"},
		{PrincipalArn: "arn:aws:iam::111122223333:role/karpenter-controller-prod"},
		{PrincipalArn: "arn:aws:iam::111122223333:user/KarpenterNodeRole-prod"}, // a user, not the role
	}
	ev.AWSAuth = nil
	ev.AddGapForce(evidence.KindAWSAuth, "not in the input given")
	return ev
}

// TestRoleKnownByName: a node role known only by name is judged against the mappings by name
// where that is sound — no role of that name mapped in any account is unmapped; a role of that
// name mapped is the node role's mapping if it is the cluster's account, which is not shown, so
// it does not fail — and the finding says the role is known by name and from where.
func TestRoleKnownByName(t *testing.T) {
	named := func(arn string) func(ev *evidence.Evidence) {
		return func(ev *evidence.Evidence) {
			ev.AccessEntries = append(ev.AccessEntries, evidence.AccessEntry{PrincipalArn: arn})
		}
	}
	awsAuth := func(arns ...string) func(ev *evidence.Evidence) {
		return func(ev *evidence.Evidence) {
			ev.AWSAuth = &evidence.AWSAuth{Present: true}
			for i, a := range arns {
				ev.AWSAuth.Roles = append(ev.AWSAuth.Roles, evidence.RoleMapping{Index: i, RoleArn: a, Username: NodeUsername, Groups: nodeGroups})
			}
			ev.Mark(evidence.KindAWSAuth, "paste:stdin:50-60")
		}
	}
	cases := []struct {
		name, mode string
		mutate     func(ev *evidence.Evidence)
		want       Status
		msg        []string
	}{
		{"API, no entry of that name", "API", nil, StatusFail,
			[]string{"KarpenterNodeRole-prod", "known by name from paste:stdin:40 (EC2NodeClass default spec.role)", "no access entry"}},
		{"API, an entry of that name under a path in some account", "API", named("arn:aws:iam::444455556666:role/team/KarpenterNodeRole-prod"), StatusPass,
			[]string{"444455556666", "cluster's account"}},
		{"API, an entry of that name in other case", "API", named("arn:aws:iam::444455556666:role/karpenternoderole-prod"), StatusPass, []string{"cluster's account"}},
		{"CONFIG_MAP without aws-auth", "CONFIG_MAP", nil, StatusWarn, []string{"not collected"}},
		{"mode unknown", "", nil, StatusWarn, []string{"not collected"}},
		{"API_AND_CONFIG_MAP, mapped by name in aws-auth", "API_AND_CONFIG_MAP", awsAuth("arn:aws:iam::111122223333:role/KarpenterNodeRole-prod"), StatusPass, []string{"mapRoles"}},
		{"API_AND_CONFIG_MAP, in neither", "API_AND_CONFIG_MAP", awsAuth("arn:aws:iam::111122223333:role/admin"), StatusFail, []string{"known by name", "neither"}},
		{"aws-auth maps the name under a path", "API_AND_CONFIG_MAP", awsAuth("arn:aws:iam::111122223333:role/k/KarpenterNodeRole-prod"), StatusFail, []string{"auth.role-path"}},
	}
	c, _ := Default().Get("auth.role-not-mapped")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ev := nameOnlyRole(tc.mode)
			if tc.mutate != nil {
				tc.mutate(ev)
			}
			f := soleFinding(t, c, ev)
			if f.Status != tc.want {
				t.Fatalf("status %s %q, want %s", f.Status, f.Message, tc.want)
			}
			textHolds(t, "message", f.Message, tc.msg, nil)
			if f.Resource != "KarpenterNodeRole-prod" {
				t.Errorf("resource %q, want the role's name", f.Resource)
			}
			if f.Status == StatusFail {
				var ok bool
				for _, it := range f.Evidence {
					ok = ok || strings.Contains(it.Source+" "+it.Text, "known by name")
				}
				if !ok {
					t.Errorf("evidence %+v does not say the role is known by name", f.Evidence)
				}
			}
		})
	}
}
