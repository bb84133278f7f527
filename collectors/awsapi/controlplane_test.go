package awsapi

import (
	"context"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	ekstypes "github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// recordingLogs answers FilterLogEvents with nothing and records each input.
type recordingLogs struct {
	mu  sync.Mutex
	ins []*cloudwatchlogs.FilterLogEventsInput
}

func (r *recordingLogs) FilterLogEvents(_ context.Context, in *cloudwatchlogs.FilterLogEventsInput, _ ...func(*cloudwatchlogs.Options)) (*cloudwatchlogs.FilterLogEventsOutput, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ins = append(r.ins, in)
	return &cloudwatchlogs.FilterLogEventsOutput{}, nil
}

func newTestCollector(c Clients, o Options) *collector {
	if o.Lookback == 0 {
		o.Lookback = DefaultLookback
	}
	if o.CallTimeout == 0 {
		o.CallTimeout = time.Second
	}
	if o.Now == nil {
		o.Now = func() time.Time { return time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC) }
	}
	return &collector{c: c, o: o, start: time.Now(), res: &Result{Files: map[string][]byte{}, Errors: map[string]*snapshot.SourceError{}, sources: map[string]string{}}, outs: map[string]any{}}
}

// TestControlPlaneLogQueries: the authenticator is read from the earliest launch, the audit
// events from --lookback before it, each only when its log type is enabled, from the cluster's
// log group with the documented stream prefixes and filter pattern.
func TestControlPlaneLogQueries(t *testing.T) {
	launch := time.Date(2026, 11, 20, 9, 31, 7, 0, time.UTC)
	insts := []ec2types.Instance{{LaunchTime: aws.Time(launch.Add(time.Hour))}, {LaunchTime: aws.Time(launch)}}
	for _, tc := range []struct {
		name     string
		types    []ekstypes.LogType
		lookback time.Duration
		want     []string
	}{
		{"both", []ekstypes.LogType{"authenticator", "audit"}, 3 * time.Hour, []string{"authenticator", "kube-apiserver-audit"}},
		{"audit only", []ekstypes.LogType{"audit"}, 0, []string{"kube-apiserver-audit"}},
		{"off", nil, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := &recordingLogs{}
			col := newTestCollector(Clients{Logs: logs}, Options{Lookback: tc.lookback})
			col.outs["eks/describe-cluster.json"] = &eks.DescribeClusterOutput{Cluster: &ekstypes.Cluster{Name: aws.String("prod"),
				Logging: &ekstypes.Logging{ClusterLogging: []ekstypes.LogSetup{{Types: tc.types, Enabled: aws.Bool(true)}, {Types: []ekstypes.LogType{"api"}, Enabled: aws.Bool(false)}}}}}
			col.level(func(run func(func())) { controlPlaneLogs(col, context.Background(), run, "prod", insts) })
			var got []string
			for _, in := range logs.ins {
				got = append(got, aws.ToString(in.LogStreamNamePrefix))
				if aws.ToString(in.LogGroupName) != "/aws/eks/prod/cluster" {
					t.Errorf("log group %q", aws.ToString(in.LogGroupName))
				}
				start := time.UnixMilli(aws.ToInt64(in.StartTime)).UTC()
				switch aws.ToString(in.LogStreamNamePrefix) {
				case "authenticator":
					if !start.Equal(launch) {
						t.Errorf("authenticator from %s, want the earliest launch %s", start, launch)
					}
					if p := aws.ToString(in.FilterPattern); !strings.Contains(p, `"access denied"`) {
						t.Errorf("authenticator pattern %q", p)
					}
				case "kube-apiserver-audit":
					lb := tc.lookback
					if lb == 0 {
						lb = DefaultLookback
					}
					if want := launch.Add(-lb); !start.Equal(want) {
						t.Errorf("audit from %s, want %s", start, want)
					}
					if aws.ToString(in.FilterPattern) != auditFilterPattern {
						t.Errorf("audit pattern %q", aws.ToString(in.FilterPattern))
					}
				}
			}
			sort.Strings(got) // the two queries run concurrently
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("queried %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAuthenticatorPatternStaysWithinLimit: many node roles do not make a filter pattern
// CloudWatch Logs refuses; the refusals are still read.
func TestAuthenticatorPatternStaysWithinLimit(t *testing.T) {
	var roles []string
	for i := 0; i < 200; i++ {
		roles = append(roles, "eks-node-role-"+strings.Repeat("x", 20))
	}
	p := authenticatorPattern(roles)
	if len(p) > maxFilterPattern || !strings.Contains(p, `"access denied"`) {
		t.Fatalf("pattern (%d bytes) %q", len(p), p)
	}
	if p := authenticatorPattern([]string{"prod-node-role"}); !strings.Contains(p, `?"/prod-node-role"`) {
		t.Fatalf("pattern %q", p)
	}
}
