package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// "Exec format error" (ENOEXEC) from systemd or the kubelet means the binary is not one this
// CPU can run: on EKS nodes, an AMI of the other architecture than the instance type (an
// x86_64 AMI on Graviton) — red team 11a #9 got the kubelet-flags fix instead.
func TestExecFormatErrorGetsTheArchitectureFix(t *testing.T) {
	const h = "ip-10-0-1-15.eu-west-1.compute.internal"
	kubelet := "Nov 24 10:02:01 " + h + " (kubelet)[2201]: kubelet.service: Failed at step EXEC spawning /usr/bin/kubelet: Exec format error\n" +
		"Nov 24 10:02:01 " + h + " systemd[1]: kubelet.service: Main process exited, code=exited, status=203/EXEC\n"
	credprov := "Nov 24 10:02:01 " + h + ` kubelet[2841]: E1124 10:02:01.118732    2841 plugin.go:440] Failed getting credential from external registry credential provider: error execing credential provider plugin ecr-credential-provider for image 602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/pause:3.10: fork/exec /etc/eks/image-credential-provider/ecr-credential-provider: exec format error` + "\n"
	for _, tc := range []struct {
		name, logs, id, itype string
		want                  []string
	}{
		{"graviton kubelet", kubelet, "runtime.kubelet-crashloop", "m7g.large", []string{"m7g.large", "arm64", "x86_64", "/usr/bin/kubelet", "arm64/standard/recommended/image_id"}},
		{"x86 kubelet", kubelet, "runtime.kubelet-crashloop", "m5.large", []string{"m5.large", "x86_64", "arm64", "/usr/bin/kubelet", "x86_64/standard/recommended/image_id"}},
		{"unknown type", kubelet, "runtime.kubelet-crashloop", "", []string{"arm64", "x86_64", "aws ec2 describe-instance-types"}},
		{"credential provider", credprov, "runtime.credential-provider", "c7gn.xlarge", []string{"c7gn.xlarge", "arm64", "ecr-credential-provider"}},
	} {
		ev := healthyEvidence()
		ev.Nodes, ev.NodesPartial = nil, false
		ev.AddGapForce(evidence.KindNodes, "test")
		ev.Instance.InstanceType = tc.itype
		withLogs(tc.logs)(ev)
		f := findingOf(t, ev, tc.id)
		if f.Status != StatusFail {
			t.Errorf("%s: %s %q", tc.name, f.Status, f.Message)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(f.Remediation, w) {
				t.Errorf("%s: remediation lacks %q:\n%s", tc.name, w, f.Remediation)
			}
		}
		if strings.Contains(f.Remediation, "cgroupDriver") {
			t.Errorf("%s: remediation still the kubelet-flags one:\n%s", tc.name, f.Remediation)
		}
	}
	// any other kubelet failure keeps the check's own fix
	ev := healthyEvidence()
	ev.Nodes, ev.NodesPartial = nil, false
	ev.AddGapForce(evidence.KindNodes, "test")
	withLogs(runtimeSamples["runtime.kubelet-crashloop"] + "\n")(ev)
	if f := findingOf(t, ev, "runtime.kubelet-crashloop"); f.Status != StatusFail || strings.Contains(f.Remediation, "arm64") || !strings.Contains(f.Remediation, "cgroupDriver") {
		t.Errorf("cgroup crashloop: %s %q", f.Status, f.Remediation)
	}
}

// The "g" attribute after the generation marks AWS Graviton (arm64) instance types.
func TestInstanceTypeArchitecture(t *testing.T) {
	for typ, want := range map[string]string{
		"m7g.large": "arm64", "c7gn.xlarge": "arm64", "x2gd.large": "arm64", "is4gen.large": "arm64", "g5g.xlarge": "arm64",
		"a1.medium": "arm64", "t4g.micro": "arm64", "m5.large": "x86_64", "g4dn.xlarge": "x86_64", "c7i-flex.large": "x86_64",
		"inf2.xlarge": "x86_64", "mac2.metal": "", "": "", "bogus": "",
	} {
		if got := instanceTypeArch(typ); got != want {
			t.Errorf("%s: %q, want %q", typ, got, want)
		}
	}
}
