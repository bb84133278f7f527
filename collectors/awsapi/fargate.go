package awsapi

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"sync"
)

func init() {
	register(provider{name: "fargate", cluster: fargateList, detail: fargateDescribe})
}

// fargateList schedules ListFargateProfiles (every page) with the cluster level. Fargate
// profiles are cluster-wide evidence (fargate.* checks judge pods, not an EC2 instance), so they
// are read in a scan only: why-not-joining on an instance never needs them.
func fargateList(col *collector, ctx context.Context, run func(func()), cluster string) {
	if !col.o.Scan || !col.wanted("ListFargateProfiles") {
		return
	}
	run(func() {
		col.call(ctx, "ListFargateProfiles", "eks/list-fargate-profiles.json", func(ctx context.Context, n *int) (any, bool, error) {
			merged := &eks.ListFargateProfilesOutput{FargateProfileNames: []string{}}
			err := drain[*eks.ListFargateProfilesOutput, func(*eks.Options)](ctx, n, eks.NewListFargateProfilesPaginator(col.c.EKS, &eks.ListFargateProfilesInput{ClusterName: aws.String(cluster)}), func(page *eks.ListFargateProfilesOutput) {
				merged.FargateProfileNames = append(merged.FargateProfileNames, page.FargateProfileNames...)
			})
			if err != nil {
				return nil, false, err
			}
			return merged, true, nil
		})
	})
}

// fargateDescribe schedules DescribeFargateProfile for every profile the list named, written at
// eks/describe-fargate-profile/<name>.json, each followed by GetRole and
// ListAttachedRolePolicies of its pod execution role (iam/ paths, once per role): the
// fargate.pod-execution-role check judges its trust policy and AmazonEKSFargatePodExecutionRolePolicy.
func fargateDescribe(col *collector, ctx context.Context, run func(func()), cluster string, _ []ec2types.Instance) {
	list, ok := output[*eks.ListFargateProfilesOutput](col, "eks/list-fargate-profiles.json")
	if !ok || !col.wanted("DescribeFargateProfile") {
		return
	}
	var mu sync.Mutex
	roles := map[string]bool{}
	for _, name := range list.FargateProfileNames {
		run(func() {
			p := "eks/describe-fargate-profile/" + name + ".json"
			col.call(ctx, "DescribeFargateProfile", p, func(ctx context.Context, _ *int) (any, bool, error) {
				out, err := col.c.EKS.DescribeFargateProfile(ctx, &eks.DescribeFargateProfileInput{ClusterName: aws.String(cluster), FargateProfileName: aws.String(name)})
				return out, true, err
			})
			// the pod execution role and its policies, once per role, right after its profile
			out, ok := output[*eks.DescribeFargateProfileOutput](col, p)
			if !ok || out.FargateProfile == nil {
				return
			}
			roleArn := aws.ToString(out.FargateProfile.PodExecutionRoleArn)
			role := lastSegment(roleArn)
			mu.Lock()
			seen := role == "" || roles[role]
			roles[role] = true
			mu.Unlock()
			if seen {
				return
			}
			if col.wanted("GetRole") {
				col.call(ctx, "GetRole", "iam/get-role/"+role+".json", func(ctx context.Context, _ *int) (any, bool, error) {
					out, err := col.c.IAM.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String(role)})
					return out, false, err
				})
			}
			col.attachedPolicies(ctx, role)
			col.podRoleAccessEntry(ctx, cluster, roleArn)
		})
	}
}

// podRoleAccessEntry describes the access entry of a pod execution role when the cluster lists
// one, at eks/describe-access-entry/<role-name>.json: its type (FARGATE_LINUX) decides whether the
// role is mapped.
func (col *collector) podRoleAccessEntry(ctx context.Context, cluster, roleArn string) {
	list, ok := output[*eks.ListAccessEntriesOutput](col, "eks/list-access-entries.json")
	if !ok || !col.wanted("DescribeAccessEntry") {
		return
	}
	for _, entry := range list.AccessEntries {
		if sameRole(entry, roleArn) {
			col.call(ctx, "DescribeAccessEntry", "eks/describe-access-entry/"+lastSegment(roleArn)+".json", func(ctx context.Context, _ *int) (any, bool, error) {
				out, err := col.c.EKS.DescribeAccessEntry(ctx, &eks.DescribeAccessEntryInput{ClusterName: aws.String(cluster), PrincipalArn: aws.String(entry)})
				return out, true, err
			})
			return
		}
	}
}
