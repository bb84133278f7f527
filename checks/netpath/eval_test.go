package netpath

import (
	"net/netip"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func pfx(s string) netip.Prefix { return netip.MustParsePrefix(s) }

func TestSelectRoute(t *testing.T) {
	rt := &evidence.RouteTable{ID: "rtb-1", Routes: []evidence.Route{
		{DestinationCIDR: "10.0.0.0/16", Target: "local", State: "active"},
		{DestinationCIDR: "0.0.0.0/0", Target: "nat-1", State: "active"},
		{DestinationCIDR: "10.0.5.0/24", Target: "tgw-1", State: "active"},
		{DestinationCIDR: "192.168.0.0/16", Target: "pcx-1", State: "blackhole"},
		{DestinationPrefixID: "pl-s3", Target: "vpce-1", State: "active"},
		{DestinationCIDR: "2600:1f18::/56", Target: "local", State: "active"},
		{DestinationCIDR: "::/0", Target: "eigw-1", State: "active"},
	}}
	cases := []struct {
		dest, target string
		ok           bool
	}{
		{"10.0.1.23/32", "local", true},
		{"10.0.5.9/32", "tgw-1", true},      // longest prefix wins over local
		{"10.0.0.0/20", "local", true},      // a subnet inside the VPC
		{"10.0.0.0/8", "nat-1", true},       // wider than local: only the default contains it
		{"52.94.0.1/32", "nat-1", true},     // internet
		{"0.0.0.0/0", "nat-1", true},        // the default itself
		{"192.168.1.1/32", "pcx-1", true},   // blackhole routes are still selected
		{"2600:1f18::5/128", "local", true}, // IPv6 local
		{"2a05:d018::1/128", "eigw-1", true},
	}
	for _, tc := range cases {
		r, ok := SelectRoute(rt, pfx(tc.dest))
		if ok != tc.ok || r.Target != tc.target {
			t.Errorf("%s → %s %v, want %s", tc.dest, r.Target, ok, tc.target)
		}
	}
	if _, ok := SelectRoute(&evidence.RouteTable{Routes: []evidence.Route{{DestinationCIDR: "10.0.0.0/16", Target: "local"}}}, pfx("8.8.8.8/32")); ok {
		t.Error("matched without a covering route")
	}
}

func entry(n int, egress bool, proto string, from, to int, cidr string, allow bool) evidence.NACLEntry {
	return evidence.NACLEntry{RuleNumber: n, Egress: egress, Protocol: proto, PortFrom: from, PortTo: to, CIDR: cidr, Allow: allow}
}

func TestEvalNACL(t *testing.T) {
	acl := &evidence.NetworkACL{ID: "acl-1", Entries: []evidence.NACLEntry{
		entry(200, false, "-1", 0, 0, "0.0.0.0/0", true),
		entry(100, false, "6", 22, 22, "0.0.0.0/0", false),          // deny ssh first
		entry(90, false, "6", 1024, 65535, "203.0.113.0/24", false), // deny part of the internet
		entry(32767, false, "-1", 0, 0, "0.0.0.0/0", false),
		entry(100, true, "6", 443, 443, "10.0.0.0/8", true),
		entry(110, true, "6", 0, 65535, "0.0.0.0/0", false),
		entry(120, true, "-1", 0, 0, "::/0", true),
		entry(32767, true, "-1", 0, 0, "0.0.0.0/0", false),
	}}
	cases := []struct {
		name    string
		egress  bool
		ports   PortRange
		peer    string
		allowed bool
		partial bool
		rule    int
	}{
		{"ssh denied before allow-all", false, PortRange{22, 22}, "198.51.100.7/32", false, false, 100},
		{"https in allowed by 200", false, PortRange{443, 443}, "198.51.100.7/32", true, false, 200},
		{"return from denied range", false, EphemeralLinux, "203.0.113.9/32", false, false, 90},
		{"return from the internet: part denied by 90", false, EphemeralLinux, "0.0.0.0/0", true, true, 200},
		{"return from elsewhere", false, EphemeralLinux, "198.51.100.0/24", true, false, 200},
		{"egress 443 inside 10/8", true, PortRange{443, 443}, "10.0.0.0/20", true, false, 100},
		{"egress 443 to the internet denied", true, PortRange{443, 443}, "0.0.0.0/0", false, true, 110},
		{"egress ipv6 allowed by 120", true, PortRange{443, 443}, "2a05:d018::/32", true, false, 120},
		{"egress tcp 10250 to vpc denied", true, PortRange{10250, 10250}, "10.0.1.0/24", false, false, 110},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := EvalNACL(acl, tc.egress, ProtoTCP, tc.ports, pfx(tc.peer))
			if r.Allowed != tc.allowed || r.Partial != tc.partial || r.Rule != tc.rule {
				t.Fatalf("got %+v, want allowed=%v partial=%v rule=%d", r, tc.allowed, tc.partial, tc.rule)
			}
		})
	}
	// a port range that covers only part of the return ports does not allow it
	narrow := &evidence.NetworkACL{Entries: []evidence.NACLEntry{entry(100, false, "6", 1024, 40000, "0.0.0.0/0", true)}}
	if r := EvalNACL(narrow, false, ProtoTCP, EphemeralLinux, pfx("0.0.0.0/0")); r.Allowed || !r.Partial || r.Rule != 32767 {
		t.Errorf("partial port range: %+v", r)
	}
}

