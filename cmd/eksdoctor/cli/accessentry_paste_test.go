package cli

import "testing"

// TestPastedAccessEntryOfNodeRole (red team 10a #12, red team 7 #6): `aws eks
// describe-access-entry` pasted without the cluster's list, for a role that reads as a node's
// (a node-like name, or an EC2 type), makes that role the node role: a STANDARD entry fails
// auth.access-entry-type and is the cause; an EC2_LINUX entry passes it and nothing fails; a
// STANDARD entry of a role named like no node's is not taken as the node role.
func TestPastedAccessEntryOfNodeRole(t *testing.T) {
	entry := func(role, typ string) string {
		return "$ aws eks describe-access-entry --cluster-name prod --principal-arn arn:aws:iam::111122223333:role/" + role + "\n{\n    \"accessEntry\": {\n" +
			"        \"clusterName\": \"prod\",\n        \"principalArn\": \"arn:aws:iam::111122223333:role/" + role + "\",\n        \"kubernetesGroups\": [],\n" +
			"        \"accessEntryArn\": \"arn:aws:eks:us-west-2:111122223333:access-entry/prod/role/111122223333/" + role + "/a2c5e1f0-1111-2222-3333-444455556666\",\n" +
			"        \"createdAt\": \"2026-11-01T10:00:00+00:00\",\n        \"modifiedAt\": \"2026-11-01T10:00:00+00:00\",\n        \"tags\": {},\n" +
			"        \"username\": \"arn:aws:sts::111122223333:assumed-role/" + role + "/{{SessionName}}\",\n        \"type\": \"" + typ + "\"\n    }\n}\n"
	}
	for _, c := range []struct {
		name, paste, status string
		code                int
	}{
		{"node role, STANDARD", entry("prod-eks-node-role", "STANDARD"), "fail", ExitFindings},
		{"node role, EC2_LINUX", entry("prod-eks-node-role", "EC2_LINUX"), "pass", ExitNothingChecked},
		{"not a node's name, STANDARD", entry("platform-admins", "STANDARD"), "skipped", ExitNothingChecked},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, r, _, errOut := analyze(t, c.paste, "-")
			got := ""
			for _, f := range r.Findings {
				if f.ID == "auth.access-entry-type" {
					got = f.Status
				}
			}
			if got != c.status || code != c.code {
				t.Errorf("auth.access-entry-type %q (want %q), exit %d (want %d), failing %v\n%s", got, c.status, code, c.code, failing(r), errOut)
			}
			if c.status == "fail" && (r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "auth.access-entry-type") {
				t.Errorf("cause %v", r.Diagnosis.MostLikelyCause)
			}
			if c.status != "fail" && len(failing(r)) > 0 {
				t.Errorf("failing %v", failing(r))
			}
		})
	}
}
