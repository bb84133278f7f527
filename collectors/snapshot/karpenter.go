package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// The structs below hold exactly the fields eksdoctor reads of Karpenter's and EKS Auto Mode's
// objects, as `kubectl get … -o json` prints them. Field names follow the CRDs:
// karpenter.sh/v1 NodeClaim and NodePool (kubernetes-sigs/karpenter pkg/apis/crds), karpenter.k8s.aws/v1
// EC2NodeClass (aws/karpenter-provider-aws pkg/apis/crds) and eks.amazonaws.com/v1 NodeClass
// (EKS Auto Mode, https://docs.aws.amazon.com/eks/latest/userguide/create-node-class.html).

// KubeCondition is one entry of status.conditions.
type KubeCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	Message            string `json:"message"`
	LastTransitionTime Time   `json:"lastTransitionTime"`
}

// KubeNodeClassRef is spec.nodeClassRef of a NodeClaim or a NodePool's template.
type KubeNodeClassRef struct {
	Group string `json:"group"`
	Kind  string `json:"kind"`
	Name  string `json:"name"`
}

// KubeNodeClaim is a karpenter.sh/v1 NodeClaim.
type KubeNodeClaim struct {
	Metadata objectMeta `json:"metadata"`
	Spec     struct {
		NodeClassRef KubeNodeClassRef `json:"nodeClassRef"`
	} `json:"spec"`
	Status struct {
		ProviderID string          `json:"providerID"`
		NodeName   string          `json:"nodeName"`
		ImageID    string          `json:"imageID"`
		Conditions []KubeCondition `json:"conditions"`
	} `json:"status"`
}

