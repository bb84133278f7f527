package report

import (
	"fmt"
	"regexp"
	"strings"

	policyreportv1alpha2 "github.com/kyverno/kyverno/api/policyreport/v1alpha2"
	openreportsv1alpha1 "github.com/openreports/reports-api/apis/openreports.io/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/eksdoctor/eksdoctor/checks"
)

// PolicyReportGroupVersion is the PolicyReport API eksdoctor publishes
// (https://github.com/kubernetes-sigs/wg-policy-prototypes, wgpolicyk8s.io/v1alpha2; Kyverno
// serves the same group and version with a wider severity enum).
const PolicyReportGroupVersion = "wgpolicyk8s.io/v1alpha2"

// OpenReportsGroupVersion is the OpenReports API (openreports.io/v1alpha1), the successor of
// the PolicyReport API that Policy Reporter reads.
const OpenReportsGroupVersion = "openreports.io/v1alpha1"

// Source is the "source" of every report result and of the OpenReports ClusterReport.
const Source = "eksdoctor"

// maxPolicyReportResults bounds the results of one report object (etcd limits objects to
// about 1.5 MB): cluster findings come first, then instances' non-passing findings.
const maxPolicyReportResults = 2000

var nonDNS = regexp.MustCompile(`[^a-z0-9-]+`)

// PolicyReportName is the report object's name for a cluster ("eksdoctor-<cluster>", DNS-1123).
// The ClusterPolicyReport and the OpenReports ClusterReport share it.
func PolicyReportName(cluster string) string {
	n := strings.Trim(nonDNS.ReplaceAllString(strings.ToLower(cluster), "-"), "-")
	if n == "" {
		n = "cluster"
	}
	if len(n) > 200 {
		n = n[:200]
	}
	return "eksdoctor-" + n
}

func resultOf(s checks.Status) string {
	switch s {
	case checks.StatusSkipped:
		return "skip"
	case checks.StatusFail, checks.StatusWarn, checks.StatusPass, checks.StatusError:
		return string(s)
	}
	return "skip"
}

// ReportSeverity maps an eksdoctor severity to one the original wg-policy v1alpha2 CRD accepts
// (high, medium, low) and Kyverno's and OpenReports' CRDs accept too: critical becomes high,
// anything unknown low. The original value is kept in the result's properties.severity.
func ReportSeverity(s checks.Severity) string {
	switch s {
	case checks.SeverityCritical, checks.SeverityHigh:
		return "high"
	case checks.SeverityMedium:
		return "medium"
	}
	return "low"
}

// reportResults builds the results shared by both report kinds, in the OpenReports type
// (Kyverno's PolicyReportResult has the same JSON fields), and their summary.
func reportResults(s *Scan) ([]openreportsv1alpha1.ReportResult, openreportsv1alpha1.ReportSummary) {
	safe(s, true) // secrets redacted, strings bounded, control characters escaped
	ts := metav1.Timestamp{Seconds: s.ScanTimestamp().Unix()}
	var sum openreportsv1alpha1.ReportSummary
	results := []openreportsv1alpha1.ReportResult{}
	// one place is kept for the result naming how many the bound left out
	left, limit := 0, maxPolicyReportResults-1
	add := func(instance string, f checks.Finding) {
		if len(results) >= limit {
			left++
			return
		}
		var ev []string
		for _, e := range f.Evidence {
			ev = append(ev, e.Text)
		}
		props := map[string]string{"severity": string(f.Severity), "cluster": s.Cluster}
		if len(ev) > 0 {
			props["evidence"] = strings.Join(ev, "; ")
		}
		if f.Resource != "" {
			props["resource"] = f.Resource
		}
		if instance != "" {
			props["instance"] = instance
		}
		if f.Remediation != "" {
			props["remediation"] = f.Remediation
		}
		res := resultOf(f.Status)
		switch res {
		case "pass":
			sum.Pass++
		case "fail":
			sum.Fail++
		case "warn":
			sum.Warn++
		case "error":
			sum.Error++
		default:
			sum.Skip++
		}
		area, _, _ := strings.Cut(f.ID, ".")
		results = append(results, openreportsv1alpha1.ReportResult{
			Source: Source, Policy: "eksdoctor-" + area, Rule: f.ID, Category: area,
			Severity: openreportsv1alpha1.ResultSeverity(ReportSeverity(f.Severity)), Timestamp: ts,
			Result: openreportsv1alpha1.Result(res), Scored: true, Description: f.Message, Properties: props,
		})
	}
	for _, f := range s.ClusterFindings {
		add("", f)
	}
	// what kept the scan from judging (the instances not listed, the cluster's API not read, a
	// collection error) is an error result, so a report viewer does not show an unjudged
	// cluster as green; it comes before the instances' findings, which the bound may cut
	for _, e := range s.Errors {
		add("", scanError(e))
	}
	for _, r := range s.Fleet.Instances {
		for _, f := range r.Findings {
			if f.Status != checks.StatusPass && f.Status != checks.StatusSkipped {
				add(r.Target.InstanceID, f)
			}
		}
	}
	// an instance that could not be judged, or named but not described, is an error result of
	// its own (its findings are all skipped, so nothing else would name it), after the findings
	// that name causes, so the bound never cuts a cause for an unknown
	for _, r := range s.Fleet.Instances {
		if r.Diagnosis.Verdict == checks.VerdictInconclusive {
			add(r.Target.InstanceID, scanError("inconclusive: "+r.Diagnosis.Summary))
		}
	}
	for _, id := range s.Fleet.Unlisted {
		add(id, scanError("inconclusive: named by manifest.json but not in ec2/describe-instances.json: not diagnosed"))
	}
	if left > 0 {
		n := left
		limit = maxPolicyReportResults
		add("", scanError(fmt.Sprintf("%d more results left out: one report object holds at most %d (the JSON output of scan holds them all)", n, maxPolicyReportResults)))
	}
	return results, sum
}

