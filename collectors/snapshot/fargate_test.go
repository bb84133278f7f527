package snapshot

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestFargateFromSnapshotFiles: the Fargate profile files (docs/snapshot-format.md) and the
// Pending pods are read into the cluster's evidence, and the fargate.* checks judge them: an
// unmapped pod execution role and a pod whose labels no selector matches fail; without the
// files, the checks say why they cannot judge.
func TestFargateFromSnapshotFiles(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files["eks/list-fargate-profiles.json"] = []byte(`{"fargateProfileNames":["fp-default"]}`)
	files["eks/describe-fargate-profile/fp-default.json"] = []byte(`{"fargateProfile":{"fargateProfileName":"fp-default","status":"ACTIVE",
		"podExecutionRoleArn":"arn:aws:iam::111122223333:role/prod-fargate-pods","subnets":["subnet-0a11b22c33d44e551"],
		"selectors":[{"namespace":"serverless","labels":{"compute":"fargate"}}]}}`)
	files["kube/pending-pods.json"] = []byte(`{"apiVersion":"v1","kind":"List","items":[
		{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"serverless"},"spec":{"schedulerName":"fargate-scheduler"},"status":{"phase":"Pending"}},
		{"apiVersion":"v1","kind":"Pod","metadata":{"name":"api-1","namespace":"default"},"spec":{"schedulerName":"default-scheduler"},"status":{"phase":"Pending"}}]}`)
	s := FromFiles("snapshot", files)
	ev := s.ClusterEvidence("prod")
	if len(ev.Fargate.Profiles) != 1 || len(ev.Fargate.PendingPods) != 2 {
		t.Fatalf("profiles %+v, pending pods %+v", ev.Fargate.Profiles, ev.Fargate.PendingPods)
	}
	got := map[string]checks.Finding{}
	for _, f := range checks.Run(checks.All(), ev) {
		if strings.HasPrefix(f.ID, "fargate.") {
			got[f.ID] = f
		}
	}
	if f := got["fargate.pod-execution-role"]; f.Status != checks.StatusFail || !strings.Contains(f.Message, "prod-fargate-pods") {
		t.Errorf("fargate.pod-execution-role %s: %s", f.Status, f.Message)
	}
	if f := got["fargate.no-matching-profile"]; f.Status != checks.StatusFail || !strings.Contains(f.Message, "serverless/web-1") || strings.Contains(f.Message, "api-1") {
		t.Errorf("fargate.no-matching-profile %s: %s", f.Status, f.Message)
	}

	noFargate := fixtureFiles(t, hostileFixture)
	delete(noFargate, "eks/list-fargate-profiles.json") // a snapshot collected without them
	bare := FromFiles("snapshot", noFargate).ClusterEvidence("prod")
	if g := bare.GapFor(evidence.KindFargateProfiles); !strings.Contains(g.Reason, "eks/list-fargate-profiles.json") {
		t.Errorf("no Fargate files: gap %+v", g)
	}
}
