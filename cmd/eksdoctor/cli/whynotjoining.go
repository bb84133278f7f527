package cli

import (
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

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
	Live       LiveOptions
	// AllPending diagnoses every instance of the cluster that has not joined.
	AllPending bool
	// Registry defaults to checks.Default().
	Registry *checks.Registry
	// warnings are put on the report (a bundle cross-checked with a snapshot that does not fit).
	warnings []string
	// snapshotName is what the report calls Snapshot when it is a temporary copy ("stdin" for
	// an archive piped to analyze -); empty: Snapshot's own path.
	snapshotName string
}

// shownSnapshot is the name messages give the snapshot: o.snapshotName, else o.Snapshot.
func (o *WhyNotJoiningOptions) shownSnapshot() string {
	if o.snapshotName != "" {
		return o.snapshotName
	}
	return o.Snapshot
}

// openSnapshot opens o.Snapshot, shown as o.snapshotName when that is set. Errors are input
// errors naming the snapshot.
func (o *WhyNotJoiningOptions) openSnapshot() (*snapshot.Snapshot, error) {
	name := o.shownSnapshot()
	snap, err := snapshot.Open(o.Snapshot, snapshot.DefaultLimits)
	if err != nil {
		return nil, inputErr("cannot read snapshot %s: %v", name, err)
	}
	snap.Origin = "snapshot:" + name
	return snap, nil
}

// nodeClaimName matches a Kubernetes object name (RFC 1123 subdomain), as NodeClaims have.
var nodeClaimName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$`)

// NewCmdWhyNotJoining builds the why-not-joining command.
func NewCmdWhyNotJoining(g *GlobalOptions) *cobra.Command {
	o := &WhyNotJoiningOptions{GlobalOptions: g}
	cmd := &cobra.Command{
		Use:   "why-not-joining INSTANCE_ID|NODECLAIM [--cluster NAME] [--region R] [--snapshot PATH]",
		Short: "Diagnose why one EC2 instance does not join its EKS cluster",
		Long: `Diagnose why one EC2 instance does not join its EKS cluster.

The target is an instance ID, or the name of a Karpenter / EKS Auto Mode NodeClaim: its
instance is the one status.providerID names; a NodeClaim that never launched is diagnosed from
the NodeClaim and its node class alone. Provisioner-level faults (a node class that is not
Ready, user data of the wrong format) are reported for the NodeClaims they affect.

Without --snapshot, the evidence is read live from the AWS account with the standard
credential chain (--profile, --region, environment, SSO, IRSA / Pod Identity; --role-arn
to assume a read-only role). Only Describe/Get/List calls are made (see 'eksdoctor
iam-policy'); a denied call skips the checks that need it and the run exits 5 (partial)
when nothing else failed. The cluster side (aws-auth, CSRs, nodes, aws-node, webhooks) is read
with get/list only (deploy/rbac) through --kubeconfig/--context, KUBECONFIG or ~/.kube/config,
the in-cluster service account, or else a token made from the AWS identity as 'aws eks
get-token' makes it. With --snapshot the evidence comes from a directory or .tar.gz of AWS
CLI and kubectl outputs (docs/snapshot-format.md; 'eksdoctor collect' or
docs/collect-snapshot.sh make one).

The cluster is taken from --cluster, else from the instance's tags (eks:cluster-name,
aws:eks:cluster-name, kubernetes.io/cluster/NAME), else from its user data.

