package ingest

import (
	"slices"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestEC2Narrowing reads the filters and IDs of a pasted `aws ec2 describe-…` command line:
// shorthand (one or several after the flag, several values), JSON, describe-nat-gateways'
// --filter, --…-ids, and a --query cutting a list inside the items; a filter it does not
// understand says nothing, and a command that narrows nothing is no narrowing.
func TestEC2Narrowing(t *testing.T) {
	n, ok := ec2Narrowing(`aws ec2 describe-route-tables --filters Name=vpc-id,Values=vpc-1 "Name=association.main,Values=true" --query 'RouteTables[].Routes[0]'`, "paste:x:3")
	if !ok || n.One("vpc-id") != "vpc-1" || n.One("association.main") != "true" || n.OneOf != "Routes" || n.Subset() == "" || !strings.Contains(n.Origin, "paste:x:3") {
		t.Errorf("shorthand: %+v %v", n, ok)
	}
	n, ok = ec2Narrowing(`aws ec2 describe-vpc-endpoints --filters '[{"Name":"vpc-id","Values":["vpc-2"]}]'`, "o")
	if !ok || n.One("vpc-id") != "vpc-2" || n.Subset() != "" {
		t.Errorf("JSON, VPC only: %+v %v (a VPC's listing is whole)", n, ok)
	}
	n, ok = ec2Narrowing(`aws ec2 describe-nat-gateways --filter Name=subnet-id,Values=subnet-1,subnet-2 --nat-gateway-ids nat-1 nat-2`, "o")
	if !ok || len(n.Filters["subnet-id"]) != 2 || !slices.Equal(n.IDs, []string{"nat-1", "nat-2"}) || n.One("subnet-id") != "" {
		t.Errorf("--filter and IDs: %+v %v", n, ok)
	}
	for _, cmd := range []string{
		`aws ec2 describe-route-tables --filters Name=vpc-id`,
		`aws ec2 describe-route-tables`,
		`aws eks describe-cluster --name x`,
	} {
		if n, ok := ec2Narrowing(cmd, "o"); ok {
			t.Errorf("%s: %+v", cmd, n)
		}
	}
}

// TestPastedRouteTableOfSubnet: a route table pasted under a filter on the node's subnet, whose
// --query dropped its ID and associations, is that subnet's table (SelectedBy names the filter);
// a NAT gateway narrowed to its addresses under --nat-gateway-ids is that gateway, its state
// unknown; endpoints under a vpc-id filter are that VPC's, what the query dropped unknown.
func TestPastedRouteTableOfSubnet(t *testing.T) {
	paste := "$ aws ec2 describe-instances --instance-ids i-0abc --query 'Reservations[].Instances[].[InstanceId,SubnetId,PrivateIpAddress]' --output text\n" +
		"i-0abc\tsubnet-0n1\t10.1.2.3\n\n" +
		"$ aws ec2 describe-route-tables --filters Name=association.subnet-id,Values=subnet-0n1 --query 'RouteTables[].Routes[]'\n" +
		`[{"DestinationCidrBlock": "10.1.0.0/16", "GatewayId": "local", "State": "active"}, {"DestinationCidrBlock": "0.0.0.0/0", "NatGatewayId": "nat-0n", "State": "active"}]` + "\n\n" +
		"$ aws ec2 describe-nat-gateways --nat-gateway-ids nat-0n --query 'NatGateways[].NatGatewayAddresses[]'\n" +
		`[{"PublicIp": "192.0.2.9"}]` + "\n\n" +
		"$ aws ec2 describe-vpc-endpoints --filters Name=vpc-id,Values=vpc-0v --query 'VpcEndpoints[].[ServiceName,VpcEndpointType]' --output text\n" +
		"com.amazonaws.us-east-1.s3\tGateway\n\n"
	ev := Read([]byte(paste), "p.txt", Options{}).Evidence
	if len(ev.RouteTables) != 1 || !slices.Equal(ev.RouteTables[0].SubnetIDs, []string{"subnet-0n1"}) || !strings.Contains(ev.RouteTables[0].SelectedBy, "association.subnet-id") {
		t.Fatalf("route tables %+v", ev.RouteTables)
	}
	if why := ev.SubsetOf(evidence.KindRouteTables); !strings.Contains(why, "association.subnet-id") {
		t.Errorf("route tables subset %q", why)
	}
	if len(ev.NATGateways) != 1 || ev.NATGateways[0].ID != "nat-0n" || ev.NATGateways[0].State != "" || ev.SubsetOf(evidence.KindNATGateways) == "" {
		t.Errorf("NAT gateways %+v (subset %q)", ev.NATGateways, ev.SubsetOf(evidence.KindNATGateways))
	}
	if len(ev.VPCEndpoints) != 1 || ev.VPCEndpoints[0].VpcID != "vpc-0v" || !ev.VPCEndpoints[0].RoutesUnknown || !ev.VPCEndpoints[0].PolicyUnknown || !ev.VPCEndpoints[0].PrivateDNSUnknown {
		t.Errorf("endpoints %+v", ev.VPCEndpoints)
	}
}
