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

// iamConsoleRole is a copy of an IAM role's console page: its breadcrumb, summary (ARN with the
// "Copy" label), Permissions table and Trust relationships tab.
const iamConsoleRole = `IAM > Roles > prod-node

prod-node
Info
Summary
ARN
arn:aws:iam::111122223333:role/prod-node
Copy

Permissions policies (2)
Policy name	Type	Attached entities
AmazonEKSWorkerNodePolicy	AWS managed	3
AmazonEC2ContainerRegistryReadOnly	AWS managed	3

Trusted entities
Entities that can assume this role under specified conditions.
Edit trust policy
{
    "Version": "2012-10-17",
    "Statement": [
        {
            "Effect": "Allow",
            "Principal": {"Service": "ec2.amazonaws.com"},
            "Action": "sts:AssumeRole",
            "Condition": {"ArnLike": {"aws:SourceArn": "arn:aws:eks:eu-west-1:111122223333:cluster/prod"}}
        }
    ]
}
`

// TestIAMConsoleTrustPolicyIsTheRolesGetRole: a trust policy copied from an IAM role's console
// page is that role's (the page's breadcrumb and ARN name it), read as `aws iam get-role` output
// with the policy's lines as origin, so the role is the node role and its trust is judged; a
// trust policy no page names, or one under a page naming two roles, is not given to any role.
func TestIAMConsoleTrustPolicyIsTheRolesGetRole(t *testing.T) {
	r := Read([]byte(iamConsoleRole), "stdin", Options{})
	ev := r.Evidence
	if !ev.Have(evidence.KindNodeRole) || ev.NodeRole == nil || ev.NodeRole.TrustPolicy == nil {
		t.Fatalf("node role not read from the console copy (segments %v)", labels(r.Segments))
	}
	if ev.NodeRole.Arn != "arn:aws:iam::111122223333:role/prod-node" {
		t.Errorf("role %+v", ev.NodeRole)
	}
	if src := ev.Source(evidence.KindNodeRole); !strings.Contains(src, "paste:stdin:18-28") {
		t.Errorf("node role source %q, want the trust policy's lines 18-28", src)
	}

	policy := iamConsoleRole[strings.Index(iamConsoleRole, "Trusted entities"):]
	r = Read([]byte(policy), "stdin", Options{})
	if r.Evidence.Have(evidence.KindNodeRole) {
		t.Errorf("a trust policy no page names was given to role %+v", r.Evidence.NodeRole)
	}
	two := "IAM > Roles > other-role\n\nARN\narn:aws:iam::111122223333:role/other-role\n\n" + iamConsoleRole
	r = Read([]byte(two), "stdin", Options{})
	if r.Evidence.NodeRole != nil && r.Evidence.NodeRole.TrustPolicy != nil && r.Evidence.NodeRole.Name == "other-role" {
		t.Errorf("the trust policy was given to the first page's role")
	}
}
