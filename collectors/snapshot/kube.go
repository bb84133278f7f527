package snapshot

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/awsauth"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func init() {
	RegisterProviderAt(StageResources, (*Snapshot).loadKube, evidence.KindAWSAuth, evidence.KindVPCCNIConfig, evidence.KindNodes, evidence.KindCSRs, evidence.KindAWSNode)
	RegisterProviderAt(StageResources, (*Snapshot).loadKubeExtras, evidence.KindAWSNodeServiceAccount, evidence.KindKubeDNS, evidence.KindNodeRBAC, evidence.KindWebhooks, evidence.KindWebhookEndpoints)
}

// loadKube reads the aws-auth and amazon-vpc-cni ConfigMaps, the Nodes and CSRs (once per
// snapshot) and the aws-node DaemonSet. A ConfigMap or DaemonSet known not to exist is a fact.
func (s *Snapshot) loadKube(ev *evidence.Evidence) {
	// aws-auth
	p := s.kubePath("aws-auth")
	var cm *ConfigMap
	res, reason := decodeKubeObject(s, p, "ConfigMap", "aws-auth", func(o *ConfigMap) { cm = o })
	if res == readOK {
		ev.AWSAuth = s.shared("aws-auth", func() any { return awsauth.Parse(cm.Data) }).(*evidence.AWSAuth)
	} else if res == readNotFound {
		ev.AWSAuth = &evidence.AWSAuth{Present: false}
	}
	s.markObject(ev, evidence.KindAWSAuth, res, reason, p)

	p = s.kubePath("amazon-vpc-cni")
	res, reason = decodeKubeObject(s, p, "ConfigMap", "amazon-vpc-cni", func(o *ConfigMap) {
		ev.VPCCNIConfig = o.Data
		if ev.VPCCNIConfig == nil {
			ev.VPCCNIConfig = map[string]string{}
		}
	})
	s.markObject(ev, evidence.KindVPCCNIConfig, res, reason, p)

	type nodesRead struct {
		nodes  []evidence.Node
		csrs   []evidence.CSR
		nres   readResult
		nwhy   string
		single bool // the file holds Node objects, no List: those Nodes, not the cluster's set
		cres   readResult
		cwhy   string
		np, cp string
	}
	k := s.shared("kube.nodes+csrs", func() any {
		r := nodesRead{np: s.kubePath("nodes"), cp: s.kubePath("csrs")}
		r.nres, r.nwhy, r.single = decodeKubeObjects(s, r.np, func(raw json.RawMessage) error {
			var n KubeNode
			if err := json.Unmarshal(raw, &n); err != nil {
				return err
			}
			node := evidence.Node{Name: n.Metadata.Name, Labels: n.Metadata.Labels, ProviderID: n.Spec.ProviderID,
				KubeletVersion: n.Status.NodeInfo.KubeletVersion, OS: n.Status.NodeInfo.OperatingSystem}
			if node.OS == "" {
				node.OS = n.Metadata.Labels["kubernetes.io/os"]
			}
			for _, c := range n.Status.Conditions {
				switch {
				case c.Type == "Ready":
					node.Ready = c.Status == "True"
					node.ReadyReason, node.ReadyMessage, node.ReadySince = c.Reason, c.Message, c.LastTransitionTime.Time
				case strings.HasSuffix(c.Type, "Pressure") && c.Status == "True":
					node.Pressure = append(node.Pressure, c.Type)
				}
			}
			for _, t := range n.Spec.Taints {
				taint := t.Key
				if t.Value != "" {
					taint += "=" + t.Value
				}
				node.Taints = append(node.Taints, taint+":"+t.Effect)
			}
			if s.Selected[r.np] {
				// a jsonpath template's fields (ingest): a condition it did not ask for is
				// unknown, and so is whether the kubelet ever reported
				_, ready := findKubeCondition(n, "Ready")
				node.ReadyUnknown = !ready
			} else {
				node.Unregistered = len(n.Status.Conditions) == 0 && n.Status.NodeInfo.KubeletVersion == ""
			}
			r.nodes = append(r.nodes, node)
			return nil
		})
		r.cres, r.cwhy = decodeKubeItems(s, r.cp, func(raw json.RawMessage) error {
			var c KubeCSR
			if err := json.Unmarshal(raw, &c); err != nil {
				return err
			}
			r.csrs = append(r.csrs, convertCSR(&c))
			return nil
		})
		return r
	}).(nodesRead)
	ev.Nodes, ev.CSRs = k.nodes, k.csrs
	s.markKube(ev, evidence.KindNodes, k.nres, k.nwhy, k.np)
	if k.nres == readOK && k.single {
		// `kubectl get node NAME -o json`: the Nodes it names, not the cluster's list. The
		// instance one of them is registered for has it; for any other instance whether it
		// registered is unknown, never "no Node".
		ev.NodesPartial = true
		if ev.Instance != nil && !slices.ContainsFunc(k.nodes, func(n evidence.Node) bool { return nodeOf(n, ev.Instance) }) {
			var names []string
			for _, n := range k.nodes {
				names = append(names, n.Name)
			}
			ev.Nodes = nil
			ev.AddGapForce(evidence.KindNodes, fmt.Sprintf("%s holds %s (%s), not the cluster's Node list (collect kubectl get nodes -o json)", k.np, map[bool]string{true: "one Node", false: fmt.Sprintf("%d single Nodes", len(names))}[len(names) == 1], strings.Join(names, ", ")))
		}
	}
	s.markKube(ev, evidence.KindCSRs, k.cres, k.cwhy, k.cp)

	p = s.kubePath("aws-node")
	res, reason = decodeKubeObject(s, p, "DaemonSet", "aws-node", func(o *KubeDaemonSet) { ev.AWSNode = convertDaemonSet(o) })
	s.markObject(ev, evidence.KindAWSNode, res, reason, p)
}

