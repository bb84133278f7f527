package snapshot

import (
	"encoding/json"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// NodeRBACNames are the ClusterRoles and ClusterRoleBindings EKS creates for nodes, read from
// kube/clusterroles/<name>.json and kube/clusterrolebindings/<name>.json.
var NodeRBACNames = []string{"eks:node-bootstrapper", "eks:node-manager"}

// loadKubeExtras reads the aws-node ServiceAccount, the kube-dns Service, the node RBAC objects
// and the admission webhooks with their endpoints.
func (s *Snapshot) loadKubeExtras(ev *evidence.Evidence) {
	p := s.kubePath("aws-node-serviceaccount")
	res, reason := decodeInto(s, p, func(o *KubeServiceAccount) {
		ev.AWSNodeServiceAccount = &evidence.ServiceAccount{Name: o.Metadata.Name, Annotations: o.Metadata.Annotations}
	})
	s.markObject(ev, evidence.KindAWSNodeServiceAccount, res, reason, p)

	p = s.kubePath("kube-dns")
	res, reason = decodeInto(s, p, func(o *KubeService) {
		ev.KubeDNS = &evidence.Service{Name: o.Metadata.Name, ClusterIP: o.Spec.ClusterIP}
	})
	s.markObject(ev, evidence.KindKubeDNS, res, reason, p)

	rbac := &evidence.NodeRBAC{ClusterRoles: map[string]bool{}, ClusterRoleBindings: map[string]bool{}}
	gap := ""
	for _, name := range NodeRBACNames {
		for _, kind := range []string{"clusterroles", "clusterrolebindings"} {
			p := "kube/" + kind + "/" + name + ".json"
			switch res, reason := s.decode(p, func(json.RawMessage) error { return nil }); res {
			case readOK:
				if kind == "clusterroles" {
					rbac.ClusterRoles[name] = true
				} else {
					rbac.ClusterRoleBindings[name] = true
				}
			case readNotFound: // the object does not exist: a fact
			default:
				if gap == "" || res == readGap {
					gap = reason
				}
			}
		}
	}
	if gap != "" {
		ev.AddGap(evidence.KindNodeRBAC, gap)
	} else {
		ev.NodeRBAC = rbac
		ev.Mark(evidence.KindNodeRBAC, s.src("kube/clusterroles/"))
	}

	// The cluster's webhooks are the same for every instance: read them once per snapshot.
	type webhooksRead struct {
		hooks []evidence.Webhook
		gaps  []string
	}
	wr := s.shared("kube.webhooks", func() any {
		var r webhooksRead
		for _, f := range []string{"validatingwebhookconfigurations", "mutatingwebhookconfigurations"} {
			p := s.kubePath(f)
			res, reason := decodeKubeItems(s, p, func(raw json.RawMessage) error {
				var c KubeWebhookConfiguration
				if err := json.Unmarshal(raw, &c); err != nil {
					return err
				}
				for _, w := range c.Webhooks {
					h := evidence.Webhook{Configuration: c.Metadata.Name, Name: w.Name, Mutating: f == "mutatingwebhookconfigurations",
						FailurePolicy: w.FailurePolicy, ReadyEndpoints: -1}
					if h.FailurePolicy == "" {
						h.FailurePolicy = "Fail"
					}
					for _, r := range w.Rules {
						h.Rules = append(h.Rules, evidence.WebhookRule{APIGroups: r.APIGroups, Resources: r.Resources, Operations: r.Operations})
					}
					if svc := w.ClientConfig.Service; svc != nil {
						h.Service = svc.Namespace + "/" + svc.Name
						s.endpoints(&h, svc.Namespace, svc.Name)
					}
					r.hooks = append(r.hooks, h)
				}
				return nil
			})
			if res != readOK && res != readNotFound {
				r.gaps = append(r.gaps, reason)
			}
		}
		return r
	}).(webhooksRead)
	hooks := wr.hooks
	for _, g := range wr.gaps {
		ev.AddGap(evidence.KindWebhooks, g)
	}
	if len(wr.gaps) == 0 {
		ev.Webhooks = hooks
		ev.Mark(evidence.KindWebhooks, s.src(s.kubePath("validatingwebhookconfigurations")))
		endpointsGap := ""
		for _, h := range hooks {
			if h.EndpointsGap != "" {
				endpointsGap = h.EndpointsGap
			}
		}
		if endpointsGap != "" {
			ev.AddGap(evidence.KindWebhookEndpoints, endpointsGap)
		} else {
			ev.Mark(evidence.KindWebhookEndpoints, s.src("kube/endpointslices/"))
		}
	} else {
		ev.AddGap(evidence.KindWebhookEndpoints, "the webhook configurations were not collected")
	}
}

// endpoints counts the ready endpoints of a webhook's service from
// kube/endpointslices/<namespace>.<name>.json.
func (s *Snapshot) endpoints(h *evidence.Webhook, ns, name string) {
	p := "kube/endpointslices/" + ns + "." + name + ".json"
	ready := 0
	res, reason := decodeKubeItems(s, p, func(raw json.RawMessage) error {
		var es KubeEndpointSlice
		if err := json.Unmarshal(raw, &es); err != nil {
			return err
		}
		for _, e := range es.Endpoints {
			if e.Conditions.Ready == nil || *e.Conditions.Ready {
				ready++
			}
		}
		return nil
	})
	switch res {
	case readOK, readNotFound:
		h.ReadyEndpoints = ready
	default:
		h.EndpointsGap = strings.TrimSpace(reason)
	}
}
