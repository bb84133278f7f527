//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/ingest"
)

// TestFIFOInput: a named pipe is read once its writer comes (a writer that starts later is not
// an empty input), and a pipe that no process ever opens for writing ends with a message naming
// it and exit 4 after a bounded wait, never a hang (issue 12).
func TestFIFOInput(t *testing.T) {
	dir := t.TempDir()
	paste, err := os.ReadFile(filepath.Join(fixtures, "realworld", "120-kubelet-cloud-provider-nocredentialproviders", "input.txt"))
	if err != nil {
		t.Fatal(err)
	}
	late := filepath.Join(dir, "late")
	if err := syscall.Mkfifo(late, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		f, err := os.OpenFile(late, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(paste)
		f.Close()
	}()
	code, out, errOut := run("analyze", late, "-o", "json")
	if code != ExitFindings || !strings.Contains(out, "runtime.kubelet-crashloop") {
		t.Fatalf("FIFO with a late writer: exit %d, want %d with runtime.kubelet-crashloop\n%s", code, ExitFindings, errOut)
	}

	never := filepath.Join(dir, "never")
	mkfifo(t, never)
	shortFIFOWait(t)
	start := time.Now()
	code, _, errOut = run("analyze", never)
	if code != ExitInput || !strings.Contains(errOut, never) || !strings.Contains(errOut, "no process opened it for writing") {
		t.Fatalf("FIFO without a writer: exit %d, want %d naming the pipe; stderr:\n%s", code, ExitInput, errOut)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("FIFO without a writer took %s", d)
	}
}

// TestLargeStructuredDocument: AWS CLI JSON larger than a paste is not scanned as a log (where
// nothing in it is recognised); it is refused by name, with where such a file is read (a
// snapshot), exit 4 (issue 12).
func TestLargeStructuredDocument(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\n    \"Reservations\": [\n")
	for i := 0; b.Len() < MaxPaste+1<<20; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`        {"ReservationId": "r-1", "Instances": [{"InstanceId": "i-0123456789abcdef0", "State": {"Name": "running"}, "Tags": [{"Key": "Name", "Value": "` + strings.Repeat("x", 300) + `"}]}]}`)
	}
	b.WriteString("\n    ]\n}\n")
	p := filepath.Join(t.TempDir(), "describe-instances.json")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run("analyze", p)
	if code != ExitInput || !strings.Contains(errOut, "describe-instances") || !strings.Contains(errOut, "ec2/describe-instances.json") {
		t.Fatalf("exit %d, want %d naming the AWS CLI command and its snapshot path; stderr:\n%s", code, ExitInput, errOut)
	}
}

// TestPasteBudgets: a paste is split into at most ingest.MaxSegments parts and decodes no
// JSON document over ingest.MaxDocumentBytes (decoding costs about ten times the text): a
// 15 MiB describe-instances paste is refused by name (exit 4), and a paste of tens of
// thousands of fenced parts still finds its cause, its tail read as one log.
func TestPasteBudgets(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`{"Reservations": [`)
	for i := 0; b.Len() < ingest.MaxDocumentBytes+1<<20; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"ReservationId": "r-1", "Instances": [{"InstanceId": "i-0123456789abcdef0", "State": {"Name": "running"}}]}`)
	}
	b.WriteString("]}\n")
	big := filepath.Join(dir, "di.json")
	os.WriteFile(big, []byte(b.String()), 0o644)
	code, _, errOut := run("analyze", big)
	if code != ExitInput || !strings.Contains(errOut, "over the 4 MiB decoded from a paste") {
		t.Fatalf("large JSON paste: exit %d, want %d with the budget named; stderr:\n%s", code, ExitInput, errOut)
	}

	b.Reset()
	for b.Len() < 4<<20 {
		b.WriteString("```\nJul 24 15:30:02 ip-10-0-1-23 kubelet[2841]: E0724 15:30:02.1 2841 kubelet_node_status.go:92] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23\"\n```\nthe node again\n")
	}
	many := filepath.Join(dir, "many.md")
	os.WriteFile(many, []byte(b.String()), 0o644)
	code, out, errOut := run("analyze", many, "-o", "json")
	if code != ExitFindings || !strings.Contains(out, "runtime.unauthorized") || !strings.Contains(errOut, "more than 2000 parts") {
		t.Fatalf("many parts: exit %d, want %d with runtime.unauthorized and the budget named; stderr tail:\n%s", code, ExitFindings, errOut[max(0, len(errOut)-600):])
	}
}

// mkfifo creates a named pipe at path for a test, failing it when the pipe cannot be made.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// shortFIFOWait makes the wait for a pipe's writer 200 ms for the rest of the test.
func shortFIFOWait(t *testing.T) {
	old := fifoWait
	fifoWait = 200 * time.Millisecond
	t.Cleanup(func() { fifoWait = old })
}
