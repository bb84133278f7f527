package checks

import (
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// docHybridCNI is the EKS guide to the CNIs hybrid nodes run (Cilium, Calico).
const docHybridCNI = "https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-cni.html"

// hybridCNIFix is runtime.cni-not-ready's remediation on an EKS hybrid node: the VPC CNI does not
// run there (amazon-vpc-cni-k8s charts/aws-vpc-cni/values.yaml: aws-node's node affinity has
// eks.amazonaws.com/compute-type NotIn fargate, hybrid, auto), so the node waits for a CNI that
// supports hybrid nodes (docHybridCNI).
const hybridCNIFix = "Hybrid nodes do not run the VPC CNI (aws-node keeps off nodes labelled eks.amazonaws.com/compute-type=hybrid): install a CNI that supports hybrid nodes, Cilium or Calico, with its pod IP pool set to the cluster's remote pod network CIDRs (aws eks describe-cluster --name CLUSTER --query cluster.remoteNetworkConfig), e.g. helm install cilium cilium/cilium -n kube-system with an affinity to eks.amazonaws.com/compute-type=hybrid; then check its pods on the node: kubectl -n kube-system get pods -o wide --field-selector spec.nodeName=NODE."

// hybridCNIFindings rewrites runtime.cni-not-ready's failures for an EKS hybrid node (the
// Provisioner says so): the fix installs Cilium or Calico, and a log signature's words that
// blame aws-node, which never runs there, name the missing CNI instead. Other nodes' findings
// are returned as they are.
func hybridCNIFindings(ev *evidence.Evidence, fs []Finding) []Finding {
	if ev.Provisioner.Kind != evidence.ProvisionerHybrid {
		return fs
	}
	for i := range fs {
		if fs[i].Status != StatusFail {
			continue
		}
		m := strings.ReplaceAll(fs[i].Message, "the VPC CNI configuration", "its configuration")
		fs[i].Message = strings.ReplaceAll(m, "aws-node has not", "no CNI that supports hybrid nodes (Cilium, Calico) has")
		fs[i].Remediation = hybridCNIFix
		fs[i].Docs = []string{docHybridCNI}
	}
	return fs
}
