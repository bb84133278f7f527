package checks

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	kubeletapis "k8s.io/kubelet/pkg/apis"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// docKubeletFlags documents --node-labels and the namespaces the kubelet may set itself.
const docKubeletFlags = "https://kubernetes.io/docs/reference/command-line-tools-reference/kubelet/"

func init() { registerChecks(nodeLabelChecks) }

func nodeLabelChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "bootstrap.restricted-node-labels", Title: "Node labels the kubelet refuses to set", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindBootstrap}, Stage: StageBootstrap,
			Why:         "The kubelet checks its --node-labels before it starts (Bottlerocket's settings.kubernetes.node-labels, NodeConfig kubelet flags, bootstrap.sh --kubelet-extra-args, eksctl's NODE_LABELS and a managed node group's labels all become that flag): a label in the kubernetes.io or k8s.io namespaces other than the node.kubernetes.io and kubelet.kubernetes.io prefixes and the well-known hostname, OS, arch, instance-type and topology labels, or a key or value that is not a valid label, makes a 1.16 or later kubelet exit with \"unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels\" or an invalid label error, so the node never registers (kubelets 1.13–1.15 only warned about the namespaces, and such a node is judged by its kubelet's version when the evidence gives it). Such labels (node-role.kubernetes.io/worker, kubernetes.io/cluster/NAME) can only be set by a controller or an administrator after the node joined.",
			Remediation: "Remove the refused labels from the node's configuration, or rename them into node.kubernetes.io/… or your own namespace (example.com/role=worker); set node-role.kubernetes.io/… labels from a controller after the node registers, and put kubernetes.io/cluster/NAME on the instance as a tag, not as a node label.",
			Docs:        []string{docKubeletFlags, "https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/#noderestriction", docBottlerocketK8s}},
			Eval: evalRestrictedNodeLabels},
	}
}

func evalRestrictedNodeLabels(ev *evidence.Evidence) []Finding {
	b, res := ev.Bootstrap, targetName(ev)
	if len(b.Labels) == 0 {
		return one(pass(res, "the node's configuration sets no node labels"))
	}
	keys := make([]string, 0, len(b.Labels))
	for k := range b.Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var refused []string
	namespaceOnly := true
	for _, k := range keys {
		if why := refusedNodeLabel(k, b.Labels[k]); why != "" {
			refused = append(refused, fmt.Sprintf("%s (%s)", k, why))
			namespaceOnly = namespaceOnly && strings.HasPrefix(why, "in the ")
		}
	}
	it := bootstrapItem(ev, "node labels %s", strings.Join(keys, ", "))
	if len(refused) == 0 {
		return one(pass(res, fmt.Sprintf("%d node label%s, none the kubelet refuses", len(keys), plural(int64(len(keys)))), it))
	}
	if namespaceOnly {
		// kubelets 1.13–1.15 only warned ("in 1.16, --node-labels in the 'kubernetes.io'
		// namespace must begin with an allowed prefix"); 1.16 refuses to start (KEP-279,
		// Bounding Self-Labeling Kubelets)
		ver, from, src := nodeKubeletMinor(ev)
		if minorNumber(ver) < 0 {
			ver, from, src = loggedKubeletVersion(ev)
		}
		if n := minorNumber(ver); n >= 0 && n < 16 {
			return one(pass(res, fmt.Sprintf("a %s kubelet only warns about the node label%s %s (it refuses them from 1.16)", ver, plural(int64(len(refused))), strings.Join(refused, ", ")), it, item(src, "%s", from)))
		}
	}
	return one(fail(res, fmt.Sprintf("the kubelet refuses to start with the node label%s %s", plural(int64(len(refused))), strings.Join(refused, ", ")), it))
}

// refusedNodeLabel says why a 1.16 or later kubelet refuses to start with node label key=value, or "": a key
// in the kubernetes.io or k8s.io namespaces (or a subdomain) that the kubelet may not set itself
// (k8s.io/kubelet/pkg/apis.IsKubeletLabel; the test is ValidateKubeletFlags in
// kubernetes/cmd/kubelet/app/options/options.go), or a key or value that is not a valid label.
func refusedNodeLabel(key, value string) string {
	if errs := validation.IsQualifiedName(key); len(errs) > 0 {
		return "not a valid label key"
	}
	if errs := validation.IsValidLabelValue(value); len(errs) > 0 {
		return "not a valid label value"
	}
	ns, _, ok := strings.Cut(key, "/")
	if !ok {
		return ""
	}
	for _, d := range []string{"kubernetes.io", "k8s.io"} {
		if (ns == d || strings.HasSuffix(ns, "."+d)) && !kubeletapis.IsKubeletLabel(key) {
			return "in the " + d + " namespace the kubelet may not set"
		}
	}
	return ""
}
