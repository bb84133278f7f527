package ingest

import (
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestNodeClaimTableColumns: every column kubectl get nodeclaims prints (karpenter.sh/v1 printer
// columns of kubernetes-sigs/karpenter v1.7: TYPE CAPACITY ZONE NODE READY AGE, -o wide IMAGEID
// ID NODEPOOL NODECLASS DRIFTED) fills its NodeClaim field, young claims without a node
// included: they tie the node class and the instance even before any verdict. The NODECLASS
// column names the class only, so its kind and group stay unknown; a column not printed leaves
// its field unknown.
func TestNodeClaimTableColumns(t *testing.T) {
	wide := `$ kubectl get nodeclaims -o wide
NAME            TYPE         CAPACITY    ZONE            NODE                           READY     AGE   IMAGEID                 ID                                          NODEPOOL   NODECLASS   DRIFTED
default-b4kxn   m7i.xlarge   on-demand   eu-west-3a                                     Unknown   13m   ami-0d94c2e7a51f3b806   aws:///eu-west-3a/i-06c2f9a8e3d17b452       default    standard    
default-old1x   m7i.xlarge   on-demand   eu-west-3b                                     Unknown   42m   ami-0d94c2e7a51f3b806   aws:///eu-west-3b/i-0aa2f9a8e3d17b400       default    standard    
default-ok9zz   m7i.xlarge   spot        eu-west-3b     ip-10-1-2-3.eu-west-3.compute.internal   True      3d    ami-0d94c2e7a51f3b806   aws:///eu-west-3b/i-0bb2f9a8e3d17b401       default    standard    True
default-pend1                                                                           Unknown   20s                                                                       default    standard    
`
	ev := Read([]byte(wide), "stdin", Options{}).Evidence
	if !ev.Have(evidence.KindNodeClaims) || len(ev.NodeClaims) != 4 {
		t.Fatalf("claims %+v", ev.NodeClaims)
	}
	young := ev.NodeClaims[0]
	if young.Name != "default-b4kxn" || young.NodePool != "default" || young.NodeClassRef != (evidence.NodeClassRef{Name: "standard"}) ||
		young.InstanceID() != "i-06c2f9a8e3d17b452" || young.ImageID != "ami-0d94c2e7a51f3b806" || young.NodeName != "" || young.ListedAge != 13*time.Minute {
		t.Errorf("young claim %+v", young)
	}
	if l, _ := young.Condition("Launched"); l.Status != "True" {
		t.Errorf("young claim not launched: %+v", young.Conditions)
	}
	if r, _ := young.Condition("Ready"); r.Status != "Unknown" {
		t.Errorf("young claim's READY: %+v", young.Conditions)
	}
	if r, ok := young.Condition("Registered"); ok && r.Status != "Unknown" {
		t.Errorf("young claim's Registered: %+v", r)
	}
	if _, ok := young.Condition("Drifted"); ok {
		t.Errorf("an empty DRIFTED cell read as a condition: %+v", young.Conditions)
	}
	if old := ev.NodeClaims[1]; old.ListedAge != 42*time.Minute || old.InstanceID() != "i-0aa2f9a8e3d17b400" {
		t.Errorf("old claim %+v", old)
	} else if r, _ := old.Condition("Registered"); r.Status != "Unknown" {
		t.Errorf("old claim's Registered: %+v", old.Conditions)
	}
	ok := ev.NodeClaims[2]
	if d, _ := ok.Condition("Drifted"); d.Status != "True" {
		t.Errorf("DRIFTED True not read: %+v", ok.Conditions)
	}
	if r, _ := ok.Condition("Registered"); r.Status != "True" || ok.NodeName != "ip-10-1-2-3.eu-west-3.compute.internal" {
		t.Errorf("registered claim %+v", ok)
	}
	pend := ev.NodeClaims[3]
	if _, launched := pend.Condition("Launched"); launched || pend.NodeClassRef.Name != "standard" || pend.ProviderID != "" {
		t.Errorf("claim not launched %+v", pend)
	}

	// without -o wide: no pool, class, image or provider ID is printed, so none is known
	narrow := "$ kubectl get nodeclaims\nNAME            TYPE         CAPACITY    ZONE            NODE   READY     AGE\ndefault-b4kxn   m7i.xlarge   on-demand   eu-west-3a             Unknown   13m\n"
	ev = Read([]byte(narrow), "stdin", Options{}).Evidence
	if len(ev.NodeClaims) != 1 {
		t.Fatalf("narrow claims %+v", ev.NodeClaims)
	}
	if c := ev.NodeClaims[0]; c.NodePool != "" || c.NodeClassRef != (evidence.NodeClassRef{}) || c.ImageID != "" || c.ProviderID != "" || c.ListedAge != 13*time.Minute {
		t.Errorf("narrow claim %+v", c)
	}
}

// TestNodeClaimTableBesideItsObject: a claim a kubectl get nodeclaims table lists and the
// paste also shows whole (-o yaml, or describe) is one claim: the object's fields and
// conditions, the table's only where the object has none; it is neither doubled nor replaced
// by the thinner row.
func TestNodeClaimTableBesideItsObject(t *testing.T) {
	paste := `$ kubectl get nodeclaims -o wide
NAME              TYPE         CAPACITY    ZONE               NODE   READY     AGE   IMAGEID                 ID                                             NODEPOOL    NODECLASS   DRIFTED
gpu-batch-7tq4m   g6.2xlarge   on-demand   ap-southeast-2b           Unknown   11m   ami-0c4d81e6f2b5a9370   aws:///ap-southeast-2b/i-06f2b9d4c1e8a7305     gpu-batch   gpu-batch   False
other-a1b2c       g6.2xlarge   on-demand   ap-southeast-2a           Unknown   2m                                                                           gpu-batch   gpu-batch      

$ kubectl get nodeclaim gpu-batch-7tq4m -o yaml
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  creationTimestamp: "2025-07-09T02:18:40Z"
  labels:
    karpenter.sh/nodepool: gpu-batch
  name: gpu-batch-7tq4m
spec:
  nodeClassRef:
    group: eks.amazonaws.com
    kind: NodeClass
    name: gpu-batch
status:
  conditions:
  - lastTransitionTime: "2025-07-09T02:18:43Z"
    message: ""
    reason: Launched
    status: "True"
    type: Launched
  - lastTransitionTime: "2025-07-09T02:18:43Z"
    message: Node not registered with cluster
    reason: NodeNotFound
    status: Unknown
    type: Registered
  providerID: aws:///ap-southeast-2b/i-06f2b9d4c1e8a7305
`
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if len(ev.NodeClaims) != 2 {
		t.Fatalf("claims %+v", ev.NodeClaims)
	}
	var c evidence.NodeClaim
	for _, x := range ev.NodeClaims {
		if x.Name == "gpu-batch-7tq4m" {
			c = x
		}
	}
	if c.NodeClassRef != (evidence.NodeClassRef{Group: "eks.amazonaws.com", Kind: "NodeClass", Name: "gpu-batch"}) || c.Created.IsZero() || c.ListedAge != 0 ||
		c.ImageID != "ami-0c4d81e6f2b5a9370" || c.InstanceID() != "i-06f2b9d4c1e8a7305" {
		t.Errorf("merged claim %+v", c)
	}
	if r, _ := c.Condition("Registered"); r.Reason != "NodeNotFound" {
		t.Errorf("the table's row replaced the object's conditions: %+v", c.Conditions)
	}
	if d, _ := c.Condition("Drifted"); d.Status != "False" {
		t.Errorf("the table's DRIFTED not added: %+v", c.Conditions)
	}
}

// TestClaimClassRoleUnknownKind: a NodeClaim known from a table names its class by name only, so
// it ties the node role only when one class of that name was pasted: an EC2NodeClass and an Auto
// Mode NodeClass of the same name leave it unknown; a claim whose group is known picks its kind.
func TestClaimClassRoleUnknownKind(t *testing.T) {
	ev := &evidence.Evidence{
		NodeClaims: []evidence.NodeClaim{{Name: "default-b4kxn", NodeClassRef: evidence.NodeClassRef{Name: "default"}}},
		NodeClasses: []evidence.NodeClass{{Name: "default", Role: "KarpenterNodeRole-prod"},
			{Name: "default", AutoMode: true, Role: "AutoNodeRole-prod"}},
	}
	if role, why := claimClassRole(ev); role != "" {
		t.Errorf("a class of unknown kind chose %s (%s)", role, why)
	}
	ev.NodeClaims[0].NodeClassRef = evidence.NodeClassRef{Group: "eks.amazonaws.com", Kind: "NodeClass", Name: "default"}
	if role, _ := claimClassRole(ev); role != "AutoNodeRole-prod" {
		t.Errorf("Auto Mode claim: role %q", role)
	}
	// another claim listed by a table only, beside the one whose object gives the kind
	ev.NodeClaims = append(ev.NodeClaims, evidence.NodeClaim{Name: "default-zr7qp", NodeClassRef: evidence.NodeClassRef{Name: "default"}})
	if role, _ := claimClassRole(ev); role != "AutoNodeRole-prod" {
		t.Errorf("Auto Mode claim beside a table's row: role %q", role)
	}
	ev.NodeClaims = ev.NodeClaims[:1]
	ev.NodeClaims[0].NodeClassRef, ev.NodeClasses = evidence.NodeClassRef{Name: "default"}, ev.NodeClasses[:1]
	if role, _ := claimClassRole(ev); role != "KarpenterNodeRole-prod" {
		t.Errorf("one class of the name: role %q", role)
	}
}
