package cli

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snapshotWithOtherClusterInstance adds to the healthy snapshot (manifest and describe-cluster:
// prod) an instance tagged for cluster staging, with no Node (red team round 3, F6).
func snapshotWithOtherClusterInstance(t *testing.T) string {
	t.Helper()
	snap, p, d, res := healthyInstancesCopy(t)
	insts := res["Instances"].([]any)
	var other map[string]any
	raw, _ := json.Marshal(insts[0])
	_ = json.Unmarshal(raw, &other)
	other["InstanceId"] = "i-000bbbbbbbbbb0002"
	other["PrivateDnsName"] = "ip-10-0-17-99.eu-west-1.compute.internal"
	other["PrivateIpAddress"] = "10.0.17.99"
	other["Tags"] = []any{map[string]any{"Key": "eks:cluster-name", "Value": "staging"}, map[string]any{"Key": "kubernetes.io/cluster/staging", "Value": "owned"}}
	res["Instances"] = append(insts, other)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestFleetLeavesOutOtherClustersInstances (red team round 3, F6): an instance whose tags name
// another cluster was diagnosed as prod's (and its subnet.cluster-tag fix would have tagged it
// into prod), and analyze named the fleet after that instance's tag. Now it is not of the
// fleet: listed as tagged for another cluster, not diagnosed; the fleet is the snapshot's
// cluster's.
func TestFleetLeavesOutOtherClustersInstances(t *testing.T) {
	snap := snapshotWithOtherClusterInstance(t)
	type fleetJSON struct {
		Cluster      string
		OtherCluster []struct{ InstanceID, Cluster string }
		Instances    []struct{ Target struct{ InstanceID string } }
		Joined       []string
	}
	check := func(name string, code int, f fleetJSON, out string) {
		t.Helper()
		if code != ExitOK || f.Cluster != "prod" || len(f.Instances) != 0 || strings.Join(f.Joined, ",") != "i-0a1b2c3d4e5f60001" ||
			len(f.OtherCluster) != 1 || f.OtherCluster[0].InstanceID != "i-000bbbbbbbbbb0002" || f.OtherCluster[0].Cluster != "staging" {
			t.Errorf("%s: exit %d %+v", name, code, f)
		}
		if strings.Contains(out, "kubernetes.io/cluster/prod,Value=owned") {
			t.Errorf("%s: a fix tags another cluster's instance into prod", name)
		}
	}
	code, out, _ := run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json")
	var s struct{ Fleet fleetJSON }
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	check("scan", code, s.Fleet, out)
	code, out, _ = run("analyze", snap, "-o", "json")
	var f fleetJSON
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	check("analyze", code, f, out)
	_, out, _ = run("scan", "--cluster", "prod", "--snapshot", snap)
	flat := strings.Join(strings.Fields(out), " ") // the table wraps paragraphs
	if !strings.Contains(flat, "Instances of cluster prod") || !strings.Contains(flat, "1 of another cluster (not diagnosed)") ||
		!strings.Contains(flat, "Not of cluster prod: 1 instance of another cluster, not diagnosed: i-000bbbbbbbbbb0002 (cluster staging).") {
		t.Errorf("table:\n%s", out)
	}
}

// TestWhyNotJoiningWarnsOfAnotherClustersInstance (red team round 3, F6): asked about an
// instance tagged for staging with --cluster prod, the report judged it as prod's without a
// word; it now warns that the instance's tags name another cluster, before any fix is taken.
func TestWhyNotJoiningWarnsOfAnotherClustersInstance(t *testing.T) {
	snap := snapshotWithOtherClusterInstance(t)
	_, out, _ := run("why-not-joining", "i-000bbbbbbbbbb0002", "--cluster", "prod", "--snapshot", snap, "-o", "json")
	var r struct{ Warnings []string }
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "tags name cluster staging, not prod") {
		t.Errorf("warnings %q", r.Warnings)
	}
	// an instance of the cluster gets no such warning
	_, out, _ = run("why-not-joining", "i-0a1b2c3d4e5f60001", "--cluster", "prod", "--snapshot", snap, "-o", "json")
	if strings.Contains(out, "tags name cluster") {
		t.Errorf("warning on prod's own instance:\n%s", out)
	}
}

// TestFleetAttributesUntaggedInstanceByUserData (red team round 5, finding 8, case15): in a VPC
// two clusters share, an instance with no cluster tag whose user data bootstraps staging at
// staging's endpoint was diagnosed by scan and --all-pending as prod's
// (bootstrap.cluster-name-mismatch, "lacks tag kubernetes.io/cluster/prod"), while
// why-not-joining said its cluster is staging. Every command now takes it for staging's: the
// fleets list it as another cluster's, not diagnosed, and why-not-joining warns.
func TestFleetAttributesUntaggedInstanceByUserData(t *testing.T) {
	snap := snapshotWithOtherClusterInstance(t)
	p := filepath.Join(snap, "ec2", "describe-instances.json")
	b, _ := os.ReadFile(p)
	b = []byte(strings.Replace(string(b), `{"Key":"eks:cluster-name","Value":"staging"},{"Key":"kubernetes.io/cluster/staging","Value":"owned"}`,
		`{"Key":"Name","Value":"staging-worker"},{"Key":"aws:autoscaling:groupName","Value":"staging-workers"}`, 1))
	if !strings.Contains(string(b), "staging-workers") {
		t.Fatal("tags not replaced")
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ud := "#!/bin/bash\n/etc/eks/bootstrap.sh staging --apiserver-endpoint https://0F1E2D3C4B5A69788796A5B4C3D2E1F0.gr7.eu-west-1.eks.amazonaws.com\n"
	udJSON, _ := json.Marshal(map[string]any{"InstanceId": "i-000bbbbbbbbbb0002", "UserData": map[string]any{"Value": base64.StdEncoding.EncodeToString([]byte(ud))}})
	if err := os.WriteFile(filepath.Join(snap, "ec2", "instance-user-data", "i-000bbbbbbbbbb0002.json"), udJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	type fleetJSON struct {
		Cluster      string
		OtherCluster []struct{ InstanceID, Cluster, Source string }
		Instances    []struct{ Target struct{ InstanceID string } }
	}
	for _, args := range [][]string{
		{"scan", "--cluster", "prod", "--snapshot", snap, "-o", "json"},
		{"why-not-joining", "--all-pending", "--cluster", "prod", "--snapshot", snap, "-o", "json"},
		{"analyze", snap, "-o", "json"},
	} {
		code, out, _ := run(args...)
		var f fleetJSON
		if args[0] == "scan" {
			var s struct{ Fleet fleetJSON }
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatal(err)
			}
			f = s.Fleet
		} else if err := json.Unmarshal([]byte(out), &f); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if code != ExitOK || f.Cluster != "prod" || len(f.Instances) != 0 || len(f.OtherCluster) != 1 ||
			f.OtherCluster[0].InstanceID != "i-000bbbbbbbbbb0002" || f.OtherCluster[0].Cluster != "staging" || f.OtherCluster[0].Source != "user data" {
			t.Errorf("%s: exit %d %+v", args[0], code, f)
		}
		if strings.Contains(out, "cluster-name-mismatch") || strings.Contains(out, "kubernetes.io/cluster/prod") {
			t.Errorf("%s: diagnosed staging's instance against prod:\n%s", args[0], out)
		}
	}
	_, out, _ := run("scan", "--cluster", "prod", "--snapshot", snap)
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "Not of cluster prod: 1 instance of another cluster, not diagnosed: i-000bbbbbbbbbb0002 (cluster staging, user data).") {
		t.Errorf("table:\n%s", out)
	}
	_, out, _ = run("why-not-joining", "i-000bbbbbbbbbb0002", "--cluster", "prod", "--snapshot", snap, "-o", "json")
	var r struct{ Warnings []string }
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "user data bootstraps cluster staging, not prod") {
		t.Errorf("warnings %q", r.Warnings)
	}
}

// healthyInstancesCopy copies the healthy-al2023 snapshot and decodes its describe-instances:
// the copy's directory, the file's path, the output and its first reservation, for a test to
// change and write back.
func healthyInstancesCopy(t *testing.T) (snap, path string, out, reservation map[string]any) {
	t.Helper()
	snap = copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	path = filepath.Join(snap, "ec2", "describe-instances.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return snap, path, out, out["Reservations"].([]any)[0].(map[string]any)
}
