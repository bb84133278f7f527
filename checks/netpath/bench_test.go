package netpath

import (
	"fmt"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// bigVPC builds the evidence of one node in a large VPC: scale × (500 subnets, 200 route tables,
// 1,000 security groups with cross-references, 100 network ACLs) and interface endpoints.
func bigVPC(scale int) *evidence.Evidence {
	nSub, nRT, nSG, nACL := 500*scale, 200*scale, 1000*scale, 100*scale
	ev := &evidence.Evidence{Target: evidence.Target{InstanceID: "i-1", Region: "eu-west-1"}}
	ev.Cluster = &evidence.Cluster{Name: "c", Arn: "arn", Endpoint: "https://x", VpcID: "vpc-1", EndpointPrivateAccess: true, EndpointPublicAccess: true,
		ClusterSecurityGroup: "sg-0", SubnetIDs: []string{"subnet-1", "subnet-2"}, PublicAccessCidrs: []string{"0.0.0.0/0"}}
	for i := 0; i < nSub; i++ {
		ev.Subnets = append(ev.Subnets, evidence.Subnet{ID: fmt.Sprintf("subnet-%d", i), VpcID: "vpc-1", CIDR: fmt.Sprintf("10.%d.%d.0/24", i/256, i%256)})
	}
	for i := 0; i < nRT; i++ {
		rt := evidence.RouteTable{ID: fmt.Sprintf("rtb-%d", i), VpcID: "vpc-1", Main: i == 0}
		rt.Routes = append(rt.Routes, evidence.Route{DestinationCIDR: "10.0.0.0/8", Target: "local", State: "active"},
			evidence.Route{DestinationCIDR: "0.0.0.0/0", Target: "nat-1", State: "active"})
		for j := 0; j < 20; j++ {
			rt.Routes = append(rt.Routes, evidence.Route{DestinationCIDR: fmt.Sprintf("172.%d.%d.0/24", 16+j, i%256), Target: "tgw-1", State: "active"})
		}
		for s := i; s < nSub; s += nRT {
			rt.SubnetIDs = append(rt.SubnetIDs, fmt.Sprintf("subnet-%d", s))
		}
		ev.RouteTables = append(ev.RouteTables, rt)
	}
	// the NAT's subnet routes to the internet gateway
	ev.RouteTables = append(ev.RouteTables, evidence.RouteTable{ID: "rtb-pub", VpcID: "vpc-1", SubnetIDs: []string{"subnet-pub"},
		Routes: []evidence.Route{{DestinationCIDR: "0.0.0.0/0", Target: "igw-1", State: "active"}}})
	ev.Subnets = append(ev.Subnets, evidence.Subnet{ID: "subnet-pub", VpcID: "vpc-1", CIDR: "10.255.255.0/24"})
	ev.NATGateways = []evidence.NATGateway{{ID: "nat-1", SubnetID: "subnet-pub", State: "available", ConnectivityType: "public", PublicIPs: []string{"52.1.1.1"}}}
	for i := 0; i < nSG; i++ {
		g := evidence.SecurityGroup{ID: fmt.Sprintf("sg-%d", i), VpcID: "vpc-1"}
		for j := 1; j <= 10; j++ {
			g.Ingress = append(g.Ingress, evidence.SGRule{Protocol: "tcp", FromPort: 8000 + j, ToPort: 8000 + j, GroupIDs: []string{fmt.Sprintf("sg-%d", (i+j)%nSG)}})
			g.Egress = append(g.Egress, evidence.SGRule{Protocol: "tcp", FromPort: 9000 + j, ToPort: 9000 + j, CIDRs: []string{fmt.Sprintf("10.%d.0.0/16", j)}})
		}
		g.Ingress = append(g.Ingress, evidence.SGRule{Protocol: "-1", FromPort: -1, ToPort: -1, GroupIDs: []string{"sg-0", fmt.Sprintf("sg-%d", i)}})
		g.Egress = append(g.Egress, evidence.SGRule{Protocol: "-1", FromPort: -1, ToPort: -1, CIDRs: []string{"0.0.0.0/0"}})
		ev.SecurityGroups = append(ev.SecurityGroups, g)
	}
	for i := 0; i < nACL; i++ {
		a := evidence.NetworkACL{ID: fmt.Sprintf("acl-%d", i), VpcID: "vpc-1", Default: i == 0}
		for j := 0; j < 18; j++ {
			a.Entries = append(a.Entries, evidence.NACLEntry{RuleNumber: 10 + j, Protocol: "6", PortFrom: 20 + j, PortTo: 20 + j, CIDR: "192.0.2.0/24", Allow: false, Egress: j%2 == 0})
		}
		a.Entries = append(a.Entries, evidence.NACLEntry{RuleNumber: 100, Protocol: "-1", CIDR: "0.0.0.0/0", Allow: true},
			evidence.NACLEntry{RuleNumber: 100, Protocol: "-1", CIDR: "0.0.0.0/0", Allow: true, Egress: true})
		for s := i; s < nSub; s += nACL {
			a.SubnetIDs = append(a.SubnetIDs, fmt.Sprintf("subnet-%d", s))
		}
		ev.NetworkACLs = append(ev.NetworkACLs, a)
	}
	for _, svc := range []string{"ec2", "ecr.api", "ecr.dkr", "sts"} {
		ev.VPCEndpoints = append(ev.VPCEndpoints, evidence.VPCEndpoint{ID: "vpce-" + svc, VpcID: "vpc-1", ServiceName: ServiceName("eu-west-1", svc), Type: "Interface",
			State: "available", PrivateDNSEnabled: true, SubnetIDs: []string{"subnet-3", "subnet-4"}, SecurityGroupIDs: []string{"sg-7"}})
	}
	t := true
	ev.VPCAttributes = &evidence.VPCAttributes{VpcID: "vpc-1", EnableDNSSupport: &t, EnableDNSHostnames: &t}
	ev.Instance = &evidence.Instance{ID: "i-1", SubnetID: "subnet-1", VpcID: "vpc-1", PrivateIP: "10.0.1.10", AvailabilityZone: "eu-west-1a",
		SecurityGroupIDs: []string{"sg-0", "sg-1", "sg-2", "sg-3", "sg-4"}}
	for _, k := range []evidence.Kind{evidence.KindInstance, evidence.KindCluster, evidence.KindSubnets, evidence.KindRouteTables, evidence.KindSecurityGroups,
		evidence.KindNetworkACLs, evidence.KindVPCEndpoints, evidence.KindNATGateways, evidence.KindVPCAttributes} {
		ev.Mark(k, "bench")
	}
	return ev
}

func TestBigVPCReachable(t *testing.T) {
	for _, f := range Analyze(bigVPC(1)) {
		if f.Verdict != Reachable {
			t.Errorf("%s: %s", f.Name, Summary(f))
		}
	}
}

// BenchmarkAnalyzeLargeVPC evaluates every flow of one node in a VPC with 500 subnets, 200 route
// tables, 1,000 cross-referencing security groups and 100 network ACLs (scale 1), and twice and
// four times that, to show cost growing linearly with the evidence. Each iteration analyses
// fresh evidence: Analyze memoises its flows on the Evidence, so reusing one would time the memo
// lookup after the first iteration.
func BenchmarkAnalyzeLargeVPC(b *testing.B) {
	for _, scale := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("scale=%d", scale), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				ev := bigVPC(scale)
				b.StartTimer()
				if fs := Analyze(ev); len(fs) != 7 {
					b.Fatalf("%d flows", len(fs))
				}
			}
		})
	}
}
