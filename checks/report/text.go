package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/netpath"
	"github.com/fatih/color"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// TextOptions control the terminal rendering.
type TextOptions struct {
	// Color enables ANSI colours (off for pipes, NO_COLOR and --no-color).
	Color bool
	// All shows passing and skipped findings too.
	All bool
	// Width is the terminal width in columns (0 = 120).
	Width int
}

type painter struct{ on bool }

func (p painter) paint(s string, attrs ...color.Attribute) string {
	if !p.on {
		return s
	}
	c := color.New(attrs...)
	c.EnableColor()
	return c.Sprint(s)
}

func (p painter) status(s checks.Status) string {
	switch s {
	case checks.StatusFail:
		return p.paint("FAIL", color.FgRed, color.Bold)
	case checks.StatusError:
		return p.paint("ERROR", color.FgMagenta, color.Bold)
	case checks.StatusWarn:
		return p.paint("WARN", color.FgYellow)
	case checks.StatusPass:
		return p.paint("PASS", color.FgGreen)
	}
	return p.paint("SKIP", color.Faint)
}

// Text writes the human report: the diagnosis first, then a table of findings, then details
// (evidence, why, fix) for each failing or warning finding.
func Text(w io.Writer, r *Report, metas map[string]checks.Meta, o TextOptions) error {
	safe(r, true)
	p := painter{on: o.Color}
	width := o.Width
	if width <= 0 {
		width = 120
	}
	t := r.Target
	subject := t.InstanceID
	if subject == "" {
		subject = "the node" // a bundle or artefact that does not name its instance
	}
	fmt.Fprintf(w, "%s %s", p.paint("eksdoctor: why not joining —", color.Bold), subject)
	if t.Cluster != "" {
		fmt.Fprintf(w, "  cluster %s (%s)", t.Cluster, t.ClusterSource)
	}
	if t.Region != "" {
		fmt.Fprintf(w, "  region %s", t.Region)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "evidence: %s", t.Source)
	if r.CollectedAt != "" {
		fmt.Fprintf(w, ", collected %s", r.CollectedAt)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)

	d := r.Diagnosis
	cause := func(label string) {
		fmt.Fprintf(w, "%s %s\n", p.paint(label, color.FgRed, color.Bold), p.paint(*d.MostLikelyCause, color.Bold))
		top := findFinding(r.Findings, *d.MostLikelyCause)
		fmt.Fprintf(w, "  %s\n", top.Message)
		if top.Why != "" {
			fmt.Fprintf(w, "  why:  %s\n", top.Why)
		}
		if top.Remediation != "" {
			fmt.Fprintf(w, "  fix:  %s\n", top.Remediation)
		}
		if len(d.Chain) > 0 {
			fmt.Fprintf(w, "  this also explains: %s\n", strings.Join(d.Chain, ", "))
		}
	}
	switch d.Verdict {
	case checks.VerdictJoined:
		state, c := "Ready", color.FgGreen
		if d.Node != nil && !d.Node.Ready {
			state, c = "NotReady", color.FgRed
		}
		name := "The node"
		if d.Node != nil && d.Node.Name != "" {
			name = "Node " + d.Node.Name
		}
		fmt.Fprintf(w, "%s %s joined the cluster and is %s.\n", p.paint("Joined:", c, color.Bold), name, state)
		if d.Node != nil {
			fmt.Fprintf(w, "  seen: %s\n", d.Node.Evidence)
		}
		if d.MostLikelyCause != nil {
			if d.Node != nil && !d.Node.Ready {
				cause("Why it is not Ready:")
			} else {
				cause("Other problem:")
			}
		}
	case checks.VerdictCauseFound:
		cause("Most likely cause:")
	case checks.VerdictNoCauseFound:
		fmt.Fprintln(w, p.paint("No cause found.", color.FgGreen, color.Bold), "Every check of the join path ran and none failed.")
	default:
		fmt.Fprintln(w, p.paint("Inconclusive.", color.FgYellow, color.Bold), "No check failed, but these checks of the join path could not run:")
		for _, g := range groupUnchecked(d.Unchecked) {
			fmt.Fprintf(w, "  %s\n    %s\n", g.reason, strings.Join(g.ids, ", "))
		}
	}
	fmt.Fprintln(w)

	var rows [][]string
	for _, f := range r.Findings {
		if !o.All && (f.Status == checks.StatusPass || f.Status == checks.StatusSkipped) {
			continue
		}
		rows = append(rows, []string{p.status(f.Status), string(f.Severity), f.ID, f.Resource, f.Message})
	}
	if len(rows) > 0 {
		tbl := tablewriter.NewTable(w,
			tablewriter.WithMaxWidth(width),
			tablewriter.WithRowAutoWrap(tw.WrapNormal),
			tablewriter.WithHeaderAutoFormat(tw.Off),
			tablewriter.WithRowAlignment(tw.AlignLeft),
			tablewriter.WithHeaderAlignment(tw.AlignLeft),
		)
		tbl.Header("STATUS", "SEVERITY", "CHECK", "RESOURCE", "MESSAGE")
		for _, row := range rows {
			if err := tbl.Append(row); err != nil {
				return err
			}
		}
		if err := tbl.Render(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}

	if len(r.Paths) > 0 {
		fmt.Fprintln(w, p.paint("Network paths", color.Bold))
		for _, f := range r.Paths {
			v := string(f.Verdict)
			switch f.Verdict {
			case netpath.Blocked:
				v = p.paint("blocked", color.FgRed)
			case netpath.Unknown:
				v = p.paint("unknown", color.FgYellow)
			default:
				v = p.paint("ok", color.FgGreen)
			}
			line := fmt.Sprintf("  %-10s %-8s %s", f.Name, v, f.Destination)
			if f.Verdict != netpath.Reachable {
				line += "  — " + netpath.Summary(f)
			}
			fmt.Fprintln(w, line)
		}
		fmt.Fprintln(w)
	}

	detailed := false
	for _, f := range r.Findings {
		if f.Status != checks.StatusFail && f.Status != checks.StatusWarn && f.Status != checks.StatusError {
			continue
		}
		if !detailed {
			fmt.Fprintln(w, p.paint("Details", color.Bold))
			detailed = true
		}
		fmt.Fprintf(w, "%s %s  %s\n", p.status(f.Status), p.paint(f.ID, color.Bold), metas[f.ID].Title)
		fmt.Fprintf(w, "  resource: %s\n", f.Resource)
		fmt.Fprintf(w, "  seen:     %s\n", f.Message)
		for _, e := range f.Evidence {
			fmt.Fprintf(w, "            - %s  [%s]\n", e.Text, e.Source)
		}
		fmt.Fprintf(w, "  fix:      %s\n", f.Remediation)
		fmt.Fprintf(w, "  docs:     %s\n\n", strings.Join(f.Docs, " "))
	}
	if len(r.Gaps) > 0 {
		fmt.Fprintln(w, p.paint("Evidence not available", color.Bold))
		for _, g := range r.Gaps {
			fmt.Fprintf(w, "  %-24s %s\n", g.Kind, g.Reason)
		}
		fmt.Fprintln(w)
	}
	if len(r.DeniedPermissions) > 0 {
		fmt.Fprintf(w, "%s %s (the checks needing them were skipped; see eksdoctor iam-policy)\n\n", p.paint("Permissions denied:", color.FgYellow, color.Bold), strings.Join(r.DeniedPermissions, ", "))
	}
	for _, ip := range r.InputProblems {
		fmt.Fprintf(w, "input problem: %s: %s\n", ip.Path, ip.Problem)
	}
	s := r.Summary
	fmt.Fprintf(w, "%d checks: %s, %s, %d passed, %d skipped, %d errors", s.Checks,
		p.paint(fmt.Sprintf("%d failed", s.Fail), color.FgRed), p.paint(fmt.Sprintf("%d warnings", s.Warn), color.FgYellow), s.Pass, s.Skipped, s.Error)
	if !o.All && s.Pass+s.Skipped > 0 {
		fmt.Fprint(w, " (--all shows passes and skips)")
	}
	fmt.Fprintln(w)
	return nil
}

func findFinding(fs []checks.Finding, id string) checks.Finding {
	for _, f := range fs {
		if f.ID == id && f.Status == checks.StatusFail {
			return f
		}
	}
	return checks.Finding{ID: id}
}

// Markdown writes the report for pasting into a ticket.
func Markdown(w io.Writer, r *Report, metas map[string]checks.Meta) error {
	safe(r, true)
	t := r.Target
	fmt.Fprintf(w, "## eksdoctor: why is `%s` not joining `%s`?\n\n", t.InstanceID, t.Cluster)
	fmt.Fprintf(w, "- evidence: `%s`", t.Source)
	if r.CollectedAt != "" {
		fmt.Fprintf(w, ", collected %s", r.CollectedAt)
	}
	fmt.Fprintf(w, "\n- region: %s\n\n", orDash(t.Region))
	switch d := r.Diagnosis; {
	case d.Verdict == checks.VerdictJoined && d.Node != nil:
		state := "Ready"
		if !d.Node.Ready {
			state = "NotReady"
		}
		fmt.Fprintf(w, "**Joined:** %s joined the cluster and is %s (%s).\n\n", orDash(d.Node.Name), state, mdEscape(d.Node.Evidence))
	case d.Verdict == checks.VerdictNoCauseFound:
		fmt.Fprintf(w, "**No cause found.** Every check of the join path ran and none failed.\n\n")
	case d.Verdict == checks.VerdictInconclusive:
		fmt.Fprintf(w, "**Inconclusive.** No check failed, but these checks of the join path could not run:\n\n")
		for _, g := range groupUnchecked(d.Unchecked) {
			fmt.Fprintf(w, "- %s: %s\n", mdEscape(g.reason), strings.Join(g.ids, ", "))
		}
		fmt.Fprintln(w)
	}
	if r.Diagnosis.MostLikelyCause != nil {
		top := findFinding(r.Findings, *r.Diagnosis.MostLikelyCause)
		fmt.Fprintf(w, "**Most likely cause: `%s`** — %s\n\n", top.ID, mdEscape(top.Message))
		fmt.Fprintf(w, "- Why: %s\n- Fix: %s\n", mdEscape(top.Why), mdEscape(top.Remediation))
		if len(r.Diagnosis.Chain) > 0 {
			fmt.Fprintf(w, "- Also explains: %s\n", strings.Join(r.Diagnosis.Chain, ", "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "| Status | Severity | Check | Resource | Message |\n|---|---|---|---|---|\n")
	for _, f := range r.Findings {
		if f.Status == checks.StatusPass || f.Status == checks.StatusSkipped {
			continue
		}
		fmt.Fprintf(w, "| %s | %s | `%s` | `%s` | %s |\n", f.Status, f.Severity, f.ID, mdEscape(f.Resource), mdEscape(f.Message))
	}
	fmt.Fprintln(w)
	for _, f := range r.Findings {
		if f.Status != checks.StatusFail && f.Status != checks.StatusWarn && f.Status != checks.StatusError {
			continue
		}
		fmt.Fprintf(w, "### `%s` — %s\n\n", f.ID, metas[f.ID].Title)
		for _, e := range f.Evidence {
			fmt.Fprintf(w, "- %s (`%s`)\n", mdEscape(e.Text), e.Source)
		}
		fmt.Fprintf(w, "\n**Fix:** %s\n\n", mdEscape(f.Remediation))
	}
	s := r.Summary
	fmt.Fprintf(w, "_%d checks: %d failed, %d warnings, %d passed, %d skipped, %d errors._\n", s.Checks, s.Fail, s.Warn, s.Pass, s.Skipped, s.Error)
	return nil
}

func mdEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

type uncheckedGroup struct {
	reason string
	ids    []string
}

// groupUnchecked groups the unchecked checks by the reason they could not run, in the order
// reasons first appear.
func groupUnchecked(us []checks.Unchecked) []uncheckedGroup {
	var out []uncheckedGroup
	idx := map[string]int{}
	for _, u := range us {
		i, ok := idx[u.Reason]
		if !ok {
			i = len(out)
			idx[u.Reason] = i
			out = append(out, uncheckedGroup{reason: u.Reason})
		}
		out[i].ids = append(out[i].ids, u.ID)
	}
	return out
}
