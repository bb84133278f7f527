package checks

import (
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const tClusterRole = "arn:aws:iam::111122223333:role/prod-cluster-role"

// withClusterRole gives the evidence a healthy cluster role: eks.amazonaws.com may assume it
// and it holds AmazonEKSClusterPolicy and AmazonEKSVPCResourceController.
func withClusterRole(ev *evidence.Evidence) {
	ev.Cluster.RoleArn = tClusterRole
	ev.ClusterRole = &evidence.ClusterRole{Role: evidence.Role{Name: "prod-cluster-role", Arn: tClusterRole, Path: "/",
		TrustPolicy: &evidence.PolicyDocument{Statement: []evidence.PolicyStatement{{Effect: "Allow", Action: []string{"sts:AssumeRole", "sts:TagSession"},
			Principal: map[string][]string{"Service": {"eks.amazonaws.com"}}}}}}}
	ev.ClusterRolePolicies = []evidence.AttachedPolicy{{Name: policyCluster, Arn: "arn:aws:iam::aws:policy/" + policyCluster},
		{Name: policyVPCResCtrl, Arn: "arn:aws:iam::aws:policy/" + policyVPCResCtrl}}
	ev.Mark(evidence.KindClusterRole, "test:cluster-role")
	ev.Mark(evidence.KindClusterRolePolicies, "test:cluster-role-policies")
}

// withDisk gives the AMI a root device of amiGiB and the launch template an override of ltGiB (0: none).
func withDisk(dev string, amiGiB, ltGiB int) func(*evidence.Evidence) {
	return func(ev *evidence.Evidence) {
		ev.Image.RootDeviceName = dev
		ev.Image.BlockDevices = []evidence.BlockDevice{{DeviceName: dev, SizeGiB: amiGiB, SnapshotID: "snap-1"}}
		if ltGiB > 0 {
			ev.LaunchTemplate.BlockDevices = []evidence.BlockDevice{{DeviceName: dev, SizeGiB: ltGiB}}
		}
	}
}

func then(fs ...func(*evidence.Evidence)) func(*evidence.Evidence) {
	return func(ev *evidence.Evidence) {
		for _, f := range fs {
			f(ev)
		}
	}
}

// catalogCases cover iam.cluster-role, iam.sts-regional-disabled and instance.root-volume-small.
func catalogCases() []checkCase {
	return []checkCase{
		{"iam.cluster-role", "healthy", withClusterRole, StatusPass, "may assume cluster role prod-cluster-role"},
		{"iam.cluster-role", "not collected", nil, StatusSkipped, ""},
		{"iam.cluster-role", "deleted", then(withClusterRole, func(ev *evidence.Evidence) {
			ev.ClusterRole = &evidence.ClusterRole{Role: evidence.Role{Name: "prod-cluster-role", Arn: tClusterRole}, Missing: true}
		}), StatusFail, "does not exist"},
		{"iam.cluster-role", "trust ec2 only", then(withClusterRole, func(ev *evidence.Evidence) {
			ev.ClusterRole.TrustPolicy.Statement[0].Principal = map[string][]string{"Service": {"ec2.amazonaws.com"}}
		}), StatusFail, "does not let eks.amazonaws.com assume it"},
		{"iam.cluster-role", "trust denied", then(withClusterRole, func(ev *evidence.Evidence) {
			ev.ClusterRole.TrustPolicy.Statement = append(ev.ClusterRole.TrustPolicy.Statement, evidence.PolicyStatement{Effect: "Deny", Action: []string{"sts:AssumeRole"},
				Principal: map[string][]string{"Service": {"eks.amazonaws.com"}}})
		}), StatusFail, "denies sts:AssumeRole"},
		{"iam.cluster-role", "no cluster policy", then(withClusterRole, func(ev *evidence.Evidence) { ev.ClusterRolePolicies = ev.ClusterRolePolicies[1:] }),
			StatusFail, "lacks AmazonEKSClusterPolicy"},
		{"iam.cluster-role", "customer policy instead", then(withClusterRole, func(ev *evidence.Evidence) {
			ev.ClusterRolePolicies = []evidence.AttachedPolicy{{Name: "eks-cluster", Arn: "arn:aws:iam::111122223333:policy/eks-cluster"}}
		}), StatusWarn, "customer-managed policies"},
		{"iam.cluster-role", "windows without vpc resource controller", then(withClusterRole, makeWindows, func(ev *evidence.Evidence) {
			ev.ClusterRolePolicies = ev.ClusterRolePolicies[:1]
		}), StatusFail, "lacks AmazonEKSVPCResourceController, which Windows instance i-1 needs"},
		{"iam.cluster-role", "linux without vpc resource controller", then(withClusterRole, func(ev *evidence.Evidence) {
			ev.ClusterRolePolicies = ev.ClusterRolePolicies[:1]
		}), StatusPass, ""},
		{"iam.sts-regional-disabled", "cluster issue", func(ev *evidence.Evidence) {
			ev.Cluster.HealthIssues = []evidence.HealthIssue{{Code: "StsRegionalEndpointDisabled", Message: "STS regional endpoint is disabled in eu-west-1"}}
		}, StatusFail, "reports StsRegionalEndpointDisabled"},
		{"iam.sts-regional-disabled", "cluster healthy, no logs", nil, StatusSkipped, "no StsRegionalEndpointDisabled"},
		{"iam.sts-regional-disabled", "node log RegionDisabledException", withLogs(`2026-07-24T15:29:40+0000 [eks-bootstrap] INFO: An error occurred (RegionDisabledException) when calling the AssumeRole operation: STS is not activated in this region for account:111122223333. Your account administrator can activate STS in this region using the IAM Console.`),
			StatusFail, "not activated"},
		{"iam.sts-regional-disabled", "sts unreachable is not this check", then(withLogs(`operation error STS: GetCallerIdentity, exceeded maximum number of attempts, 3, https response error StatusCode: 0, RequestID: , request send failed, Post "https://sts.eu-west-1.amazonaws.com/": dial tcp 52.94.1.1:443: i/o timeout`),
			func(ev *evidence.Evidence) { ev.AddGapForce(evidence.KindCluster, "not in input") }), StatusPass, "none matches"},
		{"instance.root-volume-small", "eks ami 20 GiB", withDisk("/dev/xvda", 20, 0), StatusPass, "root volume /dev/xvda is 20 GiB"},
		{"instance.root-volume-small", "custom ami 8 GiB", withDisk("/dev/xvda", 8, 0), StatusFail, "is 8 GiB (AMI ami-1 maps /dev/xvda to 8 GiB), below the 20 GiB"},
		{"instance.root-volume-small", "launch template raises it", withDisk("/dev/xvda", 8, 50), StatusPass, "launch template lt-1 version 3 sets /dev/xvda to 50 GiB"},
		{"instance.root-volume-small", "no mappings", nil, StatusSkipped, "no block device mappings"},
		// without the launch's own settings the AMI's mapping is only the default: RunInstances
		// (Terraform's root_block_device, run-instances --block-device-mappings) may raise it
		{"instance.root-volume-small", "no launch template: the launch's size is unknown", then(withDisk("/dev/sda1", 8, 0), func(ev *evidence.Evidence) {
			ev.AddGapForce(evidence.KindLaunchTemplate, "the instance was not launched from a launch template")
		}), StatusWarn, "the AMI's 8 GiB is only the default: the instance was not launched from a launch template"},
		{"instance.root-volume-small", "launch template not read", then(withDisk("/dev/xvda", 8, 0), func(ev *evidence.Evidence) {
			ev.AddGapForce(evidence.KindLaunchTemplate, "not in snapshot (ec2/describe-launch-template-versions/lt-1.json)")
		}), StatusWarn, "the AMI's 8 GiB is only the default: not in snapshot"},
		{"instance.root-volume-small", "no launch template, and the node says it is full", then(withDisk("/dev/xvda", 8, 0), withLogs(strings.Repeat(runtimeSamples["runtime.disk-pressure"]+"\n", 3)), func(ev *evidence.Evidence) {
			ev.AddGapForce(evidence.KindLaunchTemplate, "the instance was not launched from a launch template")
		}), StatusFail, "the node's logs show it"},
		{"instance.root-volume-small", "small and the node says so", then(withDisk("/dev/xvda", 8, 0), withLogs(strings.Repeat(runtimeSamples["runtime.disk-pressure"]+"\n", 3))),
			StatusFail, "the node's logs show it"},
		{"instance.root-volume-small", "large but full", then(withDisk("/dev/xvda", 30, 0), withLogs(strings.Repeat(runtimeSamples["runtime.disk-pressure"]+"\n", 3))),
			StatusWarn, "yet it ran out of space"},
		{"instance.root-volume-small", "bottlerocket data volume", func(ev *evidence.Evidence) {
			ev.Nodegroups[0].AmiType = "BOTTLEROCKET_x86_64"
			ev.Image.RootDeviceName = "/dev/xvda"
			ev.Image.BlockDevices = []evidence.BlockDevice{{DeviceName: "/dev/xvda", SizeGiB: 2}, {DeviceName: "/dev/xvdb", SizeGiB: 20}}
		}, StatusPass, "data volume /dev/xvdb is 20 GiB"},
		{"nodegroup.health-issues", "degraded without issues", func(ev *evidence.Evidence) { ev.Nodegroups[0].Status = "DEGRADED" }, StatusFail, "is DEGRADED (no health issue listed)"},
		{"iam.cluster-role", "policies unreadable", then(withClusterRole, func(ev *evidence.Evidence) {
			ev.AddGapForce(evidence.KindClusterRolePolicies, "AccessDenied")
		}), StatusSkipped, "could not be read"},
	}
}
