package checks

import "github.com/eksdoctor/eksdoctor/collectors/evidence"

const tFargateRole = "arn:aws:iam::111122223333:role/prod-fargate-pods"

// withFargate gives the cluster a healthy Fargate profile (private subnet, mapped role trusting
// eks-fargate-pods.amazonaws.com with its managed policy) and no Pending pod.
func withFargate(ev *evidence.Evidence) {
	addNetwork(ev)
	ev.AccessEntries = append(ev.AccessEntries, evidence.AccessEntry{PrincipalArn: tFargateRole, Type: "FARGATE_LINUX"})
	ev.Fargate.Profiles = []evidence.FargateProfile{{Name: "fp-default", Status: "ACTIVE", PodExecutionRoleArn: tFargateRole, Subnets: []string{"subnet-a"},
		Selectors: []evidence.FargateSelector{{Namespace: "serverless", Labels: map[string]string{"compute": "fargate"}}},
		Role: &evidence.Role{Name: "prod-fargate-pods", Arn: tFargateRole, TrustPolicy: &evidence.PolicyDocument{Statement: []evidence.PolicyStatement{{Effect: "Allow",
			Action: []string{"sts:AssumeRole"}, Principal: map[string][]string{"Service": {"eks-fargate-pods.amazonaws.com"}}}}}},
		RolePolicies: []evidence.AttachedPolicy{{Name: "AmazonEKSFargatePodExecutionRolePolicy", Arn: "arn:aws:iam::aws:policy/AmazonEKSFargatePodExecutionRolePolicy"}}, RoleRead: true}}
	ev.Mark(evidence.KindFargateProfiles, "test:fargate")
	ev.Mark(evidence.KindPendingPods, "test:pods")
}

func fargateCases() []checkCase {
	pending := func(ns, scheduler string, labels map[string]string) func(*evidence.Evidence) {
		return func(ev *evidence.Evidence) {
			withFargate(ev)
			ev.Fargate.PendingPods = []evidence.PendingPod{{Namespace: ns, Name: "web-1", SchedulerName: scheduler, Labels: labels}}
		}
	}
	return []checkCase{
		{"fargate.pod-execution-role", "mapped", withFargate, StatusPass, "pod execution role is mapped"},
		{"fargate.pod-execution-role", "not mapped", func(ev *evidence.Evidence) {
			withFargate(ev)
			ev.AccessEntries = ev.AccessEntries[:len(ev.AccessEntries)-1]
		}, StatusFail, "has no FARGATE_LINUX access entry and no aws-auth entry with system:node-proxier"},
		{"fargate.pod-execution-role", "aws-auth node-proxier", func(ev *evidence.Evidence) {
			withFargate(ev)
			ev.AccessEntries = ev.AccessEntries[:len(ev.AccessEntries)-1]
			ev.AWSAuth.Roles = append(ev.AWSAuth.Roles, evidence.RoleMapping{RoleArn: tFargateRole, Username: "system:node:{{SessionName}}",
				Groups: []string{"system:bootstrappers", "system:nodes", "system:node-proxier"}})
		}, StatusPass, "mapped"},
		// authenticationMode CONFIG_MAP: EKS reads no access entry (ListAccessEntries refuses), so
		// aws-auth alone decides
		{"fargate.pod-execution-role", "CONFIG_MAP, access entries refused", func(ev *evidence.Evidence) {
			withFargate(ev)
			ev.Cluster.AuthenticationMode = "CONFIG_MAP"
			ev.AccessEntries = nil
			ev.AddGapForce(evidence.KindAccessEntries, "InvalidRequestException on ListAccessEntries")
		}, StatusFail, "has no aws-auth entry with system:node-proxier (authenticationMode CONFIG_MAP reads no access entry)"},
		{"fargate.pod-execution-role", "trust", func(ev *evidence.Evidence) {
			withFargate(ev)
			ev.Fargate.Profiles[0].Role.TrustPolicy.Statement[0].Principal = map[string][]string{"Service": {"ec2.amazonaws.com"}}
		}, StatusFail, "does not let eks-fargate-pods.amazonaws.com assume it"},
		{"fargate.pod-execution-role", "no Fargate", func(ev *evidence.Evidence) { ev.Mark(evidence.KindFargateProfiles, "test:fargate") }, StatusSkipped, "not applicable: the cluster has no Fargate profile"},
		{"fargate.profile-public-subnet", "private", withFargate, StatusPass, "private subnets only"},
		{"fargate.profile-public-subnet", "public", func(ev *evidence.Evidence) {
			withFargate(ev)
			ev.Fargate.Profiles[0].Subnets = []string{"subnet-a", "subnet-pub"}
		}, StatusFail, "subnet-pub (rtb-pub: 0.0.0.0/0 → igw-1)"},
		{"fargate.no-matching-profile", "none pending", withFargate, StatusPass, "every Pending pod"},
		{"fargate.no-matching-profile", "matched", pending("serverless", "fargate-scheduler", map[string]string{"compute": "fargate"}), StatusPass, "every Pending pod"},
		{"fargate.no-matching-profile", "label missing", pending("serverless", "fargate-scheduler", nil), StatusFail, "serverless/web-1"},
		{"fargate.no-matching-profile", "EC2 pod elsewhere", pending("default", "default-scheduler", nil), StatusPass, "every Pending pod"},
	}
}
