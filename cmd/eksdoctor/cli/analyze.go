package cli

import (
	"archive/tar"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/spf13/cobra"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/eksdoctor/eksdoctor/collectors/artefact"
	"github.com/eksdoctor/eksdoctor/collectors/bundle"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// AnalyzeOptions are the flags of eksdoctor analyze.
type AnalyzeOptions struct {
	*GlobalOptions
	// Snapshot, when set, is cross-checked with a bundle (CA, endpoint, cluster name, DNS IP).
	Snapshot string
	Cluster  string
	Limits   bundle.Limits
	// MaxStdinZip is the largest zip read from standard input (zip needs random access).
	MaxStdinZip int64
	Registry    *checks.Registry
	stdin       io.Reader
}

// NewCmdAnalyze builds the analyze command.
func NewCmdAnalyze(g *GlobalOptions) *cobra.Command {
	o := &AnalyzeOptions{GlobalOptions: g, Limits: bundle.DefaultLimits, MaxStdinZip: 512 << 20}
	cmd := &cobra.Command{
		Use:   "analyze PATH|-",
		Short: "Diagnose offline from a node log bundle, a snapshot or one pasted artefact",
		Long: `Diagnose offline from whatever you were handed. The input is recognised by its content,
not its name, and the report says what it was read as:

  a node log bundle   Bottlerocket logdog (bottlerocket-logs.tar.gz), the EKS Linux log
                      collector (eks_i-….tar.gz), the EKS Windows log collector (.zip), or
                      any of them extracted into a directory (docs/bundle-formats.md);
  a snapshot          directory or .tar.gz of AWS CLI / kubectl outputs: every instance
                      without a Node is diagnosed (docs/snapshot-format.md);
  one artefact        (a file or - for standard input) a journal / kubelet / containerd /
                      nodeadm / cloud-init excerpt, an ipamd or aws-node JSON log, user data in
                      any encoding, an aws-auth ConfigMap or its mapRoles block, Bottlerocket
                      settings JSON or TOML, a NodeConfig, or the JSON of an 'aws ec2|eks|iam|
                      autoscaling …' or 'kubectl get … -o json' command.

Logs are matched against the catalog of known failure signatures (runtime.* findings, each with
the first and last matching line); the node's own bootstrap configuration feeds the bootstrap.*
checks. With --snapshot, a bundle is cross-checked with the account: the CA, endpoint and
cluster name the node uses against the cluster's.

Archives are streamed and never extracted; links, devices and unsafe member names are skipped
and reported; --max-bytes, --max-members and --max-line-bytes bound what a read may consume
(exit 4 when the first two are exceeded).`,
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
	cmd.Flags().StringVar(&o.Cluster, "cluster", "", "cluster name (default: from the node's configuration or the snapshot)")
	cmd.Flags().Int64Var(&o.Limits.MaxBytes, "max-bytes", bundle.DefaultLimits.MaxBytes, "stop reading an archive after this many uncompressed bytes")
	cmd.Flags().IntVar(&o.Limits.MaxMembers, "max-members", bundle.DefaultLimits.MaxMembers, "stop reading an archive after this many members")
	cmd.Flags().IntVar(&o.Limits.MaxLineBytes, "max-line-bytes", bundle.DefaultLimits.MaxLineBytes, "match log lines longer than this in pieces of this size (bounds memory)")
	return cmd
}

// Run analyses one input.
func (o *AnalyzeOptions) Run(p string) error {
	reg, selected, err := o.prepare(o.Registry)
	if err != nil {
		return err
	}
	if p == "-" {
		return o.stdinInput(reg, selected)
	}
	st, err := os.Stat(p)
	if err != nil {
		return inputErr("cannot read %s: %v", p, err)
	}
	if st.IsDir() {
		if isSnapshotDir(p) {
			return o.snapshotInput(p, reg, selected)
		}
		return o.bundleFile(p, reg, selected)
	}
	head, err := readHead(p)
	if err != nil {
		return inputErr("cannot read %s: %v", p, err)
	}
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return o.bundleFile(p, reg, selected)
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		if isSnapshotTar(p) {
			return o.snapshotInput(p, reg, selected)
		}
		return o.bundleFile(p, reg, selected)
	}
	f, err := os.Open(p)
	if err != nil {
		return inputErr("cannot read %s: %v", p, err)
	}
	defer f.Close()
	return o.artefactInput(f, p, reg, selected)
}

func readHead(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 4)
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

// isSnapshotTar looks at the first members of a .tar.gz: snapshot directories or a bundle's.
func isSnapshotTar(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return false
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	for i := 0; i < 64; i++ {
		h, err := tr.Next()
		if err != nil {
			return false
		}
		name := strings.TrimPrefix(h.Name, "./")
		first, _, _ := strings.Cut(name, "/")
		if first == "" || first == "." {
			continue
		}
		if first == "bottlerocket-logs" || first == "kubelet" || first == "system" || first == "var_log" || first == "ipamd" {
			return false
		}
		if snapshotDirs[first] {
			return true
		}
	}
	return false
}

func (o *AnalyzeOptions) stdinInput(reg *checks.Registry, selected []checks.Check) error {
	br := bufio.NewReaderSize(o.stdin, 64<<10)
	head, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		b, err := bundle.ReadTarGz(br, "stdin", o.Limits)
		if err != nil {
			return bundleErr(err)
		}
		return o.bundleResult(b, reg, selected)
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		data, err := io.ReadAll(io.LimitReader(br, o.MaxStdinZip+1))
		if err != nil {
			return inputErr("stdin: %v", err)
		}
		if int64(len(data)) > o.MaxStdinZip {
			return inputErr("stdin: a zip larger than %d bytes must be given as a file (zip needs random access)", o.MaxStdinZip)
		}
		b, err := bundle.ReadZip(bytes.NewReader(data), int64(len(data)), "stdin", o.Limits)
		if err != nil {
			return bundleErr(err)
		}
		return o.bundleResult(b, reg, selected)
	}
	return o.artefactInput(br, "stdin", reg, selected)
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
	fmt.Fprintf(o.stderr, "eksdoctor: read %s as %s\n", b.Name, withArticle(what))
	ev.Target.Source = what + ": " + b.Name
	return o.renderOne(reg, selected, ev, problems)
}