func convertCSR(c *KubeCSR) evidence.CSR {
	out := evidence.CSR{Name: c.Metadata.Name, SignerName: c.Spec.SignerName, Username: c.Spec.Username,
		Created: c.Metadata.CreationTimestamp.Time, State: "Pending", Issued: c.Status.Certificate != ""}
	for _, cond := range c.Status.Conditions {
		if cond.Status != "" && cond.Status != "True" {
			continue
		}
		switch cond.Type {
		case "Denied", "Failed":
			out.State, out.Reason, out.Message = cond.Type, cond.Reason, cond.Message
		case "Approved":
			if out.State == "Pending" {
				out.State, out.Reason, out.Message = "Approved", cond.Reason, cond.Message
			}
		}
	}
	if c.Spec.Request != "" {
		if der, err := decodeB64PEM(c.Spec.Request); err == nil {
			if req, err := x509.ParseCertificateRequest(der); err == nil {
				out.CommonName = req.Subject.CommonName
			}
		}
	}
	return out
}

func decodeB64PEM(s string) ([]byte, error) {
	b, err := decodeStdBase64(s)
	if err != nil {
		return nil, err
	}
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, errors.New("no PEM block")
	}
	return blk.Bytes, nil
}

func convertDaemonSet(o *KubeDaemonSet) *evidence.DaemonSet {
	ds := &evidence.DaemonSet{Name: o.Metadata.Name, ServiceAccountName: o.Spec.Template.Spec.ServiceAccountName,
		Env: map[string]string{}, Annotations: o.Metadata.Annotations, Desired: o.Status.DesiredNumberScheduled, Ready: o.Status.NumberReady}
	for _, t := range o.Spec.Template.Spec.Tolerations {
		ds.Tolerations = append(ds.Tolerations, evidence.Toleration{Key: t.Key, Operator: t.Operator, Value: t.Value, Effect: t.Effect})
	}
	for _, c := range o.Spec.Template.Spec.Containers {
		if c.Name != "aws-node" && len(o.Spec.Template.Spec.Containers) > 1 {
			continue
		}
		for _, e := range c.Env {
			v := e.Value
			if len(e.ValueFrom) > 0 && v == "" {
				v = "valueFrom"
			}
			ds.Env[e.Name] = v
		}
	}
	for _, v := range o.Spec.Template.Spec.Volumes {
		if v.Projected == nil {
			continue
		}
		for _, src := range v.Projected.Sources {
			if src.ServiceAccountToken != nil && src.ServiceAccountToken.Audience != "" {
				ds.ProjectedTokenAudiences = append(ds.ProjectedTokenAudiences, src.ServiceAccountToken.Audience)
			}
		}
	}
	return ds
}

// NodeRBACNames are the ClusterRoles and ClusterRoleBindings EKS creates for nodes, read from
// kube/clusterroles/<name>.json and kube/clusterrolebindings/<name>.json.
var NodeRBACNames = []string{"eks:node-bootstrapper", "eks:node-manager"}

// loadKubeExtras reads the aws-node ServiceAccount, the kube-dns Service, the node RBAC objects
// and the admission webhooks with their endpoints.
func (s *Snapshot) loadKubeExtras(ev *evidence.Evidence) {
	p := s.kubePath("aws-node-serviceaccount")
	res, reason := decodeKubeObject(s, p, "ServiceAccount", "aws-node", func(o *KubeServiceAccount) {
		ev.AWSNodeServiceAccount = &evidence.ServiceAccount{Name: o.Metadata.Name, Annotations: o.Metadata.Annotations}
	})
	s.markObject(ev, evidence.KindAWSNodeServiceAccount, res, reason, p)

	p = s.kubePath("kube-dns")
	res, reason = decodeKubeObject(s, p, "Service", "kube-dns", func(o *KubeService) {
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
						h.Rules = append(h.Rules, evidence.WebhookRule{APIGroups: r.APIGroups, Resources: r.Resources, Operations: r.Operations, Scope: r.Scope})
					}
					if sel := w.NamespaceSelector; sel != nil {
						h.NamespaceSelector = &evidence.LabelSelector{MatchLabels: sel.MatchLabels}
						for _, e := range sel.MatchExpressions {
							h.NamespaceSelector.MatchExpressions = append(h.NamespaceSelector.MatchExpressions, evidence.LabelRequirement{Key: e.Key, Operator: e.Operator, Values: e.Values})
						}
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

// nodeOf reports whether Node n is instance inst's: its providerID ends in the instance ID, or
// it has the instance's private DNS name and a providerID naming no other instance (the
// kubelet's default node name on EC2; checks.JoinedNode matches the same way).
func nodeOf(n evidence.Node, inst *evidence.Instance) bool {
	if strings.HasSuffix(n.ProviderID, "/"+inst.ID) {
		return true
	}
	return n.Name != "" && n.Name == inst.PrivateDNSName && !strings.Contains(n.ProviderID, "/i-")
}

// findKubeCondition returns the status of the Node's condition of type t and whether it has one.
func findKubeCondition(n KubeNode, t string) (string, bool) {
	for _, c := range n.Status.Conditions {
		if c.Type == t {
			return c.Status, true
		}
	}
	return "", false
}
