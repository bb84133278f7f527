package snapshot

import (
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
