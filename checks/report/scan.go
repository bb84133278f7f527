package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/fatih/color"
)

// Scan is the report of `eksdoctor scan`: cluster-wide findings once, then the diagnosis of
// every instance of the cluster that has not joined.
type Scan struct {
	SchemaVersion string `json:"schemaVersion"`
	// Kind is "scan": a cluster's cluster-wide findings and its fleet (docs/schema/scan.json).
	Kind    string `json:"kind" jsonschema:"enum=scan"`
	Cluster string `json:"cluster"`
	Source  string `json:"source"`
	// CollectedAt is RFC 3339 UTC (the evidence time).
	CollectedAt string `json:"collectedAt,omitempty"`
	// DurationSeconds is how long the scan took (wall clock).
	DurationSeconds float64          `json:"durationSeconds"`
	ClusterFindings []checks.Finding `json:"clusterFindings"`
	// ClusterInconclusive says why the cluster side (its Kubernetes API) could not be read —
	// the Nodes list holds an error instead of Nodes (API unreachable, credentials or CA
	// refused, listing denied) — so the cluster-side checks could not run and nothing shows
	// which instances joined; "" when it was read. The same text is in Errors ("cluster: …").
	ClusterInconclusive string `json:"clusterInconclusive,omitempty"`
	Fleet               *Fleet `json:"fleet"`
	// DeniedPermissions lists the permissions refused while collecting.
	DeniedPermissions []string `json:"deniedPermissions"`
	// Errors lists what went wrong outside the checks (publishing, collection).
	Errors  []string    `json:"errors"`
	Summary ScanSummary `json:"summary"`
}

// ScanSummary counts the scan's results.
type ScanSummary struct {
	ClusterFail int `json:"clusterFail"`
	ClusterWarn int `json:"clusterWarn"`
	// Unjoined counts instances without a Node object; absent when the cluster's Nodes could
	// not be read (Scan.ClusterInconclusive, Fleet.NodesUnread), so which instances have none is
	// unknown — NoNodeKnown counts them then, as the table's "N with no Node known" and the
	// metrics (no eksdoctor_unjoined_instances) say.
	Unjoined *int `json:"unjoined,omitempty"`
	// NoNodeKnown counts the instances diagnosed without a Node known when the Nodes could not be
	// read; absent when they were read.
	NoNodeKnown int `json:"noNodeKnown,omitempty"`
	// Failing counts instances with a failing check.
	Failing int `json:"failing"`
	Joined  int `json:"joined"`
}

// UnjoinedCount is Summary.Unjoined, 0 when unknown (the Nodes were not read).
func (s ScanSummary) UnjoinedCount() int {
	if s.Unjoined == nil {
		return 0
	}
	return *s.Unjoined
}

// Summarize fills Summary.
func (s *Scan) Summarize() {
	s.Summary = ScanSummary{Failing: s.Fleet.Summary.Failing, Joined: s.Fleet.Summary.Joined}
	if n := s.Fleet.Summary.Diagnosed - s.Fleet.Summary.NotReady; s.Fleet.NodesUnread != "" || s.ClusterInconclusive != "" {
		s.Summary.NoNodeKnown = n
	} else {
		s.Summary.Unjoined = &n
	}
	for _, f := range s.ClusterFindings {
		switch f.Status {
		case checks.StatusFail:
			s.Summary.ClusterFail++
		case checks.StatusWarn:
			s.Summary.ClusterWarn++
		}
	}
}

// ScanJSON writes the scan as indented JSON.
func ScanJSON(w io.Writer, s *Scan) error {
	s.Kind = KindScan
	if s.Fleet != nil {
		s.Fleet.setKinds()
	}
	return FleetJSONAny(w, s)
}

