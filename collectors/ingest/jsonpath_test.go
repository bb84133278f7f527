package ingest

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// jsonpathNodes is `kubectl get nodes -o jsonpath=…` ranging over the items with tab-separated
// fields, the last row a node whose kubelet is newer than the others.
const jsonpathNodes = `$ kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.status.nodeInfo.kubeletVersion}{"\t"}{.status.nodeInfo.osImage}{"\n"}{end}'
ip-10-12-33-101.eu-west-1.compute.internal	v1.31.7-eks-473151a	Amazon Linux 2023.8.20250715
ip-10-12-90-244.eu-west-1.compute.internal	v1.33.1-eks-b9f6c2a	Amazon Linux 2023.8.20250818
`

// TestJSONPathNodes: the rows of a jsonpath template over .items are Nodes with the fields the
// template asked for; their readiness, not asked for, is unknown (not NotReady, not unregistered).
func TestJSONPathNodes(t *testing.T) {
	r := Read([]byte(jsonpathNodes), "stdin", Options{})
	ev := r.Evidence
	if !ev.Have(evidence.KindNodes) || len(ev.Nodes) != 2 {
		t.Fatalf("nodes %+v (segments %+v)", ev.Nodes, r.Segments)
	}
	n := ev.Nodes[1]
	if n.Name != "ip-10-12-90-244.eu-west-1.compute.internal" || n.KubeletVersion != "v1.33.1-eks-b9f6c2a" {
		t.Errorf("node %+v", n)
	}
	for _, n := range ev.Nodes {
		if !n.ReadyUnknown || n.Ready || n.Unregistered {
			t.Errorf("node %s: readiness was not asked for, want unknown: %+v", n.Name, n)
		}
	}
	if ev.NodesPartial {
		t.Errorf("a listing of every node is not partial")
	}
	if src := ev.Source(evidence.KindNodes); !strings.Contains(src, "stdin") {
		t.Errorf("source %q", src)
	}
}

// TestJSONPathNodesReady: a template that asks for the Ready condition's status gives it.
func TestJSONPathNodesReady(t *testing.T) {
	paste := `$ kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="Ready")].status} {.spec.providerID}{"\n"}{end}'
ip-10-0-1-5.ec2.internal True aws:///us-east-1a/i-0aaaaaaaaaaaaaaa1
ip-10-0-1-6.ec2.internal False aws:///us-east-1b/i-0aaaaaaaaaaaaaaa2
`
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if len(ev.Nodes) != 2 {
		t.Fatalf("nodes %+v", ev.Nodes)
	}
	if a, b := ev.Nodes[0], ev.Nodes[1]; !a.Ready || a.ReadyUnknown || b.Ready || b.ReadyUnknown || b.ProviderID != "aws:///us-east-1b/i-0aaaaaaaaaaaaaaa2" {
		t.Errorf("nodes %+v", ev.Nodes)
	}
}

// TestJSONPathNodeClass: one object asked for by name (its NAME from the command line), fields
// on lines of their own: an Auto Mode NodeClass with its role and Ready condition, whose spec
// beyond the role is unknown (StatusOnly), not empty.
func TestJSONPathNodeClass(t *testing.T) {
	paste := `$ kubectl get nodeclass gpu-batch -o jsonpath='{.spec.role}{"\n"}{.status.conditions[?(@.type=="Ready")].status}{"\n"}'
ledger-auto-gpu-batch-node
True
`
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if !ev.Have(evidence.KindNodeClasses) || len(ev.NodeClasses) != 1 {
		t.Fatalf("node classes %+v", ev.NodeClasses)
	}
	nc := ev.NodeClasses[0]
	c, _ := nc.Condition("Ready")
	if nc.Name != "gpu-batch" || !nc.AutoMode || nc.Role != "ledger-auto-gpu-batch-node" || c.Status != "True" || !nc.StatusOnly || nc.SpecOnly {
		t.Errorf("node class %+v", nc)
	}
}

