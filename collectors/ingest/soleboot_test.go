package ingest

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestSoleUserDataPasted: with no instance in the paste, the one user data it holds — a
// describe-instance-attribute --attribute userData output, else the one launch template version
// of describe-launch-template-versions — is the node's, as a bare base64 paste is; with two
// sources, or a template that names no AMI (EKS merges its own bootstrap into a managed node
// group's) or holds no user data, it is not guessed.
func TestSoleUserDataPasted(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte(nodeConfigFor("prod-old")))
	attr := "$ aws ec2 describe-instance-attribute --instance-id i-0a1b2c3d4e5f60006 --attribute userData\n" +
		`{"InstanceId": "i-0a1b2c3d4e5f60006", "UserData": {"Value": "` + b64 + `"}}` + "\n"
	noAMI := "$ aws ec2 describe-launch-template-versions --launch-template-id lt-0a1b2c3d4e5f60001\n" +
		`{"LaunchTemplateVersions": [{"LaunchTemplateId": "lt-0a1b2c3d4e5f60001", "VersionNumber": 1, "LaunchTemplateData": {"UserData": "` + b64 + `"}}]}` + "\n"
	noUserData := "$ aws ec2 describe-launch-template-versions --launch-template-id lt-0a1b2c3d4e5f60001\n" +
		`{"LaunchTemplateVersions": [{"LaunchTemplateId": "lt-0a1b2c3d4e5f60001", "VersionNumber": 1, "LaunchTemplateData": {"ImageId": "ami-0abc1234def567890"}}]}` + "\n"
	lt := func(id string, versions ...int) string {
		var vs []string
		for _, v := range versions {
			vs = append(vs, `{"LaunchTemplateId": "`+id+`", "VersionNumber": `+string(rune('0'+v))+`, "DefaultVersion": true,
  "LaunchTemplateData": {"ImageId": "ami-0abc1234def567890", "UserData": "`+b64+`", "SecurityGroupIds": ["sg-0aaaaaaaaaaaaaaa1"]}}`)
		}
		return "$ aws ec2 describe-launch-template-versions --launch-template-id " + id + "\n{\"LaunchTemplateVersions\": [" + strings.Join(vs, ",") + "]}\n"
	}
	dc := "$ aws eks describe-cluster --name prod\n" + describeClusterOut + "\n"
	for _, tc := range []struct {
		name, body, source string
	}{
		{"instance attribute", dc + attr, "(the one instance user data in the input)"},
		{"instance attribute alone", attr, "(the one instance user data in the input)"},
		{"launch template", dc + lt("lt-0a1b2c3d4e5f60001", 3), "(launch template lt-0a1b2c3d4e5f60001 version 3 user data"},
		{"both", dc + lt("lt-0a1b2c3d4e5f60001", 3) + "\n" + attr, "(the one instance user data in the input)"},
		{"template without an AMI (a managed node group's)", dc + noAMI, ""},
		{"template without user data", dc + noUserData, ""},
		{"two versions", dc + lt("lt-0a1b2c3d4e5f60001", 2, 3), ""},
		{"two templates", dc + lt("lt-0a1b2c3d4e5f60001", 3) + "\n" + lt("lt-0a1b2c3d4e5f60002", 3), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Read([]byte(tc.body), "stdin", Options{})
			ev := r.Evidence
			if tc.source == "" {
				if ev.Have(evidence.KindBootstrap) {
					t.Fatalf("user data guessed from %q", ev.Source(evidence.KindBootstrap))
				}
				return
			}
			if !ev.Have(evidence.KindBootstrap) || ev.Bootstrap.ClusterName != "prod-old" {
				t.Fatalf("bootstrap %+v (gap %q), want the pasted user data's cluster prod-old", ev.Bootstrap, ev.GapFor(evidence.KindBootstrap).Reason)
			}
			if src := ev.Source(evidence.KindUserData); !strings.Contains(src, tc.source) {
				t.Errorf("user data source %q, want %s", src, tc.source)
			}
			if strings.Contains(tc.source, "launch template") {
				if g := ev.GapFor(evidence.KindLaunchTemplate).Reason; !strings.Contains(g, "lt-0a1b2c3d4e5f60001") || strings.Contains(g, "not in the input") {
					t.Errorf("launch template gap %q, want one naming the template read and what is missing", g)
				}
			}
		})
	}
}
