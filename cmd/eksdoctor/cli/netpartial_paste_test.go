package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestNetworkPathWithoutSubnetRecord: a paste of describe-cluster, describe-instances narrowed to
// [InstanceId,SubnetId,…] --output text, the route table filtered on the node's subnet with
// --query 'RouteTables[].Routes[]', NAT gateways and VPC endpoints — but no describe-subnets —
// judges the network path on the subnet known by its ID (its VPC the cluster's): a blackholed
// default route, missing ECR endpoints of a private cluster, a NAT Elastic IP outside
// publicAccessCidrs are each the cause. A route table filtered on another subnet, on the VPC
// alone, or on the main association, a --query that kept one route, a NAT gateway whose state was
// narrowed away, and a route table of the node's subnet in another VPC judge nothing.
func TestNetworkPathWithoutSubnetRecord(t *testing.T) {
	cluster := func(private, public bool, cidrs string) string {
		return "$ aws eks describe-cluster --name ledger --query cluster.resourcesVpcConfig --output yaml\n" +
			"subnetIds:\n- subnet-0aaa1111bbbb2222c\n- subnet-0ddd3333eeee4444f\nvpcId: vpc-0123456789abcdef0\n" +
			"endpointPublicAccess: " + map[bool]string{true: "true", false: "false"}[public] + "\n" +
			"endpointPrivateAccess: " + map[bool]string{true: "true", false: "false"}[private] + "\n" + cidrs + "\n"
	}
	instance := "$ aws ec2 describe-instances --instance-ids i-0feedfacecafe1234 --query 'Reservations[].Instances[].[InstanceId,SubnetId,PrivateIpAddress]' --output text\n" +
		"i-0feedfacecafe1234\tsubnet-0aaa1111bbbb2222c\t10.9.3.14\n\n"
	routes := func(filter, query, body string) string {
		return "$ aws ec2 describe-route-tables " + filter + " --query '" + query + "'\n" + body + "\n"
	}
	local := `{"DestinationCidrBlock": "10.9.0.0/16", "GatewayId": "local", "State": "active"}`
	natRoute := func(state string) string {
		return `{"DestinationCidrBlock": "0.0.0.0/0", "NatGatewayId": "nat-0abc1234def567890", "State": "` + state + `"}`
	}
	s3Route := `{"DestinationPrefixListId": "pl-63a5400a", "GatewayId": "vpce-0s3s3s3s3s3s3s3s3", "State": "active"}`
	ownFilter := "--filters Name=association.subnet-id,Values=subnet-0aaa1111bbbb2222c"
	endpoints := func(lines ...string) string {
		return "$ aws ec2 describe-vpc-endpoints --filters Name=vpc-id,Values=vpc-0123456789abcdef0 --query 'VpcEndpoints[].[VpcEndpointId,ServiceName,VpcEndpointType,State]' --output text\n" +
			strings.Join(lines, "\n") + "\n\n"
	}
	s3 := "vpce-0s3s3s3s3s3s3s3s3\tcom.amazonaws.eu-west-3.s3\tGateway\tavailable"
	nat := func(query, body string) string {
		return "$ aws ec2 describe-nat-gateways --nat-gateway-ids nat-0abc1234def567890 --query '" + query + "'\n" + body + "\n\n"
	}
	natEIP := nat("NatGateways[].NatGatewayAddresses[]", `[{"AllocationId": "eipalloc-0aa", "PublicIp": "198.51.100.77", "PrivateIp": "10.9.0.5"}]`)
	publicOnly := cluster(false, true, "publicAccessCidrs:\n- 203.0.113.0/24")

	for _, c := range []struct {
		name, paste string
		cause       string   // "" when nothing may fail
		mustNot     []string // may not fail
	}{
		{"blackholed NAT route", cluster(true, false, "") + instance + routes(ownFilter, "RouteTables[].Routes",
			"[["+local+","+natRoute("blackhole")+","+s3Route+"]]") + endpoints(s3),
			"net.no-egress-route", []string{"net.s3-endpoint-policy", "net.vpc-endpoints-missing"}},
		{"private cluster without ECR endpoints", cluster(true, false, "") + instance + routes(ownFilter, "RouteTables[].Routes[]",
			"["+local+","+s3Route+"]") + "$ aws ec2 describe-vpc-endpoints --filters Name=vpc-id,Values=vpc-0123456789abcdef0 --query 'VpcEndpoints[].[ServiceName,VpcEndpointType,PrivateDnsEnabled]' --output text\n" +
			"com.amazonaws.eu-west-3.s3\tGateway\tFalse\ncom.amazonaws.eu-west-3.ec2\tInterface\tTrue\ncom.amazonaws.eu-west-3.sts\tInterface\tTrue\n\n",
			"net.vpc-endpoints-missing", []string{"net.vpc-endpoint-private-dns", "net.no-egress-route"}},
		{"NAT Elastic IP outside publicAccessCidrs", publicOnly + instance + routes(ownFilter, "RouteTables[].Routes[]",
			"["+local+","+natRoute("active")+"]") + natEIP,
			"net.endpoint-public-cidrs", []string{"net.no-egress-route", "net.endpoint-unreachable"}},
		// negative shapes: nothing the paste shows blocks, or nothing says the table is the node's
		{"table filtered on another subnet", cluster(true, false, "") + instance + routes("--filters Name=association.subnet-id,Values=subnet-0ddd3333eeee4444f", "RouteTables[].Routes[]",
			"["+local+","+natRoute("blackhole")+"]"), "", nil},
		{"tables filtered on the VPC only", cluster(true, false, "") + instance + routes("--filters Name=vpc-id,Values=vpc-0123456789abcdef0", "RouteTables[].Routes",
			"[["+local+"],["+local+","+natRoute("blackhole")+"]]"), "", nil},
		{"main table, association unknown", cluster(true, false, "") + instance + routes("--filters Name=vpc-id,Values=vpc-0123456789abcdef0 Name=association.main,Values=true", "RouteTables[].Routes[]",
			"["+local+"]"), "", nil},
		{"one route kept by the query", publicOnly + instance + routes(ownFilter, "RouteTables[0].Routes[0]", local), "", nil},
		{"NAT gateway state narrowed away, EIP inside the CIDRs", cluster(false, true, "publicAccessCidrs:\n- 198.51.100.0/24") + instance +
			routes(ownFilter, "RouteTables[].Routes[]", "["+local+","+natRoute("active")+"]") + natEIP, "", nil},
		{"node's route table in another VPC", publicOnly + instance +
			"$ aws ec2 describe-route-tables " + ownFilter + " --query 'RouteTables[].{VpcId:VpcId,Routes:Routes}'\n" +
			`[{"VpcId": "vpc-0999999999999999", "Routes": [` + local + "," + natRoute("active") + "]}]\n\n" + natEIP, "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, r, _, errOut := analyze(t, c.paste, "-")
			got := failing(r)
			if c.cause == "" {
				if len(got) > 0 {
					t.Errorf("failing %v, want none (exit %d)\n%s", got, code, errOut)
				}
				return
			}
			if r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != c.cause || code != ExitFindings {
				t.Errorf("cause %v (want %s), exit %d, failing %v\n%s", r.Diagnosis.MostLikelyCause, c.cause, code, got, errOut)
			}
			for _, id := range c.mustNot {
				if slices.Contains(got, id) {
					t.Errorf("%s fails: %v", id, got)
				}
			}
		})
	}
}
