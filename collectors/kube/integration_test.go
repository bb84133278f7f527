package kube_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authnv1 "k8s.io/api/authentication/v1"
	authzv1 "k8s.io/api/authorization/v1"
	certv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/kube"
	"github.com/eksdoctor/eksdoctor/collectors/kube/kubetest"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

var env *kubetest.Env

func TestMain(m *testing.M) {
	bin, ok := kubetest.BinDir()
	if !ok {
		if os.Getenv("EKSDOCTOR_REQUIRE_APISERVER") != "" {
			fmt.Fprintf(os.Stderr, "FAIL: kube-apiserver/etcd not found in %s (run collectors/kube/kubetest/build-testbin.sh)\n", bin)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "\n*** SKIPPING the real kube-apiserver integration tests: no binaries in %s.\n*** Build them with collectors/kube/kubetest/build-testbin.sh (make test does).\n\n", bin)
		os.Exit(m.Run())
	}
	start := time.Now()
	e, err := kubetest.Start(bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: starting the control plane:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "kube-apiserver %s ready in %s\n", kubetest.DefaultVersion, time.Since(start).Round(time.Millisecond))
	env = e
	code := m.Run()
	e.Stop()
	os.Exit(code)
}

const (
	nodeName = "ip-10-0-1-23.eu-west-1.compute.internal" // the instance of fixtures/snapshots/healthy-al2023
	instance = "i-0a1b2c3d4e5f60001"
	roleArn  = "arn:aws:iam::111122223333:role/prod-node-role"
)

func need(t *testing.T) kubernetes.Interface {
	t.Helper()
	if env == nil {
		t.Skip("no kube-apiserver binaries (see TestMain)")
	}
	cs, err := kubernetes.NewForConfig(env.Config(kubetest.AdminToken))
	if err != nil {
		t.Fatal(err)
	}
	seedOnce(t, cs)
	registerDynamic(t, cs, kubetest.AdminToken)
	seedKarpenterOnce(t, cs)
	return cs
}

var seeded bool

func csrPEM(t *testing.T, cn string) []byte {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{
		Subject: pkix.Name{CommonName: cn, Organization: []string{"system:nodes"}}, DNSNames: []string{nodeName}, IPAddresses: []net.IP{net.ParseIP("10.0.1.23")}}, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
}

const mapRoles = "- rolearn: " + roleArn + "\n  username: system:node:{{EC2PrivateDNSName}}\n  groups:\n    - system:bootstrappers\n    - system:nodes\n"

