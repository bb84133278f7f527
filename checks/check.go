// Package checks holds the registry of independent checks that judge Evidence, the runner that
// executes them, and the diagnosis that ranks their findings.
//
// A check is pure: Eval reads *evidence.Evidence and returns findings. It performs no I/O,
// reads no clock (time comes from Evidence.CollectedAt) and touches no globals. Metadata (title,
// severity, why it blocks the join, remediation, documentation links) lives beside it in Meta
// and is copied into every finding by the runner.
package checks

import (
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// Status is the verdict of one finding.
type Status string

// Statuses, in JSON as "fail", "warn", "pass", "skipped", "error".
const (
	StatusFail    Status = "fail"
	StatusWarn    Status = "warn"
	StatusPass    Status = "pass"
	StatusSkipped Status = "skipped"
	StatusError   Status = "error"
)

// Severity says how badly a failing finding hurts the node (docs/checks-catalog.md):
// critical = cannot join or become Ready; high = joins but broken for common work;
// medium = fragile; low = advice.
type Severity string

// Severities.
const (
	SeverityCritical Severity = "critical"
	SeverityHigh     Severity = "high"
	SeverityMedium   Severity = "medium"
	SeverityLow      Severity = "low"
)

// Rank orders severities: critical 4 … low 1, unknown 0.
func (s Severity) Rank() int {
	switch s {
	case SeverityCritical:
		return 4
	case SeverityHigh:
		return 3
	case SeverityMedium:
		return 2
	case SeverityLow:
		return 1
	}
	return 0
}

// Meta describes a check. Every field but Explains and Optional is required; the Registry
// rejects incomplete metadata.
type Meta struct {
	// ID is the catalog ID, "area.slug" (docs/checks-catalog.md).
	ID       string
	Title    string
	Severity Severity
	// Needs lists the evidence kinds without which the check cannot judge; when one is
	// missing the runner reports skipped with the gap's reason.
	Needs []evidence.Kind
	// NeedsAny lists kinds of which at least one must be present (a check that judges either
	// the cluster side or the node's own logs); when none is, the runner reports skipped.
	NeedsAny []evidence.Kind
	// Optional lists kinds the check uses when present (it still judges without them).
	Optional []evidence.Kind
	// Why explains why a failure blocks the node from joining (or hurts it once joined).
	Why string
	// Remediation says what to do, with the exact CLI or console fix.
	Remediation string
	// Docs are AWS / Kubernetes documentation URLs backing the check.
	Docs []string
	// Stage orders checks along the join sequence (instance, identity, bootstrap, network,
	// authentication, certificates, post-join); lower runs earlier in the chain and ranks
	// first among equally severe, equally corroborated causes.
	Stage int
	// Explains lists IDs (or "area.*" patterns) of findings this check's failure causes;
	// when both fail, this one is the cause and the other is a symptom.
	Explains []string
	// ClusterWide marks checks that also judge the cluster as a whole, on evidence without an
	// instance (eksdoctor scan runs them once for the cluster).
	ClusterWide bool
	// AppliesTo lists the provisioner kinds (evidence.Provisioner*) whose nodes the check judges;
	// empty means every kind. When the target's provisioner is known and not listed, the runner
	// reports the check skipped as not applicable, naming the provisioner.
	AppliesTo []string
}

// Join-sequence stages for Meta.Stage.
const (
	StageCluster   = 10
	StageInstance  = 20
	StageIdentity  = 30
	StageBootstrap = 40
	StageNetwork   = 50
	StageAuth      = 60
	StageCerts     = 70
	StagePostJoin  = 80
)

// EvidenceItem quotes one fact a finding relied on.
type EvidenceItem struct {
	// Source is where the fact came from, e.g. "snapshot:iam/get-role/NodeRole.json".
	Source string `json:"source"`
	// Text quotes or summarises the fact.
	Text string `json:"text"`
}

// Finding is one verdict of one check about one resource.
type Finding struct {
	ID       string   `json:"id"`
	Status   Status   `json:"status"`
	Severity Severity `json:"severity"`
	// Resource names what was judged: an ARN, ID or node name.
	Resource string `json:"resource"`
	// Message is specific to this evidence ("node role eks-node lacks AmazonEKSWorkerNodePolicy").
	Message  string         `json:"message"`
	Evidence []EvidenceItem `json:"evidence"`
	// Why and Remediation are copied from the check's Meta by the runner (a check may write a
	// Remediation for the finding itself); the runner then replaces the remediation's
	// placeholders (CLUSTER, ROLE_ARN …) with the values the evidence holds.
	Why         string `json:"why,omitempty"`
	Remediation string `json:"remediation,omitempty"`
	// Docs are the check's Meta.Docs, after any a check wrote for the finding itself (the
	// guide of the fix it gave).
	Docs []string `json:"docs"`
	// Symptom marks a failure that only restates that nodes did not join — a managed node
	// group's NodeCreationFailure ("Instances failed to join the kubernetes cluster",
	// https://docs.aws.amazon.com/eks/latest/APIReference/API_Issue.html), a NodeClaim whose node
	// never registered — without naming why. Judge calls a run whose only failures are symptoms
	// inconclusive, not cause-found. Not written to reports.
	Symptom bool `json:"-"`
	// ExplainedBy lists the findings whose failure, from any evidence, explains every log line
	// of this failure: the causes all its failing signature hits name (consequenceOf) — an EC2
	// API retried until nodeadm gave up, when the route tables show the subnet has no route
	// out. Diagnose ranks the failure after such a cause, as with Meta.Explains. Not written
	// to reports.
	ExplainedBy []string `json:"-"`
}

// Check is one registered check.
type Check struct {
	Meta Meta
	// Eval judges the evidence. It is called only when every kind in Meta.Needs is present.
	// It returns at least one finding; a check with nothing to judge returns a skipped
	// finding saying why it does not apply.
	Eval func(ev *evidence.Evidence) []Finding
	// Partial, when set, judges from other or partial evidence when a kind in Meta.Needs is
	// missing (a paste without the instance) or Eval judged nothing (every finding skipped):
	// its findings are reported instead of the skip; nil or no finding keeps the logs'
	// testimony and the skip.
	Partial func(ev *evidence.Evidence) []Finding
}

// Result helpers used by checks: they fill only what the check knows; the runner adds the rest.

// fail returns a failing finding.
func fail(resource, msg string, ev ...EvidenceItem) Finding {
	return Finding{Status: StatusFail, Resource: resource, Message: msg, Evidence: ev}
}

// warn returns a warning finding.
func warn(resource, msg string, ev ...EvidenceItem) Finding {
	return Finding{Status: StatusWarn, Resource: resource, Message: msg, Evidence: ev}
}

// pass returns a passing finding.
func pass(resource, msg string, ev ...EvidenceItem) Finding {
	return Finding{Status: StatusPass, Resource: resource, Message: msg, Evidence: ev}
}

// notApplicable returns a skipped finding for a check that does not apply to this target.
func notApplicable(resource, why string) Finding {
	return Finding{Status: StatusSkipped, Resource: resource, Message: "not applicable: " + why}
}

// one wraps a single finding.
func one(f Finding) []Finding { return []Finding{f} }

// item builds an EvidenceItem.
func item(source, format string, args ...any) EvidenceItem {
	return EvidenceItem{Source: source, Text: sprintf(format, args...)}
}
