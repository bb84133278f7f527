package snapshot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// lookupEvents renders `aws cloudtrail lookup-events` output around CloudTrail records (the
// record travels as a JSON string in CloudTrailEvent, as LookupEvents returns it).
func lookupEvents(t *testing.T, records ...map[string]any) []byte {
	t.Helper()
	var events []map[string]any
	for _, r := range records {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		ui, _ := r["userIdentity"].(map[string]any)
		user := ""
		if ui != nil {
			arn, _ := ui["arn"].(string)
			user = arn[strings.LastIndexByte(arn, '/')+1:]
		}
		events = append(events, map[string]any{"EventId": r["eventID"], "EventName": r["eventName"], "ReadOnly": "false",
			"EventTime": strings.Replace(r["eventTime"].(string), "Z", "+00:00", 1), "EventSource": r["eventSource"], "Username": user,
			"Resources": []any{}, "CloudTrailEvent": string(b)})
	}
	b, _ := json.Marshal(map[string]any{"Events": events})
	return b
}

// asgIdentity is the identity CloudTrail records for a launch by EC2 Auto Scaling.
var asgIdentity = map[string]any{"type": "AssumedRole", "principalId": "AROAEXAMPLEASG:AutoScaling",
	"arn": "arn:aws:sts::111122223333:assumed-role/AWSServiceRoleForAutoScaling/AutoScaling", "accountId": "111122223333",
	"sessionContext": map[string]any{"sessionIssuer": map[string]any{"type": "Role", "principalId": "AROAEXAMPLEASG",
		"arn": "arn:aws:iam::111122223333:role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling", "accountId": "111122223333",
		"userName": "AWSServiceRoleForAutoScaling"}}, "invokedBy": "autoscaling.amazonaws.com"}

var karpenterIdentity = map[string]any{"type": "AssumedRole", "principalId": "AROAEXAMPLEKARP:1763630000000000000",
	"arn": "arn:aws:sts::111122223333:assumed-role/KarpenterController-prod/1763630000000000000", "accountId": "111122223333",
	"sessionContext": map[string]any{"sessionIssuer": map[string]any{"type": "Role", "principalId": "AROAEXAMPLEKARP",
		"arn": "arn:aws:iam::111122223333:role/KarpenterController-prod", "accountId": "111122223333", "userName": "KarpenterController-prod"}}}

var adminIdentity = map[string]any{"type": "AssumedRole", "principalId": "AROAEXAMPLEADM:alice",
	"arn": "arn:aws:sts::111122223333:assumed-role/platform-admin/alice", "accountId": "111122223333",
	"sessionContext": map[string]any{"sessionIssuer": map[string]any{"type": "Role", "arn": "arn:aws:iam::111122223333:role/platform-admin", "userName": "platform-admin"}}}

func record(name, at, source string, who map[string]any, extra map[string]any) map[string]any {
	r := map[string]any{"eventVersion": "1.09", "userIdentity": who, "eventTime": at, "eventSource": source, "eventName": name,
		"awsRegion": "eu-west-1", "sourceIPAddress": "203.0.113.10", "userAgent": "aws-sdk-go-v2/1.32.0", "requestID": "b7c1d5e0-0000-4000-8000-" + strings.ReplaceAll(at[11:19], ":", "") + "0000",
		"eventID": "e1" + strings.ReplaceAll(at[11:19], ":", "") + "-0000-4000-8000-000000000000", "readOnly": false, "eventType": "AwsApiCall",
		"managementEvent": true, "recipientAccountId": "111122223333", "eventCategory": "Management"}
	if who["invokedBy"] != nil {
		r["sourceIPAddress"], r["userAgent"] = "autoscaling.amazonaws.com", "autoscaling.amazonaws.com"
	}
	for k, v := range extra {
		r[k] = v
	}
	return r
}

