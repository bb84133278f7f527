//go:build unix

package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestMetricsFileWritesOnlyItsFile (red team round 2, F1): --metrics-file never replaces what is
// not a regular file (a FIFO, a symlink — /dev/null was turned into a regular file), never follows
// a symlink planted at the temporary file's old predictable name, and concurrent runs on one file
// all succeed.
func TestMetricsFileWritesOnlyItsFile(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "healthy-al2023")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.prom")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	code, _, errOut := run("scan", "--snapshot", snap, "-o", "json", "--metrics-file", fifo)
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 || code != ExitPublish || !strings.Contains(errOut, "is not a regular file (a named pipe): not replaced") {
		t.Errorf("FIFO target: exit %d, mode %v, %q", code, fi.Mode(), errOut)
	}
	precious := filepath.Join(dir, "precious.txt")
	if err := os.WriteFile(precious, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.prom")
	if err := os.Symlink(precious, link); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = run("scan", "--snapshot", snap, "-o", "json", "--metrics-file", link)
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" || code != ExitPublish || !strings.Contains(errOut, "a symlink") {
		t.Errorf("symlink target: exit %d, precious %q, %q", code, b, errOut)
	}
	// a symlink planted where the temporary file used to be written
	target := filepath.Join(dir, "m.prom")
	if err := os.Symlink(precious, filepath.Join(dir, ".m.prom.tmp")); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run("scan", "--snapshot", snap, "-o", "json", "--metrics-file", target); code != ExitOK {
		t.Fatalf("planted temp symlink: exit %d %q", code, errOut)
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" {
		t.Errorf("the planted symlink was followed: %q", b)
	}
	if fi, err := os.Lstat(target); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o644 {
		t.Errorf("metrics file: %v %v", fi, err)
	}
	// concurrent writers of one file: each rename is of its own temporary file
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs <- writeFileAtomic(target, func(w io.Writer) error { _, err := fmt.Fprintf(w, "# run %d\n", i); return err })
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent write: %v", err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".m.prom.*.tmp")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
