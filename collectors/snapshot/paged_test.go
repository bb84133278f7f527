package snapshot

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// setTop returns the JSON object b with key set to v at its top level (and, when meta, in its
// metadata object instead).
func setTop(t *testing.T, b []byte, meta bool, edit func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if meta {
		md, _ := m["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			m["metadata"] = md
		}
		edit(md)
	} else {
		edit(m)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diagnoseFiles(t *testing.T, files map[string][]byte) (*Snapshot, *evidence.Evidence, []checks.Finding, checks.Diagnosis) {
	t.Helper()
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	findings := checks.Run(checks.All(), ev)
	metas := map[string]checks.Meta{}
	for _, c := range checks.All() {
		metas[c.Meta.ID] = c.Meta
	}
	return s, ev, findings, checks.Conclude(findings, metas, ev)
}

func problemFor(s *Snapshot, p string) string {
	for _, x := range s.Problems {
		if x.Path == p {
			return x.Err
		}
	}
	return ""
}

// TestPagedListIsNotComplete (red team round 3, F3): a list saved with a next-page token
// (`--max-items`, `--no-paginate`, `kubectl get --chunk-size` output cut at a page) is an input
// problem naming the file and the token, and its kind is not collected: a check that concludes
// from an absence in the list (the node role in no access entry, the node not registered) skips
// instead of naming a cause.
func TestPagedListIsNotComplete(t *testing.T) {
	for _, tc := range []struct {
		name, fixture, path string
		meta                bool
		edit                func(m map[string]any)
		token               string
		kind                evidence.Kind
		notFailing          string
	}{
		{"access entries nextToken", "auth-role-not-mapped", "eks/list-access-entries.json", false,
			func(m map[string]any) { m["nextToken"] = "eyJuZXh0IjoyfQ==" }, "nextToken", evidence.KindAccessEntries, "auth.role-not-mapped"},
		{"nodes continue", "healthy-al2023", "kube/nodes.json", true,
			func(m map[string]any) { m["continue"] = "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MX0" }, "continue", evidence.KindNodes, "node.not-registered"},
		{"nodes remainingItemCount", "healthy-al2023", "kube/nodes.json", true,
			func(m map[string]any) { m["remainingItemCount"] = 57 }, "remainingItemCount", evidence.KindNodes, "node.not-registered"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := fixtureFiles(t, "../../fixtures/snapshots/"+tc.fixture)
			if tc.kind == evidence.KindAccessEntries {
				// access entries count (the red team's cluster): the role is mapped nowhere
				// in the whole list
				dc := "eks/describe-cluster.json"
				files[dc] = bytes.Replace(files[dc], []byte(`"CONFIG_MAP"`), []byte(`"API_AND_CONFIG_MAP"`), 1)
				if _, _, findings, _ := diagnoseFiles(t, files); !slices.ContainsFunc(findings, func(f checks.Finding) bool {
					return f.ID == tc.notFailing && f.Status == checks.StatusFail
				}) {
					t.Fatalf("%s without a token: %s does not fail", tc.fixture, tc.notFailing)
				}
			}
			b := files[tc.path]
			if tc.kind == evidence.KindNodes {
				// the node is on the page not read
				b = setTop(t, b, false, func(m map[string]any) { m["items"] = []any{} })
			}
			files[tc.path] = setTop(t, b, tc.meta, tc.edit)
			s, ev, findings, d := diagnoseFiles(t, files)
			if pr := problemFor(s, tc.path); !strings.Contains(pr, "lists only the first page") || !strings.Contains(pr, tc.token) {
				t.Errorf("input problem for %s = %q, want it to say the list is cut at a page by %s (all: %v)", tc.path, pr, tc.token, s.Problems)
			}
			if ev.Have(tc.kind) {
				t.Errorf("%s collected from a list cut at a page", tc.kind)
			}
			if g := ev.GapFor(tc.kind).Reason; !strings.Contains(g, tc.path) || !strings.Contains(g, "lists only the first page ("+tc.token+" present)") {
				t.Errorf("gap for %s = %q", tc.kind, g)
			}
			for _, f := range findings {
				if f.Status == checks.StatusFail && (f.ID == tc.notFailing || strings.HasPrefix(f.ID, "auth.") || strings.HasPrefix(f.ID, "node.")) {
					t.Errorf("%s fails on a list cut at a page: %s", f.ID, f.Message)
				}
			}
			if d.Verdict == checks.VerdictCauseFound || d.Verdict == checks.VerdictJoined {
				t.Errorf("verdict %s (%s) from a list cut at a page, want inconclusive", d.Verdict, d.Summary)
			}
		})
	}
}

// TestPagedInstancesKeepsThePage: describe-instances saved with a NextToken still describes the
// instances on its page (the instance's own record is whole), and says the list is cut; an
// instance not on the page is unknown, with the reason that the list is cut.
func TestPagedInstancesKeepsThePage(t *testing.T) {
	files := fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
	p := "ec2/describe-instances.json"
	files[p] = setTop(t, files[p], false, func(m map[string]any) { m["NextToken"] = "AAAApage2" })
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	if !ev.Have(evidence.KindInstance) {
		t.Errorf("instance not collected: %v", ev.GapFor(evidence.KindInstance))
	}
	if pr := problemFor(s, p); !strings.Contains(pr, "lists only the first page (NextToken present)") {
		t.Errorf("input problem for %s = %q (all: %v)", p, pr, s.Problems)
	}
	if _, err := s.Evidence("i-0fffffffffffffff0", ""); err == nil || !strings.Contains(err.Error(), "lists only the first page") {
		t.Errorf("unknown instance in a cut list: %v", err)
	}
}

// TestPagesEndingWithoutTokenAreWhole: concatenated pages whose last has no token (the raw API
// pages of a whole list), and a token that is empty or null, are a whole list.
func TestPagesEndingWithoutTokenAreWhole(t *testing.T) {
	for name, body := range map[string]string{
		"pages":   `{"accessEntries":["arn:aws:iam::111122223333:role/a"],"nextToken":"x"}` + "\n" + `{"accessEntries":["arn:aws:iam::111122223333:role/prod-node-role"]}`,
		"empty":   `{"accessEntries":["arn:aws:iam::111122223333:role/prod-node-role"],"nextToken":""}`,
		"null":    `{"accessEntries":["arn:aws:iam::111122223333:role/prod-node-role"],"nextToken":null}`,
		"no next": `{"accessEntries":["arn:aws:iam::111122223333:role/prod-node-role"]}`,
	} {
		files := fixtureFiles(t, "../../fixtures/snapshots/auth-role-not-mapped")
		files["eks/list-access-entries.json"] = []byte(body)
		s := FromFiles("test", files)
		ev, err := s.Evidence(s.InstanceIDs()[0], "")
		if err != nil {
			t.Fatal(err)
		}
		if !ev.Have(evidence.KindAccessEntries) || problemFor(s, "eks/list-access-entries.json") != "" {
			t.Errorf("%s: access entries %v, problem %q", name, ev.GapFor(evidence.KindAccessEntries), problemFor(s, "eks/list-access-entries.json"))
		}
	}
}
