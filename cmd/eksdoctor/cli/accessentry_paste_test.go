package cli

import "testing"

// TestPastedAccessEntryOfNodeRole (red team 10a #12, red team 7 #6): `aws eks
// describe-access-entry` pasted without the cluster's list, for a role that reads as a node's
// (a node-like name, or an EC2 type), makes that role the node role: a STANDARD entry fails
// auth.access-entry-type and is the cause; an EC2_LINUX entry passes it and nothing fails; a
// STANDARD entry of a role named like no node's is not taken as the node role. Terraform's
// aws_eks_access_entry with a literal principal reads the same (its type defaults to STANDARD);
// one whose principal is a reference is not read.
func TestPastedAccessEntryOfNodeRole(t *testing.T) {
	entry := func(role, typ string) string {
		return "$ aws eks describe-access-entry --cluster-name prod --principal-arn arn:aws:iam::111122223333:role/" + role + "\n{\n    \"accessEntry\": {\n" +
			"        \"clusterName\": \"prod\",\n        \"principalArn\": \"arn:aws:iam::111122223333:role/" + role + "\",\n        \"kubernetesGroups\": [],\n" +
			"        \"accessEntryArn\": \"arn:aws:eks:us-west-2:111122223333:access-entry/prod/role/111122223333/" + role + "/a2c5e1f0-1111-2222-3333-444455556666\",\n" +
			"        \"createdAt\": \"2026-11-01T10:00:00+00:00\",\n        \"modifiedAt\": \"2026-11-01T10:00:00+00:00\",\n        \"tags\": {},\n" +
			"        \"username\": \"arn:aws:sts::111122223333:assumed-role/" + role + "/{{SessionName}}\",\n        \"type\": \"" + typ + "\"\n    }\n}\n"
	}
	tf := func(principal, typ string) string {
		return "resource \"aws_eks_node_group\" \"main\" {\n  cluster_name    = \"prod\"\n  node_group_name = \"main\"\n  node_role_arn   = \"arn:aws:iam::111122223333:role/prod-node-role\"\n" +
			"  scaling_config {\n    desired_size = 2\n    max_size     = 3\n    min_size     = 1\n  }\n}\n\nresource \"aws_eks_access_entry\" \"nodes\" {\n" +
			"  cluster_name  = \"prod\"\n  principal_arn = " + principal + "\n" + typ + "}\n"
	}
	for _, c := range []struct {
		name, paste, status string
		code                int
	}{
		{"node role, STANDARD", entry("prod-eks-node-role", "STANDARD"), "fail", ExitFindings},
		{"node role, EC2_LINUX", entry("prod-eks-node-role", "EC2_LINUX"), "pass", ExitNothingChecked},
		{"not a node's name, STANDARD", entry("platform-admins", "STANDARD"), "skipped", ExitNothingChecked},
		{"terraform, type left to the default", tf(`"arn:aws:iam::111122223333:role/prod-node-role"`, ""), "fail", ExitFindings},
		{"terraform, EC2_LINUX", tf(`"arn:aws:iam::111122223333:role/prod-node-role"`, "  type          = \"EC2_LINUX\"\n"), "pass", ExitNothingChecked},
		{"terraform, principal a reference", tf("aws_iam_role.node.arn", "  type          = \"STANDARD\"\n"), "", ExitNothingChecked},
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
