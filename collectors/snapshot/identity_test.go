package snapshot

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestFileOfAnotherObjectIsSetAside (red team round 11b, finding 8): a keyed file whose own
// identity field names another object than its path (user data or console output of another
// instance, another instance profile, another role, versions of another launch template) is an
// input problem and its evidence a gap: never read as this object's.
func TestFileOfAnotherObjectIsSetAside(t *testing.T) {
	const inst = `{"Reservations":[{"Instances":[{"InstanceId":"i-1","InstanceType":"m5.large","LaunchTime":"2022-09-14T09:54:36Z",
"State":{"Code":16,"Name":"running"},"Placement":{"AvailabilityZone":"eu-west-1b"},"PrivateDnsName":"ip-10-0-0-1.eu-west-1.compute.internal",
"IamInstanceProfile":{"Arn":"arn:aws:iam::1:instance-profile/prof","Id":"X"},
"Tags":[{"Key":"kubernetes.io/cluster/prod","Value":"owned"},{"Key":"aws:ec2launchtemplate:id","Value":"lt-a"},{"Key":"aws:ec2launchtemplate:version","Value":"1"}]}]}]}`
	role := func(name string) string {
		return `{"RoleName":"` + name + `","Path":"/","Arn":"arn:aws:iam::1:role/` + name + `","AssumeRolePolicyDocument":{"Statement":[]}}`
	}
	good := map[string]string{
		"ec2/describe-instances.json":                     inst,
		"ec2/instance-user-data/i-1.json":                 `{"InstanceId":"i-1","UserData":{"Value":"IyEvYmluL2Jhc2g="}}`,
		"ec2/get-console-output/i-1.json":                 `{"InstanceId":"i-1","Timestamp":"2022-09-14T10:00:00Z","Output":"boot"}`,
		"iam/get-instance-profile/prof.json":              `{"InstanceProfile":{"InstanceProfileName":"prof","Arn":"arn:aws:iam::1:instance-profile/prof","Roles":[` + role("node") + `]}}`,
		"iam/get-role/node.json":                          `{"Role":` + role("node") + `}`,
		"ec2/describe-launch-template-versions/lt-a.json": `{"LaunchTemplateVersions":[{"LaunchTemplateId":"lt-a","VersionNumber":1,"LaunchTemplateData":{"UserData":"IyEvYmluL2Jhc2g="}}]}`,
	}
	for _, c := range []struct {
		name, path, content string
		kind                evidence.Kind
		want                string // in the gap reason and the input problem
	}{
		{"user data of another instance", "ec2/instance-user-data/i-1.json", `{"InstanceId":"i-old","UserData":{"Value":"IyEvYmluL2Jhc2g="}}`, evidence.KindUserData, `InstanceId "i-old", not "i-1"`},
		{"console of another instance", "ec2/get-console-output/i-1.json", `{"InstanceId":"i-old","Timestamp":"2022-09-10T10:00:00Z","Output":"boot"}`, evidence.KindConsoleOutput, `InstanceId "i-old", not "i-1"`},
		{"another instance profile", "iam/get-instance-profile/prof.json", `{"InstanceProfile":{"InstanceProfileName":"old-prof","Arn":"arn:aws:iam::1:instance-profile/old-prof","Roles":[` + role("old-role") + `]}}`, evidence.KindInstanceProfile, `InstanceProfileName "old-prof", not "prof"`},
		{"instance profile of another account", "iam/get-instance-profile/prof.json", `{"InstanceProfile":{"InstanceProfileName":"prof","Arn":"arn:aws:iam::2:instance-profile/prof","Roles":[` + role("node") + `]}}`, evidence.KindInstanceProfile, `arn:aws:iam::2:instance-profile/prof, not the instance's arn:aws:iam::1:instance-profile/prof`},
		{"another role", "iam/get-role/node.json", `{"Role":` + role("eks-cluster-role") + `}`, evidence.KindNodeRole, `RoleName "eks-cluster-role", not "node"`},
		{"another launch template", "ec2/describe-launch-template-versions/lt-a.json", `{"LaunchTemplateVersions":[{"LaunchTemplateId":"lt-b","VersionNumber":1,"LaunchTemplateData":{"UserData":"IyEvYmluL2Jhc2g="}}]}`, evidence.KindLaunchTemplate, `LaunchTemplateId "lt-b", not "lt-a"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range good {
				files[k] = v
			}
			files[c.path] = c.content
			s, ev := openEvidence(t, files, "i-1")
			if ev.Have(c.kind) && strings.Contains(ev.Source(c.kind), c.path) {
				t.Fatalf("%s read from %s, which is another object's", c.kind, c.path)
			}
			// a fallback source of the same fact (the profile's embedded role, the launch
			// template's user data) may still serve it; otherwise the gap names the file
			if g := ev.GapFor(c.kind).Reason; !ev.Have(c.kind) && (!strings.Contains(g, c.want) || !strings.Contains(g, c.path)) {
				t.Errorf("gap of %s = %q, want it to name %s and %q", c.kind, g, c.path, c.want)
			}
			found := false
			for _, p := range s.Problems {
				found = found || p.Path == c.path && strings.Contains(p.Err, c.want)
			}
			if !found {
				t.Errorf("no input problem for %s naming %q: %+v", c.path, c.want, s.Problems)
			}
		})
	}
	// the same files with matching identities all read
	s, err := Open(writeSnap(t, good), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := s.Evidence("i-1", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []evidence.Kind{evidence.KindUserData, evidence.KindConsoleOutput, evidence.KindInstanceProfile, evidence.KindNodeRole, evidence.KindLaunchTemplate} {
		if !ev.Have(k) {
			t.Errorf("%s not read from matching files: %s", k, ev.GapFor(k).Reason)
		}
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems with matching files: %+v", s.Problems)
	}
}

// TestSingleNodeIsPartialNodeEvidence (red team round 11b, finding 10): kube/nodes.json holding
// one Node (kubectl get node NAME -o json) shows that Node, not the cluster's set: the instance it
// names has it (partial), any other instance has no Node known (a gap), never "not registered".
func TestSingleNodeIsPartialNodeEvidence(t *testing.T) {
	const two = `{"Reservations":[{"Instances":[
{"InstanceId":"i-1","State":{"Name":"running"},"PrivateDnsName":"ip-10-0-0-1.eu-west-1.compute.internal","Placement":{"AvailabilityZone":"eu-west-1b"},"Tags":[{"Key":"eks:cluster-name","Value":"prod"}]},
{"InstanceId":"i-2","State":{"Name":"running"},"PrivateDnsName":"ip-10-0-0-2.eu-west-1.compute.internal","Placement":{"AvailabilityZone":"eu-west-1b"},"Tags":[{"Key":"eks:cluster-name","Value":"prod"}]}]}]}`
	node := `{"apiVersion":"v1","kind":"Node","metadata":{"name":"ip-10-0-0-1.eu-west-1.compute.internal"},"spec":{"providerID":"aws:///eu-west-1b/i-1"},
"status":{"nodeInfo":{"kubeletVersion":"v1.31.0"},"conditions":[{"type":"Ready","status":"True"}]}}`
	for name, nodes := range map[string]string{"json": node, "yaml": "apiVersion: v1\nkind: Node\nmetadata:\n  name: ip-10-0-0-1.eu-west-1.compute.internal\nspec:\n  providerID: aws:///eu-west-1b/i-1\nstatus:\n  nodeInfo:\n    kubeletVersion: v1.31.0\n  conditions:\n  - type: Ready\n    status: \"True\"\n"} {
		t.Run(name, func(t *testing.T) {
			p := "kube/nodes.json"
			if name == "yaml" {
				p = "kube/nodes.yaml"
			}
			s, err := Open(writeSnap(t, map[string]string{"ec2/describe-instances.json": two, p: nodes}), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := s.Evidence("i-1", "")
			if err != nil {
				t.Fatal(err)
			}
			if !ev.Have(evidence.KindNodes) || len(ev.Nodes) != 1 || !ev.NodesPartial {
				t.Errorf("i-1: nodes %+v partial %v (%s)", ev.Nodes, ev.NodesPartial, ev.GapFor(evidence.KindNodes).Reason)
			}
			ev, err = s.Evidence("i-2", "")
			if err != nil {
				t.Fatal(err)
			}
			if ev.Have(evidence.KindNodes) {
				t.Fatalf("i-2: a single Node of another instance taken as the Node list")
			}
			if g := ev.GapFor(evidence.KindNodes).Reason; !strings.Contains(g, "holds one Node (ip-10-0-0-1.eu-west-1.compute.internal)") || !strings.Contains(g, "not the cluster's Node list (collect kubectl get nodes -o json)") {
				t.Errorf("i-2 gap = %q", g)
			}
			cl := s.ClusterEvidence("")
			if !cl.NodesPartial || len(cl.Nodes) != 1 {
				t.Errorf("cluster evidence: nodes %+v partial %v", cl.Nodes, cl.NodesPartial)
			}
		})
	}
}

// TestLaunchedAfterCollectedAt (red team round 11b, finding 17): an instance cannot launch after
// its snapshot was collected (collect-snapshot.sh and the live collector write collectedAt last):
// one whose LaunchTime is later than the manifest's collectedAt (beyond clock skew) shows the
// files are from different moments — an input problem — and the Node list, taken before it
// launched, cannot show it did not register (a gap) unless its Node is there.
func TestLaunchedAfterCollectedAt(t *testing.T) {
	inst := func(launch string) string {
		return `{"Reservations":[{"Instances":[{"InstanceId":"i-1","State":{"Name":"running"},"LaunchTime":"` + launch + `","PrivateDnsName":"ip-10-0-0-1.eu-west-1.compute.internal","Placement":{"AvailabilityZone":"eu-west-1b"},"Tags":[{"Key":"eks:cluster-name","Value":"prod"}]}]}]}`
	}
	const manifest = `{"cluster":"prod","region":"eu-west-1","instanceIds":["i-1"],"collectedAt":"2026-11-24T12:00:00Z","tool":"collect-snapshot.sh"}`
	const nodes = `{"apiVersion":"v1","kind":"List","items":[{"kind":"Node","metadata":{"name":"ip-10-0-0-9.eu-west-1.compute.internal"},"spec":{"providerID":"aws:///eu-west-1b/i-9"},"status":{"nodeInfo":{"kubeletVersion":"v1.31.0"},"conditions":[{"type":"Ready","status":"True"}]}}]}`
	for _, c := range []struct {
		launch string
		later  bool
	}{{"2026-11-24T12:20:00Z", true}, {"2026-11-24T12:02:00Z", false}, {"2026-11-24T11:40:00Z", false}} {
		s, err := Open(writeSnap(t, map[string]string{"manifest.json": manifest, "ec2/describe-instances.json": inst(c.launch), "kube/nodes.json": nodes}), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := s.Evidence("i-1", "")
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range s.Problems {
			found = found || p.Path == "ec2/describe-instances.json" && strings.Contains(p.Err, "i-1 launched at 2026-11-24T12:20:00Z, 20m0s after the snapshot's collectedAt 2026-11-24T12:00:00Z")
		}
		if found != c.later {
			t.Errorf("launch %s: problem reported %v, want %v: %+v", c.launch, found, c.later, s.Problems)
		}
		if ev.Have(evidence.KindNodes) == c.later {
			t.Errorf("launch %s: nodes usable %v (%s)", c.launch, ev.Have(evidence.KindNodes), ev.GapFor(evidence.KindNodes).Reason)
		}
		if c.later && !strings.Contains(ev.GapFor(evidence.KindNodes).Reason, "taken before i-1 launched") {
			t.Errorf("nodes gap = %q", ev.GapFor(evidence.KindNodes).Reason)
		}
	}
}

// openEvidence writes files as a snapshot directory, opens it and returns it with the evidence
// of instance id.
func openEvidence(t *testing.T, files map[string]string, id string) (*Snapshot, *evidence.Evidence) {
	t.Helper()
	s, err := Open(writeSnap(t, files), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := s.Evidence(id, "")
	if err != nil {
		t.Fatal(err)
	}
	return s, ev
}
