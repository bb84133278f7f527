//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCollectArchiveWritesOnlyItsFile (red team round 3, F12): collect --archive refuses a target
// that is a symlink (it followed it and overwrote the file it points to), a directory (refused
// only after every AWS call) or a FIFO, with exit 6 before collecting anything, and writes a
// regular file through an exclusive temporary file renamed into place (no temporary file left).
func TestCollectArchiveWritesOnlyItsFile(t *testing.T) {
	snap := withoutKube(t, hostileSnap)
	aws := liveEnv(t, snap, nil)
	dir := t.TempDir()
	precious := filepath.Join(dir, "target.txt")
	if err := os.WriteFile(precious, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.tar.gz")
	if err := os.Symlink(precious, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "adir")
	os.Mkdir(sub, 0o755)
	fifo := filepath.Join(dir, "fifo.tar.gz")
	mkfifo(t, fifo)
	for target, kind := range map[string]string{link: "a symlink", sub: "a directory", fifo: "a named pipe"} {
		before := aws.Requests()
		code, _, errOut := run("collect", "--cluster", "prod", "--instance", hostileInstance, "--archive", target, "--no-kube")
		if code != ExitOutput || !strings.Contains(errOut, target+" is not a regular file ("+kind+"): not replaced") {
			t.Errorf("%s: exit %d, %q; want exit %d naming it", kind, code, errOut, ExitOutput)
		}
		if n := aws.Requests() - before; n > 0 {
			t.Errorf("%s: refused only after %d AWS requests", kind, n)
		}
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" {
		t.Errorf("the symlink's target was overwritten: %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", fi, err)
	}
	// a regular file (new, then existing) is written whole, nothing else left in the folder
	archive := filepath.Join(dir, "snap.tar.gz")
	for range 2 {
		if code, _, errOut := run("collect", "--cluster", "prod", "--instance", hostileInstance, "--archive", archive, "--no-kube"); code != 0 {
			t.Fatalf("collect exit %d: %s", code, errOut)
		}
		if got := readArchiveFile(t, archive, "snapshot/ec2/describe-instances.json"); len(got) == 0 {
			t.Fatal("no describe-instances in the archive")
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
