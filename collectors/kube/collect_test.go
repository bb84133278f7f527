package kube

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	k8stesting "k8s.io/client-go/testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func TestCollectWithFakeClientset(t *testing.T) {
	cs := fake.NewSimpleClientset(
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "aws-auth", Namespace: "kube-system"}, Data: map[string]string{"mapRoles": "- rolearn: x\n"}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"kubernetes.io/os": "linux"}}},
	)
	cs.PrependReactor("get", "serviceaccounts", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "serviceaccounts"}, "aws-node", nil)
	})
	res := Collect(context.Background(), cs, Options{})
	var cm struct {
		Kind string
		Data map[string]string
	}
	if err := json.Unmarshal(res.Files["kube/aws-auth.json"], &cm); err != nil || cm.Kind != "ConfigMap" || cm.Data["mapRoles"] == "" {
		t.Errorf("aws-auth = %s (%v)", res.Files["kube/aws-auth.json"], err)
	}
	var nodes struct {
		Kind  string
		Items []struct{ Kind string }
	}
	if json.Unmarshal(res.Files["kube/nodes.json"], &nodes); nodes.Kind != "List" || len(nodes.Items) != 1 || nodes.Items[0].Kind != "Node" {
		t.Errorf("nodes = %s", res.Files["kube/nodes.json"])
	}
	if got := string(res.Files["kube/amazon-vpc-cni.json"]); !strings.HasPrefix(got, "Error from server (NotFound):") {
		t.Errorf("missing ConfigMap = %q", got)
	}
	if got := string(res.Files["kube/aws-node-serviceaccount.json"]); !strings.HasPrefix(got, "Error from server (Forbidden):") {
		t.Errorf("forbidden = %q", got)
	}
	// only what is needed
	res = Collect(context.Background(), cs, Options{Needs: []evidence.Kind{evidence.KindNodes}})
	if len(res.Files) != 1 || res.Files["kube/nodes.json"] == nil {
		t.Errorf("collected %d files for one kind", len(res.Files))
	}
}

func TestToken(t *testing.T) {
	cfg := aws.Config{Region: "eu-west-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")}
	tok, err := Token(context.Background(), cfg, "prod")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(tok, "k8s-aws-v1."))
	if !strings.HasPrefix(tok, "k8s-aws-v1.") || err != nil {
		t.Fatalf("token %q: %v", tok, err)
	}
	u, err := url.Parse(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if q.Get("Action") != "GetCallerIdentity" || q.Get("X-Amz-Expires") != "60" || !strings.Contains(q.Get("X-Amz-SignedHeaders"), "x-k8s-aws-id") || !strings.HasPrefix(u.Host, "sts.") {
		t.Errorf("presigned URL %s", u)
	}
}

// TestOperationNamesEveryPath: every file the collector writes names its read.
func TestOperationNamesEveryPath(t *testing.T) {
	want := map[string]string{
		"kube/aws-node.json":                           "get daemonsets kube-system/aws-node",
		"kube/aws-node-serviceaccount.json":            "get serviceaccounts kube-system/aws-node",
		"kube/aws-auth.json":                           "get configmaps kube-system/aws-auth",
		"kube/kube-dns.json":                           "get services kube-system/kube-dns",
		"kube/nodes.json":                              "list nodes",
		"kube/csrs.json":                               "list certificatesigningrequests.certificates.k8s.io",
		"kube/nodeclaims.json":                         "list nodeclaims.karpenter.sh",
		"kube/pending-pods.json":                       "list pods",
		"kube/clusterroles/eks:node-manager.json":      "get clusterroles.rbac.authorization.k8s.io eks:node-manager",
		"kube/endpointslices/kyverno.kyverno-svc.json": "list endpointslices.discovery.k8s.io kyverno/kyverno-svc",
	}
	for p, op := range want {
		if got := Operation(p); got != op {
			t.Errorf("Operation(%s) = %q, want %q", p, got, op)
		}
	}
	for _, p := range Paths {
		if strings.HasPrefix(Operation(p), "read of") {
			t.Errorf("Operation(%s) names no read", p)
		}
	}
}

// TestCollectUnreachableAPIServer: when no read reaches the API server (a connection refused, a
// dial timeout), each read's error says the same thing once — the server could not be reached,
// and why — with code Unreachable, not an InternalError per URL that the report repeated for
// every object.
func TestCollectUnreachableAPIServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused
	rc := &rest.Config{Host: "https://" + addr, TLSClientConfig: rest.TLSClientConfig{Insecure: true}}
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	res := Collect(context.Background(), cs, Options{Dynamic: dyn})
	if len(res.Errors) < 5 {
		t.Fatalf("errors: %v", res.Errors)
	}
	var msg string
	for p, e := range res.Errors {
		if e.Code != "Unreachable" || !strings.Contains(e.Message, "https://"+addr) || !strings.Contains(e.Message, "connection refused") || strings.Contains(e.Message, "/api/") {
			t.Errorf("%s: %+v", p, e)
		}
		if msg == "" {
			msg = e.Message
		} else if e.Message != msg {
			t.Errorf("%s: %q differs from %q", p, e.Message, msg)
		}
	}
}
