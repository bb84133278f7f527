package awsapi

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/autoscaling"
	"github.com/aws/aws-sdk-go-v2/service/cloudtrail"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go/logging"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// EKSAPI is the part of the EKS client the collector calls (the SDK's own signatures).
type EKSAPI interface {
	DescribeCluster(context.Context, *eks.DescribeClusterInput, ...func(*eks.Options)) (*eks.DescribeClusterOutput, error)
	ListAccessEntries(context.Context, *eks.ListAccessEntriesInput, ...func(*eks.Options)) (*eks.ListAccessEntriesOutput, error)
	DescribeAccessEntry(context.Context, *eks.DescribeAccessEntryInput, ...func(*eks.Options)) (*eks.DescribeAccessEntryOutput, error)
	ListNodegroups(context.Context, *eks.ListNodegroupsInput, ...func(*eks.Options)) (*eks.ListNodegroupsOutput, error)
	DescribeNodegroup(context.Context, *eks.DescribeNodegroupInput, ...func(*eks.Options)) (*eks.DescribeNodegroupOutput, error)
	ListFargateProfiles(context.Context, *eks.ListFargateProfilesInput, ...func(*eks.Options)) (*eks.ListFargateProfilesOutput, error)
	DescribeFargateProfile(context.Context, *eks.DescribeFargateProfileInput, ...func(*eks.Options)) (*eks.DescribeFargateProfileOutput, error)
}

// EC2API is the part of the EC2 client the collector calls.
type EC2API interface {
	DescribeInstances(context.Context, *ec2.DescribeInstancesInput, ...func(*ec2.Options)) (*ec2.DescribeInstancesOutput, error)
	DescribeInstanceAttribute(context.Context, *ec2.DescribeInstanceAttributeInput, ...func(*ec2.Options)) (*ec2.DescribeInstanceAttributeOutput, error)
	DescribeLaunchTemplateVersions(context.Context, *ec2.DescribeLaunchTemplateVersionsInput, ...func(*ec2.Options)) (*ec2.DescribeLaunchTemplateVersionsOutput, error)
	DescribeImages(context.Context, *ec2.DescribeImagesInput, ...func(*ec2.Options)) (*ec2.DescribeImagesOutput, error)
	DescribeInstanceTypes(context.Context, *ec2.DescribeInstanceTypesInput, ...func(*ec2.Options)) (*ec2.DescribeInstanceTypesOutput, error)
	DescribeSubnets(context.Context, *ec2.DescribeSubnetsInput, ...func(*ec2.Options)) (*ec2.DescribeSubnetsOutput, error)
	DescribeRouteTables(context.Context, *ec2.DescribeRouteTablesInput, ...func(*ec2.Options)) (*ec2.DescribeRouteTablesOutput, error)
	DescribeSecurityGroups(context.Context, *ec2.DescribeSecurityGroupsInput, ...func(*ec2.Options)) (*ec2.DescribeSecurityGroupsOutput, error)
	DescribeNetworkAcls(context.Context, *ec2.DescribeNetworkAclsInput, ...func(*ec2.Options)) (*ec2.DescribeNetworkAclsOutput, error)
	DescribeVpcs(context.Context, *ec2.DescribeVpcsInput, ...func(*ec2.Options)) (*ec2.DescribeVpcsOutput, error)
	DescribeVpcAttribute(context.Context, *ec2.DescribeVpcAttributeInput, ...func(*ec2.Options)) (*ec2.DescribeVpcAttributeOutput, error)
	DescribeDhcpOptions(context.Context, *ec2.DescribeDhcpOptionsInput, ...func(*ec2.Options)) (*ec2.DescribeDhcpOptionsOutput, error)
	DescribeVpcEndpoints(context.Context, *ec2.DescribeVpcEndpointsInput, ...func(*ec2.Options)) (*ec2.DescribeVpcEndpointsOutput, error)
	DescribeNatGateways(context.Context, *ec2.DescribeNatGatewaysInput, ...func(*ec2.Options)) (*ec2.DescribeNatGatewaysOutput, error)
	DescribeInternetGateways(context.Context, *ec2.DescribeInternetGatewaysInput, ...func(*ec2.Options)) (*ec2.DescribeInternetGatewaysOutput, error)
	GetConsoleOutput(context.Context, *ec2.GetConsoleOutputInput, ...func(*ec2.Options)) (*ec2.GetConsoleOutputOutput, error)
}

// IAMAPI is the part of the IAM client the collector calls.
type IAMAPI interface {
	GetInstanceProfile(context.Context, *iam.GetInstanceProfileInput, ...func(*iam.Options)) (*iam.GetInstanceProfileOutput, error)
	GetRole(context.Context, *iam.GetRoleInput, ...func(*iam.Options)) (*iam.GetRoleOutput, error)
	ListAttachedRolePolicies(context.Context, *iam.ListAttachedRolePoliciesInput, ...func(*iam.Options)) (*iam.ListAttachedRolePoliciesOutput, error)
}

// AutoScalingAPI is the part of the Auto Scaling client the collector calls.
type AutoScalingAPI interface {
	DescribeAutoScalingGroups(context.Context, *autoscaling.DescribeAutoScalingGroupsInput, ...func(*autoscaling.Options)) (*autoscaling.DescribeAutoScalingGroupsOutput, error)
	DescribeScalingActivities(context.Context, *autoscaling.DescribeScalingActivitiesInput, ...func(*autoscaling.Options)) (*autoscaling.DescribeScalingActivitiesOutput, error)
}

