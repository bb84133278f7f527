package snapshot

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/awsauth"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// auditEvent is the part of a kube-apiserver audit event (audit.k8s.io/v1 Event) read to follow
// the writes of the aws-auth ConfigMap. EKS logs them with their request and response bodies
// (https://docs.aws.amazon.com/eks/latest/userguide/control-plane-logs.html, audit log type).
type auditEvent struct {
	Stage string `json:"stage"`
	Verb  string `json:"verb"`
	User  struct {
		Username string              `json:"username"`
		Extra    map[string][]string `json:"extra"`
	} `json:"user"`
	ObjectRef struct {
		Resource, Namespace, Name string
	} `json:"objectRef"`
	ResponseStatus struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
	RequestObject    *configMapData `json:"requestObject"`
	ResponseObject   *configMapData `json:"responseObject"`
	StageTimestamp   time.Time      `json:"stageTimestamp"`
	RequestTimestamp time.Time      `json:"requestReceivedTimestamp"`
}

// configMapData is the data of a ConfigMap in an audit event's request or response object.
type configMapData struct {
	Data map[string]string `json:"data"`
}

// awsAuthWrite is one successful create, update, patch or delete of kube-system/aws-auth.
type awsAuthWrite struct {
	at   time.Time
	verb string
	who  string
	// roles is mapRoles after the write; nil when the event does not show it (a delete, or a
	// patch logged without bodies).
	roles []evidence.RoleMapping
	shown bool
}

// auditMappingChanges follows the aws-auth writes the audit events show, in time order, and
// returns the node mappings each one removed: those of the previous write that the next no
// longer has (a delete removes them all). For the first write, whose previous content the log
// does not show, a node role of this evidence that the new mapRoles leaves out is a "left-out"
// change (the role may never have been mapped) when no EC2 access entry maps it either. Each change quotes who wrote and when.
func auditMappingChanges(events []auditEvent, ev *evidence.Evidence) []evidence.MappingChange {
	var writes []awsAuthWrite
	for _, e := range events {
		if e.ObjectRef.Resource != "configmaps" || e.ObjectRef.Name != "aws-auth" || e.ObjectRef.Namespace != "kube-system" ||
			e.Stage != "" && e.Stage != "ResponseComplete" || e.ResponseStatus.Code < 200 || e.ResponseStatus.Code > 299 {
			continue
		}
		w := awsAuthWrite{at: e.StageTimestamp, verb: e.Verb, who: e.User.Username}
		if w.at.IsZero() {
			w.at = e.RequestTimestamp
		}
		if arn := e.User.Extra["arn"]; len(arn) > 0 && arn[0] != "" {
			w.who += " (" + arn[0] + ")"
		}
		switch e.Verb {
		case "create", "update", "patch":
			obj := e.ResponseObject
			if obj == nil || obj.Data == nil {
				obj = e.RequestObject
			}
			if obj != nil && obj.Data != nil {
				if _, ok := obj.Data["mapRoles"]; ok || e.Verb != "patch" {
					w.roles, w.shown = awsauth.Parse(obj.Data).Roles, true
				}
			}
		case "delete":
			w.shown = true
		default:
			continue
		}
		writes = append(writes, w)
	}
	sort.SliceStable(writes, func(i, j int) bool { return writes[i].at.Before(writes[j].at) })
	var out []evidence.MappingChange
	var prev []evidence.RoleMapping
	known := false
	for _, w := range writes {
		if !w.shown {
			known = false
			continue
		}
		via := fmt.Sprintf("audit log: %s of kube-system/aws-auth by %s at %s", w.verb, orDash(w.who), w.at.UTC().Format(time.RFC3339))
		switch {
		case known:
			for _, m := range prev {
				if !hasRole(w.roles, m.RoleArn) {
					out = append(out, evidence.MappingChange{Action: "removed", RoleArn: m.RoleArn, Username: m.Username, Groups: m.Groups, Via: via})
				}
			}
		case w.verb != "create":
			for _, arn := range unmappedNodeRoles(ev, w.roles) {
				out = append(out, evidence.MappingChange{Action: "left-out", RoleArn: arn, Via: via})
			}
		}
		prev, known = w.roles, true
	}
	return out
}

// unmappedNodeRoles returns the node role ARNs of the evidence (the instance's role, the node
// groups') that roles does not map and no EC2 access entry maps.
func unmappedNodeRoles(ev *evidence.Evidence, roles []evidence.RoleMapping) []string {
	var arns []string
	if ev.NodeRole != nil && ev.NodeRole.Arn != "" {
		arns = append(arns, ev.NodeRole.Arn)
	}
	for _, ng := range ev.Nodegroups {
		if ng.NodeRole != "" {
			arns = append(arns, ng.NodeRole)
		}
	}
	var out []string
	for _, a := range arns {
		if hasRole(roles, a) || hasRole(out2mappings(out), a) {
			continue
		}
		entry := false
		for _, e := range ev.AccessEntries {
			if strings.HasPrefix(e.Type, "EC2") && sameRoleName(e.PrincipalArn, a) {
				entry = true
			}
		}
		if !entry {
			out = append(out, a)
		}
	}
	return out
}

func out2mappings(arns []string) []evidence.RoleMapping {
	var m []evidence.RoleMapping
	for _, a := range arns {
		m = append(m, evidence.RoleMapping{RoleArn: a})
	}
	return m
}

// hasRole reports whether roles maps the role ARN (compared by account and role name, the IAM
// path ignored, as the authenticator compares them).
func hasRole(roles []evidence.RoleMapping, arn string) bool {
	for _, m := range roles {
		if sameRoleName(m.RoleArn, arn) {
			return true
		}
	}
	return false
}

// sameRoleName compares two role ARNs by account and role name, case-insensitively.
func sameRoleName(a, b string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if i := strings.Index(s, ":role/"); i >= 0 {
			return s[:i] + ":role/" + s[strings.LastIndexByte(s, '/')+1:]
		}
		return s
	}
	return a != "" && norm(a) == norm(b)
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// decodeAuditEvent decodes one audit log message; ok is false for anything else.
func decodeAuditEvent(msg string) (auditEvent, bool) {
	var e auditEvent
	if !strings.HasPrefix(strings.TrimSpace(msg), "{") || json.Unmarshal([]byte(msg), &e) != nil {
		return e, false
	}
	return e, e.Verb != ""
}
