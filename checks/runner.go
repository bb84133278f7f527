package checks

import (
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// Run evaluates the checks against ev (deciding ev.Provisioner first when it is unknown and there is no instance) and returns their findings sorted by status (fail,
// error, warn, skipped, pass), severity, ID and resource. Remediations name the values the
// evidence holds in place of the catalog's placeholders (concretize). A check whose required evidence is
// missing yields one skipped finding with the gap's reason; a check that panics yields one
// error finding with the panic value; a check that returns nothing yields an error finding.
func Run(list []Check, ev *evidence.Evidence) []Finding {
	if ev.Provisioner.Kind == "" && ev.Instance == nil {
		// node bundles and pastes: decided from what they hold (a Node's compute-type label, a
		// NodeConfig with spec.hybrid); snapshots decide it when they build the evidence
		ev.Provisioner = evidence.DetectProvisioner(ev)
	}
	var out []Finding
	for _, c := range list {
		out = append(out, runOne(c, ev)...)
	}
	for i := range out {
		out[i].Remediation = concretize(out[i], ev)
	}
	SortFindings(out)
	return out
}

func runOne(c Check, ev *evidence.Evidence) (fs []Finding) {
	m := c.Meta
	if f, skip := notForProvisioner(m, ev); skip {
		return []Finding{f}
	}
	if f, skip := ignoredSource(m, ev); skip {
		return []Finding{f}
	}
	var missing []string
	for _, k := range m.Needs {
		if !ev.Have(k) {
			g := ev.GapFor(k)
			missing = append(missing, fmt.Sprintf("%s: %s", k, g.Reason))
		}
	}
	if len(m.NeedsAny) > 0 {
		var absent []string
		for _, k := range m.NeedsAny {
			if !ev.Have(k) {
				absent = append(absent, fmt.Sprintf("%s: %s", k, ev.GapFor(k).Reason))
			}
		}
		if len(absent) == len(m.NeedsAny) {
			missing = append(missing, absent...)
		}
	}
	resource := ev.Target.InstanceID
	// Checks judged from other evidence can also be judged from what the node's logs or a
	// tool's output testify (log signatures naming the check's ID).
	var t testimony
	if ev.Have(evidence.KindNodeLogs) && !readsLogs(m) {
		t = judgeTestimony(ev.NodeLogs, m.ID)
		if _, other := otherNodesLines(ev, t); other {
			t = testimony{} // another node's lines say nothing of the target
		}
	}
	if len(missing) > 0 && autoModeUserData(m, ev) {
		return []Finding{complete(m, Finding{Status: StatusSkipped, Resource: resource,
			Message: "not applicable: EKS Auto Mode manages the node's user data (" + ev.Provisioner.Because + "), so there is no bootstrap configuration of the user's to judge"})}
	}
	if len(missing) > 0 {
		if fs := partial(c, ev); len(fs) > 0 {
			return completeAll(m, fs, resource)
		}
		if t.state != testimonyNone {
			return completeAll(m, testimonyFindings(m.ID, t, ev.NodeLogs, targetName(ev), ev.Source(evidence.KindNodeLogs)), resource)
		}
		return []Finding{complete(m, Finding{Status: StatusSkipped, Resource: resource,
			Message: "missing evidence: " + strings.Join(missing, "; ")})}
	}
	defer func() {
		if r := recover(); r != nil {
			stack := string(debug.Stack())
			if len(stack) > 600 {
				stack = stack[:600]
			}
			fs = []Finding{complete(m, Finding{Status: StatusError, Resource: resource,
				Message:  fmt.Sprintf("check panicked: %v", r),
				Evidence: []EvidenceItem{{Source: "eksdoctor", Text: stack}}})}
		}
	}()
	res := c.Eval(ev)
	if len(res) == 0 {
		return []Finding{complete(m, Finding{Status: StatusError, Resource: resource, Message: "check returned no finding"})}
	}
	if t.state == testimonyFailing {
		tf := testimonyFindings(m.ID, t, ev.NodeLogs, targetName(ev), ev.Source(evidence.KindNodeLogs))
		res = append(res, weighTestimony(m.ID, res, t, ev, tf)...)
	}
	if !slices.ContainsFunc(res, func(f Finding) bool { return f.Status != StatusSkipped }) {
		// the check's own evidence judged nothing (logs without a line of the component)
		if fs := partial(c, ev); len(fs) > 0 {
			return completeAll(m, fs, resource)
		}
	}
	return completeAll(m, res, resource)
}

// completeAll fills metadata and the default resource into every finding.
func completeAll(m Meta, res []Finding, resource string) []Finding {
	for i := range res {
		if res[i].Resource == "" {
			res[i].Resource = resource
		}
		res[i] = complete(m, res[i])
	}
	return res
}

// readsLogs reports whether the check judges node logs itself (runtime.* checks).
func readsLogs(m Meta) bool {
	for _, k := range append(append([]evidence.Kind(nil), m.Needs...), m.NeedsAny...) {
		if k == evidence.KindNodeLogs {
			return true
		}
	}
	return false
}

func complete(m Meta, f Finding) Finding {
	f.ID = m.ID
	f.Severity = m.Severity
	if f.Evidence == nil {
		f.Evidence = []EvidenceItem{}
	}
	if f.Status == StatusFail || f.Status == StatusWarn || f.Status == StatusError {
		f.Why = m.Why
		if f.Remediation == "" { // a check may write a remediation for this very finding
			f.Remediation = m.Remediation
		}
	}
	// a check may name docs for this very finding: they come first, then the check's own
	docs := append([]string(nil), f.Docs...)
	for _, d := range m.Docs {
		if !slices.Contains(docs, d) {
			docs = append(docs, d)
		}
	}
	f.Docs = docs
	return f
}

func statusRank(s Status) int {
	switch s {
	case StatusFail:
		return 0
	case StatusError:
		return 1
	case StatusWarn:
		return 2
	case StatusSkipped:
		return 3
	}
	return 4
}

// SortFindings orders findings deterministically (see Run).
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if statusRank(a.Status) != statusRank(b.Status) {
			return statusRank(a.Status) < statusRank(b.Status)
		}
		if a.Severity.Rank() != b.Severity.Rank() {
			return a.Severity.Rank() > b.Severity.Rank()
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Resource < b.Resource
	})
}

