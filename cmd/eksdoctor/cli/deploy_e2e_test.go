package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/restmapper"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/eksdoctor/eksdoctor/collectors/kube/kubetest"
)

var repoRoot = filepath.Join("..", "..", "..")

// decodeObjects splits multi-document YAML into objects.
func decodeObjects(t *testing.T, name string, b []byte) []*unstructured.Unstructured {
	t.Helper()
	var out []*unstructured.Unstructured
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(u.Object) > 0 {
			out = append(out, u)
		}
	}
	return out
}

// kustomize renders a kustomization directory with the kustomize API (what `kubectl apply -k` does).
func kustomize(t *testing.T, dir string) []*unstructured.Unstructured {
	t.Helper()
	abs, _ := filepath.Abs(dir)
	resMap, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), abs)
	if err != nil {
		t.Fatalf("kustomize %s: %v", dir, err)
	}
	b, err := resMap.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	return decodeObjects(t, dir, b)
}

// helmTemplate renders charts/eksdoctor with the Helm SDK (what `helm template` does).
func helmTemplate(t *testing.T, namespace string, values map[string]any) ([]*unstructured.Unstructured, error) {
	t.Helper()
	chrt, err := loader.Load(filepath.Join(repoRoot, "charts", "eksdoctor"))
	if err != nil {
		t.Fatalf("loading the chart: %v", err)
	}
	if err := chartutil.ValidateAgainstSchema(chrt, values); err != nil {
		return nil, err
	}
	vals, err := chartutil.ToRenderValues(chrt, values, chartutil.ReleaseOptions{Name: "eksdoctor", Namespace: namespace, IsInstall: true, Revision: 1}, chartutil.DefaultCapabilities)
	if err != nil {
		return nil, err
	}
	files, err := engine.Render(chrt, vals)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []*unstructured.Unstructured
	for _, n := range names {
		if strings.HasSuffix(n, ".tpl") || strings.TrimSpace(files[n]) == "" {
			continue
		}
		out = append(out, decodeObjects(t, n, []byte(files[n]))...)
	}
	return out, nil
}

// applyDryRun applies every object by server-side apply with dryRun=All and strict field
// validation against the real kube-apiserver; namespaces the objects need are created first.
func applyDryRun(t *testing.T, env *kubetest.Env, cs kubernetes.Interface, what string, objs []*unstructured.Unstructured) {
	t.Helper()
	dyn, _ := dynamic.NewForConfig(env.Config(kubetest.AdminToken))
	dc, _ := discovery.NewDiscoveryClientForConfig(env.Config(kubetest.AdminToken))
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	for _, u := range objs {
		if ns := u.GetNamespace(); ns != "" {
			cs.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		}
	}
	force := true
	for _, u := range objs {
		gvk := u.GroupVersionKind()
		m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			t.Fatalf("%s: %s: %v", what, gvk, err)
		}
		var ri dynamic.ResourceInterface = dyn.Resource(m.Resource)
		if ns := u.GetNamespace(); ns != "" {
			ri = dyn.Resource(m.Resource).Namespace(ns)
		}
		raw, _ := json.Marshal(u.Object)
		if _, err := ri.Patch(context.Background(), u.GetName(), types.ApplyPatchType, raw, metav1.PatchOptions{FieldManager: "eksdoctor-test",
			Force: &force, DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"}); err != nil {
			t.Errorf("%s: server-side dry run of %s %s: %v", what, gvk.Kind, u.GetName(), err)
		}
	}
}

func kinds(objs []*unstructured.Unstructured) map[string]*unstructured.Unstructured {
	out := map[string]*unstructured.Unstructured{}
	for _, u := range objs {
		out[u.GetKind()+"/"+u.GetName()] = u
	}
	return out
}

