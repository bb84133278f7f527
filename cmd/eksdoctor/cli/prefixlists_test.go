package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// plSG is the node's security group of a paste whose only HTTPS egress names the customer-managed
// prefix list pl-0f1e2d3c4b5a69788 (and DNS to the resolver).
const plSG = `{
    "SecurityGroups": [
        {
            "GroupId": "sg-0f1b3d5c7e9a24680",
            "GroupName": "search-stg-nodes",
            "VpcId": "vpc-0b2d4f6a8c1e35790",
            "IpPermissions": [
                {"IpProtocol": "tcp", "FromPort": 10250, "ToPort": 10250, "UserIdGroupPairs": [{"GroupId": "sg-0a93c5e7b1d2f4068"}], "IpRanges": [], "Ipv6Ranges": [], "PrefixListIds": []}
            ],
            "IpPermissionsEgress": [
                {"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "UserIdGroupPairs": [], "IpRanges": [], "Ipv6Ranges": [], "PrefixListIds": [{"PrefixListId": "pl-0f1e2d3c4b5a69788"}]},
                {"IpProtocol": "udp", "FromPort": 53, "ToPort": 53, "UserIdGroupPairs": [], "IpRanges": [{"CidrIp": "10.60.0.2/32"}], "Ipv6Ranges": [], "PrefixListIds": []}
            ]
        }
    ]
}`

// plDescribed is describe-managed-prefix-lists of the list, owned by owner.
func plDescribed(owner, name string) string {
	return `$ aws ec2 describe-managed-prefix-lists --prefix-list-ids pl-0f1e2d3c4b5a69788
{
    "PrefixLists": [
        {
            "PrefixListId": "pl-0f1e2d3c4b5a69788",
            "AddressFamily": "IPv4",
            "State": "create-complete",
            "PrefixListArn": "arn:aws:ec2:us-east-1:123456789012:prefix-list/pl-0f1e2d3c4b5a69788",
            "PrefixListName": "` + name + `",
            "MaxEntries": 10,
            "Version": 3,
            "Tags": [],
            "OwnerId": "` + owner + `"
        }
    ]
}
`
}

// plEntries is get-managed-prefix-list-entries output holding cidrs, under command (empty: the
// output alone, in a fence).
func plEntries(command string, cidrs ...string) string {
	var es []string
	for _, c := range cidrs {
		es = append(es, `{"Cidr": "`+c+`", "Description": "range"}`)
	}
	body := "{\n    \"Entries\": [\n        " + strings.Join(es, ",\n        ") + "\n    ]\n}\n"
	if command == "" {
		return "```\n" + body + "```\n"
	}
	return "$ " + command + "\n" + body
}

// TestPrefixListsPartialPath: the partial network path (security groups and kubelet timeouts, no
// describe-instances) judges a prefix list of the node's group by its entries when they are
// pasted; a customer-managed list described without its entries blames nothing and says which
// list's entries are missing; a list not described keeps the AWS-managed assumption (public
// ranges only). Entries pasted without their command line cannot be placed: an input problem.
func TestPrefixListsPartialPath(t *testing.T) {
	ticket := func(extra ...string) string {
		return "Nodes never join.\n\n```\n" + partialKubelet + "```\n\n$ aws eks describe-cluster --name search-stg\n" + partialCluster +
			"\n\n$ aws ec2 describe-security-groups --group-ids sg-0f1b3d5c7e9a24680\n" + plSG + "\n\n" + strings.Join(extra, "\n")
	}
	const getEntries = "aws ec2 get-managed-prefix-list-entries --prefix-list-id pl-0f1e2d3c4b5a69788"
	for _, tc := range []struct {
		name, paste, want string
		msgs              []string
		problem           string
	}{
		{"customer-managed list holding the VPC, with its entries", ticket(plDescribed("123456789012", "internal-vpc-ranges"), plEntries(getEntries, "10.60.0.0/16", "192.168.0.0/16")),
			"skipped", []string{"missing evidence"}, ""},
		{"customer-managed list of another range only", ticket(plDescribed("123456789012", "internal-vpc-ranges"), plEntries(getEntries, "192.168.0.0/16")),
			"fail", []string{"no egress rule of sg-0f1b3d5c7e9a24680 allows tcp 443 to the API server's addresses 10.60.37.14, 10.60.52.201",
				"prefix list pl-0f1e2d3c4b5a69788 (internal-vpc-ranges) holds none of these addresses: its entries are 192.168.0.0/16"}, ""},
		{"entries alone, without the description", ticket(plEntries(getEntries, "10.60.0.0/16")),
			"skipped", []string{"missing evidence"}, ""},
		{"customer-managed list described without its entries", ticket(plDescribed("123456789012", "internal-vpc-ranges")),
			"skipped", []string{"missing evidence", "pl-0f1e2d3c4b5a69788 (internal-vpc-ranges)", "customer-managed", "aws ec2 get-managed-prefix-list-entries --prefix-list-id pl-0f1e2d3c4b5a69788"}, ""},
		{"AWS-managed list described without its entries", ticket(plDescribed("AWS", "com.amazonaws.us-east-1.s3")),
			"fail", []string{"taking prefix list pl-0f1e2d3c4b5a69788 (com.amazonaws.us-east-1.s3) to hold public ranges only, as AWS-managed lists do"}, ""},
		{"list neither described nor listed", ticket(),
			"fail", []string{"taking prefix list pl-0f1e2d3c4b5a69788 to hold public ranges only, as AWS-managed lists do"}, ""},
		{"entries without their command line", ticket(plDescribed("123456789012", "internal-vpc-ranges"), plEntries("", "10.60.0.0/16")),
			"skipped", []string{"missing evidence", "pl-0f1e2d3c4b5a69788 (internal-vpc-ranges)"}, "get-managed-prefix-list-entries output does not say which pl-id it is of, and no command line with --prefix-list-id is shown above it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runStdin(strings.NewReader(tc.paste), "analyze", "-", "-o", "json")
			var r struct {
				Findings      []struct{ ID, Status, Message string }
				InputProblems []struct{ Path, Problem string }
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("exit %d: %v %s", code, err, errOut)
			}
			found := false
			for _, f := range r.Findings {
				if f.ID != "net.sg-node-egress" {
					continue
				}
				found = true
				if f.Status != tc.want {
					t.Errorf("%s %s: %s", f.ID, f.Status, f.Message)
				}
				for _, m := range tc.msgs {
					if !strings.Contains(f.Message, m) {
						t.Errorf("message %q lacks %q", f.Message, m)
					}
				}
			}
			if !found {
				t.Fatalf("no net.sg-node-egress finding: %s", errOut)
			}
			if code != ExitFindings {
				// the kubelet's timeouts (runtime.apiserver-timeout) fail whatever the groups say
				t.Errorf("exit %d, want %d", code, ExitFindings)
			}
			got := false
			for _, p := range r.InputProblems {
				got = got || (tc.problem != "" && strings.Contains(p.Problem, tc.problem))
			}
			if tc.problem != "" && !got {
				t.Errorf("no input problem %q: %+v", tc.problem, r.InputProblems)
			}
		})
	}
}

