package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/push"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/eksdoctor/eksdoctor/collectors/kube"
	"github.com/eksdoctor/eksdoctor/collectors/redact"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
	"github.com/spf13/cobra"
)

// ScanOptions are the inputs of scan.
type ScanOptions struct {
	*GlobalOptions
	Live      LiveOptions
	Cluster   string
	Snapshot  string
	Output    string
	InCluster bool
	// PolicyReport is the deprecated --policy-report flag: --publish policyreport.
	PolicyReport bool
	// Publish lists the report objects to write to the cluster: "policyreport", "openreports".
	Publish []string
	// FailOn is --fail-on: "any" (exit 1 on any failing finding), "none", or a severity
	// (exit 1 on a failing finding of that severity or above). Empty = "any", or "none" when
	// running in a pod.
	FailOn      string
	MetricsFile string
	Pushgateway string
	// pushBase and pushQuery are Pushgateway split by pushgatewayURL.
	pushBase, pushQuery string
	// PushUsername, PushPasswordFile and PushTokenFile are the Pushgateway credentials (basic
	// or bearer); the environment supplies them when the flags are empty.
	PushUsername     string
	PushPasswordFile string
	PushTokenFile    string
	// Now is the clock for the scan duration (nil = time.Now).
	Now func() time.Time
}

