package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func findingOf(t *testing.T, ev *evidence.Evidence, id string) Finding {
	t.Helper()
	var out []Finding
	for _, f := range Run(All(), ev) {
		if f.ID == id {
			out = append(out, f)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%s: %d findings %+v", id, len(out), out)
	}
	return out[0]
}

// TestCloudTrailAccessEntryUpdates: an UpdateAccessEntry that gives the node role's entry groups
// without system:nodes fails naming them; a deletion followed by a re-created EC2_LINUX entry, a
// failed call and a human's entry pass; an instance whose logs are absent does not judge launch
// errors (it was launched).
func TestCloudTrailAccessEntryUpdates(t *testing.T) {
	node := "arn:aws:iam::111122223333:role/prod-node-role"
	mk := func(changes ...evidence.TrailEvent) *evidence.Evidence {
		ev := &evidence.Evidence{Target: evidence.Target{InstanceID: "i-0a1b2c3d4e5f60001", Cluster: "prod"}, CollectedAt: at("2026-11-20T10:00:00Z")}
		ev.Instance = &evidence.Instance{ID: "i-0a1b2c3d4e5f60001", LaunchTime: at("2026-11-20T09:31:07Z")}
		ev.Mark(evidence.KindInstance, "test")
		ev.NodeRole = &evidence.Role{Name: "prod-node-role", Arn: node}
		ev.Mark(evidence.KindNodeRole, "test")
		evidence.Put(ev, evidence.KindAccessEntryEvents, evidence.AccessEntryEvents(changes))
		ev.Mark(evidence.KindAccessEntryEvents, "snapshot:cloudtrail/lookup-events/UpdateAccessEntry.json")
		evidence.Put(ev, evidence.KindLaunchEvents, evidence.LaunchEvents{Events: []evidence.TrailEvent{{Name: "RunInstances", Time: at("2026-11-20T09:30:00Z"),
			ErrorCode: "Server.InsufficientInstanceCapacity", ErrorMessage: "Insufficient capacity."}}})
		ev.Mark(evidence.KindLaunchEvents, "snapshot:cloudtrail/lookup-events/RunInstances.json")
		return ev
	}
	admin := "arn:aws:sts::111122223333:assumed-role/platform-admin/alice"
	upd := evidence.TrailEvent{Name: "UpdateAccessEntry", Time: at("2026-11-19T12:00:00Z"), Caller: admin, Cluster: "prod", PrincipalArn: node,
		EntryGroups: []string{"developers"}, GroupsSet: true, Source: "snapshot:cloudtrail/lookup-events/UpdateAccessEntry.json"}
	f := findingOf(t, mk(upd), "auth.mapping-removed")
	if f.Status != StatusFail || !strings.Contains(f.Message, "Kubernetes groups [developers] without system:nodes") || !strings.Contains(f.Message, admin) {
		t.Errorf("update: %s %s", f.Status, f.Message)
	}

	del := evidence.TrailEvent{Name: "DeleteAccessEntry", Time: at("2026-11-19T12:00:00Z"), Caller: admin, Cluster: "prod", PrincipalArn: node}
	failed := del
	failed.ErrorCode = "ResourceNotFoundException"
	human := del
	human.PrincipalArn = "arn:aws:iam::111122223333:role/developer"
	ev := mk(del, failed, human)
	ev.AccessEntries = []evidence.AccessEntry{{PrincipalArn: node, Type: "EC2_LINUX"}}
	ev.Mark(evidence.KindAccessEntries, "test")
	if f := findingOf(t, ev, "auth.mapping-removed"); f.Status != StatusPass {
		t.Errorf("re-created entry: %s %s", f.Status, f.Message)
	}
	if f := findingOf(t, mk(del), "auth.mapping-removed"); f.Status != StatusFail || !strings.Contains(f.Message, "deleted the access entry of node role "+node+" at 2026-11-19T12:00:00Z") {
		t.Errorf("deleted: %s %s", f.Status, f.Message)
	}
	if f := findingOf(t, mk(), "nodegroup.launch-errors"); f.Status != StatusSkipped || !strings.Contains(f.Message, "not applicable: instance i-0a1b2c3d4e5f60001 was launched") {
		t.Errorf("instance: %s %s", f.Status, f.Message)
	}

	// a pasted event list alone: no node role is known, so the deleted role entry counts
	bare := &evidence.Evidence{}
	evidence.Put(bare, evidence.KindAccessEntryEvents, evidence.AccessEntryEvents{del})
	bare.Mark(evidence.KindAccessEntryEvents, "paste:DeleteAccessEntry.json")
	if f := findingOf(t, bare, "auth.mapping-removed"); f.Status != StatusFail || f.Resource != node {
		t.Errorf("paste: %s %s", f.Status, f.Message)
	}
}
