// Package kube collects the cluster-side evidence of a node join with client-go: the aws-auth
// and amazon-vpc-cni ConfigMaps, Nodes, CertificateSigningRequests, the aws-node DaemonSet and
// its ServiceAccount, the kube-dns Service, the eks:node-bootstrapper / eks:node-manager RBAC
// objects, the admission webhooks with their endpoints, and Karpenter's and EKS Auto Mode's
// NodeClaims, NodePools and node classes (CustomReads, through the dynamic client). It only gets and lists (see
// deploy/rbac). What it reads is written as kubectl prints it at the snapshot's kube/ paths; a
// Forbidden or NotFound answer is written as kubectl's error text, so the snapshot reader turns
// it into a gap naming the permission, or a fact.
package kube

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// Read is one get or list the collector makes, for the RBAC it needs.
type Read struct {
	Group, Resource, Verb string
	// Namespace is set for namespaced reads; Name for gets of one object.
	Namespace, Name string
	Kinds           []evidence.Kind
}

// Paths are the snapshot files the collector writes (besides per-service EndpointSlices).
var Paths = []string{"kube/aws-auth.json", "kube/amazon-vpc-cni.json", "kube/nodes.json", "kube/csrs.json", "kube/aws-node.json",
	"kube/aws-node-serviceaccount.json", "kube/kube-dns.json", "kube/validatingwebhookconfigurations.json", "kube/mutatingwebhookconfigurations.json",
	"kube/clusterroles/eks:node-bootstrapper.json", "kube/clusterroles/eks:node-manager.json",
	"kube/clusterrolebindings/eks:node-bootstrapper.json", "kube/clusterrolebindings/eks:node-manager.json",
	"kube/nodeclaims.json", "kube/nodepools.json", "kube/ec2nodeclasses.json", "kube/nodeclasses.json", "kube/pending-pods.json"}

// NodeRBACNames are the ClusterRoles and ClusterRoleBindings EKS creates for nodes.
var NodeRBACNames = []string{"eks:node-bootstrapper", "eks:node-manager"}

// Reads lists everything the collector may read (deploy/rbac/clusterrole.yaml grants exactly this).
var Reads = []Read{
	{"", "configmaps", "get", "kube-system", "aws-auth", []evidence.Kind{evidence.KindAWSAuth}},
	{"", "configmaps", "get", "kube-system", "amazon-vpc-cni", []evidence.Kind{evidence.KindVPCCNIConfig}},
	{"", "nodes", "list", "", "", []evidence.Kind{evidence.KindNodes}},
	{"certificates.k8s.io", "certificatesigningrequests", "list", "", "", []evidence.Kind{evidence.KindCSRs}},
	{"apps", "daemonsets", "get", "kube-system", "aws-node", []evidence.Kind{evidence.KindAWSNode}},
	{"", "serviceaccounts", "get", "kube-system", "aws-node", []evidence.Kind{evidence.KindAWSNodeServiceAccount}},
	{"", "services", "get", "kube-system", "kube-dns", []evidence.Kind{evidence.KindKubeDNS}},
	{"rbac.authorization.k8s.io", "clusterroles", "get", "", "", []evidence.Kind{evidence.KindNodeRBAC}},
	{"rbac.authorization.k8s.io", "clusterrolebindings", "get", "", "", []evidence.Kind{evidence.KindNodeRBAC}},
	{"admissionregistration.k8s.io", "validatingwebhookconfigurations", "list", "", "", []evidence.Kind{evidence.KindWebhooks}},
	{"admissionregistration.k8s.io", "mutatingwebhookconfigurations", "list", "", "", []evidence.Kind{evidence.KindWebhooks}},
	{"discovery.k8s.io", "endpointslices", "list", "", "", []evidence.Kind{evidence.KindWebhookEndpoints}},
	{"karpenter.sh", "nodeclaims", "list", "", "", []evidence.Kind{evidence.KindNodeClaims}},
	{"karpenter.sh", "nodepools", "list", "", "", []evidence.Kind{evidence.KindNodePools}},
	{"karpenter.k8s.aws", "ec2nodeclasses", "list", "", "", []evidence.Kind{evidence.KindEC2NodeClasses}},
	{"eks.amazonaws.com", "nodeclasses", "list", "", "", []evidence.Kind{evidence.KindNodeClasses}},
	// pods are listed only with the field selector status.phase=Pending (Options.Scan); RBAC
	// cannot express the selector, the collector's code keeps to it (tested)
	{"", "pods", "list", "", "", []evidence.Kind{evidence.KindPendingPods}},
}