func sprintf(format string, args ...any) string {
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// ignoredSource returns the not-applicable finding of a check that judges an identity mapping
// source the cluster's authenticationMode ignores: aws-auth under API, access entries under
// CONFIG_MAP (https://docs.aws.amazon.com/eks/latest/userguide/grant-k8s-access.html#set-cam).
// A source that was not collected then leaves no gap: nothing the node needs is in it.
func ignoredSource(m Meta, ev *evidence.Evidence) (Finding, bool) {
	if !ev.Have(evidence.KindCluster) || ev.Cluster == nil {
		return Finding{}, false
	}
	var src evidence.Kind
	switch ev.Cluster.AuthenticationMode {
	case "API":
		src = evidence.KindAWSAuth
	case "CONFIG_MAP":
		src = evidence.KindAccessEntries
	default:
		return Finding{}, false
	}
	if !containsKindList(m.Needs, src) {
		return Finding{}, false
	}
	why := fmt.Sprintf("not applicable: authenticationMode %s ignores %s", ev.Cluster.AuthenticationMode, src)
	return complete(m, Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Message: why}), true
}

// autoModeUserData reports whether check m lacks only the node's user data or bootstrap
// configuration on an EKS Auto Mode node: Auto Mode builds and manages its nodes' launch
// templates and user data, and its NodeClass has no user data field
// (https://docs.aws.amazon.com/eks/latest/userguide/create-node-class.html), so there is nothing
// of the user's to read (red team 11a #13).
func autoModeUserData(m Meta, ev *evidence.Evidence) bool {
	if ev.Provisioner.Kind != evidence.ProvisionerAutoMode {
		return false
	}
	needs := false
	for _, k := range m.Needs {
		if ev.Have(k) {
			continue
		}
		if k != evidence.KindBootstrap && k != evidence.KindUserData {
			return false
		}
		needs = true
	}
	// a check that judges the user data or, without it, an EC2NodeClass's (Auto Mode has none)
	anyUserData, absent := false, 0
	for _, k := range m.NeedsAny {
		if !ev.Have(k) {
			absent++
		}
		anyUserData = anyUserData || k == evidence.KindBootstrap || k == evidence.KindUserData
	}
	if len(m.NeedsAny) > 0 && absent == len(m.NeedsAny) {
		needs = needs || anyUserData
	}
	return needs
}

// notForProvisioner returns the not-applicable finding of a check whose Meta.AppliesTo does not
// list the target's provisioner (a nodegroup.* check on a Karpenter node).
func notForProvisioner(m Meta, ev *evidence.Evidence) (Finding, bool) {
	p := ev.Provisioner
	if p.Kind == "" || len(m.AppliesTo) == 0 {
		return Finding{}, false
	}
	for _, k := range m.AppliesTo {
		if k == p.Kind {
			return Finding{}, false
		}
	}
	res := ev.Target.InstanceID
	if res == "" && ev.Target.NodeClaim != "" {
		res = "nodeclaim/" + ev.Target.NodeClaim
	}
	why := fmt.Sprintf("not applicable: the node was provisioned by %s (%s); %s judges only %s nodes", p.Kind, p.Because, m.ID, strings.Join(m.AppliesTo, ", "))
	return complete(m, Finding{Status: StatusSkipped, Resource: res, Message: why}), true
}

// partial runs c.Partial, if any; a panic in it is no finding (the missing-evidence skip stands).
func partial(c Check, ev *evidence.Evidence) (fs []Finding) {
	if c.Partial == nil {
		return nil
	}
	defer func() {
		if recover() != nil {
			fs = nil
		}
	}()
	return c.Partial(ev)
}
