package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/eksdoctor/eksdoctor/collectors/awsapi"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/kube"
	"github.com/eksdoctor/eksdoctor/collectors/redact"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// AWSOptions select the account, credentials and limits of live collection.
type AWSOptions struct {
	Profile     string
	Region      string
	RoleARN     string
	Timeout     time.Duration
	CallTimeout time.Duration
	// EndpointURL overrides the endpoint of every AWS service (like the AWS CLI's
	// --endpoint-url; AWS_ENDPOINT_URL does the same from the environment).
	EndpointURL string
	// Debug prints each AWS and Kubernetes call with its duration and outcome on stderr.
	Debug bool
	// Lookback is how far before the earliest launch audit events and CloudTrail's
	// access-entry changes are read (--lookback, default 24h).
	Lookback time.Duration
}

func (a *AWSOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&a.Profile, "profile", "", "AWS shared config profile (default: the standard credential chain)")
	f.StringVar(&a.Region, "region", "", "AWS region (default: AWS_REGION or the profile's region)")
	f.StringVar(&a.RoleARN, "role-arn", "", "assume this (read-only) IAM role for the calls")
	f.DurationVar(&a.Timeout, "timeout", 2*time.Minute, "overall time limit for collecting from AWS")
	f.DurationVar(&a.CallTimeout, "call-timeout", 20*time.Second, "time limit for one AWS API call, retries included")
	f.DurationVar(&a.Lookback, "lookback", awsapi.DefaultLookback, "how far before the earliest launch to read control-plane audit events and CloudTrail access-entry changes")
	f.StringVar(&a.EndpointURL, "endpoint-url", "", "send every AWS call to this endpoint (as the AWS CLI's --endpoint-url; also AWS_ENDPOINT_URL)")
	f.BoolVarP(&a.Debug, "debug", "v", false, "print each AWS and Kubernetes call, its duration and outcome, on stderr (never credentials or bodies)")
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if err := a.validate(); err != nil {
			return err
		}
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
}

// validate rejects durations that cannot bound anything (zero or negative) as usage errors.
func (a *AWSOptions) validate() error {
	if a.Timeout <= 0 {
		return usageErr("--timeout %v: the overall time limit must be positive", a.Timeout)
	}
	if a.CallTimeout <= 0 {
		return usageErr("--call-timeout %v: the time limit of one call must be positive", a.CallTimeout)
	}
	if a.Lookback <= 0 || a.Lookback > 90*24*time.Hour {
		return usageErr("--lookback %v: give a positive duration of at most 2160h (CloudTrail's event history keeps 90 days)", a.Lookback)
	}
	return nil
}

// KubeOptions select how the cluster's API server is reached in live mode.
type KubeOptions struct {
	Kubeconfig, Context string
	NoKube              bool
	// rest is the configuration used by the last collection (reused to publish reports).
	rest *rest.Config
	// debug prints each Kubernetes call (--debug).
	debug bool
}

func (k *KubeOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&k.Kubeconfig, "kubeconfig", "", "kubeconfig file (default: KUBECONFIG, ~/.kube/config, the in-cluster account, else an EKS token from the AWS identity)")
	f.StringVar(&k.Context, "context", "", "kubeconfig context")
	f.BoolVar(&k.NoKube, "no-kube", false, "do not read the cluster's Kubernetes API (cluster-side checks are skipped)")
}

// LiveOptions gather evidence from the AWS account and the cluster's API server.
type LiveOptions struct {
	AWS  AWSOptions
	Kube KubeOptions
}

func (l *LiveOptions) addFlags(cmd *cobra.Command) {
	l.AWS.addFlags(cmd)
	l.Kube.addFlags(cmd)
}

// collect gathers live evidence for instanceIDs into the snapshot layout (AWS, then the
// cluster's API server) and returns the files, the region and the denied permissions.
func (l *LiveOptions) collect(g *GlobalOptions, instanceIDs []string, cluster string, needs []evidence.Kind, mode collectMode) (*awsapi.Result, string, error) {
	res, cfg, err := l.AWS.run(g, instanceIDs, cluster, needs, mode)
	if err != nil {
		return nil, "", err
	}
	if !l.Kube.NoKube {
		l.Kube.debug = l.AWS.Debug
		l.Kube.collectInto(g, res, cfg, needs, mode.scan)
	}
	return res, cfg.Region, nil
}