// TestJSONPathEC2NodeClassQualified: a fully qualified resource name and the name given as
// KIND/NAME; the role alone, no condition asked for.
func TestJSONPathEC2NodeClassQualified(t *testing.T) {
	paste := `$ kubectl get ec2nodeclasses.karpenter.k8s.aws/default -o=jsonpath='{.spec.role}'
KarpenterNodeRole-prod
`
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if len(ev.NodeClasses) != 1 {
		t.Fatalf("node classes %+v", ev.NodeClasses)
	}
	if nc := ev.NodeClasses[0]; nc.Name != "default" || nc.AutoMode || nc.Role != "KarpenterNodeRole-prod" || !nc.StatusOnly || nc.SpecOnly {
		t.Errorf("node class %+v", nc)
	}
}

// TestJSONPathNodeClaimRef: a NodeClaim's nodeClassRef and providerID asked for by name.
func TestJSONPathNodeClaimRef(t *testing.T) {
	paste := `$ kubectl get nodeclaim default-x7k2p -o jsonpath='{.spec.nodeClassRef.name}{"\t"}{.status.providerID}{"\n"}'
default	aws:///us-west-2a/i-0123456789abcdef0
`
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if len(ev.NodeClaims) != 1 {
		t.Fatalf("claims %+v", ev.NodeClaims)
	}
	if c := ev.NodeClaims[0]; c.Name != "default-x7k2p" || c.NodeClassRef.Name != "default" || c.InstanceID() != "i-0123456789abcdef0" {
		t.Errorf("claim %+v", c)
	}
}

// TestJSONPathAmbiguous: output that does not split back into the template's fields is not
// read — a row with a field too many or too few, a value that holds the space separating it
// from the next, a version that is no version — never guessed at.
func TestJSONPathAmbiguous(t *testing.T) {
	for name, paste := range map[string]string{
		"extra field": `$ kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.status.nodeInfo.kubeletVersion}{"\n"}{end}'
ip-10-0-1-5.ec2.internal	v1.31.7	extra
`,
		"missing field": `$ kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.status.nodeInfo.kubeletVersion}{"\n"}{end}'
ip-10-0-1-5.ec2.internal
`,
		"space in a value before a space": `$ kubectl get nodes -o jsonpath='{range .items[*]}{.status.nodeInfo.osImage} {.status.nodeInfo.kubeletVersion}{"\n"}{end}'
Amazon Linux 2023 v1.31.7
`,
		"adjacent fields": `$ kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{.status.nodeInfo.kubeletVersion}{"\n"}{end}'
ip-10-0-1-5.ec2.internalv1.31.7
`,
		"not a version": `$ kubectl get nodes -o jsonpath='{range .items[*]}{.status.nodeInfo.kubeletVersion}{"\t"}{.metadata.name}{"\n"}{end}'
ip-10-0-1-5.ec2.internal	v1.31.7
`,
		"name and range": `$ kubectl get node ip-10-0-1-5.ec2.internal -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'
ip-10-0-1-5.ec2.internal
`,
	} {
		t.Run(name, func(t *testing.T) {
			r := Read([]byte(paste), "stdin", Options{})
			if len(r.Evidence.Nodes) != 0 {
				t.Errorf("nodes read from ambiguous output: %+v", r.Evidence.Nodes)
			}
		})
	}
}

// TestCustomColumnsNodesNoReady: a custom-columns listing without the Ready condition leaves
// the Nodes' readiness unknown, as a jsonpath template does.
func TestCustomColumnsNodesNoReady(t *testing.T) {
	paste := `$ kubectl get nodes -o custom-columns=NAME:.metadata.name,KUBELET:.status.nodeInfo.kubeletVersion
NAME                         KUBELET
ip-10-50-3-27.ec2.internal   v1.30.9
`
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if len(ev.Nodes) != 1 || !ev.Nodes[0].ReadyUnknown || ev.Nodes[0].KubeletVersion != "v1.30.9" {
		t.Errorf("nodes %+v", ev.Nodes)
	}
}

