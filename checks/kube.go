package checks

import (
	"fmt"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docWebhooks       = "https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/#failure-policy"
	docEKSWebhooks    = "https://docs.aws.amazon.com/eks/latest/best-practices/reliability.html"
	docVPCCNI         = "https://docs.aws.amazon.com/eks/latest/userguide/managing-vpc-cni.html"
	docTaints         = "https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/"
	docNodeRBAC       = "https://docs.aws.amazon.com/eks/latest/userguide/default-roles-users.html"
	docNodeAuthorizer = "https://kubernetes.io/docs/reference/access-authn-authz/node/"
)

// nodeJoinResource is a resource a joining kubelet creates or updates: its API group, and whether
// it is namespaced (and then the namespace the kubelet writes it in).
type nodeJoinResource struct {
	name, group, namespace string
}

// nodeJoinResources are the resources a joining kubelet creates or updates: its Node and the
// Node's status (core, cluster-scoped), its lease (coordination.k8s.io, in kube-node-lease) and
// its certificate signing requests (certificates.k8s.io, cluster-scoped).
var nodeJoinResources = []nodeJoinResource{
	{"nodes", "", ""}, {"nodes/status", "", ""}, {"leases", "coordination.k8s.io", "kube-node-lease"}, {"certificatesigningrequests", "certificates.k8s.io", ""},
}

// webhookMatchesNodeJoin reports which node-join resource a webhook intercepts, judged as the
// API server does (admissionregistration/v1 RuleWithOperations): a rule matches a resource when
// an operation is CREATE, UPDATE or *, an API group is the resource's or *, a resource entry
// names it (* for resources, */* or nodes/* also for subresources) and its scope admits it
// (Cluster: cluster-scoped only; Namespaced: namespaced only; * or unset: both). A namespaced
// resource is intercepted only when the webhook's namespaceSelector admits its namespace; a
// cluster-scoped one never skips the webhook.
func webhookMatchesNodeJoin(w evidence.Webhook) string {
	for _, r := range w.Rules {
		writes := false
		for _, op := range r.Operations {
			if op == "*" || op == "CREATE" || op == "UPDATE" {
				writes = true
			}
		}
		if !writes {
			continue
		}
		for _, want := range nodeJoinResources {
			if !hasString(r.APIGroups, "*") && !hasString(r.APIGroups, want.group) {
				continue
			}
			switch r.Scope {
			case "Cluster":
				if want.namespace != "" {
					continue
				}
			case "Namespaced":
				if want.namespace == "" {
					continue
				}
			}
			if want.namespace != "" && !selectorMayAdmit(w.NamespaceSelector, want.namespace) {
				continue
			}
			for _, res := range r.Resources {
				base, sub, _ := strings.Cut(want.name, "/")
				if res == "*/*" || res == want.name || sub == "" && res == "*" || sub != "" && (res == base+"/*" || res == "*/"+sub) {
					return want.name
				}
			}
		}
	}
	return ""
}

// selectorMayAdmit reports whether a namespaceSelector may admit namespace ns. Only the label
// every namespace carries, kubernetes.io/metadata.name (set by the API server since Kubernetes
// 1.21), is known; a requirement on any other key may hold, so only a requirement on the name
// label can exclude the namespace.
func selectorMayAdmit(sel *evidence.LabelSelector, ns string) bool {
	const nameKey = "kubernetes.io/metadata.name"
	if sel == nil {
		return true
	}
	if v, ok := sel.MatchLabels[nameKey]; ok && v != ns {
		return false
	}
	for _, e := range sel.MatchExpressions {
		if e.Key != nameKey {
			continue
		}
		switch e.Operator {
		case "In":
			if !hasString(e.Values, ns) {
				return false
			}
		case "NotIn":
			if hasString(e.Values, ns) {
				return false
			}
		case "DoesNotExist":
			return false
		}
	}
	return true
}

// tolerates reports whether tolerations admit a taint written "key=value:Effect" or "key:Effect".
func tolerates(tols []evidence.Toleration, taint string) bool {
	kv, effect, _ := strings.Cut(taint, ":")
	key, value, _ := strings.Cut(kv, "=")
	for _, t := range tols {
		if t.Effect != "" && t.Effect != effect {
			continue
		}
		switch {
		case t.Operator == "Exists" && (t.Key == "" || t.Key == key):
			return true
		case (t.Operator == "" || t.Operator == "Equal") && t.Key == key && t.Value == value:
			return true
		}
	}
	return false
}

func kubeChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "cluster.webhook-blocks-nodes", ClusterWide: true, Title: "An admission webhook that fails closed blocks node registration", Severity: SeverityHigh,
			Needs: []evidence.Kind{evidence.KindWebhooks}, Optional: []evidence.Kind{evidence.KindWebhookEndpoints}, Stage: StageCerts, Explains: explains("csr.pending", "runtime.node-name-not-found", "runtime.cni-not-ready", "nodegroup.health-issues"),
			Why:         "A validating or mutating webhook with failurePolicy Fail that intercepts nodes, leases or certificate signing requests rejects every such request while its service has no ready endpoint — and its pods often cannot start until nodes join, so new nodes never register.",
			Remediation: "Scope the webhook away from node objects (rules or namespaceSelector/objectSelector), set failurePolicy: Ignore, or restore its backing pods; in an emergency delete it: kubectl delete validatingwebhookconfiguration NAME.",
			Docs:        []string{docWebhooks, docEKSWebhooks}},
			Eval: func(ev *evidence.Evidence) []Finding {
				var out []Finding
				checked := 0
				for _, w := range ev.Webhooks {
					res := webhookMatchesNodeJoin(w)
					if res == "" || w.FailurePolicy != "Fail" || w.Service == "" {
						continue
					}
					checked++
					kind := "validating"
					if w.Mutating {
						kind = "mutating"
					}
					it := item(ev.Source(evidence.KindWebhooks), "%s webhook %s/%s: failurePolicy %s, intercepts %s, service %s, ready endpoints %d", kind, w.Configuration, w.Name, w.FailurePolicy, res, w.Service, w.ReadyEndpoints)
					switch {
					case w.ReadyEndpoints < 0:
						out = append(out, Finding{Status: StatusSkipped, Resource: w.Configuration, Message: fmt.Sprintf("cannot tell whether %s webhook %s has ready endpoints: %s", kind, w.Name, w.EndpointsGap)})
					case w.ReadyEndpoints == 0:
						out = append(out, fail(w.Configuration, fmt.Sprintf("%s webhook %s (failurePolicy Fail) intercepts %s but service %s has no ready endpoint", kind, w.Name, res, w.Service), it))
					}
				}
				if len(out) > 0 {
					return out
				}
				return one(pass("admission webhooks", fmt.Sprintf("%s node objects, all with ready endpoints (%d webhooks in all)", nOf(checked, "fail-closed webhook intercepts", "fail-closed webhooks intercept"), len(ev.Webhooks)),
					item(ev.Source(evidence.KindWebhooks), "%d webhooks", len(ev.Webhooks))))
			}},
		{Meta: Meta{ID: "runtime.cni-not-ready", ClusterWide: true, Title: "The VPC CNI (aws-node) is not running on the node", Severity: SeverityCritical,
			NeedsAny: []evidence.Kind{evidence.KindAWSNode, evidence.KindNodeLogs}, Optional: []evidence.Kind{evidence.KindBootstrap, evidence.KindNodes, evidence.KindInstance},
			Stage:       StagePostJoin,
			Why:         "The kubelet reports NetworkPluginNotReady until aws-node writes the CNI configuration; if the aws-node DaemonSet is missing, cannot schedule on the node (a taint it does not tolerate) or its pods are not ready, the node stays NotReady.",
			Remediation: "Reinstall or repair the VPC CNI add-on (aws eks update-addon --cluster-name CLUSTER --addon-name vpc-cni --resolve-conflicts OVERWRITE); make aws-node tolerate the node's taints (its default toleration is operator: Exists); check aws-node logs with kubectl -n kube-system logs ds/aws-node -c aws-node.",
			Docs:        []string{docVPCCNI, docTaints}},
			Eval: func(ev *evidence.Evidence) []Finding {
				var out []Finding
				if ev.Have(evidence.KindNodeLogs) {
					// the node's own logs: NetworkPluginNotReady without a later recovery
					out = hybridCNIFindings(ev, evalSignatures("runtime.cni-not-ready")(ev))
				}
				if !ev.Have(evidence.KindAWSNode) {
					return out
				}
				if ev.Provisioner.Kind == evidence.ProvisionerHybrid {
					// aws-node keeps off hybrid nodes (hybridCNIFix): its state says nothing of them
					return append(out, notApplicable("kube-system/aws-node", "hybrid nodes run Cilium or Calico, not the aws-node DaemonSet ("+ev.Provisioner.Because+")"))
				}
				if len(out) == 1 && out[0].Status == StatusSkipped {
					out = nil // the logs hold nothing of the CNI; the cluster side judges alone
				}
				if ev.Provisioner.Kind == evidence.ProvisionerAutoMode {
					// Auto Mode nodes run the VPC CNI as part of the node; the aws-node DaemonSet,
					// when a cluster has one, keeps off them (its affinity excludes
					// eks.amazonaws.com/compute-type auto)
					return append(out, notApplicable("kube-system/aws-node", "EKS Auto Mode nodes run the VPC CNI themselves, not the aws-node DaemonSet ("+ev.Provisioner.Because+")"))
				}
				return append(out, evalAWSNode(ev)...)
			}},
		{Meta: Meta{ID: "auth.node-manager-rbac", ClusterWide: true, Title: "EKS node ClusterRoles or bindings are missing", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindNodeRBAC}, Optional: []evidence.Kind{evidence.KindInstance},
			Stage: StageAuth, Explains: explains("csr.*", "nodegroup.health-issues"),
			Why:         "EKS creates the ClusterRoles and ClusterRoleBindings eks:node-bootstrapper (nodes may request their certificates) and eks:node-manager (the managed node group service may manage nodes); when they are deleted, CSRs are not approved and managed node group operations fail with AccessDenied.",
			Remediation: "Recreate the missing objects as EKS defines them (compare with a healthy cluster: kubectl get clusterrole,clusterrolebinding eks:node-manager eks:node-bootstrapper -o yaml), or open a support case; never delete eks:* RBAC objects.",
			Docs:        []string{docNodeRBAC, docNodeAuthorizer}},
			Eval: func(ev *evidence.Evidence) []Finding {
				r := ev.NodeRBAC
				var missing []string
				for _, name := range []string{"eks:node-bootstrapper", "eks:node-manager"} {
					if !r.ClusterRoles[name] {
						missing = append(missing, "ClusterRole "+name)
					}
					if !r.ClusterRoleBindings[name] {
						missing = append(missing, "ClusterRoleBinding "+name)
					}
				}
				it := item(ev.Source(evidence.KindNodeRBAC), "present: %d ClusterRoles, %d ClusterRoleBindings", len(r.ClusterRoles), len(r.ClusterRoleBindings))
				if len(missing) == 0 {
					return one(pass("rbac", "eks:node-bootstrapper and eks:node-manager roles and bindings exist", it))
				}
				managed := ev.Instance != nil && ev.Instance.Tags["eks:nodegroup-name"] != ""
				onlyManager := !strings.Contains(strings.Join(missing, ","), "bootstrapper")
				if onlyManager && !managed {
					return one(warn("rbac", "missing "+strings.Join(missing, ", ")+" (managed node groups need them; this node is self-managed)", it))
				}
				return one(fail("rbac", "missing "+strings.Join(missing, ", "), it))
			}},
	}
}

