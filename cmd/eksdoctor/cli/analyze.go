package cli

import (
	"archive/tar"
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/eksdoctor/eksdoctor/collectors/bundle"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/ingest"
	"github.com/eksdoctor/eksdoctor/collectors/layout"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
	"github.com/eksdoctor/eksdoctor/collectors/redact"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// AnalyzeOptions are the flags of eksdoctor analyze.
type AnalyzeOptions struct {
	*GlobalOptions
	// Snapshot, when set, is cross-checked with a bundle (CA, endpoint, cluster name, DNS IP).
	Snapshot string
	Cluster  string
	Limits   bundle.Limits
	// MaxStdinZip is the largest archive, in bytes as piped, that standard input is spooled to a
	// temporary file for: a zip (which needs random access) or a snapshot packed as .tar.gz, .tar
	// or .zip (whose members are read again when decoded). The spool is removed afterwards.
	MaxStdinZip int64
	// As forces the reading of a paste (an ingest type such as "log" or "userdata").
	As       string
	Registry *checks.Registry
	stdin    io.Reader
	// warnings go on the report (crossCheck).
	warnings []string
	// capped is the --max-bytes bound of a paste stream (nil for bundles and snapshots).
	capped *capReader
	// cutShort says why a gzip-compressed paste was read only up to a point (its stream cut
	// short or corrupt), empty when it was read whole.
	cutShort string
}

// maxStdinSpool is AnalyzeOptions.MaxStdinZip's default: 512 MiB.
var maxStdinSpool int64 = 512 << 20

// NewCmdAnalyze builds the analyze command.
func NewCmdAnalyze(g *GlobalOptions) *cobra.Command {
	o := &AnalyzeOptions{GlobalOptions: g, Limits: bundle.DefaultLimits, MaxStdinZip: maxStdinSpool}
	cmd := &cobra.Command{
		Use:   "analyze PATH|-",
		Short: "Diagnose offline from a node log bundle, a snapshot or one pasted artefact",
		Long: `Diagnose offline from whatever you were handed. The input is recognised by its content,
not its name, and the report says what it was read as:

  a node log bundle   Bottlerocket logdog (bottlerocket-logs.tar.gz), the EKS Linux log
                      collector (eks_i-….tar.gz, or un-gzipped to .tar), the EKS Windows log
                      collector (.zip), or any of them extracted into a directory
                      (docs/bundle-formats.md);
  a snapshot          directory, .tar.gz, .tar or .zip of AWS CLI / kubectl outputs: every instance
                      without a Node, or whose Node is NotReady, is diagnosed; with
                      no instance at all, the cluster as a whole (docs/snapshot-format.md);
  a paste             (a file or - for standard input; read once, so pipes and FIFOs
                      work) split into documents at Markdown fences, shell prompts and
                      paragraphs, each read by content: runs of log lines (kubelet,
                      containerd, nodeadm, cloud-init, console, IPAMD, Karpenter, eksctl,
                      CloudFormation, Terraform …), user data in any encoding, aws-auth (a
                      ConfigMap, its mapRoles block or a fragment), kubelet kubeconfig and
                      configuration, Bottlerocket settings, kubectl describe / get / version
                      output and JSON, 'aws …' output of the snapshot layout (JSON, or text
                      under its --query), a Terraform plan of aws-auth.
                      stderr lists each line range and what it was read as; --as forces one
                      reading. Input in which nothing is recognised exits 3.

Logs are matched against the catalog of known failure signatures (runtime.* findings, each with
the first and last matching line); the node's own bootstrap configuration feeds the bootstrap.*
checks. With --snapshot, a bundle is cross-checked with the account: the CA, endpoint and
cluster name the node uses against the cluster's.

Archives are streamed and never extracted; links, devices, sparse files, unsafe member names
and archives inside the bundle (never opened: extract one and analyze it on its own) are
skipped and reported; --max-bytes, --max-members and --max-line-bytes bound what a read may
consume. --max-bytes bounds a paste too. A limit reached after something was read stops the read
there and keeps what was read: the report lists the limit and the run exits 1 with a failing
finding, else 4 (exit 4 with no report when nothing was read yet).`,
		Example: `  eksdoctor analyze bottlerocket-logs.tar.gz
  eksdoctor analyze eks_i-0abc1234def567890_2026-07-24_1530-UTC_0.7.9.tar.gz --snapshot ./snap
  journalctl -u kubelet --no-pager | tail -200 | eksdoctor analyze -
  kubectl -n kube-system get configmap aws-auth -o yaml | eksdoctor analyze -
  aws ec2 describe-instance-attribute --instance-id i-0abc --attribute userData --query UserData.Value --output text | eksdoctor analyze -`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("analyze takes exactly one PATH (or - for standard input), got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.stdin = cmd.InOrStdin()
			return o.Run(args[0])
		},
	}
	o.addOutputFlag(cmd)
	cmd.Flags().StringVar(&o.Snapshot, "snapshot", "", "cross-check a bundle with this snapshot directory or .tar.gz")
	cmd.Flags().StringVar(&o.Cluster, "cluster", "", "cluster name (default: the snapshot's; without --snapshot, or when it names none, the one the node's configuration names)")
	cmd.Flags().Int64Var(&o.Limits.MaxBytes, "max-bytes", bundle.DefaultLimits.MaxBytes, "stop reading an archive or a paste after this many uncompressed bytes")
	cmd.Flags().IntVar(&o.Limits.MaxMembers, "max-members", bundle.DefaultLimits.MaxMembers, "stop reading an archive after this many members")
	cmd.Flags().StringVar(&o.As, "as", "", "read a pasted text as this one type instead of by content: "+strings.Join(asTypes(), ", "))
	cmd.Flags().IntVar(&o.Limits.MaxLineBytes, "max-line-bytes", bundle.DefaultLimits.MaxLineBytes, "match log lines longer than this in pieces of this size (bounds memory; 4096 to 268435456)")
	return cmd
}

// Run analyses one input. Every input is opened once: a regular file may be re-read by path
// (bundles and snapshots), anything else (standard input, a pipe, a FIFO, /dev/fd/N) is read as
// one stream.
func (o *AnalyzeOptions) Run(p string) error {
	// the signature scanner's tables compile on the second core while the input is opened
	logscan.Warm()
	reg, selected, err := o.prepare(o.Registry)
	if err != nil {
		return err
	}
	if o.As != "" && !knownType(o.As) {
		return usageErr("unknown --as %q (want one of: %s)", o.As, strings.Join(asTypes(), ", "))
	}
	if err := validateLimits(o.Limits); err != nil {
		return err
	}
	if p == "-" {
		if f, ok := o.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			// typed input: say what is awaited rather than wait in silence
			o.note("eksdoctor: reading standard input… (%s to end)\n", eofKey())
		}
		return o.streamInput(o.stdin, "stdin", reg, selected)
	}
	st, err := os.Stat(p)
	if err != nil {
		return inputErr("cannot read %s: %v", p, err)
	}
	if st.IsDir() {
		if isSnapshotDir(p) || snapshot.LooksLikeSnapshot(p) {
			return o.snapshotInput(p, reg, selected)
		}
		return o.bundleFile(p, reg, selected)
	}
	if !st.Mode().IsRegular() {
		f, err := openStream(p, st)
		if err != nil {
			return inputErr("cannot read %s: %v", p, err)
		}
		defer f.Close()
		return o.streamInput(f, p, reg, selected)
	}
	head, err := readHead(p)
	if err != nil {
		return inputErr("cannot read %s: %v", p, err)
	}
	switch {
	case o.As != "":
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bundle.IsTar(head):
		if snapshot.LooksLikeSnapshot(p) {
			// a snapshot zipped, or tarred with no compression
			return o.snapshotInput(p, reg, selected)
		}
		return o.bundleFile(p, reg, selected)
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		if snapshot.LooksLikeSnapshot(p) {
			return o.snapshotInput(p, reg, selected)
		}
		if gzippedTar(p) {
			return o.bundleFile(p, reg, selected)
		}
	}
	f, err := os.Open(p)
	if err != nil {
		return inputErr("cannot read %s: %v", p, err)
	}
	defer f.Close()
	return o.streamInput(f, p, reg, selected)
}

