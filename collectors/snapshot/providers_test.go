package snapshot

import (
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestProvidersRunForInstancesAndTheCluster: a registered provider decodes its file through the
// snapshot's decoders for an instance's evidence and for the cluster's, and a missing file is
// its gap with the snapshot's reason.
func TestProvidersRunForInstancesAndTheCluster(t *testing.T) {
	saved := providers
	defer func() { providers = saved }()
	type vpcs struct{ Vpcs []struct{ VpcId string } }
	var seen []string
	RegisterProvider(func(s *Snapshot, ev *evidence.Evidence) {
		ok, _, reason := Decode(s, "ec2/describe-vpcs.json", func(o *vpcs) {
			for _, v := range o.Vpcs {
				seen = append(seen, v.VpcId)
			}
		})
		if !ok {
			t.Errorf("describe-vpcs not decoded: %s", reason)
		}
		if ok, _, reason := Decode(s, "ec2/describe-volumes.json", func(*struct{}) {}); ok || reason != "not in snapshot (ec2/describe-volumes.json)" {
			t.Errorf("missing file: ok=%v reason=%q", ok, reason)
		}
		if got := s.Src("ec2/describe-vpcs.json"); got != "snapshot:ec2/describe-vpcs.json" {
			t.Errorf("Src = %q", got)
		}
	})
	s := FromFiles("snapshot", fixtureFiles(t, hostileFixture))
	ev, err := s.Evidence("i-0a1b2c3d4e5f60001", "")
	if err != nil {
		t.Fatal(err)
	}
	s.ClusterEvidence(ev.Target.Cluster)
	if len(seen) != 2 || seen[0] == "" || seen[0] != seen[1] {
		t.Errorf("provider saw VPCs %v, want the fixture's VPC once for the instance and once for the cluster", seen)
	}
}
