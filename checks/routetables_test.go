package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestRouteTablesOfOtherVPCs: a describe-route-tables run in another region (or account) lists
// only other VPCs' tables; the node's route is then unknown, and the report says why: the file
// holds no table of the node's VPC, only of others, named.
func TestRouteTablesOfOtherVPCs(t *testing.T) {
	ev := healthyEvidence()
	ev.RouteTables = []evidence.RouteTable{{ID: "rtb-0aa", VpcID: "vpc-0other1", Main: true}, {ID: "rtb-0bb", VpcID: "vpc-0other2", Main: true}}
	c, _ := Default().Get("net.no-egress-route")
	fs := Run([]Check{c}, ev)
	if len(fs) == 0 || fs[0].Status != StatusSkipped {
		t.Fatalf("%+v", fs)
	}
	for _, want := range []string{"holds no route table of " + ev.Instance.VpcID, "vpc-0other1, vpc-0other2"} {
		if !strings.Contains(fs[0].Message, want) {
			t.Errorf("message %q does not say %q", fs[0].Message, want)
		}
	}
}