// runInstancesFailed is an Auto Scaling RunInstances refused because the launch template names
// an instance profile that does not exist (errorCode / errorMessage at the record's top level,
// responseElements null).
func runInstancesFailed(at, asg string) map[string]any {
	return record("RunInstances", at, "ec2.amazonaws.com", asgIdentity, map[string]any{
		"errorCode":    "Client.InvalidParameterValue",
		"errorMessage": "Value (prod-node-role-profile) for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance Profile name",
		"requestParameters": map[string]any{"instancesSet": map[string]any{"items": []any{map[string]any{"minCount": 1, "maxCount": 1}}},
			"instanceType": "m5.large", "subnetId": "subnet-0a11b22c33d44e551", "blockDeviceMapping": map[string]any{}, "monitoring": map[string]any{"enabled": false},
			"disableApiTermination": false, "disableApiStop": false, "clientToken": "fleet-3b9f0000-0000-4000-8000-000000000000",
			"launchTemplate": map[string]any{"launchTemplateId": "lt-0a1b2c3d4e5f60001", "version": "1"},
			"tagSpecificationSet": map[string]any{"items": []any{map[string]any{"resourceType": "instance", "tags": []any{
				map[string]any{"key": "aws:autoscaling:groupName", "value": asg}, map[string]any{"key": "eks:nodegroup-name", "value": "prod-ng"}}}}}},
		"responseElements": nil})
}

// createFleetInsufficient is Karpenter's instant CreateFleet that launched nothing: the call
// succeeds and its errorSet names each override's error.
func createFleetInsufficient(at, claim string, launched bool) map[string]any {
	resp := map[string]any{"CreateFleetResponse": map[string]any{"xmlns": "http://ec2.amazonaws.com/doc/2016-11-15/", "requestId": "5e0c0000-0000-4000-8000-000000000000",
		"fleetId": "fleet-7d3c0000-0000-4000-8000-000000000000",
		"errorSet": map[string]any{"item": []any{
			map[string]any{"errorCode": "InsufficientInstanceCapacity", "errorMessage": "We currently do not have sufficient m5.large capacity in the Availability Zone you requested (eu-west-1a). Our system will be working on provisioning additional capacity.",
				"lifecycle": "on-demand", "launchTemplateAndOverrides": map[string]any{"launchTemplateSpecification": map[string]any{"launchTemplateId": "lt-0k1a2r3p4e5n60001", "version": "1"},
					"overrides": map[string]any{"instanceType": "m5.large", "subnetId": "subnet-0a11b22c33d44e551", "availabilityZone": "eu-west-1a"}}},
			map[string]any{"errorCode": "InsufficientInstanceCapacity", "errorMessage": "We currently do not have sufficient m5.xlarge capacity in the Availability Zone you requested (eu-west-1a).",
				"lifecycle": "on-demand", "launchTemplateAndOverrides": map[string]any{"overrides": map[string]any{"instanceType": "m5.xlarge", "subnetId": "subnet-0a11b22c33d44e551"}}}}},
		"fleetInstanceSet": ""}}
	if launched {
		r := resp["CreateFleetResponse"].(map[string]any)
		r["fleetInstanceSet"] = map[string]any{"item": map[string]any{"instanceIds": map[string]any{"item": "i-0f00000000000c001"}, "instanceType": "m5.2xlarge", "lifecycle": "on-demand"}}
	}
	return record("CreateFleet", at, "ec2.amazonaws.com", karpenterIdentity, map[string]any{
		"requestParameters": map[string]any{"CreateFleetRequest": map[string]any{"Type": "instant", "TargetCapacitySpecification": map[string]any{"TotalTargetCapacity": 1, "DefaultTargetCapacityType": "on-demand"},
			"LaunchTemplateConfigs": map[string]any{"LaunchTemplateSpecification": map[string]any{"LaunchTemplateName": "karpenter.k8s.aws/1234567890", "Version": "$Latest"},
				"Overrides": []any{map[string]any{"InstanceType": "m5.large", "SubnetId": "subnet-0a11b22c33d44e551", "tag": 1}, map[string]any{"InstanceType": "m5.xlarge", "SubnetId": "subnet-0a11b22c33d44e551", "tag": 2}}, "tag": 1},
			"TagSpecification": []any{map[string]any{"ResourceType": "instance", "tag": 1, "Tag": []any{
				map[string]any{"Key": "karpenter.sh/nodepool", "Value": "default", "tag": 1}, map[string]any{"Key": "karpenter.sh/nodeclaim", "Value": claim, "tag": 2},
				map[string]any{"Key": "eks:eks-cluster-name", "Value": "prod", "tag": 3}}}}}},
		"responseElements": resp})
}

func deleteAccessEntry(at, principal string) map[string]any {
	return record("DeleteAccessEntry", at, "eks.amazonaws.com", adminIdentity, map[string]any{
		"requestParameters": map[string]any{"clusterName": "prod", "principalArn": principal}, "responseElements": nil})
}

