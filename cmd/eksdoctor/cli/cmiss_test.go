package cli

import (
	"slices"
	"strings"
	"testing"
)

// cmissCase is one paste and what its diagnosis must (cause) or must not (notFailing) say.
type cmissCase struct {
	name, paste string
	cause       string   // the most likely cause; "" when no cause is required
	notFailing  []string // IDs that must not fail
	mention     string   // text the report must contain
}

func runCmissCases(t *testing.T, cases []cmissCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, r, out, errOut := analyze(t, c.paste, "-")
			got := failing(r)
			if c.cause != "" && (r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != c.cause) {
				t.Errorf("cause %v (want %s), failing %v\n%s", r.Diagnosis.MostLikelyCause, c.cause, got, errOut)
			}
			for _, id := range c.notFailing {
				if slices.Contains(got, id) {
					t.Errorf("%s fails: %v", id, got)
				}
			}
			if c.mention != "" && !strings.Contains(out, c.mention) {
				t.Errorf("output does not name %q:\n%s", c.mention, out)
			}
		})
	}
}

// TestKarpenterConnectivityFollowsTheNetwork: the Karpenter controller's start-up connectivity
// check failing because an AWS service's interface endpoint drops its connections is the
// endpoint's security group's doing: the endpoint is the cause, Karpenter launching nothing its
// consequence.
func TestKarpenterConnectivityFollowsTheNetwork(t *testing.T) {
	runCmissCases(t, []cmissCase{
		{"endpoint security group", "2022-06-01T10:00:00.000Z\tERROR\tcontroller.aws\tChecking EC2 API connectivity, WebIdentityErr: failed to retrieve credentials\ncaused by: RequestError: send request failed\ncaused by: Post \"https://sts.us-east-2.amazonaws.com/\": dial tcp 10.188.214.212:443: i/o timeout\n",
			"net.vpc-endpoint-sg", nil, ""},
		{"credentials refused", "2022-06-01T10:00:00.000Z\tERROR\tcontroller.aws\tChecking EC2 API connectivity, WebIdentityErr: failed to retrieve credentials caused by: AccessDenied: Not authorized to perform sts:AssumeRoleWithWebIdentity\n",
			"karpenter.nodeclaim-not-launched", []string{"net.vpc-endpoint-sg"}, ""},
	})
}

// TestFargateProfileArnMapped: an aws-auth mapRoles entry whose rolearn is a Fargate profile's
// ARN (arn:aws:eks:…:fargateprofile/…) maps no principal: Fargate's kubelets authenticate as the
// profile's pod execution role, an IAM role. A pasted aws-auth alone shows it; the mapping of a
// pod execution role by its role ARN is no failure.
func TestFargateProfileArnMapped(t *testing.T) {
	cm := func(arn string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n" +
			"    - rolearn: " + arn + "\n      username: system:node:{{SessionName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\n        - system:node-proxier\n"
	}
	runCmissCases(t, []cmissCase{
		{"profile ARN", cm("arn:aws:eks:eu-west-1:111122223333:fargateprofile/prod/default/a4c2b1e0-1234-5678-9abc-def012345678"),
			"fargate.pod-execution-role", nil, "fargateprofile/prod/default"},
		{"profile ARN, placeholders", cm("arn:aws:eks:<region>:<AWS account id>:fargateprofile/<cluster name>/<fargate profile name>/xxxxxxxx"),
			"fargate.pod-execution-role", nil, ""},
		{"pod execution role", cm("arn:aws:iam::111122223333:role/AmazonEKSFargatePodExecutionRole"),
			"", []string{"fargate.pod-execution-role"}, ""},
	})
}

// TestNodeRoleMisspeltInAWSAuth: aws-auth maps as a node a role of the node role's account whose
// name is the node role's with one character added, dropped or two swapped (xnew_nodegroup_3 for
// new_nodegroup_3): the node role's mapping was meant to be that entry, and it names another
// role, so the node role is not mapped — a failure even though the access entries were not read.
// A sibling's role (new_nodegroup_2: one character replaced, a numbered series) or no near name
// leaves the warning that the other source may map it.
func TestNodeRoleMisspeltInAWSAuth(t *testing.T) {
	paste := func(mapped string) string {
		return "$ kubectl describe configmap aws-auth -n kube-system\n\nData\n====\nmapRoles:\n----\n" +
			"- groups:\n  - system:bootstrappers\n  - system:nodes\n  rolearn: arn:aws:iam::444455556666:role/eksctl-lab-nodegroup-default-NodeInstanceRole-7QWERTY\n  username: system:node:{{EC2PrivateDNSName}}\n" +
			"- groups:\n  - system:bootstrappers\n  - system:nodes\n  rolearn: arn:aws:iam::444455556666:role/" + mapped + "\n  username: system:node:{{EC2PrivateDNSName}}\n\n" +
			"$ aws eks describe-nodegroup --cluster-name lab --nodegroup-name payments_ng --query 'nodegroup.nodeRole' --output text\n" +
			"arn:aws:iam::444455556666:role/payments_ng_role\n"
	}
	runCmissCases(t, []cmissCase{
		{"one character added", paste("xpayments_ng_role"), "auth.role-not-mapped", nil, "xpayments_ng_role"},
		{"one character dropped", paste("payments_ngrole"), "auth.role-not-mapped", nil, "payments_ngrole"},
		{"two swapped", paste("payments_ng_rloe"), "auth.role-not-mapped", nil, ""},
		{"a sibling's role", paste("payments_ng_rolf"), "", []string{"auth.role-not-mapped"}, ""},
		{"another role", paste("ledger_ng_role"), "", []string{"auth.role-not-mapped"}, ""},
	})
}

