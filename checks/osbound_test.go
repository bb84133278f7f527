package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestNodeConfigIgnoredByCloudInit: cloud-init's "Unhandled unknown content-type
// (application/node.eks.aws)" is harmless on AL2023 (nodeadm reads the NodeConfig itself) but
// says the NodeConfig was ignored on an OS without nodeadm (AL2, Ubuntu): there nothing
// bootstraps the node. An unknown OS judges nothing.
func TestNodeConfigIgnoredByCloudInit(t *testing.T) {
	const line = "2026-07-24 15:29:30,001 - __init__.py[WARNING]: Unhandled unknown content-type (application/node.eks.aws) userdata: 'b'---'...'"
	c, _ := Default().Get("bootstrap.wrong-format-for-ami")
	for _, tc := range []struct {
		os   string
		want Status
	}{{"ubuntu", StatusFail}, {"al2", StatusFail}, {"al2023", StatusSkipped}, {"", StatusSkipped}} {
		ev := healthyEvidence()
		withLogs(line + "\n")(ev)
		ev.NodeLogs.OS = tc.os
		ev.AddGapForce(evidence.KindInstance, "not in a node log bundle")
		ev.AddGapForce(evidence.KindBootstrap, "the bundle does not show how the node was bootstrapped")
		fs := Run([]Check{c}, ev)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("OS %q: %+v, want %s", tc.os, fs, tc.want)
		}
	}
}

// TestVersionSkewFromIPAMD: without the cluster's own record, aws-node's IPAMD line "Cluster
// Version is: v1.33" on the node says which control plane its kubelet talks to: a 1.29 kubelet is
// four minors older, outside the skew policy; a 1.31 one is within it.
func TestVersionSkewFromIPAMD(t *testing.T) {
	const ipamd = `{"level":"info","ts":"2026-01-27T16:09:09.086Z","caller":"k8sapi/k8sutils.go:185","msg":"Successful communication with the Cluster! Cluster Version is: v1.33. git version: v1.33.5-eks-3025e55. git tree state: clean. commit: b1e0d5c. platform: linux/amd64"}`
	c, _ := Default().Get("cluster.version-skew")
	for kubelet, want := range map[string]Status{"v1.29.15": StatusFail, "v1.31.2": StatusPass} {
		ev := healthyEvidence()
		withLogs(ipamd + "\n")(ev)
		ev.AddGapForce(evidence.KindCluster, "not in a node log bundle")
		ev.NodeOS = &evidence.NodeOS{Family: "al2023", KubeletVersion: kubelet}
		ev.Mark(evidence.KindNodeOS, "bundle:test")
		fs := Run([]Check{c}, ev)
		if len(fs) != 1 || fs[0].Status != want || want == StatusFail && !strings.Contains(fs[0].Message, "1.33") {
			t.Errorf("kubelet %s: %+v, want %s", kubelet, fs, want)
		}
	}
}
