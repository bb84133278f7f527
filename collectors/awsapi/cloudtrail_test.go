package awsapi

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudtrail"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// recordingTrail answers LookupEvents with nothing, records each input and whether two calls
// overlapped.
type recordingTrail struct {
	mu       sync.Mutex
	ins      []*cloudtrail.LookupEventsInput
	inFlight int
	overlap  bool
}

func (r *recordingTrail) LookupEvents(_ context.Context, in *cloudtrail.LookupEventsInput, _ ...func(*cloudtrail.Options)) (*cloudtrail.LookupEventsOutput, error) {
	r.mu.Lock()
	r.inFlight++
	r.overlap = r.overlap || r.inFlight > 1
	r.ins = append(r.ins, in)
	r.mu.Unlock()
	time.Sleep(2 * time.Millisecond)
	r.mu.Lock()
	r.inFlight--
	r.mu.Unlock()
	return &cloudtrail.LookupEventsOutput{}, nil
}

// TestCloudTrailLookups: an instance's diagnosis reads the access-entry changes from --lookback
// before its launch; a fleet (scan, --all-pending, a NodeClaim) also reads RunInstances and
// CreateFleet from just before the earliest launch; one event name per call, one call at a time.
func TestCloudTrailLookups(t *testing.T) {
	launch := time.Date(2026, 11, 20, 9, 31, 7, 0, time.UTC)
	insts := []ec2types.Instance{{LaunchTime: aws.Time(launch)}}
	for _, tc := range []struct {
		name  string
		o     Options
		names string
	}{
		{"instance", Options{Lookback: 48 * time.Hour}, "DeleteAccessEntry,UpdateAccessEntry"},
		{"scan", Options{Scan: true}, "DeleteAccessEntry,UpdateAccessEntry,RunInstances,CreateFleet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trail := &recordingTrail{}
			col := newTestCollector(Clients{CloudTrail: trail}, tc.o)
			col.level(func(run func(func())) { cloudTrailEvents(col, context.Background(), run, "prod", insts) })
			var names []string
			for _, in := range trail.ins {
				if len(in.LookupAttributes) != 1 || in.LookupAttributes[0].AttributeKey != "EventName" {
					t.Fatalf("lookup attributes %+v", in.LookupAttributes)
				}
				name := aws.ToString(in.LookupAttributes[0].AttributeValue)
				names = append(names, name)
				start := aws.ToTime(in.StartTime)
				want := launch.Add(-col.o.Lookback)
				if strings.HasSuffix(name, "Instances") || name == "CreateFleet" {
					want = launch.Add(-launchMargin)
				}
				if !start.Equal(want) {
					t.Errorf("%s from %s, want %s", name, start, want)
				}
				if _, ok := col.res.Files["cloudtrail/lookup-events/"+name+".json"]; !ok {
					t.Errorf("no file for %s", name)
				}
			}
			if strings.Join(names, ",") != tc.names {
				t.Errorf("looked up %v, want %s", names, tc.names)
			}
			if trail.overlap {
				t.Error("two LookupEvents calls ran at once (CloudTrail allows 2 per second)")
			}
		})
	}
}