// MaxPendingPods bounds the Pending pods read (pages of 500): a cluster with more is judged on
// the first ones rather than held in memory whole.
const MaxPendingPods = 5000

// Options control one collection.
type Options struct {
	// Needs lists the evidence kinds the selected checks use; nil means all.
	Needs []evidence.Kind
	// Dynamic lists the custom resources (CustomReads); nil writes them as not collected.
	Dynamic dynamic.Interface
	// Scan also reads cluster-wide evidence that no single instance's diagnosis needs: the
	// Pending pods the fargate.* checks match against Fargate profiles.
	Scan bool
}

// Result holds the kubectl-shaped files read, keyed by snapshot path. Denied reads appear as
// kubectl's Forbidden text in their file (and as permission gaps in the evidence).
type Result struct {
	Files map[string][]byte
	// Errors are the typed errors of the failed reads, by the same paths: a diagnosis judges
	// these (snapshot.FromDocuments) rather than the text in Files, which is for `collect`.
	Errors map[string]*snapshot.SourceError
}

type collector struct {
	c     kubernetes.Interface
	needs map[evidence.Kind]bool
	mu    sync.Mutex
	res   *Result
	// unreached are the reads that failed before any answer of the API server (a refused
	// connection, a dial or TLS handshake timeout), by path.
	unreached map[string]*url.Error
}

func (col *collector) wanted(kinds ...evidence.Kind) bool {
	if col.needs == nil {
		return true
	}
	for _, k := range kinds {
		if col.needs[k] {
			return true
		}
	}
	return false
}

// Collect reads, concurrently, everything the selected checks need. It does not fail: errors
// are written into the files as kubectl would print them.
func Collect(ctx context.Context, c kubernetes.Interface, o Options) *Result {
	col := &collector{c: c, res: &Result{Files: map[string][]byte{}, Errors: map[string]*snapshot.SourceError{}}}
	if o.Needs != nil {
		col.needs = map[evidence.Kind]bool{}
		for _, k := range o.Needs {
			col.needs[k] = true
		}
	}
	var wg sync.WaitGroup
	do := func(kind evidence.Kind, f func()) {
		if !col.wanted(kind) {
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	do(evidence.KindAWSAuth, func() {
		o, err := c.CoreV1().ConfigMaps("kube-system").Get(ctx, "aws-auth", metav1.GetOptions{})
		col.save("kube/aws-auth.json", "v1", "ConfigMap", o, err)
	})
	do(evidence.KindVPCCNIConfig, func() {
		o, err := c.CoreV1().ConfigMaps("kube-system").Get(ctx, "amazon-vpc-cni", metav1.GetOptions{})
		col.save("kube/amazon-vpc-cni.json", "v1", "ConfigMap", o, err)
	})
	do(evidence.KindNodes, func() {
		o, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err == nil {
			col.saveList("kube/nodes.json", "v1", "Node", o.Items)
			return
		}
		col.save("kube/nodes.json", "", "", nil, err)
	})
	do(evidence.KindCSRs, func() {
		o, err := c.CertificatesV1().CertificateSigningRequests().List(ctx, metav1.ListOptions{})
		if err == nil {
			col.saveList("kube/csrs.json", "certificates.k8s.io/v1", "CertificateSigningRequest", o.Items)
			return
		}
		col.save("kube/csrs.json", "", "", nil, err)
	})
	do(evidence.KindAWSNode, func() {
		o, err := c.AppsV1().DaemonSets("kube-system").Get(ctx, "aws-node", metav1.GetOptions{})
		col.save("kube/aws-node.json", "apps/v1", "DaemonSet", o, err)
	})
	do(evidence.KindAWSNodeServiceAccount, func() {
		o, err := c.CoreV1().ServiceAccounts("kube-system").Get(ctx, "aws-node", metav1.GetOptions{})
		col.save("kube/aws-node-serviceaccount.json", "v1", "ServiceAccount", o, err)
	})
	do(evidence.KindKubeDNS, func() {
		o, err := c.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
		col.save("kube/kube-dns.json", "v1", "Service", o, err)
	})
	for _, name := range NodeRBACNames {
		do(evidence.KindNodeRBAC, func() {
			o, err := c.RbacV1().ClusterRoles().Get(ctx, name, metav1.GetOptions{})
			col.save("kube/clusterroles/"+name+".json", "rbac.authorization.k8s.io/v1", "ClusterRole", o, err)
		})
		do(evidence.KindNodeRBAC, func() {
			o, err := c.RbacV1().ClusterRoleBindings().Get(ctx, name, metav1.GetOptions{})
			col.save("kube/clusterrolebindings/"+name+".json", "rbac.authorization.k8s.io/v1", "ClusterRoleBinding", o, err)
		})
	}
	for _, r := range CustomReads {
		do(r.Evidence, func() { col.collectCustom(ctx, o.Dynamic, r) })
	}
	if o.Scan {
		do(evidence.KindPendingPods, func() { col.pendingPods(ctx) })
	}
	if col.wanted(evidence.KindWebhooks, evidence.KindWebhookEndpoints) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			col.webhooks(ctx)
		}()
	}
	wg.Wait()
	col.unreachable()
	return col.res
}

