package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/tw"
)

// DefaultWidth is the width of the text output when the caller gives none (not a terminal).
const DefaultWidth = 100

// minWidth is the narrowest width the text output is laid out for; narrower requests get this.
const minWidth = 40

// VisibleWidth returns the number of terminal columns s takes, ANSI colour sequences excluded.
func VisibleWidth(s string) int { return twwidth.Width(s) }

// wrap breaks text into lines of at most width visible columns, at spaces where it can and
// inside a word only when the word alone is wider. Existing newlines are kept.
func wrap(text string, width int) []string { return wrapKeep(text, width, width) }

// wrapKeep is wrap, but a word up to keep columns wide (a URL, a command) stays whole on a line
// of its own rather than being cut; only longer ones are cut, at keep columns.
func wrapKeep(text string, width, keep int) []string {
	if width < 1 {
		width = 1
	}
	if keep < width {
		keep = width
	}
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line, lineW := "", 0
		for _, word := range strings.Fields(para) {
			ww := VisibleWidth(word)
			for ww > keep { // a word wider than any line: cut it
				if lineW > 0 {
					out = append(out, line)
					line, lineW = "", 0
				}
				head, rest := cutWidth(word, keep)
				out = append(out, head)
				word, ww = rest, VisibleWidth(rest)
			}
			switch {
			case ww == 0:
			case lineW == 0:
				line, lineW = word, ww
			case lineW+1+ww <= width:
				line, lineW = line+" "+word, lineW+1+ww
			default:
				out = append(out, line)
				line, lineW = word, ww
			}
		}
		out = append(out, line)
	}
	return out
}

// cutWidth splits s after at most width visible columns (at least one rune).
func cutWidth(s string, width int) (string, string) {
	w := 0
	for i, r := range s {
		rw := VisibleWidth(string(r))
		if w+rw > width && i > 0 {
			return s[:i], s[i:]
		}
		w += rw
	}
	return s, ""
}

// para writes text wrapped to width with first before the first line and an indent of the
// same visible width before the others (a hanging indent). A word too wide for the indented
// room but not for the line (a URL) is kept whole and moved left as far as it needs.
func para(w io.Writer, width int, first, text string) {
	firstW := VisibleWidth(first)
	if width-firstW < 20 && strings.TrimSpace(text) != "" {
		// a label too wide to leave room: the label on its own line, the text indented below
		fmt.Fprintln(w, strings.TrimRight(first, " "))
		first, firstW = "    ", 4
	}
	indent := strings.Repeat(" ", firstW)
	avail := width - firstW
	for i, l := range wrapKeep(text, avail, width-2) {
		lead := indent
		if i == 0 {
			lead = first
		}
		if lw := VisibleWidth(l); lw > avail {
			if i == 0 {
				fmt.Fprintln(w, strings.TrimRight(first, " "))
			}
			lead = strings.Repeat(" ", max(width-lw, 0))
			if len(lead) > len(indent) {
				lead = indent
			}
		}
		fmt.Fprintln(w, strings.TrimRight(lead+l, " "))
	}
}

