package cli

// Hostile use of the CLI (issue 12): output to a full disk in every format, numeric flags that
// were silently replaced, unsupported shells, symlinked inputs and damaged bundles.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

// fullDisk fails every write as /dev/full does.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// failAfter accepts n bytes, then fails: a report cut in the middle.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errors.New("broken pipe")
	}
	f.n -= len(p)
	return len(p), nil
}

const hostileSnap = fixtures + "/snapshots/auth-role-path"
const hostileInstance = "i-0a1b2c3d4e5f60006"

func TestHostileOutputWriteErrorsHaveTheirOwnExitCode(t *testing.T) {
	bundle := filepath.Join(fixtures, "bundles", "bottlerocket-unauthorized.tar.gz")
	var cases [][]string
	for _, o := range []string{"table", "json", "markdown"} {
		cases = append(cases,
			[]string{"why-not-joining", hostileInstance, "--snapshot", hostileSnap, "-o", o},
			[]string{"why-not-joining", hostileInstance, "--snapshot", hostileSnap, "-o", o, "--exit-zero"},
			[]string{"why-not-joining", "--all-pending", "--snapshot", hostileSnap, "-o", o},
			[]string{"analyze", bundle, "-o", o},
			[]string{"scan", "--snapshot", hostileSnap, "-o", o},
		)
	}
	cases = append(cases, []string{"scan", "--snapshot", hostileSnap, "-o", "junit"}, []string{"checks", "list"}, []string{"checks", "list", "-o", "json"},
		[]string{"explain", "auth.role-path"}, []string{"version"}, []string{"iam-policy"}, []string{"--help"}, []string{"completion", "bash"})
	for _, args := range cases {
		for name, w := range map[string]func() interface{ Write([]byte) (int, error) }{
			"full disk": func() interface{ Write([]byte) (int, error) } { return fullDisk{} },
			"cut":       func() interface{ Write([]byte) (int, error) } { return &failAfter{n: 10} },
		} {
			var e bytes.Buffer
			code := Main(args, w(), &e)
			if code != ExitOutput || !strings.Contains(e.String(), "the output could not be written") {
				t.Errorf("%s, %v: exit %d, stderr %q; want exit %d naming the write error", name, args, code, e.String(), ExitOutput)
			}
		}
	}
	if f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		defer f.Close()
		var e bytes.Buffer
		if code := Main([]string{"why-not-joining", hostileInstance, "--snapshot", hostileSnap}, f, &e); code != ExitOutput || !strings.Contains(e.String(), "no space left on device") {
			t.Errorf("> /dev/full: exit %d %q", code, e.String())
		}
	}
}

func TestHostileNumericFlagsAreUsageErrors(t *testing.T) {
	bundle := filepath.Join(fixtures, "bundles", "bottlerocket-unauthorized.tar.gz")
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"analyze", bundle, "--max-bytes", "-1"}, "--max-bytes"},
		{[]string{"analyze", bundle, "--max-bytes", "0"}, "--max-bytes"},
		{[]string{"analyze", bundle, "--max-members", "-3"}, "--max-members"},
		{[]string{"analyze", bundle, "--max-line-bytes", "1"}, "--max-line-bytes"},
		{[]string{"analyze", bundle, "--max-line-bytes", "1099511627776"}, "--max-line-bytes"},
		{[]string{"why-not-joining", hostileInstance, "--timeout", "-5s"}, "--timeout"},
		{[]string{"why-not-joining", hostileInstance, "--call-timeout", "0s"}, "--call-timeout"},
		{[]string{"scan", "--cluster", "prod", "--timeout", "-1m"}, "--timeout"},
		{[]string{"collect", "--cluster", "prod", "--archive", "x.tgz", "--timeout", "-5s"}, "--timeout"},
	} {
		code, _, stderr := run(c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.flag) || strings.Contains(stderr, "per-call") && c.flag == "--timeout" {
			t.Errorf("%v: exit %d %q; want a usage error naming %s", c.args, code, stderr, c.flag)
		}
	}
}

