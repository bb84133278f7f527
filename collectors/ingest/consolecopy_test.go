package ingest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// trailRecordJSON is a CloudTrail record of an EKS DeleteAccessEntry call as the CloudTrail
// console's "Event record" pane and a trail's log file print it.
const trailRecordJSON = `{
    "eventVersion": "1.09",
    "userIdentity": {
        "type": "AssumedRole",
        "arn": "arn:aws:sts::111122223333:assumed-role/ci/deployer",
        "accountId": "111122223333",
        "sessionContext": {"sessionIssuer": {"type": "Role", "arn": "arn:aws:iam::111122223333:role/ci"}}
    },
    "eventTime": "2025-08-14T09:41:07Z",
    "eventSource": "eks.amazonaws.com",
    "eventName": "DeleteAccessEntry",
    "awsRegion": "us-west-2",
    "requestParameters": {
        "name": "prod",
        "principalArn": "arn:aws:iam::111122223333:role/eks-node"
    },
    "responseElements": null,
    "eventID": "3c9e7f14-6a2b-4d81-9f05-b27e1d8c4a93",
    "eventType": "AwsApiCall"
}`

// TestCloudTrailRecordIsReadAsLookupEvents: a CloudTrail record pasted on its own — under the
// console's "Event record / Info / Copy" labels, in a trail's log file ({"Records": […]}) or as
// an EventBridge event's detail — is read as `aws cloudtrail lookup-events` output would give
// it: an access-entry change with its cluster, principal, caller and time, quoted from the
// record's lines.
func TestCloudTrailRecordIsReadAsLookupEvents(t *testing.T) {
	indent := func(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }
	cases := []struct {
		name, text string
		first      int
	}{
		{"console labels", "DeleteAccessEntry\nDetails\n\nEvent record\nInfo\nCopy\n" + trailRecordJSON + "\n", 7},
		{"bare record", trailRecordJSON + "\n", 1},
		{"trail log file", "{\"Records\": [\n    " + indent(trailRecordJSON) + "\n]}\n", 1},
		{"EventBridge event", "{\"version\": \"0\", \"detail-type\": \"AWS API Call via CloudTrail\", \"source\": \"aws.eks\",\n\"detail\": " + trailRecordJSON + "}\n", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Read([]byte(c.text), "stdin", Options{})
			ev := r.Evidence
			if !ev.Have(evidence.KindAccessEntryEvents) {
				t.Fatalf("no access-entry events (segments %v)", labels(r.Segments))
			}
			evs, _ := evidence.Get[evidence.AccessEntryEvents](ev, evidence.KindAccessEntryEvents)
			if len(evs) != 1 {
				t.Fatalf("events %+v", evs)
			}
			e := evs[0]
			if e.Name != "DeleteAccessEntry" || e.Cluster != "prod" || e.PrincipalArn != "arn:aws:iam::111122223333:role/eks-node" ||
				e.Caller != "arn:aws:sts::111122223333:assumed-role/ci/deployer" || e.User != "deployer" || e.Time.Format("15:04:05") != "09:41:07" {
				t.Errorf("event %+v", e)
			}
			if want := fmt.Sprintf("paste:stdin:%d-", c.first); !strings.HasPrefix(e.Source, want) {
				t.Errorf("source %q, want it to start %q", e.Source, want)
			}
		})
	}
}
