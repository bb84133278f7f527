package snapshot

// Adversarial snapshots generated at test time (issue 12): empty, null and foreign documents
// in every file, traversal and duplicate members, unreadable files, absurd times, symlinks.

import (
	"archive/tar"
	"bytes"

	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/layout"
)

const hostileFixture = "../../fixtures/snapshots/healthy-al2023"

// fixtureFiles loads a fixture snapshot into memory, keyed by snapshot path.
func fixtureFiles(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sortedKeys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// runAll builds the instance's and the cluster's evidence and runs every check; it fails on a
// panic anywhere and on any finding with status error (a check that crashed).
func runAll(t testing.TB, s *Snapshot, instance string) {
	t.Helper()
	ev, err := s.Evidence(instance, "")
	if err != nil {
		return // the instance file itself was replaced: an error, not a panic
	}
	for _, e := range []*evidence.Evidence{ev, s.ClusterEvidence(ev.Target.Cluster)} {
		for _, f := range checks.Run(checks.All(), e) {
			if f.Status == checks.StatusError {
				t.Fatalf("%s crashed: %s", f.ID, f.Message)
			}
		}
	}
}

// hostileDocs are the documents issue 12 put into snapshot files.
var hostileDocs = []string{"", "null", "{}", `"hello"`, "[]", "[{}]", "0", `{"x":1}`, "null\nnull", `{"kind":"List","items":[null]}`}

func TestHostileEveryFileWithForeignDocuments(t *testing.T) {
	base := fixtureFiles(t, hostileFixture)
	instance := FromFiles("fixture", base).InstanceIDs()[0]
	for _, p := range sortedKeys(base) {
		for _, doc := range hostileDocs {
			files := map[string][]byte{}
			for k, v := range base {
				files[k] = v
			}
			files[p] = []byte(doc)
			s := FromFiles("test", files)
			runAll(t, s, instance)
			if _, inLayout := layout.Match(p); !inLayout && p != "manifest.json" {
				continue
			}
			if p == "manifest.json" && strings.HasPrefix(doc, "{") {
				continue // every manifest field is optional: any object is a manifest
			}
			if !hasProblem(s, p) {
				t.Errorf("%s holding %q: no input problem names the file (problems: %+v)", p, doc, s.Problems)
			}
		}
	}
}

func hasProblem(s *Snapshot, p string) bool {
	for _, x := range s.Problems {
		if x.Path == p {
			return true
		}
	}
	return false
}

func TestHostileEmptyAWSAuthIsAGap(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files["kube/aws-auth.yaml"] = nil
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Have(evidence.KindAWSAuth) || !strings.Contains(ev.GapFor(evidence.KindAWSAuth).Reason, "empty file kube/aws-auth.yaml") {
		t.Errorf("aws-auth gap = %+v", ev.GapFor(evidence.KindAWSAuth))
	}
}

func TestHostileRouteTablesNullOrEmpty(t *testing.T) {
	for _, doc := range []string{"null", "{}"} {
		files := fixtureFiles(t, hostileFixture)
		files["ec2/describe-route-tables.json"] = []byte(doc)
		s := FromFiles("test", files)
		ev, err := s.Evidence(s.InstanceIDs()[0], "")
		if err != nil {
			t.Fatal(err)
		}
		gap := ev.GapFor(evidence.KindRouteTables).Reason
		if ev.Have(evidence.KindRouteTables) || !strings.Contains(gap, "describe-route-tables") || !strings.Contains(gap, `"RouteTables"`) && doc == "{}" {
			t.Errorf("%s: route tables gap = %q", doc, gap)
		}
		for _, f := range checks.Run(checks.All(), ev) {
			if f.Status == checks.StatusError {
				t.Errorf("%s: %s crashed: %s", doc, f.ID, f.Message)
			}
		}
	}
	// An honest empty list is evidence (no route table at all): unknown, never a crash.
	files := fixtureFiles(t, hostileFixture)
	files["ec2/describe-route-tables.json"] = []byte(`{"RouteTables": []}`)
	s := FromFiles("test", files)
	ev, _ := s.Evidence(s.InstanceIDs()[0], "")
	for _, f := range checks.Run(checks.All(), ev) {
		if f.Status == checks.StatusError {
			t.Errorf("empty list: %s crashed: %s", f.ID, f.Message)
		}
	}
}

func TestHostileShapeOfClusterRolesAndNodegroups(t *testing.T) {
	for _, p := range []string{"kube/clusterroles/eks:node-manager.json", "eks/list-nodegroups.json", "kube/clusterrolebindings/eks:node-bootstrapper.json"} {
		for _, doc := range []string{`"hello"`, "42", `{"kind":"ConfigMap","metadata":{}}`, `{"items":[]}`} {
			files := fixtureFiles(t, hostileFixture)
			files[p] = []byte(doc)
			s := FromFiles("test", files)
			ev, err := s.Evidence(s.InstanceIDs()[0], "")
			if err != nil {
				t.Fatal(err)
			}
			kind := evidence.KindNodeRBAC
			if strings.HasPrefix(p, "eks/") {
				kind = evidence.KindNodegroups
			}
			if ev.Have(kind) {
				t.Errorf("%s holding %s is accepted as %s", p, doc, kind)
			}
			if !hasProblem(s, p) || !strings.Contains(fmt.Sprint(s.Problems), "not the output of") {
				t.Errorf("%s holding %s: problems = %+v", p, doc, s.Problems)
			}
		}
	}
}

func TestHostileTraversalAndDuplicateMembers(t *testing.T) {
	members := []tar.Header{
		{Name: "snapshot/ec2/describe-instances.json", Typeflag: tar.TypeReg},
		{Name: "other/../snapshot/ec2/describe-instances.json", Typeflag: tar.TypeReg},
		{Name: "snapshot/ec2/describe-instances.json", Typeflag: tar.TypeReg},
		{Name: "./snapshot/ec2/describe-instances.json", Typeflag: tar.TypeReg},
	}
	fake := strings.ReplaceAll(instances, "i-1", "i-666")
	p := filepath.Join(t.TempDir(), "s.tgz")
	os.WriteFile(p, tarGz(t, members, []string{instances, fake, fake, fake}), 0o644)
	s, err := Open(p, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if ids := s.InstanceIDs(); len(ids) != 1 || ids[0] != "i-1" {
		t.Errorf("instances = %v: a later member replaced the real file", ids)
	}
	var traversal, dups int
	for _, x := range s.Problems {
		switch {
		case strings.Contains(x.Path, "..") && strings.Contains(x.Err, ".."):
			traversal++
		case strings.Contains(x.Err, "more than once"):
			dups++
		}
	}
	if traversal != 1 || dups != 1 {
		t.Errorf("want the traversal member and the duplicates reported: %+v", s.Problems)
	}
}

// failingFS is an fs.FS whose named files cannot be opened.
type failingFS struct {
	fs.FS
	fail map[string]bool
}

func (f failingFS) Open(name string) (fs.File, error) {
	if f.fail[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return f.FS.Open(name)
}

func TestHostileUnreadableFileDoesNotAbort(t *testing.T) {
	m := fstest.MapFS{}
	for k, v := range fixtureFiles(t, hostileFixture) {
		m[k] = &fstest.MapFile{Data: v, Mode: 0o644}
	}
	s := &Snapshot{Origin: "test", files: map[string][]byte{}}
	err := s.readDir(failingFS{m, map[string]bool{"iam/get-role/prod-node-role.json": true, "kube": true}}, "snap", DefaultLimits)
	if err != nil {
		t.Fatalf("one unreadable file aborted the snapshot: %v", err)
	}
	if _, ok := s.files["ec2/describe-instances.json"]; !ok {
		t.Fatal("the readable files were not loaded")
	}
	got := fmt.Sprint(s.Problems)
	if !strings.Contains(got, "iam/get-role/prod-node-role.json cannot be read: permission denied") || !strings.Contains(got, "kube cannot be read") {
		t.Errorf("problems = %s", got)
	}
	if os.Getuid() != 0 { // the same with real permissions (root reads anything)
		dir := writeSnap(t, map[string]string{"ec2/describe-instances.json": instances, "iam/get-role/r.json": "{}"})
		os.Chmod(filepath.Join(dir, "iam/get-role/r.json"), 0)
		if _, err := Open(dir, DefaultLimits); err != nil {
			t.Errorf("unreadable file aborted Open: %v", err)
		}
	}
}

func TestHostileSymlinkedSnapshotDirectory(t *testing.T) {
	dir := writeSnap(t, map[string]string{"ec2/describe-instances.json": instances})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	s, err := Open(link, DefaultLimits)
	if err != nil {
		t.Fatalf("a symlink to a snapshot directory: %v", err)
	}
	if ids := s.InstanceIDs(); len(ids) != 1 {
		t.Errorf("instances = %v", ids)
	}
}

func TestHostileAbsurdTimes(t *testing.T) {
	for _, v := range []string{"1e300", "-1e300", `"292277026596-12-04T15:30:07Z"`, "1e12", `"0099-01-01T00:00:00Z"`, "NaN"} {
		dir := writeSnap(t, map[string]string{"ec2/describe-instances.json": instances, "manifest.json": `{"collectedAt": ` + v + `}`})
		s, err := Open(dir, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.CollectedAt(); !got.IsZero() {
			t.Errorf("collectedAt %s accepted as %v", v, got)
		}
		if !strings.Contains(fmt.Sprint(s.Problems), "manifest.json") || !strings.Contains(fmt.Sprint(s.Problems), "collection time is estimated") {
			t.Errorf("collectedAt %s: problems = %+v", v, s.Problems)
		}
		ev, err := s.Evidence("i-1", "")
		if err != nil {
			t.Fatal(err)
		}
		if ev.CollectedAt.Year() != 2022 {
			t.Errorf("collectedAt %s: evidence time = %v, want the newest timestamp in the snapshot", v, ev.CollectedAt)
		}
	}
}

func TestHostileTruncatedGzipTrailer(t *testing.T) {
	good := tarGz(t, []tar.Header{{Name: "ec2/describe-instances.json", Typeflag: tar.TypeReg}}, []string{instances})
	for name, b := range map[string][]byte{
		"bad CRC":      flip(good, len(good)-8),
		"bad ISIZE":    flip(good, len(good)-2),
		"cut in CRC":   good[:len(good)-6],
		"cut in ISIZE": good[:len(good)-2],
	} {
		p := filepath.Join(t.TempDir(), "s.tgz")
		os.WriteFile(p, b, 0o644)
		if _, err := Open(p, DefaultLimits); err == nil || !strings.Contains(err.Error(), "gzip") {
			t.Errorf("%s: err = %v, want the damaged gzip stream reported", name, err)
		}
	}
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0xff
	return c
}

// FuzzSnapshotFile puts arbitrary bytes into every file of a complete snapshot in turn (not
// only describe-instances) and runs every check: no panic, no crashed check.
func FuzzSnapshotFile(f *testing.F) {
	base := fixtureFiles(f, hostileFixture)
	paths := sortedKeys(base)
	instance := FromFiles("fixture", base).InstanceIDs()[0]
	for i := range paths {
		for _, d := range []string{"null", "{}", `{"kind":"List","items":[{}]}`} {
			f.Add(uint16(i), []byte(d))
		}
		f.Add(uint16(i), base[paths[i]])
	}
	f.Fuzz(func(t *testing.T, idx uint16, data []byte) {
		files := make(map[string][]byte, len(base))
		for k, v := range base {
			files[k] = v
		}
		files[paths[int(idx)%len(paths)]] = data
		runAll(t, FromFiles("fuzz", files), instance)
	})
}

// TestHostileDeeplyNestedJSON: a file nested deeper than the JSON reader's limit is a gap whose
// problem names the limit, as a paste's is (ingest.MaxJSONDepth), not Go's "invalid character
// '{' exceeded max depth".
func TestHostileDeeplyNestedJSON(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files["eks/describe-cluster.json"] = []byte(strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000))
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	reason := ev.GapFor(evidence.KindCluster).Reason
	if ev.Have(evidence.KindCluster) || !strings.Contains(reason, "more than 10000 levels") || strings.Contains(reason, "invalid character") {
		t.Errorf("cluster gap = %q", reason)
	}
}
