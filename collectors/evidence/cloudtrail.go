package evidence

import "time"

// CloudTrail evidence kinds: the account's management events read with cloudtrail:LookupEvents,
// one file per event name (docs/snapshot-format.md, cloudtrail/lookup-events/<EventName>.json).
const (
	// KindLaunchEvents are RunInstances and CreateFleet events: what EC2 answered the Auto
	// Scaling group or Karpenter that asked for the node.
	KindLaunchEvents Kind = "cloudtrail:launch-events"
	// KindAccessEntryEvents are DeleteAccessEntry and UpdateAccessEntry events: who changed a
	// principal's access entry, and when.
	KindAccessEntryEvents Kind = "cloudtrail:access-entry-events"
)

func init() {
	RegisterKind(KindLaunchEvents)
	RegisterKind(KindAccessEntryEvents)
}

// LaunchEvents is the value of KindLaunchEvents (evidence.Get[LaunchEvents]).
type LaunchEvents struct {
	// Events are the RunInstances and CreateFleet events, oldest first.
	Events []TrailEvent
	// EarliestLaunch is the earliest LaunchTime of the instances the evidence diagnoses (the
	// instance, or for the cluster every instance the snapshot describes); zero when there is
	// none. The checks judge launch errors from a little before it (and NodeClaims' creation):
	// earlier errors concern other launches.
	EarliestLaunch time.Time
}

// AccessEntryEvents is the value of KindAccessEntryEvents (evidence.Get[AccessEntryEvents]): the
// DeleteAccessEntry and UpdateAccessEntry events, oldest first.
type AccessEntryEvents []TrailEvent

// TrailEvent is one CloudTrail event, decoded from LookupEvents' Events[] and its
// CloudTrailEvent JSON record (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html).
type TrailEvent struct {
	// Name is eventName ("RunInstances"); ID is eventID.
	Name, ID string
	// Time is eventTime.
	Time time.Time
	// User is LookupEvents' Username: the session or user name of the caller.
	User string
	// Caller is the identity that called: userIdentity.arn ("arn:aws:sts::ACCOUNT:assumed-role/
	// AWSServiceRoleForAutoScaling/AutoScaling"); CallerRole is the role it assumed
	// (userIdentity.sessionContext.sessionIssuer.arn), empty for a user.
	Caller, CallerRole string
	// InvokedBy is userIdentity.invokedBy, the AWS service that called for the caller
	// ("autoscaling.amazonaws.com"), empty for a direct call.
	InvokedBy string
	// ErrorCode and ErrorMessage are the call's own error ("Client.InvalidParameterValue",
	// "Server.InsufficientInstanceCapacity"); empty when the call succeeded.
	ErrorCode, ErrorMessage string
	// Source is where the event was read ("snapshot:cloudtrail/lookup-events/RunInstances.json").
	Source string

	// Launch requests (RunInstances, CreateFleet).

	// InstanceType, Subnet and LaunchTemplate are what the request asked for (a fleet's first
	// override); empty when not given.
	InstanceType, Subnet, LaunchTemplate string
	// AutoScalingGroup, NodeClaim and NodePool are the request's tags aws:autoscaling:groupName,
	// karpenter.sh/nodeclaim and karpenter.sh/nodepool.
	AutoScalingGroup, NodeClaim, NodePool string
	// Instances are the IDs of the instances the call launched.
	Instances []string
	// FleetErrors are a CreateFleet's per-override errors (responseElements errorSet): an
	// instant fleet succeeds as a call and reports each pool it could not launch in.
	FleetErrors []FleetError

	// Access-entry changes (DeleteAccessEntry, UpdateAccessEntry).

	// Cluster and PrincipalArn are requestParameters clusterName and principalArn.
	Cluster, PrincipalArn string
	// EntryUsername and EntryGroups are an UpdateAccessEntry's username and kubernetesGroups;
	// GroupsSet says kubernetesGroups was in the request (an empty list replaces the groups).
	EntryUsername string
	EntryGroups   []string
	GroupsSet     bool
}

// FleetError is one CreateFleet error of an instant fleet (EC2 API CreateFleetError).
type FleetError struct {
	Code, Message string
	// InstanceType and Subnet are the override the error is for; Lifecycle is spot or on-demand.
	InstanceType, Subnet, Lifecycle string
}

// Failed reports whether the event records a launch that made no instance: the call failed
// (a dry run's DryRunOperation is not a failure), or a fleet reported errors and launched
// nothing.
func (e TrailEvent) Failed() bool {
	if e.ErrorCode != "" {
		return !isDryRun(e.ErrorCode)
	}
	return len(e.FleetErrors) > 0 && len(e.Instances) == 0
}

// Err returns the event's error code and message: the call's own, else its first fleet error.
func (e TrailEvent) Err() (code, msg string) {
	if e.ErrorCode != "" || len(e.FleetErrors) == 0 {
		return e.ErrorCode, e.ErrorMessage
	}
	return e.FleetErrors[0].Code, e.FleetErrors[0].Message
}

func isDryRun(code string) bool { return code == "DryRunOperation" || code == "Client.DryRunOperation" }
