package checks

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// karpenterNode turns the healthy node into one Karpenter launched from NodePool default and
// EC2NodeClass default, with its NodeClaim registered.
func karpenterNode(ev *evidence.Evidence) {
	delete(ev.Instance.Tags, "eks:nodegroup-name")
	delete(ev.Instance.Tags, "aws:autoscaling:groupName")
	ev.Instance.Tags["karpenter.sh/nodepool"] = "default"
	ev.Nodegroups = nil
	ready := func(t string) evidence.Condition {
		return evidence.Condition{Type: t, Status: "True", Reason: t, LastTransition: tNow.Add(-25 * time.Minute)}
	}
	ev.NodeClaims = []evidence.NodeClaim{{Name: "default-x7k2p", NodePool: "default", Created: tNow.Add(-30 * time.Minute),
		NodeClassRef: evidence.NodeClassRef{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"},
		ProviderID:   "aws:///eu-west-1a/i-1", NodeName: tNode,
		Conditions: []evidence.Condition{ready("Launched"), ready("Registered"), ready("Initialized"), ready("Ready")}}}
	ev.NodePools = []evidence.NodePool{{Name: "default", NodeClassRef: ev.NodeClaims[0].NodeClassRef, Conditions: []evidence.Condition{ready("Ready")}}}
	ev.NodeClasses = []evidence.NodeClass{{Name: "default", AMIAliases: []string{"al2023@latest"}, Role: "node",
		SubnetTerms: []evidence.SelectorTerm{{Tags: map[string]string{"karpenter.sh/discovery": "prod"}}}, StatusSubnets: []string{"subnet-a"},
		StatusInstanceProfile: "prod_123", Conditions: []evidence.Condition{ready("SubnetsReady"), ready("SecurityGroupsReady"), ready("AMIsReady"),
			ready("InstanceProfileReady"), ready("ValidationSucceeded"), ready("Ready")}}}
	for _, k := range []evidence.Kind{evidence.KindNodeClaims, evidence.KindNodePools, evidence.KindEC2NodeClasses, evidence.KindNodeClasses} {
		ev.Mark(k, "test:"+string(k))
	}
	ev.AddGapForce(evidence.KindNodegroups, "test")
	c := ev.NodeClaims[0]
	ev.NodeClaim = &c
	ev.Provisioner = evidence.DetectProvisioner(ev)
}

// neverRegistered makes the Karpenter node's NodeClaim one whose node never registered (no Node).
func neverRegistered(ev *evidence.Evidence) {
	karpenterNode(ev)
	ev.NodeClaim.NodeName = ""
	ev.NodeClaim.Conditions = []evidence.Condition{{Type: "Launched", Status: "True"},
		{Type: "Registered", Status: "Unknown", Reason: "NodeNotFound", Message: "Node not registered with cluster", LastTransition: tNow.Add(-12 * time.Minute)}}
	ev.NodeClaims[0] = *ev.NodeClaim
	ev.Nodes = nil
}

func karpenterCases() []checkCase {
	notReadyClass := func(ev *evidence.Evidence) {
		karpenterNode(ev)
		ev.NodeClasses[0].Conditions = []evidence.Condition{{Type: "SubnetsReady", Status: "False", Reason: "SubnetsNotFound", Message: "SubnetSelector did not match any Subnets"},
			{Type: "Ready", Status: "False", Reason: "UnhealthyDependents", Message: "SubnetsReady=False"}}
	}
	autoMode := func(ev *evidence.Evidence) {
		karpenterNode(ev)
		ev.Cluster.ComputeConfig = &evidence.ComputeConfig{Enabled: true, NodePools: []string{"general-purpose"}, NodeRoleArn: tRole}
		ev.Instance.Tags["eks:eks-cluster-name"] = "prod"
		ev.NodeClasses[0].AutoMode = true
		ev.NodeClaims[0].NodeClassRef = evidence.NodeClassRef{Group: "eks.amazonaws.com", Kind: "NodeClass", Name: "default"}
		ev.NodeClaim.NodeClassRef = ev.NodeClaims[0].NodeClassRef
		ev.AccessEntries[0].Type = "EC2"
		ev.Provisioner = evidence.DetectProvisioner(ev)
	}
	userData := func(family, ud string) func(ev *evidence.Evidence) {
		return func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.NodeClasses[0].AMIAliases = []string{family}
			ev.NodeClasses[0].UserData, ev.NodeClasses[0].HasUserData = ud, true
		}
	}
	const al2Script = "#!/bin/bash\n/etc/eks/bootstrap.sh prod\n"
	const mimeNodeConfig = "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: application/node.eks.aws\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 42\n--B--\n"
	// tableOnly makes the node class one known only from kubectl get's table: name and READY.
	tableOnly := func(ready string) func(ev *evidence.Evidence) {
		return func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.NodeClasses[0] = evidence.NodeClass{Name: "default", StatusOnly: true, Conditions: []evidence.Condition{{Type: "Ready", Status: ready}}}
		}
	}
	template := func(ev *evidence.Evidence) {
		karpenterNode(ev)
		ev.NodeClasses[0] = evidence.NodeClass{Name: "default", Template: true, AMIFamily: "Bottlerocket", HasUserData: true,
			UserData: "[settings] [settings.kubernetes] api-server = 'https://x' cluster-name = 'prod'\n"}
	}
	// described is a node class read from kubectl describe cut before its status conditions:
	// spec.instanceProfile known, readiness not
	described := func(profile string) func(ev *evidence.Evidence) {
		return func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.NodeClasses[0] = evidence.NodeClass{Name: "default", StatusOnly: true, InstanceProfile: profile}
		}
	}
	arnProfile := func(ev *evidence.Evidence) {
		karpenterNode(ev)
		ev.NodeClasses[0].Role, ev.NodeClasses[0].InstanceProfile = "", "arn:aws:iam::111122223333:instance-profile/KarpenterNodeInstanceProfile"
	}
	// v1beta1 is a class as Karpenter before v0.37 shows it (or a status cut short): no conditions
	v1beta1 := func(ev *evidence.Evidence) {
		karpenterNode(ev)
		ev.NodeClasses[0].Conditions, ev.NodeClasses[0].StatusInstanceProfile = nil, ""
	}
	return []checkCase{
		{"karpenter.nodeclass-not-ready", "v1beta1 class without conditions", v1beta1, StatusSkipped, "without status conditions"},
		{"karpenter.instance-profile", "v1beta1 class without conditions or status.instanceProfile", v1beta1, StatusSkipped, "is not shown"},
		{"karpenter.instance-profile", "spec.instanceProfile is an ARN (manifest)", arnProfile, StatusFail, "set the name (KarpenterNodeInstanceProfile)"},
		{"karpenter.instance-profile", "spec.instanceProfile is an ARN (describe cut before status)", described("arn:aws:iam::111122223333:instance-profile/p"), StatusFail, "spec.instanceProfile is an ARN"},
		{"karpenter.instance-profile", "spec.instanceProfile a name (describe cut before status)", described("p"), StatusSkipped, "known only from kubectl's printed output"},
		{"karpenter.nodeclass-not-ready", "describe cut before the conditions", described("p"), StatusSkipped, "without status conditions"},
		{"karpenter.instance-profile", "AWSNodeTemplate without instanceProfile", template, StatusSkipped, "aws.defaultInstanceProfile"},
		{"karpenter.userdata-format", "Bottlerocket TOML that does not parse", template, StatusFail, "TOML that Karpenter cannot merge"},
		{"karpenter.nodeclass-not-ready", "kubectl get table READY False", tableOnly("False"), StatusFail, "EC2NodeClass default is not Ready (Ready=False)"},
		{"karpenter.nodeclass-not-ready", "kubectl get table READY True", tableOnly("True"), StatusPass, "EC2NodeClass default is Ready"},
		{"karpenter.instance-profile", "kubectl get table only", tableOnly("False"), StatusSkipped, "known only from kubectl's printed output"},
		{"karpenter.userdata-format", "kubectl get table only", tableOnly("False"), StatusSkipped, "known only from kubectl's printed output"},
		{"karpenter.nodeclaim-not-launched", "insufficient capacity", func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.NodeClaims[0].ProviderID = ""
			ev.NodeClaims[0].Conditions = []evidence.Condition{{Type: "Launched", Status: "False", Reason: "InsufficientCapacityError", Message: "all requested instance types were unavailable during launch"}}
			ev.NodeClaim = nil
			clusterScope(ev)
			ev.Provisioner = evidence.Provisioner{}
		}, StatusFail, `reason InsufficientCapacityError: "all requested instance types were unavailable during launch"`},
		{"karpenter.nodeclaim-not-launched", "launched", karpenterNode, StatusPass, "launched aws:///eu-west-1a/i-1"},
		// an EC2NodeClass's spec.userData over EC2's 16 KB: Karpenter adds its own part to it, so
		// the launch template it creates is refused and no instance (no instance user data) exists
		{"bootstrap.userdata-too-large", "EC2NodeClass userData, never launched", func(ev *evidence.Evidence) {
			userData("al2023@latest", mimeNodeConfig+strings.Repeat("# corporate CA bundle line\n", 700))(ev)
			ev.NodeClaims[0].ProviderID = ""
			ev.NodeClaims[0].Conditions = []evidence.Condition{{Type: "Launched", Status: "False", Reason: "LaunchFailed", Message: "Error getting launch template configs: Instance launch failed"}}
			ev.NodeClaim = nil
			clusterScope(ev)
			ev.Bootstrap, ev.UserData = nil, nil
			ev.AddGapForce(evidence.KindBootstrap, "cluster-wide evaluation")
			ev.AddGapForce(evidence.KindUserData, "cluster-wide evaluation")
			ev.Provisioner = evidence.Provisioner{}
		}, StatusFail, "EC2NodeClass default's spec.userData is 19111 bytes, over EC2's 16384-byte user data limit"},
		{"bootstrap.userdata-too-large", "EC2NodeClass userData near the limit, never launched", func(ev *evidence.Evidence) {
			userData("al2023@latest", mimeNodeConfig+strings.Repeat("# corporate CA bundle line\n", 550))(ev)
			ev.NodeClaim = nil
			clusterScope(ev)
			ev.Bootstrap, ev.UserData = nil, nil
			ev.AddGapForce(evidence.KindBootstrap, "cluster-wide evaluation")
			ev.Provisioner = evidence.Provisioner{}
		}, StatusSkipped, "whether the bootstrap part Karpenter adds takes it over"},
		{"bootstrap.userdata-too-large", "EC2NodeClass userData small, never launched", func(ev *evidence.Evidence) {
			userData("al2023@latest", mimeNodeConfig)(ev)
			ev.NodeClaim = nil
			clusterScope(ev)
			ev.Bootstrap, ev.UserData = nil, nil
			ev.AddGapForce(evidence.KindBootstrap, "cluster-wide evaluation")
			ev.Provisioner = evidence.Provisioner{}
		}, StatusPass, "EC2NodeClass default's spec.userData is 211 bytes"},
		{"karpenter.nodeclaim-not-launched", "managed node group", func(ev *evidence.Evidence) {
			ev.Provisioner = evidence.DetectProvisioner(ev)
		}, StatusSkipped, "not applicable: the node was provisioned by managed-nodegroup"},
		{"karpenter.nodeclaim-not-registered", "NodeNotFound", neverRegistered, StatusFail, `Registered=Unknown reason NodeNotFound: "Node not registered with cluster"`},
		{"karpenter.nodeclaim-not-registered", "registered", karpenterNode, StatusPass, "registered as node " + tNode},
		{"karpenter.nodeclaim-not-registered", "instance without NodeClaim", func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.NodeClaim = nil
		}, StatusSkipped, "not applicable: no NodeClaim names this instance"},
		{"karpenter.nodeclass-not-ready", "subnets not found", notReadyClass, StatusFail, `SubnetsReady=False reason SubnetsNotFound: "SubnetSelector did not match any Subnets"`},
		{"karpenter.nodeclass-not-ready", "ready", karpenterNode, StatusPass, "EC2NodeClass default is Ready"},
		{"karpenter.nodeclass-not-ready", "auto mode node", autoMode, StatusSkipped, "not applicable"},
		{"automode.nodeclass-not-ready", "not ready", func(ev *evidence.Evidence) {
			autoMode(ev)
			ev.NodeClasses[0].Conditions = []evidence.Condition{{Type: "InstanceProfileReady", Status: "False", Reason: "InstanceProfileCreationFailed", Message: "role node-x not found"},
				{Type: "Ready", Status: "False"}}
		}, StatusFail, "NodeClass default is not Ready: InstanceProfileReady=False"},
		{"automode.nodeclass-not-ready", "ready", autoMode, StatusPass, "NodeClass default is Ready"},
		{"automode.nodeclass-not-ready", "karpenter node", karpenterNode, StatusSkipped, "not applicable: the node was provisioned by karpenter"},
		// red team 10a #10: Karpenter adds a non-NodeConfig userData as a shell part beside the
		// NodeConfig it generates (nodeadm.go parseUserData), which joins the node: the script's
		// bootstrap.sh call is lost, the join is not
		{"karpenter.userdata-format", "al2 script on al2023", userData("al2023@latest", al2Script), StatusWarn, "an AL2 bootstrap.sh script: Karpenter adds it as a shell script part beside the NodeConfig it generates, which joins the node; /etc/eks/bootstrap.sh on AL2023 is a stub that prints an error and exits 1"},
		{"karpenter.userdata-format", "toml on al2023", userData("al2023@latest", "[settings.kubernetes]\nmax-pods = 42\n"), StatusWarn, "Bottlerocket TOML settings: Karpenter adds it as a shell script part beside the NodeConfig it generates, which joins the node"},
		// AL2: Karpenter's own bootstrap.sh part follows the custom part (eksbootstrap.go mimeify)
		{"karpenter.userdata-format", "nodeconfig on al2", userData("al2@latest", mimeNodeConfig), StatusWarn, "an AL2023 NodeConfig: Karpenter adds it as a part beside the bootstrap.sh script it generates, which joins the node"},
		{"karpenter.userdata-format", "nodeconfig on bottlerocket", userData("bottlerocket@latest", mimeNodeConfig), StatusFail, "Bottlerocket expects TOML"},
		{"karpenter.userdata-format", "shell on bottlerocket", userData("bottlerocket@latest", "#!/bin/bash\necho hi\n"), StatusFail, "Bottlerocket expects TOML"},
		{"karpenter.userdata-format", "toml on bottlerocket", userData("bottlerocket@latest", "[settings.kubernetes]\nmax-pods = 42\n"), StatusPass, "fits AMI family Bottlerocket"},
		{"karpenter.userdata-format", "nodeconfig on al2023", userData("al2023@latest", mimeNodeConfig), StatusPass, "fits AMI family AL2023"},
		{"karpenter.userdata-format", "none", karpenterNode, StatusSkipped, "sets no spec.userData"},
		{"karpenter.userdata-format", "amiFamily Custom without userData", func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.NodeClasses[0].AMIAliases, ev.NodeClasses[0].AMIFamily = nil, "Custom"
		}, StatusFail, "amiFamily Custom and no spec.userData"},
		{"karpenter.userdata-format", "amiFamily Custom with userData", func(ev *evidence.Evidence) {
			userData("", al2Script)(ev)
			ev.NodeClasses[0].AMIAliases, ev.NodeClasses[0].AMIFamily = nil, "Custom"
		}, StatusSkipped, "passes as it is"},
		{"auth.access-entry-type", "auto mode EC2", autoMode, StatusPass, "access entry type EC2"},
		{"auth.access-entry-type", "EC2 on a node group node", func(ev *evidence.Evidence) {
			ev.AccessEntries[0].Type = "EC2"
			ev.Provisioner = evidence.DetectProvisioner(ev)
		}, StatusFail, "type EC2 is for EKS Auto Mode node roles"},
		{"auth.access-entry-type", "hybrid", func(ev *evidence.Evidence) {
			ev.AccessEntries[0].Type = "HYBRID_LINUX"
			ev.Provisioner = evidence.Provisioner{Kind: evidence.ProvisionerHybrid}
		}, StatusPass, "access entry type HYBRID_LINUX"},
		{"auth.access-entry-type", "hybrid entry on an EC2 node", func(ev *evidence.Evidence) { ev.AccessEntries[0].Type = "HYBRID_LINUX" }, StatusFail, "type HYBRID_LINUX"},
		{"auth.access-entry-type", "standard", func(ev *evidence.Evidence) { ev.AccessEntries[0].Type = "STANDARD" }, StatusFail, "type STANDARD"},
		{"auth.access-entry-type", "standard, described without the list", func(ev *evidence.Evidence) { describedOnly(ev, "STANDARD") }, StatusFail, "access entry for the node role has type STANDARD"},
		{"auth.access-entry-type", "linux, described without the list", func(ev *evidence.Evidence) { describedOnly(ev, "EC2_LINUX") }, StatusPass, "access entry type EC2_LINUX"},
		{"iam.node-role-policies", "auto mode minimal policies", func(ev *evidence.Evidence) {
			autoMode(ev)
			ev.NodeRolePolicies = []evidence.AttachedPolicy{{Name: "AmazonEKSWorkerNodeMinimalPolicy"}, {Name: policyECRPullOnly}}
		}, StatusPass, ""},
		{"iam.node-role-policies", "auto mode without ECR", func(ev *evidence.Evidence) {
			autoMode(ev)
			ev.NodeRolePolicies = []evidence.AttachedPolicy{{Name: "AmazonEKSWorkerNodeMinimalPolicy"}}
		}, StatusFail, policyECRPullOnly},
		{"iam.node-role-policies", "minimal policy on a node group node", func(ev *evidence.Evidence) {
			ev.NodeRolePolicies[0].Name = "AmazonEKSWorkerNodeMinimalPolicy"
			ev.Provisioner = evidence.DetectProvisioner(ev)
		}, StatusFail, policyWorkerNode},
		{"karpenter.nodeclass-network", "subnet outside the VPC", func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.NodeClasses[0].StatusSubnets = append(ev.NodeClasses[0].StatusSubnets, "subnet-0other")
		}, StatusFail, "subnet subnet-0other is not a subnet of the cluster VPC"},
		{"karpenter.nodeclass-network", "security group the cluster does not admit", func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.SecurityGroups = append(ev.SecurityGroups, evidence.SecurityGroup{ID: "sg-lonely", VpcID: ev.Cluster.VpcID})
			ev.NodeClasses[0].StatusSecurityGroups = []string{"sg-lonely"}
		}, StatusFail, "none of the resolved security groups sg-lonely is the cluster security group"},
		{"karpenter.nodeclass-network", "in the VPC", karpenterNode, StatusPass, "resolves subnets of the cluster VPC"},
		{"karpenter.nodeclass-network", "node group node", func(ev *evidence.Evidence) {
			ev.Provisioner = evidence.DetectProvisioner(ev)
		}, StatusSkipped, "not applicable: the node was provisioned by managed-nodegroup"},
		{"automode.node-role", "no access entry", func(ev *evidence.Evidence) {
			autoMode(ev)
			ev.AccessEntries = nil
		}, StatusFail, "Auto Mode node role " + tRole + " (computeConfig nodeRoleArn) has no access entry"},
		{"automode.node-role", "EC2_LINUX entry", func(ev *evidence.Evidence) {
			autoMode(ev)
			ev.AccessEntries[0].Type = "EC2_LINUX"
		}, StatusFail, "type EC2_LINUX; Auto Mode needs type EC2"},
		{"automode.node-role", "NodeClass role without entry", func(ev *evidence.Evidence) {
			autoMode(ev)
			ev.NodeClasses[0].Role = "custom-node"
			clusterScope(ev)
			ev.NodeClaim, ev.Provisioner = nil, evidence.Provisioner{}
		}, StatusFail, "arn:aws:iam::111122223333:role/custom-node (NodeClass default spec.role) has no access entry"},
		{"automode.node-role", "EC2 entry", autoMode, StatusPass, "has an access entry of type EC2"},
		{"automode.node-role", "STANDARD entry described without the list", func(ev *evidence.Evidence) {
			autoMode(ev)
			describedOnly(ev, "STANDARD")
		}, StatusFail, "Auto Mode node role " + tRole + " has an access entry of type STANDARD; Auto Mode needs type EC2"},
		{"automode.node-role", "EC2 entry described without the list", func(ev *evidence.Evidence) {
			autoMode(ev)
			describedOnly(ev, "EC2")
		}, StatusPass, "has an access entry of type EC2"},
		{"automode.node-role", "another role described without the list", func(ev *evidence.Evidence) {
			autoMode(ev)
			describedOnly(ev, "STANDARD")
			ev.DescribedAccessEntries[0].PrincipalArn = "arn:aws:iam::111122223333:role/someone-else"
		}, StatusSkipped, "missing evidence: eks:access-entries"},
		{"automode.node-role", "computeConfig and cluster ARN cut by --query, Auto Mode NodeClass role without entry", func(ev *evidence.Evidence) {
			// a pasted describe-cluster narrowed by --query: Auto Mode NodeClasses exist only
			// where Auto Mode is on, and the account is the one of the listed access entries
			autoMode(ev)
			ev.Cluster.ComputeConfig, ev.Cluster.Arn = nil, ""
			ev.NodeClasses[0].Role = "custom-node"
			clusterScope(ev)
			ev.NodeClaim, ev.Provisioner = nil, evidence.Provisioner{}
		}, StatusFail, "arn:aws:iam::111122223333:role/custom-node (NodeClass default spec.role) has no access entry"},
		{"automode.node-role", "computeConfig cut, no Auto Mode NodeClass", func(ev *evidence.Evidence) {
			autoMode(ev)
			ev.Cluster.ComputeConfig = nil
			ev.NodeClasses[0].AutoMode = false
			clusterScope(ev)
			ev.NodeClaim, ev.Provisioner = nil, evidence.Provisioner{}
		}, StatusSkipped, "not applicable: EKS Auto Mode is not enabled"},
		{"runtime.cni-not-ready", "Auto Mode node: no aws-node DaemonSet (snapshots9/10)", func(ev *evidence.Evidence) {
			autoMode(ev)
			ev.AWSNode = nil
		}, StatusSkipped, "EKS Auto Mode"},
		{"instance.root-volume-small", "Auto Mode node: a small OS volume (snapshots9/10)", func(ev *evidence.Evidence) {
			autoMode(ev)
			withDisk("/dev/xvda", 4, 0)(ev)
		}, StatusSkipped, "EKS Auto Mode"},
		{"automode.node-role", "auto mode off", func(ev *evidence.Evidence) {
			clusterScope(ev)
		}, StatusSkipped, "not applicable: EKS Auto Mode is not enabled"},
		{"karpenter.instance-profile", "role not mapped", func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.NodeClasses[0].Role = "KarpenterNodeRole-prod"
			ev.Cluster.AuthenticationMode = "API"
		}, StatusFail, "role arn:aws:iam::111122223333:role/KarpenterNodeRole-prod is not mapped in the cluster (no access entry)"},
		{"karpenter.instance-profile", "identity cut from the input", func(ev *evidence.Evidence) {
			// the CRD refuses a class with neither: an input showing one left them out
			karpenterNode(ev)
			ev.NodeClasses[0].Role = ""
		}, StatusSkipped, "shown without spec.role or spec.instanceProfile"},
		{"karpenter.instance-profile", "profile not created", func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.NodeClasses[0].StatusInstanceProfile = ""
			ev.NodeClasses[0].Conditions = []evidence.Condition{{Type: "InstanceProfileReady", Status: "False", Reason: "InstanceProfileNotFound", Message: "role not found"}}
		}, StatusFail, "Karpenter has not created the instance profile of role node"},
		{"karpenter.instance-profile", "spec.instanceProfile names a profile that does not exist", func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.NodeClasses[0].Role, ev.NodeClasses[0].InstanceProfile, ev.NodeClasses[0].StatusInstanceProfile = "", "not-a-real-profile", ""
			ev.NodeClasses[0].Conditions = []evidence.Condition{{Type: "ValidationSucceeded", Status: "False", Reason: "InstanceProfileNotFound", Message: `Instance profile "not-a-real-profile" not found`},
				{Type: "Ready", Status: "False", Reason: "UnhealthyDependents"}}
		}, StatusFail, `EC2NodeClass default spec.instanceProfile not-a-real-profile is refused: ValidationSucceeded=False`},
		{"karpenter.instance-profile", "mapped", karpenterNode, StatusPass, "role node has an access entry (type EC2_LINUX)"},
		{"karpenter.instance-profile", "mapped in aws-auth", func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.AccessEntries = nil
		}, StatusPass, "role node is mapped in aws-auth"},
		{"karpenter.instance-profile", "config map cluster, role not in aws-auth, no access entries given", func(ev *evidence.Evidence) {
			// access entries do not exist in a CONFIG_MAP cluster: aws-auth alone decides
			karpenterNode(ev)
			ev.NodeClasses[0].Role = "KarpenterNodeRole-prod"
			ev.Cluster.AuthenticationMode = "CONFIG_MAP"
			ev.AccessEntries = nil
			ev.AddGapForce(evidence.KindAccessEntries, "not in the input given")
		}, StatusFail, "role arn:aws:iam::111122223333:role/KarpenterNodeRole-prod is not mapped in the cluster (no aws-auth mapRoles entry, and authenticationMode CONFIG_MAP reads nothing else)"},
		{"karpenter.instance-profile", "config map cluster, role in aws-auth, no access entries given", func(ev *evidence.Evidence) {
			karpenterNode(ev)
			ev.Cluster.AuthenticationMode = "CONFIG_MAP"
			ev.AccessEntries = nil
			ev.AddGapForce(evidence.KindAccessEntries, "not in the input given")
		}, StatusPass, "role node is mapped in aws-auth"},
		{"karpenter.instance-profile", "node group node", func(ev *evidence.Evidence) {
			ev.Provisioner = evidence.DetectProvisioner(ev)
		}, StatusSkipped, "not applicable"},
		{"nodegroup.lt-network-interfaces", "karpenter node", karpenterNode, StatusSkipped, "not applicable: the node was provisioned by karpenter (NodeClaim default-x7k2p)"},
	}
}

