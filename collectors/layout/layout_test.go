package layout_test

// The layout is the one table of evidence files: the IAM policy, the collector's operation
// list, the Kubernetes reads (and so the ClusterRole, checked against kube.Reads by the
// integration suite), the snapshot-format document and the evidence-kind list are derived from
// it or fail here when they drift.

import (
	"encoding/json"
	"flag"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/awsapi"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/kube"
	"github.com/eksdoctor/eksdoctor/collectors/layout"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

func sorted(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sameSet(t *testing.T, what string, got, want map[string]bool) {
	t.Helper()
	for _, k := range sorted(want) {
		if !got[k] {
			t.Errorf("%s: %s is missing", what, k)
		}
	}
	for _, k := range sorted(got) {
		if !want[k] {
			t.Errorf("%s: %s is not in the layout", what, k)
		}
	}
}

// TestIAMPolicyIsTheLayout: docs/iam-policy.json allows exactly the layout's AWS permissions
// the live collector needs, the collector's operations are the same list, and the
// denial-to-permission map knows every AWS operation of the layout.
func TestIAMPolicyIsTheLayout(t *testing.T) {
	want, all := map[string]bool{}, map[string]bool{}
	for _, e := range layout.Entries {
		if _, _, ok := e.AWS(); ok {
			all[e.Permission] = true
			if !e.SnapshotOnly {
				want[e.Permission] = true
			}
		}
	}
	b, err := os.ReadFile("../../docs/iam-policy.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(awsapi.Policy()) {
		t.Error("docs/iam-policy.json differs from `eksdoctor iam-policy` (regenerate: go run ./cmd/eksdoctor iam-policy > docs/iam-policy.json)")
	}
	var doc struct{ Statement []struct{ Action []string } }
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Statement) != 1 {
		t.Fatalf("docs/iam-policy.json: %v", err)
	}
	policy := map[string]bool{}
	for _, a := range doc.Statement[0].Action {
		policy[a] = true
	}
	sameSet(t, "docs/iam-policy.json", policy, want)
	ops := map[string]bool{}
	for _, o := range awsapi.Operations {
		ops[o.Action()] = true
	}
	sameSet(t, "awsapi.Operations", ops, want)
	svc := map[string]bool{}
	for op, s := range snapshot.OperationService {
		svc[s+":"+op] = true
	}
	sameSet(t, "snapshot.OperationService", svc, all)
}

// TestKubernetesReadsAreTheLayout: the cluster collector reads exactly the layout's Kubernetes
// permissions (resource/verb).
func TestKubernetesReadsAreTheLayout(t *testing.T) {
	want := map[string]bool{}
	for _, p := range layout.KubernetesPermissions() {
		want[p] = true
	}
	got := map[string]bool{}
	for _, r := range kube.Reads {
		got[r.Resource+"/"+r.Verb] = true
	}
	sameSet(t, "kube.Reads", got, want)
}

var update = flag.Bool("update", false, "rewrite the layout block of docs/snapshot-format.md")

// TestSnapshotFormatDocIsTheLayout: the "Layout" code block of docs/snapshot-format.md is
// layout.DocTable(); `go test ./collectors/layout -run Doc -update` rewrites it.
func TestSnapshotFormatDocIsTheLayout(t *testing.T) {
	const path = "../../docs/snapshot-format.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	const head = "## Layout (path — command that produces it)\n\n```\n"
	i := strings.Index(doc, head)
	if i < 0 {
		t.Fatalf("%s has no %q section", path, strings.TrimSpace(head))
	}
	i += len(head)
	j := strings.Index(doc[i:], "```")
	if j < 0 {
		t.Fatalf("%s: the layout block is not closed", path)
	}
	want := layout.DocTable()
	if got := doc[i : i+j]; got != want {
		if *update {
			if err := os.WriteFile(path, []byte(doc[:i]+want+doc[i+j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the layout block of docs/snapshot-format.md is not layout.DocTable(); run: go test ./collectors/layout -run Doc -update\n--- got\n%s--- want\n%s", got, want)
	}
}

// nodeSideKinds are the evidence kinds no AWS or Kubernetes read serves: they come from the
// node's own logs and files (bundles, pastes, console output) or are judged from other kinds.
var nodeSideKinds = map[evidence.Kind]bool{evidence.KindNodeLogs: true, evidence.KindNodeOS: true, evidence.KindMappingChanges: true}

// TestEveryEvidenceKindHasASource: every kind of evidence.AllKinds is served by a layout file
// or is one of the node-side kinds, and every kind the layout serves is in AllKinds.
func TestEveryEvidenceKindHasASource(t *testing.T) {
	served := map[evidence.Kind]bool{}
	for _, e := range layout.Entries {
		for _, k := range e.Kinds {
			served[k] = true
		}
	}
	all := map[evidence.Kind]bool{}
	for _, k := range evidence.AllKinds {
		all[k] = true
		if !served[k] && !nodeSideKinds[k] {
			t.Errorf("evidence kind %s has no file in the layout", k)
		}
	}
	for k := range served {
		if !all[k] {
			t.Errorf("the layout serves %s, which evidence.AllKinds does not list", k)
		}
	}
}
