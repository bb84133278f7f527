package awsauth

import (
	"reflect"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// These tests pin Parse to the behaviour of kubernetes-sigs/aws-iam-authenticator (read at
// commit 81b1daba): pkg/mapper/configmap/configmap.go ParseMap and isSkippable,
// pkg/config/mapper.go RoleMapping.Validate / UserMapping.Validate / Matches, and
// pkg/server/server.go renderTemplate. The inputs are our own.

func problems(a *evidence.AWSAuth) string {
	var out []string
	for _, p := range a.Problems {
		out = append(out, p.Key+": "+p.Message)
	}
	return strings.Join(out, "\n")
}

// Rule (configmap.go ParseMap): only the exact keys mapRoles, mapUsers and mapAccounts are
// read (m["mapRoles"]); "maproles" maps nothing, and the problem quotes the key.
func TestUpstreamDataKeysAreCaseSensitive(t *testing.T) {
	a := Parse(map[string]string{"maproles": "- rolearn: arn:aws:iam::111122223333:role/node\n  username: system:node:{{EC2PrivateDNSName}}\n  groups: [system:bootstrappers, system:nodes]\n"})
	if len(a.Roles) != 0 {
		t.Errorf("roles = %+v, want none", a.Roles)
	}
	if len(a.Problems) != 1 || a.Problems[0].Key != "maproles" || !strings.Contains(a.Problems[0].Message, `"maproles" is ignored, so it maps nothing`) {
		t.Errorf("problems:\n%s", problems(a))
	}
}

// Rule (configmap.go isSkippable): a value that is blank or only a pair of backquotes,
// double quotes or single quotes is no mapping at all, not an error.
func TestUpstreamSkippableValues(t *testing.T) {
	for _, v := range []string{"", "  ", "``", `""`, "''", " '' \n"} {
		a := Parse(map[string]string{"mapRoles": v, "mapUsers": v, "mapAccounts": v})
		if len(a.Problems) != 0 || len(a.Roles) != 0 {
			t.Errorf("%q: problems:\n%s", v, problems(a))
		}
	}
}

// Rule (mapper.go RoleMapping.Validate, applied in ParseMap): an entry with both rolearn and
// sso is rejected ("only one of rolearn or SSO can be supplied") and is not loaded, so the
// role it names is not mapped.
func TestUpstreamRoleWithRoleArnAndSSOIsDropped(t *testing.T) {
	a := Parse(map[string]string{"mapRoles": "- rolearn: arn:aws:iam::111122223333:role/node\n  sso:\n    permissionSetName: Admin\n    accountID: \"111122223333\"\n  username: system:node:{{EC2PrivateDNSName}}\n  groups: [system:bootstrappers, system:nodes]\n"})
	if len(a.Roles) != 0 {
		t.Errorf("roles = %+v, want none (the authenticator drops the entry)", a.Roles)
	}
	if !strings.Contains(problems(a), "both rolearn and sso") {
		t.Errorf("problems:\n%s", problems(a))
	}
}

// Rule (mapper.go UserMapping.Validate): a mapUsers entry without userarn is rejected and not
// loaded.
func TestUpstreamUserWithoutArnIsDropped(t *testing.T) {
	a := Parse(map[string]string{"mapUsers": "- username: admin\n  groups: [system:masters]\n- userarn: arn:aws:iam::111122223333:user/ops\n  username: ops\n"})
	if len(a.Users) != 1 || a.Users[0].UserArn != "arn:aws:iam::111122223333:user/ops" {
		t.Errorf("users = %+v", a.Users)
	}
	if !strings.Contains(problems(a), "entry 1 has no userarn") {
		t.Errorf("problems:\n%s", problems(a))
	}
}

// Rule (configmap.go ParseMap): mapAccounts is decoded with gopkg.in/yaml.v2 into []string,
// which takes an unquoted number as its text; account IDs written as numbers are allowed.
func TestUpstreamMapAccountsNumbers(t *testing.T) {
	a := Parse(map[string]string{"mapAccounts": "- 111122223333\n- \"444455556666\"\n"})
	if !reflect.DeepEqual(a.Accounts, []string{"111122223333", "444455556666"}) || len(a.Problems) != 0 {
		t.Errorf("accounts = %q problems:\n%s", a.Accounts, problems(a))
	}
	a = Parse(map[string]string{"mapAccounts": "111122223333\n"})
	if len(a.Accounts) != 0 || !strings.Contains(problems(a), "mapAccounts does not parse") {
		t.Errorf("a bare scalar is not a list: accounts = %q problems:\n%s", a.Accounts, problems(a))
	}
}

// Rule (ParseMap: YAML converted to JSON, then json.Unmarshal into []RoleMapping): groups
// indented so that they are not the entry's "groups" list leave the entry with no groups.
func TestUpstreamGroupsInTheWrongPlaceMapNoGroups(t *testing.T) {
	cases := map[string]string{
		// the group names become list items of mapRoles itself
		"outdented": "- rolearn: arn:aws:iam::111122223333:role/node\n  username: system:node:{{EC2PrivateDNSName}}\n  groups:\n- system:bootstrappers\n- system:nodes\n",
		// the group names fold into one plain scalar
		"no dashes": "- rolearn: arn:aws:iam::111122223333:role/node\n  username: system:node:{{EC2PrivateDNSName}}\n  groups:\n    system:bootstrappers\n    system:nodes\n",
		// groups is its own list item, so a second entry without rolearn
		"own item": "- rolearn: arn:aws:iam::111122223333:role/node\n  username: system:node:{{EC2PrivateDNSName}}\n- groups:\n    - system:bootstrappers\n    - system:nodes\n",
	}
	for name, v := range cases {
		a := Parse(map[string]string{"mapRoles": v})
		var node *evidence.RoleMapping
		for i := range a.Roles {
			if a.Roles[i].RoleArn == "arn:aws:iam::111122223333:role/node" {
				node = &a.Roles[i]
			}
		}
		if node == nil {
			t.Errorf("%s: the node entry is not loaded: %+v\n%s", name, a.Roles, problems(a))
			continue
		}
		if len(node.Groups) != 0 {
			t.Errorf("%s: groups = %q, want none", name, node.Groups)
		}
		if len(a.Problems) == 0 {
			t.Errorf("%s: want a problem", name)
		}
		for _, r := range a.Roles {
			if r.RoleArn == "" {
				t.Errorf("%s: an entry without rolearn is loaded: %+v", name, r)
			}
		}
	}
}

// Rule (server.go renderTemplate): only {{EC2PrivateDNSName}}, {{AccountID}}, {{SessionName}},
// {{SessionNameRaw}} and {{AccessKeyID}} are replaced, by exact, case-sensitive string
// replacement; any other {{...}} stays in the username or group literally.
func TestUpstreamUsernameTemplates(t *testing.T) {
	ok := Parse(map[string]string{"mapRoles": "- rolearn: arn:aws:iam::111122223333:role/node\n  username: system:node:{{EC2PrivateDNSName}}\n  groups: [system:bootstrappers, system:nodes]\n" +
		"- rolearn: arn:aws:iam::111122223333:role/dev\n  username: dev:{{AccountID}}:{{SessionName}}:{{SessionNameRaw}}:{{AccessKeyID}}\n"})
	if len(ok.Problems) != 0 {
		t.Errorf("known templates: problems:\n%s", problems(ok))
	}
	bad := Parse(map[string]string{"mapRoles": "- rolearn: arn:aws:iam::111122223333:role/node\n  username: system:node:{{EC2PrivateDnsName}}\n  groups: [system:bootstrappers, system:nodes, \"team:{{ SessionName }}\"]\n"})
	got := problems(bad)
	if !strings.Contains(got, "{{EC2PrivateDnsName}}") || !strings.Contains(got, "{{ SessionName }}") {
		t.Errorf("unknown templates: problems:\n%s", got)
	}
	if len(bad.Roles) != 1 || bad.Roles[0].Username != "system:node:{{EC2PrivateDnsName}}" {
		t.Errorf("the entry is still loaded as written: %+v", bad.Roles)
	}
}

// Rule (configmap.go ParseMap → k8s.io/apimachinery util/yaml.ToJSON → sigs.k8s.io/yaml
// YAMLToJSON, which is yaml.Unmarshal and not UnmarshalStrict): YAML merge keys are resolved
// and a key written beside "<<" overrides the merged one, so a mapping built as
// "- <<: *node / rolearn: B" maps B with the anchor's username and groups, and is no
// duplicate key (go-yaml v2's strict mode wrongly calls it one: kubernetes-sigs/yaml#46).
// A key written twice in one mapping is still a duplicate; an alias to no anchor is not
// YAML, and the authenticator loads nothing from it.
func TestUpstreamMergeKeyOverrideIsNotADuplicate(t *testing.T) {
	const anchor = "- &node\n  rolearn: arn:aws:iam::111122223333:role/prod-node-role\n  username: system:node:{{EC2PrivateDNSName}}\n  groups:\n    - system:bootstrappers\n    - system:nodes\n"
	cases := []struct {
		name, mapRoles, problem string
		roles                   []evidence.RoleMapping
	}{
		{"block merge with override", anchor + "- <<: *node\n  rolearn: arn:aws:iam::111122223333:role/KarpenterNodeRole-prod\n", "", []evidence.RoleMapping{
			{RoleArn: "arn:aws:iam::111122223333:role/prod-node-role", Username: "system:node:{{EC2PrivateDNSName}}", Groups: []string{"system:bootstrappers", "system:nodes"}, Index: 0},
			{RoleArn: "arn:aws:iam::111122223333:role/KarpenterNodeRole-prod", Username: "system:node:{{EC2PrivateDNSName}}", Groups: []string{"system:bootstrappers", "system:nodes"}, Index: 1}}},
		// go-yaml v2 (decode.go mapping) applies a "<<" where it stands, so a merge written
		// after a key overwrites it: the authenticator maps the anchor's role again, not role/b.
		{"flow merge after the key", anchor + "- {rolearn: arn:aws:iam::111122223333:role/b, <<: *node}\n", "", []evidence.RoleMapping{
			{RoleArn: "arn:aws:iam::111122223333:role/prod-node-role", Username: "system:node:{{EC2PrivateDNSName}}", Groups: []string{"system:bootstrappers", "system:nodes"}, Index: 0},
			{RoleArn: "arn:aws:iam::111122223333:role/prod-node-role", Username: "system:node:{{EC2PrivateDNSName}}", Groups: []string{"system:bootstrappers", "system:nodes"}, Index: 1}}},
		{"merge list of anchors", "- &a {rolearn: arn:aws:iam::1:role/a, username: ua}\n- &g {groups: [system:nodes]}\n- <<: [*a, *g]\n  rolearn: arn:aws:iam::1:role/c\n", "entry 2 has no rolearn", []evidence.RoleMapping{
			{RoleArn: "arn:aws:iam::1:role/a", Username: "ua", Index: 0},
			{RoleArn: "arn:aws:iam::1:role/c", Username: "ua", Groups: []string{"system:nodes"}, Index: 2}}},
		{"explicit key twice beside a merge", anchor + "- <<: *node\n  rolearn: arn:aws:iam::1:role/b\n  rolearn: arn:aws:iam::1:role/c\n", `mapRoles has a duplicate key (the authenticator silently keeps the last value): line 9: key "rolearn" already set in map`, []evidence.RoleMapping{
			{RoleArn: "arn:aws:iam::111122223333:role/prod-node-role", Username: "system:node:{{EC2PrivateDNSName}}", Groups: []string{"system:bootstrappers", "system:nodes"}, Index: 0},
			{RoleArn: "arn:aws:iam::1:role/c", Username: "system:node:{{EC2PrivateDNSName}}", Groups: []string{"system:bootstrappers", "system:nodes"}, Index: 1}}},
		{"alias to no anchor", "- <<: *nope\n  rolearn: arn:aws:iam::1:role/b\n", "mapRoles is not valid YAML, so the authenticator loads none of its entries", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := Parse(map[string]string{"mapRoles": tc.mapRoles})
			got := problems(a)
			if tc.problem == "" && got != "" || tc.problem != "" && !strings.Contains(got, tc.problem) {
				t.Errorf("problems:\n%s\nwant containing %q", got, tc.problem)
			}
			if strings.Contains(got, "duplicate key") != strings.Contains(tc.problem, "duplicate key") {
				t.Errorf("duplicate-key verdict wrong:\n%s", got)
			}
			if !reflect.DeepEqual(a.Roles, tc.roles) {
				t.Errorf("roles = %+v\nwant  %+v", a.Roles, tc.roles)
			}
		})
	}
}
