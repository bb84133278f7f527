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
		t.Run(tc.name, func(t *testing.T) {
			code, r, out, stderr := analyze(t, tc.input, "-")
			if out == "" {
				// nothing left to read once the poster's CLI error is not the node's: no report,
				// and not a cause
				if len(tc.want) > 0 || code == 1 {
					t.Fatalf("no report (exit %d): %s", code, stderr)
				}
				return
			}
			if got := failing(r); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("failing %v (exit %d), want %v", got, code, tc.want)
			}
			if len(tc.want) == 0 && code == 1 {
				t.Fatalf("exit 1 with nothing failing")
			}
		})
	}
}