func cronJobArgs(t *testing.T, objs []*unstructured.Unstructured) (string, []string) {
	for _, u := range objs {
		if u.GetKind() == "CronJob" {
			cs, _, _ := unstructured.NestedSlice(u.Object, "spec", "jobTemplate", "spec", "template", "spec", "containers")
			var args []string
			for _, a := range cs[0].(map[string]any)["args"].([]any) {
				args = append(args, a.(string))
			}
			raw, _ := json.Marshal(u.Object)
			return string(raw), args
		}
	}
	t.Fatal("no CronJob")
	return "", nil
}

// checkHardened asserts what the README promises of the CronJob, including the writable emptyDir
// for --metrics-file under the read-only root filesystem and no --exit-zero.
func checkHardened(t *testing.T, what string, objs []*unstructured.Unstructured) []string {
	t.Helper()
	raw, args := cronJobArgs(t, objs)
	for _, want := range []string{`"concurrencyPolicy":"Forbid"`, `"runAsNonRoot":true`, `"readOnlyRootFilesystem":true`, `"allowPrivilegeEscalation":false`,
		`"limits"`, `"requests"`, `"mountPath":"/var/lib/eksdoctor"`} {
		if !strings.Contains(raw, want) {
			t.Errorf("%s: CronJob lacks %s", what, want)
		}
	}
	if strings.Contains(strings.Join(args, " "), "--exit-zero") {
		t.Errorf("%s: the CronJob still passes --exit-zero", what)
	}
	return args
}

var accountID = regexp.MustCompile(`\b\d{12}\b|ACCOUNT_ID|CLUSTER_NAME`)

// TestKustomizeServerSideDryRun renders the base and the example overlay with the kustomize API
// and applies both by server-side dry run: the base names no region, account or cluster; the
// overlay sets them without editing the base.
func TestKustomizeServerSideDryRun(t *testing.T) {
	env, cs, _ := apiserver(t)
	base := kustomize(t, filepath.Join(repoRoot, "deploy"))
	k := kinds(base)
	for _, want := range []string{"Namespace/eksdoctor", "ServiceAccount/eksdoctor", "ClusterRole/eksdoctor-reader", "ClusterRoleBinding/eksdoctor-reader",
		"ClusterRole/eksdoctor-report-writer", "CronJob/eksdoctor"} {
		if k[want] == nil {
			t.Errorf("deploy/ renders no %s", want)
		}
	}
	b, _ := yaml.Marshal(base)
	if m := accountID.FindString(string(b)); m != "" || strings.Contains(string(b), "eu-west-1") || strings.Contains(string(b), "AWS_REGION") {
		t.Errorf("the base hard-codes %q / a region", m)
	}
	checkHardened(t, "base", base)
	applyDryRun(t, env, cs, "deploy/", base)

	overlay := kustomize(t, filepath.Join(repoRoot, "docs", "examples", "kustomize-overlay"))
	var cm corev1.ConfigMap
	var sa corev1.ServiceAccount
	for _, u := range overlay {
		switch u.GetKind() {
		case "ConfigMap":
			runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &cm)
		case "ServiceAccount":
			runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &sa)
		}
	}
	if cm.Data["cluster"] != "prod" || cm.Data["region"] != "eu-west-1" || sa.Annotations["eks.amazonaws.com/role-arn"] == "" {
		t.Errorf("overlay: config %v, ServiceAccount annotations %v", cm.Data, sa.Annotations)
	}
	raw, args := cronJobArgs(t, overlay)
	if !strings.Contains(raw, `"name":"`+cm.Name+`"`) || !strings.Contains(raw, "ghcr.io/eksdoctor/eksdoctor:v0.1.0") || !strings.Contains(strings.Join(args, " "), "--pushgateway=") {
		t.Errorf("overlay CronJob does not use the generated ConfigMap %s, the image tag or the Pushgateway: %v", cm.Name, args)
	}
	checkHardened(t, "overlay", overlay)
	applyDryRun(t, env, cs, "docs/examples/kustomize-overlay", overlay)
}

