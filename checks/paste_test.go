package checks

import (
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// withoutNodeRole is evidence as a pasted aws-auth gives it: the node role is not known.
func withoutNodeRole(ev *evidence.Evidence) {
	ev.NodeRole, ev.InstanceProfile = nil, nil
	ev.AddGapForce(evidence.KindNodeRole, "not in the input given")
	ev.AddGapForce(evidence.KindInstanceProfile, "not in the input given")
}

func withRoles(roles ...evidence.RoleMapping) func(ev *evidence.Evidence) {
	return func(ev *evidence.Evidence) {
		withoutNodeRole(ev)
		for i := range roles {
			roles[i].Index = i
		}
		ev.AWSAuth = &evidence.AWSAuth{Present: true, Roles: roles}
		// a pasted aws-auth comes without the access entries (under API_AND_CONFIG_MAP an entry
		// of the same role would take precedence over the pasted mapping)
		ev.AccessEntries = nil
		ev.AddGapForce(evidence.KindAccessEntries, "not in the input given")
	}
}

var nodeGroups = []string{"system:bootstrappers", "system:nodes"}

// pasteCases judge the evidence one pasted artefact gives: aws-auth without the node role, CSRs
// without the instance, a Terraform plan of aws-auth.
func pasteCases() []checkCase {
	admin := evidence.RoleMapping{RoleArn: "arn:aws:iam::111122223333:role/admin", Username: "admin", Groups: []string{"system:masters"}}
	node := evidence.RoleMapping{RoleArn: "arn:aws:iam::111122223333:role/node", Username: NodeUsername, Groups: nodeGroups}
	fargate := evidence.RoleMapping{RoleArn: "arn:aws:iam::111122223333:role/AmazonEKSFargatePodExecutionRole", Username: "system:node:{{SessionName}}", Groups: append([]string{"system:node-proxier"}, nodeGroups...)}
	pathed := node
	pathed.RoleArn = "arn:aws:iam::111122223333:role/eks/nodes/node"
	wrongUser := node
	wrongUser.Username = "test"
	noGroups := node
	noGroups.Groups = []string{"system:nodes"}
	// a mapping written from a template whose placeholders kept their angle brackets
	bracketed := node
	bracketed.RoleArn = "arn:aws:iam::111122223333:role/bracketed"
	bracketed.Username = "<system:node:{{EC2PrivateDNSName}}>"
	bracketed.Groups = []string{"<system:bootstrappers>", "<system:nodes>"}
	profile := node
	profile.RoleArn = "arn:aws:iam::111122223333:instance-profile/node"
	csrs := func(list ...evidence.CSR) func(ev *evidence.Evidence) {
		return func(ev *evidence.Evidence) {
			ev.Instance, ev.Nodes = nil, nil
			ev.AddGapForce(evidence.KindInstance, "not in the input given")
			ev.AddGapForce(evidence.KindNodes, "not in the input given") // a pasted CSR table alone
			ev.CSRs = list
		}
	}
	serving := evidence.CSR{Name: "csr-1", SignerName: "kubernetes.io/kubelet-serving", Username: "system:node:ip-10-0-1-2.ec2.internal", State: "Pending"}
	servingTest := serving
	servingTest.Username = "test"
	servingTest.Age = 4*time.Minute + 42*time.Second
	young := serving
	young.Age = 44 * time.Second
	old := serving
	old.Age = 20 * time.Minute
	denied := serving
	denied.State = "Denied"
	plan := func(changes ...evidence.MappingChange) func(ev *evidence.Evidence) {
		return func(ev *evidence.Evidence) {
			withoutNodeRole(ev)
			ev.MappingChanges = changes
			ev.Mark(evidence.KindMappingChanges, "paste:stdin:1-30")
		}
	}
	removedNode := evidence.MappingChange{Action: "removed", RoleArn: node.RoleArn, Username: NodeUsername, Groups: nodeGroups, Via: "terraform plan of module.eks.kubernetes_config_map.aws_auth[0]", Line: 7}
	removedAdmin := evidence.MappingChange{Action: "removed", RoleArn: admin.RoleArn, Username: "admin", Groups: admin.Groups, Via: "terraform plan"}
	addedNode := removedNode
	addedNode.Action = "added"
	kubeletOnly := func(instance bool) func(ev *evidence.Evidence) {
		return func(ev *evidence.Evidence) {
			ev.Bootstrap = &evidence.BootstrapConfig{Format: evidence.FormatNodeConfig, CallsBootstrap: true}
			if !instance {
				ev.Instance = nil
				ev.AddGapForce(evidence.KindInstance, "not in the input given")
			}
		}
	}
	return []checkCase{
		{"bootstrap.nodeconfig-incomplete", "pasted NodeConfig with only kubelet settings", kubeletOnly(false), StatusWarn, "complete only as a managed node group"},
		{"bootstrap.nodeconfig-incomplete", "managed node group NodeConfig with only kubelet settings", kubeletOnly(true), StatusPass, "adds them in its own NodeConfig part"},
		{"auth.role-path", "pasted aws-auth, pathed entry", withRoles(admin, pathed), StatusFail, "compares ARNs without the IAM path"},
		{"auth.role-path", "pasted aws-auth, no path", withRoles(admin, node), StatusPass, "no mapRoles entry carries an IAM path"},
		{"auth.wrong-username", "pasted aws-auth, node entry with wrong username", withRoles(admin, wrongUser), StatusFail, `username "test"`},
		{"auth.wrong-username", "pasted aws-auth, Fargate and node entries", withRoles(admin, node, fargate), StatusPass, "every node mapping (2)"},
		{"auth.wrong-username", "later duplicate wins", withRoles(node, wrongUser), StatusFail, "entry 2"},
		{"auth.wrong-username", "pasted aws-auth without node entries", withRoles(admin), StatusSkipped, "no mapRoles entry maps nodes"},
		{"auth.missing-groups", "pasted aws-auth, node entry lacks a group", withRoles(noGroups), StatusFail, "lacks group system:bootstrappers"},
		{"auth.wrong-username", "pasted aws-auth, placeholder brackets kept", withRoles(admin, bracketed), StatusFail, `username "<system:node:{{EC2PrivateDNSName}}>"`},
		{"auth.missing-groups", "pasted aws-auth, placeholder brackets kept", withRoles(admin, bracketed), StatusFail, "lacks groups system:bootstrappers, system:nodes"},
		{"auth.missing-groups", "pasted aws-auth, complete", withRoles(node, fargate), StatusPass, "both node groups"},
		{"auth.instance-profile-arn", "pasted aws-auth maps a profile", func(ev *evidence.Evidence) {
			withRoles(profile)(ev)
			ev.Instance = nil
			ev.AddGapForce(evidence.KindInstance, "not in the input given")
		}, StatusFail, "instance profile"},
		{"csr.pending", "pasted table, serving CSR of user test", csrs(servingTest), StatusFail, `requested by "test"`},
		{"csr.pending", "v1beta1 describe: no signer, a node's subject, requested by a role ARN", csrs(evidence.CSR{Name: "csr-sjvjg", CommonName: "system:node:ip-10-0-1-2.us-west-2.compute.internal",
			Username: "arn:aws:iam::111122223333:role/nodes", State: "Pending"}), StatusFail, `CSR csr-sjvjg was requested by "arn:aws:iam::111122223333:role/nodes"`},
		{"csr.pending", "pasted table, 44 s old", csrs(young), StatusWarn, "44s old"},
		{"csr.pending", "pasted table, 20 minutes old", csrs(old), StatusFail, "20m0s"},
		{"csr.denied", "pasted describe, denied", csrs(denied), StatusFail, "denied"},
		{"auth.mapping-removed", "plan drops the node role", plan(removedNode, removedAdmin), StatusFail, "removes the node mapping of arn:aws:iam::111122223333:role/node"},
		{"auth.mapping-removed", "plan only adds", plan(addedNode), StatusPass, "none removes a node mapping"},
		{"auth.mapping-removed", "plan cut inside the removed node entry", plan(evidence.MappingChange{Action: "removed", Groups: []string{"system:bootstrappers"}, Via: "terraform plan"}), StatusFail, "its rolearn is cut off in the paste"},
		{"auth.mapping-removed", "plan removes an admin", plan(removedAdmin), StatusPass, "1 mapping change"},
		{"auth.mapping-removed", "first audited write leaves the node role out", func(ev *evidence.Evidence) {
			ev.AccessEntries = nil // the collector reports a left-out role only when no access entry maps it
			ev.MappingChanges = []evidence.MappingChange{{Action: "left-out", RoleArn: nodeRoleArn(ev), Via: "audit log: patch of kube-system/aws-auth by admin at 2026-11-20T08:10:00Z"}}
			ev.Mark(evidence.KindMappingChanges, "snapshot:logs/control-plane.json")
		}, StatusFail, "may never have been mapped"},
	}
}
