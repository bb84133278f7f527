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

// hybridSSMNodeConfig is a hybrid node's NodeConfig with SSM credentials.
const hybridSSMNodeConfig = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: my-hybrid-cluster\n    region: us-west-2\n" +
	"  hybrid:\n    ssm:\n      activationCode: ys25k3gpt8zzyl9jhn6gq8rj3519owjelyz7\n      activationId: 57be8cce-1137-32d4-ce32-ba044ea5df48\n"

// TestHybridBootstrapFailedFix: runtime.bootstrap-failed from the hybrid nodeadm (aws/eks-hybrid)
// gives a hybrid node's fix, not the EC2 NodeConfig's (name, apiServerEndpoint,
// certificateAuthority, cidr): an expired or invalid SSM activation (internal/ssm/daemon.go) is
// fixed with a new activation in spec.hybrid.ssm, whether or not the NodeConfig is pasted too,
// and another hybrid failure (an IAM Roles Anywhere certificate missing) with the hybrid
// NodeConfig, its credentials and nodeadm debug (red team 11a #7). The activation code is never
// in the output.
func TestHybridBootstrapFailedFix(t *testing.T) {
	fatal := func(msg string) string {
		return "$ sudo nodeadm init -c file://nodeConfig.yaml\n" +
			`{"level":"info","ts":"2026-11-20T18:10:36.951Z","caller":"ssm/daemon.go:40","msg":"Registering machine with SSM..."}` + "\n" +
			`{"level":"fatal","ts":"2026-11-20T18:10:42.310Z","caller":"nodeadm/main.go:57","msg":"Command failed","error":"` + msg + `"}` + "\n"
	}
	for _, tc := range []struct {
		name, paste string
		want        []string
	}{
		{"expired with NodeConfig", fatal("SSM activation expired. Please use a valid activation") + "\nnodeConfig.yaml:\n```yaml\n" + hybridSSMNodeConfig + "```\n",
			[]string{"aws ssm create-activation", "spec.hybrid.ssm"}},
		{"expired, log only", fatal("SSM activation expired. Please use a valid activation"),
			[]string{"aws ssm create-activation", "spec.hybrid.ssm"}},
		{"invalid activation", fatal("invalid SSM activation. Please use a valid activation code, activation id and region"),
			[]string{"aws ssm create-activation", "spec.hybrid.ssm"}},
		{"IAM Roles Anywhere certificate missing", fatal("IAM Roles Anywhere certificate /etc/iam/pki/server.pem not found"),
			[]string{"spec.hybrid", "certificatePath", "nodeadm debug"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "paste.txt")
			os.WriteFile(p, []byte(tc.paste), 0o644)
			code, out, errOut := run("analyze", p, "-o", "json")
			if strings.Contains(out, "ys25k3gpt8zzyl9jhn6gq8rj3519owjelyz7") {
				t.Fatal("activation code in the output")
			}
			var r jsonReport
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			if code != ExitFindings || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.bootstrap-failed" {
				t.Fatalf("exit %d cause %v, want %d runtime.bootstrap-failed (%s)", code, r.Diagnosis.MostLikelyCause, ExitFindings, errOut)
			}
			for _, f := range r.Findings {
				if f.ID != "runtime.bootstrap-failed" {
					continue
				}
				if f.Status != "fail" || strings.Contains(f.Remediation, "apiServerEndpoint") || strings.Contains(f.Remediation, "bootstrap.sh") {
					t.Errorf("%s fix %q: the EC2 node's fix", f.Status, f.Remediation)
				}
				for _, w := range tc.want {
					if !strings.Contains(f.Remediation, w) {
						t.Errorf("fix %q lacks %q", f.Remediation, w)
					}
				}
			}
		})
	}
}

// TestHybridCNINotReadyFix: a hybrid node (label eks.amazonaws.com/compute-type=hybrid) NotReady
// with "cni plugin not initialized" is told to install a CNI that supports hybrid nodes (Cilium
// or Calico), never to repair the VPC CNI add-on or aws-node, which does not run on hybrid nodes
// (amazon-vpc-cni-k8s charts/aws-vpc-cni/values.yaml: affinity compute-type NotIn fargate,
// hybrid, auto; https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-cni.html). The
// same node without the label keeps the VPC CNI's fix (red team 11a #5, hybrid part).
func TestHybridCNINotReadyFix(t *testing.T) {
	describe := func(label string) string {
		return "$ kubectl describe node mi-0f1e2d3c4b5a69788\nName:               mi-0f1e2d3c4b5a69788\nRoles:              <none>\n" +
			"Labels:             kubernetes.io/os=linux\n" + label +
			"                    kubernetes.io/hostname=mi-0f1e2d3c4b5a69788\n" +
			"CreationTimestamp:  Tue, 24 Nov 2026 10:01:02 +0000\nTaints:             node.kubernetes.io/not-ready:NoSchedule\nUnschedulable:      false\n" +
			"Conditions:\n  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n" +
			"  ----             ------  -----------------                 ------------------                ------                       -------\n" +
			"  Ready            False   Tue, 24 Nov 2026 10:12:40 +0000   Tue, 24 Nov 2026 10:01:02 +0000   KubeletNotReady              container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\n" +
			"Addresses:\n  InternalIP:  192.168.10.21\n  Hostname:    mi-0f1e2d3c4b5a69788\n"
	}
	for _, hybrid := range []bool{true, false} {
		label := ""
		if hybrid {
			label = "                    eks.amazonaws.com/compute-type=hybrid\n"
		}
		p := filepath.Join(t.TempDir(), "paste.txt")
		os.WriteFile(p, []byte(describe(label)), 0o644)
		code, out, errOut := run("analyze", p, "-o", "json")
		var r jsonReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if code != ExitFindings {
			t.Errorf("hybrid=%v: exit %d, want %d (%s)", hybrid, code, ExitFindings, errOut)
		}
		found := false
		for _, f := range r.Findings {
			if f.ID != "runtime.cni-not-ready" || f.Status != "fail" {
				continue
			}
			found = true
			vpc := strings.Contains(f.Remediation, "--addon-name vpc-cni")
			cilium := strings.Contains(f.Remediation, "Cilium") && strings.Contains(f.Remediation, "Calico")
			if hybrid && (vpc || !cilium || strings.Contains(f.Message, "aws-node has not") || len(f.Docs) == 0 || f.Docs[0] != "https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-cni.html") {
				t.Errorf("hybrid node: message %q fix %q docs %v, want Cilium or Calico, no aws-node, the hybrid CNI guide first", f.Message, f.Remediation, f.Docs)
			}
			if !hybrid && (!vpc || cilium) {
				t.Errorf("EC2 node: fix %q, want the VPC CNI add-on", f.Remediation)
			}
		}
		if !found {
			t.Errorf("hybrid=%v: no failing runtime.cni-not-ready (%s)\n%s", hybrid, errOut, out)
		}
	}
}
