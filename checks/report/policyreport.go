package report

import (
	"regexp"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks"
)

// PolicyReportGroupVersion is the PolicyReport API eksdoctor publishes
// (https://github.com/kubernetes-sigs/wg-policy-prototypes, wgpolicyk8s.io/v1alpha2).
const PolicyReportGroupVersion = "wgpolicyk8s.io/v1alpha2"

// maxPolicyReportResults bounds the results of one report object (etcd limits objects to
// about 1.5 MB): cluster findings come first, then instances' non-passing findings.
const maxPolicyReportResults = 2000

var nonDNS = regexp.MustCompile(`[^a-z0-9-]+`)

// PolicyReportName is the report object's name for a cluster ("eksdoctor-<cluster>", DNS-1123).
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

// PolicyReport maps the scan to a ClusterPolicyReport object (as a JSON-able map): policy =
// check ID, rule = resource, result pass/fail/warn/error/skip, severity, message, and properties
// with the instance, the evidence and the remediation. Summary counts every result included.
func PolicyReport(s *Scan) map[string]any {
	safe(s, true)
	ts := map[string]any{"seconds": s.ScanTimestamp().Unix(), "nanos": 0}
	summary := map[string]int{"pass": 0, "fail": 0, "warn": 0, "error": 0, "skip": 0}
	var results []any
	add := func(instance string, f checks.Finding) {
		if len(results) >= maxPolicyReportResults {
			return
		}
		var ev []string
		for _, e := range f.Evidence {
			ev = append(ev, e.Text)
		}
		props := map[string]any{"evidence": strings.Join(ev, "; ")}
		if instance != "" {
			props["instance"] = instance
		}
		if f.Remediation != "" {
			props["remediation"] = f.Remediation
		}
		res := resultOf(f.Status)
		summary[res]++
		area, _, _ := strings.Cut(f.ID, ".")
		results = append(results, map[string]any{"policy": f.ID, "rule": f.Resource, "result": res, "severity": string(f.Severity),
			"message": f.Message, "source": "eksdoctor", "category": area, "timestamp": ts, "scored": true, "properties": props})
	}
	for _, f := range s.ClusterFindings {
		add("", f)
	}
	for _, r := range s.Fleet.Instances {
		for _, f := range r.Findings {
			if f.Status != checks.StatusPass && f.Status != checks.StatusSkipped {
				add(r.Target.InstanceID, f)
			}
		}
	}
	if results == nil {
		results = []any{}
	}
	return map[string]any{
		"apiVersion": PolicyReportGroupVersion, "kind": "ClusterPolicyReport",
		"metadata": map[string]any{"name": PolicyReportName(s.Cluster),
			"labels": map[string]any{"app.kubernetes.io/managed-by": "eksdoctor", "app.kubernetes.io/name": "eksdoctor"}},
		"summary": summary, "results": results,
	}
}
