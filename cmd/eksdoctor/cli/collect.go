package cli

import (
	"archive/tar"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/spf13/cobra"

	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/eksdoctor/eksdoctor/collectors/redact"
)

// CollectOptions are the inputs of collect.
type CollectOptions struct {
	*GlobalOptions
	Live      LiveOptions
	Cluster   string
	Instances []string
	// Out is the snapshot archive to write (--archive).
	Out      string
	NoRedact bool
	// misplacedOutput holds a value given to -o, refused with a message naming --archive.
	misplacedOutput string
}

// NewCmdCollect builds `collect`.
func NewCmdCollect(g *GlobalOptions) *cobra.Command {
	o := &CollectOptions{GlobalOptions: g}
	cmd := &cobra.Command{
		Use:   "collect --cluster NAME [--instance ID ...] --archive SNAPSHOT.tar.gz",
		Short: "Capture the live evidence of instances into a snapshot for later or offline analysis",
		Long: `Capture what why-not-joining reads from AWS into a snapshot: the layout of
docs/snapshot-format.md, each file shaped as the AWS CLI prints it. Analyse it anywhere with
'eksdoctor why-not-joining ID --snapshot FILE'. Without --instance, the running and pending
instances tagged kubernetes.io/cluster/NAME are collected, with their user data read from
their launch templates (a number of calls independent of the number of instances).

Secrets (AWS access keys, secret keys, session tokens, passwords, tokens, the password of
user:password@ URLs, presigned URL signatures, kubeconfig client keys, private keys) are
replaced by REDACTED in every file — user data decoded
from base64, gzip and MIME parts, the console output (set -x echoes), every other string —
unless --no-redact is given; CA bundles and bootstrap flags are kept.`,
		Example: `  eksdoctor collect --cluster prod --instance i-0abc1234def567890 --archive snap.tar.gz`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.Run()
		},
	}
	cmd.Flags().StringVar(&o.Cluster, "cluster", "", "cluster name (required)")
	cmd.Flags().StringSliceVar(&o.Instances, "instance", nil, "instance ID to collect (repeatable; default: the cluster's tagged instances)")
	cmd.Flags().StringVarP(&o.Out, "archive", "f", "", "snapshot archive to write (.tar.gz; required)")
	// -o is the output format of the reporting commands; here it only says where the path goes
	cmd.Flags().StringVarP(&o.misplacedOutput, "output", "o", "", "")
	_ = cmd.Flags().MarkHidden("output")
	cmd.Flags().BoolVar(&o.NoRedact, "no-redact", false, "keep secrets found in user data, console output and other files")
	o.Live.addFlags(cmd)
	return cmd
}

// Run collects and writes the snapshot archive.
func (o *CollectOptions) Run() error {
	if o.misplacedOutput != "" {
		return usageErr("collect writes an archive: give its path with --archive (-f) %s; -o is the output format of the reporting commands", o.misplacedOutput)
	}
	if o.Cluster == "" || o.Out == "" {
		return usageErr("collect needs --cluster and --archive FILE.tar.gz")
	}
	// the target is checked before any AWS call: a symlink (followed, it would overwrite the file
	// it points to), a directory, a device or a FIFO is refused
	if err := checkRegularTarget(o.Out, "give the path of a new or regular .tar.gz file"); err != nil {
		return outputErr("--archive: %v", err)
	}
	res, _, err := o.Live.collect(o.GlobalOptions, o.Instances, o.Cluster, nil, collectMode{batch: len(o.Instances) == 0, scan: len(o.Instances) == 0})
	if err != nil {
		return err
	}
	// written through an exclusive temporary file renamed into place, as --metrics-file: a reader
	// never sees half an archive, and a symlink planted meanwhile is replaced, never followed
	if err := writeFileReplacing(o.Out, func(w io.Writer) error { return writeSnapshot(w, res.Files, time.Now(), !o.NoRedact) }); err != nil {
		return outputErr("writing %s: %v", o.Out, err)
	}
	fmt.Fprintf(o.stderr, "wrote %s: %d files from %d AWS requests\n", report.EscapeLine(o.Out), len(res.Files), res.Requests())
	return nil
}

// writeSnapshot writes files as a gzip-compressed tar below one folder "snapshot/", in path
// order; with redactSecrets (the default of collect) every file goes through collectors/redact
// first: user data (decoded from base64, gzip and MIME parts), console output, every string.
func writeSnapshot(w io.Writer, files map[string][]byte, mtime time.Time, redactSecrets bool) error {
	if redactSecrets {
		redacted := make(map[string][]byte, len(files))
		for p, b := range files {
			redacted[p] = b
		}
		redact.Files(redacted)
		files = redacted
	}
	zw := gzip.NewWriter(w)
	tw := tar.NewWriter(zw)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b := files[p]
		if err := tw.WriteHeader(&tar.Header{Name: "snapshot/" + p, Mode: 0o644, Size: int64(len(b)), ModTime: mtime, Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		if _, err := tw.Write(b); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}