func TestHealthyKarpenterAndAutoModeNodesHaveNoFailure(t *testing.T) {
	for name, mutate := range map[string]func(*evidence.Evidence){"karpenter": karpenterNode, "auto mode": func(ev *evidence.Evidence) {
		karpenterNode(ev)
		ev.Cluster.ComputeConfig = &evidence.ComputeConfig{Enabled: true, NodeRoleArn: tRole}
		ev.Instance.Tags["eks:eks-cluster-name"] = "prod"
		ev.NodeClasses[0].AutoMode = true
		ev.NodeClaims[0].NodeClassRef = evidence.NodeClassRef{Group: "eks.amazonaws.com", Kind: "NodeClass", Name: "default"}
		c := ev.NodeClaims[0]
		ev.NodeClaim = &c
		ev.AccessEntries[0].Type = "EC2"
		ev.Provisioner = evidence.DetectProvisioner(ev)
	}} {
		ev := healthyEvidence()
		mutate(ev)
		for _, f := range Run(Default().All(), ev) {
			if f.Status == StatusFail || f.Status == StatusError || f.Status == StatusWarn {
				t.Errorf("%s: %s %s: %s", name, f.ID, f.Status, f.Message)
			}
		}
	}
}

func TestNeverRegisteredQuotesAgeFromCollectedAt(t *testing.T) {
	ev := healthyEvidence()
	neverRegistered(ev)
	c, _ := Default().Get("karpenter.nodeclaim-not-registered")
	f := Run([]Check{c}, ev)[0]
	if f.Status != StatusFail || f.Resource != "nodeclaim/default-x7k2p" || !strings.Contains(f.Evidence[0].Text, "condition set 12m0s before collection") {
		t.Fatalf("%+v", f)
	}
}

