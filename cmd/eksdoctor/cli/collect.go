package cli

import (
	"archive/tar"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/spf13/cobra"
)

// CollectOptions are the inputs of collect.
type CollectOptions struct {
	*GlobalOptions
	Live      LiveOptions
	Cluster   string
	Instances []string
	Out       string
	NoRedact  bool
}

// NewCmdCollect builds `collect`.
func NewCmdCollect(g *GlobalOptions) *cobra.Command {
	o := &CollectOptions{GlobalOptions: g}
	cmd := &cobra.Command{
		Use:   "collect --cluster NAME [--instance ID ...] -o SNAPSHOT.tar.gz",
		Short: "Capture the live evidence of instances into a snapshot for later or offline analysis",
		Long: `Capture what why-not-joining reads from AWS into a snapshot: the layout of
docs/snapshot-format.md, each file shaped as the AWS CLI prints it. Analyse it anywhere with
'eksdoctor why-not-joining ID --snapshot FILE'. Without --instance, the running and pending
instances tagged kubernetes.io/cluster/NAME are collected, with their user data read from
their launch templates (a number of calls independent of the number of instances).

Secrets that may appear in user data (AWS access keys, secret keys, passwords, tokens) are
replaced by REDACTED unless --no-redact is given; CA bundles and bootstrap flags are kept.`,
		Example: `  eksdoctor collect --cluster prod --instance i-0abc1234def567890 -o snap.tar.gz`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.Run()
		},
	}
	cmd.Flags().StringVar(&o.Cluster, "cluster", "", "cluster name (required)")
	cmd.Flags().StringSliceVar(&o.Instances, "instance", nil, "instance ID to collect (repeatable; default: the cluster's tagged instances)")
	cmd.Flags().StringVarP(&o.Out, "output", "o", "", "snapshot file to write (.tar.gz; required)")
	cmd.Flags().BoolVar(&o.NoRedact, "no-redact", false, "keep secrets found in user data")
	o.Live.addFlags(cmd)
	return cmd
}

// Run collects and writes the snapshot archive.
func (o *CollectOptions) Run() error {
	if o.Cluster == "" || o.Out == "" {
		return usageErr("collect needs --cluster and -o FILE.tar.gz")
	}
	res, _, err := o.Live.collect(o.GlobalOptions, o.Instances, o.Cluster, nil, collectMode{batch: len(o.Instances) == 0, scan: len(o.Instances) == 0})
	if err != nil {
		return err
	}
	if !o.NoRedact {
		redactFiles(res.Files)
	}
	f, err := os.Create(o.Out)
	if err != nil {
		return outputErr("cannot write %s: %v", o.Out, err)
	}
	if err := writeSnapshot(f, res.Files, time.Now()); err != nil {
		f.Close()
		return outputErr("writing %s: %v", o.Out, err)
	}
	if err := f.Close(); err != nil {
		return outputErr("writing %s: %v", o.Out, err)
	}
	fmt.Fprintf(o.stderr, "wrote %s: %d files from %d AWS requests\n", o.Out, len(res.Files), res.Requests())
	return nil
}

// writeSnapshot writes files as a gzip-compressed tar below one folder "snapshot/", in path order.
func writeSnapshot(w io.Writer, files map[string][]byte, mtime time.Time) error {
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

var (
	accessKeyRe = regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`)
	secretRe    = regexp.MustCompile(`(?i)((?:aws_secret_access_key|aws_session_token|secret_?key|secret|password|passwd|api_?key|token)["']?\s*[=:]\s*["']?)([^\s"',;]+)`)
)

// redactText replaces secrets in user data text.
func redactText(s string) string {
	s = accessKeyRe.ReplaceAllString(s, "REDACTED")
	return secretRe.ReplaceAllString(s, "${1}REDACTED")
}

// redactUserData decodes base64 (and gzip), redacts, and re-encodes.
func redactUserData(b64 string) string {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return b64
	}
	gz := len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b
	if gz {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return b64
		}
		if raw, err = io.ReadAll(io.LimitReader(zr, 1<<20)); err != nil {
			return b64
		}
	}
	out := []byte(redactText(string(raw)))
	if gz {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(out)
		zw.Close()
		out = buf.Bytes()
	}
	return base64.StdEncoding.EncodeToString(out)
}

// redactFiles redacts the user data of instance attributes and launch template versions.
func redactFiles(files map[string][]byte) {
	for p, b := range files {
		switch {
		case strings.HasPrefix(p, "ec2/instance-user-data/"):
			var m map[string]any
			if json.Unmarshal(b, &m) != nil {
				continue
			}
			if ud, ok := m["UserData"].(map[string]any); ok {
				if v, ok := ud["Value"].(string); ok {
					ud["Value"] = redactUserData(v)
				}
			}
			files[p] = reindent(m, b)
		case strings.HasPrefix(p, "ec2/describe-launch-template-versions/"):
			var m map[string]any
			if json.Unmarshal(b, &m) != nil {
				continue
			}
			vs, _ := m["LaunchTemplateVersions"].([]any)
			for _, v := range vs {
				vm, _ := v.(map[string]any)
				if d, ok := vm["LaunchTemplateData"].(map[string]any); ok {
					if u, ok := d["UserData"].(string); ok {
						d["UserData"] = redactUserData(u)
					}
				}
			}
			files[p] = reindent(m, b)
		}
	}
}

func reindent(m map[string]any, orig []byte) []byte {
	out, err := json.MarshalIndent(m, "", "    ")
	if err != nil {
		return orig
	}
	return append(out, '\n')
}
