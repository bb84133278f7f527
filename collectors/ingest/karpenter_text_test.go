package ingest

import (
	"testing"

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

// TestKubectlGetNodeClaims: a launched claim with no node after the registration TTL is read as
// launched and not registered; a younger one, a registered one and one not launched carry no
// verdict the table cannot give.
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
	if len(got) != 2 {
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
	if _, young := got["default-9zz1c"]; young {
		t.Errorf("a claim younger than the registration TTL was judged")
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
