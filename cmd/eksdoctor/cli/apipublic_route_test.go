package cli

import (
	"slices"
	"testing"
)

// TestPublicAPIAddressesWithoutDescribeCluster: a paste of the kubelet timing out on the API
// server's public addresses, the node's route tables and its instance — but no describe-cluster —
// judges the way to the API server as the kubelet took it: public addresses are reached through
// the internet path of the node's subnet, which no VPC endpoint serves, so a blackhole default
// route (its NAT gateway deleted) or none at all is the cause (blind pastes27/03 ranked the
// timeouts first and left net.no-egress-route unverified for want of the VPC endpoints). Timeouts
// to a private address (a private endpoint) or a working default route judge nothing.
func TestPublicAPIAddressesWithoutDescribeCluster(t *testing.T) {
	kubelet := func(addr string) string {
		return "$ journalctl -u kubelet --no-pager | tail -n 2\n" +
			"Sep 22 14:08:01 ip-10-80-131-14.ec2.internal kubelet[2604]: E0922 14:08:01.561744    2604 kubelet_node_status.go:107] \"Unable to register node with API server\" err=\"Post \\\"https://E25C7A90D3F1.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes\\\": dial tcp " + addr + ":443: i/o timeout\" node=\"ip-10-80-131-14.ec2.internal\"\n" +
			"Sep 22 14:09:08 ip-10-80-131-14.ec2.internal kubelet[2604]: E0922 14:09:08.578390    2604 kubelet_node_status.go:107] \"Unable to register node with API server\" err=\"Post \\\"https://E25C7A90D3F1.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes\\\": dial tcp " + addr + ":443: i/o timeout\" node=\"ip-10-80-131-14.ec2.internal\"\n\n"
	}
	routes := func(def string) string {
		return "$ aws ec2 describe-route-tables --filters Name=association.subnet-id,Values=subnet-0b5c91e7f2a84d3d0\n" +
			`{"RouteTables": [{"Associations": [{"Main": false, "RouteTableId": "rtb-0a47d3c8e9f1b2657", "SubnetId": "subnet-0b5c91e7f2a84d3d0"}],` +
			` "RouteTableId": "rtb-0a47d3c8e9f1b2657", "VpcId": "vpc-0c2f8a61d4e97b305", "Routes": [` +
			`{"DestinationCidrBlock": "10.80.0.0/16", "GatewayId": "local", "Origin": "CreateRouteTable", "State": "active"}` + def + `]}]}` + "\n\n"
	}
	instance := "$ aws ec2 describe-instances --instance-ids i-06d2b9e4f1a7c3850\n" +
		`{"Reservations": [{"Instances": [{"InstanceId": "i-06d2b9e4f1a7c3850", "PrivateDnsName": "ip-10-80-131-14.ec2.internal", "PrivateIpAddress": "10.80.131.14",` +
		` "SubnetId": "subnet-0b5c91e7f2a84d3d0", "VpcId": "vpc-0c2f8a61d4e97b305", "State": {"Name": "running"}, "Placement": {"AvailabilityZone": "us-east-1b"},` +
		` "SecurityGroups": [{"GroupId": "sg-0a58e3c71d2f94b60", "GroupName": "eks-cluster-sg"}], "Tags": [{"Key": "eks:cluster-name", "Value": "fleet-telemetry"}]}]}]}` + "\n"
	blackhole := `, {"DestinationCidrBlock": "0.0.0.0/0", "NatGatewayId": "nat-0e91c4b7a2d53f086", "Origin": "CreateRoute", "State": "blackhole"}`
	igw := `, {"DestinationCidrBlock": "0.0.0.0/0", "GatewayId": "igw-0b74e2c9d1a58f3e6", "Origin": "CreateRoute", "State": "active"}`
	for _, c := range []struct {
		name, paste string
		cause       string // "" when net.no-egress-route may not fail
	}{
		{"public addresses, blackhole default route", kubelet("44.213.87.19") + routes(blackhole) + instance, "net.no-egress-route"},
		{"public addresses, no default route", kubelet("44.213.87.19") + routes("") + instance, "net.no-egress-route"},
		{"private address, blackhole default route", kubelet("10.80.12.7") + routes(blackhole) + instance, ""},
		{"public addresses, internet gateway", kubelet("44.213.87.19") + routes(igw) + instance, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, r, _, errOut := analyze(t, c.paste, "-")
			got := failing(r)
			if c.cause == "" {
				if slices.Contains(got, "net.no-egress-route") {
					t.Errorf("net.no-egress-route fails: %v\n%s", got, errOut)
				}
				return
			}
			if r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != c.cause {
				cause := "none"
				if r.Diagnosis.MostLikelyCause != nil {
					cause = *r.Diagnosis.MostLikelyCause
				}
				t.Errorf("cause %s (want %s), failing %v\n%s", cause, c.cause, got, errOut)
			}
		})
	}
}