// gzippedTar reports whether the gzip file at p holds a tar archive (a bundle) rather than
// compressed text (gzip'd user data).
func gzippedTar(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	return tarInside(bufio.NewReader(f))
}

// tarInside peeks at gzip-compressed input: a tar archive has "ustar" at offset 257 of its first
// header, or at least a header block whose checksum is valid.
func tarInside(br *bufio.Reader) bool {
	comp, _ := br.Peek(64 << 10)
	zr, err := gzip.NewReader(bytes.NewReader(comp))
	if err != nil {
		return false
	}
	block := make([]byte, 512)
	n, _ := io.ReadFull(zr, block)
	if n < 512 {
		return false
	}
	_, err = tar.NewReader(bytes.NewReader(block)).Next()
	return err == nil || bytes.Equal(block[257:262], []byte("ustar"))
}

// snapshotInside reports whether the gzip-compressed tar br starts with holds a snapshot's
// layout among the members of its first 64 KiB (compressed), read without consuming br.
func snapshotInside(br *bufio.Reader) bool {
	comp, _ := br.Peek(64 << 10)
	zr, err := gzip.NewReader(bytes.NewReader(comp))
	if err != nil {
		return false
	}
	return snapshot.TarHoldsSnapshot(io.LimitReader(zr, 1<<20))
}

// MaxPaste is the largest text read as a paste (split into documents); longer text is scanned
// as one log stream, in bounded memory.
const MaxPaste = 16 << 20

