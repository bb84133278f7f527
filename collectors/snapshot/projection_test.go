package snapshot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// dropKeys rewrites every object of the JSON document b under the list at key (one level:
// Reservations[].Instances[] for "Instances") without the given keys, as a --query projection
// that kept the others gives it.
func dropKeys(t *testing.T, b []byte, drop ...string) []byte {
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["InstanceId"]; ok || x["GroupId"] != nil && x["IpPermissions"] != nil || x["SubnetId"] != nil && x["CidrBlock"] != nil {
				for _, k := range drop {
					delete(x, k)
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc)
	out, _ := json.Marshal(doc)
	return out
}

// TestProjectionDroppedFieldsAreUnknown: a snapshot file written with a --query projection that
// keeps the items' keys ({InstanceId:InstanceId,SubnetId:SubnetId,…}) lacks fields the full
// output always carries (an instance's State, Placement, LaunchTime; a group's
// IpPermissionsEgress; a subnet's AvailableIpAddressCount, per the botocore ec2 model). Such a
// file is read as narrowed: a field it lacks is unknown — a gap naming the --query — never an
// absent instance profile, security group or free address (red team round 11b, finding 4).
func TestProjectionDroppedFieldsAreUnknown(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		drop       []string
		kind       evidence.Kind
	}{
		{"instance without profile", "ec2/describe-instances.json", []string{"Architecture", "Placement", "IamInstanceProfile"}, evidence.KindInstanceProfile},
		{"instance without groups", "ec2/describe-instances.json", []string{"Architecture", "Placement", "SecurityGroups", "NetworkInterfaces"}, evidence.KindSecurityGroups},
		{"groups without egress", "ec2/describe-security-groups.json", []string{"IpPermissionsEgress"}, evidence.KindSecurityGroups},
	} {
		files := fixtureFiles(t, hostileFixture)
		files[tc.path] = dropKeys(t, files[tc.path], tc.drop...)
		s := FromFiles("test", files)
		ev, err := s.Evidence(s.InstanceIDs()[0], "")
		if err != nil {
			t.Fatal(err)
		}
		if ev.Have(tc.kind) {
			t.Errorf("%s: %s read as collected, want a gap", tc.name, tc.kind)
			continue
		}
		if g := ev.GapFor(tc.kind); !strings.Contains(g.Reason, "--query") {
			t.Errorf("%s: gap %q, want one naming the --query", tc.name, g.Reason)
		}
	}
}

// TestSubnetsWithoutFreeAddresses: subnets narrowed by a --query that did not keep
// AvailableIpAddressCount are read with their VPC, CIDR and zone (the network path needs them),
// their free addresses unknown (FreeUnknown), not 0; they were all set aside before.
func TestSubnetsWithoutFreeAddresses(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files["ec2/describe-subnets.json"] = dropKeys(t, files["ec2/describe-subnets.json"], "AvailableIpAddressCount")
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	if !ev.Have(evidence.KindSubnets) || len(ev.Subnets) == 0 {
		t.Fatalf("subnets not read: %v", ev.GapFor(evidence.KindSubnets))
	}
	for _, sn := range ev.Subnets {
		if !sn.FreeUnknown || sn.AvailableIPs != 0 || sn.VpcID == "" {
			t.Errorf("subnet %+v", sn)
		}
	}
}
