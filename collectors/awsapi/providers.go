package awsapi

import (
	"context"

	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// provider is the live half of an evidence kind that keeps its AWS calls in a file of its own
// (docs/design.md, "Adding an AWS evidence kind"): the calls it schedules with one level of the
// collection, from the values that level's plan already holds. A provider registers itself in
// an init function; its operations come from its collectors/layout entries (Operations, the IAM
// policy), and col.call writes their answers at their snapshot paths like any other call.
type provider struct {
	// name identifies the provider in test failures.
	name string
	// cluster schedules calls with the cluster level (DescribeCluster, ListAccessEntries …):
	// once per collection, for the cluster's name.
	cluster func(col *collector, ctx context.Context, run func(func()), cluster string)
	// vpc schedules calls with the network level, once per VPC of the instances.
	vpc func(col *collector, ctx context.Context, run func(func()), vpc string)
	// detail schedules calls with the level after the cluster's (DescribeNodegroup,
	// DescribeAccessEntry …), when the cluster level's answers can be read with output: once
	// per collection, with the instances diagnosed (none in a scan of a cluster without any).
	detail func(col *collector, ctx context.Context, run func(func()), cluster string, instances []ec2types.Instance)
	// network schedules calls with the level after the network level (DescribeManagedPrefixLists
	// …), from the instances and the VPC describes' answers (read with output): once per
	// collection.
	network func(col *collector, ctx context.Context, run func(func()), instances []ec2types.Instance)
}

// providers are the registered providers, in registration order.
var providers []provider

// register adds a provider; call it from an init function.
func register(p provider) { providers = append(providers, p) }