// MaxPasteLines is the most lines a paste is split into documents with; text of more lines is
// scanned as one log stream, as text longer than MaxPaste is. Splitting holds every line of a
// paste with its number and the indexes of what cuts it, some hundreds of bytes a line whatever
// its length: 16 MiB of one-character lines (8 million) held 1.2 GB and more, 200,000 lines
// hold about 60 MB. A journal of 16 MiB has about 100,000 lines, a 4 MiB pretty-printed AWS CLI
// document (ingest.MaxDocumentBytes) about 150,000.
const MaxPasteLines = 200000

// streamInput reads one input from r: a gzip-compressed bundle, a zip bundle, gzip-compressed
// text, or text (a paste).
func (o *AnalyzeOptions) streamInput(r io.Reader, name string, reg *checks.Registry, selected []checks.Check) error {
	// a terminal's end of input (Ctrl-D) is one empty read, which bufio's Peek hands on once
	// and forgets: without stickyEOF the next read would wait for a second Ctrl-D
	br := bufio.NewReaderSize(&stickyEOF{r: r}, 64<<10)
	o.cutShort = ""
	head, err := br.Peek(4)
	if err != nil && err != io.EOF {
		return inputErr("%s: %v", name, err)
	}
	switch {
	case o.As != "":
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}) && tarInside(br):
		return o.streamedArchive(br, name, ".tar.gz", snapshotInside(br), bundle.ReadTarGz, reg, selected)
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return inputErr("%s: gzip data that does not decompress: %v", name, err)
		}
		o.capped = &capReader{r: zr, max: o.Limits.MaxBytes}
		data, err := io.ReadAll(io.LimitReader(o.capped, MaxPaste+1))
		if err != nil {
			// a stream cut short (an interrupted download) or corrupt further on: the lines
			// that decompressed are read, as a rotated .gz inside a bundle is, up to the last
			// whole line, and the report says the rest is lost
			if i := bytes.LastIndexByte(data, '\n'); i >= 0 && len(data) <= MaxPaste {
				o.cutShort = fmt.Sprintf("the gzip stream is cut or corrupt (%v) after %d decompressed bytes; the lines before were read, the rest is lost", err, len(data))
				data = data[:i+1]
			} else {
				return inputErr("%s: gzip data that does not decompress: %v", name, err)
			}
		}
		if len(data) > MaxPaste {
			return inputErr("%s: gzip-compressed text larger than %d bytes; decompress it and analyze the result", name, MaxPaste)
		}
		return o.cappedExit(o.textInput(data, name, reg, selected), name)
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		// zip needs random access: the stream is spooled to a temporary file, never held in
		// memory (a 300 MB zip piped from `aws s3 cp … -` took 849 MB; red team 8b #14)
		spool, err := os.CreateTemp("", "eksdoctor-stdin-*.zip")
		if err != nil {
			return inputErr("%s: a zip on standard input is spooled to a temporary file, which could not be created (%v); give the zip as a file", name, err)
		}
		defer os.Remove(spool.Name())
		defer spool.Close()
		size, err := io.Copy(spool, io.LimitReader(br, o.MaxStdinZip+1))
		if err != nil {
			return inputErr("%s: %v", name, err)
		}
		if size > o.MaxStdinZip {
			return inputErr("%s: a zip larger than %d bytes must be given as a file (zip needs random access)", name, o.MaxStdinZip)
		}
		if snapshot.LooksLikeSnapshot(spool.Name()) {
			o.note("eksdoctor: %s is a zip of a snapshot, read from a temporary copy (removed afterwards)\n", name)
			return o.namedSnapshotInput(spool.Name(), name, reg, selected)
		}
		b, err := bundle.ReadZip(spool, size, name, o.Limits)
		if err != nil {
			if errors.Is(err, bundle.ErrNotBundle) {
				hint := ""
				if h := bundle.Hint(err); h != "" {
					hint = "; " + h
				}
				return nothingErr("%s: a zip archive that is not a node log bundle (no system/ folder of the EKS Windows log collector)%s", name, hint)
			}
			return bundleErr(err)
		}
		return o.bundleResult(b, reg, selected)
	}
	if o.As == "" {
		if block, _ := br.Peek(512); bundle.IsTar(block) {
			return o.streamedArchive(br, name, ".tar", tarHoldsSnapshot(br), bundle.ReadTar, reg, selected)
		}
	}
	if peek, _ := br.Peek(64 << 10); len(peek) > 0 {
		// bytes that are not text are refused before the rest is read, with their own exit
		// code (4, not the 3 of text in which nothing is recognised)
		if _, prob := ingest.Text(peek); prob != nil {
			return notTextErr(name, prob)
		}
	}
	// --max-bytes bounds a paste as it bounds a bundle: the read stops there, keeping what was read
	o.capped = &capReader{r: br, max: o.Limits.MaxBytes}
	data, err := io.ReadAll(io.LimitReader(o.capped, MaxPaste+1))
	if err != nil {
		return inputErr("%s: %v", name, err)
	}
	if len(data) > MaxPaste {
		if what := largeDocument(data); what != "" && o.As == "" {
			return inputErr("%s: %s larger than the %d MiB read as a paste; it is read from a snapshot (docs/snapshot-format.md, files up to 64 MiB)", name, what, MaxPaste>>20)
		}
		return o.cappedExit(o.largeLog(io.MultiReader(bytes.NewReader(data), o.capped), name, reg, selected, "more than a paste"), name)
	}
	return o.cappedExit(o.textInput(data, name, reg, selected), name)
}

