package evidence

import (
	"slices"
	"strings"
	"time"
)

// Karpenter and EKS Auto Mode evidence kinds (kubectl get … -o json lists; see
// docs/snapshot-format.md). A cluster without the CRD has the kind collected and empty when the
// snapshot says so, or a gap saying Karpenter / Auto Mode is not installed.
const (
	KindNodeClaims     Kind = "kube:nodeclaims"     // kubectl get nodeclaims.karpenter.sh
	KindNodePools      Kind = "kube:nodepools"      // kubectl get nodepools.karpenter.sh
	KindEC2NodeClasses Kind = "kube:ec2nodeclasses" // kubectl get ec2nodeclasses.karpenter.k8s.aws
	KindNodeClasses    Kind = "kube:nodeclasses"    // kubectl get nodeclasses.eks.amazonaws.com (EKS Auto Mode)
)

// ComputeConfig is DescribeCluster's computeConfig: EKS Auto Mode
// (https://docs.aws.amazon.com/eks/latest/APIReference/API_ComputeConfigResponse.html).
type ComputeConfig struct {
	Enabled     bool
	NodePools   []string
	NodeRoleArn string
}

// Condition is one status condition of a Karpenter or Auto Mode object (type, status True /
// False / Unknown, reason, message, lastTransitionTime).
type Condition struct {
	Type, Status, Reason, Message string
	LastTransition                time.Time
}

// NodeClassRef names the node class of a NodeClaim or NodePool (spec.nodeClassRef).
type NodeClassRef struct {
	// Group is karpenter.k8s.aws for an EC2NodeClass, eks.amazonaws.com for an Auto Mode NodeClass.
	Group, Kind, Name string
}

// AutoMode reports whether the reference points at an EKS Auto Mode NodeClass.
func (r NodeClassRef) AutoMode() bool { return r.Group == "eks.amazonaws.com" }

// NodeClaim is a karpenter.sh/v1 NodeClaim (or Auto Mode's, same group): one node Karpenter
// launches (https://karpenter.sh/docs/concepts/nodeclaims/). A Karpenter v0.28–v0.31 Machine
// (karpenter.sh/v1alpha5), the NodeClaim's predecessor, is read as one, its condition types
// renamed by NodeClaimConditionType.
type NodeClaim struct {
	Name string
	// NodePool is the label karpenter.sh/nodepool (a Machine's karpenter.sh/provisioner-name).
	NodePool     string
	NodeClassRef NodeClassRef
	Created      time.Time
	// ProviderID is status.providerID, "aws:///ZONE/i-…" once launched.
	ProviderID string
	NodeName   string
	ImageID    string
	Conditions []Condition
	// ListedAge is how old the claim was when kubectl get listed it (its AGE column, to kubectl's
	// rounding: "13m", "2d5h"), for a claim known only from that table, whose creationTimestamp
	// and condition times are not shown; 0 when unknown or when Created is known.
	ListedAge time.Duration
}

// InstanceID returns the EC2 instance ID of status.providerID, "" when not launched.
func (n NodeClaim) InstanceID() string {
	if i := strings.LastIndex(n.ProviderID, "/"); i >= 0 && strings.HasPrefix(n.ProviderID[i+1:], "i-") {
		return n.ProviderID[i+1:]
	}
	return ""
}

// NodeClaimConditionType returns the karpenter.sh/v1 NodeClaim condition type of t: a Karpenter
// v0.28–v0.31 Machine's (karpenter.sh/v1alpha5) MachineLaunched, MachineRegistered,
// MachineInitialized, MachineDrifted, MachineEmpty and MachineExpired lose their "Machine" prefix
// (kubernetes-sigs/karpenter v0.31.0 pkg/apis/v1alpha5/machine_status.go); any other type is
// returned as it is.
func NodeClaimConditionType(t string) string {
	switch t {
	case "MachineLaunched", "MachineRegistered", "MachineInitialized", "MachineDrifted", "MachineEmpty", "MachineExpired":
		return strings.TrimPrefix(t, "Machine")
	}
	return t
}