// table writes a bordered table at most width columns wide. When the natural widths do not fit,
// flex (the message) is narrowed first, down to 20 columns or a quarter of the room; only then
// the widest column (the message on a tie), so the short columns (status, check ID, resource)
// wrap only when the room is scarce. Cells are word-wrapped to their column. Widths are measured
// without ANSI colour sequences, so coloured cells keep the columns aligned.
func table(w io.Writer, width int, header []string, rows [][]string, flex int) error {
	n := len(header)
	natural := make([]int, n)
	for _, row := range append([][]string{header}, rows...) {
		for i, c := range row {
			for _, l := range strings.Split(c, "\n") {
				if lw := VisibleWidth(l); lw > natural[i] {
					natural[i] = lw
				}
			}
		}
	}
	budget := width - (3*n + 1) // "│ " before each cell, " " after, and the closing "│"
	widths := append([]int(nil), natural...)
	sum := func() int {
		s := 0
		for _, x := range widths {
			s += x
		}
		return s
	}
	floor := make([]int, n)
	for i := range floor {
		floor[i] = min(natural[i], max(4, VisibleWidth(header[i])))
	}
	floor[flex] = min(natural[flex], 10)
	// the message gives way first, down to 20 columns or a quarter of the room
	if minFlex := min(natural[flex], max(20, budget/4)); sum() > budget {
		widths[flex] = max(minFlex, budget-(sum()-widths[flex]))
	}
	for sum() > budget {
		// then the widest column that can give (the message on a tie), so that no column is
		// cut far below the others
		widest := -1
		for i := range widths {
			if widths[i] <= floor[i] {
				continue
			}
			if widest < 0 || widths[i] > widths[widest] || widths[i] == widths[widest] && i == flex {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		widths[widest]--
	}
	cell := func(s string, i int) string {
		if VisibleWidth(s) <= widths[i] && !strings.Contains(s, "\n") {
			return s
		}
		return strings.Join(wrap(s, widths[i]), "\n")
	}
	tbl := tablewriter.NewTable(w,
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithTrimSpace(tw.Off),
	)
	tbl.Header(header)
	for _, row := range rows {
		out := make([]string, n)
		for i := range row {
			out[i] = cell(row[i], i)
		}
		if err := tbl.Append(out); err != nil {
			return err
		}
	}
	return tbl.Render()
}

// countChecks counts the checks (not the findings: a check may judge several resources) by
// their overall status: failed if any finding fails, else error, else warning, else passed if
// any finding passes, else skipped. The counts add up to the number of checks that ran.
func countChecks(fs []checks.Finding) (fail, warn, pass, skipped, errs int) {
	worst := map[string]checks.Status{}
	var order []string
	rank := map[checks.Status]int{checks.StatusFail: 5, checks.StatusError: 4, checks.StatusWarn: 3, checks.StatusPass: 2, checks.StatusSkipped: 1}
	for _, f := range fs {
		cur, ok := worst[f.ID]
		if !ok {
			order = append(order, f.ID)
		}
		if rank[f.Status] > rank[cur] {
			worst[f.ID] = f.Status
		}
	}
	for _, id := range order {
		switch worst[id] {
		case checks.StatusFail:
			fail++
		case checks.StatusError:
			errs++
		case checks.StatusWarn:
			warn++
		case checks.StatusPass:
			pass++
		default:
			skipped++
		}
	}
	return
}

// countLine says "N checks: a failed, b with warnings, c passed, d skipped" (and "e errors" when
// there are some), the parts adding up to N.
func countLine(fs []checks.Finding) string {
	fail, warn, pass, skipped, errs := countChecks(fs)
	n := fail + warn + pass + skipped + errs
	parts := []string{fmt.Sprintf("%d failed", fail), nOf(warn, "warning", "warnings"), fmt.Sprintf("%d passed", pass), fmt.Sprintf("%d skipped", skipped)}
	if errs > 0 {
		parts = append(parts, nOf(errs, "error", "errors"))
	}
	return nOf(n, "check", "checks") + ": " + strings.Join(parts, ", ")
}

// nOf returns "1 check" or "3 checks".
func nOf(n int, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return fmt.Sprintf("%d %s", n, plural)
}

// gapGroup is the gaps sharing one reason.
type gapGroup struct {
	reason string
	kinds  []string
}

// groupGaps groups gaps by reason, largest group first.
func groupGaps(gs []evidence.Gap) []gapGroup {
	var out []gapGroup
	idx := map[string]int{}
	for _, g := range gs {
		i, ok := idx[g.Reason]
		if !ok {
			i = len(out)
			idx[g.Reason] = i
			out = append(out, gapGroup{reason: g.Reason})
		}
		out[i].kinds = append(out[i].kinds, string(g.Kind))
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].kinds) > len(out[j].kinds) })
	return out
}

// gapSummary says in a few words what a group of evidence kinds is: "34 AWS and cluster
// evidence kinds", or the kinds themselves when there are at most three.
func gapSummary(kinds []string) string {
	if len(kinds) <= 3 {
		return strings.Join(kinds, ", ")
	}
	var aws, kube, node bool
	for _, k := range kinds {
		switch src, _, _ := strings.Cut(k, ":"); src {
		case "kube":
			kube = true
		case "ec2", "eks", "iam", "autoscaling", "auth", "sts", "logs", "cloudtrail":
			aws = true
		default:
			node = true
		}
	}
	var what []string
	if aws {
		what = append(what, "AWS")
	}
	if kube {
		what = append(what, "cluster")
	}
	if node {
		what = append(what, "node")
	}
	list := strings.Join(what, " and ")
	if len(what) == 3 {
		list = what[0] + ", " + what[1] + " and " + what[2]
	}
	return fmt.Sprintf("%d %s evidence kinds", len(kinds), list)
}

// codeOr returns s as Markdown code, or alt when s is empty (never an empty code span).
func codeOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return mdCode(s)
}
