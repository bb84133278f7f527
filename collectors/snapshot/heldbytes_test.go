package snapshot

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// bigRouteTables is a describe-route-tables output of at least size bytes: route tables of
// 150 routes each (red team 8b #07's shape).
func bigRouteTables(size int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"RouteTables":[`)
	for i := 0; sb.Len() < size; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"RouteTableId":"rtb-%017d","VpcId":"vpc-0abc","Associations":[{"SubnetId":"subnet-%017d"}],"Routes":[`, i, i)
		for r := 0; r < 150; r++ {
			if r > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"DestinationCidrBlock":"10.%d.%d.0/24","GatewayId":"local","Origin":"CreateRoute","State":"active"}`, r, i%250)
		}
		sb.WriteString(`]}`)
	}
	sb.WriteString(`]}`)
	return []byte(sb.String())
}

// bigNetworkACLs is a describe-network-acls output of at least size bytes: ACLs of 150 entries
// each (red team 8b #07's shape).
func bigNetworkACLs(size int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"NetworkAcls":[`)
	for i := 0; sb.Len() < size; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"NetworkAclId":"acl-%017d","VpcId":"vpc-0abc","IsDefault":false,"Associations":[{"SubnetId":"subnet-%017d"}],"Entries":[`, i, i)
		for r := 0; r < 150; r++ {
			if r > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"RuleNumber":%d,"Protocol":"6","RuleAction":"allow","Egress":true,"CidrBlock":"10.%d.0.0/24","PortRange":{"From":%d,"To":%d}}`, r+1, r, r, r)
		}
		sb.WriteString(`]}`)
	}
	sb.WriteString(`]}`)
	return []byte(sb.String())
}

// TestHeldBytesBudget: ec2/ files that are each under the per-file limit but together over
// Limits.MaxHeldBytes are set aside, the largest first, each an input problem naming the
// budget and its evidence a gap, so building evidence allocates a bounded multiple of the
// budget, not of the snapshot. Red team 8b #07: a 4 MB .tar.gz of four such files (56 MiB
// NACLs, 44 MiB route tables, 24 MiB subnets, 56 MiB security groups) took 540–570 MB.
func TestHeldBytesBudget(t *testing.T) {
	budget := DefaultLimits.MaxHeldBytes
	dir := t.TempDir()
	for p, b := range fixtureFiles(t, hostileFixture) {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	acls := bigNetworkACLs(48 << 20) // under the per-file limit, over the budget
	routes := bigRouteTables(int(budget) - 4<<20)
	for p, b := range map[string][]byte{"ec2/describe-network-acls.json": acls, "ec2/describe-route-tables.json": routes} {
		if err := os.WriteFile(filepath.Join(dir, p), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ev, total := evidenceAlloc(t, s)
	// the larger file is set aside, the smaller one read
	want := fmt.Sprintf("over the %d-byte budget", budget)
	if pr := problemFor(s, "ec2/describe-network-acls.json"); !strings.Contains(pr, want) || !strings.Contains(pr, fmt.Sprint(len(acls))) {
		t.Errorf("network ACLs: input problem %q, want it to name its size %d and say %q", pr, len(acls), want)
	}
	if src := ev.Source(evidence.KindNetworkACLs); src != "" {
		t.Errorf("network ACLs read from %s, want a gap", src)
	}
	if gap := ev.GapFor(evidence.KindNetworkACLs).Reason; !strings.Contains(gap, want) {
		t.Errorf("network ACLs gap %q, want it to say %q", gap, want)
	}
	if pr := problemFor(s, "ec2/describe-route-tables.json"); pr != "" {
		t.Errorf("route tables: input problem %q, want none (they fit the budget once the ACLs are set aside)", pr)
	}
	if src := ev.Source(evidence.KindRouteTables); src == "" || len(ev.RouteTables) < 1000 {
		t.Errorf("route tables: source %q, %d tables; want them read", src, len(ev.RouteTables))
	}
	t.Logf("%d MiB allocated for a %d MiB budget", total>>20, budget>>20)
	// route tables allocate about 11.6 bytes per input byte (most of it garbage: the decoder's
	// slice growth); the set-aside ACLs none
	if total > 12*uint64(budget) {
		t.Errorf("%d MiB allocated, want at most 12 times the %d MiB budget", total>>20, budget>>20)
	}
}
