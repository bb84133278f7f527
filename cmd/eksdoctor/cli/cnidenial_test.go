package cli

import (
	"strings"
	"testing"
)

// TestPastedIPAMDDenialNamesTheNodeRole: a pasted node role without AmazonEKS_CNI_Policy and
// IPAMD's UnauthorizedOperation whose caller is that role's instance session ("User:
// arn:aws:sts::ACCOUNT:assumed-role/ROLE/i-…") prove aws-node runs with the node role: the CNI
// policy missing from it is the cause, and IPAMD's denial its consequence. When the denial names
// another role (aws-node's IRSA role), the node role is not judged by it (blind pastes21/11).
func TestPastedIPAMDDenialNamesTheNodeRole(t *testing.T) {
	paste := func(caller string) string {
		deny := `{"level":"error","ts":"2026-03-02T08:14:%02d.201Z","caller":"awsutils/awsutils.go:1444","msg":"Failed to call ec2:DescribeNetworkInterfaces for [eni-0f1e2d3c4b5a69788]: operation error EC2: DescribeNetworkInterfaces, https response error StatusCode: 403, RequestID: 5e6f, api error UnauthorizedOperation: You are not authorized to perform this operation. User: ` + caller + ` is not authorized to perform: ec2:DescribeNetworkInterfaces because no identity-based policy allows the ec2:DescribeNetworkInterfaces action"}`
		var b strings.Builder
		b.WriteString("aws-node keeps restarting on the new node.\n\n$ sudo tail /var/log/aws-routed-eni/ipamd.log\n")
		b.WriteString(`{"level":"info","ts":"2026-03-02T08:14:01.100Z","caller":"aws-k8s-agent/main.go:105","msg":"Starting L-IPAMD v1.19.2  ..."}` + "\n")
		for i := 2; i < 5; i++ {
			b.WriteString(strings.Replace(deny, "%02d", "0"+string(rune('0'+i)), 1) + "\n")
		}
		b.WriteString("\n$ aws iam list-attached-role-policies --role-name lab-eks-workers\n{\n    \"AttachedPolicies\": [\n" +
			"        {\"PolicyName\": \"AmazonEKSWorkerNodePolicy\", \"PolicyArn\": \"arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy\"},\n" +
			"        {\"PolicyName\": \"AmazonEC2ContainerRegistryReadOnly\", \"PolicyArn\": \"arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly\"}\n    ]\n}\n")
		return b.String()
	}
	for _, c := range []struct {
		name, caller, status, msg string
		first                     string
	}{
		{"the node role's session", "arn:aws:sts::210987654321:assumed-role/lab-eks-workers/i-0123456789abcdef0", "fail", "aws-node runs with the node role", "iam.node-role-policies"},
		{"aws-node's IRSA role", "arn:aws:sts::210987654321:assumed-role/lab-aws-node-irsa/1741000000000000000", "warn", "Pod Identity", "runtime.ipamd-no-ips"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, r, _, errOut := analyze(t, paste(c.caller), "-")
			status, msg := pastedFinding(r, "iam.node-role-policies")
			if status != c.status || !strings.Contains(msg, c.msg) {
				t.Errorf("iam.node-role-policies %s %q, want %s with %q\n%s", status, msg, c.status, c.msg, errOut)
			}
			if r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != c.first {
				t.Errorf("most likely cause %v, want %s; failing %v", r.Diagnosis.MostLikelyCause, c.first, failing(r))
			}
		})
	}
}