// TestWindowsRoleMappingWithoutKubeProxyGroup: a pasted aws-auth alone whose node mapping names
// a role for Windows nodes (a role name or placeholder with the word windows or win) without the
// group eks:kube-proxy-windows fails windows.kube-proxy-group; with the group, or for a role
// whose name does not say Windows, nothing fails.
func TestWindowsRoleMappingWithoutKubeProxyGroup(t *testing.T) {
	cm := func(arn string, groups ...string) string {
		return "mapRoles: |\n  - \"groups\":\n    - \"" + strings.Join(groups, "\"\n    - \"") + "\"\n    \"rolearn\": \"" + arn + "\"\n    \"username\": \"system:node:{{EC2PrivateDNSName}}\"\n"
	}
	runCmissCases(t, []cmissCase{
		{"windows role", cm("arn:aws:iam::111122223333:role/eks-windows-ng-role", "system:bootstrappers", "system:nodes"), "windows.kube-proxy-group", nil, "eks-windows-ng-role"},
		{"camel case", cm("arn:aws:iam::111122223333:role/EksWinNodeRole", "system:bootstrappers", "system:nodes"), "windows.kube-proxy-group", nil, ""},
		{"placeholder", cm("<windows_mng_role_arn>", "system:bootstrappers", "system:nodes"), "windows.kube-proxy-group", nil, ""},
		{"with the group", cm("arn:aws:iam::111122223333:role/eks-windows-ng-role", "system:bootstrappers", "system:nodes", "eks:kube-proxy-windows"), "", []string{"windows.kube-proxy-group"}, ""},
		{"linux role", cm("arn:aws:iam::111122223333:role/eks-linux-ng-role", "system:bootstrappers", "system:nodes"), "", []string{"windows.kube-proxy-group"}, ""},
		{"word inside another", cm("arn:aws:iam::111122223333:role/twinkle-nodes", "system:bootstrappers", "system:nodes"), "", []string{"windows.kube-proxy-group"}, ""},
	})
}

// TestSDKv1PublicServiceTimeout: the AWS SDK for Go v1 reports a failed call as "RequestError:
// send request failed" with the cause on its own "caused by:" line; a regional service's name
// that resolved to a public address and timed out shows no interface endpoint for it and no
// way out: net.vpc-endpoints-missing. A private address (an endpoint: its security group) or a
// proxy is not that.
func TestSDKv1PublicServiceTimeout(t *testing.T) {
	log := func(addr string) string {
		return "E1113 10:39:21.362613       1 aws_manager.go:154] Failed to regenerate ASG cache: cannot autodiscover ASGs: RequestError: send request failed\n" +
			"caused by: Post https://autoscaling.eu-central-1.amazonaws.com/: dial tcp " + addr + ":443: i/o timeout\n"
	}
	runCmissCases(t, []cmissCase{
		{"public address", log("54.239.55.230"), "net.vpc-endpoints-missing", nil, "autoscaling"},
		{"quoted", "caused by: Post \"https://ec2.us-west-2.amazonaws.com/\": dial tcp 52.94.8.1:443: i/o timeout\n", "net.vpc-endpoints-missing", nil, ""},
		{"private address", log("10.0.4.17"), "", []string{"net.vpc-endpoints-missing"}, ""},
		{"carrier-grade address", log("100.64.3.9"), "", []string{"net.vpc-endpoints-missing"}, ""},
		{"proxy", "caused by: Post https://autoscaling.eu-central-1.amazonaws.com/: proxyconnect tcp: dial tcp 54.239.55.230:443: i/o timeout\n", "", []string{"net.vpc-endpoints-missing"}, ""},
	})
}
