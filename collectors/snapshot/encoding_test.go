package snapshot

import (
	"encoding/binary"
	"encoding/json"
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