// Condition returns the condition of type t and whether it is present.
func (n NodeClaim) Condition(t string) (Condition, bool) { return findCondition(n.Conditions, t) }

// NodePool is a karpenter.sh/v1 NodePool (https://karpenter.sh/docs/concepts/nodepools/).
type NodePool struct {
	Name         string
	NodeClassRef NodeClassRef
	Conditions   []Condition
}

// SelectorTerm is one subnet or security group selector term: an ID, a name, or tags.
type SelectorTerm struct {
	ID, Name string
	Tags     map[string]string
}

// NodeClass is a karpenter.k8s.aws/v1 EC2NodeClass
// (https://karpenter.sh/docs/concepts/nodeclasses/) or, with AutoMode set, an
// eks.amazonaws.com/v1 NodeClass of EKS Auto Mode; the fields Auto Mode lacks stay empty.
type NodeClass struct {
	Name     string
	AutoMode bool
	// AMIFamily is spec.amiFamily (AL2, AL2023, Bottlerocket, Windows2019/2022, Custom); empty when
	// only amiSelectorTerms choose the image.
	AMIFamily string
	// AMIAliases are the alias fields of spec.amiSelectorTerms ("al2023@latest").
	AMIAliases []string
	// AMINames are the name fields of spec.amiSelectorTerms ("amazon-eks-node-al2023-*").
	AMINames    []string
	SubnetTerms []SelectorTerm
	SGTerms     []SelectorTerm
	// Role is spec.role (a role name or ARN); InstanceProfile is spec.instanceProfile.
	Role, InstanceProfile string
	// UserData is spec.userData as written (plain text, not base64); HasUserData says whether set.
	UserData    string
	HasUserData bool
	Tags        map[string]string
	// Status: resolved subnets and security groups, the instance profile Karpenter made.
	StatusSubnets         []string
	StatusSecurityGroups  []string
	StatusInstanceProfile string
	Conditions            []Condition
	// SpecOnly is true for a node class given without a status block (a pasted manifest as
	// written, not the object the cluster holds): its status says nothing about the cluster.
	SpecOnly bool
	// StatusOnly is true for a node class known only from kubectl's printed output: get's table
	// (its name and READY column) or describe (its conditions, and spec.role and
	// spec.instanceProfile, which describe prints verbatim). Its spec is not known in full, so
	// only its readiness and those two fields are judged.
	StatusOnly bool
	// Template is true for a Karpenter v1alpha1 AWSNodeTemplate (before v0.32) read as an
	// EC2NodeClass: without spec.instanceProfile its nodes get the controller's
	// aws.defaultInstanceProfile setting, and it has no spec.role.
	Template bool
}

// Condition returns the condition of type t and whether it is present.
func (n NodeClass) Condition(t string) (Condition, bool) { return findCondition(n.Conditions, t) }

// Family returns the AMI family: spec.amiFamily, else the family of the first alias
// ("al2023@latest" → "AL2023", "bottlerocket@v1.2" → "Bottlerocket"); "" when unknown.
func (n NodeClass) Family() string {
	if n.AMIFamily != "" {
		return n.AMIFamily
	}
	for _, a := range n.AMIAliases {
		fam, _, _ := strings.Cut(strings.ToLower(a), "@")
		switch fam {
		case "al2":
			return "AL2"
		case "al2023":
			return "AL2023"
		case "bottlerocket":
			return "Bottlerocket"
		case "windows2019":
			return "Windows2019"
		case "windows2022":
			return "Windows2022"
		}
	}
	return ""
}