// seedOnce creates the cluster objects an EKS cluster has, plus CSRs in every state and a
// fail-closed webhook on nodes whose service has no endpoint.
func seedOnce(t *testing.T, cs kubernetes.Interface) {
	if seeded {
		return
	}
	seeded = true
	ctx := context.Background()
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	ks := "kube-system"
	must(cs.CoreV1().ConfigMaps(ks).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "aws-auth"}, Data: map[string]string{"mapRoles": mapRoles}}, metav1.CreateOptions{}))
	must(cs.CoreV1().ConfigMaps(ks).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "amazon-vpc-cni"}, Data: map[string]string{"enable-network-policy-controller": "false"}}, metav1.CreateOptions{}))
	for name, os := range map[string]string{"ip-10-0-17-201.eu-west-1.compute.internal": "linux", "ip-10-0-17-202.eu-west-1.compute.internal": "windows"} {
		must(cs.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/os": os}}}, metav1.CreateOptions{}))
	}
	labels := map[string]string{"k8s-app": "aws-node"}
	must(cs.AppsV1().DaemonSets(ks).Create(ctx, &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "aws-node"},
		Spec: appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
			Spec: corev1.PodSpec{ServiceAccountName: "aws-node", HostNetwork: true, Tolerations: []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
				Containers: []corev1.Container{{Name: "aws-node", Image: "602401143452.dkr.ecr.eu-west-1.amazonaws.com/amazon-k8s-cni:v1.19.0",
					Env: []corev1.EnvVar{{Name: "WARM_ENI_TARGET", Value: "1"}}}}}}}}, metav1.CreateOptions{}))
	must(cs.CoreV1().ServiceAccounts(ks).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "aws-node"}}, metav1.CreateOptions{}))
	must(cs.CoreV1().Services(ks).Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "kube-dns"}, Spec: corev1.ServiceSpec{ClusterIP: "10.0.0.10",
		Ports: []corev1.ServicePort{{Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP}}}}, metav1.CreateOptions{}))
	for _, name := range kube.NodeRBACNames {
		must(cs.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{"certificates.k8s.io"}, Resources: []string{"certificatesigningrequests"}, Verbs: []string{"create"}}}}, metav1.CreateOptions{}))
		must(cs.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: name},
			RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: name},
			Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "Group", Name: "system:bootstrappers"}}}, metav1.CreateOptions{}))
	}
	// kubelet CSRs of the node in every state
	for _, state := range []string{"pending", "approved", "denied", "failed"} {
		csr, err := cs.CertificatesV1().CertificateSigningRequests().Create(ctx, &certv1.CertificateSigningRequest{ObjectMeta: metav1.ObjectMeta{Name: "csr-" + state},
			Spec: certv1.CertificateSigningRequestSpec{Request: csrPEM(t, "system:node:"+nodeName), SignerName: certv1.KubeletServingSignerName,
				Usages: []certv1.KeyUsage{certv1.UsageDigitalSignature, certv1.UsageServerAuth}}}, metav1.CreateOptions{})
		must(csr, err)
		cond := map[string]certv1.RequestConditionType{"approved": certv1.CertificateApproved, "denied": certv1.CertificateDenied}[state]
		if cond != "" {
			csr.Status.Conditions = []certv1.CertificateSigningRequestCondition{{Type: cond, Status: corev1.ConditionTrue, Reason: "EksdoctorTest", Message: "set by the integration test"}}
			must(cs.CertificatesV1().CertificateSigningRequests().UpdateApproval(ctx, csr.Name, csr, metav1.UpdateOptions{}))
		}
		if state == "failed" {
			csr.Status.Conditions = []certv1.CertificateSigningRequestCondition{{Type: certv1.CertificateFailed, Status: corev1.ConditionTrue, Reason: "SignerValidationFailure", Message: "node name mismatch"}}
			must(cs.CertificatesV1().CertificateSigningRequests().UpdateStatus(ctx, csr, metav1.UpdateOptions{}))
		}
	}
	// a fail-closed webhook on nodes whose service has no endpoint (created last: it would block node creation)
	fail, none, path := admissionv1.Fail, admissionv1.SideEffectClassNone, "/validate"
	must(cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(ctx, &admissionv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "policy-engine"},
		Webhooks: []admissionv1.ValidatingWebhook{{Name: "validate.policy.example.com", FailurePolicy: &fail, SideEffects: &none, AdmissionReviewVersions: []string{"v1"},
			ClientConfig: admissionv1.WebhookClientConfig{Service: &admissionv1.ServiceReference{Namespace: "policy-system", Name: "policy-engine", Path: &path}},
			Rules:        []admissionv1.RuleWithOperations{{Operations: []admissionv1.OperationType{admissionv1.Create}, Rule: admissionv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"nodes"}}}}}}},
		metav1.CreateOptions{}))
}

// evidenceWith combines the AWS side of the healthy fixture with live kube files.
func evidenceWith(t *testing.T, kubeFiles map[string][]byte) *evidence.Evidence {
	t.Helper()
	files := map[string][]byte{}
	root := "../../fixtures/snapshots/healthy-al2023"
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if !strings.HasPrefix(rel, "kube"+string(filepath.Separator)) {
			files[filepath.ToSlash(rel)], _ = os.ReadFile(p)
		}
		return nil
	})
	files["manifest.json"] = []byte(fmt.Sprintf(`{"cluster":"prod","region":"eu-west-1","collectedAt":%q}`, time.Now().UTC().Format(time.RFC3339)))
	for p, b := range kubeFiles {
		files[p] = b
	}
	ev, err := snapshot.FromFiles("live", files).Evidence(instance, "")
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

var kubeKinds = []evidence.Kind{evidence.KindAWSAuth, evidence.KindVPCCNIConfig, evidence.KindNodes, evidence.KindCSRs, evidence.KindAWSNode,
	evidence.KindAWSNodeServiceAccount, evidence.KindKubeDNS, evidence.KindNodeRBAC, evidence.KindWebhooks, evidence.KindWebhookEndpoints,
	evidence.KindNodeClaims, evidence.KindNodePools, evidence.KindEC2NodeClasses, evidence.KindNodeClasses, evidence.KindPendingPods}

func statuses(ev *evidence.Evidence) map[string]checks.Finding {
	out := map[string]checks.Finding{}
	for _, f := range checks.Run(checks.Default().All(), ev) {
		if prev, ok := out[f.ID]; !ok || f.Status == checks.StatusFail && prev.Status != checks.StatusFail {
			out[f.ID] = f
		}
	}
	return out
}

