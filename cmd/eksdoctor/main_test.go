package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClosedPipeExitsSix: standard output whose reader has gone (eksdoctor … | head -c 10) ends
// the run with exit 6 and a message on stderr, as the README's exit codes promise, not with the
// SIGPIPE signal (exit 141 in a shell, nothing said).
func TestClosedPipeExitsSix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "eksdoctor")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone before the report is written
	var stderr strings.Builder
	cmd := exec.Command(bin, "analyze", filepath.Join("..", "..", "fixtures", "snapshots", "auth-role-path"), "-o", "json")
	cmd.Stdout, cmd.Stderr = w, &stderr
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 6 {
		t.Fatalf("exit %v (stderr %q), want 6", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "pipe") {
		t.Errorf("stderr %q does not say the output could not be written", stderr.String())
	}
}
