package ingest

import (
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestKubectlGetNodeClasses: kubectl get ec2nodeclass (any spelling of the resource) gives
// StatusOnly node classes with their READY column; Auto Mode's nodeclass table gives Auto Mode
// classes; a NAME READY AGE table with no command is not guessed at.
func TestKubectlGetNodeClasses(t *testing.T) {
	for _, cmd := range []string{"kubectl get ec2nodeclass", "kubectl get ec2nodeclasses.karpenter.k8s.aws", "k get ec2nc -A"} {
		r := Read([]byte("$ "+cmd+"\nNAME            READY   AGE\ngeneric         False   6d22h\ngpu             True    6d22h\n"), "stdin", Options{})
		ev := r.Evidence
		if !ev.Have(evidence.KindEC2NodeClasses) || len(ev.NodeClasses) != 2 {
			t.Fatalf("%s: classes %+v", cmd, ev.NodeClasses)
		}
		nc := ev.NodeClasses[0]
		if nc.Name != "generic" || nc.AutoMode || !nc.StatusOnly || len(nc.Conditions) != 1 || nc.Conditions[0] != (evidence.Condition{Type: "Ready", Status: "False"}) {
			t.Errorf("%s: class %+v", cmd, nc)
		}
	}
	r := Read([]byte("$ kubectl get nodeclass\nNAME      ROLE                     READY   AGE\ndefault   AmazonEKSAutoNodeRole    False   3d\n"), "stdin", Options{})
	if ev := r.Evidence; !ev.Have(evidence.KindNodeClasses) || len(ev.NodeClasses) != 1 || !ev.NodeClasses[0].AutoMode || ev.NodeClasses[0].Role != "AmazonEKSAutoNodeRole" {
		t.Errorf("Auto Mode table: %+v", ev.NodeClasses)
	}
	r = Read([]byte("NAME            READY   AGE\ngeneric         False   6d22h\n"), "stdin", Options{})
	if r.Evidence.Have(evidence.KindEC2NodeClasses) || len(r.Evidence.NodeClasses) != 0 {
		t.Errorf("a table without its command read as node classes: %+v", r.Evidence.NodeClasses)
	}
}

// TestKubectlGetNodeClaims: a launched claim with no node is read as launched and not
// registered, with the AGE the table printed (the registration check judges it against the
// registration TTL); a registered one carries no verdict the table cannot give.
func TestKubectlGetNodeClaims(t *testing.T) {
	table := `NAME            TYPE         CAPACITY    ZONE         NODE                                        READY     AGE
default-8kq2x   m5.large     on-demand   eu-west-1a                                               Unknown   47m
default-9zz1c   m5.large     spot        eu-west-1b                                               Unknown   3m
default-ab12c   c5.xlarge    on-demand   eu-west-1c   ip-10-0-7-9.eu-west-1.compute.internal     True      2d
`
	ev := Read([]byte(table), "stdin", Options{}).Evidence
	if !ev.Have(evidence.KindNodeClaims) {
		t.Fatalf("no NodeClaims from the table")
	}
	got := map[string]evidence.NodeClaim{}
	for _, c := range ev.NodeClaims {
		got[c.Name] = c
	}
	if len(got) != 3 {
		t.Fatalf("claims %+v", ev.NodeClaims)
	}
	stuck := got["default-8kq2x"]
	if l, _ := stuck.Condition("Launched"); l.Status != "True" {
		t.Errorf("stuck claim not launched: %+v", stuck)
	}
	if r, ok := stuck.Condition("Registered"); !ok || r.Status != "Unknown" || r.Message != "no node after 47m" {
		t.Errorf("stuck claim registered: %+v", stuck)
	}
	if r, _ := got["default-ab12c"].Condition("Registered"); r.Status != "True" || got["default-ab12c"].NodeName == "" {
		t.Errorf("joined claim: %+v", got["default-ab12c"])
	}
	if young := got["default-9zz1c"]; young.ListedAge != 3*time.Minute {
		t.Errorf("a claim younger than the registration TTL lost its age: %+v", young)
	}
}

// TestKubectlDescribeNodeClass: the conditions of kubectl describe ec2nodeclass are read one by
// one (a condition ends where a field repeats), with their reasons and messages.
func TestKubectlDescribeNodeClass(t *testing.T) {
	text := `Name:         default
Namespace:
API Version:  karpenter.k8s.aws/v1
Kind:         EC2NodeClass
Spec:
  Ami Family:  AL2023
Status:
  Conditions:
    Last Transition Time:  2025-03-10T09:32:40Z
    Message:
    Reason:                AMIsReady
    Status:                True
    Type:                  AMIsReady
    Last Transition Time:  2025-03-10T09:32:41Z
    Message:               Failed to detect the cluster CIDR
    Reason:                Failed
    Status:                False
    Type:                  Ready
  Instance Profile:        prod_123
Events:                    <none>
`
	ev := Read([]byte(text), "stdin", Options{}).Evidence
	if len(ev.NodeClasses) != 1 {
		t.Fatalf("classes %+v", ev.NodeClasses)
	}
	nc := ev.NodeClasses[0]
	if nc.Name != "default" || !nc.StatusOnly || len(nc.Conditions) != 2 {
		t.Fatalf("class %+v", nc)
	}
	if c := nc.Conditions[1]; c.Type != "Ready" || c.Status != "False" || c.Reason != "Failed" || c.Message != "Failed to detect the cluster CIDR" || c.LastTransition.IsZero() {
		t.Errorf("Ready condition %+v", c)
	}
}

// TestAWSNodeTemplateIsReadAsAnEC2NodeClass: Karpenter's v1alpha1 AWSNodeTemplate gives a node
// class with its amiFamily, user data and the selector maps as terms ("aws-ids" as IDs).
func TestAWSNodeTemplateIsReadAsAnEC2NodeClass(t *testing.T) {
	doc := `apiVersion: karpenter.k8s.aws/v1alpha1
kind: AWSNodeTemplate
metadata:
  name: br
spec:
  amiFamily: Bottlerocket
  subnetSelector:
    aws-ids: "subnet-1, subnet-2"
  securityGroupSelector:
    karpenter.sh/discovery: prod
  userData: |
    [settings.kubernetes]
    max-pods = 30
`
	ev := Read([]byte(doc), "stdin", Options{}).Evidence
	if !ev.Have(evidence.KindEC2NodeClasses) || len(ev.NodeClasses) != 1 {
		t.Fatalf("classes %+v", ev.NodeClasses)
	}
	nc := ev.NodeClasses[0]
	if !nc.Template || nc.AMIFamily != "Bottlerocket" || !nc.HasUserData || len(nc.SubnetTerms) != 2 || nc.SubnetTerms[1].ID != "subnet-2" ||
		len(nc.SGTerms) != 1 || nc.SGTerms[0].Tags["karpenter.sh/discovery"] != "prod" {
		t.Errorf("class %+v", nc)
	}
}

// TestKubectlDescribeNodeClassSpecFields: kubectl describe ec2nodeclass cut before its status
// (indented as pasted) still gives the class with spec.instanceProfile and spec.role as printed;
// nested selector fields are not taken for them.
func TestKubectlDescribeNodeClassSpecFields(t *testing.T) {
	text := `     Name:         default
     API Version:  karpenter.k8s.aws/v1
     Kind:         EC2NodeClass
     Spec:
       Ami Selector Terms:
         Alias:           al2023@v20250715
       Instance Profile:  arn:aws:iam::111122223333:instance-profile/nodes
       Subnet Selector Terms:
         Tags:
           Role:  private
     Status:
       Amis:
         Id:    ami-0047d697dc3276f90
`
	ev := Read([]byte(text), "stdin", Options{}).Evidence
	if len(ev.NodeClasses) != 1 {
		t.Fatalf("classes %+v", ev.NodeClasses)
	}
	nc := ev.NodeClasses[0]
	if nc.Name != "default" || !nc.StatusOnly || nc.InstanceProfile != "arn:aws:iam::111122223333:instance-profile/nodes" || nc.Role != "" || len(nc.Conditions) != 0 {
		t.Errorf("class %+v", nc)
	}
}

// TestConditionsFragments: status conditions cut out of kubectl describe, without the object's
// Name: a NodeClaim's condition types make a NodeClaim (a Ready condition cut before its Type
// still names its UnhealthyDependents), an EC2NodeClass's make a node class, and other
// conditions are only scanned.
func TestConditionsFragments(t *testing.T) {
	claim := `  Conditions:
    Last Transition Time:  2024-11-15T17:10:23Z
    Message:
    Reason:                Initialized
    Status:                True
    Type:                  Initialized
    Last Transition Time:  2024-11-15T17:08:57Z
    Message:
    Reason:                Launched
    Status:                True
    Type:                  Launched
    Last Transition Time:  2024-11-15T17:10:23Z
    Message:               Registered=False
    Reason:                UnhealthyDependents
`
	ev := Read([]byte(claim), "stdin", Options{}).Evidence
	if len(ev.NodeClaims) != 1 {
		t.Fatalf("claims %+v", ev.NodeClaims)
	}
	c := ev.NodeClaims[0]
	if r, ok := c.Condition("Registered"); !ok || r.Status != "False" || c.Name != unnamed {
		t.Errorf("claim %+v", c)
	}
	// the same conditions pasted from the Status: line down: both header lines lead in
	ev = Read([]byte("Status:\n"+claim), "stdin", Options{}).Evidence
	if len(ev.NodeClaims) != 1 {
		t.Fatalf("under Status: claims %+v", ev.NodeClaims)
	}
	class := `    Message:               User: arn:aws:sts::111122223333:assumed-role/karpenter/k is not authorized to perform: iam:PassRole on resource: arn:aws:iam::111122223333:role/nodes
    Observed Generation:   1
    Reason:                Unauthorized
    Status:                False
    Type:                  InstanceProfileReady
    Last Transition Time:  2025-03-15T02:31:41Z
`
	ev = Read([]byte(class), "stdin", Options{}).Evidence
	if len(ev.NodeClasses) != 1 {
		t.Fatalf("classes %+v", ev.NodeClasses)
	}
	if c, ok := ev.NodeClasses[0].Condition("InstanceProfileReady"); !ok || c.Status != "False" || c.Reason != "Unauthorized" || !ev.NodeClasses[0].StatusOnly {
		t.Errorf("class %+v", ev.NodeClasses[0])
	}
	other := `    Last Transition Time:  2025-03-15T02:31:41Z
    Message:               Deployment has minimum availability.
    Reason:                MinimumReplicasAvailable
    Status:                True
    Type:                  Available
`
	r := Read([]byte(other), "stdin", Options{})
	if len(r.Evidence.NodeClasses)+len(r.Evidence.NodeClaims) != 0 {
		t.Errorf("a Deployment's conditions became Karpenter objects: %+v %+v", r.Evidence.NodeClasses, r.Evidence.NodeClaims)
	}
}

// TestKubectlDescribeNodeClaim: kubectl describe nodeclaim gives a NodeClaim with its provider
// ID and conditions when they carry a verdict; a claim still waiting for registration is not
// judged (describe prints no "now" to measure Karpenter's registration timeout against).
func TestKubectlDescribeNodeClaim(t *testing.T) {
	text := `Name:         default-abc12
Labels:       karpenter.sh/nodepool=default
API Version:  karpenter.sh/v1
Kind:         NodeClaim
Metadata:
  Creation Timestamp:  2025-01-10T10:00:00Z
Status:
  Conditions:
    Last Transition Time:  2025-01-10T10:00:40Z
    Message:
    Reason:                Launched
    Status:                True
    Type:                  Launched
    Last Transition Time:  2025-01-10T10:15:40Z
    Message:               Node not registered with cluster
    Reason:                NodeNotFound
    Status:                REGISTERED
    Type:                  Registered
  Provider ID:             aws:///us-west-2a/i-0a1b2c3d4e5f60001
`
	for _, tc := range []struct {
		status string
		want   int
	}{{"False", 1}, {"Unknown", 0}} {
		ev := Read([]byte(strings.Replace(text, "REGISTERED", tc.status, 1)), "stdin", Options{}).Evidence
		if len(ev.NodeClaims) != tc.want {
			t.Fatalf("Registered=%s: claims %+v", tc.status, ev.NodeClaims)
		}
		if tc.want == 1 {
			c := ev.NodeClaims[0]
			if c.Name != "default-abc12" || c.InstanceID() != "i-0a1b2c3d4e5f60001" || c.NodePool != "default" || c.Created.IsZero() {
				t.Errorf("claim %+v", c)
			}
		}
	}
}

// TestYAMLElisionKeepsStatusConditions: a manifest whose status conditions follow a "..."
// elision (YAML's document end marker, and a poster's "I cut something here") keeps them: they
// are the object's conditions, not lost after the marker; conditions shown alone say whose they
// are by their types.
func TestYAMLElisionKeepsStatusConditions(t *testing.T) {
	paste := `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  instanceProfile: "not-a-real-profile"
...

  - lastTransitionTime: "2026-07-13T20:49:06Z"
    message: Instance profile "not-a-real-profile" not found
    reason: InstanceProfileNotFound
    status: "False"
    type: ValidationSucceeded
  - lastTransitionTime: "2026-07-13T20:49:06Z"
    message: ValidationSucceeded=False
    reason: UnhealthyDependents
    status: "False"
    type: Ready
`
	r := Read([]byte(paste), "stdin", Options{})
	ev := r.Evidence
	if len(ev.NodeClasses) != 1 {
		t.Fatalf("classes %+v (segments %+v)", ev.NodeClasses, r.Segments)
	}
	nc := ev.NodeClasses[0]
	if nc.Name != "default" || nc.InstanceProfile != "not-a-real-profile" || nc.SpecOnly {
		t.Errorf("class %+v", nc)
	}
	if c, ok := nc.Condition("ValidationSucceeded"); !ok || c.Status != "False" || c.Reason != "InstanceProfileNotFound" {
		t.Errorf("ValidationSucceeded %+v in %+v", c, nc.Conditions)
	}
	if last := r.Segments[len(r.Segments)-1]; last.Last != 18 {
		t.Errorf("the conditions are not part of the object's lines: %+v", r.Segments)
	}

	alone := paste[strings.Index(paste, "  - lastTransitionTime"):]
	ev = Read([]byte(alone), "stdin", Options{}).Evidence
	if len(ev.NodeClasses) != 1 || ev.NodeClasses[0].Name != unnamed {
		t.Fatalf("conditions alone: %+v", ev.NodeClasses)
	}
	if c, _ := ev.NodeClasses[0].Condition("Ready"); c.Status != "False" {
		t.Errorf("conditions alone: %+v", ev.NodeClasses[0])
	}
}

// TestBareCommandsAndCommentedOutput: commands pasted without a prompt, their output behind
// "# " as in a shell script or a README, are read as the command's output.
func TestBareCommandsAndCommentedOutput(t *testing.T) {
	paste := `kubectl get nodeclaims
# NAME            TYPE         CAPACITY    ZONE         NODE   READY     AGE
# default-kb85v   t3a.xlarge   on-demand   us-east-1a          Unknown   38m
# default-njzpq   t3a.xlarge   on-demand   us-east-1a          Unknown   38m

kubectl get nodes
# NAME                            STATUS   ROLES    AGE   VERSION
# ip-10-59-127-151.ec2.internal   Ready    <none>   24m   v1.32.9-eks-ecaa3a6
`
	r := Read([]byte(paste), "stdin", Options{})
	ev := r.Evidence
	if !ev.Have(evidence.KindNodeClaims) || len(ev.NodeClaims) != 2 {
		t.Fatalf("claims %+v from %+v", ev.NodeClaims, r.Segments)
	}
	if c, _ := ev.NodeClaims[0].Condition("Registered"); c.Status != "Unknown" {
		t.Errorf("claim %+v", ev.NodeClaims[0])
	}
	// a script's comment under a command is not output
	r = Read([]byte("kubectl get nodes\n# then look at the events\n"), "stdin", Options{})
	if r.Evidence.Have(evidence.KindNodes) {
		t.Errorf("a comment read as output: %+v", r.Segments)
	}
}

// TestAutoModeNodeClassManifest: an EKS Auto Mode NodeClass as kubectl get -o yaml prints it (and
// a NodeClassList) is the cluster's Auto Mode node class with its spec.role; it was read as
// lines of data. A Karpenter EC2NodeClass stays one.
func TestAutoModeNodeClassManifest(t *testing.T) {
	doc := `apiVersion: eks.amazonaws.com/v1
kind: NodeClass
metadata:
  name: gpu-inference
spec:
  role: AmazonEKSAutoNodeRole-gpu
  ephemeralStorage:
    size: 200Gi
  securityGroupSelectorTerms:
  - tags:
      aws:eks:cluster-name: ml-platform
  subnetSelectorTerms:
  - tags:
      kubernetes.io/role/internal-elb: "1"
`
	list := "apiVersion: v1\nkind: NodeClassList\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(doc, "\n"), "\n", "\n  ") + "\n"
	for what, text := range map[string]string{"object": doc, "list": list} {
		ev := Read([]byte(text), "stdin", Options{}).Evidence
		if !ev.Have(evidence.KindNodeClasses) || ev.Have(evidence.KindEC2NodeClasses) || len(ev.NodeClasses) != 1 {
			t.Fatalf("%s: classes %+v", what, ev.NodeClasses)
		}
		if nc := ev.NodeClasses[0]; nc.Name != "gpu-inference" || !nc.AutoMode || nc.Role != "AmazonEKSAutoNodeRole-gpu" {
			t.Errorf("%s: class %+v", what, nc)
		}
	}
	ec2 := strings.Replace(strings.Replace(doc, "eks.amazonaws.com/v1", "karpenter.k8s.aws/v1", 1), "kind: NodeClass", "kind: EC2NodeClass", 1)
	if ev := Read([]byte(ec2), "stdin", Options{}).Evidence; !ev.Have(evidence.KindEC2NodeClasses) || len(ev.NodeClasses) != 1 || ev.NodeClasses[0].AutoMode {
		t.Errorf("EC2NodeClass: %+v", ev.NodeClasses)
	}
}

// TestKubectlGetNodeClaimsReadyIsInitialized: a claim whose READY column is True is initialized
// (READY is the root condition over Launched, Registered and Initialized), so its node is not
// reported NotReady for want of an Initialized condition.
func TestKubectlGetNodeClaimsReadyIsInitialized(t *testing.T) {
	table := `NAME                  TYPE          CAPACITY    ZONE              NODE                  READY     AGE   ID                                               NODEPOOL          NODECLASS
general-purpose-6bq9t c6a.large     on-demand   ap-southeast-1a   i-0e2c4a6f8d1b35079   True      6d    aws:///ap-southeast-1a/i-0e2c4a6f8d1b35079       general-purpose   default
general-purpose-7cd2k c6a.large     on-demand   ap-southeast-1b   i-0f2c4a6f8d1b35071   False     2d    aws:///ap-southeast-1b/i-0f2c4a6f8d1b35071       general-purpose   default
`
	ev := Read([]byte(table), "stdin", Options{}).Evidence
	if len(ev.NodeClaims) != 2 {
		t.Fatalf("claims %+v", ev.NodeClaims)
	}
	if c, ok := ev.NodeClaims[0].Condition("Initialized"); !ok || c.Status != "True" {
		t.Errorf("ready claim: %+v", ev.NodeClaims[0])
	}
	if _, ok := ev.NodeClaims[1].Condition("Initialized"); ok {
		t.Errorf("a claim not ready was given Initialized: %+v", ev.NodeClaims[1])
	}
}
