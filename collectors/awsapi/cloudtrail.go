package awsapi

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudtrail"
	cttypes "github.com/aws/aws-sdk-go-v2/service/cloudtrail/types"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// MaxTrailPages bounds the pages (of 50 events) read per event name: RunInstances in a busy
// account is cut there rather than read for minutes under CloudTrail's 2 requests per second.
const MaxTrailPages = 10

// trailLookup is one CloudTrail event name eksdoctor reads and from when.
type trailLookup struct {
	name string
	// sinceLaunch reads from the earliest launch (launch errors); otherwise from Lookback
	// before it (the mapping change that broke every node usually precedes the launch).
	sinceLaunch bool
	// fleet marks lookups made only when no single launched instance is diagnosed (scan,
	// --all-pending, a NodeClaim): an instance that exists was launched.
	fleet bool
}

// trailLookups are the event names of docs/snapshot-format.md's cloudtrail/ files.
var trailLookups = []trailLookup{
	{name: "DeleteAccessEntry"},
	{name: "UpdateAccessEntry"},
	{name: "RunInstances", sinceLaunch: true, fleet: true},
	{name: "CreateFleet", sinceLaunch: true, fleet: true},
}

func init() {
	register(provider{name: "cloudtrail", detail: cloudTrailEvents})
}

// cloudTrailEvents schedules cloudtrail:LookupEvents, one event name per call
// (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_LookupEvents.html takes a
// single lookup attribute), one after the other in one goroutine: CloudTrail allows 2 such
// requests per second per account and region. Each answer is written at
// cloudtrail/lookup-events/<EventName>.json.
func cloudTrailEvents(col *collector, ctx context.Context, run func(func()), _ string, instances []ec2types.Instance) {
	if col.c.CloudTrail == nil || !col.wanted("LookupEvents") {
		return
	}
	launch := col.earliestLaunch(instances)
	fleet := col.o.Scan || col.o.Batch
	run(func() {
		for _, l := range trailLookups {
			if l.fleet && !fleet {
				continue
			}
			since := launch.Add(-col.o.Lookback)
			if l.sinceLaunch {
				since = launch.Add(-launchMargin)
			}
			col.lookupEvents(ctx, l.name, since)
		}
	})
}

// launchMargin reads launch errors from a little before the earliest launch: the failed
// attempts of an Auto Scaling group or a NodeClaim come just before the instance that launched.
const launchMargin = 15 * time.Minute

// lookupEvents reads up to MaxTrailPages pages of one event name since a time into one output.
func (col *collector) lookupEvents(ctx context.Context, name string, since time.Time) {
	col.call(ctx, "LookupEvents", "cloudtrail/lookup-events/"+name+".json", func(ctx context.Context, n *int) (any, bool, error) {
		merged := &cloudtrail.LookupEventsOutput{Events: []cttypes.Event{}}
		p := cloudtrail.NewLookupEventsPaginator(col.c.CloudTrail, &cloudtrail.LookupEventsInput{
			LookupAttributes: []cttypes.LookupAttribute{{AttributeKey: cttypes.LookupAttributeKeyEventName, AttributeValue: aws.String(name)}},
			StartTime:        aws.Time(since), MaxResults: aws.Int32(50)})
		err := firstPages[*cloudtrail.LookupEventsOutput, func(*cloudtrail.Options)](ctx, n, p, MaxTrailPages,
			func(page *cloudtrail.LookupEventsOutput) { merged.Events = append(merged.Events, page.Events...) })
		if err != nil {
			return nil, false, err
		}
		return merged, false, nil
	})
}
