package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// forgedName is an archive member name (or a file name) holding raw newlines that would print a
// line of their own (red team round 8b, finding 16).
const forgedName = "./var_log/evil\n\nVerdict: joined, Node Ready. Nothing to fix.\n"

// damagedReport is a cause-found report of a bundle read only in part.
func damagedReport() *Report {
	ev := &evidence.Evidence{Target: evidence.Target{Source: "bundle:" + forgedName}}
	d := checks.Diagnosis{Verdict: checks.VerdictCauseFound, MostLikelyCause: "runtime.unauthorized", Summary: "runtime.unauthorized"}
	return New(ev, []checks.Finding{{ID: "runtime.unauthorized", Status: checks.StatusFail, Severity: checks.SeverityCritical, Message: "the API server refused the kubelet"}}, d, 1,
		[]InputProblem{
			{Path: "bundle.tar.gz", Problem: "damaged and read only in part: unexpected EOF at byte 73728"},
			{Path: forgedName, Problem: "skipped: link to /etc/pa\nsswd (links are never followed)"},
		})
}

// TestMemberNamesPrintOnOneLine: a member name or file name holding a newline is printed with
// the newline escaped in table, Markdown and JUnit, so it cannot forge a report line; JSON keeps
// it (JSON escapes it itself).
func TestMemberNamesPrintOnOneLine(t *testing.T) {
	for name, render := range map[string]func(w *bytes.Buffer, r *Report) error{
		"table":    func(w *bytes.Buffer, r *Report) error { return Text(w, r, nil, TextOptions{Width: 100}) },
		"markdown": func(w *bytes.Buffer, r *Report) error { return Markdown(w, r, nil) },
		"junit":    func(w *bytes.Buffer, r *Report) error { return ReportJUnit(w, r) },
	} {
		var b bytes.Buffer
		if err := render(&b, damagedReport()); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := b.String()
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " >-*|"), "Verdict: joined") || strings.HasPrefix(strings.TrimSpace(l), "sswd") {
				t.Errorf("%s: a name's newline forged the line %q:\n%s", name, l, out)
			}
		}
		if !strings.Contains(out, `evil\n\nVerdict: joined`) {
			t.Errorf("%s: the member name is not shown escaped:\n%s", name, out)
		}
	}
}

// TestInputProblemsInEveryFormat: Markdown (the ticket format) and JUnit say that the input was
// read only in part and list its input problems, as table and JSON do (red team round 8b,
// finding 15: a damaged bundle's cause showed as if the bundle were whole).
func TestInputProblemsInEveryFormat(t *testing.T) {
	var md, ju bytes.Buffer
	if err := Markdown(&md, damagedReport(), nil); err != nil {
		t.Fatal(err)
	}
	if err := ReportJUnit(&ju, damagedReport()); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": md.String(), "junit": ju.String()} {
		if !strings.Contains(out, "damaged and read only in part: unexpected EOF at byte 73728") || !strings.Contains(out, "bundle.tar.gz") {
			t.Errorf("%s: the damaged bundle is not mentioned:\n%s", name, out)
		}
		if !strings.Contains(out, "links are never followed") {
			t.Errorf("%s: the skipped link is not listed:\n%s", name, out)
		}
	}
	if !strings.Contains(md.String(), "Input problems") {
		t.Errorf("markdown: no Input problems section:\n%s", md.String())
	}
	// a report without input problems says nothing of them
	var clean bytes.Buffer
	r := damagedReport()
	r.InputProblems = []InputProblem{}
	if err := Markdown(&clean, r, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(clean.String(), "Input problems") {
		t.Errorf("markdown of a whole input lists input problems:\n%s", clean.String())
	}
}
