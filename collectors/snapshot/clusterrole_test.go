package snapshot

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func TestClusterRoleLoaded(t *testing.T) {
	s := FromFiles("test", fixtureFiles(t, hostileFixture))
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	r := ev.ClusterRole
	if !ev.Have(evidence.KindClusterRole) || r == nil || r.Missing || r.Name != "prod-cluster-role" || r.TrustPolicy == nil {
		t.Fatalf("cluster role = %+v (gap %+v)", r, ev.GapFor(evidence.KindClusterRole))
	}
	if !ev.Have(evidence.KindClusterRolePolicies) || len(ev.ClusterRolePolicies) != 2 || ev.ClusterRolePolicies[0].Name != "AmazonEKSClusterPolicy" {
		t.Errorf("cluster role policies = %+v", ev.ClusterRolePolicies)
	}
	// the node role is still the node's, not the cluster's
	if ev.NodeRole == nil || ev.NodeRole.Name != "prod-node-role" {
		t.Errorf("node role = %+v", ev.NodeRole)
	}
}

func TestClusterRoleDeletedIsAFact(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files["iam/get-role/prod-cluster-role.json"] = []byte("\nAn error occurred (NoSuchEntity) when calling the GetRole operation: The role with name prod-cluster-role cannot be found.\n")
	delete(files, "iam/list-attached-role-policies/prod-cluster-role.json")
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	if !ev.Have(evidence.KindClusterRole) || ev.ClusterRole == nil || !ev.ClusterRole.Missing || !strings.HasSuffix(ev.ClusterRole.Arn, ":role/prod-cluster-role") {
		t.Fatalf("cluster role = %+v (gap %+v)", ev.ClusterRole, ev.GapFor(evidence.KindClusterRole))
	}
	if ev.Have(evidence.KindClusterRolePolicies) || !strings.Contains(ev.GapFor(evidence.KindClusterRolePolicies).Reason, "does not exist") {
		t.Errorf("policies gap = %+v", ev.GapFor(evidence.KindClusterRolePolicies))
	}
}

func TestClusterRoleDeniedIsAGap(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files["iam/get-role/prod-cluster-role.json"] = []byte("\nAn error occurred (AccessDenied) when calling the GetRole operation: User: arn:aws:sts::111122223333:assumed-role/eksdoctor/x is not authorized to perform: iam:GetRole\n")
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Have(evidence.KindClusterRole) || !strings.Contains(ev.GapFor(evidence.KindClusterRole).Reason, "AccessDenied") {
		t.Errorf("gap = %+v", ev.GapFor(evidence.KindClusterRole))
	}
}
