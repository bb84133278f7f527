package cli

import (
	"errors"

	"bytes"
	"context"
	"fmt"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/eksdoctor/eksdoctor/collectors/kube"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
	"github.com/spf13/cobra"
)

// ScanOptions are the inputs of scan.
type ScanOptions struct {
	*GlobalOptions
	Live         LiveOptions
	Cluster      string
	Snapshot     string
	Output       string
	InCluster    bool
	PolicyReport bool
	MetricsFile  string
	Pushgateway  string
	// Now is the clock for the scan duration (nil = time.Now).
	Now func() time.Time
}

// NewCmdScan builds `scan`.
func NewCmdScan(g *GlobalOptions) *cobra.Command {
	o := &ScanOptions{GlobalOptions: g}
	cmd := &cobra.Command{
		Use:   "scan --cluster NAME [--snapshot PATH] [-o table|json|markdown|junit]",
		Short: "Check the whole cluster and diagnose every instance that has not joined",
		Long: `Run the cluster-wide checks once (access entries and aws-auth, webhooks, node group health,
Auto Scaling launch failures, launch templates, free IPs in the node group subnets, Windows
readiness), then diagnose, as why-not-joining does, every running instance of the cluster
that has no Node object, from one collection shared by all (no call repeated per instance).

Publishing (for the CronJob in deploy/): --policy-report writes a ClusterPolicyReport
(wgpolicyk8s.io/v1alpha2) named eksdoctor-<cluster>, updated in place — the only object
eksdoctor ever writes, and only when asked; when the CRD is not installed it says so and
carries on. --metrics-file writes the Prometheus text format (for node-exporter's textfile
collector) and --pushgateway pushes it. --in-cluster (also detected inside a pod) takes AWS
credentials from IRSA or Pod Identity and the Kubernetes client from the ServiceAccount, and
prints JSON.`,
		Example: `  eksdoctor scan --cluster prod --region eu-west-1
  eksdoctor scan --cluster prod --snapshot snap.tar.gz -o junit > eksdoctor.xml
  eksdoctor scan --cluster prod --in-cluster --policy-report --metrics-file /metrics/eksdoctor.prom`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return o.Run() },
	}
	f := cmd.Flags()
	f.StringVar(&o.Cluster, "cluster", "", "cluster name (required for live scans)")
	f.StringVar(&o.Snapshot, "snapshot", "", "scan this snapshot instead of the live account and cluster")
	f.StringVarP(&o.Output, "output", "o", "", "output format: table, json, markdown or junit (default table; json in a pod)")
	f.BoolVar(&o.InCluster, "in-cluster", false, "run as a pod: ServiceAccount for Kubernetes, IRSA/Pod Identity for AWS, JSON output")
	f.BoolVar(&o.PolicyReport, "policy-report", false, "publish a ClusterPolicyReport (wgpolicyk8s.io/v1alpha2) with the results")
	f.StringVar(&o.MetricsFile, "metrics-file", "", "write Prometheus text metrics to this file")
	f.StringVar(&o.Pushgateway, "pushgateway", "", "push Prometheus metrics to this Pushgateway URL")
	o.Live.addFlags(cmd)
	return cmd
}

// Run scans, writes the report and publishes it.
func (o *ScanOptions) Run() error {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	if !o.InCluster && os.Getenv("KUBERNETES_SERVICE_HOST") != "" && o.Live.Kube.Kubeconfig == "" && o.Snapshot == "" {
		o.InCluster = true
	}
	if o.Output == "" {
		o.Output = "table"
		if o.InCluster {
			o.Output = "json"
		}
	}
	switch o.Output {
	case "table", "json", "markdown", "md", "junit":
	default:
		return usageErr("unknown --output %q (want table, json, markdown or junit)", o.Output)
	}
	reg := checks.Default()
	selected, err := reg.Select(o.Checks)
	if err != nil {
		return usageErr("%v", err)
	}
	var snap *snapshot.Snapshot
	var denied []string
	if o.Snapshot != "" {
		if snap, err = snapshot.Open(o.Snapshot, snapshot.DefaultLimits); err != nil {
			return inputErr("cannot read snapshot %s: %v", o.Snapshot, err)
		}
	} else {
		if o.Cluster == "" {
			return usageErr("scan needs --cluster")
		}
		if snap, denied, err = o.Live.snapshot(o.GlobalOptions, nil, o.Cluster, checks.Needs(selected), collectMode{batch: true, scan: true}); err != nil {
			return err
		}
	}
	// cluster-wide findings: the checks that judge the cluster as a whole
	var clusterChecks []checks.Check
	for _, c := range selected {
		if c.Meta.ClusterWide {
			clusterChecks = append(clusterChecks, c)
		}
	}
	cev := snap.ClusterEvidence(o.Cluster)
	if g := cev.GapFor(evidence.KindCluster); !cev.Have(evidence.KindCluster) && strings.Contains(g.Reason, "does not exist") {
		return inputErr("%s", g.Reason)
	}
	fleet, partial, err := diagnoseFleet(snap, cev.Target.Cluster, reg, selected, denied)
	var ee *ExitError
	inconclusive := false
	if errors.As(err, &ee) && (ee.Code == ExitNothingChecked || ee.Code == ExitPartial) {
		// no instance could be listed: the cluster-wide findings are still reported
		fmt.Fprintln(o.stderr, "eksdoctor:", err)
		inconclusive = ee.Code == ExitNothingChecked
		partial, err = partial || ee.Code == ExitPartial, nil
	}
	if err != nil && !strings.Contains(err.Error(), "instance") {
		return err
	}
	if fleet == nil {
		fleet = &report.Fleet{SchemaVersion: report.SchemaVersion, Cluster: cev.Target.Cluster, Source: snap.Origin, Instances: []*report.Report{}, Joined: []string{}}
		fleet.Summarize()
	}
	s := &report.Scan{SchemaVersion: report.SchemaVersion, Cluster: cev.Target.Cluster, Source: snap.Origin, ClusterFindings: checks.Run(clusterChecks, cev),
		Fleet: fleet, DeniedPermissions: append([]string{}, denied...), Errors: []string{}}
	if !cev.CollectedAt.IsZero() {
		s.CollectedAt = cev.CollectedAt.UTC().Format(time.RFC3339)
	}
	for _, g := range cev.PermissionGaps() {
		s.DeniedPermissions = appendMissing(s.DeniedPermissions, g.Permission)
	}
	partial = partial || len(s.DeniedPermissions) > 0
	if o.PolicyReport {
		if msg, err := o.publishPolicyReport(s); err != nil {
			s.Errors = append(s.Errors, "policy report: "+err.Error())
			fmt.Fprintln(o.stderr, "eksdoctor: publishing the ClusterPolicyReport failed:", err)
		} else if msg != "" {
			fmt.Fprintln(o.stderr, "eksdoctor:", msg)
		}
	}
	s.DurationSeconds = now().Sub(start).Seconds()
	s.Summarize()
	if o.MetricsFile != "" || o.Pushgateway != "" {
		o.publishMetrics(s)
	}
	switch o.Output {
	case "json":
		err = report.ScanJSON(o.stdout, s)
	case "markdown", "md":
		err = report.ScanMarkdown(o.stdout, s)
	case "junit":
		err = report.ScanJUnit(o.stdout, s)
	default:
		err = report.ScanText(o.stdout, s, report.TextOptions{Color: o.useColor()})
	}
	if err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return o.exitFor(s.Summary.ClusterFail > 0 || s.Summary.Failing > 0, inconclusive, partial)
}

