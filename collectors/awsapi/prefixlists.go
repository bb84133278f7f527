package awsapi

import (
	"context"
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

func init() {
	register(provider{name: "prefix lists", network: prefixListCalls})
}

// prefixListsAPI is the part of the EC2 client prefixListCalls uses (the SDK client has it):
// DescribeManagedPrefixLists and GetManagedPrefixListEntries
// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeManagedPrefixLists.html,
// https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_GetManagedPrefixListEntries.html).
type prefixListsAPI interface {
	DescribeManagedPrefixLists(context.Context, *ec2.DescribeManagedPrefixListsInput, ...func(*ec2.Options)) (*ec2.DescribeManagedPrefixListsOutput, error)
	GetManagedPrefixListEntries(context.Context, *ec2.GetManagedPrefixListEntriesInput, ...func(*ec2.Options)) (*ec2.GetManagedPrefixListEntriesOutput, error)
}

// prefixListCalls schedules, after the VPC describes, DescribeManagedPrefixLists (every page) of
// the prefix lists the instances' security group rules name (ingress and egress), written at
// ec2/describe-managed-prefix-lists.json, and GetManagedPrefixListEntries of each, at
// ec2/get-managed-prefix-list-entries/<pl-id>.json: the network model judges a rule naming a
// list by the list's entries. No call when the rules name no list or the groups were not read.
func prefixListCalls(col *collector, ctx context.Context, run func(func()), instances []ec2types.Instance) {
	client, ok := col.c.EC2.(prefixListsAPI)
	if !ok {
		return
	}
	ids := nodePrefixLists(col, instances)
	if len(ids) == 0 {
		return
	}
	if col.wanted("DescribeManagedPrefixLists") {
		run(func() {
			col.call(ctx, "DescribeManagedPrefixLists", "ec2/describe-managed-prefix-lists.json", func(ctx context.Context, n *int) (any, bool, error) {
				merged := &ec2.DescribeManagedPrefixListsOutput{}
				err := drain[*ec2.DescribeManagedPrefixListsOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeManagedPrefixListsPaginator(client, &ec2.DescribeManagedPrefixListsInput{PrefixListIds: ids}), func(page *ec2.DescribeManagedPrefixListsOutput) {
					merged.PrefixLists = append(merged.PrefixLists, page.PrefixLists...)
				})
				if err != nil {
					return nil, false, err
				}
				if merged.PrefixLists == nil {
					merged.PrefixLists = []ec2types.ManagedPrefixList{}
				}
				return merged, false, nil
			})
		})
	}
	if !col.wanted("GetManagedPrefixListEntries") {
		return
	}
	for _, id := range ids {
		run(func() {
			col.call(ctx, "GetManagedPrefixListEntries", snapshot.PrefixListEntriesPath(id), func(ctx context.Context, n *int) (any, bool, error) {
				merged := &ec2.GetManagedPrefixListEntriesOutput{}
				err := drain[*ec2.GetManagedPrefixListEntriesOutput, func(*ec2.Options)](ctx, n, ec2.NewGetManagedPrefixListEntriesPaginator(client, &ec2.GetManagedPrefixListEntriesInput{PrefixListId: aws.String(id)}), func(page *ec2.GetManagedPrefixListEntriesOutput) {
					merged.Entries = append(merged.Entries, page.Entries...)
				})
				if err != nil {
					return nil, false, err
				}
				if merged.Entries == nil {
					merged.Entries = []ec2types.PrefixListEntry{}
				}
				return merged, false, nil
			})
		})
	}
}

// nodePrefixLists returns the prefix lists (sorted, each once) that the rules of the instances'
// security groups name, from the security groups already described.
func nodePrefixLists(col *collector, instances []ec2types.Instance) []string {
	sgs, ok := output[*ec2.DescribeSecurityGroupsOutput](col, "ec2/describe-security-groups.json")
	if !ok {
		return nil
	}
	nodeGroups := map[string]bool{}
	for _, in := range instances {
		for _, g := range in.SecurityGroups {
			nodeGroups[aws.ToString(g.GroupId)] = true
		}
		for _, ni := range in.NetworkInterfaces {
			for _, g := range ni.Groups {
				nodeGroups[aws.ToString(g.GroupId)] = true
			}
		}
	}
	seen := map[string]bool{}
	var ids []string
	for _, g := range sgs.SecurityGroups {
		if !nodeGroups[aws.ToString(g.GroupId)] {
			continue
		}
		for _, perms := range [][]ec2types.IpPermission{g.IpPermissions, g.IpPermissionsEgress} {
			for _, p := range perms {
				for _, pl := range p.PrefixListIds {
					if id := aws.ToString(pl.PrefixListId); id != "" && !seen[id] {
						seen[id] = true
						ids = append(ids, id)
					}
				}
			}
		}
	}
	sort.Strings(ids)
	return ids
}