func TestDetectProvisioner(t *testing.T) {
	ev := healthyEvidence()
	if p := evidence.DetectProvisioner(ev); p.Kind != evidence.ProvisionerManagedNodegroup || p.Name != "ng" {
		t.Errorf("managed: %+v", p)
	}
	delete(ev.Instance.Tags, "eks:nodegroup-name")
	if p := evidence.DetectProvisioner(ev); p.Kind != evidence.ProvisionerSelfManaged || p.Name != "eks-ng-1" {
		t.Errorf("self-managed: %+v", p)
	}
	karpenterNode(ev)
	if p := ev.Provisioner; p.Kind != evidence.ProvisionerKarpenter || p.Name != "default" {
		t.Errorf("karpenter: %+v", p)
	}
	ev.NodeClaim = nil
	ev.Cluster.ComputeConfig = &evidence.ComputeConfig{Enabled: true}
	ev.Instance.Tags["eks:eks-cluster-name"] = "prod"
	if p := evidence.DetectProvisioner(ev); p.Kind != evidence.ProvisionerAutoMode {
		t.Errorf("auto mode: %+v", p)
	}
}

// TestNodeClaimJudgedAtItsAge: a launched NodeClaim without a node is late only once Karpenter's
// 15-minute registration timeout has passed at the evidence's collection time (red team 3,
// F4): 30 seconds after launch it is not a cause yet, a launch time after the collection cannot
// be aged, and without a collection time the claim is judged as it stands.
func TestNodeClaimJudgedAtItsAge(t *testing.T) {
	c, _ := Default().Get("karpenter.nodeclaim-not-registered")
	for _, tc := range []struct {
		name      string
		launched  time.Time
		collected bool
		want      Status
		msg       string
	}{
		{"30 seconds", tNow.Add(-30 * time.Second), true, StatusSkipped, "not a cause yet: NodeClaim default-x7k2p launched 30s before collection, within Karpenter's 15-minute registration timeout"},
		{"launched after the collection", tNow.AddDate(65, 0, 0), true, StatusSkipped, "after the collection time"},
		{"20 minutes", tNow.Add(-20 * time.Minute), true, StatusFail, "never registered"},
		{"no collection time", tNow.Add(-30 * time.Second), false, StatusFail, "never registered"},
	} {
		ev := healthyEvidence()
		neverRegistered(ev)
		ev.NodeClaim.Conditions[0].LastTransition = tc.launched
		ev.NodeClaims[0] = *ev.NodeClaim
		if !tc.collected {
			ev.CollectedAt = time.Time{}
		}
		f := Run([]Check{c}, ev)[0]
		if f.Status != tc.want || !strings.Contains(f.Message, tc.msg) {
			t.Errorf("%s: %s %q", tc.name, f.Status, f.Message)
		}
	}
}