// NewCmdScan builds `scan`.
func NewCmdScan(g *GlobalOptions) *cobra.Command {
	o := &ScanOptions{GlobalOptions: g}
	cmd := &cobra.Command{
		Use:   "scan --cluster NAME [--snapshot PATH] [-o table|json|markdown|junit|policyreport|openreports]",
		Short: "Check the whole cluster and diagnose every instance that has not joined",
		Long: `Run the cluster-wide checks once (access entries and aws-auth, webhooks, node group health,
Auto Scaling launch failures, launch templates, free IPs in the node group subnets, Windows
readiness), then diagnose, as why-not-joining does, every running instance of the cluster
that has no Node object, from one collection shared by all (no call repeated per instance).

-o policyreport prints the wgpolicyk8s.io/v1alpha2 ClusterPolicyReport and -o openreports the
openreports.io/v1alpha1 ClusterReport (YAML, ready for kubectl apply).

Publishing (for the CronJob in deploy/ and charts/eksdoctor): --publish policyreport and/or
--publish openreports create or update in place the report object eksdoctor-<cluster> — the
only objects eksdoctor ever writes, and only when asked (--policy-report is an alias of
--publish policyreport). --metrics-file writes the Prometheus text format (for node-exporter's
textfile collector) and --pushgateway pushes it. A publication that was asked for and failed
(CRD not installed, object rejected, file not writable, Pushgateway unreachable) is named on
stderr and the run exits 7, whatever the output format. --in-cluster (also detected inside a pod) takes AWS
credentials from IRSA or Pod Identity and the Kubernetes client from the ServiceAccount, and
prints JSON.`,
		Example: `  eksdoctor scan --cluster prod --region eu-west-1
  eksdoctor scan --cluster prod --snapshot snap.tar.gz -o junit > eksdoctor.xml
  eksdoctor scan --cluster prod --snapshot snap.tar.gz -o policyreport | kubectl apply -f -
  eksdoctor scan --cluster prod --in-cluster --publish openreports --metrics-file /var/lib/eksdoctor/eksdoctor.prom`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return o.Run() },
	}
	f := cmd.Flags()
	f.StringVar(&o.Cluster, "cluster", "", "cluster name (required for live scans)")
	f.StringVar(&o.Snapshot, "snapshot", "", "scan this snapshot instead of the live account and cluster")
	f.StringVarP(&o.Output, "output", "o", "", "output format: table, json, markdown, junit, policyreport or openreports (default table; json in a pod)")
	f.BoolVar(&o.InCluster, "in-cluster", false, "run as a pod: ServiceAccount for Kubernetes, IRSA/Pod Identity for AWS, JSON output")
	f.StringSliceVar(&o.Publish, "publish", nil, "write the report object to the cluster (create or update in place): policyreport (wgpolicyk8s.io/v1alpha2 ClusterPolicyReport), openreports (openreports.io/v1alpha1 ClusterReport); repeatable")
	f.BoolVar(&o.PolicyReport, "policy-report", false, "alias of --publish policyreport")
	f.StringVar(&o.FailOn, "fail-on", "", "exit 1 when a finding fails with this severity or above: critical, high, medium, low, any or none (default any; none in a pod, so findings alone do not fail the Job)")
	f.StringVar(&o.MetricsFile, "metrics-file", "", "write Prometheus text metrics to this file (replaced atomically; refused if it exists and is not a regular file)")
	f.StringVar(&o.Pushgateway, "pushgateway", "", "push Prometheus metrics to this Pushgateway URL (job eksdoctor, grouping key cluster)")
	f.StringVar(&o.PushUsername, "pushgateway-username", "", "Pushgateway basic auth user (default: $"+envPushUser+")")
	f.StringVar(&o.PushPasswordFile, "pushgateway-password-file", "", "file holding the Pushgateway basic auth password (default: $"+envPushPassword+")")
	f.StringVar(&o.PushTokenFile, "pushgateway-token-file", "", "file holding a Pushgateway bearer token (default: $"+envPushToken+")")
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
	case "table", "json", "markdown", "md", "junit", "policyreport", "openreports":
	default:
		return usageErr("unknown --output %q (want table, json, markdown, junit, policyreport or openreports)", o.Output)
	}
	if o.FailOn == "" {
		o.FailOn = "any"
		if o.InCluster {
			o.FailOn = "none"
		}
	}
	switch o.FailOn {
	case "any", "none", "critical", "high", "medium", "low":
	default:
		return usageErr("unknown --fail-on %q (want critical, high, medium, low, any or none)", o.FailOn)
	}
	if o.PolicyReport {
		o.Publish = append(o.Publish, "policyreport")
	}
	publish := map[string]bool{}
	for _, p := range o.Publish {
		switch p {
		case "policyreport", "openreports":
			publish[p] = true
		default:
			return usageErr("unknown --publish %q (want policyreport or openreports)", p)
		}
	}
	if o.Pushgateway != "" {
		base, query, err := pushgatewayURL(o.Pushgateway)
		if err != nil {
			return usageErr("--pushgateway %q: %v", o.Pushgateway, err)
		}
		o.pushBase, o.pushQuery = base, query
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
		if err := snapshotOfCluster(snap, o.Snapshot, o.Cluster); err != nil {
			return err
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
	if fleet != nil && o.Cluster == "" {
		// the cluster came from the snapshot, not from a flag: say so in every instance's report
		for _, r := range fleet.Instances {
			if r.Target.ClusterSource == "flag" {
				r.Target.ClusterSource = cev.Target.ClusterSource
			}
		}
	}
	var ee *ExitError
	inconclusive := false
	if errors.As(err, &ee) && (ee.Code == ExitNothingChecked || ee.Code == ExitPartial) {
		// no instance could be listed: the cluster-wide findings are still reported
		fmt.Fprintln(o.stderr, "eksdoctor:", report.EscapeLine(redact.String(err.Error())))
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
	clusterDenied := false
	if why, denied := clusterSideGap(cev); why != "" {
		// the cluster's API could not be read: its checks could not run and nothing shows which
		// instances joined — an error of the scan in every format, never "no cluster-wide problem"
		s.ClusterInconclusive = "the Kubernetes API could not be read (" + why + "), so nothing shows which instances joined"
		if nodesNotCollected(why) {
			s.ClusterInconclusive = "the cluster's Nodes were not collected (" + why + "), so nothing shows which instances joined"
		}
		s.Errors = append(s.Errors, "cluster: "+s.ClusterInconclusive)
		clusterDenied = denied
		inconclusive = inconclusive || !denied
	}
	if fleet.Inconclusive != "" {
		// the scan could not do its main job: an error in every format (JSON errors, a JUnit
		// error case, a report result "error", eksdoctor_scan_errors, last success not advanced)
		s.Errors = append(s.Errors, "instances: "+fleet.Inconclusive)
		if m := reMissingPermission.FindStringSubmatch(fleet.Inconclusive); m != nil {
			s.DeniedPermissions = appendMissing(s.DeniedPermissions, m[1])
		}
	}
	// a call that failed for good (throttled, timed out, a server error, an aggregated API
	// unavailable): an error of the scan in every format, as a denial is partial (exit 5) —
	// never a clean run that advances the last success
	for _, p := range failedCallProblems(snapshotProblems(snap)) {
		s.Errors = append(s.Errors, "collection: "+p.Path+": "+p.Problem)
		partial = true
	}
	partial = partial || len(s.DeniedPermissions) > 0
	// publication failures: named on stderr in every output format, and exit ExitPublish
	var pubFailed []string
	pubFail := func(what string, err error) {
		s.Errors = append(s.Errors, what+": "+err.Error())
		pubFailed = append(pubFailed, what)
		fmt.Fprintf(o.stderr, "eksdoctor: publishing the %s failed: %s\n", what, report.EscapeLine(redact.String(err.Error())))
	}
	for _, kind := range []string{"policyreport", "openreports"} {
		if !publish[kind] {
			continue
		}
		target := reportTargets[kind]
		if err := o.publishReport(target, reportObject(kind, s)); err != nil {
			pubFail(target.what, err)
		}
	}
	s.DurationSeconds = now().Sub(start).Seconds()
	s.Summarize()
	if o.MetricsFile != "" || o.Pushgateway != "" {
		o.publishMetrics(s, now(), pubFail)
	}
	switch o.Output {
	case "json":
		err = report.ScanJSON(o.stdout, s)
	case "markdown", "md":
		err = report.ScanMarkdown(o.stdout, s)
	case "junit":
		err = report.ScanJUnit(o.stdout, s)
	case "policyreport", "openreports":
		var b []byte
		if b, err = yaml.Marshal(reportObject(o.Output, s)); err == nil {
			_, err = o.stdout.Write(b)
		}
	default:
		err = report.ScanText(o.stdout, s, o.textOptions())
	}
	if err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	if len(pubFailed) > 0 {
		return codeOnly(ExitPublish)
	}
	// as for --all-pending: an instance that is inconclusive, or named but not described, makes
	// the scan inconclusive; --fail-on decides code 1 only
	// a cut instance list: what the instances not read would show is unknown (never all clear)
	inconclusive = inconclusive || fleetInconclusive(fleet) || len(fleet.Unlisted) > 0 || fleet.Incomplete != ""
	return o.exitFor(failsOn(s, o.FailOn), inconclusive, partial || clusterDenied)
}

// clusterSideGap says why the cluster's Kubernetes API could not be read: its Nodes list — read
// by every collection with access to the cluster, and what says which instances joined — holds
// an error instead (kubectl's "Unable to connect to the server", a NoAccess the live collector
// wrote for an unusable endpoint, CA or credentials, a Forbidden, a damaged file), and whether
// that was a denial; or the Nodes were not collected at all (--no-kube, a snapshot without
// kube/nodes.json: "not in snapshot (kube/nodes.json)"), which shows no more which instances
// joined (red team 8a, finding 7). "" when the Nodes were read.
func clusterSideGap(ev *evidence.Evidence) (reason string, denied bool) {
	if ev.Have(evidence.KindNodes) {
		return "", false
	}
	g := ev.GapFor(evidence.KindNodes)
	return g.Reason, g.Permission != ""
}

// nodesNotCollected reports whether a clusterSideGap reason says the Nodes were not collected at
// all (as opposed to read and found to hold an error).
func nodesNotCollected(reason string) bool {
	return reason == "not collected" || snapshot.IsMissing(reason)
}

// publishMetrics writes the metrics file and/or pushes to the Pushgateway. A scan without
// errors so far sets eksdoctor_last_success_timestamp_seconds to now; a failed one keeps the
// previous value (read back from the metrics file; left untouched at the Pushgateway by pushing
// with POST instead of PUT). fail is called for each publication that failed.
func (o *ScanOptions) publishMetrics(s *report.Scan, now time.Time, fail func(string, error)) {
	success := len(s.Errors) == 0
	build := func(last time.Time) (*prometheus.Registry, error) {
		return report.Metrics(s, report.MetricsOptions{Version: ResolvedVersion(), LastSuccess: last})
	}
	if o.MetricsFile != "" {
		last := now
		if !success {
			last = previousLastSuccess(o.MetricsFile)
		}
		reg, err := build(last)
		if err == nil { // writeFileAtomic refuses a target that is not a regular file
			err = writeFileAtomic(o.MetricsFile, func(w io.Writer) error { return report.WriteMetricsText(w, reg) })
		}
		if err != nil {
			fail("metrics file", err)
		}
	}
	if o.Pushgateway != "" {
		last := now
		if !success {
			last = time.Time{}
		}
		reg, err := build(last)
		if err == nil {
			err = o.push(reg, s.Cluster, success)
		}
		if err != nil {
			fail("Pushgateway push", err)
		}
	}
}

// maxMetricsFile is the most read back of an earlier metrics file (eksdoctor writes a few KiB).
const maxMetricsFile = 16 << 20

// previousLastSuccess reads eksdoctor_last_success_timestamp_seconds back from an earlier
// metrics file (zero when there is none, or when the path is not a regular file: a FIFO or a
// device is never opened, and at most maxMetricsFile bytes are read).
func previousLastSuccess(path string) time.Time {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return time.Time{} // never open a FIFO or device for reading: it may block
	}
	f, err := os.Open(path)
	if err != nil {
		return time.Time{}
	}
	defer f.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := parser.TextToMetricFamilies(io.LimitReader(f, maxMetricsFile))
	if err != nil || mfs[report.MetricLastSuccess] == nil || len(mfs[report.MetricLastSuccess].Metric) == 0 {
		return time.Time{}
	}
	v := mfs[report.MetricLastSuccess].Metric[0].GetGauge().GetValue()
	return time.Unix(0, int64(v*1e9))
}

// reMissingPermission takes the permission out of a gap's "missing permission ec2:X (…)" text.
var reMissingPermission = regexp.MustCompile(`missing permission ([a-z0-9-]+:[A-Za-z0-9]+)`)

// writeFileAtomic writes a temporary file next to path and renames it, so a textfile collector
// never reads half a file. The temporary file has a name of its own, created exclusively
// (os.CreateTemp: O_EXCL, so a symlink planted at a predictable name is never followed, and
// concurrent runs do not share one), mode 0644 so the collector can read it. A path that exists
// and is not a regular file (a device such as /dev/null, a FIFO, a symlink, a directory) is not
// replaced: the error names it (checkRegularTarget).
func writeFileAtomic(path string, write func(io.Writer) error) error {
	if err := checkRegularTarget(path, "give the path of a file in the textfile collector's directory"); err != nil {
		return err
	}
	return writeFileReplacing(path, write)
}

// writeFileReplacing is writeFileAtomic without the check of the target (for callers that made
// it earlier): a temporary file of its own next to path, created exclusively, mode 0644, renamed
// over path once written whole, removed on any error.
func writeFileReplacing(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err = write(f); err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Close()
	} else {
		f.Close()
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// checkRegularTarget returns an error when path exists and is anything but a regular file:
// renaming over it would replace what is there (a device, a FIFO a collector reads, the symlink
// itself), which is a write the user did not ask for. hint ends the message: what to give instead.
func checkRegularTarget(path, hint string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s): not replaced; %s", path, snapshot.FileKind(fi.Mode()), hint)
	}
	return nil
}