// TestCloudTrailDecoding: the four event files become typed events with the caller, the error
// (the call's own or a fleet's per-override errors), the request's tags and the principal; a
// dry run is no failure; a record that is not JSON keeps what LookupEvents says.
func TestCloudTrailDecoding(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	files[CloudTrailEventsPath("RunInstances")] = lookupEvents(t, runInstancesFailed("2026-11-20T09:40:11Z", "eks-prod-ng-1"),
		record("RunInstances", "2026-11-20T09:41:00Z", "ec2.amazonaws.com", karpenterIdentity, map[string]any{"errorCode": "Client.DryRunOperation",
			"errorMessage": "Request would have succeeded, but DryRun flag is set."}))
	files[CloudTrailEventsPath("CreateFleet")] = lookupEvents(t, createFleetInsufficient("2026-11-20T09:45:00Z", "default-c3p0x", false))
	files[CloudTrailEventsPath("DeleteAccessEntry")] = lookupEvents(t, deleteAccessEntry("2026-11-19T16:02:33Z", "arn:aws:iam::111122223333:role/prod-node-role"))
	files[CloudTrailEventsPath("UpdateAccessEntry")] = []byte(`{"Events":[{"EventId":"x","EventName":"UpdateAccessEntry","EventTime":1763560000,"Username":"bob","CloudTrailEvent":"not json"}]}`)
	ev := FromFiles("snapshot", files).ClusterEvidence("prod")
	if !ev.Have(evidence.KindLaunchEvents) || !ev.Have(evidence.KindAccessEntryEvents) {
		t.Fatalf("kinds not collected: %v", ev.Gaps())
	}
	le, _ := evidence.Get[evidence.LaunchEvents](ev, evidence.KindLaunchEvents)
	l := le.Events
	if len(l) != 3 {
		t.Fatalf("launches %+v", l)
	}
	ri := l[0]
	if ri.Name != "RunInstances" || !ri.Failed() || ri.ErrorCode != "Client.InvalidParameterValue" || !strings.Contains(ri.ErrorMessage, "iamInstanceProfile.name is invalid") ||
		ri.AutoScalingGroup != "eks-prod-ng-1" || ri.InstanceType != "m5.large" || ri.LaunchTemplate != "lt-0a1b2c3d4e5f60001" ||
		ri.InvokedBy != "autoscaling.amazonaws.com" || !strings.HasSuffix(ri.CallerRole, "/AWSServiceRoleForAutoScaling") || ri.Time.Format("15:04:05") != "09:40:11" {
		t.Errorf("RunInstances %+v", ri)
	}
	if dry := l[1]; dry.Failed() {
		t.Errorf("a dry run counted as a failure: %+v", dry)
	}
	cf := l[2]
	if cf.Name != "CreateFleet" || !cf.Failed() || cf.NodeClaim != "default-c3p0x" || cf.NodePool != "default" || len(cf.FleetErrors) != 2 ||
		cf.FleetErrors[1].InstanceType != "m5.xlarge" || cf.FleetErrors[0].Lifecycle != "on-demand" || len(cf.Instances) != 0 {
		t.Errorf("CreateFleet %+v", cf)
	}
	if code, _ := cf.Err(); code != "InsufficientInstanceCapacity" {
		t.Errorf("CreateFleet error %q", code)
	}
	a, _ := evidence.Get[evidence.AccessEntryEvents](ev, evidence.KindAccessEntryEvents)
	if len(a) != 2 || a[0].Name != "UpdateAccessEntry" || a[0].User != "bob" || a[1].PrincipalArn != "arn:aws:iam::111122223333:role/prod-node-role" ||
		a[1].Cluster != "prod" || a[1].Caller != "arn:aws:sts::111122223333:assumed-role/platform-admin/alice" {
		t.Errorf("access-entry changes %+v", a)
	}
	// the principal is a label of the REST path, which CloudTrail records percent-encoded
	files[CloudTrailEventsPath("DeleteAccessEntry")] = lookupEvents(t, deleteAccessEntry("2026-11-19T16:02:33Z", "arn%3Aaws%3Aiam%3A%3A111122223333%3Arole%2Fprod-node-role"))
	enc, _ := evidence.Get[evidence.AccessEntryEvents](FromFiles("snapshot", files).ClusterEvidence("prod"), evidence.KindAccessEntryEvents)
	if len(enc) != 2 || enc[1].PrincipalArn != "arn:aws:iam::111122223333:role/prod-node-role" {
		t.Errorf("percent-encoded principal: %+v", enc)
	}
	if got := le.EarliestLaunch.Format("15:04:05"); got != "09:31:07" {
		t.Errorf("earliest launch %s", got)
	}

	files[CloudTrailEventsPath("CreateFleet")] = lookupEvents(t, createFleetInsufficient("2026-11-20T09:45:00Z", "default-c3p0x", true))
	le, _ = evidence.Get[evidence.LaunchEvents](FromFiles("snapshot", files).ClusterEvidence("prod"), evidence.KindLaunchEvents)
	if cf := le.Events[2]; cf.Failed() || len(cf.Instances) != 1 || cf.Instances[0] != "i-0f00000000000c001" {
		t.Errorf("a fleet that launched an instance despite errors: %+v", cf)
	}

	bareFiles := withoutCloudTrail(fixtureFiles(t, hostileFixture))
	bare := FromFiles("snapshot", bareFiles).ClusterEvidence("prod")
	if g := bare.GapFor(evidence.KindLaunchEvents); !strings.Contains(g.Reason, "cloudtrail/lookup-events/RunInstances.json") {
		t.Errorf("no CloudTrail files: gap %+v", g)
	}
}

