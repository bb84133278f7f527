package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
	"github.com/spf13/cobra"
)

// WhyNotJoiningOptions are the inputs of why-not-joining.
type WhyNotJoiningOptions struct {
	*GlobalOptions
	InstanceID string
	Snapshot   string
	Cluster    string
	// Registry defaults to checks.Default().
	Registry *checks.Registry
}

// NewCmdWhyNotJoining builds the why-not-joining command.
func NewCmdWhyNotJoining(g *GlobalOptions) *cobra.Command {
	o := &WhyNotJoiningOptions{GlobalOptions: g}
	cmd := &cobra.Command{
		Use:   "why-not-joining INSTANCE_ID --snapshot PATH [--cluster NAME]",
		Short: "Diagnose why one EC2 instance does not join its EKS cluster",
		Long: `Diagnose why one EC2 instance does not join its EKS cluster.

The evidence comes from --snapshot: a directory or .tar.gz of AWS CLI and kubectl
outputs (docs/snapshot-format.md; docs/collect-snapshot.sh makes one with only aws and
kubectl). The cluster is taken from --cluster, else from the instance's tags
(eks:cluster-name, aws:eks:cluster-name, kubernetes.io/cluster/NAME), else from its user
data. Live collection from an AWS account is not part of this build yet.

The report names the most likely cause first, then every failing check with the evidence
it saw, why it blocks the join and the fix.`,
		Example: `  eksdoctor why-not-joining i-0abc1234def567890 --snapshot ./snap
  eksdoctor why-not-joining i-0abc1234def567890 --snapshot snap.tar.gz -o json
  eksdoctor why-not-joining i-0abc1234def567890 --snapshot ./snap --checks 'auth.*,bootstrap.*'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("why-not-joining takes exactly one INSTANCE_ID, got %d arguments", len(args))
			}
			if !strings.HasPrefix(args[0], "i-") {
				return usageErr("%q is not an EC2 instance ID (i-...)", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.InstanceID = args[0]
			return o.Run()
		},
	}
	cmd.Flags().StringVar(&o.Snapshot, "snapshot", "", "snapshot directory or .tar.gz to analyse (required in this build)")
	cmd.Flags().StringVar(&o.Cluster, "cluster", "", "cluster name (default: inferred from instance tags or user data)")
	return cmd
}

// Run collects evidence, runs the checks and writes the report.
func (o *WhyNotJoiningOptions) Run() error {
	if err := o.validateOutput(); err != nil {
		return err
	}
	if o.Snapshot == "" {
		return usageErr("--snapshot is required: live AWS collection is not available in this build (make a snapshot with docs/collect-snapshot.sh)")
	}
	reg := o.Registry
	if reg == nil {
		reg = checks.Default()
	}
	selected, err := reg.Select(o.Checks)
	if err != nil {
		return usageErr("%v", err)
	}
	snap, err := snapshot.Open(o.Snapshot, snapshot.DefaultLimits)
	if err != nil {
		return inputErr("cannot read snapshot %s: %v", o.Snapshot, err)
	}
	ev, err := snap.Evidence(o.InstanceID, o.Cluster)
	if err != nil {
		if errors.Is(err, snapshot.ErrUnknownInstance) {
			return inputErr("%v", err)
		}
		return inputErr("snapshot %s: %v", o.Snapshot, err)
	}
	var problems []report.InputProblem
	for _, p := range snap.Problems {
		problems = append(problems, report.InputProblem{Path: p.Path, Problem: p.Err})
	}
	return o.render(reg, selected, ev, problems)
}

func (o *WhyNotJoiningOptions) render(reg *checks.Registry, selected []checks.Check, ev *evidence.Evidence, problems []report.InputProblem) error {
	findings := checks.Run(selected, ev)
	metas := reg.Metas()
	d := checks.Diagnose(findings, metas)
	r := report.New(ev, findings, d, len(selected), problems)
	var err error
	switch o.Output {
	case "json":
		err = report.JSON(o.stdout, r)
	case "markdown", "md":
		err = report.Markdown(o.stdout, r, metas)
	default:
		err = report.Text(o.stdout, r, metas, report.TextOptions{Color: o.useColor(), All: o.All})
	}
	if err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return o.exit(r)
}

// exit maps a written report to the exit code.
func (o *GlobalOptions) exit(r *report.Report) error {
	code := ExitOK
	switch {
	case r.Summary.Fail > 0:
		code = ExitFindings
	case r.Summary.Checks > 0 && r.Summary.Skipped == r.Summary.Checks:
		code = ExitNothingChecked
	}
	if o.ExitZero || code == ExitOK {
		return nil
	}
	return codeOnly(code)
}
