package ingest

import "testing"

// TestRustDiagnosticsAreNotMarkdown: the toml and serde crates quote tokens and field names in
// backticks; a message of theirs is a component's output, not Markdown inline code in a sentence.
func TestRustDiagnosticsAreNotMarkdown(t *testing.T) {
	for name, in := range map[string]string{
		"toml parse error":    "Unable to serialize settings from instance user data: Error parsing TOML user data: TOML parse error at line 1, column 13\nexpected `.`, `=`\n",
		"serde unknown field": "Error sending PATCH to /settings: Json deserialize error: unknown field `cluster_name`, expected one of `api-server`, `cluster-name` at line 1 column 40\n",
	} {
		r := Read([]byte(in), name, Options{})
		if got := types(r.Segments); len(got) != 1 || got[0] != TypeLog {
			t.Errorf("%s: segments %v, want one log segment", name, got)
		}
	}
	// a sentence quoting a command in backticks stays prose
	r := Read([]byte("I ran `apiclient get settings` and the node still does not join, what is expected here?\n"), "prose", Options{})
	if got := types(r.Segments); len(got) != 1 || got[0] != TypeProse {
		t.Errorf("prose with inline code: segments %v, want prose", got)
	}
}

// TestEC2NodeClassManifest: a pasted EC2NodeClass is the cluster's node class; without a status
// block (a manifest, alone or in a List) it is marked spec-only, with one it is not.
func TestEC2NodeClassManifest(t *testing.T) {
	manifest := "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: a\nspec:\n  amiFamily: AL2023\n  role: R\n"
	live := `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"karpenter.k8s.aws/v1","kind":"EC2NodeClass","metadata":{"name":"b"},"spec":{"amiFamily":"AL2023","role":"R"},"status":{"instanceProfile":"p"}},{"apiVersion":"karpenter.k8s.aws/v1","kind":"EC2NodeClass","metadata":{"name":"c"},"spec":{"amiFamily":"AL2023","role":"R"}}]}` + "\n"
	for in, want := range map[string]map[string]bool{manifest: {"a": true}, live: {"b": false, "c": true}} {
		r := Read([]byte(in), "stdin", Options{})
		got := map[string]bool{}
		for _, nc := range r.Evidence.NodeClasses {
			got[nc.Name] = nc.SpecOnly
		}
		for name, spec := range want {
			if v, ok := got[name]; !ok || v != spec {
				t.Errorf("%s: SpecOnly %v (read %v), want %v", name, v, ok, spec)
			}
		}
	}
}