// Pushgateway credentials from the environment (the --pushgateway-*-file flags take precedence).
const (
	envPushUser     = "EKSDOCTOR_PUSHGATEWAY_USERNAME"
	envPushPassword = "EKSDOCTOR_PUSHGATEWAY_PASSWORD"
	envPushToken    = "EKSDOCTOR_PUSHGATEWAY_TOKEN"
)

// bearerDoer adds an Authorization: Bearer header to every request.
type bearerDoer struct {
	token string
	next  push.HTTPDoer
}

func (b bearerDoer) Do(r *http.Request) (*http.Response, error) {
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.Do(r)
}

// pushAuth resolves the Pushgateway credentials: basic (username + password) or bearer (token),
// each from its file flag or else the environment. Errors: an unreadable file (a file longer
// than MaxSecretFile, a device, a pipe that does not end: readSideFile), or both kinds given.
// Secrets never appear in an error.
func (o *ScanOptions) pushAuth() (user, password, token string, err error) {
	read := func(flag, file, env string) (string, error) {
		if file != "" {
			b, err := readSideFile(flag, file, MaxSecretFile)
			if err != nil {
				return "", err
			}
			return strings.TrimSpace(string(b)), nil
		}
		return os.Getenv(env), nil
	}
	user = o.PushUsername
	if user == "" {
		user = os.Getenv(envPushUser)
	}
	if password, err = read("pushgateway-password-file", o.PushPasswordFile, envPushPassword); err != nil {
		return
	}
	if token, err = read("pushgateway-token-file", o.PushTokenFile, envPushToken); err != nil {
		return
	}
	if token != "" && (user != "" || password != "") {
		err = fmt.Errorf("both basic (username/password) and bearer (token) credentials are set for the Pushgateway; give one")
	}
	return
}