func TestHostileCompletionOfUnknownShell(t *testing.T) {
	for _, args := range [][]string{{"completion", "tcsh"}, {"completion"}, {"completion", "bash", "extra"}} {
		code, out, stderr := run(args...)
		if code != ExitUsage || strings.Contains(out, "Usage:") && args[len(args)-1] == "tcsh" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	if code, out, _ := run("completion", "zsh"); code != ExitOK || !strings.Contains(out, "eksdoctor") {
		t.Errorf("completion zsh: exit %d", code)
	}
}

func TestHostileSymlinkedInputs(t *testing.T) {
	dir := t.TempDir()
	snapLink := filepath.Join(dir, "snap")
	abs, _ := filepath.Abs(hostileSnap)
	if err := os.Symlink(abs, snapLink); err != nil {
		t.Skip(err)
	}
	code, out, stderr := run("why-not-joining", hostileInstance, "--snapshot", snapLink, "-o", "json")
	if code != ExitFindings || !strings.Contains(out, "auth.role-path") {
		t.Errorf("symlinked snapshot: exit %d %q", code, stderr)
	}
	if code, _, _, stderr := analyze(t, "", snapLink); code == ExitInput || !strings.Contains(stderr, "as a snapshot") {
		t.Errorf("analyze symlinked snapshot: exit %d %q", code, stderr)
	}
	// an extracted Bottlerocket bundle, given as its bottlerocket-logs/ folder through a symlink
	br := filepath.Join(dir, "x", "bottlerocket-logs")
	os.MkdirAll(br, 0o755)
	os.WriteFile(filepath.Join(br, "journalctl.log"), []byte(`Jul 24 15:30:02.000001 h kubelet[1]: E0724 15:30:02.1 1 x.go:1] "Unable to register node with API server" err="Unauthorized"`+"\n"), 0o644)
	os.WriteFile(filepath.Join(br, "os-release"), []byte("VARIANT_ID=aws-k8s-1.31\n"), 0o644)
	link := filepath.Join(dir, "br-link")
	os.Symlink(br, link)
	for _, p := range []string{br, link} {
		code, r, _, stderr := analyze(t, "", p)
		if code != ExitFindings || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.unauthorized" || !strings.Contains(stderr, "Bottlerocket") {
			t.Errorf("%s: exit %d cause %v %q", p, code, r.Diagnosis.MostLikelyCause, stderr)
		}
	}
}

