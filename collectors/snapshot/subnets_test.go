package snapshot

import (
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestClusterAndInstanceSubnetsAgree: the cluster's evidence converts subnets exactly as an
// instance's does (issue 11: the cluster-wide copy used to drop MapPublicIpOnLaunch and the IPv6
// blocks).
func TestClusterAndInstanceSubnetsAgree(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files["ec2/describe-subnets.json"] = []byte(`{"Subnets":[{"SubnetId":"subnet-0a11b22c33d44e551","VpcId":"vpc-0b1a2c3d4e5f60718","CidrBlock":"10.0.1.0/24",
		"AvailableIpAddressCount":200,"AvailabilityZone":"eu-west-1a","MapPublicIpOnLaunch":true,
		"Ipv6CidrBlockAssociationSet":[{"Ipv6CidrBlock":"2a05:d018:1:100::/64","AssociationId":"subnet-cidr-assoc-1"}]}]}`)
	s := FromFiles("snapshot", files)
	cl := s.ClusterEvidence("prod")
	in, err := s.Evidence("i-0a1b2c3d4e5f60001", "")
	if err != nil {
		t.Fatal(err)
	}
	for name, ev := range map[string]*evidence.Evidence{"cluster": cl, "instance": in} {
		if len(ev.Subnets) != 1 || !ev.Subnets[0].MapPublicIPOnLaunch || len(ev.Subnets[0].IPv6CIDRs) != 1 || ev.Subnets[0].IPv6CIDRs[0] != "2a05:d018:1:100::/64" {
			t.Errorf("%s subnets: %+v", name, ev.Subnets)
		}
	}
}
