package ingest

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// consoleRTB is a route table's page copied out of the VPC console: Details, then the Routes tab.
const consoleRTB = "VPC > Route tables > rtb-0123456789abcdef0 / app-private-a\n" +
	"\n" +
	"rtb-0123456789abcdef0 / app-private-a\n" +
	"Actions\nDetails\nRoute table ID\nrtb-0123456789abcdef0\nMain\nNo\n" +
	"Explicit subnet associations\nsubnet-0aaaaaaaaaaaaaaa1 / app-private-a\n" +
	"Edge associations\n–\nVPC\nvpc-0bbbbbbbbbbbbbbb2 | app\nOwner ID\n111122223333\n" +
	"Routes\nSubnet associations\nEdge associations\nRoute propagation\nTags\n" +
	"Routes (3)\nBoth\nEdit routes\nFilter routes\n" +
	"Destination\tTarget\tStatus\tPropagated\n" +
	"0.0.0.0/0\tnat-0ccccccccccccccc3\tBlackhole\tNo\n" +
	"10.0.0.0/16\tlocal\tActive\tNo\n" +
	"pl-6ea54007\tvpce-0ddddddddddddddd4\tActive\tNo\n"

// consoleACL is a network ACL's page: Details, both rule tabs (Allow/Deny on a line of its own,
// as the console copies it) and the Subnet associations tab.
const consoleACL = "VPC > Network ACLs > acl-0123456789abcdef0 / app-private\n" +
	"\n" +
	"acl-0123456789abcdef0 / app-private\n" +
	"Details\nNetwork ACL ID\nacl-0123456789abcdef0\nAssociated with\n1 Subnet\nDefault\nNo\n" +
	"VPC ID\nvpc-0bbbbbbbbbbbbbbb2 / app\nOwner\n111122223333\n" +
	"Inbound rules (3)\nEdit inbound rules\nFilter inbound rules\n" +
	"Rule number\tType\tProtocol\tPort range\tSource\tAllow/Deny\n" +
	"100\tHTTPS (443)\tTCP (6)\t443\t0.0.0.0/0\t\nAllow\n" +
	"130\tCustom UDP\tUDP (17)\t1024 - 65535\t0.0.0.0/0\t\nAllow\n" +
	"*\tAll traffic\tAll\tAll\t0.0.0.0/0\t\nDeny\n" +
	"\n" +
	"Outbound rules (2)\n" +
	"Rule number\tType\tProtocol\tPort range\tDestination\tAllow/Deny\n" +
	"100\tAll traffic\tAll\tAll\t0.0.0.0/0\tAllow\n" +
	"*\tAll traffic\tAll\tAll\t0.0.0.0/0\tDeny\n" +
	"\n" +
	"Subnet associations (1)\n" +
	"Name\tSubnet ID\tIPv4 CIDR\tIPv6 CIDR\n" +
	"app-private-a\tsubnet-0aaaaaaaaaaaaaaa1\t10.0.32.0/20\t–\n"

const consoleTail = "\nEC2 > Instances > i-0eeeeeeeeeeeeeee5 > Get system log\n" +
	"Jun 20 07:41:31 ip-10-0-33-4 kubelet[1234]: E0620 07:41:31.000000    1234 kubelet_node_status.go:107] \"Unable to register node with API server\" err=\"Post \\\"https://ABC.gr7.eu-west-1.eks.amazonaws.com/api/v1/nodes\\\": dial tcp 3.1.2.3:443: i/o timeout\"\n"

// TestConsoleRouteTableIsReadAsDescribeRouteTables: the VPC console's route table page
// (Details and the Routes tab as tab-separated rows with Active/Blackhole statuses) is read as
// describe-route-tables output, with the page's lines as origin, and the log below it is still
// read as a log.
func TestConsoleRouteTableIsReadAsDescribeRouteTables(t *testing.T) {
	r := Read([]byte(consoleRTB+consoleTail), "stdin", Options{})
	ev := r.Evidence
	if !ev.Have(evidence.KindRouteTables) || len(ev.RouteTables) != 1 {
		t.Fatalf("route tables %+v (segments %v)", ev.RouteTables, labels(r.Segments))
	}
	rt := ev.RouteTables[0]
	if rt.ID != "rtb-0123456789abcdef0" || rt.VpcID != "vpc-0bbbbbbbbbbbbbbb2" || rt.Main || strings.Join(rt.SubnetIDs, ",") != "subnet-0aaaaaaaaaaaaaaa1" {
		t.Errorf("table %+v", rt)
	}
	want := []evidence.Route{
		{DestinationCIDR: "0.0.0.0/0", Target: "nat-0ccccccccccccccc3", State: "blackhole"},
		{DestinationCIDR: "10.0.0.0/16", Target: "local", State: "active"},
		{DestinationPrefixID: "pl-6ea54007", Target: "vpce-0ddddddddddddddd4", State: "active"},
	}
	if len(rt.Routes) != len(want) {
		t.Fatalf("routes %+v", rt.Routes)
	}
	for i, w := range want {
		if rt.Routes[i] != w {
			t.Errorf("route %d = %+v, want %+v", i, rt.Routes[i], w)
		}
	}
	if src := ev.Source(evidence.KindRouteTables); src != "paste:stdin:1-30" {
		t.Errorf("origin %q", src)
	}
	if !ev.Have(evidence.KindNodeLogs) || len(ev.NodeLogs.Hits) == 0 {
		t.Errorf("the log below the page was not read (segments %v)", labels(r.Segments))
	}
}