func TestHostileDamagedBundleIsNeverACleanEnd(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(fixtures, "bundles", "eks_i-0a1b2c3d4e5f60001_2026-07-24_1602-UTC_0.7.9-al2023-healthy.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Clone(good)
	bad[len(bad)-6] ^= 0x5a // the gzip trailer's CRC-32
	p := filepath.Join(t.TempDir(), "eks_i-0a1b2c3d4e5f60001_2026-07-24_1602-UTC_0.7.9.tar.gz")
	os.WriteFile(p, bad, 0o644)
	code, _, out, stderr := analyze(t, "", p)
	if code != ExitInput || !strings.Contains(stderr, "is damaged") {
		t.Errorf("exit %d, stderr %q; a healthy bundle with a bad CRC must not exit 0", code, stderr)
	}
	if !strings.Contains(out, `"inputProblems": [`) || !strings.Contains(out, "gzip stream is damaged") {
		t.Errorf("the damage is not an input problem of the report: %.400s", out)
	}
	if code, _, _, _ := analyze(t, "", p, "--exit-zero"); code != ExitOK {
		t.Errorf("--exit-zero: exit %d", code)
	}
}

const leaked = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

// unauthorizedWith is a kubelet line the signature catalog matches (runtime.unauthorized),
// carrying extra text that ends up quoted as evidence.
func unauthorizedWith(extra string) string {
	return `Jul 24 15:30:02 ip-10-0-1-23 kubelet[2841]: E0724 15:30:02.000000    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" ` + extra + "\n"
}

func TestHostileReportsNeverQuoteSecrets(t *testing.T) {
	pastes := map[string]string{
		"user data":  "#!/bin/bash\n/etc/eks/bootstrap.sh prod --aws-secret-access-key=" + leaked + " --apiserver-endpoint https://x.gr7.eu-west-1.eks.amazonaws.com\n",
		"set -x log": strings.Repeat(unauthorizedWith("+ aws configure set aws_secret_access_key "+leaked), 3),
	}
	for name, paste := range pastes {
		for _, o := range []string{"table", "markdown", "json"} {
			var out, e bytes.Buffer
			cmd := NewRootCmd(&out, &e)
			cmd.SetIn(strings.NewReader(paste))
			cmd.SetArgs([]string{"analyze", "-", "-o", o, "--all"})
			cmd.Execute()
			if strings.Contains(out.String(), leaked) || strings.Contains(e.String(), leaked) {
				t.Errorf("%s, -o %s: the report quotes the secret", name, o)
			}
			if !strings.Contains(out.String(), "REDACTED") {
				t.Errorf("%s, -o %s: nothing redacted (was the secret quoted at all?):\n%.600s", name, o, out.String())
			}
		}
	}
}

func TestHostileConsoleSecretsInSnapshotAndCollect(t *testing.T) {
	snap := withoutKube(t, hostileSnap)
	console, _ := json.Marshal(map[string]string{"InstanceId": hostileInstance, "Timestamp": "2026-11-20T09:36:12+00:00",
		"Output": "+ export AWS_SECRET_ACCESS_KEY=" + leaked + "\r\n" + unauthorizedWith("token="+leaked)})
	os.WriteFile(filepath.Join(snap, "ec2", "get-console-output", hostileInstance+".json"), console, 0o644)
	for _, o := range []string{"table", "markdown", "json"} {
		_, out, _ := run("why-not-joining", hostileInstance, "--snapshot", snap, "-o", o)
		if strings.Contains(out, leaked) {
			t.Errorf("-o %s quotes the console's secret", o)
		}
	}
	liveEnv(t, snap, nil)
	archive := filepath.Join(t.TempDir(), "snap.tar.gz")
	if c, _, errOut := run("collect", "--cluster", "prod", "--instance", hostileInstance, "--archive", archive, "--no-kube"); c != 0 {
		t.Fatalf("collect exit %d: %s", c, errOut)
	}
	got := readArchiveFile(t, archive, "snapshot/ec2/get-console-output/"+hostileInstance+".json")
	if len(got) == 0 || bytes.Contains(got, []byte(leaked)) || !bytes.Contains(got, []byte("REDACTED")) {
		t.Errorf("collected console output: %s", got)
	}
}

func TestHostileEscapeSequencesAreEscaped(t *testing.T) {
	const evil = "\x1b]0;pwned\x07\x1b[2J\u202e\u009b"
	// from a log line
	for _, o := range []string{"table", "markdown"} {
		var out, e bytes.Buffer
		cmd := NewRootCmd(&out, &e)
		cmd.SetIn(strings.NewReader(strings.Repeat(unauthorizedWith(evil), 2)))
		cmd.SetArgs([]string{"analyze", "-", "-o", o})
		cmd.Execute()
		if strings.ContainsAny(out.String(), "\x1b\x07\u202e\u009b") {
			t.Errorf("-o %s: raw escape sequence in the output", o)
		}
		// a paste's ESC sequences are removed where the text enters (terminal colours in pasted
		// output); the other controls are shown escaped (in Markdown, the backslash escaped too,
		// so it renders as \u202e)
		want := `\u202e\u009b`
		if o == "markdown" {
			want = `\\u202e\\u009b`
		}
		if !strings.Contains(out.String(), want) || strings.Contains(out.String(), "pwned") {
			t.Errorf("-o %s: the sequence is not removed and the rest shown escaped:\n%.800s", o, out.String())
		}
	}
	// from an instance tag (the cluster name)
	snap := copyDir(t, hostileSnap)
	p := filepath.Join(snap, "ec2", "describe-instances.json")
	var doc map[string]any
	b, _ := os.ReadFile(p)
	json.Unmarshal(b, &doc)
	inst := doc["Reservations"].([]any)[0].(map[string]any)["Instances"].([]any)[0].(map[string]any)
	inst["Tags"] = append(inst["Tags"].([]any), map[string]any{"Key": "eks:cluster-name", "Value": "prod" + evil})
	b, _ = json.Marshal(doc)
	os.WriteFile(p, b, 0o644)
	for _, args := range [][]string{
		{"why-not-joining", hostileInstance, "--snapshot", snap, "-o", "table"},
		{"why-not-joining", hostileInstance, "--snapshot", snap, "-o", "markdown"},
		{"why-not-joining", "--all-pending", "--snapshot", snap, "-o", "table"},
		{"scan", "--snapshot", snap, "-o", "table"},
		{"scan", "--snapshot", snap, "-o", "markdown"},
		{"scan", "--snapshot", snap, "-o", "junit"},
	} {
		_, out, stderr := run(args...)
		if strings.ContainsAny(out, "\x1b\x07\u202e\u009b") || strings.ContainsAny(stderr, "\x1b\x07") {
			t.Errorf("%v: raw escape sequence in the output", args)
		}
	}
	_, out, _ := run("why-not-joining", hostileInstance, "--snapshot", snap, "-o", "json")
	if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `\u001b]0;pwned`) {
		t.Errorf("JSON must carry the value, encoded: %.300s", out)
	}
}