// TestEvalNACLPublic: traffic with a host on the internet has a public address at the subnet's
// ACL (a NAT gateway rewrites only the node's side), so a rule for the VPC's private range does not
// make the internet's verdict partial: the first rule that covers public space decides it.
func TestEvalNACLPublic(t *testing.T) {
	acl := &evidence.NetworkACL{ID: "acl-1", Entries: []evidence.NACLEntry{
		entry(100, false, "-1", 0, 0, "10.60.0.0/16", true),
		entry(110, false, "6", 1024, 65535, "0.0.0.0/0", false),
		entry(200, false, "-1", 0, 0, "0.0.0.0/0", true),
		entry(100, true, "6", 443, 443, "100.64.0.0/10", true),
		entry(110, true, "6", 443, 443, "0.0.0.0/1", false),
		entry(120, true, "-1", 0, 0, "0.0.0.0/0", true),
	}}
	if r := EvalNACLPublic(acl, false, ProtoTCP, EphemeralAWS); r.Allowed || r.Partial || r.Rule != 110 {
		t.Errorf("return from the internet: %+v, want denied by 110, not partial", r)
	}
	// half of public space denied first: still partial
	if r := EvalNACLPublic(acl, true, ProtoTCP, PortRange{443, 443}); !r.Allowed || !r.Partial || r.Rule != 120 {
		t.Errorf("egress to the internet: %+v, want allowed by 120, partial", r)
	}
	// the VPC's own range is still judged whole
	if r := EvalNACL(acl, false, ProtoTCP, EphemeralAWS, pfx("10.60.1.0/24")); !r.Allowed || r.Rule != 100 {
		t.Errorf("return from the VPC: %+v", r)
	}
}

// TestEvalSGKnownPrefixLists: a rule naming a prefix list whose contents are known decides the
// verdict (a gateway endpoint's S3 list holds S3, and nothing else); an unknown list leaves it open.
func TestEvalSGKnownPrefixLists(t *testing.T) {
	node := []*evidence.SecurityGroup{{ID: "sg-node", Egress: []evidence.SGRule{
		{Protocol: "tcp", FromPort: 443, ToPort: 443, PrefixListIDs: []string{"pl-s3"}},
	}}}
	internet := []netip.Prefix{pfx("0.0.0.0/0")}
	if r := EvalSG(node, true, ProtoTCP, 443, Peer{Prefixes: internet, PrefixLists: map[string]bool{"pl-s3": false}}); r.Allowed || r.Unknown {
		t.Errorf("API endpoint past an S3-only rule: %+v, want blocked", r)
	}
	if r := EvalSG(node, true, ProtoTCP, 443, Peer{Prefixes: internet, PrefixLists: map[string]bool{"pl-s3": true}}); !r.Allowed {
		t.Errorf("S3 through its own list: %+v, want allowed", r)
	}
	if r := EvalSG(node, true, ProtoTCP, 443, Peer{Prefixes: internet}); r.Allowed || !r.Unknown {
		t.Errorf("unknown list: %+v, want unknown", r)
	}
}

