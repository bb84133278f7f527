package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/awsapi/awsfake"
)

// plNode is the prefix list withPrefixList has the node's group of net-sg-node-egress name.
const plNode = "pl-0c0ffee0c0ffee001"

// withPrefixList has the node's security group of a copy of the net-sg-node-egress snapshot allow
// HTTPS only to the customer-managed prefix list plNode ("corp-ranges"), described in
// ec2/describe-managed-prefix-lists.json, with entries (nil: no entries file).
func withPrefixList(t *testing.T, dir string, entries ...string) {
	t.Helper()
	const pl = plNode
	p := filepath.Join(dir, "ec2/describe-security-groups.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var sgs map[string][]map[string]any
	if err := json.Unmarshal(b, &sgs); err != nil {
		t.Fatal(err)
	}
	changed := false
	for _, g := range sgs["SecurityGroups"] {
		if g["GroupId"] == "sg-0e1f2a3b4c5d6e7f8" { // the node's: HTTPS out to 10.0.0.0/16 only
			g["IpPermissionsEgress"] = []any{map[string]any{"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "IpRanges": []any{}, "Ipv6Ranges": []any{},
				"UserIdGroupPairs": []any{}, "PrefixListIds": []any{map[string]any{"PrefixListId": pl}}}}
			changed = true
		}
	}
	if !changed {
		t.Fatalf("fixture changed: %s", b)
	}
	b, _ = json.Marshal(sgs)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	desc := `{"PrefixLists": [{"PrefixListId": "` + pl + `", "AddressFamily": "IPv4", "State": "create-complete", "PrefixListName": "corp-ranges", "MaxEntries": 5, "Version": 1, "OwnerId": "111122223333"}]}`
	if err := os.WriteFile(filepath.Join(dir, "ec2/describe-managed-prefix-lists.json"), []byte(desc), 0o644); err != nil {
		t.Fatal(err)
	}
	if entries != nil {
		var es []string
		for _, c := range entries {
			es = append(es, `{"Cidr": "`+c+`"}`)
		}
		os.MkdirAll(filepath.Join(dir, "ec2/get-managed-prefix-list-entries"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "ec2/get-managed-prefix-list-entries/"+pl+".json"), []byte(`{"Entries": [`+strings.Join(es, ",")+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLivePrefixLists: live mode describes the prefix lists the node's security group rules name
// (DescribeManagedPrefixLists) and reads each one's entries (GetManagedPrefixListEntries), over
// the EC2 query protocol of the AWS fake, and judges the API server flow as the snapshot does; a
// node whose rules name no list makes neither call.
func TestLivePrefixLists(t *testing.T) {
	const instance = "i-0a1b2c3d4e5f60024"
	apiEgress := func(t *testing.T, out string) string {
		t.Helper()
		var r struct {
			Paths []struct {
				Flow string
				Hops []struct{ Hop, Verdict, Detail string }
			}
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		for _, f := range r.Paths {
			for _, h := range f.Hops {
				if f.Flow == "api-server" && h.Hop == "security group egress" {
					return h.Verdict + ": " + h.Detail
				}
			}
		}
		t.Fatalf("no api-server security group egress hop: %s", out)
		return ""
	}
	count := func(ops []string, op string) int {
		n := 0
		for _, o := range ops {
			if o == op {
				n++
			}
		}
		return n
	}

	snap := withoutKube(t, filepath.Join(fixtures, "snapshots", "net-sg-node-egress"))
	withPrefixList(t, snap, "192.168.0.0/16", "10.0.0.0/16")
	offCode, offline, _ := run("why-not-joining", instance, "--snapshot", snap, "-o", "json")
	fake := liveEnv(t, snap, nil)
	code, live, errOut := run("why-not-joining", instance, "-o", "json", "--no-kube")
	if code != offCode {
		t.Fatalf("exit %d, %d from the snapshot: %s", code, offCode, errOut)
	}
	if code != ExitFindings {
		// the flows to the AWS services stay blocked: the list holds only private ranges
		t.Errorf("exit %d, want %d", code, ExitFindings)
	}
	want := "reachable: allowed by sg-0e1f2a3b4c5d6e7f8 egress tcp 443 prefix list " + plNode + " (corp-ranges, entry 10.0.0.0/16)"
	if got := apiEgress(t, live); got != want || apiEgress(t, offline) != want {
		t.Errorf("live %q, snapshot %q, want %q", got, apiEgress(t, offline), want)
	}
	ops := fake.Operations()
	if count(ops, "ec2:DescribeManagedPrefixLists") != 1 || count(ops, "ec2:GetManagedPrefixListEntries") != 1 {
		t.Errorf("operations %v: want one DescribeManagedPrefixLists and one GetManagedPrefixListEntries", ops)
	}

	plain := withoutKube(t, filepath.Join(fixtures, "snapshots", "net-sg-node-egress"))
	fake = liveEnv(t, plain, nil)
	run("why-not-joining", instance, "-o", "json", "--no-kube")
	if ops := fake.Operations(); count(ops, "ec2:DescribeManagedPrefixLists")+count(ops, "ec2:GetManagedPrefixListEntries") != 0 {
		t.Errorf("a node whose rules name no prefix list: operations %v", ops)
	}
}

// TestLivePrefixListEntriesDenied: GetManagedPrefixListEntries denied leaves the API server flow
// unknown — no blamed security group: exit 5, the permission reported denied — and the hop says
// which list's entries could not be read and the permission missing.
func TestLivePrefixListEntriesDenied(t *testing.T) {
	snap := withoutKube(t, filepath.Join(fixtures, "snapshots", "net-sg-node-egress"))
	withPrefixList(t, snap, "10.0.0.0/16")
	liveEnv(t, snap, func(f *awsfake.Server) { f.Deny["ec2:GetManagedPrefixListEntries"] = true })
	code, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60024", "-o", "json", "--no-kube")
	var r struct {
		Paths []struct {
			Flow string
			Hops []struct{ Hop, Verdict, Detail string }
		}
		DeniedPermissions []string
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("exit %d: %v %s", code, err, errOut)
	}
	if code != ExitPartial || !strings.Contains(strings.Join(r.DeniedPermissions, ","), "ec2:GetManagedPrefixListEntries") {
		t.Errorf("exit %d (want %d), denied %v", code, ExitPartial, r.DeniedPermissions)
	}
	for _, f := range r.Paths {
		for _, h := range f.Hops {
			if f.Flow == "api-server" && h.Hop == "security group egress" {
				if h.Verdict != "unknown" || !strings.Contains(h.Detail, "the entries of prefix list "+plNode+" (corp-ranges) could not be read: missing permission ec2:GetManagedPrefixListEntries") {
					t.Errorf("api-server security group egress %s: %s", h.Verdict, h.Detail)
				}
				return
			}
		}
	}
	t.Fatalf("no api-server security group egress hop: %s", out)
}