// TestHostileMarkupInMarkdownIsText: the red team's kubelet lines whose node name carries HTML,
// a comment, a table break-out, a link, a code fence, a heading and a mention give a Markdown
// report that renders (GFM, raw HTML allowed) with no element from the log: every table row keeps
// its five cells, and the name reads as its text wherever it is quoted.
func TestHostileMarkupInMarkdownIsText(t *testing.T) {
	for _, node := range []string{
		"ip-10-0-12-34|</td></table><img src=x onerror=alert(1)>```\\n# HEADING [click](javascript:alert(1)) @everyone",
		"ip-10-0-12-34<!--",
	} {
		paste := strings.Repeat(unauthorizedWith(`node="`+node+`"`), 2)
		for _, args := range [][]string{{"analyze", "-", "-o", "markdown"}, {"analyze", "-", "-o", "markdown", "--all"}} {
			var out, e bytes.Buffer
			cmd := NewRootCmd(&out, &e)
			cmd.SetIn(strings.NewReader(paste))
			cmd.SetArgs(args)
			cmd.Execute()
			var h bytes.Buffer
			gm := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
			if err := gm.Convert(out.Bytes(), &h); err != nil {
				t.Fatal(err)
			}
			// a mention in code notifies nobody
			text := regexp.MustCompile(`(?s)<code>.*?</code>`).ReplaceAllString(h.String(), "")
			for _, bad := range []string{"<img", "<a ", "<!--", "</table></td>", "<h1", "@everyone"} {
				if strings.Contains(text, bad) {
					t.Errorf("%q %v: rendered report holds %q:\n%s", node, args, bad, h.String())
				}
			}
			if !strings.Contains(out.String(), "runtime.unauthorized") || !strings.Contains(h.String(), "ip-10-0-12-34") {
				t.Fatalf("%q %v: no finding quoting the node:\n%s", node, args, out.String())
			}
			for _, row := range regexp.MustCompile(`(?s)<tr>(.*?)</tr>`).FindAllStringSubmatch(h.String(), -1) {
				if n := strings.Count(row[1], "<td>") + strings.Count(row[1], "<th>"); n != 5 {
					t.Errorf("%q %v: a table row with %d cells: %s", node, args, n, row[1])
				}
			}
		}
	}
}

func TestHostileHugeTokenKeepsReportsSmall(t *testing.T) {
	paste := "#!/bin/bash\n/etc/eks/bootstrap.sh prod " + strings.Repeat("A", 900<<10) + "\n"
	for _, o := range []string{"table", "markdown", "json"} {
		var out, e bytes.Buffer
		cmd := NewRootCmd(&out, &e)
		cmd.SetIn(strings.NewReader(paste))
		cmd.SetArgs([]string{"analyze", "-", "-o", o})
		cmd.Execute()
		if out.Len() > 128<<10 || out.Len() == 0 {
			t.Errorf("-o %s: %d bytes of report for a 900 KB token", o, out.Len())
		}
	}
}

func TestHostileSnapshotFilesInEveryCommand(t *testing.T) {
	snap := copyDir(t, hostileSnap)
	os.WriteFile(filepath.Join(snap, "kube", "aws-auth.yaml"), nil, 0o644)
	os.WriteFile(filepath.Join(snap, "ec2", "describe-route-tables.json"), []byte("null\n"), 0o644)
	os.WriteFile(filepath.Join(snap, "manifest.json"), []byte(`{"collectedAt": 1e300}`), 0o644)
	for _, args := range [][]string{
		{"why-not-joining", hostileInstance, "--snapshot", snap},
		{"why-not-joining", "--all-pending", "--snapshot", snap},
		{"scan", "--snapshot", snap},
		{"analyze", snap},
	} {
		code, out, stderr := run(append(args, "-o", "json")...)
		if code == ExitUsage || code == ExitInput || strings.Contains(out, `"status": "error"`) || strings.Contains(stderr, "panic") {
			t.Errorf("%v: exit %d, crashed checks or panic: %s", args, code, stderr)
		}
		for _, p := range []string{"kube/aws-auth.yaml", "ec2/describe-route-tables.json", "manifest.json"} {
			if !strings.Contains(out, `"path": "`+p+`"`) {
				t.Errorf("%v: %s is not an input problem of the report", args, p)
			}
		}
		if strings.Contains(out, "292277026596") {
			t.Errorf("%v: collectedAt 1e300 was used", args)
		}
	}
}
