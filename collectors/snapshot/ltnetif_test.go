package snapshot

import "testing"

// TestLaunchTemplateNetworkInterfacesThatConflict: only a network interface naming a subnet or
// a public IP setting conflicts with a managed node group's subnets; EFA interfaces and a
// primary interface with security groups only (what eksctl builds for EFA) do not (red team 4).
func TestLaunchTemplateNetworkInterfacesThatConflict(t *testing.T) {
	for _, tc := range []struct {
		name, ifaces string
		want         bool
	}{
		{"EFA on two cards", `[{"DeviceIndex": 0, "NetworkCardIndex": 0, "InterfaceType": "efa", "Groups": ["sg-1"]}, {"DeviceIndex": 1, "NetworkCardIndex": 1, "InterfaceType": "efa", "Groups": ["sg-1"]}]`, false},
		{"groups only", `[{"DeviceIndex": 0, "Groups": ["sg-1", "sg-2"]}]`, false},
		{"a subnet", `[{"DeviceIndex": 0, "SubnetId": "subnet-0a1b2c3d", "Groups": ["sg-1"]}]`, true},
		{"a public IP setting", `[{"DeviceIndex": 0, "AssociatePublicIpAddress": false, "Groups": ["sg-1"]}]`, true},
	} {
		s := FromFiles("test", map[string][]byte{"ec2/describe-launch-template-versions/lt-1.json": []byte(`{"LaunchTemplateVersions": [{"LaunchTemplateId": "lt-1", "VersionNumber": 3, "DefaultVersion": true, "LaunchTemplateData": {"NetworkInterfaces": ` + tc.ifaces + `}}]}`)})
		v, _, _, _ := s.launchTemplateVersion("lt-1", "3")
		if v == nil || v.NetworkInterfaces != tc.want {
			t.Errorf("%s: %+v, want NetworkInterfaces %v", tc.name, v, tc.want)
		}
		if v != nil && len(v.SecurityGroupIDs) == 0 {
			t.Errorf("%s: the primary interface's groups were not read", tc.name)
		}
	}
}
