// Package report turns findings into the outputs users read: a terminal table, JSON with a
// versioned schema (eksdoctor/v1) and Markdown for tickets.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/netpath"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// SchemaVersion identifies the JSON contract. Fields may be added within a version; none are
// removed or renamed.
const SchemaVersion = "eksdoctor/v1"

// The kinds of JSON document, each described by a JSON Schema in docs/schema (KIND.json).
const (
	KindReport = "report"
	KindFleet  = "fleet"
	KindScan   = "scan"
)

// Report is one diagnosis, as rendered to JSON.
type Report struct {
	SchemaVersion string `json:"schemaVersion"`
	// Kind is "report": one target's diagnosis (docs/schema/report.json).
	Kind   string          `json:"kind" jsonschema:"enum=report"`
	Target evidence.Target `json:"target"`
	// CollectedAt is RFC 3339 UTC, empty when the evidence does not say.
	CollectedAt string           `json:"collectedAt,omitempty"`
	Diagnosis   Diagnosis        `json:"diagnosis"`
	Findings    []checks.Finding `json:"findings"`
	// Gaps lists evidence that could not be collected, with the reason.
	Gaps []evidence.Gap `json:"gaps"`
	// InputProblems lists input files that were skipped or did not parse.
	InputProblems []InputProblem `json:"inputProblems"`
	// DeniedPermissions lists the IAM actions (or Kubernetes permissions) that were denied
	// while collecting; the checks needing their evidence are skipped.
	DeniedPermissions []string `json:"deniedPermissions"`
	// Paths are the network flows a joining node needs, hop by hop (reachable, blocked, unknown).
	Paths   []netpath.Flow `json:"paths"`
	Summary Summary        `json:"summary"`
	// Timeline is the join sequence the node's own logs show (bundle, console output, paste);
	// absent without node logs.
	Timeline *Timeline `json:"timeline,omitempty"`
	// Warnings say what may make the report misleading: a bundle cross-checked with a snapshot
	// that does not hold its instance, or collected far apart.
	Warnings []string `json:"warnings,omitempty"`
}

// Diagnosis is checks.Diagnosis with mostLikelyCause null when nothing fails.
type Diagnosis struct {
	// Verdict is cause-found, no-cause-found, inconclusive or joined (checks.Judge).
	Verdict         checks.Verdict `json:"verdict"`
	MostLikelyCause *string        `json:"mostLikelyCause" jsonschema:"nullable"`
	Resource        string         `json:"resource,omitempty"`
	Summary         string         `json:"summary"`
	Chain           []string       `json:"chain"`
	Ranked          []string       `json:"ranked"`
	// Unchecked lists the checks of the join path that could not run, with the reason
	// (checks.NotSelected for those the --checks selection left out).
	Unchecked []checks.Unchecked `json:"unchecked"`
	// Node is the target's Node when it joined.
	Node *checks.NodeState `json:"node,omitempty"`
}

// InputProblem is one unusable input file.
type InputProblem struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// Summary counts findings by status.
type Summary struct {
	Checks  int `json:"checks"`
	Fail    int `json:"fail"`
	Warn    int `json:"warn"`
	Pass    int `json:"pass"`
	Skipped int `json:"skipped"`
	Error   int `json:"error"`
}

// New assembles a report. checksRun is the number of checks evaluated. The network paths
// are evaluated from the same evidence (netpath is pure).
func New(ev *evidence.Evidence, findings []checks.Finding, d checks.Diagnosis, checksRun int, problems []InputProblem) *Report {
	r := &Report{SchemaVersion: SchemaVersion, Target: ev.Target, Findings: findings, Gaps: ev.Gaps(), InputProblems: problems}
	r.Paths = paths(ev, &r.InputProblems)
	r.Timeline = BuildTimeline(ev, findings)
	if r.Findings == nil {
		r.Findings = []checks.Finding{}
	}
	if r.InputProblems == nil {
		r.InputProblems = []InputProblem{}
	}
	if !ev.CollectedAt.IsZero() {
		r.CollectedAt = ev.CollectedAt.UTC().Format(time.RFC3339)
	}
	r.Diagnosis = Diagnosis{Verdict: d.Verdict, Resource: d.Resource, Summary: d.Summary, Chain: d.Chain, Ranked: d.Ranked, Unchecked: d.Unchecked, Node: d.Node}
	if r.Diagnosis.Unchecked == nil {
		r.Diagnosis.Unchecked = []checks.Unchecked{}
	}
	if d.MostLikelyCause != "" {
		id := d.MostLikelyCause
		r.Diagnosis.MostLikelyCause = &id
	}
	// Failing findings are listed in diagnosis order: the most likely cause first.
	rank := map[string]int{}
	for i, id := range d.Ranked {
		rank[id] = i
	}
	checks.SortFindings(r.Findings) // failing findings first
	n := 0
	for n < len(r.Findings) && r.Findings[n].Status == checks.StatusFail {
		n++
	}
	fails := r.Findings[:n]
	sort.SliceStable(fails, func(i, j int) bool { return rank[fails[i].ID] < rank[fails[j].ID] })
	r.Summary.Checks = checksRun
	for _, f := range findings {
		switch f.Status {
		case checks.StatusFail:
			r.Summary.Fail++
		case checks.StatusWarn:
			r.Summary.Warn++
		case checks.StatusPass:
			r.Summary.Pass++
		case checks.StatusSkipped:
			r.Summary.Skipped++
		case checks.StatusError:
			r.Summary.Error++
		}
	}
	return r
}

// paths evaluates the network flows; a failure of the model is reported, never a crash.
func paths(ev *evidence.Evidence, problems *[]InputProblem) (out []netpath.Flow) {
	defer func() {
		if r := recover(); r != nil {
			*problems = append(*problems, InputProblem{Path: "netpath", Problem: fmt.Sprintf("network path model failed: %v", r)})
			out = []netpath.Flow{}
		}
	}()
	if out = netpath.Analyze(ev); out == nil {
		out = []netpath.Flow{}
	}
	return out
}

// JSON writes the report as indented JSON.
func JSON(w io.Writer, r *Report) error {
	r.Kind = KindReport
	safe(r, false)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
