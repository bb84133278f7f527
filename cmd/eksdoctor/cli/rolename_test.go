package cli

import (
	"os"
	"strings"
	"testing"
)

// TestPastedNodeClassRoleByName: blind pastes23/06 — authenticationMode API, the access entries
// listed, the EC2NodeClass's role read from jsonpath output, the cluster's account nowhere —
// fails auth.role-not-mapped, judged by the role's name. The same paste with an access entry
// for a role of that name (another path), in CONFIG_MAP mode without aws-auth, or with a second
// node class of another role and no NodeClaim naming either (none chosen) does not fail it; with
// the second class the NODECLASS column of the pasted kubectl get nodeclaims -o wide names the
// class the claims launch with, and so the node role.
func TestPastedNodeClassRoleByName(t *testing.T) {
	b, err := os.ReadFile("../../../fixtures/blind/pastes23/06-karpenter-node-role-no-access-entry/input.txt")
	if err != nil {
		t.Fatal(err)
	}
	paste := string(b)
	const list = `        "arn:aws:iam::771934250618:role/karpenter-controller-ledger-prod"`
	const class = "$ kubectl get ec2nodeclass default -o jsonpath='{.spec.role}{\"\\n\"}'\nKarpenterNodeRole-ledger-prod\n"
	if !strings.Contains(paste, list) || !strings.Contains(paste, class) || !strings.Contains(paste, `"authenticationMode": "API"`) {
		t.Fatal("the fixture changed")
	}
	const table = "$ kubectl get nodeclaims -o wide\n"
	if !strings.Contains(paste, table) {
		t.Fatal("the fixture changed")
	}
	start := strings.Index(paste, table)
	noTable := paste[:start] + paste[start+strings.Index(paste[start:], "\n\n")+2:]
	twoClasses := "$ kubectl get ec2nodeclass -o yaml\napiVersion: v1\nkind: List\nitems:\n" +
		"- apiVersion: karpenter.k8s.aws/v1\n  kind: EC2NodeClass\n  metadata:\n    name: default\n  spec:\n    role: KarpenterNodeRole-ledger-prod\n" +
		"- apiVersion: karpenter.k8s.aws/v1\n  kind: EC2NodeClass\n  metadata:\n    name: gpu\n  spec:\n    role: KarpenterNodeRole-ledger-gpu\n"
	for _, c := range []struct {
		name, paste, status, message string
	}{
		{"no entry of that name", paste, "fail", "node role KarpenterNodeRole-ledger-prod (known by name from "},
		{"an entry of that name", strings.Replace(paste, list, list+",\n        \"arn:aws:iam::771934250618:role/karpenter/KarpenterNodeRole-ledger-prod\"", 1), "pass", ""},
		{"CONFIG_MAP without aws-auth", strings.Replace(paste, `"authenticationMode": "API"`, `"authenticationMode": "CONFIG_MAP"`, 1), "warn", "not collected"},
		{"two node classes, the claims naming one", strings.Replace(paste, class, twoClasses, 1), "fail", "the node class NodeClaim default-b4kxn, default-zr7qp names in spec.nodeClassRef"},
		{"two node classes, no claim table", strings.Replace(noTable, class, twoClasses, 1), "skipped", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, r, _, errOut := analyze(t, c.paste, "-")
			status, msg := pastedFinding(r, "auth.role-not-mapped")
			if status != c.status || !strings.Contains(msg, c.message) {
				t.Errorf("auth.role-not-mapped %s %q, want %s %q\n%s", status, msg, c.status, c.message, errOut)
			}
		})
	}
}
