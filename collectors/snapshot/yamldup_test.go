package snapshot

import (
	"fmt"
	"strings"
	"testing"
)

// TestYAMLDuplicateKeysReported (red team 11b #16): a key twice in one YAML mapping — two
// `--output yaml` pages appended with >>, an aws-auth saved twice without --- — is an input
// problem naming the file, the key and its line, as it is in JSON; one copy each is none.
func TestYAMLDuplicateKeysReported(t *testing.T) {
	files := fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
	page := "Reservations:\n- ReservationId: r-1\n  Instances: []\n"
	files["ec2/describe-instances.json"] = []byte(page + page)
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/a\n      username: system:node:{{EC2PrivateDNSName}}\n"
	files["kube/aws-auth.yaml"] = []byte(cm + "data:\n  mapRoles: \"\"\n")
	s := FromFiles("test", files)
	s.InstanceIDs()
	s.ClusterEvidence("prod")
	got := fmt.Sprint(s.Problems)
	for _, want := range []string{`ec2/describe-instances.json holds key "Reservations" twice`, `kube/aws-auth.yaml holds key "data" twice`} {
		if !strings.Contains(got, want) {
			t.Errorf("no problem %q: %s", want, got)
		}
	}
	clean := FromFiles("test", fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023"))
	clean.Evidence("i-0a1b2c3d4e5f60001", "")
	if strings.Contains(fmt.Sprint(clean.Problems), "twice") {
		t.Errorf("a clean snapshot reports duplicates: %v", clean.Problems)
	}
}