func TestCollectAsAdminFindsTheInjectedProblems(t *testing.T) {
	cs := need(t)
	ev := evidenceWith(t, kube.Collect(context.Background(), cs, optionsFor(cs)).Files)
	for _, k := range kubeKinds {
		if !ev.Have(k) {
			t.Errorf("%s not collected: %s", k, ev.GapFor(k).Reason)
		}
	}
	got := statuses(ev)
	want := map[string]checks.Status{
		"auth.role-not-mapped": checks.StatusPass, "auth.aws-auth-malformed": checks.StatusPass, "auth.node-manager-rbac": checks.StatusPass,
		"csr.denied": checks.StatusFail, "csr.pending": checks.StatusWarn, "cluster.webhook-blocks-nodes": checks.StatusFail,
		"runtime.cni-not-ready": checks.StatusPass, "bootstrap.dns-ip": checks.StatusFail,
	}
	for id, st := range want {
		if got[id].Status != st {
			t.Errorf("%s = %s (%s), want %s", id, got[id].Status, got[id].Message, st)
		}
	}
	if !strings.Contains(got["csr.denied"].Message, "csr-denied") && !strings.Contains(got["csr.denied"].Message, "csr-failed") {
		t.Errorf("csr.denied: %s", got["csr.denied"].Message)
	}
	if len(ev.CSRs) != 4 {
		t.Errorf("%d CSRs", len(ev.CSRs))
	}
}

func TestAWSAuthVariantsLive(t *testing.T) {
	cs := need(t)
	ctx := context.Background()
	defer func() {
		cm, _ := cs.CoreV1().ConfigMaps("kube-system").Get(ctx, "aws-auth", metav1.GetOptions{})
		cm.Data = map[string]string{"mapRoles": mapRoles}
		cs.CoreV1().ConfigMaps("kube-system").Update(ctx, cm, metav1.UpdateOptions{})
	}()
	cases := []struct{ name, mapRoles, check string }{
		{"path", strings.Replace(mapRoles, "role/prod-node-role", "role/eks/nodes/prod-node-role", 1), "auth.role-path"},
		{"instance profile", strings.Replace(mapRoles, ":role/prod-node-role", ":instance-profile/prod-node-role-profile", 1), "auth.instance-profile-arn"},
		{"username", strings.Replace(mapRoles, "system:node:{{EC2PrivateDNSName}}", "ec2-node", 1), "auth.wrong-username"},
		{"groups", strings.Replace(mapRoles, "    - system:bootstrappers\n", "", 1), "auth.missing-groups"},
		{"malformed", strings.Replace(mapRoles, "  groups:", " groups:", 1), "auth.aws-auth-malformed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cm, err := cs.CoreV1().ConfigMaps("kube-system").Get(ctx, "aws-auth", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			cm.Data = map[string]string{"mapRoles": tc.mapRoles}
			if _, err := cs.CoreV1().ConfigMaps("kube-system").Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			ev := evidenceWith(t, kube.Collect(ctx, cs, kube.Options{Needs: []evidence.Kind{evidence.KindAWSAuth}}).Files)
			// under the fixture's API_AND_CONFIG_MAP the node role's access entry takes
			// precedence over aws-auth: the aws-auth fault is then not used
			if f := statuses(ev)[tc.check]; tc.check != "auth.aws-auth-malformed" && (f.Status != checks.StatusSkipped || !strings.Contains(f.Message, "takes precedence over its aws-auth mapping")) {
				t.Errorf("with the access entry: %s = %s: %s", tc.check, f.Status, f.Message)
			}
			// under CONFIG_MAP aws-auth is what EKS reads
			ev.Cluster.AuthenticationMode = "CONFIG_MAP"
			if f := statuses(ev)[tc.check]; f.Status != checks.StatusFail {
				t.Errorf("%s = %s: %s", tc.check, f.Status, f.Message)
			}
		})
	}
}