// KubeNodePool is a karpenter.sh/v1 NodePool.
type KubeNodePool struct {
	Metadata objectMeta `json:"metadata"`
	Spec     struct {
		Template struct {
			Spec struct {
				NodeClassRef KubeNodeClassRef `json:"nodeClassRef"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
	Status struct {
		Conditions []KubeCondition `json:"conditions"`
	} `json:"status"`
}

// KubeSelectorTerm is one subnetSelectorTerms / securityGroupSelectorTerms entry.
type KubeSelectorTerm struct {
	ID   string            `json:"id"`
	Name string            `json:"name"`
	Tags map[string]string `json:"tags"`
}

// KubeNodeClass is a karpenter.k8s.aws/v1 EC2NodeClass, an eks.amazonaws.com/v1 NodeClass,
// or a Karpenter v1alpha1 AWSNodeTemplate (before v0.32), whose amiFamily, instanceProfile and
// userData carry the same names.
type KubeNodeClass struct {
	// Kind is EC2NodeClass, NodeClass or AWSNodeTemplate.
	Kind     string     `json:"kind"`
	Metadata objectMeta `json:"metadata"`
	Spec     struct {
		AMIFamily        string `json:"amiFamily"`
		AMISelectorTerms []struct {
			Alias string `json:"alias"`
			Name  string `json:"name"`
		} `json:"amiSelectorTerms"`
		SubnetSelectorTerms        []KubeSelectorTerm `json:"subnetSelectorTerms"`
		SecurityGroupSelectorTerms []KubeSelectorTerm `json:"securityGroupSelectorTerms"`
		Role                       string             `json:"role"`
		InstanceProfile            string             `json:"instanceProfile"`
		UserData                   *string            `json:"userData"`
		Tags                       map[string]string  `json:"tags"`
		// SubnetSelector and SecurityGroupSelector are the AWSNodeTemplate's (v1alpha1) maps of
		// tag filters, where the key "aws-ids" lists IDs separated by commas
		// (aws/karpenter-provider-aws v0.31 pkg/apis/v1alpha1/awsnodetemplate.go).
		SubnetSelector        map[string]string `json:"subnetSelector"`
		SecurityGroupSelector map[string]string `json:"securityGroupSelector"`
	} `json:"spec"`
	Status struct {
		Subnets []struct {
			ID string `json:"id"`
		} `json:"subnets"`
		SecurityGroups []struct {
			ID string `json:"id"`
		} `json:"securityGroups"`
		InstanceProfile string          `json:"instanceProfile"`
		Conditions      []KubeCondition `json:"conditions"`
	} `json:"status"`
}

func conditions(cs []KubeCondition) []evidence.Condition {
	out := make([]evidence.Condition, 0, len(cs))
	for _, c := range cs {
		out = append(out, evidence.Condition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message, LastTransition: c.LastTransitionTime.Time})
	}
	return out
}

func ref(r KubeNodeClassRef) evidence.NodeClassRef {
	return evidence.NodeClassRef{Group: r.Group, Kind: r.Kind, Name: r.Name}
}

func terms(ts []KubeSelectorTerm) []evidence.SelectorTerm {
	out := make([]evidence.SelectorTerm, 0, len(ts))
	for _, t := range ts {
		out = append(out, evidence.SelectorTerm{ID: t.ID, Name: t.Name, Tags: t.Tags})
	}
	return out
}

// legacyTerms turns an AWSNodeTemplate selector map into selector terms: one term per ID of
// "aws-ids", one term for the other keys as tags.
func legacyTerms(sel map[string]string) []evidence.SelectorTerm {
	var out []evidence.SelectorTerm
	tags := map[string]string{}
	for k, v := range sel {
		if k != "aws-ids" {
			tags[k] = v
			continue
		}
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" {
				out = append(out, evidence.SelectorTerm{ID: id})
			}
		}
	}
	if len(tags) > 0 {
		out = append(out, evidence.SelectorTerm{Tags: tags})
	}
	return out
}

// ConvertNodeClass turns a decoded EC2NodeClass (autoMode false) or Auto Mode NodeClass into evidence.
func ConvertNodeClass(o *KubeNodeClass, autoMode bool) evidence.NodeClass {
	nc := evidence.NodeClass{Name: o.Metadata.Name, AutoMode: autoMode, AMIFamily: o.Spec.AMIFamily,
		SubnetTerms: terms(o.Spec.SubnetSelectorTerms), SGTerms: terms(o.Spec.SecurityGroupSelectorTerms),
		Role: o.Spec.Role, InstanceProfile: o.Spec.InstanceProfile, Tags: o.Spec.Tags,
		StatusInstanceProfile: o.Status.InstanceProfile, Conditions: conditions(o.Status.Conditions),
		Template: o.Kind == "AWSNodeTemplate"}
	for _, a := range o.Spec.AMISelectorTerms {
		if a.Alias != "" {
			nc.AMIAliases = append(nc.AMIAliases, a.Alias)
		}
		if a.Name != "" {
			nc.AMINames = append(nc.AMINames, a.Name)
		}
	}
	if nc.Template {
		nc.SubnetTerms = append(nc.SubnetTerms, legacyTerms(o.Spec.SubnetSelector)...)
		nc.SGTerms = append(nc.SGTerms, legacyTerms(o.Spec.SecurityGroupSelector)...)
	}
	if o.Spec.UserData != nil {
		nc.UserData, nc.HasUserData = *o.Spec.UserData, true
	}
	for _, s := range o.Status.Subnets {
		nc.StatusSubnets = append(nc.StatusSubnets, s.ID)
	}
	for _, g := range o.Status.SecurityGroups {
		nc.StatusSecurityGroups = append(nc.StatusSecurityGroups, g.ID)
	}
	return nc
}

// ConvertNodeClaim turns a decoded NodeClaim into evidence. A v1alpha5 Machine decodes into the
// same shape: its condition types are renamed (evidence.NodeClaimConditionType) and its
// provisioner label stands for the NodePool.
func ConvertNodeClaim(o *KubeNodeClaim) evidence.NodeClaim {
	pool := o.Metadata.Labels["karpenter.sh/nodepool"]
	if pool == "" {
		pool = o.Metadata.Labels["karpenter.sh/provisioner-name"]
	}
	cs := conditions(o.Status.Conditions)
	for i := range cs {
		cs[i].Type = evidence.NodeClaimConditionType(cs[i].Type)
	}
	return evidence.NodeClaim{Name: o.Metadata.Name, NodePool: pool,
		NodeClassRef: ref(o.Spec.NodeClassRef), Created: o.Metadata.CreationTimestamp.Time,
		ProviderID: o.Status.ProviderID, NodeName: o.Status.NodeName, ImageID: o.Status.ImageID,
		Conditions: cs}
}

// NotInstalled is the gap reason of a Karpenter / Auto Mode kind whose CRD the cluster does not
// have (kubectl: "the server doesn't have a resource type"). It is the same for the four kinds so
// that a report groups them on one line.
const NotInstalled = "Karpenter / EKS Auto Mode is not installed in the cluster (the API server has no such resource type)"

// notInstalled rewrites kubectl's "doesn't have a resource type" reason into NotInstalled.
func notInstalled(reason, _ string) string {
	if strings.Contains(reason, "doesn't have a resource type") {
		return NotInstalled
	}
	return reason
}

func init() {
	RegisterProviderAt(StageResources, (*Snapshot).loadKarpenter, evidence.KindNodeClaims, evidence.KindNodePools, evidence.KindEC2NodeClasses, evidence.KindNodeClasses)
}

// karpenterRead is what the four Karpenter / Auto Mode files gave, shared by every instance.
type karpenterRead struct {
	claims  []evidence.NodeClaim
	pools   []evidence.NodePool
	classes []evidence.NodeClass
	marks   []karpenterMark
}

type karpenterMark struct {
	kind         evidence.Kind
	res          readResult
	reason, path string
}

// loadKarpenter reads kube/nodeclaims.json, kube/nodepools.json, kube/ec2nodeclasses.json and
// kube/nodeclasses.json. A missing file is a gap ("not in snapshot"); kubectl's answer for an
// absent CRD is a gap saying Karpenter (or Auto Mode) is not installed.
func (s *Snapshot) loadKarpenter(ev *evidence.Evidence) {
	k := s.shared("kube.karpenter", func() any {
		var r karpenterRead
		read := func(kind evidence.Kind, base, what string, each func(json.RawMessage) error) {
			p := s.kubePath(base)
			res, reason := decodeKubeItems(s, p, each)
			r.marks = append(r.marks, karpenterMark{kind, res, notInstalled(reason, what), p})
		}
		read(evidence.KindNodeClaims, "nodeclaims", "Karpenter (or EKS Auto Mode)", func(raw json.RawMessage) error {
			var o KubeNodeClaim
			if err := json.Unmarshal(raw, &o); err != nil {
				return err
			}
			r.claims = append(r.claims, ConvertNodeClaim(&o))
			return nil
		})
		read(evidence.KindNodePools, "nodepools", "Karpenter (or EKS Auto Mode)", func(raw json.RawMessage) error {
			var o KubeNodePool
			if err := json.Unmarshal(raw, &o); err != nil {
				return err
			}
			r.pools = append(r.pools, evidence.NodePool{Name: o.Metadata.Name, NodeClassRef: ref(o.Spec.Template.Spec.NodeClassRef), Conditions: conditions(o.Status.Conditions)})
			return nil
		})
		for _, f := range []struct {
			kind     evidence.Kind
			base     string
			autoMode bool
			what     string
		}{{evidence.KindEC2NodeClasses, "ec2nodeclasses", false, "Karpenter's AWS provider"}, {evidence.KindNodeClasses, "nodeclasses", true, "EKS Auto Mode"}} {
			selected := s.Selected[s.kubePath(f.base)]
			read(f.kind, f.base, f.what, func(raw json.RawMessage) error {
				var o KubeNodeClass
				if err := json.Unmarshal(raw, &o); err != nil {
					return err
				}
				nc := ConvertNodeClass(&o, f.autoMode)
				// the fields a kubectl jsonpath template printed (Snapshot.Selected): the rest of
				// its spec is unknown, as for a class read from kubectl's printed output
				nc.StatusOnly = nc.StatusOnly || selected
				r.classes = append(r.classes, nc)
				return nil
			})
		}
		return r
	}).(karpenterRead)
	ev.NodeClaims, ev.NodePools, ev.NodeClasses = k.claims, k.pools, k.classes
	for _, m := range k.marks {
		s.markKube(ev, m.kind, m.res, m.reason, m.path)
	}
}

// nodeClaimOf returns the NodeClaim whose providerID names instanceID, or nil.
func nodeClaimOf(claims []evidence.NodeClaim, instanceID string) *evidence.NodeClaim {
	for i := range claims {
		if instanceID != "" && claims[i].InstanceID() == instanceID {
			c := claims[i]
			return &c
		}
	}
	return nil
}

// ErrUnknownNodeClaim is wrapped by NodeClaimEvidence when no NodeClaim has the name.
var ErrUnknownNodeClaim = errors.New("NodeClaim not in snapshot")

// NodeClaimEvidence builds the evidence of one Karpenter / Auto Mode NodeClaim: that of its
// instance when status.providerID names one present in ec2/describe-instances.json, else the
// cluster's evidence with the NodeClaim alone (a NodeClaim that never launched has no instance).
// Errors: ErrUnknownNodeClaim (wrapped, listing the NodeClaims present).
func (s *Snapshot) NodeClaimEvidence(name, cluster string) (*evidence.Evidence, error) {
	probe := &evidence.Evidence{}
	s.loadKarpenter(probe)
	var nc *evidence.NodeClaim
	var names []string
	for i := range probe.NodeClaims {
		names = append(names, probe.NodeClaims[i].Name)
		if probe.NodeClaims[i].Name == name {
			c := probe.NodeClaims[i]
			nc = &c
		}
	}
	if nc == nil {
		if !probe.Have(evidence.KindNodeClaims) {
			return nil, fmt.Errorf("%w: %s (%s)", ErrUnknownNodeClaim, name, probe.GapFor(evidence.KindNodeClaims).Reason)
		}
		return nil, fmt.Errorf("%w: %s is not in kube/nodeclaims.json (NodeClaims there: %s)", ErrUnknownNodeClaim, name, strings.Join(names, ", "))
	}
	if id := nc.InstanceID(); id != "" {
		if ev, err := s.Evidence(id, cluster); err == nil {
			ev.NodeClaim = nc
			ev.Target.NodeClaim = nc.Name
			ev.Provisioner = evidence.DetectProvisioner(ev)
			return ev, nil
		}
	}
	ev := s.ClusterEvidence(cluster)
	ev.NodeClaim = nc
	ev.Target.NodeClaim = nc.Name
	ev.AddGapForce(evidence.KindInstance, "NodeClaim "+nc.Name+" has no instance in ec2/describe-instances.json (status.providerID "+quoteOr(nc.ProviderID, "empty")+")")
	ev.Provisioner = evidence.DetectProvisioner(ev)
	return ev, nil
}

func quoteOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return fmt.Sprintf("%q", s)
}
