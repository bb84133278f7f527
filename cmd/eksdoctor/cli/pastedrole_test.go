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

// TestPastedNodeClassRoleLinksItsPolicies: an EC2NodeClass's spec.role names the role its nodes
// launch with, so `aws iam list-attached-role-policies --role-name` for that role pasted beside
// it is the node role's policy list, whatever the role is called, even with no describe-cluster
// to give the role's ARN (red team 10a, finding 9, case25). A role the node class does not name
// and whose name says nothing is not taken. A role known only by name beside an aws-auth that
// maps no role of that name is still the node role: its policies are judged, and
// auth.role-not-mapped judges it by name (a warning: the access entries were not pasted).
func TestPastedNodeClassRoleLinksItsPolicies(t *testing.T) {
	nodeClass := func(role string) string {
		return "$ kubectl get ec2nodeclass default -o yaml\napiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: default\nspec:\n  role: \"" + role + "\"\n" +
			"  amiSelectorTerms:\n    - alias: al2023@latest\n  subnetSelectorTerms:\n    - tags: {karpenter.sh/discovery: prod}\n  securityGroupSelectorTerms:\n    - tags: {karpenter.sh/discovery: prod}\n\n"
	}
	policies := func(role string, names ...string) string {
		out := "$ aws iam list-attached-role-policies --role-name " + role + "\n{\n    \"AttachedPolicies\": ["
		for i, n := range names {
			if i > 0 {
				out += ","
			}
			out += "\n        {\"PolicyName\": \"" + n + "\", \"PolicyArn\": \"arn:aws:iam::aws:policy/" + n + "\"}"
		}
		return out + "\n    ]\n}\n\n"
	}
	awsAuth := func(role string) string {
		return "$ kubectl -n kube-system get cm aws-auth -o yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n" +
			"    - rolearn: arn:aws:iam::111122223333:role/" + role + "\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\n\n"
	}
	const lacks = "node role %s lacks AmazonEKSWorkerNodePolicy, AmazonEC2ContainerRegistryReadOnly (or AmazonEC2ContainerRegistryPullOnly)"
	for _, c := range []struct {
		name, paste, status, message string
	}{
		{"node-like name", nodeClass("KarpenterNodeRole-prod") + policies("KarpenterNodeRole-prod", "AmazonSSMManagedInstanceCore"), "fail", strings.Replace(lacks, "%s", "KarpenterNodeRole-prod", 1)},
		{"neutral name named by spec.role", nodeClass("platform-x") + policies("platform-x", "AmazonSSMManagedInstanceCore"), "fail", strings.Replace(lacks, "%s", "platform-x", 1)},
		{"all policies", nodeClass("platform-x") + policies("platform-x", "AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryReadOnly", "AmazonEKS_CNI_Policy"), "pass", "node role platform-x has the required managed policies"},
		{"spec.role names another role", nodeClass("KarpenterNodeRole-prod") + policies("platform-x", "AmazonSSMManagedInstanceCore"), "skipped", ""},
		{"aws-auth gives the ARN", nodeClass("platform-x") + policies("platform-x", "AmazonSSMManagedInstanceCore") + awsAuth("platform-x"), "fail", strings.Replace(lacks, "%s", "platform-x", 1)},
		{"aws-auth without the role: ARN unknown", nodeClass("platform-x") + policies("platform-x", "AmazonSSMManagedInstanceCore") + awsAuth("other-node-role"), "fail", strings.Replace(lacks, "%s", "platform-x", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, r, _, errOut := analyze(t, c.paste, "-")
			status, msg := pastedFinding(r, "iam.node-role-policies")
			if status != c.status || !strings.HasPrefix(msg, c.message) {
				t.Errorf("iam.node-role-policies %s %q, want %s %q…\n%s", status, msg, c.status, c.message, errOut)
			}
			if c.status == "fail" && code != 1 || c.status != "fail" && code != 3 {
				t.Errorf("exit %d; failing %v", code, failing(r))
			}
			for _, f := range r.Findings {
				if f.ID == "iam.node-role-policies" && f.Status != "skipped" && f.Resource == "" {
					t.Errorf("finding names no resource: %+v", f)
				}
			}
			if c.name == "aws-auth gives the ARN" {
				if s, m := pastedFinding(r, "auth.role-not-mapped"); s != "pass" {
					t.Errorf("auth.role-not-mapped %s %q, want pass", s, m)
				}
			}
			if c.name == "aws-auth without the role: ARN unknown" {
				if s, m := pastedFinding(r, "auth.role-not-mapped"); s != "warn" || !strings.Contains(m, "node role platform-x (known by name from") {
					t.Errorf("auth.role-not-mapped %s %q, want warn judging the role by name", s, m)
				}
			}
		})
	}
}

