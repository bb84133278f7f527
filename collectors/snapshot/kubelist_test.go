package snapshot

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"sigs.k8s.io/yaml"
)

// oneObjectFiles are the kube/ files that hold one object, with the evidence each fills.
var oneObjectFiles = []struct {
	path string
	kind evidence.Kind
	get  func(*evidence.Evidence) any
}{
	{"kube/aws-auth.yaml", evidence.KindAWSAuth, func(ev *evidence.Evidence) any { return ev.AWSAuth }},
	{"kube/amazon-vpc-cni.yaml", evidence.KindVPCCNIConfig, func(ev *evidence.Evidence) any { return ev.VPCCNIConfig }},
	{"kube/aws-node.json", evidence.KindAWSNode, func(ev *evidence.Evidence) any { return ev.AWSNode }},
	{"kube/aws-node-serviceaccount.json", evidence.KindAWSNodeServiceAccount, func(ev *evidence.Evidence) any { return ev.AWSNodeServiceAccount }},
	{"kube/kube-dns.json", evidence.KindKubeDNS, func(ev *evidence.Evidence) any { return ev.KubeDNS }},
}

// TestOneObjectFilesReadFromAList: a kube/ file that should hold one object but holds a kubectl
// List (`kubectl get cm -n kube-system -o yaml`, a label selector, two names) is read as the
// List's item of that kind and name, wherever it stands in the List, in JSON or YAML. A List
// without that item, or with it twice, is an input problem and a gap — never an empty object
// (an aws-auth with no mapRoles, an aws-node ready on 0/0 nodes).
func TestOneObjectFilesReadFromAList(t *testing.T) {
	base := fixtureFiles(t, hostileFixture)
	s0 := FromFiles("test", base)
	id := s0.InstanceIDs()[0]
	want, err := s0.Evidence(id, "")
	if err != nil {
		t.Fatal(err)
	}
	other := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "coredns", "namespace": "kube-system"}, "data": map[string]any{"Corefile": ".:53 {}"}}
	otherDS := map[string]any{"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": map[string]any{"name": "aws-for-fluent-bit", "namespace": "kube-system"},
		"status": map[string]any{"desiredNumberScheduled": 3, "numberReady": 3}}
	for _, f := range oneObjectFiles {
		if !want.Have(f.kind) || f.get(want) == nil || reflect.ValueOf(f.get(want)).IsNil() {
			t.Fatalf("%s: not read from the fixture: %+v", f.path, want.GapFor(f.kind))
		}
		var obj map[string]any
		if err := yaml.Unmarshal(base[f.path], &obj); err != nil {
			t.Fatal(err)
		}
		list := func(items ...any) map[string]any {
			return map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}
		}
		enc := func(v any, asYAML bool) []byte {
			if asYAML {
				b, _ := yaml.Marshal(v)
				return b
			}
			b, _ := json.MarshalIndent(v, "", "  ")
			return b
		}
		good := map[string]any{"single": list(obj), "second": list(other, obj), "first": list(obj, otherDS)}
		bad := map[string]any{"without": list(other, otherDS), "empty": list(), "twice": list(obj, obj)}
		for _, asYAML := range []bool{true, false} {
			for name, v := range good {
				s, ev := withFile(t, f.path, enc(v, asYAML), id)
				if !ev.Have(f.kind) {
					t.Errorf("%s %s (yaml %v): gap %+v, want the List's item read", f.path, name, asYAML, ev.GapFor(f.kind))
					continue
				}
				if !reflect.DeepEqual(f.get(ev), f.get(want)) {
					t.Errorf("%s %s (yaml %v): read %+v, want %+v", f.path, name, asYAML, f.get(ev), f.get(want))
				}
				for _, pr := range s.Problems {
					if pr.Path == f.path {
						t.Errorf("%s %s: input problem %q", f.path, name, pr.Err)
					}
				}
			}
			for name, v := range bad {
				s, ev := withFile(t, f.path, enc(v, asYAML), id)
				g := ev.GapFor(f.kind)
				if ev.Have(f.kind) || !strings.Contains(g.Reason, f.path) || !strings.Contains(g.Reason, "List") {
					t.Errorf("%s %s (yaml %v): gap %+v, want one naming the file and its List", f.path, name, asYAML, g)
				}
				if v := f.get(ev); v != nil && !reflect.ValueOf(v).IsNil() {
					t.Errorf("%s %s (yaml %v): read %+v from a List without the object", f.path, name, asYAML, v)
				}
				found := false
				for _, pr := range s.Problems {
					found = found || pr.Path == f.path && strings.Contains(pr.Err, "List")
				}
				if !found {
					t.Errorf("%s %s (yaml %v): no input problem for the List (%+v)", f.path, name, asYAML, s.Problems)
				}
			}
		}
	}
}

// withFile reads the hostile fixture snapshot with the file at path replaced by body, and the
// evidence of instance id.
func withFile(t *testing.T, path string, body []byte, id string) (*Snapshot, *evidence.Evidence) {
	t.Helper()
	files := fixtureFiles(t, hostileFixture)
	files[path] = body
	s := FromFiles("test", files)
	ev, err := s.Evidence(id, "")
	if err != nil {
		t.Fatal(err)
	}
	return s, ev
}
