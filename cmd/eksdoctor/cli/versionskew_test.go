package cli

import (
	"strings"
	"testing"
)

// TestVersionSkewFromKubeletStartLine (red team 6 F7): a ticket with the control plane's version
// (`kubectl version`) and the kubelet's own start-up line judges the skew; kubelets of two minor
// versions in one input (two nodes, an upgrade) leave it unjudged.
func TestVersionSkewFromKubeletStartLine(t *testing.T) {
	kubectl := "$ kubectl version\nClient Version: v1.29.3\nKustomize Version: v5.0.4-0.20230601165947-6ce0bf390ce3\nServer Version: v1.29.10-eks-7f9249a\n"
	line := func(v string) string {
		return `Nov 24 09:12:03 ip-10-0-12-34 kubelet[2841]: I1124 09:12:03.118342    2841 server.go:486] "Kubelet version" kubeletVersion="` + v + `"` + "\n"
	}
	paste := "New nodes never show up.\n\n```\n" + kubectl + "```\n\n```\n" + line("v1.31.7-eks-5e0fdde") + "```\n"
	code, out, errOut := runStdin(strings.NewReader(paste), "analyze", "-", "-o", "json")
	r := verdictOf(t, out)
	if code != ExitFindings || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "cluster.version-skew" ||
		!strings.Contains(out, "kubelet 1.31 is newer than the control plane 1.29") || !strings.Contains(out, `the kubelet's start-up line`) {
		t.Errorf("skewed kubelet: exit %d %s\n%s", code, errOut, out)
	}
	paste = "New nodes never show up.\n\n```\n" + kubectl + "```\n\n```\n" + line("v1.29.8-eks-a737599") + "```\n"
	if code, out, _ = runStdin(strings.NewReader(paste), "analyze", "-", "-o", "json"); strings.Contains(out, `"id": "cluster.version-skew",
      "status": "fail"`) || !strings.Contains(out, "kubelet 1.29") {
		t.Errorf("kubelet of the control plane's version: exit %d\n%s", code, out)
	}
	paste = "Two nodes:\n\n```\n" + kubectl + "```\n\n```\n" + line("v1.31.7-eks-5e0fdde") + line("v1.28.15-eks-a737599") + "```\n"
	if code, out, _ = runStdin(strings.NewReader(paste), "analyze", "-", "-o", "json"); strings.Contains(out, `"id": "cluster.version-skew",
      "status": "fail"`) {
		t.Errorf("two kubelets: exit %d\n%s", code, out)
	}
}