// TestPrefixListsFullModel: a snapshot whose node security group allows HTTPS only to a
// customer-managed prefix list is judged on the list's entries
// (ec2/get-managed-prefix-list-entries/<pl-id>.json): the API server flow (private endpoint, in
// the VPC) is reachable when an entry holds the cluster's subnets, blocked naming the list when
// none does, and unknown naming the list when the entries are not in the snapshot.
func TestPrefixListsFullModel(t *testing.T) {
	const pl = plNode
	setup := func(t *testing.T, entries ...string) string {
		dir := copyDir(t, "../../../fixtures/snapshots/net-sg-node-egress")
		withPrefixList(t, dir, entries...)
		return dir
	}
	for _, tc := range []struct {
		name    string
		entries []string
		verdict string
		detail  string
		// the check's status and message, and the exit code: the flows to the AWS services (the
		// internet) are blocked when the list's entries say it holds only private ranges, and
		// cannot be judged without them (inconclusive)
		status, msg string
		code        int
	}{
		{"an entry holds the cluster's subnets", []string{"192.168.0.0/16", "10.0.0.0/16"}, "reachable", "prefix list " + pl + " (corp-ranges, entry 10.0.0.0/16)",
			"fail", "flows ec2, ecr.api, ecr.dkr, sts, s3 blocked at security group egress: no egress rule of sg-0e1f2a3b4c5d6e7f8 allows tcp 443 to 0.0.0.0/0; prefix list " + pl + " (corp-ranges) holds no public address: its entries are 192.168.0.0/16, 10.0.0.0/16", ExitFindings},
		{"no entry holds them", []string{"192.168.0.0/16"}, "blocked", "prefix list " + pl + " (corp-ranges) holds none of these addresses: its entries are 192.168.0.0/16",
			"fail", "flows api-server, ec2, ecr.api, ecr.dkr, sts, s3 blocked at security group egress", ExitFindings},
		{"entries not in the snapshot", nil, "unknown", "only sg-0e1f2a3b4c5d6e7f8 egress tcp 443 prefix list " + pl + " (corp-ranges) could allow it (prefix list entries are not in the evidence)",
			"skipped", "cannot verify: api-server: only sg-0e1f2a3b4c5d6e7f8 egress tcp 443 prefix list " + pl + " (corp-ranges) could allow it", ExitNothingChecked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60024", "--snapshot", setup(t, tc.entries...), "-o", "json")
			var in struct {
				Paths []struct {
					Flow, Verdict string
					Hops          []struct{ Hop, Verdict, Detail, Check string }
				}
				Findings []struct{ ID, Status, Message string }
			}
			if err := json.Unmarshal([]byte(out), &in); err != nil {
				t.Fatalf("exit %d: %v %s", code, err, errOut)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			seen := false
			for _, f := range in.Paths {
				if f.Flow != "api-server" {
					continue
				}
				for _, h := range f.Hops {
					if h.Hop != "security group egress" {
						continue
					}
					seen = true
					if h.Verdict != tc.verdict || !strings.Contains(h.Detail, tc.detail) || h.Check != "net.sg-node-egress" {
						t.Errorf("api-server security group egress %s (%s): %s", h.Verdict, h.Check, h.Detail)
					}
				}
			}
			if !seen {
				t.Fatalf("no api-server security group egress hop: %+v", in.Paths)
			}
			for _, f := range in.Findings {
				if f.ID == "net.sg-node-egress" && (f.Status != tc.status || !strings.Contains(f.Message, tc.msg)) {
					t.Errorf("net.sg-node-egress %s: %s", f.Status, f.Message)
				}
			}
		})
	}
}