// transientTaints are taint keys a node registers with that no DaemonSet needs to tolerate: the
// DaemonSet controller adds tolerations of the node lifecycle taints to every DaemonSet pod
// (kubernetes pkg/controller/daemon/util/daemonset_util.go, AddOrUpdateDaemonPodTolerations;
// network-unavailable for host-network pods like aws-node), the cloud controller manager removes
// node.cloudprovider.kubernetes.io/uninitialized once it has initialised the Node, and Karpenter
// removes karpenter.sh/unregistered when it registers the Node to its NodeClaim
// (kubernetes-sigs/karpenter pkg/controllers/nodeclaim/lifecycle/registration.go).
var transientTaints = map[string]bool{
	"node.kubernetes.io/not-ready": true, "node.kubernetes.io/unreachable": true, "node.kubernetes.io/disk-pressure": true,
	"node.kubernetes.io/memory-pressure": true, "node.kubernetes.io/pid-pressure": true, "node.kubernetes.io/unschedulable": true,
	"node.kubernetes.io/network-unavailable": true, "node.cloudprovider.kubernetes.io/uninitialized": true, "karpenter.sh/unregistered": true,
}

// evalAWSNode judges DaemonSet kube-system/aws-node (runtime.cni-not-ready, cluster side).
func evalAWSNode(ev *evidence.Evidence) []Finding {
	ds := ev.AWSNode
	if ds == nil {
		return one(fail("kube-system/aws-node", "DaemonSet kube-system/aws-node does not exist: no pod will configure pod networking", item(ev.Source(evidence.KindAWSNode), "NotFound")))
	}
	it := item(ev.Source(evidence.KindAWSNode), "aws-node: %d desired, %d ready; %s", ds.Desired, ds.Ready, nOf(len(ds.Tolerations), "toleration", "tolerations"))
	if ev.Bootstrap != nil {
		for _, taint := range ev.Bootstrap.Taints {
			if strings.HasSuffix(taint, ":NoSchedule") || strings.HasSuffix(taint, ":NoExecute") {
				if key, _, _ := strings.Cut(strings.SplitN(taint, ":", 2)[0], "="); transientTaints[key] || tolerates(ds.Tolerations, taint) {
					continue
				}
				msg := fmt.Sprintf("the node registers with taint %s, which aws-node does not tolerate: the CNI never starts there", taint)
				taints := item(ev.Source(evidence.KindBootstrap), "taints %s", quoteList(ev.Bootstrap.Taints))
				if n := JoinedNode(ev); n != nil && n.Ready {
					// a Ready node has a working CNI: another one, or aws-node started before the
					// taint was set
					return one(warn("kube-system/aws-node", fmt.Sprintf("the node's configuration sets taint %s, which aws-node does not tolerate, but node %s is Ready, so a CNI runs on it", taint, n.Name), it, taints))
				}
				return one(fail("kube-system/aws-node", msg, it, taints))
			}
		}
	}
	if ds.Desired > ds.Ready {
		msg := fmt.Sprintf("%d of %d aws-node pods are not ready", ds.Desired-ds.Ready, ds.Desired)
		if n := JoinedNode(ev); n != nil && !n.Ready {
			// the target registered but stays NotReady: the missing CNI is its cause, not a detail
			return one(fail("kube-system/aws-node", msg+"; node "+n.Name+" is NotReady", it))
		}
		return one(warn("kube-system/aws-node", msg, it))
	}
	return one(pass("kube-system/aws-node", fmt.Sprintf("aws-node ready on %d/%d nodes and tolerates the node's taints", ds.Ready, ds.Desired), it))
}
