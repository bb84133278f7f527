//go:build unix

package cli

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// within runs f and fails the test when it has not returned after d: a read that blocks or
// grows without end must not hang the test binary.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still running after %s", what, d)
	}
}

// TestSecretFilesBounded (redteam2 F6): a Pushgateway secret file is read up to MaxSecretFile
// bytes; a longer file, a device (/dev/zero grew to GBs) or a pipe nobody writes (a hang) is a
// failed publication naming the flag and the file, never a read without end, and nothing is
// pushed.
func TestSecretFilesBounded(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "nodegroup-asg-launch-failures")
	dir := t.TempDir()
	long := filepath.Join(dir, "token")
	if err := os.WriteFile(long, []byte(strings.Repeat("t", MaxSecretFile+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
	shortFIFOWait(t)
	for _, c := range []struct{ flag, file, want string }{
		{"--pushgateway-token-file", long, "longer than 65536 bytes"},
		{"--pushgateway-token-file", fifo, "no process opened it for writing"},
		{"--pushgateway-password-file", "/dev/zero", "not a regular file or a pipe (a character device)"},
	} {
		srv, got := fakePushgateway(t, http.StatusOK)
		args := []string{"scan", "--cluster", "prod", "--snapshot", snap, "-o", "json", "--fail-on", "none", "--pushgateway", srv.URL, c.flag, c.file}
		if strings.Contains(c.flag, "password") {
			args = append(args, "--pushgateway-username", "u")
		}
		var code int
		var errOut string
		within(t, 10*time.Second, c.flag+" "+c.file, func() { code, _, errOut = run(args...) })
		if code != ExitPublish || !strings.Contains(errOut, c.file+" ("+c.flag+")") || !strings.Contains(errOut, c.want) {
			t.Errorf("%s %s: exit %d, want %d naming the flag, the file and %q; stderr:\n%s", c.flag, c.file, code, ExitPublish, c.want, errOut)
		}
		if p := got(); len(p) != 0 {
			t.Errorf("%s %s: pushed %d times", c.flag, c.file, len(p))
		}
	}
}

// TestSnapshotThatIsAPipe (redteam2 F6): --snapshot naming a FIFO is refused at once (exit 4),
// never opened and waited on.
func TestSnapshotThatIsAPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "snap")
	mkfifo(t, fifo)
	for _, args := range [][]string{
		{"why-not-joining", "i-0123456789abcdef0", "--snapshot", fifo},
		{"scan", "--cluster", "prod", "--snapshot", fifo},
		{"analyze", filepath.Join(fixtures, "bundles", "bottlerocket-unauthorized.tar.gz"), "--snapshot", fifo},
	} {
		var code int
		var errOut string
		within(t, 10*time.Second, args[0]+" --snapshot FIFO", func() { code, _, errOut = run(args...) })
		if code != ExitInput || !strings.Contains(errOut, "named pipe") || !strings.Contains(errOut, fifo) {
			t.Errorf("%s: exit %d, want %d naming the pipe; stderr:\n%s", args[0], code, ExitInput, errOut)
		}
	}
}
