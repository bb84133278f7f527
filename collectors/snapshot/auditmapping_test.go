package snapshot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// auditLine is a kube-apiserver audit event as EKS writes it to the kube-apiserver-audit stream
// (audit.k8s.io/v1, level RequestResponse for aws-auth writes), with mapRoles as given.
func auditLine(verb, at, mapRoles string, withBody bool) string {
	e := map[string]any{"kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": "RequestResponse", "auditID": "5f1c", "stage": "ResponseComplete",
		"requestURI": "/api/v1/namespaces/kube-system/configmaps/aws-auth", "verb": verb,
		"user":      map[string]any{"username": "kubernetes-admin", "groups": []string{"system:masters", "system:authenticated"}, "extra": map[string]any{"arn": []string{"arn:aws:iam::111122223333:role/terraform"}}},
		"userAgent": "HashiCorp/1.0 Terraform/1.9.5", "objectRef": map[string]any{"resource": "configmaps", "namespace": "kube-system", "name": "aws-auth", "apiVersion": "v1"},
		"responseStatus": map[string]any{"metadata": map[string]any{}, "code": 200}, "requestReceivedTimestamp": at, "stageTimestamp": at}
	if withBody {
		obj := map[string]any{"kind": "ConfigMap", "apiVersion": "v1", "metadata": map[string]any{"name": "aws-auth", "namespace": "kube-system"}, "data": map[string]any{"mapRoles": mapRoles}}
		e["requestObject"], e["responseObject"] = obj, obj
	}
	b, _ := json.Marshal(e)
	return string(b)
}

const (
	nodeMapping  = "- rolearn: arn:aws:iam::111122223333:role/prod-node-role\n  username: system:node:{{EC2PrivateDNSName}}\n  groups:\n    - system:bootstrappers\n    - system:nodes\n"
	adminMapping = "- rolearn: arn:aws:iam::111122223333:role/admin\n  username: admin\n  groups:\n    - system:masters\n"
)

func auditEvents(t *testing.T, lines ...string) []auditEvent {
	var out []auditEvent
	for _, l := range lines {
		e, ok := decodeAuditEvent(l)
		if !ok {
			t.Fatalf("not an audit event: %s", l)
		}
		out = append(out, e)
	}
	return out
}

// TestAuditMappingChanges: aws-auth writes in the audit log become mapping changes — a write
// that drops a mapping the previous write had, whatever order the events come in, a delete; a
// first write (previous content unknown) only when it leaves this evidence's node role unmapped
// and no EC2 access entry maps it; a create or a write that keeps the role, nothing.
func TestAuditMappingChanges(t *testing.T) {
	role := &evidence.Role{Name: "prod-node-role", Arn: "arn:aws:iam::111122223333:role/prod-node-role"}
	for _, tc := range []struct {
		name    string
		lines   []string
		entries []evidence.AccessEntry
		want    []string // "RoleArn|Via contains"
	}{
		{"update drops the node role after one that had it",
			[]string{auditLine("update", "2026-11-20T08:10:00Z", adminMapping, true), auditLine("update", "2026-11-20T07:00:00Z", nodeMapping+adminMapping, true)}, nil,
			[]string{"arn:aws:iam::111122223333:role/prod-node-role|update of kube-system/aws-auth by kubernetes-admin (arn:aws:iam::111122223333:role/terraform) at 2026-11-20T08:10:00Z"}},
		{"first write leaves the node role out", []string{auditLine("patch", "2026-11-20T08:10:00Z", adminMapping, true)}, nil,
			[]string{"arn:aws:iam::111122223333:role/prod-node-role|patch of kube-system/aws-auth"}},
		{"first write, but an access entry maps the role", []string{auditLine("update", "2026-11-20T08:10:00Z", adminMapping, true)},
			[]evidence.AccessEntry{{PrincipalArn: "arn:aws:iam::111122223333:role/prod-node-role", Type: "EC2_LINUX", Described: true}}, nil},
		{"write keeps the role", []string{auditLine("update", "2026-11-20T07:00:00Z", nodeMapping, true), auditLine("update", "2026-11-20T08:10:00Z", nodeMapping+adminMapping, true)}, nil, nil},
		{"delete after a write that had it", []string{auditLine("update", "2026-11-20T07:00:00Z", nodeMapping, true), auditLine("delete", "2026-11-20T08:10:00Z", "", false)}, nil,
			[]string{"arn:aws:iam::111122223333:role/prod-node-role|delete of kube-system/aws-auth"}},
		{"create", []string{auditLine("create", "2026-11-20T07:00:00Z", adminMapping, true)}, nil, nil},
		{"patch logged without its body", []string{auditLine("update", "2026-11-20T07:00:00Z", nodeMapping, true), auditLine("patch", "2026-11-20T08:10:00Z", "", false)}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := &evidence.Evidence{NodeRole: role, AccessEntries: tc.entries}
			var got []string
			for _, c := range auditMappingChanges(auditEvents(t, tc.lines...), ev) {
				if want := map[bool]string{true: "left-out", false: "removed"}[strings.HasPrefix(tc.name, "first write")]; c.Action != want {
					t.Errorf("action %q, want %q", c.Action, want)
				}
				got = append(got, c.RoleArn+"|"+c.Via)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("changes %q, want %q", got, tc.want)
			}
			for i, w := range tc.want {
				arn, via, _ := strings.Cut(w, "|")
				if !strings.HasPrefix(got[i], arn+"|") || !strings.Contains(got[i], via) {
					t.Errorf("change %q, want %q", got[i], w)
				}
			}
		})
	}
}
