package cli

import (
	"strings"
	"testing"
)

// pastedFinding returns the status and message of the finding id in r ("" when it is not there).
func pastedFinding(r jsonReport, id string) (status, message string) {
	for _, f := range r.Findings {
		if f.ID == id {
			return f.Status, f.Message
		}
	}
	return "", ""
}

// TestPastedInstanceProfileRoleKeepsItsTrustPolicy: GetInstanceProfile returns each role whole
// (botocore iam Role shape: AssumeRolePolicyDocument included), so a pasted
// get-instance-profile whose role trusts eks.amazonaws.com fails iam.node-role-trust, one that
// trusts ec2.amazonaws.com passes it, and one narrowed so the document is not printed leaves it
// skipped, saying the document was not in the evidence (red team 10a, finding 15, case73).
func TestPastedInstanceProfileRoleKeepsItsTrustPolicy(t *testing.T) {
	profile := func(role string) string {
		return "$ aws iam get-instance-profile --instance-profile-name prod-node-profile\n{\n  \"InstanceProfile\": {\n    \"Path\": \"/\",\n    \"InstanceProfileName\": \"prod-node-profile\",\n" +
			"    \"InstanceProfileId\": \"AIPAEXAMPLE1234567890\",\n    \"Arn\": \"arn:aws:iam::111122223333:instance-profile/prod-node-profile\",\n    \"CreateDate\": \"2026-01-10T10:00:00+00:00\",\n" +
			"    \"Roles\": [" + role + "]\n  }\n}\n"
	}
	role := func(trust string) string {
		doc := ""
		if trust != "" {
			doc = ",\n\"AssumeRolePolicyDocument\": {\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"Allow\", \"Principal\": {\"Service\": \"" + trust + "\"}, \"Action\": \"sts:AssumeRole\"}]}"
		}
		return "{\"Path\": \"/\", \"RoleName\": \"prod-node-role\", \"RoleId\": \"AROAEXAMPLE1234567890\", \"Arn\": \"arn:aws:iam::111122223333:role/prod-node-role\", \"CreateDate\": \"2026-01-10T10:00:00+00:00\"" + doc + "}"
	}
	for _, c := range []struct {
		name, paste, status, message string
		code                         int
	}{
		{"trusts EKS, not EC2", profile(role("eks.amazonaws.com")), "fail", "trust policy of prod-node-role does not allow ec2.amazonaws.com to assume it", 1},
		{"trusts EC2", profile(role("ec2.amazonaws.com")), "pass", "ec2.amazonaws.com may assume prod-node-role", 3},
		{"no trust policy printed", profile(role("")), "skipped", "the role's AssumeRolePolicyDocument was not in the evidence", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, r, _, errOut := analyze(t, c.paste, "-")
			status, msg := pastedFinding(r, "iam.node-role-trust")
			if status != c.status || msg != c.message {
				t.Errorf("iam.node-role-trust %s %q, want %s %q\n%s", status, msg, c.status, c.message, errOut)
			}
			if code != c.code {
				t.Errorf("exit %d, want %d; failing %v", code, c.code, failing(r))
			}
			if c.status == "fail" && (r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "iam.node-role-trust") {
				t.Errorf("most likely cause %v, want iam.node-role-trust", r.Diagnosis.MostLikelyCause)
			}
			if c.status == "fail" && !strings.Contains(errOut, "get-instance-profile") {
				t.Errorf("stderr does not name the get-instance-profile output:\n%s", errOut)
			}
		})
	}
}
