package awsapi

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/awsapi/awsfake"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

const fixtures = "../../fixtures/snapshots"

// fakeClients starts a fake on a fixture and returns SDK clients pointed at it.
func fakeClients(t testing.TB, scenario string, tune func(*awsfake.Server)) (Clients, *awsfake.Server) {
	t.Helper()
	f := awsfake.New(filepath.Join(fixtures, scenario))
	if tune != nil {
		tune(f)
	}
	url := f.Start()
	t.Cleanup(f.Close)
	t.Setenv("AWS_ENDPOINT_URL", url)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDFAKEFAKEFAKE")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "fake-secret")
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	cfg, err := LoadConfig(context.Background(), ConfigOptions{Region: "eu-west-1", MaxBackoff: 50 * time.Millisecond, AppID: "eksdoctor-test"})
	if err != nil {
		t.Fatal(err)
	}
	return NewClients(cfg), f
}

func TestCollectHealthy(t *testing.T) {
	clients, fake := fakeClients(t, "healthy-al2023", nil)
	res, err := Collect(context.Background(), clients, []string{"i-0a1b2c3d4e5f60001"}, Options{Region: "eu-west-1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Calls {
		if c.Err != "" && c.Operation != "ec2:GetConsoleOutput" {
			t.Errorf("%s failed: %s", c.Operation, c.Err)
		}
	}
	if res.Cluster != "prod" || res.ClusterSource != "instance tag eks:cluster-name" {
		t.Errorf("cluster %q from %q", res.Cluster, res.ClusterSource)
	}
	// 25 for the node and its network, 2 for the cluster role (GetRole, ListAttachedRolePolicies),
	// 2 for CloudTrail's access-entry changes (DeleteAccessEntry, UpdateAccessEntry)
	if n := fake.Requests(); n > 29 {
		t.Errorf("%d requests, want at most 29: %v", n, fake.Operations())
	}
	snap := snapshot.FromFiles("aws:eu-west-1", res.Files)
	snap.Source = res.Source
	ev, err := snap.Evidence("i-0a1b2c3d4e5f60001", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []evidence.Kind{evidence.KindInstance, evidence.KindCluster, evidence.KindUserData, evidence.KindImage, evidence.KindInstanceType,
		evidence.KindSubnets, evidence.KindRouteTables, evidence.KindSecurityGroups, evidence.KindNetworkACLs, evidence.KindVPCEndpoints,
		evidence.KindNATGateways, evidence.KindVPCAttributes, evidence.KindDHCPOptions, evidence.KindInstanceProfile, evidence.KindNodeRole,
		evidence.KindNodeRolePolicies, evidence.KindAccessEntries, evidence.KindNodegroups, evidence.KindAutoScaling, evidence.KindLaunchTemplate} {
		if !ev.Have(k) {
			t.Errorf("%s not collected: %s", k, ev.GapFor(k).Reason)
		}
	}
	if ev.Bootstrap.ClusterName != "prod" || ev.Cluster.CertificateAuthority == "" || !strings.HasPrefix(ev.Source(evidence.KindSubnets), "aws:ec2:DescribeSubnets") {
		t.Errorf("bootstrap %q, CA %d bytes, source %q", ev.Bootstrap.ClusterName, len(ev.Cluster.CertificateAuthority), ev.Source(evidence.KindSubnets))
	}
	if ev.NodeRole.TrustPolicy == nil || len(ev.NodeRole.TrustPolicy.Statement) != 1 {
		t.Errorf("trust policy = %+v", ev.NodeRole.TrustPolicy)
	}
	if len(ev.AccessEntries) != 2 || !ev.AccessEntries[1].Described || ev.AccessEntries[1].Type != "EC2_LINUX" {
		t.Errorf("access entries = %+v", ev.AccessEntries)
	}
	if len(ev.RouteTables) != 3 || len(ev.SecurityGroups) != 1 || len(ev.NetworkACLs) != 2 || ev.VPCAttributes.EnableDNSHostnames == nil {
		t.Errorf("network evidence incomplete: %d rtb %d sg %d acl", len(ev.RouteTables), len(ev.SecurityGroups), len(ev.NetworkACLs))
	}
}

func TestCollectUnknownInstance(t *testing.T) {
	clients, _ := fakeClients(t, "healthy-al2023", nil)
	_, err := Collect(context.Background(), clients, []string{"i-0000000000000dead"}, Options{Region: "eu-west-1"})
	if err == nil || !strings.Contains(err.Error(), "instance not found") {
		t.Fatalf("err = %v", err)
	}
}
