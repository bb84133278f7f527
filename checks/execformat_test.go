package checks

import (
	"strings"
	"testing"
	"time"

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

// EC2's architecture mismatch (RunInstances' InvalidParameterValue, Auto Scaling's "does not
// match the architecture in the manifest") is fixed by an AMI of the instance type's
// architecture or by splitting a mixed-instances group by architecture — red team 11a #15 got
// the capacity / instance-profile text.
func TestArchitectureMismatchLaunchGetsItsFix(t *testing.T) {
	for _, tc := range []struct{ msg, typeArch, amiArch string }{
		{"The architecture 'arm64' of the specified instance type does not match the architecture 'x86_64' of the specified AMI. Specify an instance type and an AMI that have matching architectures, and try again. Launching EC2 instance failed.", "arm64", "x86_64"},
		{"The requested instance type's architecture (x86_64) does not match the architecture in the manifest for ami-0a1b2c3d4e5f60718 (arm64). Launching ec2 instance failed.", "x86_64", "arm64"},
	} {
		ev := healthyEvidence()
		ev.Instance.Tags = map[string]string{"aws:autoscaling:groupName": "ng-mixed"}
		ev.ScalingActivities = []evidence.ScalingActivity{{AutoScalingGroup: "ng-mixed", StatusCode: "Failed", StatusMessage: tc.msg,
			Description: "Launching a new EC2 instance.  Status Reason: …", StartTime: tNow.Add(-10 * time.Minute)}}
		ev.Mark(evidence.KindScalingActivities, "test")
		f := findingOf(t, ev, "nodegroup.asg-launch-failures")
		if f.Status != StatusFail {
			t.Fatalf("%s %q", f.Status, f.Message)
		}
		for _, w := range []string{"instance type is " + tc.typeArch, "AMI is " + tc.amiArch, "/amazon-linux-2023/" + tc.typeArch + "/", "overrides"} {
			if !strings.Contains(f.Remediation, w) {
				t.Errorf("%s: remediation lacks %q:\n%s", tc.typeArch, w, f.Remediation)
			}
		}
		if strings.Contains(f.Remediation, "capacity errors") {
			t.Errorf("generic fix kept:\n%s", f.Remediation)
		}
	}
	// pasted as a log line: nodegroup.launch-errors
	ev := healthyEvidence()
	withLogs("An error occurred (InvalidParameterValue) when calling the RunInstances operation: The architecture 'arm64' of the specified instance type does not match the architecture 'x86_64' of the specified AMI. Specify an instance type and an AMI that have matching architectures, and try again.\n")(ev)
	if f := findingOf(t, ev, "nodegroup.launch-errors"); f.Status != StatusFail || !strings.Contains(f.Remediation, "instance type is arm64") {
		t.Errorf("log line: %s %q\n%s", f.Status, f.Message, f.Remediation)
	}
}

// The same refusal read from CloudTrail's RunInstances error.
func TestArchitectureMismatchFromCloudTrail(t *testing.T) {
	ev := &evidence.Evidence{Target: evidence.Target{Cluster: "prod"}, CollectedAt: at("2026-11-20T10:00:00Z")}
	evidence.Put(ev, evidence.KindLaunchEvents, evidence.LaunchEvents{Events: []evidence.TrailEvent{{Name: "RunInstances", Time: at("2026-11-20T09:30:00Z"),
		ErrorCode: "InvalidParameterValue", ErrorMessage: "The architecture 'arm64' of the specified instance type does not match the architecture 'x86_64' of the specified AMI. Specify an instance type and an AMI that have matching architectures, and try again."}}})
	ev.Mark(evidence.KindLaunchEvents, "snapshot:cloudtrail/lookup-events/RunInstances.json")
	f := findingOf(t, ev, "nodegroup.launch-errors")
	if f.Status != StatusFail || !strings.Contains(f.Remediation, "instance type is arm64 and the AMI is x86_64") {
		t.Errorf("%s %q\n%s", f.Status, f.Message, f.Remediation)
	}
}
