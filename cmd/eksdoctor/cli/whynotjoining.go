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
	AWS        AWSOptions
	// Registry defaults to checks.Default().
	Registry *checks.Registry
}

// NewCmdWhyNotJoining builds the why-not-joining command.
func NewCmdWhyNotJoining(g *GlobalOptions) *cobra.Command {
	o := &WhyNotJoiningOptions{GlobalOptions: g}
	cmd := &cobra.Command{
		Use:   "why-not-joining INSTANCE_ID [--cluster NAME] [--region R] [--snapshot PATH]",
		Short: "Diagnose why one EC2 instance does not join its EKS cluster",
		Long: `Diagnose why one EC2 instance does not join its EKS cluster.

Without --snapshot, the evidence is read live from the AWS account with the standard
credential chain (--profile, --region, environment, SSO, IRSA / Pod Identity; --role-arn
to assume a read-only role). Only Describe/Get/List calls are made (see 'eksdoctor
iam-policy'); a denied call skips the checks that need it and the run exits 5 (partial)
when nothing else failed. With --snapshot the evidence comes from a directory or .tar.gz of
AWS CLI and kubectl outputs (docs/snapshot-format.md; 'eksdoctor collect' or
docs/collect-snapshot.sh make one). Kubernetes-side evidence (aws-auth, CSRs, nodes) is read
from snapshots only in this build.

The cluster is taken from --cluster, else from the instance's tags (eks:cluster-name,
aws:eks:cluster-name, kubernetes.io/cluster/NAME), else from its user data.

The report names the most likely cause first, then every failing check with the evidence
it saw, why it blocks the join and the fix.`,
		Example: `  eksdoctor why-not-joining i-0abc1234def567890 --cluster prod --region eu-west-1
  eksdoctor why-not-joining i-0abc1234def567890 --profile prod-readonly
  eksdoctor why-not-joining i-0abc1234def567890 --snapshot ./snap
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
	o.addOutputFlag(cmd)
	cmd.Flags().StringVar(&o.Snapshot, "snapshot", "", "analyse this snapshot directory or .tar.gz instead of the live account")
	cmd.Flags().StringVar(&o.Cluster, "cluster", "", "cluster name (default: inferred from instance tags or user data)")
	o.AWS.addFlags(cmd)
	return cmd
}

// Run collects evidence, runs the checks and writes the report.
func (o *WhyNotJoiningOptions) Run() error {
	if err := o.validateOutput(); err != nil {
		return err
	}
	reg := o.Registry
	if reg == nil {
		reg = checks.Default()
	}
	selected, err := reg.Select(o.Checks)
	if err != nil {
		return usageErr("%v", err)
	}
	var snap *snapshot.Snapshot
	var denied []string
	if o.Snapshot == "" {
		snap, denied, err = o.AWS.collect(o.GlobalOptions, []string{o.InstanceID}, o.Cluster, checks.Needs(selected))
		if err != nil {
			return err
		}
	} else if snap, err = snapshot.Open(o.Snapshot, snapshot.DefaultLimits); err != nil {
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
	return o.render(reg, selected, ev, problems, denied)
}

func (o *WhyNotJoiningOptions) render(reg *checks.Registry, selected []checks.Check, ev *evidence.Evidence, problems []report.InputProblem, denied []string) error {
	findings := checks.Run(selected, ev)
	metas := reg.Metas()
	d := checks.Diagnose(findings, metas)
	r := report.New(ev, findings, d, len(selected), problems)
	r.DeniedPermissions = denied
	for _, g := range ev.PermissionGaps() {
		r.DeniedPermissions = appendMissing(r.DeniedPermissions, g.Permission)
	}
	if r.DeniedPermissions == nil {
		r.DeniedPermissions = []string{}
	}
	partial := len(r.DeniedPermissions) > 0
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
	return o.exit(r, partial)
}

// exit maps a written report to the exit code; partial is true when some evidence was denied.
func (o *GlobalOptions) exit(r *report.Report, partial bool) error {
	code := ExitOK
	switch {
	case r.Summary.Fail > 0:
		code = ExitFindings
	case r.Summary.Checks > 0 && r.Summary.Skipped == r.Summary.Checks:
		code = ExitNothingChecked
	case partial:
		code = ExitPartial
	}
	if o.ExitZero || code == ExitOK {
		return nil
	}
	return codeOnly(code)
}

func appendMissing(l []string, s string) []string {
	for _, x := range l {
		if x == s {
			return l
		}
	}
	return append(l, s)
}