// TestNodeRoleOfClaimsClass: two roles' access entries are pasted, both reading as a node's;
// the NodeClaim's nodeClassRef names a NodeClass whose spec.role is one of them, so that one
// is the node role, and the source says why. Without the link nothing is chosen.
func TestNodeRoleOfClaimsClass(t *testing.T) {
	claim := `$ kubectl get nodeclaim gpu-batch-7tq4m -o yaml
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: gpu-batch-7tq4m
  labels:
    karpenter.sh/nodepool: gpu-batch
spec:
  nodeClassRef:
    group: eks.amazonaws.com
    kind: NodeClass
    name: gpu-batch
status:
  providerID: aws:///ap-southeast-2b/i-06f2b9d4c1e8a7305
  conditions:
  - type: Launched
    status: "True"
    reason: Launched
  - type: Registered
    status: Unknown
    reason: NodeNotFound
    message: Node not registered with cluster

`
	class := `$ kubectl get nodeclass gpu-batch -o jsonpath='{.spec.role}{"\n"}{.status.conditions[?(@.type=="Ready")].status}{"\n"}'
ledger-auto-gpu-batch-node
True

`
	entries := `$ aws eks describe-access-entry --cluster-name ledger-auto --principal-arn arn:aws:iam::111122223333:role/ledger-auto-gpu-batch-node
{"accessEntry": {"clusterName": "ledger-auto", "principalArn": "arn:aws:iam::111122223333:role/ledger-auto-gpu-batch-node", "kubernetesGroups": [], "username": "system:node:{{EC2PrivateDNSName}}", "type": "EC2_LINUX"}}

$ aws eks describe-access-entry --cluster-name ledger-auto --principal-arn arn:aws:iam::111122223333:role/AmazonEKSAutoNodeRole --query 'accessEntry.[type,username]' --output text
EC2	system:node:{{SessionName}}
`
	ev := Read([]byte(claim+class+entries), "stdin", Options{}).Evidence
	if !ev.Have(evidence.KindNodeRole) || ev.NodeRole.Arn != "arn:aws:iam::111122223333:role/ledger-auto-gpu-batch-node" {
		t.Fatalf("node role %+v (gap %q)", ev.NodeRole, ev.GapFor(evidence.KindNodeRole).Reason)
	}
	if src := ev.Source(evidence.KindNodeRole); !strings.Contains(src, "NodeClass gpu-batch") || !strings.Contains(src, "gpu-batch-7tq4m") {
		t.Errorf("source %q does not say the NodeClaim's class ties the role", src)
	}
	if ev := Read([]byte(claim+entries), "stdin", Options{}).Evidence; ev.Have(evidence.KindNodeRole) {
		t.Errorf("without the NodeClass, node role %+v chosen from two", ev.NodeRole)
	}
}

// FuzzJSONPathText: no template or output makes the jsonpath reader panic or hang.
func FuzzJSONPathText(f *testing.F) {
	f.Add(`{range .items[*]}{.metadata.name}{"\t"}{.status.nodeInfo.kubeletVersion}{"\n"}{end}`, "a\tv1.31.7\nb\tv1.33.1")
	f.Add(`{.spec.role}{"\n"}{.status.conditions[?(@.type=="Ready")].status}{"\n"}`, "r\nTrue")
	f.Add(`{'}`, "x")
	f.Add(`{"}`, "x")
	f.Add(`{range .items[*]}{end}`, "")
	f.Add(`{.a[0].b}{.c['d.e']}x{.f\.g}`, "1x2")
	f.Fuzz(func(t *testing.T, template, output string) {
		if strings.ContainsAny(template, "'") {
			template = strings.ReplaceAll(template, "'", `"`)
		}
		var lines []line
		for i, l := range strings.Split(output, "\n") {
			lines = append(lines, line{n: i + 1, text: l})
		}
		jsonpathText(lines, "kubectl get nodes -o jsonpath='"+template+"'")
		jsonpathText(lines, "kubectl get nodeclass x -o jsonpath='"+template+"'")
	})
}