// pushgatewayURL splits a --pushgateway URL into the base the job path is joined to (scheme,
// user info, host and path, without a trailing slash) and its query, which the push keeps as the
// query: client_golang's push appends "/metrics/job/…" to the string it is given, which put the
// job path inside a query. As with that package, a URL without a scheme is taken as http://.
// Errors: not http or https, no host, or not a URL.
func pushgatewayURL(raw string) (base, query string, err error) {
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", "", fmt.Errorf("scheme %q: want http or https", u.Scheme)
	}
	if u.Hostname() == "" {
		return "", "", errors.New("no host")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", "", fmt.Errorf("port %q out of range", p)
		}
	}
	query = u.RawQuery
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
	u.Path, u.RawPath = strings.TrimRight(u.Path, "/"), ""
	return u.String(), query, nil
}

// queryDoer sets the query of the Pushgateway URL on every push request.
type queryDoer struct {
	query string
	next  push.HTTPDoer
}

func (q queryDoer) Do(r *http.Request) (*http.Response, error) {
	r.URL.RawQuery = q.query
	return q.next.Do(r)
}

// push sends the registry to the Pushgateway under job "eksdoctor" and the cluster as grouping
// key: PUT (replace the group) after a successful scan, POST (replace only these metrics, so
// the previous last-success timestamp stays) after a failed one.
func (o *ScanOptions) push(reg prometheus.Gatherer, cluster string, success bool) error {
	user, password, token, err := o.pushAuth()
	if err != nil {
		return err
	}
	var doer push.HTTPDoer = &http.Client{Timeout: 15 * time.Second}
	if token != "" {
		doer = bearerDoer{token: token, next: doer}
	}
	if o.pushQuery != "" {
		doer = queryDoer{query: o.pushQuery, next: doer}
	}
	p := push.New(o.pushBase, "eksdoctor").Grouping("cluster", cluster).Gatherer(reg).Client(doer).Format(expfmt.NewFormat(expfmt.TypeTextPlain))
	if user != "" || password != "" {
		p = p.BasicAuth(user, password)
	}
	if success {
		return p.Push()
	}
	return p.Add()
}

