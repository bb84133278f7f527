package awsapi

import (
	"context"
	"sort"
	"testing"
)

// TestProvidersAreScheduledWithTheirLevel: a registered provider's calls run with the cluster
// level (once, for the cluster's name) and with the network level (once per VPC).
func TestProvidersAreScheduledWithTheirLevel(t *testing.T) {
	saved := providers
	defer func() { providers = saved }()
	var clusters, vpcs []string
	register(provider{name: "test",
		cluster: func(col *collector, ctx context.Context, run func(func()), cluster string) {
			run(func() { col.mu.Lock(); clusters = append(clusters, cluster); col.mu.Unlock() })
		},
		vpc: func(col *collector, ctx context.Context, run func(func()), vpc string) {
			run(func() { col.mu.Lock(); vpcs = append(vpcs, vpc); col.mu.Unlock() })
		}})
	clients, _ := fakeClients(t, "healthy-al2023", nil)
	if _, err := Collect(context.Background(), clients, []string{"i-0a1b2c3d4e5f60001"}, Options{Region: "eu-west-1"}); err != nil {
		t.Fatal(err)
	}
	sort.Strings(vpcs)
	if len(clusters) != 1 || clusters[0] != "prod" || len(vpcs) != 1 || vpcs[0] == "" {
		t.Errorf("provider scheduled for clusters %v and VPCs %v, want [prod] and the instance's VPC", clusters, vpcs)
	}
}