// TestCloudTrailChecksFromSnapshot: scan's cluster evidence fails nodegroup.launch-errors on the
// Auto Scaling group's refused RunInstances (quoting time, code, message and the service-linked
// role) and auth.mapping-removed on the deleted node access entry (quoting who and when); a
// later successful launch of the group, an error before the window, or another cluster's
// deletion passes; without the files both are skipped naming them.
func TestCloudTrailChecksFromSnapshot(t *testing.T) {
	judge := func(files map[string][]byte) map[string]checks.Finding {
		got := map[string]checks.Finding{}
		for _, f := range checks.Run(checks.All(), FromFiles("snapshot", files).ClusterEvidence("prod")) {
			if f.ID == "nodegroup.launch-errors" || f.ID == "auth.mapping-removed" {
				if _, dup := got[f.ID]; !dup || f.Status == checks.StatusFail {
					got[f.ID] = f
				}
			}
		}
		return got
	}
	base := func() map[string][]byte {
		files := fixtureFiles(t, hostileFixture)
		delete(files, "eks/describe-access-entry/prod-node-role.json")
		files["eks/list-access-entries.json"] = []byte(`{"accessEntries":[]}`)
		files["kube/aws-auth.yaml"] = []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/platform-admin\n      username: platform-admin\n      groups:\n        - system:masters\n")
		return files
	}
	files := base()
	files[CloudTrailEventsPath("RunInstances")] = lookupEvents(t, runInstancesFailed("2026-11-20T09:20:00Z", "eks-prod-ng-1"), runInstancesFailed("2026-11-20T09:40:11Z", "eks-prod-ng-1"))
	files[CloudTrailEventsPath("DeleteAccessEntry")] = lookupEvents(t, deleteAccessEntry("2026-11-19T16:02:33Z", "arn:aws:iam::111122223333:role/prod-node-role"))
	got := judge(files)
	le := got["nodegroup.launch-errors"]
	if le.Status != checks.StatusFail || le.Resource != "Auto Scaling group eks-prod-ng-1" ||
		!strings.Contains(le.Message, "RunInstances failed at 2026-11-20T09:40:11Z by the Auto Scaling service-linked role (arn:aws:sts::111122223333:assumed-role/AWSServiceRoleForAutoScaling/AutoScaling): Client.InvalidParameterValue: Value (prod-node-role-profile) for parameter iamInstanceProfile.name is invalid") ||
		!strings.Contains(le.Message, "2 failed requests from 2026-11-20T09:20:00Z") {
		t.Errorf("launch-errors %s %s: %s", le.Status, le.Resource, le.Message)
	}
	mr := got["auth.mapping-removed"]
	if mr.Status != checks.StatusFail || mr.Resource != "arn:aws:iam::111122223333:role/prod-node-role" ||
		!strings.Contains(mr.Message, "arn:aws:sts::111122223333:assumed-role/platform-admin/alice deleted the access entry of node role arn:aws:iam::111122223333:role/prod-node-role at 2026-11-19T16:02:33Z") {
		t.Errorf("mapping-removed %s %s: %s", mr.Status, mr.Resource, mr.Message)
	}

	// the group launched an instance afterwards; the error before the window (launch 09:31:07
	// minus 15 minutes) does not count; the deletion was of another cluster's entry
	files = base()
	ok := runInstancesFailed("2026-11-20T09:42:00Z", "eks-prod-ng-1")
	delete(ok, "errorCode")
	delete(ok, "errorMessage")
	ok["responseElements"] = map[string]any{"instancesSet": map[string]any{"items": []any{map[string]any{"instanceId": "i-0a1b2c3d4e5f60001"}}}}
	files[CloudTrailEventsPath("RunInstances")] = lookupEvents(t, runInstancesFailed("2026-11-20T09:10:00Z", "eks-other"), runInstancesFailed("2026-11-20T09:40:11Z", "eks-prod-ng-1"), ok)
	other := deleteAccessEntry("2026-11-19T16:02:33Z", "arn:aws:iam::111122223333:role/prod-node-role")
	other["requestParameters"].(map[string]any)["clusterName"] = "staging"
	files[CloudTrailEventsPath("DeleteAccessEntry")] = lookupEvents(t, other)
	got = judge(files)
	if f := got["nodegroup.launch-errors"]; f.Status != checks.StatusPass {
		t.Errorf("recovered group: %s %s", f.Status, f.Message)
	}
	if f := got["auth.mapping-removed"]; f.Status != checks.StatusPass || !strings.Contains(f.Message, "0 access-entry changes of this cluster") {
		t.Errorf("other cluster: %s %s", f.Status, f.Message)
	}

	got = judge(withoutCloudTrail(base()))
	for _, id := range []string{"nodegroup.launch-errors", "auth.mapping-removed"} {
		if f := got[id]; f.Status != checks.StatusSkipped || !strings.Contains(f.Message, "cloudtrail/lookup-events/") {
			t.Errorf("%s without files: %s %s", id, f.Status, f.Message)
		}
	}
}

