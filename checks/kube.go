package checks

import (
	"fmt"
	"strings"
	"time"

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
			NeedsAny: []evidence.Kind{evidence.KindAWSNode, evidence.KindNodeLogs, evidence.KindNodes}, Optional: []evidence.Kind{evidence.KindBootstrap, evidence.KindInstance},
			Stage:       StagePostJoin,
			Why:         "The kubelet reports NetworkPluginNotReady until the CNI writes its configuration (aws-node on Linux EC2 nodes); if the aws-node DaemonSet is missing, cannot schedule on the node (a taint it does not tolerate) or its pods are not ready, the node stays NotReady.",
			Remediation: "Reinstall or repair the VPC CNI add-on (aws eks update-addon --cluster-name CLUSTER --addon-name vpc-cni --resolve-conflicts OVERWRITE); make aws-node tolerate the node's taints (its default toleration is operator: Exists); check aws-node logs with kubectl -n kube-system logs ds/aws-node -c aws-node.",
			Docs:        []string{docVPCCNI, docTaints}},
			Eval: func(ev *evidence.Evidence) []Finding {
				var out []Finding
				if ev.Have(evidence.KindNodeLogs) {
					// the node's own logs: NetworkPluginNotReady without a later recovery
					out = hybridCNIFindings(ev, evalSignatures("runtime.cni-not-ready")(ev))
					out = cniStartWindow(ev, out)
				}
				var logsSkip []Finding
				if len(out) == 1 && out[0].Status == StatusSkipped {
					logsSkip, out = out, nil // the logs hold nothing of the CNI; the other evidence judges alone
				}
				cond, hasCond := readyConditionNetwork(ev)
				if hasCond && !hasStatus(out, StatusFail) {
					// the Node object's own Ready condition, as a pasted describe node is read
					out = append(out, cond)
				} else {
					hasCond = false
				}
				owner, because := cniOwner(ev)
				if owner != "" {
					for i := range out {
						if out[i].Status == StatusFail {
							out[i].Message += "; on " + cniOwnerName[owner] + " (" + because + ") the CNI is not the aws-node DaemonSet's"
							out[i].Remediation = cniOwnerFix[owner]
						}
					}
				}
				if ev.Provisioner.Kind == evidence.ProvisionerHybrid {
					// aws-node keeps off hybrid nodes (hybridCNIFix): its state says nothing of them
					return append(out, notApplicable("kube-system/aws-node", "hybrid nodes run Cilium or Calico, not the aws-node DaemonSet ("+ev.Provisioner.Because+")"))
				}
				switch owner {
				case cniAutoMode:
					// Auto Mode nodes run the VPC CNI as part of the node; the aws-node DaemonSet,
					// when a cluster has one, keeps off them (its affinity excludes
					// eks.amazonaws.com/compute-type auto)
					return append(out, notApplicable("kube-system/aws-node", "EKS Auto Mode nodes run the VPC CNI themselves, not the aws-node DaemonSet ("+because+")"))
				case cniWindows:
					// aws-node's nodeSelector is kubernetes.io/os: linux
					return append(out, notApplicable("kube-system/aws-node", "aws-node is Linux-only and never runs on a Windows node ("+because+")"))
				}
				if !ev.Have(evidence.KindAWSNode) {
					if len(out) == 0 && logsSkip != nil {
						return logsSkip
					}
					if len(out) == 0 {
						return one(Finding{Status: StatusSkipped, Resource: "kube-system/aws-node", Message: fmt.Sprintf("missing evidence: %s: %s", evidence.KindAWSNode, ev.GapFor(evidence.KindAWSNode).Reason)})
					}
					return out
				}
				aw := evalAWSNode(ev)
				if hasCond && len(aw) == 1 && aw[0].Status == StatusFail {
					// why aws-node is not there is the cause; the condition is its symptom
					aw[0].Evidence = append(aw[0].Evidence, cond.Evidence...)
					out = out[:len(out)-1]
				}
				return append(out, aw...)
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

// CNI owners other than the aws-node DaemonSet (cniOwner).
const (
	cniAutoMode = "auto"
	cniWindows  = "windows"
)

// cniOwnerName names the node of each CNI owner in messages.
var cniOwnerName = map[string]string{cniAutoMode: "an EKS Auto Mode node", cniWindows: "a Windows node"}

// cniOwnerFix is runtime.cni-not-ready's remediation for a node whose CNI is not the aws-node
// DaemonSet's. Auto Mode: the VPC CNI is baked into the Auto Mode AMI and runs as a systemd
// service (https://docs.aws.amazon.com/eks/latest/userguide/auto-runtime-monitoring.html);
// Windows: pod IPs come from the VPC resource controller once enable-windows-ipam is "true" in
// the amazon-vpc-cni ConfigMap (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html).
var cniOwnerFix = map[string]string{
	cniAutoMode: "EKS Auto Mode runs the VPC CNI on the node itself (a service of the Auto Mode AMI), so there is no add-on to reinstall: check the node's NodeClass (kubectl get nodeclass NAME -o yaml: its subnets, security groups and status conditions) and read the node's own logs with a NodeDiagnostic (https://docs.aws.amazon.com/eks/latest/userguide/auto-get-logs.html); if neither explains it, open an AWS support case.",
	cniWindows:  "Windows nodes get pod networking from the VPC resource controller and the CNI configuration Start-EKSBootstrap writes: turn Windows IPAM on (kubectl patch configmap/amazon-vpc-cni -n kube-system --type merge -p '{\"data\":{\"enable-windows-ipam\":\"true\"}}'), make sure the cluster role has AmazonEKSVPCResourceController, and check that Start-EKSBootstrap ran to the end (the EC2Launch log).",
}

// cniOwner returns who configures pod networking on the target node when it is not the aws-node
// DaemonSet — cniAutoMode (an EKS Auto Mode node: the provisioner, or the Node's label
// eks.amazonaws.com/compute-type=auto, which the aws-vpc-cni chart's affinity excludes) or
// cniWindows (a Windows node: aws-node's nodeSelector is kubernetes.io/os: linux) — and what
// shows it; "" when aws-node is the node's CNI or nothing tells.
func cniOwner(ev *evidence.Evidence) (owner, because string) {
	n := targetNodeObject(ev)
	switch {
	case ev.Provisioner.Kind == evidence.ProvisionerAutoMode:
		return cniAutoMode, ev.Provisioner.Because
	case n != nil && n.Labels["eks.amazonaws.com/compute-type"] == "auto":
		return cniAutoMode, "Node label eks.amazonaws.com/compute-type=auto"
	case n != nil && n.OS == "windows":
		return cniWindows, "Node " + n.Name + " OS windows"
	case ev.Instance != nil && ev.Instance.Platform == "windows":
		return cniWindows, "instance platform windows"
	}
	return "", ""
}

// targetNodeObject returns the target's own entry of ev.Nodes: the Node JoinedNode names, or the
// only Node of an input without an instance (a pasted kubectl describe node); nil when none.
func targetNodeObject(ev *evidence.Evidence) *evidence.Node {
	if st := JoinedNode(ev); st != nil && st.Name != "" {
		for i := range ev.Nodes {
			if ev.Nodes[i].Name == st.Name {
				return &ev.Nodes[i]
			}
		}
	}
	if ev.Instance == nil && len(ev.Nodes) == 1 {
		return &ev.Nodes[0]
	}
	return nil
}

// cniStartGrace is how long a registered Node may report NetworkPluginNotReady before it counts
// as a fault: the kubelet reports it from registration until the CNI's first start writes its
// configuration (aws-node pulls its images and starts ipamd, usually within a minute), judged
// from the Ready condition's lastTransitionTime against Evidence.CollectedAt.
const cniStartGrace = 5 * time.Minute

// cniStartWindow turns the log testimony's failures of runtime.cni-not-ready into a skip when the
// first failing line is less than cniStartGrace before the collection time of a node log bundle
// (taken minutes after boot: the CNI may still be starting, as readyConditionNetwork judges a
// Node's condition). A paste's collection time is only its last dated line — where the poster cut
// the log, not when the node was looked at — so a paste's failures are kept, as they are without
// a dated first line.
func cniStartWindow(ev *evidence.Evidence, out []Finding) []Finding {
	if ev.CollectedAt.IsZero() || !strings.HasPrefix(ev.Source(evidence.KindNodeLogs), "bundle:") || !hasStatus(out, StatusFail) {
		return out
	}
	var first time.Time
	for _, h := range ev.NodeLogs.Hits {
		if h.Finding != "runtime.cni-not-ready" || h.Normal || h.First.Time.IsZero() {
			continue
		}
		if first.IsZero() || h.First.Time.Before(first) {
			first = h.First.Time
		}
	}
	if first.IsZero() || first.After(ev.CollectedAt) || ev.CollectedAt.Sub(first) >= cniStartGrace {
		return out
	}
	return one(Finding{Status: StatusSkipped, Resource: targetName(ev), Message: fmt.Sprintf("not a cause yet: the CNI was first reported not ready at %s, %s before the collection at %s, within the %d minutes a starting node's CNI may take (aws-node pulls its images and starts IPAMD)",
		first.UTC().Format(time.RFC3339), ev.CollectedAt.Sub(first).Round(time.Second), ev.CollectedAt.UTC().Format(time.RFC3339), int(cniStartGrace.Minutes()))})
}

// readyConditionNetwork returns the failure the target's NotReady Node object testifies to when
// its Ready condition message says the container network is not ready ("container runtime
// network not ready: NetworkReady=false …", kubernetes pkg/kubelet/nodestatus/setters.go
// ReadyCondition); false otherwise.
func readyConditionNetwork(ev *evidence.Evidence) (Finding, bool) {
	n := targetNodeObject(ev)
	if n == nil || n.Ready || !strings.Contains(n.ReadyMessage, "NetworkReady=false") {
		return Finding{}, false
	}
	if !n.ReadySince.IsZero() && !ev.CollectedAt.IsZero() && ev.CollectedAt.Sub(n.ReadySince) < cniStartGrace {
		// a node that registered moments ago: the CNI is still starting (blind snapshots8/02)
		return Finding{}, false
	}
	return fail(n.Name, fmt.Sprintf("the Ready condition of Node %s says the container network is not ready: the CNI has not written its configuration", n.Name),
		item(ev.Source(evidence.KindNodes), "Node %s Ready False %s: %s", n.Name, n.ReadyReason, n.ReadyMessage)), true
}

// hasStatus reports whether any finding has status st.
func hasStatus(fs []Finding, st Status) bool {
	for _, f := range fs {
		if f.Status == st {
			return true
		}
	}
	return false
}

// evalAWSNode judges DaemonSet kube-system/aws-node (runtime.cni-not-ready, cluster side).
func evalAWSNode(ev *evidence.Evidence) []Finding {
	ds := ev.AWSNode
	if ds == nil {
		return one(fail("kube-system/aws-node", "DaemonSet kube-system/aws-node does not exist: no pod will configure pod networking", item(ev.Source(evidence.KindAWSNode), "NotFound")))
	}
	it := item(ev.Source(evidence.KindAWSNode), "aws-node: %d desired, %d ready; %s", ds.Desired, ds.Ready, nOf(len(ds.Tolerations), "toleration", "tolerations"))
	// the Node object's own taints first (whoever set them: a managed node group, a NodePool,
	// kubectl taint), then those the node's configuration registers it with
	type taintSet struct {
		taints   []string
		src, who string
	}
	var sets []taintSet
	if n := targetNodeObject(ev); n != nil {
		sets = append(sets, taintSet{n.Taints, ev.Source(evidence.KindNodes), "Node " + n.Name + " has taint"})
	}
	if ev.Bootstrap != nil {
		sets = append(sets, taintSet{ev.Bootstrap.Taints, ev.Source(evidence.KindBootstrap), "the node registers with taint"})
	}
	for _, set := range sets {
		for _, taint := range set.taints {
			if strings.HasSuffix(taint, ":NoSchedule") || strings.HasSuffix(taint, ":NoExecute") {
				if key, _, _ := strings.Cut(strings.SplitN(taint, ":", 2)[0], "="); transientTaints[key] || tolerates(ds.Tolerations, taint) {
					continue
				}
				taints := item(set.src, "taints %s", quoteList(set.taints))
				if n := JoinedNode(ev); n != nil && n.Ready {
					// a Ready node has a working CNI: another one, or aws-node started before the
					// taint was set
					return one(warn("kube-system/aws-node", fmt.Sprintf("%s %s, which aws-node does not tolerate, but node %s is Ready, so a CNI runs on it", set.who, taint, n.Name), it, taints))
				}
				return one(fail("kube-system/aws-node", fmt.Sprintf("%s %s, which aws-node does not tolerate: the CNI never starts there", set.who, taint), it, taints))
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