func (o *ScanOptions) publishMetrics(s *report.Scan) {
	var buf bytes.Buffer
	if o.MetricsFile != "" {
		// write to a temporary file and rename, so a textfile collector never reads half a file
		tmp := filepath.Join(filepath.Dir(o.MetricsFile), "."+filepath.Base(o.MetricsFile)+".tmp")
		f, err := os.Create(tmp)
		if err == nil {
			if err = report.Metrics(f, s); err == nil {
				err = f.Close()
			} else {
				f.Close()
			}
			if err == nil {
				err = os.Rename(tmp, o.MetricsFile)
			}
		}
		if err != nil {
			s.Errors = append(s.Errors, "metrics file: "+err.Error())
			os.Remove(tmp)
		}
	}
	if o.Pushgateway != "" {
		if err := report.Metrics(&buf, s); err == nil {
			url := strings.TrimRight(o.Pushgateway, "/") + "/metrics/job/eksdoctor/cluster/" + s.Cluster
			req, _ := http.NewRequest(http.MethodPut, url, &buf)
			req.Header.Set("Content-Type", "text/plain; version=0.0.4")
			resp, err := (&http.Client{Timeout: 15 * time.Second}).Do(req)
			switch {
			case err != nil:
				s.Errors = append(s.Errors, "pushgateway: "+err.Error())
			case resp.StatusCode/100 != 2:
				s.Errors = append(s.Errors, "pushgateway: "+resp.Status)
				resp.Body.Close()
			default:
				resp.Body.Close()
			}
		}
	}
}

var policyReportGVR = schema.GroupVersionResource{Group: "wgpolicyk8s.io", Version: "v1alpha2", Resource: "clusterpolicyreports"}

// restConfig returns the Kubernetes client configuration for publishing: the one the
// collection used, else the standard resolution.
func (o *ScanOptions) restConfig() (*rest.Config, error) {
	if o.Live.Kube.rest != nil {
		return o.Live.Kube.rest, nil
	}
	rc, _, err := kube.RESTConfig(kube.ClientOptions{Kubeconfig: o.Live.Kube.Kubeconfig, Context: o.Live.Kube.Context})
	return rc, err
}

// publishPolicyReport creates or updates the ClusterPolicyReport. It returns a message (no
// error) when the CRD is not installed.
func (o *ScanOptions) publishPolicyReport(s *report.Scan) (string, error) {
	rc, err := o.restConfig()
	if err != nil {
		return "", err
	}
	dc, err := discovery.NewDiscoveryClientForConfig(rc)
	if err != nil {
		return "", err
	}
	if _, err := dc.ServerResourcesForGroupVersion(report.PolicyReportGroupVersion); err != nil {
		if apierrors.IsNotFound(err) {
			return "the ClusterPolicyReport CRD (" + report.PolicyReportGroupVersion + ") is not installed; the report is only on stdout", nil
		}
		return "", err
	}
	dyn, err := dynamic.NewForConfig(rc)
	if err != nil {
		return "", err
	}
	obj := &unstructured.Unstructured{Object: report.PolicyReport(s)}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := dyn.Resource(policyReportGVR)
	cur, err := client.Get(ctx, obj.GetName(), metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		_, err = client.Create(ctx, obj, metav1.CreateOptions{FieldManager: "eksdoctor"})
	case err == nil:
		obj.SetResourceVersion(cur.GetResourceVersion())
		_, err = client.Update(ctx, obj, metav1.UpdateOptions{FieldManager: "eksdoctor"})
	}
	if err != nil {
		return "", err
	}
	return "", nil
}