// LogsAPI is the part of the CloudWatch Logs client the collector calls: the cluster's
// control-plane log group /aws/eks/CLUSTER/cluster
// (https://docs.aws.amazon.com/eks/latest/userguide/control-plane-logs.html).
type LogsAPI interface {
	FilterLogEvents(context.Context, *cloudwatchlogs.FilterLogEventsInput, ...func(*cloudwatchlogs.Options)) (*cloudwatchlogs.FilterLogEventsOutput, error)
}

// CloudTrailAPI is the part of the CloudTrail client the collector calls: the account's event
// history, one event name per call (LookupEvents takes a single lookup attribute,
// https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_LookupEvents.html).
type CloudTrailAPI interface {
	LookupEvents(context.Context, *cloudtrail.LookupEventsInput, ...func(*cloudtrail.Options)) (*cloudtrail.LookupEventsOutput, error)
}

// Clients holds one client per service. Logs and CloudTrail may be nil (tests of other
// services): their calls are then not made.
type Clients struct {
	EKS         EKSAPI
	EC2         EC2API
	IAM         IAMAPI
	AutoScaling AutoScalingAPI
	Logs        LogsAPI
	CloudTrail  CloudTrailAPI
}

// NewClients builds the SDK clients from cfg.
func NewClients(cfg aws.Config) Clients {
	return Clients{EKS: eks.NewFromConfig(cfg), EC2: ec2.NewFromConfig(cfg), IAM: iam.NewFromConfig(cfg),
		AutoScaling: autoscaling.NewFromConfig(cfg), Logs: cloudwatchlogs.NewFromConfig(cfg), CloudTrail: cloudtrail.NewFromConfig(cfg)}
}

// ConfigOptions select credentials and region. Empty fields use the SDK's standard chain
// (environment, shared config and SSO, web identity / IRSA, EKS Pod Identity, IMDS).
type ConfigOptions struct {
	Profile string
	Region  string
	// RoleARN, when set, is assumed (sts:AssumeRole) with the chain's credentials.
	RoleARN string
	// MaxAttempts bounds the SDK standard retryer's attempts per call (0 = 8).
	MaxAttempts int
	// MaxBackoff bounds the retryer's delay between attempts (0 = 5s).
	MaxBackoff time.Duration
	// AppID is added to the User-Agent (e.g. "eksdoctor/v1.2.3").
	AppID string
	// Clock, when set, records the Date header of every AWS response (AWS's own clock).
	Clock *ServerClock
}

// ServerClock records the latest Date header AWS sent: the time the evidence was read, by
// AWS's clock rather than the local one. Safe for concurrent use.
type ServerClock struct {
	mu     sync.Mutex
	latest time.Time
}

// Observe records a response date.
func (c *ServerClock) Observe(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.latest) {
		c.latest = t
	}
}

// Latest returns the latest date observed (zero when none).
func (c *ServerClock) Latest() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.latest
}

// dateRecorder is a deserialize-step middleware feeding a ServerClock.
func dateRecorder(c *ServerClock) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("eksdoctorServerDate",
			func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
				out, md, err := next.HandleDeserialize(ctx, in)
				if r, ok := out.RawResponse.(*smithyhttp.Response); ok && r != nil {
					if t, perr := http.ParseTime(r.Header.Get("Date")); perr == nil {
						c.Observe(t)
					}
				}
				return out, md, err
			}), middleware.After)
	}
}

// LoadConfig builds an aws.Config from the standard chain with the SDK's standard retryer
// (which retries throttling and transient errors with backoff). AWS_ENDPOINT_URL and the
// per-service AWS_ENDPOINT_URL_<SERVICE> variables are honoured by the SDK. Errors: the shared
// config cannot be read, or no region is configured.
func LoadConfig(ctx context.Context, o ConfigOptions) (aws.Config, error) {
	attempts, backoff := o.MaxAttempts, o.MaxBackoff
	if attempts == 0 {
		attempts = 8
	}
	if backoff == 0 {
		backoff = 5 * time.Second
	}
	opts := []func(*config.LoadOptions) error{
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(so *retry.StandardOptions) {
				so.MaxAttempts = attempts
				so.MaxBackoff = backoff
			})
		}),
	}
	if o.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(o.Profile))
	}
	if o.Region != "" {
		opts = append(opts, config.WithRegion(o.Region))
	}
	if o.AppID != "" {
		opts = append(opts, config.WithAppID(o.AppID))
	}
	// The SDK's own log lines (WARN about a Date header, a checksum, a retry) would go to
	// stderr in the middle of a report: what matters reaches the report as the call's error.
	opts = append(opts, config.WithLogger(logging.Nop{}), config.WithClientLogMode(0))
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("loading AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		return aws.Config{}, fmt.Errorf("no AWS region: pass --region or set AWS_REGION")
	}
	cfg.APIOptions = append(cfg.APIOptions, responseValidator, attemptRecorder)
	if o.Clock != nil {
		cfg.APIOptions = append(cfg.APIOptions, dateRecorder(o.Clock))
	}
	if o.RoleARN != "" {
		cfg.Credentials = aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(sts.NewFromConfig(cfg), o.RoleARN, func(ao *stscreds.AssumeRoleOptions) {
			ao.RoleSessionName = "eksdoctor"
		}))
	}
	return cfg, nil
}