// snapshot is collect returned as an in-memory snapshot.
func (l *LiveOptions) snapshot(g *GlobalOptions, instanceIDs []string, cluster string, needs []evidence.Kind, mode collectMode) (*snapshot.Snapshot, []string, error) {
	res, region, err := l.collect(g, instanceIDs, cluster, needs, mode)
	if err != nil {
		return nil, nil, err
	}
	s := snapshot.FromDocuments("aws:"+region, res.Files, res.Errors)
	s.Source = res.Source
	s.Problems = append(s.Problems, failedCalls(res.Errors)...)
	return s, res.Denied(), nil
}

// failedCalls lists, as input problems sorted by path, the AWS and Kubernetes calls of errs (the
// collection's typed errors by snapshot path) that failed for good without being a denial or an
// answer that the object does not exist: throttling that never cleared (a 429 of the API server),
// a server error (a 503 of an aggregated API such as Karpenter's), a timeout, a connection cut, a
// list whose continue token expired (410 Gone), an answer that was not the operation's. A denial
// is already named (deniedPermissions), a not-found or a custom resource not installed is a
// fact, and a cluster that could not be reached at all (NoAccess: no kubeconfig, endpoint or
// credentials) is said once, by the Nodes' gap; these were in no list, and evidence with a
// fallback (the launch template's user data for the instance's) was replaced without a word.
// Each problem ends with failedCallMark (isFailedCall).
func failedCalls(errs map[string]*snapshot.SourceError) []snapshot.FileProblem {
	var out []snapshot.FileProblem
	var unreached []string
	for p, e := range errs {
		if e == nil || e.NotFound || e.Permission != "" || e.Code == "Forbidden" || e.Code == "NoAccess" || e.Code == "NoResourceType" {
			continue
		}
		if e.Code == "Unreachable" {
			// the API server answered no read (kube.Collect): said once, for all of them
			unreached = append(unreached, p)
			continue
		}
		op := e.Operation
		if svc := snapshot.OperationService[op]; svc != "" {
			op = svc + ":" + op
		}
		msg := strings.TrimPrefix(e.Message, "kubectl: ")
		if strings.HasPrefix(p, "kube/") {
			op = "kubernetes " + kube.Operation(p)
			msg = strings.TrimPrefix(msg, e.Code+": ")
		}
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		out = append(out, snapshot.FileProblem{Path: p, Err: fmt.Sprintf("%s failed (%s: %s)%s", op, e.Code, msg, failedCallMark)})
	}
	if len(unreached) > 0 {
		sort.Strings(unreached)
		out = append(out, snapshot.FileProblem{Path: "kube/", Err: fmt.Sprintf("%s; none of the %d cluster reads (%s) ran%s",
			strings.TrimPrefix(errs[unreached[0]].Message, "kubernetes: "), len(unreached), kubeReadNames(unreached), failedCallMark)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// kubeReadNames names the objects of kube/ snapshot paths in the order given ("amazon-vpc-cni,
// aws-auth, …"), at most six and a count of the rest.
func kubeReadNames(paths []string) string {
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(p, "kube/"), ".json"))
	}
	if len(names) > 6 {
		return strings.Join(names[:6], ", ") + fmt.Sprintf(" and %d more", len(names)-6)
	}
	return strings.Join(names, ", ")
}

// failedCallMark ends the input problem of a call that failed for good (failedCalls).
const failedCallMark = "; the evidence it gives was not read"

// failedCallProblems returns the input problems of ps that name a call that failed for good
// (failedCalls): evidence that was asked for and not read, as a denial's is, so a report with
// no cause found exits ExitPartial, never 0.
func failedCallProblems(ps []report.InputProblem) []report.InputProblem {
	var out []report.InputProblem
	for _, p := range ps {
		if strings.HasSuffix(p.Problem, failedCallMark) {
			out = append(out, p)
		}
	}
	return out
}

// collectInto reads the cluster side with client-go and adds its kube/ files to res. Without
// access, it writes the reason into the kube/ files so the dependent checks say why they skip.
func (k *KubeOptions) collectInto(g *GlobalOptions, res *awsapi.Result, cfg aws.Config, needs []evidence.Kind, scan bool) {
	var endpoint, ca string
	if c := res.Described; c != nil {
		endpoint = aws.ToString(c.Endpoint)
		if c.CertificateAuthority != nil {
			ca = aws.ToString(c.CertificateAuthority.Data)
		}
	}
	rc, how, err := kube.RESTConfig(kube.ClientOptions{Kubeconfig: k.Kubeconfig, Context: k.Context, Endpoint: endpoint, CAData: ca, Cluster: res.Cluster, AWS: &cfg})
	var cs kubernetes.Interface
	if err == nil && k.debug {
		rc.Wrap(debugTransport(g.stderr))
	}
	if err == nil {
		cs, err = kubernetes.NewForConfig(rc)
	}
	k.rest = rc
	if err != nil {
		fmt.Fprintf(g.stderr, "eksdoctor: %s; cluster-side checks are skipped\n", report.EscapeLine(redact.String(err.Error())))
		for _, p := range kube.Paths {
			res.Files[p] = []byte(fmt.Sprintf("Error from server (NoAccess): %v\n", err))
			res.Errors[p] = snapshot.KubeError("NoAccess", err.Error())
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dyn, _ := dynamic.NewForConfig(rc)
	kr := kube.Collect(ctx, cs, kube.Options{Needs: needs, Dynamic: dyn, Scan: scan})
	for p, b := range kr.Files {
		res.Files[p] = b
		res.SetSource(p, "kubernetes ("+how+")")
	}
	for p, e := range kr.Errors {
		res.Errors[p] = e
	}
}

// collectMode selects how many instances are collected and whether cluster-wide evidence is.
type collectMode struct{ batch, scan bool }

func (a *AWSOptions) run(g *GlobalOptions, instanceIDs []string, cluster string, needs []evidence.Kind, mode collectMode) (*awsapi.Result, aws.Config, error) {
	ctx, cancel := context.WithTimeout(context.Background(), a.Timeout)
	defer cancel()
	clock := &awsapi.ServerClock{}
	cfg, err := awsapi.LoadConfig(ctx, awsapi.ConfigOptions{Profile: a.Profile, Region: a.Region, RoleARN: a.RoleARN, AppID: "eksdoctor/" + ResolvedVersion(), Clock: clock})
	if err != nil {
		return nil, cfg, inputErr("%v", err)
	}
	if a.EndpointURL != "" {
		cfg.BaseEndpoint = aws.String(a.EndpointURL)
	}
	opts := awsapi.Options{Region: cfg.Region, Cluster: cluster, Needs: needs, CallTimeout: a.CallTimeout, Batch: mode.batch, Scan: mode.scan, Clock: clock, Lookback: a.Lookback}
	if f, ok := g.stderr.(*os.File); a.Debug || ok && isatty.IsTerminal(f.Fd()) {
		opts.Progress = g.stderr
		fmt.Fprintf(g.stderr, "collecting from AWS (%s)…\n", report.EscapeLine(cfg.Region))
	}
	res, err := awsapi.Collect(ctx, awsapi.NewClients(cfg), instanceIDs, opts)
	switch {
	case errors.Is(err, awsapi.ErrInstanceNotFound):
		return nil, cfg, inputErr("%v in %s", err, cfg.Region)
	case err != nil:
		return nil, cfg, inputErr("%v", err)
	}
	return res, cfg, nil
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

// debugTransport wraps a Kubernetes client's transport to print each call's method, path,
// duration and status (or error) on w; headers and bodies are never printed.
func debugTransport(w io.Writer) func(http.RoundTripper) http.RoundTripper {
	var mu sync.Mutex
	return func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			start := time.Now()
			resp, err := rt.RoundTrip(req)
			outcome := ""
			if err != nil {
				outcome = err.Error()
			} else {
				outcome = resp.Status
			}
			mu.Lock()
			fmt.Fprintf(w, "kubernetes %s %s %s (%s)\n", req.Method, req.URL.Path, outcome, time.Since(start).Round(time.Millisecond))
			mu.Unlock()
			return resp, err
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