func TestEvalSG(t *testing.T) {
	node := &evidence.SecurityGroup{ID: "sg-node", Egress: []evidence.SGRule{
		{Protocol: "tcp", FromPort: 443, ToPort: 443, CIDRs: []string{"10.0.0.0/16"}},
		{Protocol: "tcp", FromPort: 443, ToPort: 443, GroupIDs: []string{"sg-endpoints"}},
		{Protocol: "tcp", FromPort: 443, ToPort: 443, PrefixListIDs: []string{"pl-s3"}},
		{Protocol: "-1", FromPort: -1, ToPort: -1, CIDRs: []string{"::/0"}},
	}}
	cluster := &evidence.SecurityGroup{ID: "sg-cluster", Ingress: []evidence.SGRule{
		{Protocol: "-1", FromPort: -1, ToPort: -1, GroupIDs: []string{"sg-cluster"}},
		{Protocol: "tcp", FromPort: 443, ToPort: 443, GroupIDs: []string{"sg-node"}},
	}}
	cases := []struct {
		name            string
		groups          []*evidence.SecurityGroup
		egress          bool
		port            int
		peer            Peer
		allowed, unknow bool
	}{
		{"egress by cidr", []*evidence.SecurityGroup{node}, true, 443, Peer{Prefixes: []netip.Prefix{pfx("10.0.0.0/20"), pfx("10.0.16.0/20")}}, true, false},
		{"egress cidr must contain every prefix (only the prefix list could allow it)", []*evidence.SecurityGroup{node}, true, 443, Peer{Prefixes: []netip.Prefix{pfx("10.0.0.0/20"), pfx("10.1.0.0/20")}}, false, true},
		{"egress by referenced group", []*evidence.SecurityGroup{node}, true, 443, Peer{Prefixes: []netip.Prefix{pfx("10.9.0.0/24")}, Groups: []string{"sg-endpoints"}}, true, false},
		{"egress to internet only via prefix list", []*evidence.SecurityGroup{node}, true, 443, Peer{Prefixes: []netip.Prefix{pfx("0.0.0.0/0")}}, false, true},
		{"egress wrong port", []*evidence.SecurityGroup{node}, true, 10250, Peer{Prefixes: []netip.Prefix{pfx("10.0.0.0/20")}}, false, false},
		{"egress ipv6 all traffic", []*evidence.SecurityGroup{node}, true, 10250, Peer{Prefixes: []netip.Prefix{pfx("2600:1f18::/56")}}, true, false},
		{"ingress from node group", []*evidence.SecurityGroup{cluster}, false, 443, Peer{Prefixes: []netip.Prefix{pfx("10.0.1.23/32")}, Groups: []string{"sg-node"}}, true, false},
		{"ingress self reference", []*evidence.SecurityGroup{cluster}, false, 10250, Peer{Groups: []string{"sg-cluster"}}, true, false},
		{"ingress from other group", []*evidence.SecurityGroup{cluster}, false, 443, Peer{Prefixes: []netip.Prefix{pfx("10.0.1.23/32")}, Groups: []string{"sg-other"}}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := EvalSG(tc.groups, tc.egress, ProtoTCP, tc.port, tc.peer)
			if r.Allowed != tc.allowed || r.Unknown != tc.unknow {
				t.Fatalf("got %+v", r)
			}
		})
	}
}

func TestPolicyAllows(t *testing.T) {
	obj := "arn:aws:s3:::prod-eu-west-1-starport-layer-bucket/sha256/abc"
	cases := []struct {
		name string
		p    *evidence.PolicyDocument
		want bool
	}{
		{"default", nil, true},
		{"allow all", &evidence.PolicyDocument{Statement: []evidence.PolicyStatement{{Effect: "Allow", Action: []string{"*"}, Resource: []string{"*"}}}}, true},
		{"starport wildcard", &evidence.PolicyDocument{Statement: []evidence.PolicyStatement{{Effect: "Allow", Action: []string{"s3:Get*"}, Resource: []string{"arn:aws:s3:::prod-*-starport-layer-bucket/*"}}}}, true},
		{"other bucket", &evidence.PolicyDocument{Statement: []evidence.PolicyStatement{{Effect: "Allow", Action: []string{"s3:GetObject"}, Resource: []string{"arn:aws:s3:::prod-artifacts/*"}}}}, false},
		{"deny wins", &evidence.PolicyDocument{Statement: []evidence.PolicyStatement{
			{Effect: "Allow", Action: []string{"*"}, Resource: []string{"*"}},
			{Effect: "Deny", Action: []string{"s3:GetObject"}, Resource: []string{"arn:aws:s3:::prod-eu-west-1-starport-layer-bucket/*"}}}}, false},
	}
	for _, tc := range cases {
		if got, _ := PolicyAllows(tc.p, "s3:GetObject", obj); got != tc.want {
			t.Errorf("%s: got %v", tc.name, got)
		}
	}
}
