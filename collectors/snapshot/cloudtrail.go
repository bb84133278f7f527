package snapshot

import (
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// CloudTrail files (docs/snapshot-format.md): `aws cloudtrail lookup-events --lookup-attributes
// AttributeKey=EventName,AttributeValue=E --start-time T`, one file per event name.
var (
	launchEventNames      = []string{"RunInstances", "CreateFleet"}
	accessEntryEventNames = []string{"DeleteAccessEntry", "UpdateAccessEntry"}
)

// CloudTrailEventsPath is the snapshot path of the LookupEvents output for one event name.
func CloudTrailEventsPath(eventName string) string {
	return "cloudtrail/lookup-events/" + eventName + ".json"
}

// LookupEventsOutput is the part of `aws cloudtrail lookup-events` output read here
// (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_LookupEvents.html): each
// event's name, time (ISO 8601 from the CLI, epoch seconds on the wire), the caller's user name
// and the full record as a JSON string.
type LookupEventsOutput struct {
	Events []struct {
		EventID         string `json:"EventId"`
		EventName       string `json:"EventName"`
		EventTime       Time   `json:"EventTime"`
		Username        string `json:"Username"`
		CloudTrailEvent string `json:"CloudTrailEvent"`
	} `json:"Events"`
}

// cloudTrailRecord is the part of a CloudTrail record read here
// (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html
// and cloudtrail-event-reference-user-identity.html). requestParameters and responseElements
// keep the service's own shapes: EC2's are its query API turned to JSON (a list of one is
// often a bare object under "item" / "items"), EKS's are the REST request's members.
type cloudTrailRecord struct {
	EventTime    Time   `json:"eventTime"`
	EventName    string `json:"eventName"`
	UserIdentity struct {
		Type           string `json:"type"`
		Arn            string `json:"arn"`
		InvokedBy      string `json:"invokedBy"`
		SessionContext struct {
			SessionIssuer struct {
				Arn string `json:"arn"`
			} `json:"sessionIssuer"`
		} `json:"sessionContext"`
	} `json:"userIdentity"`
	ErrorCode         string          `json:"errorCode"`
	ErrorMessage      string          `json:"errorMessage"`
	RequestParameters json.RawMessage `json:"requestParameters"`
	ResponseElements  json.RawMessage `json:"responseElements"`
}

func init() {
	RegisterProvider(cloudTrail, evidence.KindLaunchEvents, evidence.KindAccessEntryEvents)
}

// cloudTrail decodes the CloudTrail event files into typed events: launch requests
// (KindLaunchEvents) with their errors, the Auto Scaling group or Karpenter NodeClaim they were
// for and the instances they made; access-entry changes (KindAccessEntryEvents) with the
// cluster, principal and who made them. A kind is collected when one of its files was read; a
// record that is not JSON is kept with what LookupEvents itself says (name, time, user).
func cloudTrail(s *Snapshot, ev *evidence.Evidence) {
	if launches, ok := s.trailEvents(ev, evidence.KindLaunchEvents, launchEventNames); ok {
		evidence.Put(ev, evidence.KindLaunchEvents, evidence.LaunchEvents{Events: launches, EarliestLaunch: s.earliestLaunch(ev)})
	}
	if changes, ok := s.trailEvents(ev, evidence.KindAccessEntryEvents, accessEntryEventNames); ok {
		evidence.Put(ev, evidence.KindAccessEntryEvents, evidence.AccessEntryEvents(changes))
	}
}

// earliestLaunch is the instance's LaunchTime, or for the cluster's evidence the earliest of the
// instances the snapshot describes; zero for a NodeClaim without an instance.
func (s *Snapshot) earliestLaunch(ev *evidence.Evidence) time.Time {
	if ev.Instance != nil {
		return ev.Instance.LaunchTime
	}
	var t time.Time
	if ev.Target.NodeClaim != "" {
		return t
	}
	for _, in := range s.instanceIndex().list {
		if lt := in.LaunchTime.Time; !lt.IsZero() && (t.IsZero() || lt.Before(t)) {
			t = lt
		}
	}
	return t
}

// trailEvents reads the files of the event names, marks kind collected from those read (or
// records the first file's gap) and returns their events oldest first.
func (s *Snapshot) trailEvents(ev *evidence.Evidence, kind evidence.Kind, names []string) ([]evidence.TrailEvent, bool) {
	var out []evidence.TrailEvent
	var read []string
	var gap string
	for _, name := range names {
		p := CloudTrailEventsPath(name)
		src := s.Src(p)
		ok, _, reason := Decode(s, p, func(o *LookupEventsOutput) {
			for _, e := range o.Events {
				te := evidence.TrailEvent{Name: e.EventName, ID: e.EventID, Time: e.EventTime.Time, User: e.Username, Source: src}
				decodeTrailRecord(e.CloudTrailEvent, &te)
				out = append(out, te)
			}
		})
		if ok {
			read = append(read, src)
		} else if gap == "" {
			gap = reason
		}
	}
	if len(read) == 0 {
		ev.AddGap(kind, gap)
		return nil, false
	}
	ev.Mark(kind, strings.Join(read, ", "))
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, true
}

// decodeTrailRecord fills te from the CloudTrailEvent JSON record; a record that does not parse
// leaves te as LookupEvents described it.
func decodeTrailRecord(record string, te *evidence.TrailEvent) {
	var r cloudTrailRecord
	if record == "" || json.Unmarshal([]byte(record), &r) != nil {
		return
	}
	if te.Name == "" {
		te.Name = r.EventName
	}
	if te.Time.IsZero() {
		te.Time = r.EventTime.Time
	}
	te.Caller, te.CallerRole, te.InvokedBy = r.UserIdentity.Arn, r.UserIdentity.SessionContext.SessionIssuer.Arn, r.UserIdentity.InvokedBy
	te.ErrorCode, te.ErrorMessage = r.ErrorCode, r.ErrorMessage
	var req, resp any
	_ = json.Unmarshal(r.RequestParameters, &req)
	_ = json.Unmarshal(r.ResponseElements, &resp)
	switch te.Name {
	case "RunInstances", "CreateFleet":
		decodeLaunch(req, resp, te)
	case "DeleteAccessEntry", "UpdateAccessEntry":
		m, _ := req.(map[string]any)
		// the cluster is the REST path's label "name" as CloudTrail records EKS calls, or the
		// API member clusterName
		te.Cluster, te.PrincipalArn = str(m["clusterName"]), str(m["principalArn"])
		if strings.Contains(te.PrincipalArn, "%3A") || strings.Contains(te.PrincipalArn, "%3a") {
			// the ARN is a label of the REST path (DELETE /clusters/{name}/access-entries/
			// {principalArn}), which CloudTrail records percent-encoded
			if dec, err := url.PathUnescape(te.PrincipalArn); err == nil {
				te.PrincipalArn = dec
			}
		}
		if te.Cluster == "" {
			te.Cluster = str(m["name"])
		}
		te.EntryUsername = str(m["username"])
		if g, ok := m["kubernetesGroups"]; ok {
			te.GroupsSet = true
			for _, x := range items(g) {
				if s := str(x); s != "" {
					te.EntryGroups = append(te.EntryGroups, s)
				}
			}
		}
	}
}

// decodeLaunch reads a RunInstances or CreateFleet request and response.
//
// RunInstances (EC2 query API as CloudTrail records it): requestParameters instanceType,
// subnetId, launchTemplate.launchTemplateId, tagSpecificationSet.items[].tags[] {key, value};
// responseElements instancesSet.items[].instanceId (null when the call failed, with errorCode
// and errorMessage at the record's top level).
//
// CreateFleet: requestParameters.CreateFleetRequest with LaunchTemplateConfigs (Overrides
// {InstanceType, SubnetId}) and TagSpecification (Tag {Key, Value}); responseElements
// .CreateFleetResponse with fleetInstanceSet.item[].instanceIds.item and errorSet.item[]
// {errorCode, errorMessage, lifecycle, launchTemplateAndOverrides.overrides {instanceType,
// subnetId}} (EC2 API CreateFleetError, https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateFleetError.html).
// An instant fleet — Karpenter's — succeeds as a call and lists each pool it could not use.
func decodeLaunch(req, resp any, te *evidence.TrailEvent) {
	walk(req, func(k string, v any, parent map[string]any) {
		switch strings.ToLower(k) {
		case "instancetype":
			if te.InstanceType == "" {
				te.InstanceType = str(v)
			}
		case "subnetid":
			if te.Subnet == "" {
				te.Subnet = str(v)
			}
		case "launchtemplateid":
			if te.LaunchTemplate == "" {
				te.LaunchTemplate = str(v)
			}
		case "key":
			val := str(parent["value"])
			if val == "" {
				val = str(parent["Value"])
			}
			switch str(v) {
			case "aws:autoscaling:groupName":
				te.AutoScalingGroup = val
			case "karpenter.sh/nodeclaim":
				te.NodeClaim = val
			case "karpenter.sh/nodepool":
				te.NodePool = val
			}
		}
	})
	walk(resp, func(k string, v any, parent map[string]any) {
		switch k {
		case "instanceId", "instanceIds":
			for _, x := range items(v) {
				if id := str(x); strings.HasPrefix(id, "i-") && !containsString(te.Instances, id) {
					te.Instances = append(te.Instances, id)
				}
			}
		case "errorSet":
			for _, x := range items(v) {
				m, _ := x.(map[string]any)
				if m == nil {
					continue
				}
				fe := evidence.FleetError{Code: str(m["errorCode"]), Message: str(m["errorMessage"]), Lifecycle: str(m["lifecycle"])}
				walk(m["launchTemplateAndOverrides"], func(k string, v any, _ map[string]any) {
					switch k {
					case "instanceType":
						fe.InstanceType = str(v)
					case "subnetId":
						fe.Subnet = str(v)
					}
				})
				if fe.Code != "" || fe.Message != "" {
					te.FleetErrors = append(te.FleetErrors, fe)
				}
			}
		}
	})
}

// walk calls fn for every key of every object in v, depth first, with the object holding it.
func walk(v any, fn func(k string, v any, parent map[string]any)) {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys) // deterministic: the first instance type wins the same way every run
		for _, k := range keys {
			fn(k, t[k], t)
			if k != "errorSet" {
				walk(t[k], fn)
			}
		}
	case []any:
		for _, x := range t {
			walk(x, fn)
		}
	}
}

// items flattens EC2's JSON rendering of a list: [..], {"item": [..]}, {"item": {..}},
// {"items": [..]} or a single value.
func items(v any) []any {
	switch t := v.(type) {
	case nil:
		return nil
	case []any:
		return t
	case map[string]any:
		for _, k := range []string{"item", "items"} {
			if x, ok := t[k]; ok {
				return items(x)
			}
		}
	}
	return []any{v}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
