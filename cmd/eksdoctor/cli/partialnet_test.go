package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// partialKubelet is a kubelet timing out on the API server's private addresses, as a ticket
// pastes it (no describe-instances).
const partialKubelet = `Nov 03 15:02:07 ip-10-60-19-233.ec2.internal kubelet[2071]: I1103 15:02:07.118422    2071 kubelet_node_status.go:75] "Attempting to register node" node="ip-10-60-19-233.ec2.internal"
Nov 03 15:02:37 ip-10-60-19-233.ec2.internal kubelet[2071]: E1103 15:02:37.119804    2071 kubelet_node_status.go:107] "Unable to register node with API server" err="Post \"https://71D0B3E9A5C2F84617E3B9D0A4C6F258.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes\": dial tcp 10.60.37.14:443: i/o timeout" node="ip-10-60-19-233.ec2.internal"
Nov 03 15:03:14 ip-10-60-19-233.ec2.internal kubelet[2071]: E1103 15:03:14.119804    2071 kubelet_node_status.go:107] "Unable to register node with API server" err="Post \"https://71D0B3E9A5C2F84617E3B9D0A4C6F258.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes\": dial tcp 10.60.52.201:443: i/o timeout" node="ip-10-60-19-233.ec2.internal"
`

const partialCluster = `{
    "cluster": {
        "name": "search-stg",
        "arn": "arn:aws:eks:us-east-1:123456789012:cluster/search-stg",
        "version": "1.34",
        "endpoint": "https://71D0B3E9A5C2F84617E3B9D0A4C6F258.gr7.us-east-1.eks.amazonaws.com",
        "resourcesVpcConfig": {
            "subnetIds": ["subnet-0a1b2c3d4e5f60001", "subnet-0a1b2c3d4e5f60002"],
            "securityGroupIds": [],
            "clusterSecurityGroupId": "sg-0a93c5e7b1d2f4068",
            "vpcId": "vpc-0b2d4f6a8c1e35790",
            "endpointPublicAccess": false,
            "endpointPrivateAccess": true,
            "publicAccessCidrs": ["0.0.0.0/0"]
        },
        "status": "ACTIVE"
    }
}`

// partialSG is the node's security group (it admits the control plane to the kubelet on
// 10250): HTTPS out to the endpoints' group and S3's prefix list, and the rule under test;
// others are more groups pasted beside it.
func partialSG(extra string, others ...string) string {
	return fmt.Sprintf(`{
    "SecurityGroups": [%s
        {
            "GroupId": "sg-0f1b3d5c7e9a24680",
            "GroupName": "search-stg-nodes-NodeSecurityGroup",
            "VpcId": "vpc-0b2d4f6a8c1e35790",
            "IpPermissions": [
                {"IpProtocol": "tcp", "FromPort": 10250, "ToPort": 10250, "UserIdGroupPairs": [{"GroupId": "sg-0a93c5e7b1d2f4068"}], "IpRanges": [], "Ipv6Ranges": [], "PrefixListIds": []}
            ],
            "IpPermissionsEgress": [
                {"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "UserIdGroupPairs": [{"GroupId": "sg-06e8a0c2d4f1b3579"}], "IpRanges": [], "Ipv6Ranges": [], "PrefixListIds": []},
                {"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "UserIdGroupPairs": [], "IpRanges": [], "Ipv6Ranges": [], "PrefixListIds": [{"PrefixListId": "pl-63a5400a"}]}%s
            ]
        }
    ]
}`, strings.Join(others, ""), extra)
}

// rdsSG is a database's security group: no kubelet port, no egress.
const rdsSG = `
        {"GroupId": "sg-0rds00000000aaaa1", "GroupName": "prod-rds", "VpcId": "vpc-0b2d4f6a8c1e35790",
         "IpPermissions": [{"IpProtocol": "tcp", "FromPort": 5432, "ToPort": 5432, "UserIdGroupPairs": [{"GroupId": "sg-0f1b3d5c7e9a24680"}], "IpRanges": [], "Ipv6Ranges": [], "PrefixListIds": []}],
         "IpPermissionsEgress": []},`