// ScanText writes the cluster findings, then one line per unjoined instance, fitting o.Width
// columns.
func ScanText(w io.Writer, s *Scan, o TextOptions) error {
	safe(s, true)
	p := painter{on: o.Color}
	width := o.Width
	if width <= 0 {
		width = DefaultWidth
	}
	if width < minWidth {
		width = minWidth
	}
	head := "cluster " + s.Cluster
	if s.Cluster == "" {
		head = "the cluster"
	}
	if s.Source != "" {
		head += " (evidence: " + s.Source + ")"
	}
	para(w, width, p.paint("eksdoctor scan", color.Bold)+" ", head)
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.paint("Cluster-wide", color.Bold))
	idW := 0
	for _, f := range s.ClusterFindings {
		if l := VisibleWidth(f.ID); (f.Status == checks.StatusFail || f.Status == checks.StatusWarn || f.Status == checks.StatusError) && l > idW {
			idW = l
		}
	}
	shown := 0
	for _, f := range s.ClusterFindings {
		if f.Status == checks.StatusFail || f.Status == checks.StatusWarn || f.Status == checks.StatusError {
			status := p.status(f.Status) + strings.Repeat(" ", 5-VisibleWidth(string(statusWord(f.Status))))
			para(w, width, "  "+status+" "+f.ID+strings.Repeat(" ", idW-VisibleWidth(f.ID))+"  ", f.Message)
			shown++
		}
	}
	switch {
	case s.ClusterInconclusive != "":
		// never "no cluster-wide problem" when the cluster could not be read
		para(w, width, "  ", "the cluster-side checks could not run: "+s.ClusterInconclusive)
	case shown == 0:
		fmt.Fprintln(w, "  no cluster-wide problem")
	}
	fmt.Fprintln(w)
	if err := FleetText(w, s.Fleet, o); err != nil {
		return err
	}
	for _, e := range s.Errors {
		para(w, width, "error: ", e)
	}
	return nil
}

// statusWord is the word the table shows for a status (FAIL, WARN …), uncoloured.
func statusWord(s checks.Status) string { return painter{}.status(s) }

// ScanMarkdown writes the scan for a ticket.
func ScanMarkdown(w io.Writer, s *Scan) error {
	safe(s, true)
	fmt.Fprintf(w, "## eksdoctor scan of %s\n\n", codeOr(s.Cluster, "the cluster"))
	header := false // no header-only table
	for _, f := range s.ClusterFindings {
		if f.Status == checks.StatusFail || f.Status == checks.StatusWarn || f.Status == checks.StatusError {
			if !header {
				fmt.Fprintf(w, "| Status | Check | Resource | Message |\n|---|---|---|---|\n")
				header = true
			}
			fmt.Fprintf(w, "| %s | `%s` | %s | %s |\n", f.Status, f.ID, mdCodeCell(f.Resource), mdEscape(f.Message))
		}
	}
	switch {
	case s.ClusterInconclusive != "":
		if header {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "**Inconclusive**: the cluster-side checks could not run: %s.\n", mdEscape(s.ClusterInconclusive))
	case !header:
		fmt.Fprintln(w, "No cluster-wide finding failed.")
	}
	fmt.Fprintln(w)
	// what went wrong outside the checks (a call that failed for good, a publication): in the
	// ticket as in every other format, never left to JSON alone
	var errs []string
	for _, e := range s.Errors {
		if !strings.HasPrefix(e, "cluster: ") { // ClusterInconclusive, said above
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		fmt.Fprintln(w, "**Errors**:")
		for _, e := range errs {
			fmt.Fprintf(w, "- %s\n", mdEscape(e))
		}
		fmt.Fprintln(w)
	}
	return FleetMarkdown(w, s.Fleet)
}

// ScanJUnit writes the scan as JUnit XML for CI pipelines: one suite for the cluster and one
// per unjoined instance (its verdict first, then its own findings: a cluster-wide result is in
// the cluster suite only); failing findings are failures, findings a check could not judge are
// errors, skips are skipped.
func ScanJUnit(w io.Writer, s *Scan) error {
	safe(s, true)
	out := junitSuites{Name: "eksdoctor scan " + s.Cluster, Time: fmt.Sprintf("%.3f", s.DurationSeconds)}
	out.Suites = append(out.Suites, suite("cluster "+s.Cluster, s.ClusterFindings, nil))
	clusterWide := map[string]bool{}
	for _, f := range s.ClusterFindings {
		clusterWide[f.ID+" "+f.Resource] = true
	}
	for _, r := range s.Fleet.Instances {
		out.Suites = append(out.Suites, reportSuite(r, clusterWide))
	}
	if s.Fleet.Incomplete != "" {
		out.Suites = append(out.Suites, errorSuite("instances not listed", []string{s.Fleet.Incomplete}))
	}
	if len(s.Errors) > 0 {
		out.Suites = append(out.Suites, errorSuite("scan errors", s.Errors))
	}
	return writeJUnit(w, out)
}

// ScanTimestamp returns CollectedAt as a time (zero when unknown).
func (s *Scan) ScanTimestamp() time.Time {
	t, _ := time.Parse(time.RFC3339, s.CollectedAt)
	return t
}
