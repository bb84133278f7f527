package awsapi

import (
	"context"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/iam"
)

// clusterRoleCalls schedules GetRole and ListAttachedRolePolicies for the role named by the
// cluster's roleArn (read from eks/describe-cluster.json, so it runs after DescribeCluster).
// Both write the same iam/ paths as the node role; a cluster role that is also the node role
// is fetched once.
func (col *collector) clusterRoleCalls(ctx context.Context, run func(func()), profiles []string) {
	dc, ok := output[*eks.DescribeClusterOutput](col, "eks/describe-cluster.json")
	if !ok || dc.Cluster == nil || aws.ToString(dc.Cluster.RoleArn) == "" {
		return
	}
	name := lastSegment(aws.ToString(dc.Cluster.RoleArn))
	if col.wanted("GetRole") {
		run(func() {
			col.call(ctx, "GetRole", "iam/get-role/"+name+".json", func(ctx context.Context, _ *int) (any, bool, error) {
				out, err := col.c.IAM.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String(name)})
				return out, false, err
			})
		})
	}
	for _, r := range col.roleNames(profiles) {
		if r == name {
			return // the node role's policies are already being listed
		}
	}
	run(func() { col.attachedPolicies(ctx, name) })
}
