package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/eksdoctor/eksdoctor/collectors/kube/kubetest"
)

// dryRunApply applies obj by server-side apply with dryRun=All and strict field validation, so
// an unknown field is an error rather than silently pruned.
func dryRunApply(dyn dynamic.Interface, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) error {
	raw, err := json.Marshal(obj.Object)
	if err != nil {
		return err
	}
	force := true
	_, err = dyn.Resource(gvr).Patch(context.Background(), obj.GetName(), types.ApplyPatchType, raw,
		metav1.PatchOptions{FieldManager: "eksdoctor-test", Force: &force, DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
	return err
}

// TestReportsValidateAgainstUpstreamCRDs prints `scan -o policyreport` and `scan -o openreports`
// for fixtures with critical, instance and passing findings, and applies them by server-side dry
// run against the upstream CRDs: the original wg-policy CRD (severity high|medium|low), Kyverno's
// and OpenReports'. Every result carries policy, rule (the finding ID), result, severity, category,
// source, timestamp and, for instance findings, the instance.
func TestReportsValidateAgainstUpstreamCRDs(t *testing.T) {
	env, _, _ := apiserver(t)
	installReportCRDs(t, env)
	dyn, _ := dynamic.NewForConfig(env.Config(kubetest.AdminToken))
	for _, fx := range []string{"nodegroup-asg-launch-failures", "auth-role-not-mapped", "healthy-al2023"} {
		snap := filepath.Join(fixtures, "snapshots", fx)
		for _, format := range []string{"policyreport", "openreports"} {
			_, out, errOut := run("scan", "--snapshot", snap, "--cluster", "prod", "-o", format)
			u := &unstructured.Unstructured{}
			if err := yaml.Unmarshal([]byte(out), &u.Object); err != nil {
				t.Fatalf("%s -o %s: %v\n%s", fx, format, err, errOut)
			}
			results, _, _ := unstructured.NestedSlice(u.Object, "results")
			if len(results) == 0 {
				t.Fatalf("%s -o %s: no results", fx, format)
			}
			sawInstance := false
			for _, r := range results {
				m := r.(map[string]any)
				for _, k := range []string{"policy", "rule", "result", "severity", "category", "source", "timestamp"} {
					if v, ok := m[k]; !ok || v == "" {
						t.Errorf("%s -o %s: result without %s: %v", fx, format, k, m)
					}
				}
				if m["source"] != "eksdoctor" || !strings.HasPrefix(m["policy"].(string), "eksdoctor-") || !strings.HasPrefix(m["rule"].(string), m["category"].(string)+".") {
					t.Errorf("%s -o %s: result %v", fx, format, m)
				}
				props, _ := m["properties"].(map[string]any)
				if props["severity"] == nil {
					t.Errorf("%s: original severity missing: %v", fx, m)
				}
				sawInstance = sawInstance || props["instance"] != nil
			}
			if fx == "auth-role-not-mapped" && !sawInstance {
				t.Errorf("%s -o %s: no result names the unjoined instance", fx, format)
			}
			if format == "policyreport" {
				if u.GetAPIVersion() != "wgpolicyk8s.io/v1alpha2" || u.GetKind() != "ClusterPolicyReport" {
					t.Fatalf("-o policyreport: %s %s", u.GetAPIVersion(), u.GetKind())
				}
				if err := dryRunApply(dyn, policyReportGVR, u); err != nil {
					t.Errorf("%s: the original wg-policy CRD (%s) rejects the report: %v", fx, kubetest.WGPolicyOriginalCRD, err)
				}
				k := u.DeepCopy()
				k.SetAPIVersion(kyvernoTestGroup + "/v1alpha2")
				if err := dryRunApply(dyn, schema.GroupVersionResource{Group: kyvernoTestGroup, Version: "v1alpha2", Resource: "clusterpolicyreports"}, k); err != nil {
					t.Errorf("%s: Kyverno's CRD (%s) rejects the report: %v", fx, kubetest.KyvernoPolicyReportCRD, err)
				}
			} else {
				if u.GetAPIVersion() != "openreports.io/v1alpha1" || u.GetKind() != "ClusterReport" || u.Object["source"] != "eksdoctor" {
					t.Fatalf("-o openreports: %s %s", u.GetAPIVersion(), u.GetKind())
				}
				if err := dryRunApply(dyn, openReportsGVR, u); err != nil {
					t.Errorf("%s: the OpenReports CRD (%s) rejects the report: %v", fx, kubetest.OpenReportsClusterReportCRD, err)
				}
			}
		}
	}
}

// TestScanPublishesOpenReports writes the ClusterReport, then updates it in place.
func TestScanPublishesOpenReports(t *testing.T) {
	env, _, kubeconfig := apiserver(t)
	installReportCRDs(t, env)
	dyn, _ := dynamic.NewForConfig(env.Config(kubetest.AdminToken))
	var versions []string
	for _, fx := range []string{"nodegroup-asg-launch-failures", "healthy-al2023"} {
		// a snapshot collected for the cluster the report is named after
		snap := copyDir(t, filepath.Join(fixtures, "snapshots", fx))
		m, _ := os.ReadFile(filepath.Join(snap, "manifest.json"))
		if err := os.WriteFile(filepath.Join(snap, "manifest.json"), []byte(strings.Replace(string(m), `"cluster": "prod"`, `"cluster": "openreports-test"`, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := run("scan", "--snapshot", snap, "--cluster", "openreports-test",
			"--publish", "openreports", "--kubeconfig", kubeconfig, "-o", "json", "--fail-on", "none")
		if code != ExitOK || errOut != "" {
			t.Fatalf("%s: exit %d: %s", fx, code, errOut)
		}
		obj, err := dyn.Resource(openReportsGVR).Get(context.Background(), "eksdoctor-openreports-test", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		versions = append(versions, obj.GetResourceVersion())
		fail, _, _ := unstructured.NestedInt64(obj.Object, "summary", "fail")
		if want := map[string]int64{"nodegroup-asg-launch-failures": 1, "healthy-al2023": 0}[fx]; fail != want {
			t.Errorf("%s: summary.fail = %d, want %d", fx, fail, want)
		}
	}
	if versions[0] == versions[1] {
		t.Error("the ClusterReport was not updated in place")
	}
	if code, _, errOut := run("scan", "--snapshot", filepath.Join(fixtures, "snapshots", "healthy-al2023"), "--publish", "bogus"); code != ExitUsage || !strings.Contains(errOut, "--publish") {
		t.Errorf("--publish bogus: exit %d %s", code, errOut)
	}
}
