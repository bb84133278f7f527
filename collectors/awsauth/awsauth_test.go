package awsauth

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name      string
		data      map[string]string
		roles     int
		problem   string // substring of a problem; "" = none
		firstArn  string
		firstUser string
	}{
		{"normal", map[string]string{"mapRoles": "- rolearn: arn:aws:iam::111122223333:role/node\n  username: system:node:{{EC2PrivateDNSName}}\n  groups:\n    - system:bootstrappers\n    - system:nodes\n"}, 1, "", "arn:aws:iam::111122223333:role/node", "system:node:{{EC2PrivateDNSName}}"},
		{"case-insensitive fields", map[string]string{"mapRoles": "- roleARN: arn:aws:iam::1:role/n\n  userName: u\n"}, 1, "", "arn:aws:iam::1:role/n", "u"},
		// the entry then has no rolearn, so RoleMapping.Validate rejects it and nothing is loaded
		{"ignored field", map[string]string{"mapRoles": "- role_arn: arn:aws:iam::1:role/n\n  username: u\n"}, 0, `field "role_arn"`, "", ""},
		{"bad yaml", map[string]string{"mapRoles": "- rolearn: a\n username: b\n"}, 0, "not valid YAML", "", ""},
		{"not a list", map[string]string{"mapRoles": "rolearn: a\nusername: b\n"}, 0, "must be a YAML list", "", ""},
		{"duplicate key", map[string]string{"mapRoles": "- rolearn: a\n  rolearn: b\n  username: u\n"}, 1, "duplicate key", "b", "u"},
		{"empty", map[string]string{"mapRoles": "``"}, 0, "", "", ""},
		{"wrong data key", map[string]string{"maproles": "- rolearn: a\n"}, 0, `data key "maproles" is ignored`, "", ""},
		{"groups wrong type", map[string]string{"mapRoles": "- rolearn: a\n  username: u\n  groups: system:nodes\n"}, 1, "does not decode", "a", "u"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := Parse(tc.data)
			if len(a.Roles) != tc.roles {
				t.Fatalf("roles = %d (%+v), want %d", len(a.Roles), a.Roles, tc.roles)
			}
			var msgs []string
			for _, p := range a.Problems {
				msgs = append(msgs, p.Message)
			}
			all := strings.Join(msgs, "|")
			if tc.problem == "" && len(msgs) > 0 {
				t.Fatalf("unexpected problems %v", msgs)
			}
			if tc.problem != "" && !strings.Contains(all, tc.problem) {
				t.Fatalf("want problem %q, got %v", tc.problem, msgs)
			}
			if tc.roles > 0 && (a.Roles[0].RoleArn != tc.firstArn || a.Roles[0].Username != tc.firstUser) {
				t.Errorf("first = %+v", a.Roles[0])
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add("- rolearn: arn:aws:iam::1:role/n\n  username: system:node:{{EC2PrivateDNSName}}\n  groups: [system:nodes]\n", "- userarn: x\n", "- \"1\"\n")
	f.Add("{{", "", "[")
	f.Fuzz(func(t *testing.T, roles, users, accounts string) {
		a := Parse(map[string]string{"mapRoles": roles, "mapUsers": users, "mapAccounts": accounts})
		if a == nil || !a.Present {
			t.Fatal("nil or not present")
		}
	})
}