// reportTarget is one kind of report object eksdoctor can publish.
type reportTarget struct {
	what         string // for messages: "ClusterPolicyReport"
	groupVersion string
	gvr          schema.GroupVersionResource
}

var reportTargets = map[string]reportTarget{
	"policyreport": {"ClusterPolicyReport", report.PolicyReportGroupVersion, policyReportGVR},
	"openreports":  {"ClusterReport", report.OpenReportsGroupVersion, openReportsGVR},
}

var (
	policyReportGVR = schema.GroupVersionResource{Group: "wgpolicyk8s.io", Version: "v1alpha2", Resource: "clusterpolicyreports"}
	openReportsGVR  = schema.GroupVersionResource{Group: "openreports.io", Version: "v1alpha1", Resource: "clusterreports"}
)

// reportObject builds the report object of kind ("policyreport" or "openreports").
func reportObject(kind string, s *report.Scan) runtime.Object {
	if kind == "openreports" {
		return report.OpenReport(s)
	}
	return report.PolicyReport(s)
}

// restConfig returns the Kubernetes client configuration for publishing: the one the
// collection used, else the standard resolution.
func (o *ScanOptions) restConfig() (*rest.Config, error) {
	if o.Live.Kube.rest != nil {
		return o.Live.Kube.rest, nil
	}
	rc, _, err := kube.RESTConfig(kube.ClientOptions{Kubeconfig: o.Live.Kube.Kubeconfig, Context: o.Live.Kube.Context})
	return rc, err
}

