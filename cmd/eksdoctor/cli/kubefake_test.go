package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// kubeFault is what the fake API server answers, instead of the snapshot's file, to a request
// whose path contains its key: a status with a body (a metav1.Status when Body is empty and
// Status is set), or the connection dropped without an answer (Drop).
type kubeFault struct {
	Status int
	Body   string
	// Drop closes the connection without answering (a cut list, a load balancer reset).
	Drop bool
	// ExpireContinue answers the first page of a list with a continue token and the second
	// with 410 Gone (the token expired mid-way); for lists of pods.
	ExpireContinue bool
}

// kubeRoutes maps the API paths the collector reads to the snapshot's kube/ files.
var kubeRoutes = map[string]string{
	"/api/v1/namespaces/kube-system/configmaps/aws-auth":       "kube/aws-auth",
	"/api/v1/namespaces/kube-system/configmaps/amazon-vpc-cni": "kube/amazon-vpc-cni",
	"/api/v1/nodes": "kube/nodes",
	"/apis/certificates.k8s.io/v1/certificatesigningrequests":                      "kube/csrs",
	"/apis/apps/v1/namespaces/kube-system/daemonsets/aws-node":                     "kube/aws-node",
	"/api/v1/namespaces/kube-system/serviceaccounts/aws-node":                      "kube/aws-node-serviceaccount",
	"/api/v1/namespaces/kube-system/services/kube-dns":                             "kube/kube-dns",
	"/apis/rbac.authorization.k8s.io/v1/clusterroles/eks:node-bootstrapper":        "kube/clusterroles/eks:node-bootstrapper",
	"/apis/rbac.authorization.k8s.io/v1/clusterroles/eks:node-manager":             "kube/clusterroles/eks:node-manager",
	"/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/eks:node-bootstrapper": "kube/clusterrolebindings/eks:node-bootstrapper",
	"/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/eks:node-manager":      "kube/clusterrolebindings/eks:node-manager",
	"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations":        "kube/validatingwebhookconfigurations",
	"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations":          "kube/mutatingwebhookconfigurations",
	"/apis/karpenter.sh/v1/nodeclaims":                                             "kube/nodeclaims",
	"/apis/karpenter.sh/v1/nodepools":                                              "kube/nodepools",
	"/apis/karpenter.k8s.aws/v1/ec2nodeclasses":                                    "kube/ec2nodeclasses",
	"/apis/eks.amazonaws.com/v1/nodeclasses":                                       "kube/nodeclasses",
	"/api/v1/pods":                                                                 "kube/pending-pods",
}

// fakeKube serves a snapshot's kube/ files as a Kubernetes API server would (a missing file or
// kubectl's NotFound text is a 404), with faults by path, and returns a kubeconfig file for it.
// It is hermetic: plain HTTP on loopback, no binaries.
func fakeKube(t *testing.T, snap string, faults map[string]kubeFault) string {
	t.Helper()
	read := func(base string) ([]byte, bool) {
		for _, ext := range []string{".json", ".yaml"} {
			b, err := os.ReadFile(filepath.Join(snap, filepath.FromSlash(base+ext)))
			if err != nil {
				continue
			}
			if ext == ".yaml" {
				if b, err = yaml.YAMLToJSON(b); err != nil {
					t.Errorf("%s: %v", base, err)
					return nil, false
				}
			}
			return b, true
		}
		return nil, false
	}
	status := func(w http.ResponseWriter, code int, reason, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%q,"reason":%q,"code":%d}`, msg, reason, code)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for key, f := range faults {
			if !strings.Contains(r.URL.Path, key) {
				continue
			}
			switch {
			case f.Drop:
				if hj, ok := w.(http.Hijacker); ok {
					c, _, _ := hj.Hijack()
					c.Close()
					return
				}
			case f.ExpireContinue:
				if r.URL.Query().Get("continue") != "" {
					status(w, http.StatusGone, "Expired", "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.")
					return
				}
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"kind":"PodList","apiVersion":"v1","metadata":{"continue":"tok1","resourceVersion":"1"},"items":[]}`)
				return
			case f.Body != "":
				w.WriteHeader(f.Status)
				fmt.Fprint(w, f.Body)
				return
			default:
				status(w, f.Status, http.StatusText(f.Status), "fault injected for "+key)
				return
			}
		}
		p := r.URL.Path
		base, ok := kubeRoutes[p]
		if !ok && strings.HasPrefix(p, "/apis/discovery.k8s.io/v1/namespaces/") {
			ns := strings.Split(p, "/")[5]
			name := strings.TrimPrefix(r.URL.Query().Get("labelSelector"), "kubernetes.io/service-name=")
			base, ok = "kube/endpointslices/"+ns+"."+name, true
		}
		b, found := read(base)
		if !ok || !found {
			status(w, http.StatusNotFound, "NotFound", p+" not found")
			return
		}
		if t := strings.TrimSpace(string(b)); !strings.HasPrefix(t, "{") {
			// kubectl's error text in the snapshot
			if strings.Contains(t, "doesn't have a resource type") || strings.Contains(t, "NotFound") {
				http.NotFound(w, r)
				return
			}
			if strings.Contains(t, "Forbidden") {
				status(w, http.StatusForbidden, "Forbidden", t)
				return
			}
			status(w, http.StatusInternalServerError, "InternalError", t)
			return
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Errorf("%s: %v", base, err)
		}
		if doc["kind"] == "List" {
			// the API server names a list by its items' kind (NodeList), kubectl "List"
			doc["metadata"] = map[string]any{"resourceVersion": "1"}
			if items, _ := doc["items"].([]any); len(items) > 0 {
				if it, _ := items[0].(map[string]any); it != nil {
					doc["kind"], doc["apiVersion"] = fmt.Sprint(it["kind"])+"List", it["apiVersion"]
				}
			}
			b, _ = json.Marshal(doc)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	os.WriteFile(kc, []byte(fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters: [{name: t, cluster: {server: %q}}]\nusers: [{name: a, user: {token: x}}]\ncontexts: [{name: t, context: {cluster: t, user: a}}]\ncurrent-context: t\n", srv.URL)), 0o600)
	return kc
}
