package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/eksdoctor/eksdoctor/collectors/awsapi/awsfake"
	"github.com/eksdoctor/eksdoctor/collectors/kube/kubetest"
)

var (
	apiOnce sync.Once
	apiEnv  *kubetest.Env
	apiErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if apiEnv != nil {
		apiEnv.Stop()
	}
	os.Exit(code)
}

// apiserver starts (once per package run) a real kube-apiserver, or skips the test when the
// binaries are missing and EKSDOCTOR_REQUIRE_APISERVER is not set.
func apiserver(t *testing.T) (*kubetest.Env, kubernetes.Interface, string) {
	t.Helper()
	bin, ok := kubetest.BinDir()
	if !ok {
		if os.Getenv("EKSDOCTOR_REQUIRE_APISERVER") != "" {
			t.Fatalf("kube-apiserver binaries missing in %s", bin)
		}
		t.Skipf("SKIPPING: no kube-apiserver binaries in %s (build them with collectors/kube/kubetest/build-testbin.sh)", bin)
	}
	apiOnce.Do(func() { apiEnv, apiErr = kubetest.Start(bin) })
	if apiErr != nil {
		t.Fatal(apiErr)
	}
	cs, err := kubernetes.NewForConfig(apiEnv.Config(kubetest.AdminToken))
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	os.WriteFile(kubeconfig, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: test, cluster: {server: %q, insecure-skip-tls-verify: true}}]
users: [{name: admin, user: {token: %q}}]
contexts: [{name: test, context: {cluster: test, user: admin}}]
current-context: test
`, apiEnv.Host, kubetest.AdminToken)), 0o600)
	return apiEnv, cs, kubeconfig
}

var crdOnce sync.Once

// kyvernoTestGroup is the API group Kyverno's ClusterPolicyReport CRD is installed under, so
// that it can be served next to the original wg-policy CRD (same schema, renamed group).
const kyvernoTestGroup = "kyverno.eksdoctor.test"

// installReportCRDs installs, once, the upstream report CRDs taken from the Go modules that ship
// them: the original wg-policy ClusterPolicyReport (wgpolicyk8s.io/v1alpha2), Kyverno's
// (renamed to kyvernoTestGroup) and OpenReports' ClusterReport (openreports.io/v1alpha1).
func installReportCRDs(t *testing.T, env *kubetest.Env) {
	t.Helper()
	crdOnce.Do(func() {
		installCRD(t, env, kubetest.WGPolicyOriginalCRD, "")
		installCRD(t, env, kubetest.KyvernoPolicyReportCRD, kyvernoTestGroup)
		installCRD(t, env, kubetest.OpenReportsClusterReportCRD, "")
	})
}

// installCRD creates the upstream CRD (under group when not empty) and waits until it is served.
func installCRD(t *testing.T, env *kubetest.Env, c kubetest.UpstreamCRD, group string) {
	t.Helper()
	b, err := c.Read()
	if err != nil {
		t.Fatalf("upstream CRD %s: %v", c, err)
	}
	u := &unstructured.Unstructured{}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	for len(u.Object) == 0 {
		if err := dec.Decode(&u.Object); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
	}
	// the file must be a valid CRD as it is
	var crd apiextv1.CustomResourceDefinition
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &crd); err != nil || crd.Spec.Group == "" {
		t.Fatalf("%s is not a CRD: %v", c, err)
	}
	if group != "" {
		unstructured.SetNestedField(u.Object, group, "spec", "group")
		u.SetName(crd.Spec.Names.Plural + "." + group)
	} else {
		group = crd.Spec.Group
	}
	unstructured.RemoveNestedField(u.Object, "status")
	dyn, _ := dynamic.NewForConfig(env.Config(kubetest.AdminToken))
	gvr := apiextv1.SchemeGroupVersion.WithResource("customresourcedefinitions")
	if _, err := dyn.Resource(gvr).Create(context.Background(), u, metav1.CreateOptions{}); err != nil && !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("installing %s: %v", c, err)
	}
	dc, _ := discovery.NewDiscoveryClientForConfig(env.Config(kubetest.AdminToken))
	gv := group + "/" + crd.Spec.Versions[0].Name
	for _, v := range crd.Spec.Versions {
		if v.Name == "v1alpha2" || v.Name == "v1alpha1" {
			gv = group + "/" + v.Name
		}
	}
	for i := 0; i < 100; i++ {
		if _, err := dc.ServerResourcesForGroupVersion(gv); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s (%s) was not served", c, gv)
}

func TestScanPublishesClusterPolicyReport(t *testing.T) {
	env, _, kubeconfig := apiserver(t)
	snap := filepath.Join(fixtures, "snapshots", "nodegroup-asg-launch-failures")
	// before the CRD exists: the scan says so and carries on
	if _, ok := os.LookupEnv("EKSDOCTOR_CRD_PREINSTALLED"); !ok {
		dc, _ := discovery.NewDiscoveryClientForConfig(env.Config(kubetest.AdminToken))
		if _, err := dc.ServerResourcesForGroupVersion("wgpolicyk8s.io/v1alpha2"); err != nil {
			// a publication that was asked for and failed exits ExitPublish and says why on
			// stderr, in every output format
			for _, format := range []string{"json", "table", "markdown", "junit", "policyreport"} {
				code, _, errOut := run("scan", "--snapshot", snap, "--cluster", "prod", "--policy-report", "--kubeconfig", kubeconfig, "-o", format)
				if code != ExitPublish || !strings.Contains(errOut, "publishing the ClusterPolicyReport failed: the ClusterPolicyReport CRD (wgpolicyk8s.io/v1alpha2) is not installed") {
					t.Errorf("-o %s without the CRD: exit %d, stderr %q", format, code, errOut)
				}
			}
		}
	}
	installReportCRDs(t, env)
	dyn, _ := dynamic.NewForConfig(env.Config(kubetest.AdminToken))
	client := dyn.Resource(policyReportGVR)
	var versions []string
	collected, _ := time.Parse(time.RFC3339, "2026-11-20T10:00:00Z")
	for i, snap := range []string{snap, snap, filepath.Join(fixtures, "snapshots", "nodegroup-lt-network-interfaces")} {
		code, _, errOut := run("scan", "--snapshot", snap, "--cluster", "prod", "--policy-report", "--kubeconfig", kubeconfig, "-o", "json")
		if i == 2 {
			obj, err := client.Get(context.Background(), "eksdoctor-prod", metav1.GetOptions{})
			if err != nil || obj.GetResourceVersion() == versions[1] || strings.Contains(fmt.Sprint(obj.Object["results"]), "asg-launch-failures fail") {
				t.Errorf("report not updated in place by a new scan (exit %d, %v)", code, err)
			}
			break
		}
		if code != ExitFindings || strings.Contains(errOut, "failed") {
			t.Fatalf("scan exit %d: %s", code, errOut)
		}
		obj, err := client.Get(context.Background(), "eksdoctor-prod", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		versions = append(versions, obj.GetResourceVersion())
		var rep struct {
			Summary map[string]int
			Results []struct {
				Policy, Rule, Result, Severity, Message, Source, Category string
				Properties                                                map[string]string
				Timestamp                                                 struct{ Seconds int64 }
			}
		}
		raw, _ := json.Marshal(obj.Object)
		json.Unmarshal(raw, &rep)
		found := false
		for _, r := range rep.Results {
			if r.Rule == "nodegroup.asg-launch-failures" {
				found = true
				if r.Result != "fail" || r.Severity != "high" || r.Properties["severity"] != "critical" || r.Source != "eksdoctor" ||
					r.Category != "nodegroup" || r.Policy != "eksdoctor-nodegroup" ||
					!strings.HasPrefix(r.Properties["resource"], "eks-ng-al2023") || !strings.Contains(r.Message, "capacity") ||
					!strings.Contains(r.Properties["evidence"], "Failed") || r.Properties["remediation"] == "" || r.Timestamp.Seconds != collected.Unix() {
					t.Errorf("result = %+v", r)
				}
			}
		}
		if !found || rep.Summary["fail"] < 1 || rep.Summary["pass"] < 1 {
			t.Errorf("report summary %v, asg result found %v", rep.Summary, found)
		}
	}
	list, _ := client.List(context.Background(), metav1.ListOptions{})
	if len(list.Items) != 1 || versions[0] != versions[1] {
		t.Errorf("want one report, unchanged by an identical scan: %d objects, versions %v", len(list.Items), versions)
	}
}

// TestScan200InstancesLive scans a 200-instance cluster live: 150 joined (Node objects exist in
// the real API server) and 50 whose instance profile holds a role that is not mapped. Every
// unjoined instance must be found with its cause, with AWS calls independent of the instance
// count and, with 100 ms added to every AWS call, in under 2 s.
func TestScan200InstancesLive(t *testing.T) {
	_, cs, kubeconfig := apiserver(t)
	ctx := context.Background()
	snap := fleetSnapshot(t, "healthy-al2023", 200)
	// 50 instances launched with a profile whose role is mapped nowhere
	p := filepath.Join(snap, "ec2", "describe-instances.json")
	b, _ := os.ReadFile(p)
	var out map[string]any
	json.Unmarshal(b, &out)
	insts := out["Reservations"].([]any)[0].(map[string]any)["Instances"].([]any)
	var joinedNames []string
	for i, in := range insts {
		m := in.(map[string]any)
		if i >= 150 {
			m["IamInstanceProfile"] = map[string]any{"Arn": "arn:aws:iam::111122223333:instance-profile/legacy-profile", "Id": "AIPALEGACY"}
		} else {
			joinedNames = append(joinedNames, m["PrivateDnsName"].(string))
		}
	}
	b, _ = json.Marshal(out)
	os.WriteFile(p, b, 0o644)
	prof, _ := os.ReadFile(filepath.Join(snap, "iam", "get-instance-profile", "prod-node-role-profile.json"))
	legacy := strings.NewReplacer("prod-node-role-profile", "legacy-profile", "prod-node-role", "legacy-node-role").Replace(string(prof))
	os.WriteFile(filepath.Join(snap, "iam", "get-instance-profile", "legacy-profile.json"), []byte(legacy), 0o644)
	pol, _ := os.ReadFile(filepath.Join(snap, "iam", "list-attached-role-policies", "prod-node-role.json"))
	os.WriteFile(filepath.Join(snap, "iam", "list-attached-role-policies", "legacy-node-role.json"), pol, 0o644)
	// the cluster side: aws-auth maps only prod-node-role; 150 nodes registered
	cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kube-system"}}, metav1.CreateOptions{})
	cs.CoreV1().ConfigMaps("kube-system").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "aws-auth"},
		Data: map[string]string{"mapRoles": "- rolearn: arn:aws:iam::111122223333:role/prod-node-role\n  username: system:node:{{EC2PrivateDNSName}}\n  groups: [system:bootstrappers, system:nodes]\n"}}, metav1.CreateOptions{})
	for _, name := range []string{"eks:node-bootstrapper", "eks:node-manager"} {
		cs.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
		cs.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: name},
			RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: name}}, metav1.CreateOptions{})
	}
	for _, n := range joinedNames {
		// Ready: a NotReady Node is diagnosed as well
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n, Labels: map[string]string{"kubernetes.io/os": "linux"}},
			Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}}}
		if _, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil && !strings.Contains(err.Error(), "already exists") {
			t.Fatal(err)
		}
	}
	fake := liveEnv(t, snap, func(s *awsfake.Server) { s.Latency = 100 * time.Millisecond })
	t.Setenv("KUBECONFIG", kubeconfig)
	start := time.Now()
	code, stdout, errOut := run("scan", "--cluster", "prod", "-o", "json")
	elapsed := time.Since(start)
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s scanJSON
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatal(err)
	}
	if s.Summary.Joined != 150 || s.Summary.Unjoined != 50 || len(s.Fleet.Instances) != 50 {
		t.Fatalf("joined %d unjoined %d", s.Summary.Joined, s.Summary.Unjoined)
	}
	for _, in := range s.Fleet.Instances {
		if c := in.Diagnosis.MostLikelyCause; c == nil || *c != "auth.role-not-mapped" {
			cause := "none"
			if c != nil {
				cause = *c
			}
			t.Errorf("%s: cause %s", in.Target.InstanceID, cause)
		}
	}
	if n := fake.Requests(); n > 36 { // 27, Fargate profiles, 4 CloudTrail lookups, slack
		t.Errorf("%d AWS requests for 200 instances (must not grow with the instances)", n)
	}
	if elapsed >= 2*time.Second {
		t.Errorf("scan took %s with 100 ms per AWS call, budget 2 s", elapsed)
	}
	t.Logf("200 instances: %d AWS requests, %s", fake.Requests(), elapsed.Round(time.Millisecond))
}
