package snapshot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestOneObjectFileWithTwoCopies (red team 11b #16): a kube/ file that holds one object, saved
// twice as YAML documents (`---`, the newer copy then the older one) or as JSON outputs appended,
// was judged on whichever copy came last, silently. Copies that differ are an input problem naming
// the file, and none is used (which is current is unknown): aws-auth is a gap, not "role not
// mapped". Copies the same in all eksdoctor reads are the object.
func TestOneObjectFileWithTwoCopies(t *testing.T) {
	cm := func(roles ...string) string {
		s := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n"
		for _, r := range roles {
			s += "    - rolearn: arn:aws:iam::111122223333:role/" + r + "\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:nodes\n"
		}
		return s
	}
	ds := func(ready string) string {
		return `{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"aws-node","namespace":"kube-system"},"spec":{"template":{"spec":{"containers":[{"name":"aws-node"}]}}},"status":{"desiredNumberScheduled":3,"numberReady":` + ready + `}}`
	}
	for _, tc := range []struct {
		name, path, body string
		kind             evidence.Kind
		differ           bool
	}{
		{"aws-auth newer then older", "kube/aws-auth.yaml", cm("node-role", "admin") + "---\n" + cm("admin"), evidence.KindAWSAuth, true},
		{"aws-auth older then newer", "kube/aws-auth.yaml", cm("admin") + "---\n" + cm("node-role", "admin"), evidence.KindAWSAuth, true},
		{"aws-auth twice the same", "kube/aws-auth.yaml", cm("node-role") + "---\n" + cm("node-role"), evidence.KindAWSAuth, false},
		{"aws-node appended JSON", "kube/aws-node.json", ds("3") + "\n" + ds("0"), evidence.KindAWSNode, true},
	} {
		files := fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
		base := strings.TrimSuffix(strings.TrimSuffix(tc.path, ".yaml"), ".json")
		delete(files, base+".json")
		delete(files, base+".yaml")
		files[tc.path] = []byte(tc.body)
		s := FromFiles("test", files)
		ev, err := s.Evidence("i-0a1b2c3d4e5f60001", "")
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(s.Problems)
		gap := ev.GapFor(tc.kind).Reason
		if !tc.differ {
			if strings.Contains(got, "copies") || !ev.Have(tc.kind) || ev.AWSAuth == nil || !ev.AWSAuth.Present || len(ev.AWSAuth.Roles) != 1 {
				t.Errorf("%s: identical copies not read as the object: problems %s, gap %q", tc.name, got, gap)
			}
			continue
		}
		if !strings.Contains(got, tc.path+" holds 2 copies of") || !strings.Contains(got, "which is current is unknown") {
			t.Errorf("%s: no input problem naming the file: %s", tc.name, got)
		}
		if ev.Have(tc.kind) || !strings.Contains(gap, tc.path) || !strings.Contains(gap, "2 copies") {
			t.Errorf("%s: %s still judged (gap %q)", tc.name, tc.kind, gap)
		}
	}
}