// partialACL is the node subnet's network ACL with the given inbound rule 100.
func partialACL(inbound string) string {
	return fmt.Sprintf(`{
    "NetworkAcls": [
        {
            "Associations": [{"NetworkAclAssociationId": "aclassoc-0a1b2c3d", "NetworkAclId": "acl-0e4c2a6b8d1f35079", "SubnetId": "subnet-0b6d8f1a3c5e27940"}],
            "Entries": [
                {"CidrBlock": "0.0.0.0/0", "Egress": true, "Protocol": "-1", "RuleAction": "allow", "RuleNumber": 100},
                {"CidrBlock": "0.0.0.0/0", "Egress": true, "Protocol": "-1", "RuleAction": "deny", "RuleNumber": 32767},
                %s
                {"CidrBlock": "0.0.0.0/0", "Egress": false, "Protocol": "-1", "RuleAction": "deny", "RuleNumber": 32767}
            ],
            "IsDefault": false,
            "NetworkAclId": "acl-0e4c2a6b8d1f35079",
            "VpcId": "vpc-0b2d4f6a8c1e35790",
            "OwnerId": "123456789012"
        }
    ]
}`, inbound)
}

// TestPartialNetworkPath: a ticket with the kubelet timing out on the API server and the node's
// security group or network ACL, but no describe-instances (the reachability model has no node
// to walk from), names the blocking rule — only when every way to the endpoint is blocked there,
// and only to explain timeouts the log shows. Commands set off as headings ("==== aws … ====",
// line numbers from a pastebin view) introduce their output.
func TestPartialNetworkPath(t *testing.T) {
	numbered := func(s string) string {
		var b strings.Builder
		for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			fmt.Fprintf(&b, "%3d  %s\n", i+1, l)
		}
		return b.String()
	}
	sgTicket := func(extra, logs string, others ...string) string {
		return "Hi, our nodes never join, all the output below.\n\n" + numbered("==== journalctl -u kubelet ====\n"+logs+"\n==== aws eks describe-cluster --name search-stg ====\n"+partialCluster+"\n\n==== aws ec2 describe-security-groups --group-ids sg-0f1b3d5c7e9a24680 ====\n"+partialSG(extra, others...)) + "\nThanks\n"
	}
	aclTicket := func(inbound string, logs string) string {
		return "New nodes time out, the NACL of their subnet:\n\n```\n" + logs + "```\n\n$ aws ec2 describe-network-acls --filters Name=association.subnet-id,Values=subnet-0b6d8f1a3c5e27940\n" + partialACL(inbound) + "\n"
	}
	tlsTimeouts := strings.SplitAfter(partialKubelet, "\n")[0] + strings.Repeat(`Nov 03 15:02:17 ip-10-60-19-233.ec2.internal kubelet[2071]: E1103 15:02:17.119804    2071 kubelet_node_status.go:107] "Unable to register node with API server" err="Post \"https://71D0B3E9A5C2F84617E3B9D0A4C6F258.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes\": net/http: TLS handshake timeout" node="ip-10-60-19-233.ec2.internal"`+"\n", 2)
	registered := `Nov 03 15:05:01 ip-10-60-19-233.ec2.internal kubelet[2071]: I1103 15:05:01.701486    2071 kubelet_node_status.go:78] "Successfully registered node" node="ip-10-60-19-233.ec2.internal"` + "\n"
	for _, tc := range []struct {
		name, paste, id, want, msg string
	}{
		{"egress only to endpoints and S3", sgTicket("", partialKubelet), "net.sg-node-egress", "fail",
			"no egress rule of sg-0f1b3d5c7e9a24680 allows tcp 443 to the API server's addresses 10.60.37.14, 10.60.52.201 (taking prefix list pl-63a5400a to hold public ranges only"},
		{"egress to the VPC", sgTicket(`,
                {"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "UserIdGroupPairs": [], "IpRanges": [{"CidrIp": "10.60.0.0/16"}], "Ipv6Ranges": [], "PrefixListIds": []}`, partialKubelet), "net.sg-node-egress", "skipped", "missing evidence"},
		{"egress to the cluster security group", sgTicket(`,
                {"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "UserIdGroupPairs": [{"GroupId": "sg-0a93c5e7b1d2f4068"}], "IpRanges": [], "Ipv6Ranges": [], "PrefixListIds": []}`, partialKubelet), "net.sg-node-egress", "skipped", "missing evidence"},
		{"the node's group beside a database's", sgTicket("", partialKubelet, rdsSG), "net.sg-node-egress", "fail", "no egress rule of sg-0f1b3d5c7e9a24680 allows tcp 443"},
		{"a database's group alone", strings.Replace(sgTicket("", partialKubelet), `"FromPort": 10250, "ToPort": 10250`, `"FromPort": 5432, "ToPort": 5432`, 1), "net.sg-node-egress", "skipped", "missing evidence"},
		{"two groups that could be the node's", sgTicket("", partialKubelet, strings.Replace(strings.Replace(rdsSG, "5432", "10250", 2), "sg-0rds00000000aaaa1", "sg-0other0000000bbb2", 1)), "net.sg-node-egress", "skipped", "missing evidence"},
		{"no timeout in the log", sgTicket("", strings.SplitAfter(partialKubelet, "\n")[0]), "net.sg-node-egress", "skipped", "missing evidence"},
		{"timeouts before the node registered", sgTicket("", partialKubelet+registered), "net.sg-node-egress", "skipped", "missing evidence"},
		{"NACL without ephemeral return", aclTicket(`{"CidrBlock": "0.0.0.0/0", "Egress": false, "PortRange": {"From": 443, "To": 443}, "Protocol": "6", "RuleAction": "allow", "RuleNumber": 100},`, partialKubelet), "net.nacl-blocks", "fail",
			"acl-0e4c2a6b8d1f35079 the final * rule (no earlier rule allows it) denies tcp 32768-60999 return traffic in from 10.60.37.14/32"},
		{"NACL, TLS handshakes time out", aclTicket(`{"CidrBlock": "0.0.0.0/0", "Egress": false, "PortRange": {"From": 443, "To": 443}, "Protocol": "6", "RuleAction": "allow", "RuleNumber": 100},`, tlsTimeouts), "net.nacl-blocks", "fail",
			"denies tcp 32768-60999 return traffic in from the public API server endpoint; acl-0e4c2a6b8d1f35079 the final * rule (no earlier rule allows it) denies tcp 32768-60999 return traffic in from the cluster's network interfaces in 10.0.0.0/8"},
		{"NACL with return from the VPC, TLS handshakes time out", aclTicket(`{"CidrBlock": "10.60.0.0/16", "Egress": false, "Protocol": "-1", "RuleAction": "allow", "RuleNumber": 100},`, tlsTimeouts), "net.nacl-blocks", "skipped", "missing evidence"},
		{"NACL of none of the cluster's subnets (a database tier's)", aclTicket(`{"CidrBlock": "0.0.0.0/0", "Egress": false, "PortRange": {"From": 443, "To": 443}, "Protocol": "6", "RuleAction": "allow", "RuleNumber": 100},`, partialKubelet) + "\n$ aws eks describe-cluster --name search-stg\n" + partialCluster + "\n", "net.nacl-blocks", "skipped", "missing evidence"},
		{"NACL of a cluster subnet", strings.Replace(aclTicket(`{"CidrBlock": "0.0.0.0/0", "Egress": false, "PortRange": {"From": 443, "To": 443}, "Protocol": "6", "RuleAction": "allow", "RuleNumber": 100},`, partialKubelet), "subnet-0b6d8f1a3c5e27940", "subnet-0a1b2c3d4e5f60002", -1) + "\n$ aws eks describe-cluster --name search-stg\n" + partialCluster + "\n", "net.nacl-blocks", "fail", "denies tcp 32768-60999 return traffic in from 10.60.37.14/32"},
		{"NACL with ephemeral return", aclTicket(`{"CidrBlock": "0.0.0.0/0", "Egress": false, "PortRange": {"From": 1024, "To": 65535}, "Protocol": "6", "RuleAction": "allow", "RuleNumber": 100},`, partialKubelet), "net.nacl-blocks", "skipped", "missing evidence"},
		{"NACL with return from part of the private block", aclTicket(`{"CidrBlock": "10.60.0.0/16", "Egress": false, "Protocol": "-1", "RuleAction": "allow", "RuleNumber": 100},`, partialKubelet), "net.nacl-blocks", "skipped", "missing evidence"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runStdin(strings.NewReader(tc.paste), "analyze", "-", "-o", "json")
			var r struct {
				Findings []struct{ ID, Status, Message, Remediation string }
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("exit %d: %v %s", code, err, errOut)
			}
			for _, f := range r.Findings {
				if f.ID != tc.id {
					continue
				}
				if f.Status != tc.want || !strings.Contains(f.Message, tc.msg) {
					t.Errorf("%s %s: %s", f.ID, f.Status, f.Message)
				}
				if tc.want == "fail" && (code != ExitFindings || !strings.Contains(f.Message, "the node's instance is not in the input")) {
					t.Errorf("exit %d, message %q", code, f.Message)
				}
				return
			}
			t.Errorf("no %s finding: %s", tc.id, errOut)
		})
	}
}