// TestHelmChartServerSideDryRun renders charts/eksdoctor with the Helm SDK for several value sets
// and applies each by server-side dry run.
func TestHelmChartServerSideDryRun(t *testing.T) {
	env, cs, _ := apiserver(t)
	if _, err := helmTemplate(t, "eksdoctor", map[string]any{}); err == nil || !strings.Contains(err.Error(), "clusterName is required") {
		t.Errorf("a chart without clusterName rendered: %v", err)
	}
	irsa := map[string]any{"clusterName": "prod", "region": "eu-west-1", "serviceAccount": map[string]any{"roleArn": "arn:aws:iam::111122223333:role/eksdoctor-readonly"},
		"report": map[string]any{"api": "both"}, "pushgateway": map[string]any{"url": "http://pgw:9091", "existingSecret": "pgw-auth"},
		"metricsFile": map[string]any{"enabled": true}, "failOn": "critical", "image": map[string]any{"tag": "v0.1.0"}, "schedule": "*/30 * * * *"}
	objs, err := helmTemplate(t, "eksdoctor-helm", irsa)
	if err != nil {
		t.Fatal(err)
	}
	args := checkHardened(t, "chart", objs)
	joined := strings.Join(args, " ")
	for _, want := range []string{"--cluster=prod", "--region=eu-west-1", "--publish=policyreport,openreports", "--pushgateway=http://pgw:9091",
		"--metrics-file=/var/lib/eksdoctor/eksdoctor.prom", "--fail-on=critical", "--in-cluster"} {
		if !strings.Contains(joined, want) {
			t.Errorf("chart args %q lack %s", joined, want)
		}
	}
	k := kinds(objs)
	if sa := k["ServiceAccount/eksdoctor"]; sa == nil || sa.GetAnnotations()["eks.amazonaws.com/role-arn"] == "" {
		t.Error("IRSA annotation missing")
	}
	// the chart's reader ClusterRole grants exactly what deploy/rbac/clusterrole.yaml grants
	var shipped, charted rbacv1.ClusterRole
	b, _ := os.ReadFile(filepath.Join(repoRoot, "deploy", "rbac", "clusterrole.yaml"))
	yaml.Unmarshal(b, &shipped)
	if u := k["ClusterRole/eksdoctor-reader"]; u != nil {
		runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &charted)
	}
	if a, b := mustJSON(shipped.Rules), mustJSON(charted.Rules); a != b {
		t.Errorf("chart reader rules differ from deploy/rbac:\n%s\n%s", b, a)
	}
	if w := k["ClusterRole/eksdoctor-report-writer"]; w == nil || !strings.Contains(mustJSON(w.Object), "openreports.io") || !strings.Contains(mustJSON(w.Object), "wgpolicyk8s.io") {
		t.Error("report writer does not cover both report APIs")
	}
	applyDryRun(t, env, cs, "chart (IRSA, both reports)", objs)

	podIdentity := map[string]any{"clusterName": "prod", "podIdentity": true, "serviceAccount": map[string]any{"roleArn": "arn:aws:iam::111122223333:role/x"}, "report": map[string]any{"api": "none"}}
	objs, err = helmTemplate(t, "eksdoctor-helm", podIdentity)
	if err != nil {
		t.Fatal(err)
	}
	k = kinds(objs)
	if sa := k["ServiceAccount/eksdoctor"]; sa == nil || len(sa.GetAnnotations()) != 0 || k["ClusterRole/eksdoctor-report-writer"] != nil {
		t.Errorf("Pod Identity without reports: %v", k)
	}
	if _, args := cronJobArgs(t, objs); strings.Contains(strings.Join(args, " "), "--publish") || strings.Contains(strings.Join(args, " "), "--region") {
		t.Errorf("args %v", args)
	}
	applyDryRun(t, env, cs, "chart (Pod Identity)", objs)
	if _, err := helmTemplate(t, "eksdoctor", map[string]any{"clusterName": "prod", "report": map[string]any{"api": "kyverno"}}); err == nil {
		t.Error("report.api kyverno accepted")
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
