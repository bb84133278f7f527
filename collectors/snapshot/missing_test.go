package snapshot

import (
	"slices"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestMissingFileNeverNamesAnotherCause: a snapshot file left out never turns the run into a
// confident answer it could not give. Without describe-vpc-endpoints the node's way out
// through a NAT gateway or the internet cannot be the cause (an endpoint may carry the flow):
// net.no-egress-route is unverified, not failing. Without one of the webhook configurations a
// fail-closed webhook cannot be ruled out, without the AMI the user data's format cannot be
// judged, without the node's own node group described its launch template's use cannot, without
// the NodeClaims (and no Karpenter log) a Karpenter node's registration cannot: the run is
// inconclusive, not "no cause found".
func TestMissingFileNeverNamesAnotherCause(t *testing.T) {
	for _, tc := range []struct {
		fixture, drop string
		notFailing    string
		verdict       checks.Verdict
	}{
		{"net-vpc-endpoints-missing", "ec2/describe-vpc-endpoints.json", "net.no-egress-route", checks.VerdictInconclusive},
		{"net-vpc-endpoint-sg", "ec2/describe-vpc-endpoints.json", "net.no-egress-route", checks.VerdictInconclusive},
		{"cluster-webhook-blocks-nodes", "kube/validatingwebhookconfigurations.json", "cluster.webhook-blocks-nodes", checks.VerdictInconclusive},
		{"bootstrap-al2-userdata-on-al2023", "ec2/describe-images.json", "bootstrap.wrong-format-for-ami", checks.VerdictInconclusive},
		{"nodegroup-lt-network-interfaces", "eks/describe-nodegroup/ng-al2023.json", "nodegroup.lt-network-interfaces", checks.VerdictInconclusive},
		{"karpenter-nodeclaim-not-registered", "kube/nodeclaims.json", "karpenter.nodeclaim-not-registered", checks.VerdictInconclusive},
	} {
		files := fixtureFiles(t, "../../fixtures/snapshots/"+tc.fixture)
		if _, ok := files[tc.drop]; !ok {
			t.Fatalf("%s has no %s", tc.fixture, tc.drop)
		}
		delete(files, tc.drop)
		_, _, findings, d := diagnoseFiles(t, files)
		if slices.Contains(d.Ranked, tc.notFailing) {
			t.Errorf("%s without %s: %s fails (ranked %v)", tc.fixture, tc.drop, tc.notFailing, d.Ranked)
		}
		for _, f := range findings {
			if f.ID == tc.notFailing && f.Status == checks.StatusSkipped && !strings.HasPrefix(f.Message, "missing evidence") && !strings.HasPrefix(f.Message, "cannot verify") {
				t.Errorf("%s without %s: %s skipped as %q, want missing evidence", tc.fixture, tc.drop, f.ID, f.Message)
			}
		}
		if d.Verdict != tc.verdict {
			t.Errorf("%s without %s: verdict %s (%s), want %s", tc.fixture, tc.drop, d.Verdict, d.Summary, tc.verdict)
		}
	}
}

// TestNodesNotReadNeverSaysAllClear: a healthy node's snapshot without kube/nodes.json finds no
// cause, and is inconclusive: whether the node registered was not seen, and the summary names the
// file (red team 8a, finding 7: never "no cause found", exit 0).
func TestNodesNotReadNeverSaysAllClear(t *testing.T) {
	files := fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
	metas := map[string]checks.Meta{}
	for _, c := range checks.All() {
		metas[c.Meta.ID] = c.Meta
	}
	conclude := func() checks.Diagnosis {
		s := FromFiles("test", files)
		ev, err := s.Evidence(s.InstanceIDs()[0], "")
		if err != nil {
			t.Fatal(err)
		}
		return checks.Conclude(checks.Run(checks.All(), ev), metas, ev)
	}
	if d := conclude(); d.Verdict != checks.VerdictJoined {
		t.Fatalf("healthy-al2023: verdict %s, want joined", d.Verdict)
	}
	delete(files, "kube/nodes.json")
	d := conclude()
	if d.Verdict != checks.VerdictInconclusive || len(d.Unchecked) != 0 || d.MostLikelyCause != "" ||
		d.Summary != "inconclusive: no check failed, but kube:nodes: not in snapshot (kube/nodes.json), so whether the node registered is unknown" {
		t.Fatalf("healthy-al2023 without kube/nodes.json: %s %q", d.Verdict, d.Summary)
	}
}

// TestMissingKubeFileNamesTheLayoutPath: a kube/ file the snapshot lacks is named as the layout
// (docs/snapshot-format.md) spells it: kube/aws-auth.yaml and kube/amazon-vpc-cni.yaml are
// documented as YAML, so a gap naming a .json file would send the user to save it under a name
// the layout does not list. Files the layout documents as .json keep that name.
func TestMissingKubeFileNamesTheLayoutPath(t *testing.T) {
	files := fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
	for p := range files {
		if strings.HasPrefix(p, "kube/") {
			delete(files, p)
		}
	}
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind evidence.Kind
		want string
	}{
		{evidence.KindAWSAuth, "not in snapshot (kube/aws-auth.yaml)"},
		{evidence.KindVPCCNIConfig, "not in snapshot (kube/amazon-vpc-cni.yaml)"},
		{evidence.KindCSRs, "not in snapshot (kube/csrs.json)"},
	} {
		if got := ev.GapFor(tc.kind).Reason; got != tc.want {
			t.Errorf("%s gap = %q, want %q", tc.kind, got, tc.want)
		}
	}
}