// TestPastedMappingUsernameAgainstPastedNodeConfig: with no node role to pick the mapping, a
// pasted NodeConfig still says how the node names its Node, so an aws-auth whose node mappings
// all carry the username of the other naming cannot admit it: system:node:{{SessionName}} beside
// a NodeConfig without featureGates.InstanceIdNodeName fails auth.wrong-username as the snapshot
// form does (red team 10a, finding 14, case37), and so does {{EC2PrivateDNSName}} beside one
// that names nodes by instance ID. A mapping that fits the node's naming (other entries may be
// Fargate's or hybrid nodes'), or no node configuration at all, leaves it passing.
func TestPastedMappingUsernameAgainstPastedNodeConfig(t *testing.T) {
	mapping := func(role, username string, extra ...string) string {
		groups := append([]string{"system:bootstrappers", "system:nodes"}, extra...)
		return "    - rolearn: arn:aws:iam::111122223333:role/" + role + "\n      username: " + username + "\n      groups:\n        - " + strings.Join(groups, "\n        - ") + "\n"
	}
	awsAuth := func(entries ...string) string {
		return "$ kubectl -n kube-system get cm aws-auth -o yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n" + strings.Join(entries, "") + "\n"
	}
	nodeConfig := func(gates string) string {
		return "$ cat nodeconfig.yaml\n---\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n" +
			"    apiServerEndpoint: https://ABCDEF0123456789ABCDEF0123456789.gr7.eu-west-1.eks.amazonaws.com\n" +
			"    certificateAuthority: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=\n" +
			"    cidr: 10.100.0.0/16\n" + gates
	}
	const session, dns = "system:node:{{SessionName}}", "system:node:{{EC2PrivateDNSName}}"
	byID := "  featureGates:\n    InstanceIdNodeName: true\n"
	for _, c := range []struct {
		name, paste, status, message string
	}{
		{"SessionName, NodeConfig names by DNS", awsAuth(mapping("prod-node-role", session)) + nodeConfig(""), "fail",
			`mapRoles entry 1 maps node role arn:aws:iam::111122223333:role/prod-node-role to username "system:node:{{SessionName}}", but the node names its Node after its private DNS name (its NodeConfig does not set featureGates.InstanceIdNodeName) and no node mapping has username system:node:{{EC2PrivateDNSName}}`},
		{"EC2PrivateDNSName, NodeConfig names by instance ID", awsAuth(mapping("prod-node-role", dns)) + nodeConfig(byID), "fail",
			`mapRoles entry 1 maps node role arn:aws:iam::111122223333:role/prod-node-role to username "system:node:{{EC2PrivateDNSName}}", but the node names its Node after its instance ID (nodeadm InstanceIdNodeName) and no node mapping has username system:node:{{SessionName}}`},
		{"SessionName, NodeConfig names by instance ID", awsAuth(mapping("prod-node-role", session)) + nodeConfig(byID), "pass", ""},
		{"a mapping fits beside a Fargate one", awsAuth(mapping("fargate-pods", session, "system:node-proxier"), mapping("prod-node-role", dns)) + nodeConfig(""), "pass", ""},
		{"no node configuration", awsAuth(mapping("prod-node-role", session)), "pass", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, r, _, errOut := analyze(t, c.paste, "-")
			status, msg := pastedFinding(r, "auth.wrong-username")
			if status != c.status || !strings.HasPrefix(msg, c.message) {
				t.Errorf("auth.wrong-username %s %q, want %s %q…\n%s", status, msg, c.status, c.message, errOut)
			}
			for _, f := range r.Findings {
				cited := false
				for _, e := range f.Evidence {
					cited = cited || strings.HasPrefix(e.Text, "the node names its Node") && strings.HasPrefix(e.Source, "paste:stdin")
				}
				if f.ID == "auth.wrong-username" && f.Status == "fail" && !cited {
					t.Errorf("the failure does not cite the node's configuration: %+v", f.Evidence)
				}
			}
			if c.status == "fail" && code != 1 || c.status != "fail" && code != 3 {
				t.Errorf("exit %d; failing %v", code, failing(r))
			}
		})
	}
}
