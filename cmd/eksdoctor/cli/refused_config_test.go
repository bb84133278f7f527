package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIPv6ClusterRefusesXenInstanceFromSnapshot (red team round 5, finding 6, case19): a
// complete snapshot of an IPv6 cluster whose node is a Xen instance type (describe-instance-
// types Hypervisor xen) gave "no cause found", exit 0, though ipamd refuses to run IPv6 off
// Nitro. The snapshot's Hypervisor now reaches instance.ipv6-unsupported, which fails; the
// same node on a Nitro type passes.
func TestIPv6ClusterRefusesXenInstanceFromSnapshot(t *testing.T) {
	for _, c := range []struct {
		hypervisor string
		code       int
		status     string
		msg        string
	}{
		{"xen", ExitFindings, "fail", "m5.large is not a Nitro instance type (hypervisor xen)"},
		{"nitro", ExitOK, "pass", "m5.large is a Nitro instance type"},
	} {
		snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
		edit := func(p, from, to string) {
			t.Helper()
			b, err := os.ReadFile(filepath.Join(snap, p))
			if err != nil || !strings.Contains(string(b), from) {
				t.Fatalf("%s: %v (no %q)", p, err, from)
			}
			if err := os.WriteFile(filepath.Join(snap, p), []byte(strings.Replace(string(b), from, to, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		edit("eks/describe-cluster.json", `"ipFamily": "ipv4"`, `"ipFamily": "ipv6"`)
		// the node never became a Ready Node: keep only the other Nodes
		var nodes map[string]any
		b, _ := os.ReadFile(filepath.Join(snap, "kube", "nodes.json"))
		if err := json.Unmarshal(b, &nodes); err != nil {
			t.Fatal(err)
		}
		var keep []any
		for _, n := range nodes["items"].([]any) {
			if !strings.Contains(string(must(json.Marshal(n))), "i-0a1b2c3d4e5f60001") {
				keep = append(keep, n)
			}
		}
		nodes["items"] = append([]any{}, keep...)
		if err := os.WriteFile(filepath.Join(snap, "kube", "nodes.json"), must(json.Marshal(nodes)), 0o644); err != nil {
			t.Fatal(err)
		}
		edit("ec2/describe-instance-types.json", `"InstanceType": "m5.large",`, `"InstanceType": "m5.large", "Hypervisor": "`+c.hypervisor+`",`)
		code, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", snap, "-o", "json", "--all")
		var r struct {
			Findings []struct{ ID, Status, Message string }
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s\n%s", err, out, errOut)
		}
		found := false
		for _, f := range r.Findings {
			if f.ID == "instance.ipv6-unsupported" {
				found = true
				if f.Status != c.status || !strings.Contains(f.Message, c.msg) {
					t.Errorf("%s: %s %q", c.hypervisor, f.Status, f.Message)
				}
			}
		}
		if !found {
			t.Errorf("%s: no instance.ipv6-unsupported finding", c.hypervisor)
		}
		if code != c.code {
			t.Errorf("%s: exit %d, want %d", c.hypervisor, code, c.code)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
