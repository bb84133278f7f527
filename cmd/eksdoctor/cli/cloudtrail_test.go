package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/layout"
)

// CloudTrail's testimony is cluster-wide: scan reports a failed launch and a deleted node access
// entry for the cluster, quoting the event (time, code, caller), and a healthy snapshot whose
// events show a recovered launch and unrelated changes passes both.
func TestScanReportsCloudTrailFaultsForTheCluster(t *testing.T) {
	for _, c := range []struct{ fixture, want string }{
		{"cloudtrail-launch-errors", "nodegroup.launch-errors fail Karpenter NodePool default EC2 refused the launch of Karpenter NodePool default: CreateFleet failed at 2026-11-20T09:49:55Z by the Karpenter controller role (arn:aws:sts::111122223333:assumed-role/KarpenterController-prod/1763629800123456789): Client.InvalidKMSKey.InvalidState: The KMS key provided is in an incorrect state (2 failed requests from 2026-11-20T09:48:31Z)"},
		{"cloudtrail-access-entry-deleted", "auth.mapping-removed fail arn:aws:iam::111122223333:role/prod-node-role arn:aws:sts::111122223333:assumed-role/platform-admin/alice deleted the access entry of node role arn:aws:iam::111122223333:role/prod-node-role at 2026-11-19T16:02:33Z"},
		{"healthy-cloudtrail", "nodegroup.launch-errors pass the cluster events since 2026-11-20T09:16:07Z: 2 RunInstances / CreateFleet events for the cluster, none left a launch failed"},
		{"healthy-cloudtrail", "auth.mapping-removed pass access entries 1 access-entry change of this cluster, none unmaps a node role"},
		{"healthy-al2023", "nodegroup.launch-errors pass the cluster events since"},
	} {
		_, out, errOut := run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", c.fixture), "-o", "json")
		var s struct {
			ClusterFindings []struct{ ID, Status, Resource, Message string } `json:"clusterFindings"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%s: %v %s", c.fixture, err, errOut)
		}
		found := false
		for _, f := range s.ClusterFindings {
			found = found || strings.HasPrefix(f.ID+" "+f.Status+" "+f.Resource+" "+f.Message, c.want)
		}
		if !found {
			t.Errorf("%s: no cluster finding %q in %+v", c.fixture, c.want, s.ClusterFindings)
		}
	}
}

// pruneNotCollectedLive removes from a snapshot copy the files of layout entries the live
// collector does not fetch (SnapshotOnly, with an operation no other entry calls): the CloudTrail
// files until the live collector writes them. Live ≡ snapshot then compares the same evidence;
// once the layout entry is no longer SnapshotOnly this removes nothing.
func pruneNotCollectedLive(t *testing.T, dir string) {
	t.Helper()
	live := map[string]bool{}
	for _, op := range layout.AWSOperations() {
		live[op.Service+":"+op.Name] = true
	}
	for _, e := range layout.Entries {
		if !e.SnapshotOnly || live[e.Permission] {
			continue
		}
		if _, _, aws := e.AWS(); !aws {
			continue
		}
		p := e.Path
		if e.Keyed() {
			p = p[:strings.IndexByte(p, '<')]
		}
		if err := os.RemoveAll(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
}
