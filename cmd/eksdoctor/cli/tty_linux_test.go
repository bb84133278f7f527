package cli

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair (the controlling side, and the terminal a program reads).
func openPTY(t *testing.T) (ctl, tty *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	var n, unlock uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ctl.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("unlockpt: %v", e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ctl.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("ptsname: %v", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	t.Cleanup(func() { tty.Close(); ctl.Close() })
	return ctl, tty
}

// TestStdinTerminalHint (redteam2 F6): `analyze -` with a terminal on standard input says on
// stderr that it is reading it and how to end, instead of waiting in silence.
func TestStdinTerminalHint(t *testing.T) {
	ctl, tty := openPTY(t)
	go func() {
		time.Sleep(50 * time.Millisecond)
		// a line, then Ctrl-D at the start of a line: the end of typed input
		_, _ = ctl.Write([]byte(strings.TrimSuffix(unauthorizedLine, "\n") + "\n\x04"))
	}()
	var code int
	var errOut string
	within(t, 20*time.Second, "analyze - on a terminal", func() { code, _, errOut = runStdin(tty, "analyze", "-", "-o", "json") })
	if !strings.HasPrefix(errOut, "eksdoctor: reading standard input… (Ctrl-D to end)\n") {
		t.Errorf("no hint on stderr:\n%s", errOut)
	}
	if code != ExitFindings {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, ExitFindings, errOut)
	}
	// a pipe or a file on stdin: no hint
	if _, _, errOut := runStdin(strings.NewReader(unauthorizedLine), "analyze", "-", "-o", "json"); strings.Contains(errOut, "reading standard input") {
		t.Errorf("hint without a terminal:\n%s", errOut)
	}
}