func findCondition(cs []Condition, t string) (Condition, bool) {
	for _, c := range cs {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}

// Provisioner kinds: what launched a node.
const (
	ProvisionerManagedNodegroup = "managed-nodegroup" // EKS managed node group (tag eks:nodegroup-name)
	ProvisionerSelfManaged      = "self-managed"      // a self-managed Auto Scaling group or a lone instance
	ProvisionerKarpenter        = "karpenter"         // Karpenter (tag karpenter.sh/nodepool or a NodeClaim)
	ProvisionerAutoMode         = "auto-mode"         // EKS Auto Mode (computeConfig enabled, NodeClass eks.amazonaws.com)
	ProvisionerFargate          = "fargate"           // a Fargate pod's node
	ProvisionerHybrid           = "hybrid"            // an EKS hybrid node
)

// Provisioner says what launched the target and from which fact; Kind is "" when unknown (the
// cluster as a whole, or nothing tells).
type Provisioner struct {
	Kind string
	// Name is the node group, Auto Scaling group or NodePool; Because quotes the deciding fact.
	Name, Because string
}

// DetectProvisioner decides what launched the target from its NodeClaim, the instance's tags
// and the cluster's computeConfig, in that order of trust.
func DetectProvisioner(e *Evidence) Provisioner {
	autoMode := e.Cluster != nil && e.Cluster.ComputeConfig != nil && e.Cluster.ComputeConfig.Enabled
	if nc := e.NodeClaim; nc != nil {
		if nc.NodeClassRef.AutoMode() {
			return Provisioner{Kind: ProvisionerAutoMode, Name: nc.NodePool, Because: "NodeClaim " + nc.Name + " uses NodeClass " + nc.NodeClassRef.Name + " of eks.amazonaws.com"}
		}
		return Provisioner{Kind: ProvisionerKarpenter, Name: nc.NodePool, Because: "NodeClaim " + nc.Name}
	}
	if n := e.TargetNode(); n != nil {
		switch ct := n.Labels[computeTypeLabel]; ct {
		case "hybrid":
			return Provisioner{Kind: ProvisionerHybrid, Because: "Node " + n.Name + " label " + computeTypeLabel + "=hybrid"}
		case "fargate":
			return Provisioner{Kind: ProvisionerFargate, Because: "Node " + n.Name + " label " + computeTypeLabel + "=fargate"}
		case "auto":
			return Provisioner{Kind: ProvisionerAutoMode, Name: n.Labels["karpenter.sh/nodepool"], Because: "Node " + n.Name + " label " + computeTypeLabel + "=auto"}
		}
	}
	if strings.HasPrefix(e.Target.InstanceID, "mi-") {
		return Provisioner{Kind: ProvisionerHybrid, Because: "target " + e.Target.InstanceID + " is an SSM managed instance, not an EC2 instance"}
	}
	if e.Bootstrap != nil && e.Bootstrap.Hybrid {
		return Provisioner{Kind: ProvisionerHybrid, Because: "NodeConfig spec.hybrid"}
	}
	if e.Instance == nil {
		if e.NodeLogs != nil {
			for _, st := range e.NodeLogs.Streams {
				if st.Components[hybridComponent] > 0 {
					// no instance named (a pasted ticket): EKS hybrid nodes' nodeadm (aws/eks-hybrid)
					// wrote these lines, so the node is a hybrid node
					return Provisioner{Kind: ProvisionerHybrid, Because: "EKS hybrid nodes' nodeadm lines in " + st.Path}
				}
			}
		}
		if len(e.NodeClaims) > 0 && !slices.ContainsFunc(e.NodeClaims, func(nc NodeClaim) bool { return !nc.NodeClassRef.AutoMode() }) {
			// no instance named (a pasted ticket): the NodeClaims shown are the nodes asked about,
			// and every one of them is Auto Mode's
			nc := e.NodeClaims[0]
			return Provisioner{Kind: ProvisionerAutoMode, Name: nc.NodePool, Because: "NodeClaim " + nc.Name + " uses NodeClass " + nc.NodeClassRef.Name + " of eks.amazonaws.com"}
		}
		return Provisioner{}
	}
	t := e.Instance.Tags
	if !computeConfigShown(e) {
		for _, k := range autoModeTags {
			if t[k] != "" {
				return Provisioner{Kind: ProvisionerAutoMode, Name: t["karpenter.sh/nodepool"], Because: "tag " + k + " (put only by EKS Auto Mode; describe-cluster does not show computeConfig)"}
			}
		}
	}
	switch {
	case t["eks:eks-cluster-name"] != "" && autoMode:
		return Provisioner{Kind: ProvisionerAutoMode, Name: t["karpenter.sh/nodepool"], Because: "tag eks:eks-cluster-name with Auto Mode enabled on the cluster"}
	case t["karpenter.sh/nodepool"] != "":
		return Provisioner{Kind: ProvisionerKarpenter, Name: t["karpenter.sh/nodepool"], Because: "tag karpenter.sh/nodepool"}
	case t["eks:nodegroup-name"] != "":
		return Provisioner{Kind: ProvisionerManagedNodegroup, Name: t["eks:nodegroup-name"], Because: "tag eks:nodegroup-name"}
	case t["aws:autoscaling:groupName"] != "":
		return Provisioner{Kind: ProvisionerSelfManaged, Name: t["aws:autoscaling:groupName"], Because: "tag aws:autoscaling:groupName"}
	}
	return Provisioner{Kind: ProvisionerSelfManaged, Because: "no node group, Karpenter or Auto Mode tag"}
}

// hybridComponent is the signature catalog's component for nodeadm of EKS hybrid nodes
// (collectors/logscan/catalog/eks-hybrid.yaml): its presence literals ("Configuring SSMAgent for
// hybrid node", nodeadm debug's "Validating authentication against AWS") are printed by hybrid
// nodes alone.
const hybridComponent = "eks-hybrid"

// autoModeTags are the EC2 tags EKS Auto Mode puts on the instances it launches, naming their
// NodePool and NodeClass (the AmazonEKSComputePolicy requires them on every instance Auto Mode
// creates: https://docs.aws.amazon.com/eks/latest/userguide/security-iam-awsmanpol.html, AmazonEKSComputePolicy).
// Self-managed Karpenter tags its instances eks:eks-cluster-name and karpenter.sh/nodepool
// (aws/karpenter-provider-aws pkg/apis/v1/labels.go) but never these.
var autoModeTags = []string{"eks:kubernetes-node-pool-name", "eks:kubernetes-node-class-name"}

// computeConfigShown reports whether the evidence says whether EKS Auto Mode is enabled: a
// describe-cluster output with computeConfig. Without it (AWS CLI models before 2024-12-02, a
// --query projection, no describe-cluster at all) Auto Mode is unknown, not disabled.
func computeConfigShown(e *Evidence) bool {
	return e.Cluster != nil && e.Cluster.ComputeConfig != nil
}

// computeTypeLabel is the label EKS puts on Fargate, hybrid and Auto Mode nodes
// (https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-troubleshooting.html,
// https://docs.aws.amazon.com/eks/latest/userguide/fargate-pod-configuration.html).
const computeTypeLabel = "eks.amazonaws.com/compute-type"

// TargetNode is the Node of the target: the one named by the instance's private DNS name
// (Instance.NamesNode) or
// whose provider ID ends in its instance ID; without an instance, the only Node of the evidence
// (a pasted Node object). Nil when none is known.
func (e *Evidence) TargetNode() *Node {
	if e.Instance == nil {
		if len(e.Nodes) == 1 {
			return &e.Nodes[0]
		}
		return nil
	}
	for i := range e.Nodes {
		n := &e.Nodes[i]
		if e.Instance.NamesNode(n.Name) || e.Instance.ID != "" && strings.HasSuffix(n.ProviderID, "/"+e.Instance.ID) {
			return n
		}
	}
	return nil
}

// NodeClassFor returns the node class a NodeClaim or NodePool refers to, or nil.
func (e *Evidence) NodeClassFor(ref NodeClassRef) *NodeClass {
	for i := range e.NodeClasses {
		if nc := &e.NodeClasses[i]; nc.Name == ref.Name && nc.AutoMode == ref.AutoMode() {
			return nc
		}
	}
	return nil
}

// KarpenterRegistrationTTL is how long Karpenter waits for a launched NodeClaim's node to
// register before it deletes the claim (the registration TTL, 15 minutes:
// kubernetes-sigs/karpenter pkg/controllers/nodeclaim/lifecycle/liveness.go). A younger claim
// without a node may still be booting.
const KarpenterRegistrationTTL = 15 * time.Minute
