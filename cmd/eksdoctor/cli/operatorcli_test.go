package cli

import (
	"strings"
	"testing"
)

// TestOperatorAWSCLIErrorsAreNotTheNodes: an AWS CLI error under a command the poster typed at
// their own shell prompt (or pasted as a bare command) answers that command on the poster's
// workstation: an expired SSO session, a deactivated access key, a throttled or skewed laptop say
// nothing of the node's credentials or clock (red team 6, REPORT-a F3, cases 32 and 119). The same
// error at a prompt on the node (its ip- host name, ec2-user, an SSM shell), or printed by a
// node's bootstrap without a prompt, is still the node's.
func TestOperatorAWSCLIErrorsAreNotTheNodes(t *testing.T) {
	const expired = "An error occurred (ExpiredToken) when calling the GetCallerIdentity operation: The security token included in the request is expired\n"
	const invalid = "An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid.\n"
	const skewed = "An error occurred (InvalidSignatureException) when calling the DescribeCluster operation: Signature expired: 20240101T000000Z is now earlier than 20240101T000600Z (20240101T001100Z - 5 min.)\n"
	const identity = "{\n    \"UserId\": \"AROAEXAMPLEID:jane@example.com\",\n    \"Account\": \"111122223333\",\n    \"Arn\": \"arn:aws:sts::111122223333:assumed-role/AWSReservedSSO_AdministratorAccess_0123456789abcdef/jane@example.com\"\n}\n"
	for _, tc := range []struct {
		name, input string
		want        []string
	}{
		{"expired SSO session on the laptop (case 32)", "Trying to debug why the node is missing. From my laptop:\n\n$ aws sts get-caller-identity --region eu-west-1\n\n" + expired + "\n$ aws sso login --profile prod\nSuccessfully logged into Start URL: https://my-sso-portal.awsapps.com/start\n$ aws sts get-caller-identity --region eu-west-1 --profile prod\n" + identity, []string{}},
		{"deactivated access key (case 119)", "Before opening a case I checked my credentials, looks like my old key is dead:\n\n$ aws sts get-caller-identity --profile legacy-admin\n\n" + invalid + "\n$ aws sts get-caller-identity --profile prod\n" + identity, []string{}},
		{"a user@host prompt that is not a node", "jane@macbook:~$ aws eks describe-cluster --name prod\n" + skewed, []string{}},
		{"a bare command above the error", "aws sts get-caller-identity\n" + invalid, []string{}},
		{"at a prompt on the node", "[ec2-user@ip-10-0-1-23 ~]$ aws sts get-caller-identity\n" + expired, []string{"runtime.clock-skew"}},
		{"in an SSM session on the node", "sh-4.2$ aws eks describe-cluster --name prod --region eu-west-1\n" + skewed, []string{"runtime.clock-skew"}},
		{"bootstrap.sh's call, no prompt", "Using containerd as the container runtime\n" + expired, []string{"runtime.clock-skew"}},
	} {
		t.Run(tc.name, func(t *testing.T) { wantFailing(t, tc.input, tc.want) })
	}
}

// TestOperatorKubectlErrorsAreNotTheNodes: kubectl's own client errors under a kubectl command
// the poster typed at their own prompt (client-go's discovery "memcache.go … couldn't get current
// server API group list" klog lines, "Unable to connect to the server: …", "error: You must be
// logged in to the server") answer the poster's access to the cluster, not the node's: an x509 or
// a timeout there is not the kubelet's (red team 8b #06). The same lines at a prompt on the node,
// a component's own client-go line read with `kubectl logs`, and a kubelet journal line pasted
// under the command are still the node's.
func TestOperatorKubectlErrorsAreNotTheNodes(t *testing.T) {
	const x509 = `E1124 10:00:01.223456   81234 memcache.go:265] couldn't get current server API group list: Get "https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com/api?timeout=32s": tls: failed to verify certificate: x509: certificate signed by unknown authority
E1124 10:00:01.323456   81234 memcache.go:265] couldn't get current server API group list: Get "https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com/api?timeout=32s": tls: failed to verify certificate: x509: certificate signed by unknown authority
Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority
`
	const timeout = `E1124 10:00:31.223456   81234 memcache.go:265] couldn't get current server API group list: Get "https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com/api?timeout=32s": dial tcp 10.0.12.34:443: i/o timeout
Unable to connect to the server: dial tcp 10.0.12.34:443: i/o timeout
`
	const kubeletX509 = `Nov 24 10:00:05 ip-10-0-1-23 kubelet[2841]: E1124 10:00:05.118732    2841 kubelet_node_status.go:107] "Unable to register node with API server" err="Post \"https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes\": tls: failed to verify certificate: x509: certificate signed by unknown authority" node="ip-10-0-1-23.ec2.internal"
`
	for _, tc := range []struct {
		name, input string
		want        []string
	}{
		{"x509 under a PowerShell prompt", "PS C:\\Users\\bob> kubectl get nodes\n" + x509, []string{}},
		{"timeout under a $ prompt", "$ kubectl get nodes\n" + timeout, []string{}},
		{"timeout under a workstation prompt", "jane@macbook:~$ kubectl -n kube-system get pods\n" + timeout, []string{}},
		{"timeout under a bare command", "kubectl get nodes\n" + timeout, []string{}},
		{"at a prompt on the node", "[ec2-user@ip-10-0-1-23 ~]$ kubectl get nodes\n" + timeout, []string{"runtime.apiserver-timeout"}},
		{"the kubelet's line pasted under the command", "PS C:\\Users\\bob> kubectl get nodes\n" + x509 + "and on the node:\n\n" + kubeletX509, []string{"runtime.tls-untrusted"}},
		{"the kubelet's line under kubectl's", "$ kubectl get nodes\n" + x509 + kubeletX509, []string{"runtime.tls-untrusted"}},
		{"a component's own client-go line read with kubectl logs", "$ kubectl -n kube-system logs aws-node-x7k2p\n" + timeout, []string{"runtime.apiserver-timeout"}},
	} {
		t.Run(tc.name, func(t *testing.T) { wantFailing(t, tc.input, tc.want) })
	}
}

// wantFailing analyses input as a paste on stdin and asserts that exactly the IDs want fail; a
// paste with nothing left to read once the poster's own CLI errors are set aside may give no
// report at all, but never exit 1.
func wantFailing(t *testing.T, input string, want []string) {
	t.Helper()
	code, r, out, stderr := analyze(t, input, "-")
	if out == "" {
		if len(want) > 0 || code == 1 {
			t.Fatalf("no report (exit %d): %s", code, stderr)
		}
		return
	}
	if got := failing(r); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("failing %v (exit %d), want %v", got, code, want)
	}
	if len(want) == 0 && code == 1 {
		t.Fatalf("exit 1 with nothing failing")
	}
}
