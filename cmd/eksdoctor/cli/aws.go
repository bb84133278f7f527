package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/awsapi"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

// AWSOptions select the account, credentials and limits of live collection.
type AWSOptions struct {
	Profile     string
	Region      string
	RoleARN     string
	Timeout     time.Duration
	CallTimeout time.Duration
}

func (a *AWSOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&a.Profile, "profile", "", "AWS shared config profile (default: the standard credential chain)")
	f.StringVar(&a.Region, "region", "", "AWS region (default: AWS_REGION or the profile's region)")
	f.StringVar(&a.RoleARN, "role-arn", "", "assume this (read-only) IAM role for the calls")
	f.DurationVar(&a.Timeout, "timeout", 2*time.Minute, "overall time limit for collecting from AWS")
	f.DurationVar(&a.CallTimeout, "call-timeout", 20*time.Second, "time limit for one AWS API call, retries included")
}

// collect gathers live evidence for instanceIDs and returns it as an in-memory snapshot, with
// the IAM actions that were denied.
func (a *AWSOptions) collect(g *GlobalOptions, instanceIDs []string, cluster string, needs []evidence.Kind, batch bool) (*snapshot.Snapshot, []string, error) {
	res, region, err := a.run(g, instanceIDs, cluster, needs, batch)
	if err != nil {
		return nil, nil, err
	}
	s := snapshot.FromFiles("aws:"+region, res.Files)
	s.Source = res.Source
	return s, res.Denied(), nil
}

func (a *AWSOptions) run(g *GlobalOptions, instanceIDs []string, cluster string, needs []evidence.Kind, batch bool) (*awsapi.Result, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), a.Timeout)
	defer cancel()
	cfg, err := awsapi.LoadConfig(ctx, awsapi.ConfigOptions{Profile: a.Profile, Region: a.Region, RoleARN: a.RoleARN, AppID: "eksdoctor/" + Version})
	if err != nil {
		return nil, "", inputErr("%v", err)
	}
	opts := awsapi.Options{Region: cfg.Region, Cluster: cluster, Needs: needs, CallTimeout: a.CallTimeout, Batch: batch}
	if f, ok := g.stderr.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		opts.Progress = g.stderr
		fmt.Fprintf(g.stderr, "collecting from AWS (%s)…\n", cfg.Region)
	}
	res, err := awsapi.Collect(ctx, awsapi.NewClients(cfg), instanceIDs, opts)
	switch {
	case errors.Is(err, awsapi.ErrInstanceNotFound):
		return nil, "", inputErr("%v in %s", err, cfg.Region)
	case err != nil:
		return nil, "", inputErr("%v", err)
	}
	return res, cfg.Region, nil
}

// NewCmdIAMPolicy builds `iam-policy`.
func NewCmdIAMPolicy(g *GlobalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "iam-policy",
		Short: "Print the minimal read-only IAM policy eksdoctor needs (also in docs/iam-policy.json)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := g.stdout.Write(awsapi.Policy())
			return err
		},
	}
}
