package cli

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// runStdin runs the CLI with stdin and returns the exit code as Main would.
func runStdin(stdin io.Reader, args ...string) (int, string, string) {
	var o, e bytes.Buffer
	cmd := NewRootCmd(&o, &e)
	cmd.SetIn(stdin)
	cmd.SetArgs(args)
	code := ExitOK
	if err := cmd.Execute(); err != nil {
		var c codeOnly
		var ee *ExitError
		switch {
		case asCode(err, &c):
			code = int(c)
		case asExit(err, &ee):
			code = ee.Code
			e.WriteString(ee.Error())
		default:
			code = ExitUsage
		}
	}
	return code, o.String(), e.String()
}

// endless repeats a line for ever, as `yes LINE` does.
type endless struct {
	line []byte
	at   int
}

func (r *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], r.line[r.at:])
		n += k
		r.at = (r.at + k) % len(r.line)
	}
	return n, nil
}

const unauthorizedLine = `Jul 24 15:30:01 ip-10-0-1-23.ec2.internal kubelet[3021]: E0724 15:30:01.223456    3021 kubelet_node_status.go:94] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-23.ec2.internal"` + "\n"

type limitReport struct {
	Findings []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"findings"`
	InputProblems []struct {
		Path    string `json:"path"`
		Problem string `json:"problem"`
	} `json:"inputProblems"`
}

func decodeLimitReport(t *testing.T, out string) limitReport {
	t.Helper()
	var r limitReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("no JSON report: %v\n%.500s", err, out)
	}
	return r
}

func (r limitReport) failed(id string) bool {
	for _, f := range r.Findings {
		if f.ID == id && f.Status == "fail" {
			return true
		}
	}
	return false
}

func (r limitReport) problem(word string) bool {
	for _, p := range r.InputProblems {
		if strings.Contains(p.Problem, word) {
			return true
		}
	}
	return false
}

// TestPasteMaxBytes (redteam2 F6): --max-bytes bounds a paste stream (`yes LINE | eksdoctor
// analyze - --max-bytes N` ran for ever): the read stops at the limit, stderr says so naming the
// input, the report covers what was read and lists the limit, and the exit is that of a damaged
// bundle: 1 with a failing finding in what was read, else 4.
func TestPasteMaxBytes(t *testing.T) {
	for _, max := range []string{"1000000", "20000000"} { // a paste, and more than a paste (one log)
		var code int
		var out, errOut string
		within(t, 60*time.Second, "endless stdin --max-bytes "+max, func() {
			code, out, errOut = runStdin(&endless{line: []byte(unauthorizedLine)}, "analyze", "-", "-o", "json", "--max-bytes", max)
		})
		r := decodeLimitReport(t, out)
		if code != ExitFindings || !r.failed("runtime.unauthorized") || !r.problem("--max-bytes") {
			t.Errorf("--max-bytes %s: exit %d, want %d with runtime.unauthorized and the limit listed; %+v", max, code, ExitFindings, r.InputProblems)
		}
		if !strings.Contains(errOut, "stdin was read only in part") || !strings.Contains(errOut, "--max-bytes ("+max+" bytes)") {
			t.Errorf("--max-bytes %s: stderr does not say the input was cut:\n%s", max, errOut)
		}
	}

	// nothing fails in the part read: exit 4, the report still written
	p := filepath.Join(t.TempDir(), "paste.log")
	normal := `Jul 24 15:30:01 ip-10-0-1-23.ec2.internal kubelet[3021]: I0724 15:30:01.123456    3021 kubelet_node_status.go:72] "Attempting to register node" node="ip-10-0-1-23.ec2.internal"` + "\n"
	if err := os.WriteFile(p, []byte(strings.Repeat(normal, 20000)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runStdin(strings.NewReader(""), "analyze", p, "-o", "json", "--max-bytes", "100000")
	if r := decodeLimitReport(t, out); code != ExitInput || !r.problem("--max-bytes") || !strings.Contains(errOut, p+" was read only in part") {
		t.Errorf("cut paste with no failing finding: exit %d, want %d; stderr:\n%s", code, ExitInput, errOut)
	}
	// a paste shorter than the limit is untouched
	code, _, errOut = runStdin(strings.NewReader(unauthorizedLine), "analyze", "-", "-o", "json", "--max-bytes", "100000")
	if code != ExitFindings || strings.Contains(errOut, "only in part") {
		t.Errorf("short paste: exit %d; stderr:\n%s", code, errOut)
	}
}

// limitBundle is an EKS Linux bundle whose kubelet log (first) holds lines, then 5 MB of
// messages: --max-bytes 1000000 is reached after the kubelet log was read.
func limitBundle(t *testing.T, kubelet string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	mt := time.Date(2025, 7, 24, 15, 30, 0, 0, time.UTC)
	for _, m := range []struct{ name, body string }{{"./kubelet/kubelet.log", kubelet}, {"./var_log/messages", strings.Repeat("\n", 5_000_000)}} {
		if err := tw.WriteHeader(&tar.Header{Name: m.name, Typeflag: tar.TypeReg, Size: int64(len(m.body)), Mode: 0o644, ModTime: mt}); err != nil {
			t.Fatal(err)
		}
		_, _ = tw.Write([]byte(m.body))
	}
	_ = tw.Close()
	_ = zw.Close()
	p := filepath.Join(t.TempDir(), "limit_after_evidence.tar.gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBundleLimitKeepsWhatWasRead (redteam2 F7): a --max-bytes or --max-members limit reached
// after evidence was read keeps it: the report is written with the failing finding and the
// limit as an input problem, exit 1; with nothing failing in what was read, exit 4 with the
// report.
func TestBundleLimitKeepsWhatWasRead(t *testing.T) {
	p := limitBundle(t, unauthorizedLine)
	for _, lim := range [][]string{{"--max-bytes", "1000000"}, {"--max-members", "1"}} {
		code, out, errOut := run(append([]string{"analyze", p, "-o", "json"}, lim...)...)
		r := decodeLimitReport(t, out)
		if code != ExitFindings || !r.failed("runtime.unauthorized") || !r.problem(lim[0]) {
			t.Errorf("%s: exit %d, want %d with runtime.unauthorized and the limit listed; problems %+v; stderr:\n%s", lim[0], code, ExitFindings, r.InputProblems, errOut)
		}
		if !strings.Contains(errOut, "was read only in part") || !strings.Contains(errOut, lim[0]) {
			t.Errorf("%s: stderr:\n%s", lim[0], errOut)
		}
	}
	normal := `Jul 24 15:30:01 ip-10-0-1-23.ec2.internal kubelet[3021]: I0724 15:30:01.123456    3021 kubelet_node_status.go:72] "Attempting to register node" node="ip-10-0-1-23.ec2.internal"` + "\n"
	code, out, errOut := run("analyze", limitBundle(t, normal), "-o", "json", "--max-bytes", "1000000")
	if r := decodeLimitReport(t, out); code != ExitInput || !r.problem("--max-bytes") {
		t.Errorf("nothing failing before the limit: exit %d, want %d with the report; stderr:\n%s", code, ExitInput, errOut)
	}
}