// crossCheck builds the snapshot's evidence for the bundle's instance (or the cluster alone)
// and puts the node's own configuration, logs and OS on it.
func (o *AnalyzeOptions) crossCheck(node *evidence.Evidence) (*evidence.Evidence, error) {
	snap, err := snapshot.Open(o.Snapshot, snapshot.DefaultLimits)
	if err != nil {
		return nil, inputErr("cannot read snapshot %s: %v", o.Snapshot, err)
	}
	cluster := o.Cluster
	if cluster == "" {
		cluster = node.Target.Cluster
	}
	var ev *evidence.Evidence
	if id := node.Target.InstanceID; id != "" {
		if e, err := snap.Evidence(id, cluster); err == nil {
			ev = e
		}
	}
	if ev == nil {
		ev = snap.ClusterEvidence(cluster)
		ev.Target.InstanceID = node.Target.InstanceID
	}
	for _, k := range []evidence.Kind{evidence.KindNodeLogs, evidence.KindNodeOS, evidence.KindBootstrap} {
		if node.Have(k) {
			ev.Mark(k, node.Source(k))
		}
	}
	if node.Have(evidence.KindBootstrap) {
		// the node's effective configuration is better evidence than its user data
		ev.Bootstrap = node.Bootstrap
	}
	ev.NodeLogs, ev.NodeOS = node.NodeLogs, node.NodeOS
	if ev.CollectedAt.IsZero() {
		ev.CollectedAt = node.CollectedAt
	}
	return ev, nil
}

func (o *AnalyzeOptions) snapshotInput(p string, reg *checks.Registry, selected []checks.Check) error {
	snap, err := snapshot.Open(p, snapshot.DefaultLimits)
	if err != nil {
		return inputErr("cannot read snapshot %s: %v", p, err)
	}
	fmt.Fprintf(o.stderr, "eksdoctor: read %s as a snapshot of AWS CLI / kubectl outputs (%d instance(s))\n", p, len(snap.InstanceIDs()))
	w := &WhyNotJoiningOptions{GlobalOptions: o.GlobalOptions, Snapshot: p, Cluster: o.Cluster, Registry: reg}
	return w.RunAll()
}

func (o *AnalyzeOptions) artefactInput(r io.Reader, name string, reg *checks.Registry, selected []checks.Check) error {
	res, err := artefact.Read(r, name)
	if err != nil {
		return inputErr("%v", err)
	}
	what := res.Kind
	if res.Detail != "" && res.Detail != string(evidence.FormatNone) {
		what += " (" + res.Detail + ")"
	}
	fmt.Fprintf(o.stderr, "eksdoctor: read %s as %s\n", name, what)
	ev := res.Evidence
	ev.Target.Source = what + ": " + name
	ev.GapAllMissing("not in the artefact given (" + res.Kind + ")")
	if o.Cluster != "" {
		ev.Target.Cluster, ev.Target.ClusterSource = o.Cluster, "flag"
	}
	var problems []report.InputProblem
	if res.Snapshot != nil {
		for _, p := range res.Snapshot.Problems {
			problems = append(problems, report.InputProblem{Path: p.Path, Problem: p.Err})
		}
	}
	return o.renderOne(reg, selected, ev, problems)
}

func (o *AnalyzeOptions) renderOne(reg *checks.Registry, selected []checks.Check, ev *evidence.Evidence, problems []report.InputProblem) error {
	w := &WhyNotJoiningOptions{GlobalOptions: o.GlobalOptions}
	return w.render(reg, selected, ev, problems, nil)
}

// withArticle puts "a" or "an" before a noun phrase.
func withArticle(s string) string {
	if s != "" && strings.ContainsRune("AEIOU", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}
