package ingest

import (
	"encoding/json"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/layout"
)

// lookupEventsPath is the layout path of `aws cloudtrail lookup-events` output, one file per
// event name (docs/snapshot-format.md).
const lookupEventsPath = "cloudtrail/lookup-events/<EventName>.json"

// trailRecords returns the CloudTrail records v is or holds: one record (the CloudTrail
// console's "Event record" pane, `jq '.Records[0]'` of a trail's log file), a trail's log file
// ({"Records": […]}, https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-log-file-examples.html)
// or an EventBridge event of type "AWS API Call via CloudTrail", whose detail is the record.
// ok is false when v is none of these, or a Records list holds anything but records (S3 event
// notifications also have Records with eventName and eventSource, "aws:s3").
func trailRecords(v any) (recs []map[string]any, ok bool) {
	d, _ := v.(map[string]any)
	switch {
	case d == nil:
		return nil, false
	case trailRecord(d):
		return []map[string]any{d}, true
	}
	if det, _ := d["detail"].(map[string]any); det != nil && trailRecord(det) {
		return []map[string]any{det}, true
	}
	list, _ := d["Records"].([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		if m == nil || !trailRecord(m) {
			return nil, false
		}
		recs = append(recs, m)
	}
	return recs, len(recs) > 0
}

// trailRecord reports whether m is a CloudTrail record: an eventName, an eventTime, an
// eventSource that is an AWS service's endpoint name ("eks.amazonaws.com") and a userIdentity
// object (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html).
func trailRecord(m map[string]any) bool {
	name, _ := m["eventName"].(string)
	src, _ := m["eventSource"].(string)
	at, _ := m["eventTime"].(string)
	_, who := m["userIdentity"].(map[string]any)
	return name != "" && at != "" && who && strings.HasSuffix(src, ".amazonaws.com")
}

// lookupEventsOf returns the records as `aws cloudtrail lookup-events` output, one output per
// event name in the order the names first come (names), as LookupEvents gives each event: its
// ID, name, time, user name and the record itself as a JSON string (CloudTrailEvent).
func lookupEventsOf(recs []map[string]any) (names []string, out map[string]map[string]any) {
	out = map[string]map[string]any{}
	for _, r := range recs {
		name, _ := r["eventName"].(string)
		if out[name] == nil {
			names = append(names, name)
			out[name] = map[string]any{"Events": []any{}}
		}
		rec, _ := json.Marshal(r)
		e := map[string]any{"EventName": name, "EventTime": r["eventTime"], "Username": trailUsername(r), "CloudTrailEvent": string(rec)}
		if id, ok := r["eventID"].(string); ok {
			e["EventId"] = id
		}
		out[name]["Events"] = append(out[name]["Events"].([]any), e)
	}
	return names, out
}

// trailUsername is the user name LookupEvents (and the console's "User name" column) gives an
// event: the IAM user's name, else the session name of an assumed role (the last part of its
// arn), else the principal ID's part after the colon; empty when the record names none.
func trailUsername(r map[string]any) string {
	who, _ := r["userIdentity"].(map[string]any)
	if n, _ := who["userName"].(string); n != "" {
		return n
	}
	if a, _ := who["arn"].(string); strings.Contains(a, ":assumed-role/") {
		return a[strings.LastIndexByte(a, '/')+1:]
	}
	if p, _ := who["principalId"].(string); strings.Contains(p, ":") {
		return p[strings.IndexByte(p, ':')+1:]
	}
	return ""
}

// trailFiles places pasted CloudTrail records at the lookup-events paths of their event names;
// a name already pasted (another record, another lookup-events output) gets these events added
// to it, and the origins of both are kept. It reports false when s holds no records.
func (rd *reader) trailFiles(s *Segment, origin string) bool {
	recs, ok := trailRecords(s.value)
	if !ok {
		return false
	}
	var entry layout.Entry
	for _, e := range layout.Entries {
		if e.Path == lookupEventsPath {
			entry = e
		}
	}
	names, outs := lookupEventsOf(recs)
	for _, name := range names {
		p := entry.PathFor(name)
		v := outs[name]
		if prev, dup := rd.files[p]; dup {
			var o struct {
				Events []any `json:"Events"`
			}
			if json.Unmarshal(prev, &o) == nil {
				v["Events"] = append(o.Events, v["Events"].([]any)...)
				delete(rd.files, p)
				origin = rd.fileOrigin[p] + ", " + origin
			}
		}
		rd.file(p, v, origin, s)
	}
	return true
}
