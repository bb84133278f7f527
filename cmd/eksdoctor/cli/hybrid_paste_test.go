package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hybridIAMRANodeConfig is a hybrid node's NodeConfig with IAM Roles Anywhere credentials
// (aws/eks-hybrid api/v1alpha1/nodeconfig_types.go).
const hybridIAMRANodeConfig = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: hybrid-prod\n    region: eu-west-1\n" +
	"  hybrid:\n    iamRolesAnywhere:\n      nodeName: onprem-node-01\n" +
	"      trustAnchorArn: arn:aws:rolesanywhere:eu-west-1:111122223333:trust-anchor/8d5c1b2a-1111-2222-3333-444455556666\n" +
	"      profileArn: arn:aws:rolesanywhere:eu-west-1:111122223333:profile/9e6d2c3b-1111-2222-3333-444455556666\n" +
	"      roleArn: arn:aws:iam::111122223333:role/AmazonEKSHybridNodesRole\n" +
	"      certificatePath: /etc/iam/pki/server.pem\n      privateKeyPath: /etc/iam/pki/server.key\n"

// hybridUnauthorized is the kubelet of a hybrid node refused by the API server.
const hybridUnauthorized = `Nov 20 10:01:02 onprem-node-01 kubelet[2211]: I1120 10:01:02.100000    2211 kubelet_node_status.go:72] "Attempting to register node" node="onprem-node-01"
Nov 20 10:01:02 onprem-node-01 kubelet[2211]: E1120 10:01:02.210000    2211 kubelet_node_status.go:95] "Unable to register node with API server" err="Unauthorized" node="onprem-node-01"
Nov 20 10:01:22 onprem-node-01 kubelet[2211]: E1120 10:01:22.410000    2211 kubelet_node_status.go:95] "Unable to register node with API server" err="Unauthorized" node="onprem-node-01"
`

// TestHybridPasteAccessEntryType: a hybrid node (a NodeConfig with spec.hybrid.iamRolesAnywhere)
// whose role's described access entry has an EC2 node's type fails auth.access-entry-type, and
// every fix given names HYBRID_LINUX and the hybrid username system:node:{{SessionName}}, never
// the EC2_LINUX entry that already exists (red team 11a #4;
// https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-creds.html). Each EC2 type is
// judged alike, and HYBRID_LINUX passes.
func TestHybridPasteAccessEntryType(t *testing.T) {
	for _, typ := range []string{"EC2_LINUX", "EC2_WINDOWS", "EC2", "HYBRID_LINUX"} {
		t.Run(typ, func(t *testing.T) {
			entry := `$ aws eks describe-access-entry --cluster-name hybrid-prod --principal-arn arn:aws:iam::111122223333:role/AmazonEKSHybridNodesRole
{
    "accessEntry": {
        "clusterName": "hybrid-prod",
        "principalArn": "arn:aws:iam::111122223333:role/AmazonEKSHybridNodesRole",
        "kubernetesGroups": [],
        "username": "system:node:{{EC2PrivateDNSName}}",
        "type": "` + typ + `"
    }
}
`
			p := filepath.Join(t.TempDir(), "paste.txt")
			os.WriteFile(p, []byte("Our hybrid node never shows up. Config:\n\n```yaml\n"+hybridIAMRANodeConfig+"```\n\n"+entry+"\njournalctl -u kubelet:\n"+hybridUnauthorized), 0o644)
			code, out, errOut := run("analyze", p, "-o", "json")
			var r jsonReport
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			var typeFinding, unauth *struct{ status, msg, fix string }
			for _, f := range r.Findings {
				v := &struct{ status, msg, fix string }{f.Status, f.Message, f.Remediation}
				switch f.ID {
				case "auth.access-entry-type":
					typeFinding = v
				case "runtime.unauthorized":
					unauth = v
				}
			}
			if typeFinding == nil || unauth == nil {
				t.Fatalf("findings missing (%s)\n%s", errOut, out)
			}
			if unauth.status != "fail" || strings.Contains(unauth.fix, "--type EC2_LINUX") || !strings.Contains(unauth.fix, "--type HYBRID_LINUX") ||
				!strings.Contains(unauth.fix, "system:node:{{SessionName}}") || strings.Contains(unauth.fix, "{{EC2PrivateDNSName}}") {
				t.Errorf("runtime.unauthorized %s, fix %q: want HYBRID_LINUX and system:node:{{SessionName}}", unauth.status, unauth.fix)
			}
			if typ == "HYBRID_LINUX" {
				if typeFinding.status != "pass" {
					t.Errorf("auth.access-entry-type %s %q, want pass", typeFinding.status, typeFinding.msg)
				}
				return
			}
			if code != ExitFindings || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "auth.access-entry-type" {
				t.Errorf("exit %d, cause %v: want %d and auth.access-entry-type", code, r.Diagnosis.MostLikelyCause, ExitFindings)
			}
			if typeFinding.status != "fail" || !strings.Contains(typeFinding.msg, "type "+typ) || !strings.Contains(typeFinding.msg, "HYBRID_LINUX") ||
				!strings.Contains(typeFinding.fix, "--type HYBRID_LINUX") || strings.Contains(typeFinding.fix, "EC2_LINUX") {
				t.Errorf("auth.access-entry-type %s %q fix %q", typeFinding.status, typeFinding.msg, typeFinding.fix)
			}
		})
	}
}