// shippedRBAC applies deploy/rbac and returns a client for its ServiceAccount.
func shippedRBAC(t *testing.T, cs kubernetes.Interface) (kubernetes.Interface, *rbacv1.ClusterRole) {
	t.Helper()
	ctx := context.Background()
	var role rbacv1.ClusterRole
	var binding rbacv1.ClusterRoleBinding
	var sa corev1.ServiceAccount
	for f, obj := range map[string]any{"clusterrole.yaml": &role, "clusterrolebinding.yaml": &binding, "serviceaccount.yaml": &sa} {
		b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "rbac", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.UnmarshalStrict(b, obj); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: sa.Namespace}}, metav1.CreateOptions{})
	cs.CoreV1().ServiceAccounts(sa.Namespace).Create(ctx, &sa, metav1.CreateOptions{})
	if _, err := cs.RbacV1().ClusterRoles().Get(ctx, role.Name, metav1.GetOptions{}); err != nil {
		if _, err := cs.RbacV1().ClusterRoles().Create(ctx, &role, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	} else {
		cur, _ := cs.RbacV1().ClusterRoles().Get(ctx, role.Name, metav1.GetOptions{})
		cur.Rules = role.Rules
		if _, err := cs.RbacV1().ClusterRoles().Update(ctx, cur, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	cs.RbacV1().ClusterRoleBindings().Create(ctx, &binding, metav1.CreateOptions{})
	tok, err := cs.CoreV1().ServiceAccounts(sa.Namespace).CreateToken(ctx, sa.Name, &authnv1.TokenRequest{Spec: authnv1.TokenRequestSpec{}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	restricted, err := kubernetes.NewForConfig(env.Config(tok.Status.Token))
	if err != nil {
		t.Fatal(err)
	}
	registerDynamic(t, restricted, tok.Status.Token)
	return restricted, &role
}

func gapsOf(ev *evidence.Evidence) []string {
	var out []string
	for _, k := range kubeKinds {
		if !ev.Have(k) {
			out = append(out, string(k)+": "+ev.GapFor(k).Reason)
		}
	}
	sort.Strings(out)
	return out
}

// collectUntil retries briefly while RBAC changes propagate to the authorizer.
func collectUntil(t *testing.T, cs kubernetes.Interface, ok func(*evidence.Evidence) bool) *evidence.Evidence {
	var ev *evidence.Evidence
	for i := 0; i < 50; i++ {
		ev = evidenceWith(t, kube.Collect(context.Background(), cs, optionsFor(cs)).Files)
		if ok(ev) {
			return ev
		}
		time.Sleep(100 * time.Millisecond)
	}
	return ev
}

func TestShippedClusterRoleIsSufficientAndMinimal(t *testing.T) {
	cs := need(t)
	restricted, role := shippedRBAC(t, cs)
	ev := collectUntil(t, restricted, func(ev *evidence.Evidence) bool { return len(gapsOf(ev)) == 0 })
	if g := gapsOf(ev); len(g) != 0 {
		t.Fatalf("the shipped ClusterRole is not sufficient: %v", g)
	}
	// removing any one rule yields exactly one gap, naming the permission
	ctx := context.Background()
	for i := range role.Rules {
		t.Run(fmt.Sprintf("without rule %d %s", i, strings.Join(role.Rules[i].Resources, ",")+"/"+strings.Join(role.Rules[i].ResourceNames, ",")), func(t *testing.T) {
			cur, _ := cs.RbacV1().ClusterRoles().Get(ctx, role.Name, metav1.GetOptions{})
			cur.Rules = append(append([]rbacv1.PolicyRule{}, role.Rules[:i]...), role.Rules[i+1:]...)
			if _, err := cs.RbacV1().ClusterRoles().Update(ctx, cur, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			defer func() {
				cur, _ := cs.RbacV1().ClusterRoles().Get(ctx, role.Name, metav1.GetOptions{})
				cur.Rules = role.Rules
				cs.RbacV1().ClusterRoles().Update(ctx, cur, metav1.UpdateOptions{})
				collectUntil(t, restricted, func(ev *evidence.Evidence) bool { return len(gapsOf(ev)) == 0 })
			}()
			ev := collectUntil(t, restricted, func(ev *evidence.Evidence) bool { return len(ev.PermissionGaps()) > 0 })
			if g := ev.PermissionGaps(); len(g) != 1 || !strings.HasPrefix(g[0].Permission, "kubernetes:") {
				t.Errorf("want exactly one permission gap, got %v (all gaps: %v)", g, gapsOf(ev))
			}
		})
	}
}

// TestShippedRoleReview is `kubectl auth can-i --list` as the ServiceAccount: nothing beyond
// get/list, no resource beyond those the collector reads.
func TestShippedRoleReview(t *testing.T) {
	cs := need(t)
	restricted, _ := shippedRBAC(t, cs)
	allowed := map[string]bool{}
	for _, r := range kube.Reads {
		allowed[r.Resource] = true
	}
	for _, ns := range []string{"kube-system", "default"} {
		rev, err := restricted.AuthorizationV1().SelfSubjectRulesReviews().Create(context.Background(), &authzv1.SelfSubjectRulesReview{Spec: authzv1.SelfSubjectRulesReviewSpec{Namespace: ns}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rev.Status.ResourceRules {
			selfReview := len(r.APIGroups) == 1 && (r.APIGroups[0] == "authorization.k8s.io" || r.APIGroups[0] == "authentication.k8s.io")
			if selfReview {
				continue // granted to every authenticated user by system:basic-user
			}
			for _, v := range r.Verbs {
				if v != "get" && v != "list" {
					t.Errorf("verb %s on %v", v, r.Resources)
				}
			}
			for _, res := range r.Resources {
				if !allowed[res] {
					t.Errorf("resource %s is granted but the collector never reads it", res)
				}
			}
		}
	}
	// every read of the collector is covered by a rule of the shipped role
	b, _ := os.ReadFile("../../deploy/rbac/clusterrole.yaml")
	var role rbacv1.ClusterRole
	yaml.Unmarshal(b, &role)
	for _, r := range kube.Reads {
		found := false
		for _, rule := range role.Rules {
			if contains(rule.APIGroups, r.Group) && contains(rule.Resources, r.Resource) && contains(rule.Verbs, r.Verb) && (r.Name == "" || len(rule.ResourceNames) == 0 || contains(rule.ResourceNames, r.Name)) {
				found = true
			}
		}
		if !found {
			t.Errorf("no rule grants %s %s/%s %s", r.Verb, r.Group, r.Resource, r.Name)
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func TestForbiddenEverywhereNamesThePermission(t *testing.T) {
	need(t)
	nobody, _ := kubernetes.NewForConfig(env.Config(kubetest.NoGroupsToken))
	ev := evidenceWith(t, kube.Collect(context.Background(), nobody, kube.Options{}).Files)
	gaps := ev.PermissionGaps()
	if len(gaps) < 8 {
		t.Fatalf("only %d permission gaps: %v", len(gaps), gapsOf(ev))
	}
	for _, g := range gaps {
		if !strings.HasPrefix(g.Permission, "kubernetes:") {
			t.Errorf("%s: permission %q", g.Kind, g.Permission)
		}
	}
	if f := statuses(ev)["csr.pending"]; f.Status != checks.StatusSkipped || !strings.Contains(f.Message, "missing permission kubernetes:certificatesigningrequests/list") {
		t.Errorf("csr.pending: %s %s", f.Status, f.Message)
	}
}

// TestPendingPodsOnly: a scan lists the pods of every namespace in phase Pending only (the API
// server applies the field selector), and an instance's diagnosis does not list pods at all.
func TestPendingPodsOnly(t *testing.T) {
	cs := need(t)
	ctx := context.Background()
	for _, ns := range []string{"serverless", "apps"} {
		cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		// no controller-manager here to create it; the ServiceAccount admission plugin needs it
		cs.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, metav1.CreateOptions{})
	}
	pod := func(ns, name string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": name}},
			Spec: corev1.PodSpec{SchedulerName: "fargate-scheduler", Containers: []corev1.Container{{Name: "c", Image: "public.ecr.aws/nginx/nginx:1"}}}}
	}
	if _, err := cs.CoreV1().Pods("serverless").Create(ctx, pod("serverless", "web-pending"), metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	running, err := cs.CoreV1().Pods("apps").Create(ctx, pod("apps", "api-running"), metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	if err == nil {
		running.Status.Phase = corev1.PodRunning
		if _, err := cs.CoreV1().Pods("apps").UpdateStatus(ctx, running, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	res := kube.Collect(ctx, cs, kube.Options{Scan: true})
	b := string(res.Files["kube/pending-pods.json"])
	if !strings.Contains(b, `"web-pending"`) || strings.Contains(b, `"api-running"`) {
		t.Fatalf("kube/pending-pods.json = %s", b)
	}
	ev := evidenceWith(t, res.Files)
	found := false
	for _, p := range ev.Fargate.PendingPods {
		found = found || p.Namespace == "serverless" && p.Name == "web-pending"
	}
	if !found || !ev.Have(evidence.KindPendingPods) {
		t.Fatalf("pending pods = %+v", ev.Fargate.PendingPods)
	}
	if _, listed := kube.Collect(ctx, cs, kube.Options{}).Files["kube/pending-pods.json"]; listed {
		t.Fatal("pods listed outside a scan")
	}
}