// TestConsoleNACLIsReadAsDescribeNetworkACLs: a network ACL's page with both rule tabs and its
// subnet associations is read as describe-network-acls output: "*" is rule 32767, "TCP (6)"
// protocol 6, "1024 - 65535" a port range, "All" no port range, and an Allow/Deny on a line of
// its own belongs to the row above it.
func TestConsoleNACLIsReadAsDescribeNetworkACLs(t *testing.T) {
	r := Read([]byte(consoleACL+consoleTail), "stdin", Options{})
	ev := r.Evidence
	if !ev.Have(evidence.KindNetworkACLs) || len(ev.NetworkACLs) != 1 {
		t.Fatalf("network ACLs %+v (segments %v)", ev.NetworkACLs, labels(r.Segments))
	}
	a := ev.NetworkACLs[0]
	if a.ID != "acl-0123456789abcdef0" || a.VpcID != "vpc-0bbbbbbbbbbbbbbb2" || a.Default || strings.Join(a.SubnetIDs, ",") != "subnet-0aaaaaaaaaaaaaaa1" {
		t.Errorf("acl %+v", a)
	}
	want := []evidence.NACLEntry{
		{RuleNumber: 100, Protocol: "6", PortFrom: 443, PortTo: 443, CIDR: "0.0.0.0/0", Allow: true},
		{RuleNumber: 130, Protocol: "17", PortFrom: 1024, PortTo: 65535, CIDR: "0.0.0.0/0", Allow: true},
		{RuleNumber: 32767, Protocol: "-1", CIDR: "0.0.0.0/0"},
		{RuleNumber: 100, Egress: true, Protocol: "-1", CIDR: "0.0.0.0/0", Allow: true},
		{RuleNumber: 32767, Egress: true, Protocol: "-1", CIDR: "0.0.0.0/0"},
	}
	if len(a.Entries) != len(want) {
		t.Fatalf("entries %+v", a.Entries)
	}
	for _, w := range want {
		found := false
		for _, e := range a.Entries {
			found = found || e == w
		}
		if !found {
			t.Errorf("no entry %+v in %+v", w, a.Entries)
		}
	}
	if src := ev.Source(evidence.KindNetworkACLs); src != "paste:stdin:1-33" {
		t.Errorf("origin %q", src)
	}
}

// TestConsoleNetPagesNotWholeAreLeftUnread: a page is read only when it names its resource and
// every table it needs parses whole; otherwise nothing of it becomes evidence.
func TestConsoleNetPagesNotWholeAreLeftUnread(t *testing.T) {
	cases := []struct{ name, text string }{
		{"acl without outbound rules", consoleACL[:strings.Index(consoleACL, "Outbound rules (2)")]},
		{"acl without its associations", strings.Replace(consoleACL[:strings.Index(consoleACL, "Subnet associations (1)")], "Associated with\n1 Subnet\n", "", 1)},
		{"acl counting more rules than shown", strings.Replace(consoleACL, "Inbound rules (3)", "Inbound rules (4)", 1)},
		{"acl rule with an unknown protocol", strings.Replace(consoleACL, "TCP (6)\t443", "Custom\t443", 1)},
		{"acl of two IDs", strings.Replace(consoleACL, "Network ACL ID\nacl-0123456789abcdef0", "Network ACL ID\nacl-0fffffffffffffff9", 1)},
		{"route table counting more routes than shown", strings.Replace(consoleRTB, "Routes (3)", "Routes (4)", 1)},
		{"route with an unknown status", strings.Replace(consoleRTB, "Blackhole", "Pending", 1)},
		{"route table without associations", strings.Replace(consoleRTB, "Explicit subnet associations\nsubnet-0aaaaaaaaaaaaaaa1 / app-private-a\n", "", 1)},
		{"route rows without an ID on the page", consoleRTB[strings.Index(consoleRTB, "Routes (3)"):]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := Read([]byte(c.text), "stdin", Options{}).Evidence
			if ev.Have(evidence.KindRouteTables) || ev.Have(evidence.KindNetworkACLs) {
				t.Errorf("read: %+v %+v", ev.RouteTables, ev.NetworkACLs)
			}
		})
	}
}