// streamedArchive reads a tar archive (ext ".tar.gz" or ".tar") from standard input: a snapshot
// (snap) is spooled to a temporary file, since its members are read again when decoded; a node
// log bundle is streamed through read.
func (o *AnalyzeOptions) streamedArchive(br *bufio.Reader, name, ext string, snap bool, read func(io.Reader, string, bundle.Limits) (*bundle.Bundle, error), reg *checks.Registry, selected []checks.Check) error {
	if snap {
		return o.spooledSnapshot(br, name, ext, reg, selected)
	}
	b, err := read(br, name, o.Limits)
	if err != nil {
		return bundleErr(err)
	}
	return o.bundleResult(b, reg, selected)
}

// tarHoldsSnapshot reports whether the uncompressed tar br starts with holds a snapshot's layout
// among the members of its first 1 MiB, read without consuming br.
func tarHoldsSnapshot(br *bufio.Reader) bool {
	head, _ := br.Peek(1 << 20)
	return snapshot.TarHoldsSnapshot(bytes.NewReader(head))
}

// spooledSnapshot copies a snapshot archive from standard input (at most o.MaxStdinZip bytes) to
// a temporary file named with ext, reads it as a snapshot, and removes the file. A larger archive
// is an input error that says to give it as a file.
func (o *AnalyzeOptions) spooledSnapshot(r io.Reader, name, ext string, reg *checks.Registry, selected []checks.Check) error {
	spool, err := os.CreateTemp("", "eksdoctor-stdin-*"+ext)
	if err != nil {
		return inputErr("%s: a snapshot archive on standard input is spooled to a temporary file, which could not be created (%v); give it as a file", name, err)
	}
	defer os.Remove(spool.Name())
	size, err := io.Copy(spool, io.LimitReader(r, o.MaxStdinZip+1))
	if cerr := spool.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return inputErr("%s: %v", name, err)
	}
	if size > o.MaxStdinZip {
		return inputErr("%s: a snapshot archive larger than %d bytes must be given as a file or directory (`eksdoctor analyze FILE` or `--snapshot FILE`)", name, o.MaxStdinZip)
	}
	o.note("eksdoctor: %s is a %s snapshot archive, read from a temporary copy (removed afterwards)\n", name, strings.TrimPrefix(ext, "."))
	return o.namedSnapshotInput(spool.Name(), name, reg, selected)
}

// stickyEOF returns io.EOF for ever once its reader has returned it.
type stickyEOF struct {
	r   io.Reader
	eof bool
}

func (s *stickyEOF) Read(p []byte) (int, error) {
	if s.eof {
		return 0, io.EOF
	}
	n, err := s.r.Read(p)
	if err == io.EOF {
		s.eof = true
	}
	return n, err
}

