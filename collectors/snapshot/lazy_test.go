package snapshot

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// padded returns a describe-instances document over lazyBytes: the fixture's document with
// whitespace before its closing brace (still one valid JSON object).
func padded(t *testing.T, b []byte) []byte {
	t.Helper()
	i := bytes.LastIndexByte(b, '}')
	out := append([]byte{}, b[:i]...)
	out = append(out, bytes.Repeat([]byte(" "), lazyBytes+10)...)
	return append(out, b[i:]...)
}

// TestLargeFilesAreReadWhenDecoded: a file over lazyBytes, in a directory or an archive, is
// not held after Open but gives the same evidence as a small one; when it disappears before
// it is decoded, the snapshot names it as a problem instead of losing it silently or panicking.
func TestLargeFilesAreReadWhenDecoded(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files["ec2/describe-instances.json"] = padded(t, files["ec2/describe-instances.json"])
	dir := t.TempDir()
	var hdrs []tar.Header
	var bodies []string
	for _, p := range sortedKeys(files) {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), files[p], 0o644); err != nil {
			t.Fatal(err)
		}
		hdrs = append(hdrs, tar.Header{Name: "snap/" + p, Typeflag: tar.TypeReg})
		bodies = append(bodies, string(files[p]))
	}
	tgz := filepath.Join(t.TempDir(), "snap.tar.gz")
	if err := os.WriteFile(tgz, tarGz(t, hdrs, bodies), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := FromFiles("mem", fixtureFiles(t, hostileFixture)).Evidence("i-0a1b2c3d4e5f60001", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, tgz} {
		s, err := Open(p, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if b := s.files["ec2/describe-instances.json"]; b != nil || s.lazy["ec2/describe-instances.json"] == nil {
			t.Fatalf("%s: describe-instances held in memory (%d bytes) instead of read when decoded", p, len(b))
		}
		ev, err := s.Evidence("i-0a1b2c3d4e5f60001", "")
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if ev.Instance.ID != want.Instance.ID || ev.Instance.SubnetID != want.Instance.SubnetID || ev.Target.Cluster != want.Target.Cluster {
			t.Errorf("%s: instance %+v, want %+v", p, ev.Instance, want.Instance)
		}
	}

	s, err := Open(dir, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "ec2", "describe-instances.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Evidence("i-0a1b2c3d4e5f60001", ""); err == nil || !strings.Contains(err.Error(), "cannot read ec2/describe-instances.json") {
		t.Errorf("removed large file: err = %v", err)
	}
	if len(s.Problems) == 0 || s.Problems[0].Path != "ec2/describe-instances.json" {
		t.Errorf("problems = %+v, want ec2/describe-instances.json named", s.Problems)
	}
}

// TestPerInstanceFilesAreNotCached: an instance's own files (user data, console output) are
// read by its evidence only, so the snapshot keeps none of them, read or missing: with
// thousands of instances diagnosed, those caches only grew.
func TestPerInstanceFilesAreNotCached(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files[instancesPath] = largeInstances(t, 20)
	s := FromFiles("mem", files)
	ids := s.InstanceIDs()
	for _, id := range ids {
		ev, err := s.Evidence(id, "")
		if err != nil {
			t.Fatal(err)
		}
		if id == "i-0a1b2c3d4e5f60001" && (ev.UserData == nil || ev.ConsoleOutput == nil) {
			t.Fatalf("%s: user data %v, console %v: the fixture's files were not read", id, ev.UserData, ev.ConsoleOutput)
		}
	}
	for p := range s.rawDocs {
		if perInstance(p) {
			t.Errorf("split documents of %s kept", p)
		}
	}
	for k := range s.cache {
		if perInstance(k) {
			t.Errorf("decoded %s kept", k)
		}
	}
}
