package cli

import (
	"github.com/eksdoctor/eksdoctor/checks"

	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

// GlobalOptions are flags shared by every command.
type GlobalOptions struct {
	Output   string
	NoColor  bool
	ExitZero bool
	Checks   []string
	All      bool
	stdout   io.Writer
	stderr   io.Writer
}

// NewRootCmd builds the eksdoctor command tree writing to stdout and stderr.
func NewRootCmd(stdout, stderr io.Writer) *cobra.Command {
	g := &GlobalOptions{stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:   "eksdoctor",
		Short: "Explain why an EC2 node does not join an Amazon EKS cluster",
		Long: `eksdoctor answers one question: why does this EC2 node not join my Amazon EKS cluster?

Collectors gather evidence — live from the AWS account (read-only Describe/Get/List
calls), from an offline snapshot of AWS CLI and kubectl outputs (docs/snapshot-format.md),
or from a node log bundle or one pasted artefact ('eksdoctor analyze') — and a registry of
independent checks judges it. Every finding has a stable ID, a status, the evidence it saw,
why it blocks the join and what to do. eksdoctor never changes anything.

Every report opens with a verdict: joined, cause-found, no-cause-found or inconclusive.
Exit codes:
  0  no cause found (or joined and Ready)
  1  a cause found (or joined but NotReady with a cause)
  2  usage error
  3  inconclusive (checks of the join path could not run, or joined but NotReady with no
     cause found), or nothing in the input recognised
  4  the input could not be read, or only in part (--max-bytes): also when nothing in
     the part read is recognised
  5  partial: nothing failed, but evidence was denied or a call for it failed
  6  the output could not be written (a full disk, a closed pipe)
  7  (scan) a publication that was asked for failed
--exit-zero exits 0 after a report was written, unless a publication failed.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	pf := root.PersistentFlags()
	pf.BoolVar(&g.NoColor, "no-color", false, "disable colours (also off when NO_COLOR is set, TERM=dumb or stdout is not a terminal)")
	root.AddCommand(NewCmdWhyNotJoining(g), NewCmdAnalyze(g), NewCmdScan(g), NewCmdCollect(g), NewCmdIAMPolicy(g), NewCmdChecks(g), NewCmdExplain(g), NewCmdVersion(g), newCmdGenDocs(g))
	// flags only on the commands they belong to: the reporting commands, and --checks on `checks list`
	for _, c := range root.Commands() {
		switch c.Name() {
		case "why-not-joining", "analyze", "scan":
			f := c.Flags()
			f.BoolVar(&g.ExitZero, "exit-zero", false, "exit 0 whenever a report was written (for jobs that only report)")
			f.StringSliceVar(&g.Checks, "checks", nil, "run only these checks: IDs or area.* patterns, comma-separated")
			f.BoolVar(&g.All, "all", false, "table output: also show passing and skipped findings, and each missing evidence kind")
		case "checks":
			for _, sub := range c.Commands() {
				sub.Flags().StringSliceVar(&g.Checks, "checks", nil, "list only these checks: IDs or area.* patterns, comma-separated")
			}
		}
	}
	root.Version = ResolvedVersion()
	root.SetVersionTemplate(versionLine() + "\n")
	strictCompletion(root)
	registerCompletions(root)
	return root
}

// completionShells are the shells cobra's completion command supports.
var completionShells = []string{"bash", "zsh", "fish", "powershell"}

// strictCompletion makes `completion` without a shell, or with one cobra does not support
// (tcsh), a usage error instead of printing help and exiting 0.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("completion needs a shell: %s", strings.Join(completionShells, ", "))
			}
			return usageErr("no completion for shell %q (supported: %s)", args[0], strings.Join(completionShells, ", "))
		}
	}
}

// addOutputFlag adds -o/--output to a command that writes a report.
func (g *GlobalOptions) addOutputFlag(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&g.Output, "output", "o", "table", "output format: table, json, markdown or junit")
}

// useColor decides colour for the table output: off with --no-color, NO_COLOR, TERM=dumb, or
// when stdout is not a terminal.
func (g *GlobalOptions) useColor() bool {
	if g.NoColor || os.Getenv("NO_COLOR") != "" || dumbTerminal() {
		return false
	}
	f, ok := g.stdout.(*os.File)
	if ow, isOut := g.stdout.(*outputWriter); isOut {
		f, ok = ow.file()
	}
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

func (g *GlobalOptions) validateOutput() error {
	switch g.Output {
	case "table", "json", "markdown", "md", "junit":
		return nil
	}
	return usageErr("unknown --output %q (want table, json, markdown or junit)", g.Output)
}

// prepare validates -o and selects the checks of reg (checks.Default() when nil) named by
// --checks; errors are usage errors.
func (g *GlobalOptions) prepare(reg *checks.Registry) (*checks.Registry, []checks.Check, error) {
	if err := g.validateOutput(); err != nil {
		return nil, nil, err
	}
	if reg == nil {
		reg = checks.Default()
	}
	selected, err := reg.Select(g.Checks)
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	return reg, selected, nil
}