// publishReport creates the report object or updates it in place. Errors: no Kubernetes
// configuration, the CRD is not installed (named), or the API server refused the object.
func (o *ScanOptions) publishReport(t reportTarget, obj runtime.Object) error {
	rc, err := o.restConfig()
	if err != nil {
		return err
	}
	dc, err := discovery.NewDiscoveryClientForConfig(rc)
	if err != nil {
		return err
	}
	if _, err := dc.ServerResourcesForGroupVersion(t.groupVersion); err != nil {
		if apierrors.IsNotFound(err) {
			return fmt.Errorf("the %s CRD (%s) is not installed in the cluster; the report is only on stdout", t.what, t.groupVersion)
		}
		return err
	}
	dyn, err := dynamic.NewForConfig(rc)
	if err != nil {
		return err
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return err
	}
	u := &unstructured.Unstructured{Object: m}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := dyn.Resource(t.gvr)
	cur, err := client.Get(ctx, u.GetName(), metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		_, err = client.Create(ctx, u, metav1.CreateOptions{FieldManager: "eksdoctor"})
	case err == nil:
		u.SetResourceVersion(cur.GetResourceVersion())
		_, err = client.Update(ctx, u, metav1.UpdateOptions{FieldManager: "eksdoctor"})
	}
	return err
}

// failsOn reports whether the scan has a failing finding that --fail-on counts: any failing
// finding for "any", none for "none", else one of at least that severity.
func failsOn(s *report.Scan, failOn string) bool {
	switch failOn {
	case "none":
		return false
	case "any":
		return s.Summary.ClusterFail > 0 || s.Summary.Failing > 0
	}
	min := checks.Severity(failOn).Rank()
	hit := func(fs []checks.Finding) bool {
		for _, f := range fs {
			if f.Status == checks.StatusFail && f.Severity.Rank() >= min {
				return true
			}
		}
		return false
	}
	if hit(s.ClusterFindings) {
		return true
	}
	for _, r := range s.Fleet.Instances {
		if hit(r.Findings) {
			return true
		}
	}
	return false
}

// snapshotOfCluster refuses a --cluster the snapshot was not collected for: its files describe
// another cluster, and judging them as the flag's would report causes of the wrong cluster. An
// input error (exit 4), like a scan of a cluster that does not exist.
func snapshotOfCluster(snap *snapshot.Snapshot, path, cluster string) error {
	if cluster == "" {
		return nil
	}
	if of := snap.OfCluster(); of != "" && of != cluster {
		return inputErr("snapshot %s is of cluster %s, not %s (--cluster)", path, of, cluster)
	}
	return nil
}