// describedOnly is evidence with the first access entry known only from a pasted
// describe-access-entry of type typ: list-access-entries is not in the input.
func describedOnly(ev *evidence.Evidence, typ string) {
	e := ev.AccessEntries[0]
	e.Type, e.Source = typ, "paste:ticket.txt"
	ev.AccessEntries, ev.DescribedAccessEntries = nil, []evidence.AccessEntry{e}
	ev.AddGapForce(evidence.KindAccessEntries, "not in the input given (eks/list-access-entries.json)")
}

// TestNodeClassNetworkExplainsLaunchErrors: CreateFleet refusing a subnet and a security group of
// different VPCs fails both karpenter.nodeclass-network and the launch-error signatures; the node
// class's selectors are the cause (pastes15/04 ranked the launch errors first).
func TestNodeClassNetworkExplainsLaunchErrors(t *testing.T) {
	d := Diagnose([]Finding{
		{ID: "nodegroup.launch-errors", Status: StatusFail, Severity: SeverityCritical},
		{ID: "karpenter.nodeclass-network", Status: StatusFail, Severity: SeverityCritical},
		{ID: "karpenter.nodeclaim-not-launched", Status: StatusFail, Severity: SeverityCritical},
	}, Default().Metas())
	if d.MostLikelyCause != "karpenter.nodeclass-network" {
		t.Fatalf("most likely %q, ranked %v", d.MostLikelyCause, d.Ranked)
	}
}