// scanError is the finding of rule scan.error: what kept the scan, or one instance's
// diagnosis, from judging.
func scanError(msg string) checks.Finding {
	return checks.Finding{ID: "scan.error", Status: checks.StatusError, Severity: checks.SeverityHigh, Message: msg}
}

func reportMeta(s *Scan) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: PolicyReportName(s.Cluster),
		Labels: map[string]string{"app.kubernetes.io/managed-by": "eksdoctor", "app.kubernetes.io/name": "eksdoctor"}}
}

// PolicyReport maps the scan to a wgpolicyk8s.io/v1alpha2 ClusterPolicyReport (Kyverno's Go
// type, valid for the original wg-policy CRD and Kyverno's): one result per cluster finding and
// per non-passing instance finding, and a result "error" of rule scan.error per scan error and
// per instance that is inconclusive or not described (at most maxPolicyReportResults, the last
// naming how many were left out) — policy "eksdoctor-<area>", rule the finding ID, category
// the area, result pass/fail/warn/error/skip, severity high/medium/low (see ReportSeverity),
// source "eksdoctor", timestamp the evidence time, and properties severity (eksdoctor's own),
// cluster, resource, instance, evidence and remediation. Summary counts the results included.
func PolicyReport(s *Scan) *policyreportv1alpha2.ClusterPolicyReport {
	results, sum := reportResults(s)
	out := &policyreportv1alpha2.ClusterPolicyReport{
		TypeMeta:   metav1.TypeMeta{APIVersion: PolicyReportGroupVersion, Kind: "ClusterPolicyReport"},
		ObjectMeta: reportMeta(s),
		Summary:    policyreportv1alpha2.PolicyReportSummary{Pass: sum.Pass, Fail: sum.Fail, Warn: sum.Warn, Error: sum.Error, Skip: sum.Skip},
		Results:    []policyreportv1alpha2.PolicyReportResult{},
	}
	for _, r := range results {
		out.Results = append(out.Results, policyreportv1alpha2.PolicyReportResult{
			Source: r.Source, Policy: r.Policy, Rule: r.Rule, Category: r.Category,
			Severity: policyreportv1alpha2.PolicySeverity(r.Severity), Timestamp: r.Timestamp,
			Result: policyreportv1alpha2.PolicyResult(r.Result), Scored: r.Scored, Message: r.Description, Properties: r.Properties,
		})
	}
	return out
}

// OpenReport maps the scan to an openreports.io/v1alpha1 ClusterReport with the same results
// as PolicyReport and source "eksdoctor".
func OpenReport(s *Scan) *openreportsv1alpha1.ClusterReport {
	results, sum := reportResults(s)
	return &openreportsv1alpha1.ClusterReport{
		TypeMeta:   metav1.TypeMeta{APIVersion: OpenReportsGroupVersion, Kind: "ClusterReport"},
		ObjectMeta: reportMeta(s),
		Source:     Source,
		Summary:    sum,
		Results:    results,
	}
}
