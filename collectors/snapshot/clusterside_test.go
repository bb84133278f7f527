package snapshot

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// A webhook's rule scope and namespaceSelector are read: they decide whether it intercepts the
// kubelet's cluster-scoped Node and CSRs and its lease in kube-node-lease.
func TestWebhookScopeAndNamespaceSelectorRead(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files["kube/validatingwebhookconfigurations.json"] = []byte(`{"apiVersion": "v1", "kind": "List", "items": [{
  "apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
  "metadata": {"name": "gatekeeper-validating-webhook-configuration"},
  "webhooks": [{"name": "validation.gatekeeper.sh", "failurePolicy": "Fail",
    "clientConfig": {"service": {"namespace": "gatekeeper-system", "name": "gatekeeper-webhook-service"}},
    "namespaceSelector": {"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": ["kube-node-lease"]}]},
    "rules": [{"apiGroups": ["*"], "apiVersions": ["*"], "operations": ["CREATE", "UPDATE"], "resources": ["*"], "scope": "Namespaced"}]}]}]}`)
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Webhooks) != 1 {
		t.Fatalf("webhooks = %+v (gap %+v)", ev.Webhooks, ev.GapFor(evidence.KindWebhooks))
	}
	w := ev.Webhooks[0]
	if len(w.Rules) != 1 || w.Rules[0].Scope != "Namespaced" {
		t.Errorf("rules = %+v, want scope Namespaced", w.Rules)
	}
	sel := w.NamespaceSelector
	if sel == nil || len(sel.MatchExpressions) != 1 || sel.MatchExpressions[0].Operator != "NotIn" || sel.MatchExpressions[0].Values[0] != "kube-node-lease" {
		t.Errorf("namespaceSelector = %+v", sel)
	}
}

// The VPC's primary CidrBlock comes first in its CIDRs even when DescribeVpcs lists a secondary
// association before it: the VPC resolver lives at the primary block's base +2.
func TestVPCPrimaryCIDRFirst(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	s0 := FromFiles("test", files)
	ev0, err := s0.Evidence(s0.InstanceIDs()[0], "")
	if err != nil || len(ev0.VPCs) == 0 {
		t.Fatalf("no VPC in the fixture: %v", err)
	}
	id := ev0.VPCs[0].ID
	files["ec2/describe-vpcs.json"] = []byte(`{"Vpcs": [{"VpcId": "` + id + `", "CidrBlock": "10.42.0.0/16", "DhcpOptionsId": "dopt-1",
  "CidrBlockAssociationSet": [{"CidrBlock": "100.64.0.0/16"}, {"CidrBlock": "10.42.0.0/16"}]}]}`)
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.VPCs) != 1 || strings.Join(ev.VPCs[0].CIDRs, ",") != "10.42.0.0/16,100.64.0.0/16" {
		t.Errorf("VPCs = %+v, want CIDRs 10.42.0.0/16,100.64.0.0/16", ev.VPCs)
	}
}

// The cluster as a whole (no instance, e.g. before the first node group) still reads its VPC's
// DNS attributes, DHCP options and endpoints: the VPC is describe-cluster's
// resourcesVpcConfig.vpcId.
func TestClusterEvidenceReadsClusterVPCFiles(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files["ec2/vpc-attribute/vpc-0b1a2c3d4e5f60718.enableDnsHostnames.json"] = []byte(`{"VpcId": "vpc-0b1a2c3d4e5f60718", "EnableDnsHostnames": {"Value": false}}`)
	ev := FromFiles("test", files).ClusterEvidence("")
	for _, k := range []evidence.Kind{evidence.KindVPCAttributes, evidence.KindDHCPOptions, evidence.KindVPCEndpoints} {
		if !ev.Have(k) {
			t.Errorf("%s not read: %+v", k, ev.GapFor(k))
		}
	}
	a := ev.VPCAttributes
	if a == nil || a.VpcID != "vpc-0b1a2c3d4e5f60718" || a.EnableDNSHostnames == nil || *a.EnableDNSHostnames {
		t.Errorf("VPC attributes = %+v, want vpc-0b1a2c3d4e5f60718 with enableDnsHostnames false", a)
	}
}