// capReader ends a stream after max bytes (--max-bytes) and remembers whether more followed.
type capReader struct {
	r      io.Reader
	n, max int64
	hit    bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n >= c.max {
		if !c.hit {
			// the limit is exceeded only if the stream goes on past it
			var one [1]byte
			for {
				k, err := c.r.Read(one[:])
				if k > 0 {
					c.hit = true
				}
				if k > 0 || err != nil {
					break
				}
			}
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.max-c.n {
		p = p[:c.max-c.n]
	}
	k, err := c.r.Read(p)
	c.n += int64(k)
	return k, err
}

// limitProblem is the input problem of a paste cut at --max-bytes, or of a gzip-compressed
// paste whose stream was cut short, if it was.
func (o *AnalyzeOptions) limitProblem(name string) []report.InputProblem {
	var out []report.InputProblem
	if o.cutShort != "" {
		out = append(out, report.InputProblem{Path: name, Problem: "read only in part: " + o.cutShort})
	}
	if o.capped == nil || !o.capped.hit {
		return out
	}
	return append(out, report.InputProblem{Path: name, Problem: fmt.Sprintf("read only in part: longer than --max-bytes (%d bytes); the rest was not read", o.capped.max)})
}

// cappedExit ends the analysis of a paste that --max-bytes cut, or whose gzip stream was cut
// short: stderr says so, naming the input, and the exit is that of a damaged bundle (what was
// not read may hold the cause) — also when nothing in the part read was recognised (4, not 3).
func (o *AnalyzeOptions) cappedExit(err error, name string) error {
	capped := o.capped != nil && o.capped.hit
	var ee *ExitError
	if (o.cutShort != "" || capped) && errors.As(err, &ee) && ee.Code == ExitNothingChecked {
		// nothing recognised in the part read is not nothing recognised in the input: what it
		// holds may lie in the rest, so the cut decides (4, as for a cut in whose part read
		// nothing failed), not the 3 of text read whole; no report was written
		why := o.cutShort
		if capped {
			why = fmt.Sprintf("only the first %d bytes were read (--max-bytes)", o.capped.max)
		}
		return &ExitError{Code: ExitInput, Err: fmt.Errorf("%w; %s: what the input holds may lie in the part not read", ee.Err, why)}
	}
	if o.cutShort != "" {
		o.note("eksdoctor: %s was read only in part: %s; the report covers what was read\n", name, o.cutShort)
		if !capped {
			return o.partialExit(err)
		}
	}
	if !capped {
		return err
	}
	o.note("eksdoctor: %s was read only in part: it is longer than --max-bytes (%d bytes), the rest was not read; the report covers what was read\n", name, o.capped.max)
	return o.partialExit(err)
}

// eofKey is the key that ends typed standard input.
func eofKey() string {
	if runtime.GOOS == "windows" {
		return "Ctrl-Z then Enter"
	}
	return "Ctrl-D"
}

// largeDocument says what structured document data starts with ("AWS CLI output of aws ec2
// describe-instances (snapshot file ec2/describe-instances.json)", "a JSON document", "a YAML
// document"), or "" for text that is not one (a log).
func largeDocument(data []byte) string {
	head := bytes.TrimLeft(data[:min(len(data), 64<<10)], " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(head, []byte("{")):
		dec := json.NewDecoder(bytes.NewReader(head))
		if t, err := dec.Token(); err == nil && t == json.Delim('{') {
			if k, err := dec.Token(); err == nil {
				if key, ok := k.(string); ok {
					if e, ok := layout.ByPasteKey(key); ok {
						return fmt.Sprintf("AWS CLI or kubectl output of %s (snapshot file %s)", strings.Fields(e.Command)[0]+" "+strings.Join(strings.Fields(e.Command)[1:3], " "), e.Path)
					}
				}
			}
		}
		return "a JSON document"
	case bytes.HasPrefix(head, []byte("[")):
		// a JSON array has a value after its bracket; a TOML table header ("[settings.kubernetes]",
		// Bottlerocket settings) has a name
		dec := json.NewDecoder(bytes.NewReader(head))
		if _, err := dec.Token(); err == nil {
			if _, err := dec.Token(); err == nil {
				return "a JSON document"
			}
		}
	case bytes.HasPrefix(head, []byte("apiVersion:")) || bytes.HasPrefix(head, []byte("kind:")) || bytes.HasPrefix(head, []byte("---\n")):
		return "a YAML document"
	}
	return ""
}

// textInput reads a paste: split into documents, each read by content (or as --as says).
func (o *AnalyzeOptions) textInput(data []byte, name string, reg *checks.Registry, selected []checks.Check) error {
	text, prob := ingest.Text(data)
	if prob != nil {
		return notTextErr(name, prob)
	}
	if len(bytes.TrimSpace(text)) == 0 {
		return inputErr("%s: empty input", name)
	}
	if n := bytes.Count(text, []byte("\n")); n > MaxPasteLines {
		if what := largeDocument(text); what != "" && o.As == "" {
			return inputErr("%s: %s of %d lines, more than the %d read as a paste; it is read from a snapshot (docs/snapshot-format.md, files up to 64 MiB)", name, what, n, MaxPasteLines)
		}
		return o.largeLog(bytes.NewReader(text), name, reg, selected, fmt.Sprintf("%d lines, more than a paste", n))
	}
	res := ingest.Read(text, name, ingest.Options{As: asChoices[o.As], Block: o.Limits.MaxLineBytes})
	for _, s := range res.Segments {
		what := s.Label()
		note := ""
		if s.Problem != "" {
			note = " — " + s.Problem
		}
		if !s.Recognised() {
			note += " (not read)"
		}
		o.note("eksdoctor: %s lines %d-%d: %s%s\n", name, s.First, s.Last, what, note)
	}
	if !res.Recognised() {
		for _, s := range res.Segments {
			if s.Problem != "" {
				// a part was recognised but could not be read: an input problem, not junk
				return inputErr("nothing in %s could be read: lines %d-%d: %s", name, s.First, s.Last, s.Problem)
			}
		}
		return nothingErr("nothing in %s is recognised: no node log line, node configuration, aws-auth, kubectl or AWS CLI output was found (analyze --as TYPE forces a reading)", name)
	}
	if s, why, none := res.NothingRead(); none {
		// every part was recognised, none could be read: an input problem, as when it does not parse
		return inputErr("nothing in %s could be read: lines %d-%d: %s", name, s.First, s.Last, why)
	}
	ev := res.Evidence
	ev.GapAllMissing("not in the input given")
	if o.Cluster != "" {
		ev.Target.Cluster, ev.Target.ClusterSource = o.Cluster, "flag"
	}
	problems := o.limitProblem(name)
	for _, s := range res.Segments {
		if s.Problem != "" {
			problems = append(problems, report.InputProblem{Path: ingest.Origin(name, s), Problem: s.Problem})
		}
	}
	if res.Snapshot != nil {
		for _, p := range res.Snapshot.Problems {
			problems = append(problems, report.InputProblem{Path: p.Path, Problem: p.Err})
		}
	}
	return o.renderOne(reg, selected, ev, problems)
}

// largeLog scans input too large to be a paste as one log stream; why says how it is too large
// ("more than a paste", "250000 lines, more than a paste").
func (o *AnalyzeOptions) largeLog(r io.Reader, name string, reg *checks.Registry, selected []checks.Check, why string) error {
	sc := logscan.MustDefault()
	sc.Block = o.Limits.MaxLineBytes
	if err := sc.Scan(r, name, "journal"); err != nil {
		return inputErr("%s: %v", name, err)
	}
	logs := sc.Result("artefact")
	if len(logs.ComponentLines()) == 0 {
		return nothingErr("nothing in %s is recognised: %d bytes with no line of a known component", name, logs.Streams[0].Bytes)
	}
	o.note("eksdoctor: read %s as one log (%d bytes, %s)\n", name, logs.Streams[0].Bytes, why)
	ev := &evidence.Evidence{NodeLogs: logs}
	ev.Target.Source = "log: " + name
	ev.Mark(evidence.KindNodeLogs, "log:"+name)
	// the log's last dated line, matched or not, or a later matched one
	for _, st := range logs.Streams {
		if st.LastTime.After(ev.CollectedAt) {
			ev.CollectedAt = st.LastTime
		}
	}
	for _, h := range logs.Hits {
		if h.Last.Time.After(ev.CollectedAt) {
			ev.CollectedAt = h.Last.Time
		}
	}
	ev.GapAllMissing("not in the input given")
	return o.renderOne(reg, selected, ev, o.limitProblem(name))
}

func readHead(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 262) // a tar's magic is at 257
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	return b[:n], nil
}

// snapshotDirs are the top-level entries of a snapshot (docs/snapshot-format.md).
var snapshotDirs = map[string]bool{"manifest.json": true, "ec2": true, "eks": true, "iam": true, "autoscaling": true, "kube": true}

func isSnapshotDir(p string) bool {
	for name := range snapshotDirs {
		if _, err := os.Stat(filepath.Join(p, name)); err == nil {
			return true
		}
	}
	return false
}

func bundleErr(err error) error {
	switch {
	case errors.Is(err, bundle.ErrLimit):
		return inputErr("%v", err)
	case errors.Is(err, bundle.ErrNotBundle):
		return inputErr("%v", err)
	}
	return inputErr("cannot read bundle %v", err)
}

func (o *AnalyzeOptions) bundleFile(p string, reg *checks.Registry, selected []checks.Check) error {
	b, err := bundle.Open(p, o.Limits)
	if err != nil {
		return bundleErr(err)
	}
	return o.bundleResult(b, reg, selected)
}

// bundleKindNames are the human names of bundle kinds.
var bundleKindNames = map[string]string{
	bundle.KindBottlerocket: "Bottlerocket logdog bundle",
	bundle.KindEKSLinux:     "EKS Linux log collector bundle",
	bundle.KindEKSWindows:   "EKS Windows log collector bundle",
}

func (o *AnalyzeOptions) bundleResult(b *bundle.Bundle, reg *checks.Registry, selected []checks.Check) error {
	ev := b.Evidence()
	what := bundleKindNames[b.Kind]
	if ev.NodeOS != nil && ev.NodeOS.Family != "" {
		what += " (" + ev.NodeOS.Family + ")"
	}
	var problems []report.InputProblem
	for _, p := range b.Problems {
		problems = append(problems, report.InputProblem{Path: p.Path, Problem: p.Problem})
	}
	if o.Snapshot != "" {
		merged, err := o.crossCheck(ev)
		if err != nil {
			return err
		}
		ev = merged
		what += ", cross-checked with snapshot " + o.Snapshot
	} else if o.Cluster != "" {
		ev.Target.Cluster, ev.Target.ClusterSource = o.Cluster, "flag"
	}
	o.note("eksdoctor: read %s as %s\n", b.Name, withArticle(what))
	ev.Target.Source = what + ": " + b.Name
	err := o.renderOne(reg, selected, ev, problems)
	if b.Damaged {
		return o.damaged(err, b)
	}
	return err
}

// damaged says on stderr that the bundle was read only in part (damage, or a limit reached
// after members were read) and turns a clean exit (no failing finding: 0, 3 or 5) into
// ExitInput, since what was lost may hold the cause; a cause found in what was read keeps
// ExitFindings. --exit-zero keeps 0.
func (o *AnalyzeOptions) damaged(err error, b *bundle.Bundle) error {
	first := ""
	for _, p := range b.Problems {
		first = p.Path + ": " + p.Problem
		break
	}
	if b.Limit != "" {
		o.note("eksdoctor: %s was read only in part: %s; the report covers what was read\n", b.Name, b.Limit)
	} else {
		o.note("eksdoctor: %s is damaged and was read only in part (%s); the report covers what could be read\n", b.Name, first)
	}
	return o.partialExit(err)
}

// partialExit is the exit of an input read only in part: a failing finding keeps ExitFindings,
// an error that is not an exit code (the report could not be written) stays, and a clean exit
// (0, 3 or 5) becomes ExitInput, as what was not read may hold the cause. --exit-zero keeps 0.
func (o *AnalyzeOptions) partialExit(err error) error {
	var c codeOnly
	if errors.As(err, &c) && int(c) == ExitFindings {
		return err
	}
	if err != nil && !errors.As(err, &c) {
		return err // the report itself could not be written
	}
	if o.ExitZero {
		return nil
	}
	return codeOnly(ExitInput)
}

// crossCheckSkew is how far apart a bundle and the snapshot it is cross-checked with may be
// collected before the report warns that the account may have changed in between.
const crossCheckSkew = 24 * time.Hour

// note says a line on stderr, with secrets redacted as in the report: what it says about the
// input (a segment's name, a parse problem, a member name) comes from the input, so control
// characters, newlines and tabs in it are escaped (report.EscapeLine): one note, one line.
func (o *AnalyzeOptions) note(format string, args ...any) {
	msg, nl := strings.CutSuffix(fmt.Sprintf(format, args...), "\n")
	fmt.Fprint(o.stderr, report.EscapeLine(redact.String(msg)))
	if nl {
		fmt.Fprintln(o.stderr)
	}
}

// warn notes a warning for the report and says it on stderr at once.
func (o *AnalyzeOptions) warn(msg string) {
	o.warnings = append(o.warnings, msg)
	o.note("eksdoctor: warning: %s\n", msg)
}

// humanDuration says a duration in days or hours ("3 days", "30 hours").
func humanDuration(d time.Duration) string {
	if d >= 72*time.Hour {
		return fmt.Sprintf("%d days", int(d.Hours()/24))
	}
	return fmt.Sprintf("%d hours", int(d.Hours()))
}

// crossCheck builds the snapshot's evidence for the bundle's instance (or the cluster alone)
// and puts the node's own configuration, logs and OS on it.
func (o *AnalyzeOptions) crossCheck(node *evidence.Evidence) (*evidence.Evidence, error) {
	snap, err := snapshot.Open(o.Snapshot, snapshot.DefaultLimits)
	if err != nil {
		return nil, inputErr("cannot read snapshot %s: %v", o.Snapshot, err)
	}
	// The cluster the node belongs to is the flag's, else the snapshot's (the instance's cluster
	// tags, the user data it was launched with, the manifest, describe-cluster): the node's own
	// configuration is what is judged against it, so it names the target only when the snapshot
	// names no cluster at all.
	var ev *evidence.Evidence
	build := func(cluster string) {
		ev = nil
		if id := node.Target.InstanceID; id != "" {
			if e, err := snap.Evidence(id, cluster); err == nil {
				ev = e
			} else if cluster == o.Cluster {
				o.warn(fmt.Sprintf("snapshot %s does not hold instance %s (%v): only the cluster side is cross-checked, and the instance, its network and IAM are not", o.Snapshot, id, err))
			}
		}
		if ev == nil {
			ev = snap.ClusterEvidence(cluster)
			ev.Target.InstanceID = node.Target.InstanceID
		}
	}
	build(o.Cluster)
	switch {
	case o.Cluster != "":
	case ev.Target.Cluster == "" && node.Target.Cluster != "":
		build(node.Target.Cluster)
		ev.Target.ClusterSource = node.Target.ClusterSource // the name came from the node, not from a flag
	case ev.Target.ClusterSource == "user data" && node.Have(evidence.KindBootstrap) && node.Bootstrap.ClusterName != "":
		// the snapshot's user data named the cluster; the node's configuration replaces that
		// user data below, and is judged against it
		ev.Target.ClusterSource = "the instance's user data in the snapshot"
	}
	if node.Target.Cluster != "" && ev.Target.Cluster != "" && node.Target.Cluster != ev.Target.Cluster {
		o.warn(fmt.Sprintf("the node is configured for cluster %s but the snapshot is of cluster %s", node.Target.Cluster, ev.Target.Cluster))
	}
	if a, b := node.CollectedAt, snap.CollectedAt(); !a.IsZero() && !b.IsZero() {
		if gap := a.Sub(b).Abs(); gap > crossCheckSkew {
			o.warn(fmt.Sprintf("the bundle (logs up to %s) and the snapshot (collected %s) are %s apart: the account may have changed in between", a.UTC().Format(time.RFC3339), b.UTC().Format(time.RFC3339), humanDuration(gap)))
		}
	}
	snapshot.AddNodeEvidence(ev, node) // the precedence rules live with the snapshot's providers
	return ev, nil
}

func (o *AnalyzeOptions) snapshotInput(p string, reg *checks.Registry, selected []checks.Check) error {
	return o.namedSnapshotInput(p, "", reg, selected)
}

// namedSnapshotInput is snapshotInput for a temporary copy of a snapshot archive the report calls
// name ("stdin"); name "" is p itself.
func (o *AnalyzeOptions) namedSnapshotInput(p, name string, reg *checks.Registry, selected []checks.Check) error {
	w := &WhyNotJoiningOptions{GlobalOptions: o.GlobalOptions, Snapshot: p, Cluster: o.Cluster, Registry: reg, snapshotName: name}
	snap, err := w.openSnapshot()
	if err != nil {
		return err
	}
	if name == "" {
		name = p
	}
	o.note("eksdoctor: read %s as a snapshot of AWS CLI / kubectl outputs (%s)\n", name, nOf(len(snap.InstanceIDs()), "instance", "instances"))
	if why, denied := snap.InstancesGap(); why != "" && !denied {
		// No instance to judge (Karpenter never launched one, or describe-instances was not
		// collected): the cluster as a whole is still judged — its NodeClasses, NodeClaims, node
		// groups and access — and what needs an instance is named as missing.
		if err := snapshotOfCluster(snap, name, o.Cluster); err != nil {
			return err
		}
		o.warn(fmt.Sprintf("no instance to diagnose (%s): the cluster as a whole was judged", why))
		return o.renderOne(reg, selected, snap.ClusterEvidence(o.Cluster), snapshotProblems(snap))
	}
	return w.RunAll()
}

func (o *AnalyzeOptions) renderOne(reg *checks.Registry, selected []checks.Check, ev *evidence.Evidence, problems []report.InputProblem) error {
	w := &WhyNotJoiningOptions{GlobalOptions: o.GlobalOptions, warnings: o.warnings}
	return w.render(reg, selected, ev, problems, nil)
}

// withArticle puts "a" or "an" before a noun phrase.
func withArticle(s string) string {
	if s != "" && strings.ContainsRune("AEIOU", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// asChoices are the readings --as accepts, by name.
var asChoices = map[string]ingest.Type{
	"log": ingest.TypeLog, "userdata": ingest.TypeUserData, "nodeconfig": ingest.TypeNodeConfig, "aws-auth": ingest.TypeAWSAuth,
	"bottlerocket-settings": ingest.TypeBottlerocketSettings, "kubeconfig": ingest.TypeKubeconfig, "kubelet-config": ingest.TypeKubeletConfig,
	"describe-node": ingest.TypeDescribeNode, "describe-csr": ingest.TypeDescribeCSR, "get-nodes": ingest.TypeGetNodes, "get-csr": ingest.TypeGetCSR,
}

func asTypes() []string {
	out := make([]string, 0, len(asChoices))
	for k := range asChoices {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func knownType(s string) bool { _, ok := asChoices[s]; return ok }

// MinLineBytes and MaxLineBytes bound --max-line-bytes: the scan buffer is that large, so less
// than a page cannot hold a log line and more than 256 MiB is memory, not a line.
const (
	MinLineBytes = 4 << 10
	MaxLineBytes = 256 << 20
)

// validateLimits rejects limits that would be silently replaced or could not bound anything.
func validateLimits(l bundle.Limits) error {
	switch {
	case l.MaxBytes <= 0:
		return usageErr("--max-bytes %d: the limit on uncompressed bytes must be positive", l.MaxBytes)
	case l.MaxMembers <= 0:
		return usageErr("--max-members %d: the limit on archive members must be positive", l.MaxMembers)
	case l.MaxLineBytes < MinLineBytes || l.MaxLineBytes > MaxLineBytes:
		return usageErr("--max-line-bytes %d: must be between %d (4 KiB) and %d (256 MiB)", l.MaxLineBytes, MinLineBytes, MaxLineBytes)
	}
	return nil
}

// nothingErr reports input in which nothing is recognised (exit 3).
// notTextErr refuses input named name whose bytes are not text (ingest.Text's problem: binary
// data, an image, an archive eksdoctor does not read, UTF-32): exit 4, the input could not be
// read, with what it is. Text in which nothing is recognised exits 3 instead.
func notTextErr(name string, prob *ingest.Problem) error {
	if prob.Packed != nil && name != "stdin" {
		// the unpacking command names the file given, not FILE
		return inputErr("%s: the input is %s (%s); it cannot be read as text, nothing in it was analysed", name, prob.Packed.What, prob.Packed.Unpack(name, "analyze the result"))
	}
	return inputErr("%s: %s; it cannot be read as text, nothing in it was analysed", name, prob.Message)
}

func nothingErr(format string, args ...any) error {
	return &ExitError{Code: ExitNothingChecked, Err: fmt.Errorf(format, args...)}
}
