package ingest

import (
	"strings"
	"testing"
)

// TestTwoFilterLogEventsQueriesAreBothRead: a ticket quoting two `aws logs filter-log-events`
// queries — the audit events of an aws-auth patch, then the authenticator's denials — has two
// documents of the same shape (events). Both are read: the audit one as the audit stream (its
// events' logStreamName), the authenticator one beside it; a second query is never "a second
// copy" set aside (blind pastes14/02: the denials were lost).
func TestTwoFilterLogEventsQueriesAreBothRead(t *testing.T) {
	const role = "arn:aws:iam::111122223333:role/eks-stg-node"
	auditMsg := `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/kube-system/configmaps/aws-auth","verb":"delete","user":{"username":"deployer"},"objectRef":{"resource":"configmaps","namespace":"kube-system","name":"aws-auth","apiVersion":"v1"},"responseStatus":{"metadata":{},"status":"Success","code":200},"requestReceivedTimestamp":"2025-05-26T08:12:44.000000Z","stageTimestamp":"2025-05-26T08:12:44.100000Z"}`
	authMsg := `time="2025-05-26T08:41:07Z" level=warning msg="access denied" arn="` + role + `" client="127.0.0.1:47720" error="ARN is not mapped" method=POST path=/authenticate`
	q := func(stream string, ts int64, msg string) string {
		m := strings.ReplaceAll(strings.ReplaceAll(msg, `\`, `\\`), `"`, `\"`)
		return "{\n    \"events\": [\n        {\n            \"logStreamName\": \"" + stream + "\",\n            \"timestamp\": " + itoa(ts) + ",\n            \"message\": \"" + m + "\",\n            \"ingestionTime\": " + itoa(ts+1000) + ",\n            \"eventId\": \"1\"\n        }\n    ],\n    \"searchedLogStreams\": []\n}\n"
	}
	text := "No new node joins since this morning.\n\n$ aws logs filter-log-events --log-group-name /aws/eks/stg/cluster --log-stream-name-prefix kube-apiserver-audit\n" +
		q("kube-apiserver-audit-2f8b5c1d", 1748247164000, auditMsg) +
		"\n$ aws logs filter-log-events --log-group-name /aws/eks/stg/cluster --log-stream-name-prefix authenticator\n" +
		q("authenticator-6b3e9d0c", 1748248867000, authMsg)
	r := Read([]byte(text), "ticket.txt", Options{})
	for _, s := range r.Segments {
		if strings.Contains(s.Problem, "second copy") {
			t.Errorf("segment %s set aside: %s", s.Detail, s.Problem)
		}
	}
	ev := r.Evidence
	denied, removed := false, len(ev.MappingChanges) > 0
	if ev.NodeLogs != nil {
		for _, h := range ev.NodeLogs.Hits {
			denied = denied || h.Finding == "auth.authenticator-denied"
			removed = removed || h.Finding == "auth.mapping-removed" || h.Finding == "auth.role-not-mapped"
		}
	}
	if !removed {
		t.Error("the audit query's aws-auth delete was not read")
	}
	if !denied {
		t.Error("the authenticator query's denial was not read")
	}
}

func itoa(n int64) string {
	b := []byte{}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