The report names the most likely cause first, then every failing check with the evidence
it saw, why it blocks the join and the fix.`,
		Example: `  eksdoctor why-not-joining i-0abc1234def567890 --cluster prod --region eu-west-1
  eksdoctor why-not-joining i-0abc1234def567890 --profile prod-readonly
  eksdoctor why-not-joining i-0abc1234def567890 --snapshot ./snap
  eksdoctor why-not-joining i-0abc1234def567890 --snapshot snap.tar.gz -o json
  eksdoctor why-not-joining i-0abc1234def567890 --snapshot ./snap --checks 'auth.*,bootstrap.*'
  eksdoctor why-not-joining default-x7k2p --snapshot ./snap`,
		Args: func(cmd *cobra.Command, args []string) error {
			if o.AllPending {
				if len(args) != 0 {
					return usageErr("--all-pending takes no INSTANCE_ID")
				}
				return nil
			}
			if len(args) != 1 {
				return usageErr("why-not-joining takes exactly one INSTANCE_ID, got %d arguments", len(args))
			}
			if !strings.HasPrefix(args[0], "i-") && !nodeClaimName.MatchString(args[0]) {
				return usageErr("%q is neither an EC2 instance ID (i-...) nor a NodeClaim name", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.AllPending {
				return o.RunAll()
			}
			o.InstanceID = args[0]
			return o.Run()
		},
	}
	o.addOutputFlag(cmd)
	cmd.Flags().StringVar(&o.Snapshot, "snapshot", "", "analyse this snapshot directory or .tar.gz instead of the live account")
	cmd.Flags().StringVar(&o.Cluster, "cluster", "", "cluster name (default: inferred from instance tags or user data)")
	cmd.Flags().BoolVar(&o.AllPending, "all-pending", false, "diagnose every instance of the cluster that has no Node object or a NotReady one (all of them when nodes are unknown)")
	o.Live.addFlags(cmd)
	return cmd
}

// Run collects evidence, runs the checks and writes the report.
func (o *WhyNotJoiningOptions) Run() error {
	reg, selected, err := o.prepare(o.Registry)
	if err != nil {
		return err
	}
	var snap *snapshot.Snapshot
	var denied []string
	claim := !strings.HasPrefix(o.InstanceID, "i-")
	if o.Snapshot == "" {
		ids, mode := []string{o.InstanceID}, collectMode{}
		if claim {
			// a NodeClaim names its instance only in the cluster: collect the cluster's instances
			if o.Cluster == "" {
				return usageErr("why-not-joining NODECLAIM against AWS needs --cluster")
			}
			ids, mode = nil, collectMode{batch: true, scan: true}
		}
		snap, denied, err = o.Live.snapshot(o.GlobalOptions, ids, o.Cluster, checks.Needs(selected), mode)
		if err != nil {
			return err
		}
	} else if snap, err = o.openSnapshot(); err != nil {
		return err
	}
	if o.Snapshot != "" {
		if err := snapshotOfCluster(snap, o.shownSnapshot(), o.Cluster); err != nil {
			return err
		}
	}
	var ev *evidence.Evidence
	if claim {
		ev, err = snap.NodeClaimEvidence(o.InstanceID, o.Cluster)
	} else {
		ev, err = snap.Evidence(o.InstanceID, o.Cluster)
	}
	if err != nil && !claim && snap.InstancesNotFound() != "" {
		// EC2 says the instance does not exist (terminated, then forgotten, before the
		// collection): its own evidence is gone, but what the cluster shows (its NodeClasses,
		// node groups, access entries) may still name the cause, so the cluster is judged
		gone := fmt.Sprintf("%s no longer exists: ec2/describe-instances.json holds EC2's %s (a terminated instance is described for about an hour, then forgotten), so nothing of the instance itself could be judged; the cluster as a whole was judged instead",
			o.InstanceID, snap.InstancesNotFound())
		ev = snap.ClusterEvidence(o.Cluster)
		ev.AddGapForce(evidence.KindInstance, gone)
		o.warnings = append(o.warnings, gone)
		return o.render(reg, selected, ev, snapshotProblems(snap), denied)
	}
	if err != nil {
		if errors.Is(err, snapshot.ErrUnknownInstance) || errors.Is(err, snapshot.ErrUnknownNodeClaim) {
			return inputErr("%v", err)
		}
		return inputErr("snapshot %s: %v", o.shownSnapshot(), err)
	}
	if w := otherClusterWarning(snap, ev, o.Cluster); w != "" {
		o.warnings = append(o.warnings, w)
	}
	return o.render(reg, selected, ev, snapshotProblems(snap), denied)
}

// otherClusterWarning warns when the instance diagnosed has no Node in the cluster (the flag's,
// else the snapshot's) and its tags name another cluster: it is judged as this cluster's, and a
// fix that tags it into this cluster would take it from the other; "" otherwise.
func otherClusterWarning(snap *snapshot.Snapshot, ev *evidence.Evidence, cluster string) string {
	if cluster == "" {
		cluster = snap.OfCluster()
	}
	if ev.Instance == nil || checks.JoinedNode(ev) != nil {
		return ""
	}
	endpoint, ca := snap.ClusterAccess(cluster)
	other, source := snapshot.OtherClusterOf(ev.Instance.Tags, ev.Bootstrap, cluster, endpoint, ca)
	switch source {
	case "tags":
		return fmt.Sprintf("%s's tags name cluster %s, not %s: it is likely not an instance of %s (scan leaves it out); do not tag it into %s unless it should move there",
			ev.Instance.ID, other, cluster, cluster, cluster)
	case "user data":
		return fmt.Sprintf("%s has no cluster tag and its user data bootstraps cluster %s, not %s (not at %s's endpoint): it is likely not an instance of %s (scan leaves it out); do not point it at %s unless it should move there",
			ev.Instance.ID, other, cluster, cluster, cluster, cluster)
	}
	return ""
}

// snapshotProblems lists the snapshot's input problems known so far, sorted by path.
func snapshotProblems(snap *snapshot.Snapshot) []report.InputProblem {
	var problems []report.InputProblem
	for _, p := range snap.Problems {
		problems = append(problems, report.InputProblem{Path: p.Path, Problem: p.Err})
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Path < problems[j].Path })
	return problems
}

func (o *WhyNotJoiningOptions) render(reg *checks.Registry, selected []checks.Check, ev *evidence.Evidence, problems []report.InputProblem, denied []string) error {
	metas := reg.Metas()
	r := diagnose(reg, selected, ev, problems, denied)
	r.Warnings = append(r.Warnings, o.warnings...)
	// a call that failed for good left evidence unread as a denial does: never exit 0 on it
	partial := len(r.DeniedPermissions) > 0 || len(failedCallProblems(r.InputProblems)) > 0
	var err error
	switch o.Output {
	case "json":
		err = report.JSON(o.stdout, r)
	case "markdown", "md":
		err = report.Markdown(o.stdout, r, metas)
	case "junit":
		err = report.ReportJUnit(o.stdout, r)
	default:
		err = report.Text(o.stdout, r, metas, o.textOptions())
	}
	if err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return o.exit(r, partial)
}

// exit maps a written report to the exit code by its verdict: cause-found 1; joined 0, or 1
// when the node is NotReady with a cause, or 3 (5 when denied) when it is NotReady with no cause
// found (why it is not Ready could not be told, whether or not checks could not run);
// no-cause-found 0 (5 when some evidence was denied or a call for it failed: partial);
// inconclusive 3, or 5 when evidence of the join path was denied.
func (o *GlobalOptions) exit(r *report.Report, partial bool) error {
	d := r.Diagnosis
	switch d.Verdict {
	case checks.VerdictJoined:
		notReady := d.Node != nil && !d.Node.Ready
		if notReady && d.MostLikelyCause == nil {
			// why it is NotReady could not be told: inconclusive about the cause
			denied := partial
			for _, u := range d.Unchecked {
				denied = denied || u.Denied
			}
			return o.exitFor(false, !denied, denied)
		}
		return o.exitFor(notReady && d.MostLikelyCause != nil, false, false)
	case checks.VerdictInconclusive:
		denied := partial
		for _, u := range d.Unchecked {
			denied = denied || u.Denied
		}
		return o.exitFor(false, !denied, denied)
	}
	return o.exitFor(r.Summary.Fail > 0, false, partial)
}

// exitFor maps the outcome of a written report to its exit code (ExitFindings, then
// ExitNothingChecked, then ExitPartial, else ExitOK); --exit-zero always gives 0.
func (o *GlobalOptions) exitFor(failing, nothingChecked, partial bool) error {
	code := ExitOK
	switch {
	case failing:
		code = ExitFindings
	case nothingChecked:
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

// diagnose runs the checks on one instance's evidence and builds its report.
func diagnose(reg *checks.Registry, selected []checks.Check, ev *evidence.Evidence, problems []report.InputProblem, denied []string) *report.Report {
	findings := checks.Run(selected, ev)
	d := checks.Conclude(findings, reg.Metas(), ev)
	r := report.New(ev, findings, d, len(selected), problems)
	r.Gaps = relevantGaps(r.Gaps, selected, findings)
	r.DeniedPermissions = append([]string{}, denied...)
	for _, g := range ev.PermissionGaps() {
		r.DeniedPermissions = appendMissing(r.DeniedPermissions, g.Permission)
	}
	return r
}

// relevantGaps drops the gaps of evidence kinds that only checks not applicable to this target
// use (the Pending pods of the Fargate checks, for an EC2 instance): what is missing there could
// not change the diagnosis. A kind no selected check reads stays (it says how to get more
// evidence, as the control-plane logs' gap does).
func relevantGaps(gaps []evidence.Gap, selected []checks.Check, findings []checks.Finding) []evidence.Gap {
	notApplicable := map[string]bool{}
	for _, f := range findings {
		if f.Status == checks.StatusSkipped && strings.HasPrefix(f.Message, "not applicable") {
			notApplicable[f.ID] = true
		}
	}
	missing := map[evidence.Kind]bool{}
	for _, g := range gaps {
		missing[g.Kind] = true
	}
	users, applicable := map[evidence.Kind]int{}, map[evidence.Kind]int{}
	for _, c := range selected {
		// of the kinds a check needs any one of, those missing matter only when all are
		anyHeld := false
		for _, k := range c.Meta.NeedsAny {
			anyHeld = anyHeld || !missing[k]
		}
		for _, k := range append(append([]evidence.Kind{}, c.Meta.Needs...), append(c.Meta.Optional, c.Meta.NeedsAny...)...) {
			users[k]++
			if !notApplicable[c.Meta.ID] && !(anyHeld && slices.Contains(c.Meta.NeedsAny, k) && !slices.Contains(c.Meta.Needs, k) && !slices.Contains(c.Meta.Optional, k)) {
				applicable[k]++
			}
		}
	}
	out := gaps[:0:0]
	for _, g := range gaps {
		if users[g.Kind] == 0 || applicable[g.Kind] > 0 {
			out = append(out, g)
		}
	}
	return out
}

// RunAll diagnoses every instance of the cluster that has not joined.
func (o *WhyNotJoiningOptions) RunAll() error {
	reg, selected, err := o.prepare(o.Registry)
	if err != nil {
		return err
	}
	var snap *snapshot.Snapshot
	var denied []string
	if o.Snapshot == "" {
		if o.Cluster == "" {
			return usageErr("--all-pending against AWS needs --cluster")
		}
		if snap, denied, err = o.Live.snapshot(o.GlobalOptions, nil, o.Cluster, checks.Needs(selected), collectMode{batch: true}); err != nil {
			return err
		}
	} else if snap, err = o.openSnapshot(); err != nil {
		return err
	}
	if o.Snapshot != "" {
		if err := snapshotOfCluster(snap, o.shownSnapshot(), o.Cluster); err != nil {
			return err
		}
	}
	fleet, partial, err := diagnoseFleet(snap, o.Cluster, reg, selected, denied)
	if err != nil && fleet == nil {
		return err
	}
	// an inconclusive fleet (its instances not listed) is written too, then exits with its code
	gapErr := err
	switch o.Output {
	case "json":
		err = report.FleetJSON(o.stdout, fleet)
	case "markdown", "md":
		err = report.FleetMarkdown(o.stdout, fleet)
	case "junit":
		err = report.FleetJUnit(o.stdout, fleet, func(id string) bool {
			c, ok := reg.Get(id)
			return ok && c.Meta.ClusterWide
		})
	default:
		err = report.FleetText(o.stdout, fleet, o.textOptions())
	}
	if err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	if gapErr != nil {
		return gapErr
	}
	return o.exitFor(fleet.Summary.Failing > 0, fleetInconclusive(fleet) || len(fleet.Unlisted) > 0 || fleet.Incomplete != "", partial)
}

// fleetInconclusive reports whether an instance of the fleet is inconclusive for want of
// evidence that was not denied. One whose every check ran and whose only unread evidence is the
// cluster's Nodes while permissions were denied (the Nodes list refused) exits as denied (5), as
// its own why-not-joining does, not 3.
func fleetInconclusive(f *report.Fleet) bool {
	for _, r := range f.Instances {
		d := r.Diagnosis
		if d.Verdict != checks.VerdictInconclusive {
			continue
		}
		if d.MostLikelyCause == nil && len(d.Unchecked) == 0 && len(r.DeniedPermissions) > 0 {
			continue
		}
		return true
	}
	return false
}

// diagnoseFleet diagnoses every instance of the snapshot that has no Node object, or a NotReady
// one, except those for another cluster (Fleet.OtherCluster, snapshot.OtherClusterOf). The fleet's cluster is
// cluster, else the snapshot's (snapshot.OfCluster), else the first instance's.
func diagnoseFleet(snap *snapshot.Snapshot, cluster string, reg *checks.Registry, selected []checks.Check, denied []string) (*report.Fleet, bool, error) {
	fleet := &report.Fleet{SchemaVersion: report.SchemaVersion, Cluster: cluster, Source: snap.Origin, Instances: []*report.Report{}, Joined: []string{}}
	if why, denied := snap.InstancesGap(); why != "" {
		// without the instances nothing says whether any of them joined: never "all joined";
		// the fleet document still goes out, saying so (Fleet.Inconclusive), for every format
		code := ExitNothingChecked
		if denied {
			code = ExitPartial
		}
		if fleet.Cluster == "" {
			fleet.Cluster = snap.OfCluster()
		}
		err := fmt.Errorf("inconclusive: no instance of cluster %s could be listed (%s), so nothing shows which instances joined", orUnknownCluster(fleet.Cluster), why)
		fleet.Inconclusive = fmt.Sprintf("no instance of the cluster could be listed (%s), so nothing shows which instances joined", why)
		fleet.Summarize()
		return fleet, denied, &ExitError{Code: code, Err: err}
	}
	// the fleet is the snapshot's cluster's (the flag's, else its manifest's or describe-
	// cluster's), never the one a listed instance's tag names
	if fleet.Cluster == "" {
		fleet.Cluster = snap.OfCluster()
	}
	of := fleet.Cluster
	ids := snap.InstanceIDs()
	if len(ids) > 0 {
		// The first instance decodes the shared files (and finds damaged ones) before the
		// others run in parallel.
		ev, err := snap.Evidence(ids[0], cluster)
		if err != nil {
			return nil, false, inputErr("%v", err)
		}
		fleet.NodesUnread, _ = clusterSideGap(ev) // the cluster side is the same for every instance
	}
	endpoint, ca := snap.ClusterAccess(of)
	type outcome struct {
		cluster string
		other   string // the other cluster the instance is for, when it has no Node here
		nodes   string // why its Nodes are unread (clusterSideGap); "" when read
		ended   *report.EndedInstance
		source  string // what says so: "tags" or "user data"
		joined  bool
		report  *report.Report
		err     error
	}
	out := make([]outcome, len(ids))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(ids)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				ev, err := snap.Evidence(ids[i], cluster)
				if err != nil {
					out[i].err = err
					continue
				}
				out[i].cluster = ev.Target.Cluster
				out[i].nodes, _ = clusterSideGap(ev)
				if n := checks.JoinedNode(ev); n != nil {
					// a Node that never became Ready is diagnosed too: it registered but runs no pod
					out[i].joined = true
					if n.Ready {
						continue
					}
				} else if ev.Instance != nil && endedOnPurpose(ev.Instance) {
					// scale-in, replacement or a Spot interruption: not a node waiting to join
					out[i].ended = &report.EndedInstance{InstanceID: ids[i], State: ev.Instance.State, Reason: ev.Instance.StateReason}
					continue
				} else if ev.Instance != nil {
					// an instance for another cluster (its tags, or with none its user data,
					// say so) is not this cluster's: diagnosing it as this one's would tell to
					// tag it into this cluster or point its user data here
					if out[i].other, out[i].source = snapshot.OtherClusterOf(ev.Instance.Tags, ev.Bootstrap, of, endpoint, ca); out[i].other != "" {
						continue
					}
				}
				// the snapshot's problems are added once every file was decoded (below)
				out[i].report = diagnose(reg, selected, ev, nil, denied).ForFleet()
			}
		}()
	}
	for i := range ids {
		next <- i
	}
	close(next)
	wg.Wait()
	// Files are decoded (and found damaged) on first use: every instance's report lists the
	// problems of the whole snapshot, known now, whichever instance met them first.
	problems := snapshotProblems(snap)
	partial := false
	for i, o := range out {
		if o.err != nil {
			return nil, false, inputErr("%v", o.err)
		}
		if fleet.Cluster == "" {
			fleet.Cluster = o.cluster
		}
		if fleet.NodesUnread == "" && !o.joined {
			// a kube/nodes.json of single Nodes (kubectl get node NAME) shows those Nodes
			// only: the other instances have no Node known, as when the list is unread
			fleet.NodesUnread = o.nodes
		}
		if o.joined {
			fleet.Joined = append(fleet.Joined, ids[i])
		}
		if o.ended != nil {
			fleet.Ended = append(fleet.Ended, *o.ended)
		}
		if o.other != "" {
			fleet.OtherCluster = append(fleet.OtherCluster, report.OtherClusterInstance{InstanceID: ids[i], Cluster: o.other, Source: o.source})
		}
		if o.report == nil {
			continue
		}
		partial = partial || len(o.report.DeniedPermissions) > 0 || len(failedCallProblems(problems)) > 0
		o.report.InputProblems = append(append([]report.InputProblem{}, problems...), o.report.InputProblems...)
		fleet.Instances = append(fleet.Instances, o.report)
	}
	fleet.Unlisted = unlisted(snap, ids)
	if why := snap.InstancesCut(); why != "" {
		fleet.Incomplete = why + ": the instances on the pages not read were not judged"
	}
	fleet.Summarize()
	return fleet, partial, nil
}

// endedOnPurpose reports whether inst is terminated or shutting down by an EC2 API call
// (StateReason Client.UserInitiatedShutdown: "The instance was shut down using the Amazon EC2
// API", a user or Auto Scaling) or a Spot interruption (Server.SpotInstanceTermination,
// Server.SpotInstanceShutdown) — the EC2 StateReason codes of botocore's ec2 model. Another
// reason (Client.InternalError of an EBS KMS key, Client.VolumeLimitExceeded,
// Server.InternalError, Client.InstanceInitiatedShutdown) or none is not: it may be why the node
// never joined.
func endedOnPurpose(inst *evidence.Instance) bool {
	if inst.State != "terminated" && inst.State != "shutting-down" {
		return false
	}
	code, _, _ := strings.Cut(inst.StateReason, ":")
	switch strings.TrimSpace(code) {
	case "Client.UserInitiatedShutdown", "Server.SpotInstanceTermination", "Server.SpotInstanceShutdown":
		return true
	}
	return false
}

// unlisted returns the instances the snapshot's manifest names that are not among ids (those
// of ec2/describe-instances.json), sorted and without repeats.
func unlisted(snap *snapshot.Snapshot, ids []string) []string {
	if snap.Manifest == nil {
		return nil
	}
	have := make(map[string]bool, len(ids))
	for _, id := range ids {
		have[id] = true
	}
	var out []string
	for _, id := range snap.Manifest.InstanceIDs {
		if id = strings.TrimSpace(id); id != "" && !have[id] {
			have[id] = true
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

func orUnknownCluster(c string) string {
	if c == "" {
		return "(not named)"
	}
	return c
}
