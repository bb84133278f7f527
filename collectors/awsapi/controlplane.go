package awsapi

import (
	"context"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	logstypes "github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs/types"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/eks"
)

// DefaultLookback is how far before the earliest launch audit events and access-entry changes
// are read when Options.Lookback is zero (issue 15: "at least 24 hours before it").
const DefaultLookback = 24 * time.Hour

// MaxLogPages bounds the pages of one FilterLogEvents call (each up to 10,000 events or 1 MB,
// https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_FilterLogEvents.html):
// a busy authenticator stream is cut there rather than read for minutes.
const MaxLogPages = 20

// auditFilterPattern selects the audit events about CertificateSigningRequests and the aws-auth
// ConfigMap (CloudWatch Logs JSON filter syntax), as docs/snapshot-format.md's command does.
const auditFilterPattern = `{ ($.objectRef.resource = "certificatesigningrequests") || ($.objectRef.name = "aws-auth") }`

func init() {
	register(provider{name: "control-plane logs", detail: controlPlaneLogs})
}

// controlPlaneLogs schedules FilterLogEvents on the cluster's log group for the authenticator
// streams (since the earliest launch of the instances) and the audit streams (from Lookback
// before it), each only when DescribeCluster says that log type is enabled: otherwise the call
// would only say the log group or stream does not exist, and the snapshot reader's gap names the
// command that turns logging on. Authenticator events are narrowed to the node roles' names and
// the authenticator's refusals, so a busy cluster's every "access granted" is not read.
func controlPlaneLogs(col *collector, ctx context.Context, run func(func()), cluster string, instances []ec2types.Instance) {
	if col.c.Logs == nil || !col.wanted("FilterLogEvents") {
		return
	}
	dc, ok := output[*eks.DescribeClusterOutput](col, "eks/describe-cluster.json")
	if !ok || dc.Cluster == nil || dc.Cluster.Logging == nil {
		return
	}
	enabled := map[string]bool{}
	for _, l := range dc.Cluster.Logging.ClusterLogging {
		if aws.ToBool(l.Enabled) {
			for _, t := range l.Types {
				enabled[string(t)] = true
			}
		}
	}
	since := col.earliestLaunch(instances)
	group := "/aws/eks/" + cluster + "/cluster"
	if enabled["authenticator"] {
		pattern := authenticatorPattern(col.nodeRoleNames(instances))
		run(func() {
			col.filterLogEvents(ctx, "logs/authenticator-events.json", &cloudwatchlogs.FilterLogEventsInput{
				LogGroupName: aws.String(group), LogStreamNamePrefix: aws.String("authenticator"),
				StartTime: aws.Int64(since.UnixMilli()), FilterPattern: aws.String(pattern)})
		})
	}
	if enabled["audit"] {
		run(func() {
			col.filterLogEvents(ctx, "logs/audit-events.json", &cloudwatchlogs.FilterLogEventsInput{
				LogGroupName: aws.String(group), LogStreamNamePrefix: aws.String("kube-apiserver-audit"),
				StartTime: aws.Int64(since.Add(-col.o.Lookback).UnixMilli()), FilterPattern: aws.String(auditFilterPattern)})
		})
	}
}

// filterLogEvents reads up to MaxLogPages pages of one query into one output at path.
func (col *collector) filterLogEvents(ctx context.Context, path string, in *cloudwatchlogs.FilterLogEventsInput) {
	col.call(ctx, "FilterLogEvents", path, func(ctx context.Context, n *int) (any, bool, error) {
		merged := &cloudwatchlogs.FilterLogEventsOutput{Events: []logstypes.FilteredLogEvent{}}
		err := firstPages[*cloudwatchlogs.FilterLogEventsOutput, func(*cloudwatchlogs.Options)](ctx, n, cloudwatchlogs.NewFilterLogEventsPaginator(col.c.Logs, in), MaxLogPages,
			func(page *cloudwatchlogs.FilterLogEventsOutput) {
				merged.Events = append(merged.Events, page.Events...)
			})
		if err != nil {
			return nil, false, err
		}
		return merged, true, nil
	})
}

// authenticatorPattern is the CloudWatch Logs filter pattern keeping the authenticator's lines
// that name one of the roles, and its refusals of any identity (the snapshot reader keeps those
// that name a node role).
func authenticatorPattern(roles []string) string {
	terms := []string{`?"access denied"`, `?"is not mapped"`}
	for _, r := range roles {
		terms = append(terms, `?"/`+strings.ReplaceAll(r, `"`, ``)+`"`)
	}
	if p := strings.Join(terms, " "); len(p) <= maxFilterPattern {
		return p
	}
	return strings.Join(terms[:2], " ") // too many roles for one pattern: the refusals only
}

// maxFilterPattern is the longest filter pattern CloudWatch Logs accepts (FilterPattern,
// "Length Constraints: Maximum length of 1024").
const maxFilterPattern = 1024

// earliestLaunch is the earliest LaunchTime of the instances: the start of the window in which
// their node's testimony lies. Without instances it is Lookback before the collection time.
func (col *collector) earliestLaunch(instances []ec2types.Instance) time.Time {
	var t time.Time
	for _, in := range instances {
		if lt := aws.ToTime(in.LaunchTime); !lt.IsZero() && (t.IsZero() || lt.Before(t)) {
			t = lt
		}
	}
	if t.IsZero() {
		t = col.o.Now().Add(-col.o.Lookback)
	}
	return t.UTC()
}

// nodeRoleNames are the names of the roles the instances' profiles hold, and in a scan the node
// groups' node roles.
func (col *collector) nodeRoleNames(instances []ec2types.Instance) []string {
	var profiles []string
	for _, in := range instances {
		if in.IamInstanceProfile != nil {
			profiles = appendUnique(profiles, lastSegment(aws.ToString(in.IamInstanceProfile.Arn)))
		}
	}
	roles := col.roleNames(profiles)
	for _, ng := range col.listedNodegroups() {
		if out, ok := output[*eks.DescribeNodegroupOutput](col, "eks/describe-nodegroup/"+ng+".json"); ok && out.Nodegroup != nil {
			if r := lastSegment(aws.ToString(out.Nodegroup.NodeRole)); r != "" {
				roles = appendUnique(roles, r)
			}
		}
	}
	return roles
}
