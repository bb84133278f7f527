package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestVersionSkewFixNamesTheFamilysAMI (red team 6 F10): the fix of a skewed node names the
// SSM parameter of its own AMI family for the cluster's version — Bottlerocket's for a
// Bottlerocket node group or bundle, not Amazon Linux 2023's.
func TestVersionSkewFixNamesTheFamilysAMI(t *testing.T) {
	c, ok := Default().Get("cluster.version-skew")
	if !ok {
		t.Fatal("no check cluster.version-skew")
	}
	for _, tc := range []struct {
		name     string
		mutate   func(ev *evidence.Evidence)
		fix, not string
	}{
		{"bottlerocket node group", func(ev *evidence.Evidence) { ev.Nodegroups[0].AmiType = "BOTTLEROCKET_x86_64" },
			"/aws/service/bottlerocket/aws-k8s-1.31/x86_64/latest/image_id", "amazon-linux-2023"},
		{"al2023 node group", nil, "/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/x86_64/standard/recommended/image_id", "bottlerocket"},
		{"windows node group", func(ev *evidence.Evidence) { ev.Nodegroups[0].AmiType = "WINDOWS_CORE_2022_x86_64" },
			"Windows_Server-2022-English-Core-EKS_Optimized-1.31", "amazon-linux-2023"},
		{"bottlerocket bundle, no node group", func(ev *evidence.Evidence) {
			ev.Nodegroups, ev.Image = nil, nil
			ev.NodeOS = &evidence.NodeOS{Family: "bottlerocket", Variant: "aws-k8s-1.32"}
		}, "/aws/service/bottlerocket/aws-k8s-1.31/", "amazon-linux-2023"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := healthyEvidence()
			ev.Nodes[0].KubeletVersion = "v1.32.1-eks-1"
			if tc.mutate != nil {
				tc.mutate(ev)
			}
			fs := Run([]Check{c}, ev)
			if len(fs) != 1 || fs[0].Status != StatusFail {
				t.Fatalf("got %+v", fs)
			}
			if !strings.Contains(fs[0].Remediation, tc.fix) || strings.Contains(fs[0].Remediation, tc.not) {
				t.Errorf("remediation %q: want %q, not %q", fs[0].Remediation, tc.fix, tc.not)
			}
		})
	}
}
