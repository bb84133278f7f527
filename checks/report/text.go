package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/netpath"
	"github.com/fatih/color"
)

// TextOptions control the terminal rendering.
type TextOptions struct {
	// Color enables ANSI colours (off for pipes, NO_COLOR and --no-color).
	Color bool
	// All shows passing and skipped findings too.
	All bool
	// Width is the terminal width in columns (0 = DefaultWidth); every line of the text
	// output fits it.
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

// Text writes the human report: the diagnosis first, then the join timeline (node logs), a
// table of findings, the network paths, and details (evidence, why, fix) for each failing or
// warning finding; every line fits o.Width columns (DefaultWidth when 0).
func Text(w io.Writer, r *Report, metas map[string]checks.Meta, o TextOptions) error {
	safe(r, true)
	p := painter{on: o.Color}
	width := o.Width
	if width <= 0 {
		width = DefaultWidth
	}
	if width < minWidth {
		width = minWidth
	}
	t := r.Target
	subject := t.InstanceID
	if subject == "" {
		subject = "the node" // a bundle or artefact that does not name its instance
	}
	head := subject
	if t.Cluster != "" {
		head += "  cluster " + t.Cluster
		if t.ClusterSource != "" {
			head += " (" + t.ClusterSource + ")"
		}
	}
	if t.Region != "" {
		head += "  region " + t.Region
	}
	para(w, width, p.paint("eksdoctor: why not joining —", color.Bold)+" ", head)
	ev := "evidence: " + orDash(t.Source)
	if r.CollectedAt != "" {
		ev += ", collected " + r.CollectedAt
	}
	para(w, width, "", ev)
	for _, warning := range r.Warnings {
		para(w, width, p.paint("warning:", color.FgYellow, color.Bold)+" ", warning)
	}
	fmt.Fprintln(w)

	d := r.Diagnosis
	cause := func(label string) {
		para(w, width, p.paint(label, color.FgRed, color.Bold)+" ", p.paint(*d.MostLikelyCause, color.Bold))
		top := findFinding(r.Findings, *d.MostLikelyCause)
		para(w, width, "  ", top.Message)
		if top.Why != "" {
			para(w, width, "  why:  ", top.Why)
		}
		if top.Remediation != "" {
			para(w, width, "  fix:  ", top.Remediation)
		}
		if len(d.Chain) > 0 {
			para(w, width, "  this also explains: ", strings.Join(d.Chain, ", "))
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
		para(w, width, p.paint("Joined:", c, color.Bold)+" ", name+" joined the cluster and is "+state+".")
		if d.Node != nil && d.Node.Evidence != "" {
			para(w, width, "  seen: ", d.Node.Evidence)
		}
		if d.Node != nil && d.Node.Condition != "" {
			para(w, width, "  Ready condition: ", d.Node.Condition)
		}
		if d.MostLikelyCause != nil {
			if d.Node != nil && !d.Node.Ready {
				cause("Why it is not Ready:")
			} else {
				cause("Other problem:")
			}
		} else if d.Node != nil && !d.Node.Ready && len(d.Unchecked) > 0 {
			para(w, width, "Why it is not Ready: ", fmt.Sprintf("not found — %d checks could not run, for want of evidence (--all lists them); add the node's logs (kubelet, aws-node) or the AWS and cluster side (--snapshot).", len(d.Unchecked)))
		} else if d.Node != nil && !d.Node.Ready {
			// never an all-clear: nothing read says why the node is NotReady
			para(w, width, "Why it is not Ready: ", "not found — no check failed; the node's own logs (kubelet, container runtime, CNI) would show it: eksdoctor analyze BUNDLE --snapshot SNAP reads a node log bundle.")
		}
	case checks.VerdictCauseFound:
		cause("Most likely cause:")
	case checks.VerdictNoCauseFound:
		para(w, width, p.paint("No cause found.", color.FgGreen, color.Bold)+" ", "Every check of the join path ran and none failed.")
	default:
		if d.MostLikelyCause != nil {
			// only a symptom failed (checks.Judge): name it, then what could not be read
			para(w, width, p.paint("Inconclusive.", color.FgYellow, color.Bold)+" ", symptomOnly(d))
		} else if len(d.Unchecked) == 0 {
			// every check ran, but the Nodes were not read (checks.Conclude)
			para(w, width, p.paint("Inconclusive.", color.FgYellow, color.Bold)+" ", nodesUnseen(d))
		} else {
			para(w, width, p.paint("Inconclusive.", color.FgYellow, color.Bold)+" ", notRun(d))
		}
		for _, g := range groupUnchecked(d.Unchecked) {
			para(w, width, "  ", g.reason)
			para(w, width, "    ", nOf(len(g.ids), "check", "checks")+": "+shortIDs(g.ids, o.All))
		}
		if hint := uncheckedHint(d.Unchecked); hint != "" {
			para(w, width, "  ", hint)
		}
		if d.MostLikelyCause != nil {
			fmt.Fprintln(w)
			cause("Symptom:")
		}
	}
	fmt.Fprintln(w)

	if r.Timeline != nil {
		timelineText(w, r.Timeline, p, width)
		fmt.Fprintln(w)
	}

	// below 100 columns the severity column gives its room to the message (Details keep it)
	narrow := width < 100
	var rows [][]string
	for _, f := range r.Findings {
		if !o.All && (f.Status == checks.StatusPass || f.Status == checks.StatusSkipped) {
			continue
		}
		row := []string{p.status(f.Status), string(f.Severity), f.ID, f.Resource, f.Message}
		if narrow {
			row = append(row[:1], row[2:]...)
		}
		rows = append(rows, row)
	}
	if len(rows) > 0 {
		header := []string{"STATUS", "SEVERITY", "CHECK", "RESOURCE", "MESSAGE"}
		if narrow {
			header = append(header[:1], header[2:]...)
		}
		if err := table(w, width, header, rows, len(header)-1); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}

	if len(r.Paths) > 0 {
		fmt.Fprintln(w, p.paint("Network paths", color.Bold))
		nameW := 0
		for _, f := range r.Paths {
			if l := VisibleWidth(f.Name); l > nameW {
				nameW = l
			}
		}
		for _, f := range r.Paths {
			// pad before painting: escape sequences take no columns
			v := fmt.Sprintf("%-7s", "ok")
			switch f.Verdict {
			case netpath.Blocked:
				v = p.paint(fmt.Sprintf("%-7s", "blocked"), color.FgRed)
			case netpath.Unknown:
				v = p.paint(fmt.Sprintf("%-7s", "unknown"), color.FgYellow)
			default:
				v = p.paint(v, color.FgGreen)
			}
			first := "  " + f.Name + strings.Repeat(" ", nameW-VisibleWidth(f.Name)) + "  " + v + "  "
			text := f.Destination
			if f.Verdict != netpath.Reachable {
				text += " — " + netpath.Summary(f)
			}
			para(w, width, first, text)
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
		para(w, width, p.status(f.Status)+" "+p.paint(f.ID, color.Bold)+"  ", metas[f.ID].Title+" ("+string(f.Severity)+")")
		para(w, width, "  resource: ", orDash(f.Resource))
		para(w, width, "  seen:     ", f.Message)
		for _, e := range f.Evidence {
			para(w, width, "            - ", e.Text+"  ["+e.Source+"]")
		}
		if f.Remediation != "" {
			para(w, width, "  fix:      ", f.Remediation)
		}
		for i, doc := range f.Docs {
			label := "            "
			if i == 0 {
				label = "  docs:     "
			}
			para(w, width, label, doc)
		}
		fmt.Fprintln(w)
	}
	if len(r.Gaps) > 0 {
		fmt.Fprintln(w, p.paint("Evidence not available", color.Bold))
		if o.All {
			kindW := 0
			for _, g := range r.Gaps {
				if l := VisibleWidth(string(g.Kind)); l > kindW {
					kindW = l
				}
			}
			for _, g := range r.Gaps {
				para(w, width, "  "+string(g.Kind)+strings.Repeat(" ", kindW-VisibleWidth(string(g.Kind)))+"  ", g.Reason)
			}
		} else {
			for _, g := range groupGaps(r.Gaps) {
				para(w, width, "  ", gapSummary(g.kinds)+": "+g.reason)
			}
			if len(r.Gaps) > 1 {
				para(w, width, "  ", "(--all lists each evidence kind)")
			}
		}
		fmt.Fprintln(w)
	}
	if len(r.DeniedPermissions) > 0 {
		para(w, width, p.paint("Permissions denied:", color.FgYellow, color.Bold)+" ", strings.Join(r.DeniedPermissions, ", ")+" (the checks needing them were skipped; see eksdoctor iam-policy)")
		fmt.Fprintln(w)
	}
	for _, ip := range r.InputProblems {
		para(w, width, "input problem: ", ip.Path+": "+ip.Problem)
	}
	line := countLine(r.Findings)
	if !o.All && r.Summary.Pass+r.Summary.Skipped > 0 {
		line += " (--all shows passes and skips)"
	}
	para(w, width, "", line)
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
	subject, cluster := "the node", "its cluster"
	if t.InstanceID != "" {
		subject = mdCode(t.InstanceID)
	}
	if t.Cluster != "" {
		cluster = mdCode(t.Cluster)
	}
	fmt.Fprintf(w, "## eksdoctor: why is %s not joining %s?\n\n", subject, cluster)
	fmt.Fprintf(w, "- evidence: %s", mdCode(t.Source))
	if r.CollectedAt != "" {
		fmt.Fprintf(w, ", collected %s", mdEscape(r.CollectedAt))
	}
	fmt.Fprintf(w, "\n- region: %s\n", orDash(mdEscape(t.Region)))
	for _, warning := range r.Warnings {
		fmt.Fprintf(w, "- **warning:** %s\n", mdEscape(warning))
	}
	fmt.Fprintln(w)
	switch d := r.Diagnosis; {
	case d.Verdict == checks.VerdictJoined && d.Node != nil:
		state := "Ready"
		if !d.Node.Ready {
			state = "NotReady"
		}
		fmt.Fprintf(w, "**Joined:** %s joined the cluster and is %s (%s).\n\n", orDash(mdEscape(d.Node.Name)), state, mdEscape(d.Node.Evidence))
	case d.Verdict == checks.VerdictNoCauseFound:
		fmt.Fprintf(w, "**No cause found.** Every check of the join path ran and none failed.\n\n")
	case d.Verdict == checks.VerdictInconclusive && d.MostLikelyCause != nil:
		fmt.Fprintf(w, "**Inconclusive.** %s\n\n", symptomOnly(d))
		uncheckedMarkdown(w, d.Unchecked)
	case d.Verdict == checks.VerdictInconclusive && len(d.Unchecked) == 0:
		fmt.Fprintf(w, "**Inconclusive.** %s\n\n", mdEscape(nodesUnseen(d)))
	case d.Verdict == checks.VerdictInconclusive:
		fmt.Fprintf(w, "**Inconclusive.** %s\n\n", mdEscape(notRun(d)))
		uncheckedMarkdown(w, d.Unchecked)
	}
	if r.Diagnosis.MostLikelyCause != nil {
		top := findFinding(r.Findings, *r.Diagnosis.MostLikelyCause)
		label := "Most likely cause"
		if r.Diagnosis.Verdict == checks.VerdictInconclusive {
			label = "Symptom"
		}
		fmt.Fprintf(w, "**%s: `%s`** — %s\n\n", label, top.ID, mdEscape(top.Message))
		fmt.Fprintf(w, "- Why: %s\n- Fix: %s\n", mdEscape(top.Why), mdEscape(top.Remediation))
		if len(r.Diagnosis.Chain) > 0 {
			fmt.Fprintf(w, "- Also explains: %s\n", strings.Join(r.Diagnosis.Chain, ", "))
		}
		fmt.Fprintln(w)
	}
	if len(r.InputProblems) > 0 {
		// as table and JSON list them: a ticket must say the evidence was read only in part
		fmt.Fprintf(w, "### Input problems\n\nParts of the input could not be read or used; the findings below are judged on the rest.\n\n")
		for _, ip := range r.InputProblems {
			fmt.Fprintf(w, "- %s: %s\n", mdCode(ip.Path), mdEscape(ip.Problem))
		}
		fmt.Fprintln(w)
	}
	if r.Timeline != nil {
		timelineMarkdown(w, r.Timeline)
	}
	header := false // no header-only table: the table is written with its first row
	for _, f := range r.Findings {
		if f.Status == checks.StatusPass || f.Status == checks.StatusSkipped {
			continue
		}
		if !header {
			fmt.Fprintf(w, "| Status | Severity | Check | Resource | Message |\n|---|---|---|---|---|\n")
			header = true
		}
		fmt.Fprintf(w, "| %s | %s | `%s` | %s | %s |\n", f.Status, f.Severity, f.ID, mdCodeCell(f.Resource), mdEscape(f.Message))
	}
	if header {
		fmt.Fprintln(w)
	}
	for _, f := range r.Findings {
		if f.Status != checks.StatusFail && f.Status != checks.StatusWarn && f.Status != checks.StatusError {
			continue
		}
		fmt.Fprintf(w, "### `%s` — %s\n\n", f.ID, metas[f.ID].Title)
		for _, e := range f.Evidence {
			fmt.Fprintf(w, "- %s (%s)\n", mdEscape(e.Text), mdCode(e.Source))
		}
		fmt.Fprintf(w, "\n**Fix:** %s\n\n", mdEscape(f.Remediation))
	}
	fmt.Fprintf(w, "_%s._\n", countLine(r.Findings))
	return nil
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

// groupUnchecked groups the unchecked checks by why their evidence is missing, in the order
// reasons first appear. An Unchecked reason lists its missing kinds ("kind: why; kind: why");
// a group is one why with the kinds it concerns ("not in the input given — ec2:instance,

// nodesUnseen is the headline of an inconclusive report whose every check ran but whose
// cluster Nodes were not read: its summary (checks.Conclude), "No check failed, but kube:nodes:
// REASON, so whether the node registered is unknown."
func nodesUnseen(d Diagnosis) string {
	s := strings.TrimPrefix(d.Summary, "inconclusive: ")
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s + "."
}

// notRun is the headline of an inconclusive report in which no check failed and checks of the
// join path did not run: for want of evidence, or because the --checks selection left them out
// (checks.NotSelected) — then it says so, and not that they lacked evidence.
func notRun(d Diagnosis) string {
	n := checks.Unselected(d.Unchecked)
	switch {
	case n == 0:
		return fmt.Sprintf("No check failed, but %s of the join path could not run, for want of evidence:", nOf(len(d.Unchecked), "check", "checks"))
	case n == len(d.Unchecked):
		return fmt.Sprintf("No check failed, but the --checks selection left out %s of the join path, so nothing says there is no cause:", nOf(n, "check", "checks"))
	}
	return fmt.Sprintf("No check failed, but %s of the join path did not run: the --checks selection left out %d, and the others lacked evidence:", nOf(len(d.Unchecked), "check", "checks"), n)
}

// symptomOnly is the headline of an inconclusive report whose only failures are symptoms
// (checks.Finding.Symptom): what they do not say, and which checks could not run.
func symptomOnly(d Diagnosis) string {
	head := "Only a symptom failed, which says the node did not join but not why; "
	if m, ok := checks.Default().Metas()[*d.MostLikelyCause]; ok && m.Stage == checks.StagePostJoin {
		// checks.Judge: a check of a registered node failing on an instance the cluster's Node
		// list does not show
		head = "Only checks of a registered node failed (the first: " + *d.MostLikelyCause + "), but the cluster's Node list shows no Node for this instance, so they are not why it did not join; "
	}
	if len(d.Unchecked) == 0 {
		return head + "every other check ran and none names the cause, which lies outside this evidence (the node's kubelet and bootstrap logs: a log bundle)."
	}
	return head + nOf(len(d.Unchecked), "check", "checks") + " that could name the cause could not run, for want of evidence:"
}

// uncheckedMarkdown writes the checks that could not run as a Markdown list, grouped by the
// missing evidence, with the hint on what to collect.
func uncheckedMarkdown(w io.Writer, unchecked []checks.Unchecked) {
	for _, g := range groupUnchecked(unchecked) {
		fmt.Fprintf(w, "- %s: %s\n", mdEscape(g.reason), strings.Join(g.ids, ", "))
	}
	if hint := uncheckedHint(unchecked); hint != "" {
		fmt.Fprintf(w, "\n%s\n", hint) // eksdoctor's own text and markup
	}
	fmt.Fprintln(w)
}

// eks:cluster"), so a paste that holds one artefact reads as one line, not one per check.
func groupUnchecked(us []checks.Unchecked) []uncheckedGroup {
	type group struct {
		why   string
		kinds []string
		ids   []string
	}
	var gs []*group
	idx := map[string]*group{}
	for _, u := range us {
		for _, part := range strings.Split(u.Reason, "; ") {
			kind, why, ok := strings.Cut(part, ": ")
			if !ok || strings.ContainsAny(kind, " ") {
				kind, why = "", part
			}
			g := idx[why]
			if g == nil {
				g = &group{why: why}
				idx[why] = g
				gs = append(gs, g)
			}
			if kind != "" && !contains(g.kinds, kind) {
				g.kinds = append(g.kinds, kind)
			}
			if !contains(g.ids, u.ID) {
				g.ids = append(g.ids, u.ID)
			}
		}
	}
	out := make([]uncheckedGroup, 0, len(gs))
	for _, g := range gs {
		reason := g.why
		if len(g.kinds) > 0 {
			reason += " — " + strings.Join(g.kinds, ", ")
		}
		out = append(out, uncheckedGroup{reason: reason, ids: g.ids})
	}
	return out
}

// uncheckedHint says how to get the evidence the unchecked checks need: the AWS and cluster side
// for an input that holds only the node's side, the permissions for denials.
func uncheckedHint(us []checks.Unchecked) string {
	var local, denied bool
	for _, u := range us {
		local = local || strings.Contains(u.Reason, "not in the input given") || strings.Contains(u.Reason, "not in a node log bundle")
		denied = denied || u.Denied
	}
	switch {
	case local:
		return "To judge them: add the AWS and cluster side with --snapshot SNAP (written by `eksdoctor collect` or docs/collect-snapshot.sh), or run `eksdoctor why-not-joining INSTANCE_ID --cluster NAME` with credentials."
	case denied:
		return "To judge them: grant the missing permissions (`eksdoctor iam-policy` prints the read-only IAM policy; deploy/rbac/clusterrole.yaml the Kubernetes reads) and run again."
	}
	return ""
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// shortIDs lists ids, or, unless all, the first few and how many more ("… and 40 more").
func shortIDs(ids []string, all bool) string {
	const show = 6
	if all || len(ids) <= show+2 {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:show], ", ") + fmt.Sprintf(", … and %d more (--all lists them)", len(ids)-show)
}