// unreachable rewrites the errors of a collection in which no read reached the API server —
// every read failed before an answer (url.Error without an API status) — as one error naming
// the server and why, with code Unreachable and kubectl's "Unable to connect to the server"
// text: the report then says it once, not once per object and URL. A collection in which some
// reads were answered keeps each failed read's own error.
func (col *collector) unreachable() {
	if len(col.unreached) == 0 {
		return
	}
	for p := range col.res.Files {
		if e := col.res.Errors[p]; col.unreached[p] == nil && (e == nil || e.Code != "NoAccess") {
			return // a read was answered (NoAccess: one that was never sent)
		}
	}
	paths := make([]string, 0, len(col.unreached))
	for p := range col.unreached {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	first := col.unreached[paths[0]]
	server := first.URL
	if u, err := url.Parse(first.URL); err == nil && u.Host != "" {
		server = u.Scheme + "://" + u.Host
	}
	why := first.Err.Error()
	for _, p := range paths {
		col.res.Files[p] = []byte("Unable to connect to the server: " + why + "\n")
		col.res.Errors[p] = &snapshot.SourceError{Code: "Unreachable",
			Message: fmt.Sprintf("kubernetes: the API server %s could not be reached (%s): no cluster object was read", server, why)}
	}
}

// pendingPods lists the pods of every namespace in phase Pending (the field selector is applied by
// the API server), page by page, at most MaxPendingPods.
func (col *collector) pendingPods(ctx context.Context) {
	var items []corev1.Pod
	opts := metav1.ListOptions{FieldSelector: "status.phase=Pending", Limit: 500}
	for {
		o, err := col.c.CoreV1().Pods("").List(ctx, opts)
		if err != nil {
			col.save("kube/pending-pods.json", "", "", nil, err)
			return
		}
		items = append(items, o.Items...)
		if o.Continue == "" || len(items) >= MaxPendingPods {
			break
		}
		opts.Continue = o.Continue
	}
	if len(items) > MaxPendingPods {
		items = items[:MaxPendingPods]
	}
	col.saveList("kube/pending-pods.json", "v1", "Pod", items)
}

// webhooks lists both webhook configurations and, for webhooks that fail closed and call an
// in-cluster service, the EndpointSlices of that service.
func (col *collector) webhooks(ctx context.Context) {
	c := col.c
	services := map[string]bool{}
	vw, err := c.AdmissionregistrationV1().ValidatingWebhookConfigurations().List(ctx, metav1.ListOptions{})
	if err == nil {
		col.saveList("kube/validatingwebhookconfigurations.json", "admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", vw.Items)
		for _, cfg := range vw.Items {
			for _, w := range cfg.Webhooks {
				addService(services, w.FailurePolicy, w.ClientConfig)
			}
		}
	} else {
		col.save("kube/validatingwebhookconfigurations.json", "", "", nil, err)
	}
	mw, err := c.AdmissionregistrationV1().MutatingWebhookConfigurations().List(ctx, metav1.ListOptions{})
	if err == nil {
		col.saveList("kube/mutatingwebhookconfigurations.json", "admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", mw.Items)
		for _, cfg := range mw.Items {
			for _, w := range cfg.Webhooks {
				addService(services, w.FailurePolicy, w.ClientConfig)
			}
		}
	} else {
		col.save("kube/mutatingwebhookconfigurations.json", "", "", nil, err)
	}
	keys := make([]string, 0, len(services))
	for k := range services {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var ns, name string
		fmt.Sscanf(k, "%s %s", &ns, &name)
		o, err := c.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/service-name=" + name})
		path := "kube/endpointslices/" + ns + "." + name + ".json"
		if err == nil {
			col.saveList(path, "discovery.k8s.io/v1", "EndpointSlice", o.Items)
		} else {
			col.save(path, "", "", nil, err)
		}
	}
}

func addService(set map[string]bool, policy *admissionv1.FailurePolicyType, cc admissionv1.WebhookClientConfig) {
	if cc.Service == nil || (policy != nil && *policy == admissionv1.Ignore) {
		return
	}
	set[cc.Service.Namespace+" "+cc.Service.Name] = true
}

// save writes obj (setting apiVersion/kind, which client-go leaves empty) or kubectl's error text.
func (col *collector) save(path, apiVersion, kind string, obj any, err error) {
	var b []byte
	var serr *snapshot.SourceError
	if err != nil {
		b = []byte(kubectlError(err))
		serr = snapshot.KubeError(string(apierrors.ReasonForError(err)), err.Error())
		var ue *url.Error
		if _, isStatus := err.(apierrors.APIStatus); !isStatus && errors.As(err, &ue) {
			col.mu.Lock()
			if col.unreached == nil {
				col.unreached = map[string]*url.Error{}
			}
			col.unreached[path] = ue
			col.mu.Unlock()
		}
		if serr.Code == "" || serr.Code == string(metav1.StatusReasonUnknown) {
			serr = snapshot.KubeError("InternalError", err.Error())
		}
	} else {
		var m map[string]any
		raw, _ := json.Marshal(obj)
		_ = json.Unmarshal(raw, &m)
		m["apiVersion"], m["kind"] = apiVersion, kind
		b, _ = json.MarshalIndent(m, "", "    ")
		b = append(b, '\n')
	}
	col.mu.Lock()
	col.res.Files[path] = b
	if serr != nil {
		col.res.Errors[path] = serr
	}
	col.mu.Unlock()
}

// saveList writes items as a kubectl List.
func (col *collector) saveList(path, apiVersion, kind string, items any) {
	var list []map[string]any
	raw, _ := json.Marshal(items)
	_ = json.Unmarshal(raw, &list)
	for _, m := range list {
		m["apiVersion"], m["kind"] = apiVersion, kind
	}
	if list == nil {
		list = []map[string]any{}
	}
	b, _ := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": list, "metadata": map[string]any{"resourceVersion": ""}}, "", "    ")
	col.mu.Lock()
	col.res.Files[path] = append(b, '\n')
	col.mu.Unlock()
}

// kubectlError renders err as kubectl prints it: "Error from server (Reason): message".
func kubectlError(err error) string {
	reason := string(apierrors.ReasonForError(err))
	if reason == "" || reason == string(metav1.StatusReasonUnknown) {
		reason = "InternalError"
	}
	return fmt.Sprintf("Error from server (%s): %s\n", reason, err.Error())
}

// Operation names the read that writes snapshot path p as "VERB RESOURCE[.GROUP] [NAMESPACE/]NAME"
// ("get daemonsets kube-system/aws-node", "list nodeclaims.karpenter.sh"), for messages about a
// read that failed; "read of P" for a path the collector does not write.
func Operation(p string) string {
	switch {
	case p == "kube/pending-pods.json":
		return "list pods"
	case strings.HasPrefix(p, "kube/endpointslices/"):
		return "list endpointslices.discovery.k8s.io " + strings.Replace(strings.TrimSuffix(strings.TrimPrefix(p, "kube/endpointslices/"), ".json"), ".", "/", 1)
	}
	for _, r := range CustomReads {
		if r.Path == p {
			return "list " + r.GVR.Resource + "." + r.GVR.Group
		}
	}
	for _, r := range Reads {
		res := r.Resource
		if r.Group != "" {
			res += "." + r.Group
		}
		switch {
		case r.Name != "" && p == "kube/"+r.Name+".json", r.Name != "" && p == "kube/"+r.Name+"-serviceaccount.json" && r.Resource == "serviceaccounts":
			return r.Verb + " " + r.Resource + " " + r.Namespace + "/" + r.Name
		case r.Name == "" && r.Verb == "get" && strings.HasPrefix(p, "kube/"+r.Resource+"/"):
			return "get " + res + " " + strings.TrimSuffix(strings.TrimPrefix(p, "kube/"+r.Resource+"/"), ".json")
		case r.Verb == "list" && p == "kube/"+r.Resource+".json":
			return "list " + res
		}
	}
	switch p {
	case "kube/csrs.json":
		return "list certificatesigningrequests.certificates.k8s.io"
	case "kube/kube-dns.json":
		return "get services kube-system/kube-dns"
	}
	return "read of " + p
}