// TestAutoModeNodeClassExplainsKarpenterLines: an Auto Mode NodeClass's False condition read as a
// line (Karpenter's condition types) also fails karpenter.nodeclass-not-ready; the Auto Mode
// finding is the cause and the Karpenter one its restatement (pastes19/11).
func TestAutoModeNodeClassExplainsKarpenterLines(t *testing.T) {
	d := Diagnose([]Finding{
		{ID: "karpenter.nodeclass-not-ready", Status: StatusFail, Severity: SeverityCritical},
		{ID: "automode.nodeclass-not-ready", Status: StatusFail, Severity: SeverityCritical},
	}, Default().Metas())
	if d.MostLikelyCause != "automode.nodeclass-not-ready" || !slices.Contains(d.Chain, "karpenter.nodeclass-not-ready") {
		t.Fatalf("most likely %q, chain %v", d.MostLikelyCause, d.Chain)
	}
}

// TestListedNodeClaimJudgedAtItsAge: a NodeClaim known only from a kubectl get table (no
// creationTimestamp, no condition times) is judged at the AGE the table printed: younger than
// Karpenter's registration timeout it is not a cause yet, older it never registered; with no
// age at all it is judged as it stands.
func TestListedNodeClaimJudgedAtItsAge(t *testing.T) {
	c, _ := Default().Get("karpenter.nodeclaim-not-registered")
	for _, tc := range []struct {
		name string
		age  time.Duration
		want Status
		msg  string
	}{
		{"13 minutes", 13 * time.Minute, StatusSkipped, "not a cause yet: NodeClaim default-x7k2p was 13m0s old when listed (kubectl get's AGE), within Karpenter's 15-minute registration timeout"},
		{"42 minutes", 42 * time.Minute, StatusFail, "never registered"},
		{"no age", 0, StatusFail, "never registered"},
	} {
		ev := healthyEvidence()
		neverRegistered(ev)
		ev.NodeClaim.Created, ev.NodeClaim.ListedAge = time.Time{}, tc.age
		for i := range ev.NodeClaim.Conditions {
			ev.NodeClaim.Conditions[i].LastTransition = time.Time{}
		}
		ev.NodeClaims[0] = *ev.NodeClaim
		f := Run([]Check{c}, ev)[0]
		if f.Status != tc.want || !strings.Contains(f.Message, tc.msg) {
			t.Errorf("%s: %s %q", tc.name, f.Status, f.Message)
		}
	}
}

// TestInstanceProfileExplainsNodeClassNotReady: the node class controller's instance profile
// failure (iam:PassRole denied on AddRoleToInstanceProfile) leaves InstanceProfileReady, and so
// Ready, not True: the instance profile is the cause and the class not being Ready its
// restatement (pastes26/09, a Reconciler error line read by both signatures).
func TestInstanceProfileExplainsNodeClassNotReady(t *testing.T) {
	d := Diagnose([]Finding{
		{ID: "karpenter.nodeclass-not-ready", Status: StatusFail, Severity: SeverityCritical},
		{ID: "karpenter.instance-profile", Status: StatusFail, Severity: SeverityCritical},
	}, Default().Metas())
	if d.MostLikelyCause != "karpenter.instance-profile" || !slices.Contains(d.Chain, "karpenter.nodeclass-not-ready") {
		t.Fatalf("most likely %q, chain %v", d.MostLikelyCause, d.Chain)
	}
}