// TestCloudTrailNodeClaim: a NodeClaim's diagnosis judges the CreateFleet requests tagged with its
// name, and an instance's diagnosis does not judge launch errors (it was launched).
func TestCloudTrailNodeClaim(t *testing.T) {
	files := fixtureFiles(t, "../../fixtures/snapshots/karpenter-nodeclaim-not-launched")
	files[CloudTrailEventsPath("CreateFleet")] = lookupEvents(t, createFleetInsufficient("2026-11-20T09:45:00Z", "default-c3p0x", false),
		createFleetInsufficient("2026-11-20T09:46:00Z", "default-zzzzz", true))
	s := FromFiles("snapshot", files)
	ev, err := s.NodeClaimEvidence("default-c3p0x", "prod")
	if err != nil {
		t.Fatal(err)
	}
	var f checks.Finding
	for _, x := range checks.Run(checks.All(), ev) {
		if x.ID == "nodegroup.launch-errors" {
			f = x
		}
	}
	if f.Status != checks.StatusFail || f.Resource != "default-c3p0x" || !strings.Contains(f.Message, "CreateFleet failed at 2026-11-20T09:45:00Z by the Karpenter controller role") ||
		!strings.Contains(f.Message, "InsufficientInstanceCapacity: We currently do not have sufficient m5.large capacity") {
		t.Errorf("NodeClaim: %s %s: %s", f.Status, f.Resource, f.Message)
	}
	files = fixtureFiles(t, hostileFixture)
	files[CloudTrailEventsPath("RunInstances")] = lookupEvents(t, runInstancesFailed("2026-11-20T09:30:00Z", "eks-prod-ng-1"))
	iev, err := FromFiles("snapshot", files).Evidence("i-0a1b2c3d4e5f60001", "prod")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range checks.Run(checks.All(), iev) {
		if x.ID == "nodegroup.launch-errors" && x.Status != checks.StatusSkipped {
			t.Errorf("instance: %s %s", x.Status, x.Message)
		}
	}
}

// withoutCloudTrail drops the cloudtrail/ files: a snapshot collected without CloudTrail (an
// older one, or cloudtrail:LookupEvents denied to collect-snapshot.sh).
func withoutCloudTrail(files map[string][]byte) map[string][]byte {
	for p := range files {
		if strings.HasPrefix(p, "cloudtrail/") {
			delete(files, p)
		}
	}
	return files
}
