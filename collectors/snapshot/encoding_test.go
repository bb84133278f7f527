package snapshot

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"sigs.k8s.io/yaml"

	"github.com/eksdoctor/eksdoctor/checks"
)

// failing runs every check on the instance's evidence and returns the failing IDs, sorted.
func failing(t *testing.T, s *Snapshot, instance string) []string {
	t.Helper()
	ev, err := s.Evidence(instance, "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range checks.Run(checks.All(), ev) {
		if f.Status == checks.StatusFail {
			ids = append(ids, f.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// asUTF16 is what Windows PowerShell 5.1 writes for `aws … > file`: UTF-16LE with a
// byte-order mark and CRLF line ends.
func asUTF16(b []byte) []byte {
	u := utf16.Encode([]rune(strings.ReplaceAll(string(b), "\n", "\r\n")))
	out := []byte{0xFF, 0xFE}
	for _, c := range u {
		out = binary.LittleEndian.AppendUint16(out, c)
	}
	return out
}

// TestFilesSavedOnWindowsOrAsYAML: a snapshot whose every JSON file was written by Windows
// PowerShell (UTF-16LE with BOM, CRLF), with a UTF-8 BOM, or by the AWS CLI and kubectl with
// YAML output (`--output yaml`, `-o yaml`) into the .json names gives the same failing checks
// as the original, with no input problem; the table and text output formats, which cannot be
// read, are named with the way to collect the file again. Files are read from a directory, the
// way `--snapshot DIR` does.
func TestFilesSavedOnWindowsOrAsYAML(t *testing.T) {
	const fixture = "../../fixtures/snapshots/auth-role-path"
	base := fixtureFiles(t, fixture)
	orig := FromFiles("fixture", base)
	instance := orig.InstanceIDs()[0]
	want := failing(t, orig, instance)
	if len(want) == 0 {
		t.Fatal("the fixture has no failing check to compare")
	}
	for _, tc := range []struct {
		name string
		conv func([]byte) ([]byte, error)
	}{
		{"UTF-16LE with BOM", func(b []byte) ([]byte, error) { return asUTF16(b), nil }},
		{"UTF-8 with BOM", func(b []byte) ([]byte, error) { return append([]byte{0xEF, 0xBB, 0xBF}, b...), nil }},
		{"YAML", yaml.JSONToYAML},
	} {
		dir := t.TempDir()
		for p, b := range base {
			if strings.HasSuffix(p, ".json") && p != "manifest.json" && json.Valid(b) {
				var err error
				if b, err = tc.conv(b); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s, err := Open(dir, DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := failing(t, s, instance); !slices.Equal(got, want) {
			t.Errorf("%s: failing %v, want %v", tc.name, got, want)
		}
		if len(s.Problems) > 0 {
			t.Errorf("%s: input problems %+v", tc.name, s.Problems)
		}
	}
	for _, tc := range []struct{ doc, want string }{
		{"-----------------------------\n|     DescribeInstances     |\n+---------------------------+\n", "the AWS CLI's table output (--output table), not JSON: collect it again with --output json"},
		{"RESERVATIONS\t111122223333\tr-0abc\nINSTANCES\t0\tx86_64\n", "the AWS CLI's text output (--output text), not JSON: collect it again with --output json"},
	} {
		files := fixtureFiles(t, fixture)
		files["ec2/describe-vpcs.json"] = []byte(tc.doc)
		s := FromFiles("test", files)
		if _, err := s.Evidence(instance, ""); err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(s.Problems, func(p FileProblem) bool {
			return p.Path == "ec2/describe-vpcs.json" && strings.Contains(p.Err, tc.want)
		}) {
			t.Errorf("%q: problems %+v, want one naming %q", tc.doc, s.Problems, tc.want)
		}
	}
}

// TestLargeYAMLFileIsAnInputProblem (red team round 3, F7): decoding YAML takes about 25 times
// the file's size in memory (a 62 MB kube/nodes.json as YAML peaked at 1.46 GB), so a YAML file
// over MaxYAMLBytes is not decoded: an input problem names the file, its size, the limit and
// the way out (collect it as JSON), and the same nodes as JSON are read. A YAML file under the
// limit is read.
func TestLargeYAMLFileIsAnInputProblem(t *testing.T) {
	const fixture = "../../fixtures/snapshots/auth-role-path"
	instance := FromFiles("fixture", fixtureFiles(t, fixture)).InstanceIDs()[0]
	nodes := func(n int) []byte {
		var items []any
		for i := range n {
			items = append(items, map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{
				"name":   fmt.Sprintf("ip-10-1-%d-%d.eu-west-1.compute.internal", i/250, i%250),
				"labels": map[string]string{"kubernetes.io/os": "linux", "node.kubernetes.io/instance-type": "m5.large", "topology.kubernetes.io/zone": "eu-west-1a"}},
				"spec":   map[string]any{"providerID": fmt.Sprintf("aws:///eu-west-1a/i-%017x", i)},
				"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True", "lastHeartbeatTime": "2026-11-20T09:30:00Z"}}}})
		}
		b, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
		return b
	}
	big := nodes(30000)
	bigYAML, err := yaml.JSONToYAML(big)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(bigYAML)) <= DefaultLimits.MaxYAMLBytes {
		t.Fatalf("the YAML is %d bytes, not over the limit", len(bigYAML))
	}
	small, _ := yaml.JSONToYAML(nodes(20))
	for _, c := range []struct {
		name    string
		doc     []byte
		problem string
	}{
		{"YAML over the limit", bigYAML, fmt.Sprintf("%d bytes of YAML is over the %d-byte limit for YAML (decoding YAML takes about 25 times its size in memory); skipped: collect it again as JSON (kubectl -o json, the AWS CLI's --output json)", len(bigYAML), DefaultLimits.MaxYAMLBytes)},
		{"the same as JSON", big, ""},
		{"YAML under the limit", small, ""},
	} {
		files := fixtureFiles(t, fixture)
		files["kube/nodes.json"] = c.doc
		s := FromFiles("test", files)
		if _, err := s.Evidence(instance, ""); err != nil {
			t.Fatal(err)
		}
		got := slices.IndexFunc(s.Problems, func(p FileProblem) bool { return p.Path == "kube/nodes.json" })
		switch {
		case c.problem == "" && got >= 0:
			t.Errorf("%s: problem %+v", c.name, s.Problems[got])
		case c.problem != "" && (got < 0 || s.Problems[got].Err != c.problem):
			t.Errorf("%s: problems %+v, want %q", c.name, s.Problems, c.problem)
		}
	}
}
