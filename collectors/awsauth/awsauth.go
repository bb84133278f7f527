// Package awsauth parses the kube-system/aws-auth ConfigMap the way EKS's aws-iam-authenticator
// does (pkg/mapper/configmap ParseMap): each of mapRoles, mapUsers and mapAccounts is YAML,
// converted to JSON and decoded with encoding/json, so field names match case-insensitively,
// unknown fields are silently ignored, and an error in one key leaves the others usable; entries
// that RoleMapping.Validate or UserMapping.Validate (pkg/config/mapper.go) reject are not loaded.
// Everything the authenticator would reject or silently ignore is reported as a problem.
package awsauth

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

var knownRoleFields = map[string]bool{"rolearn": true, "username": true, "groups": true, "sso": true}
var knownUserFields = map[string]bool{"userarn": true, "username": true, "groups": true}

// Parse parses ConfigMap data (the ConfigMap's .data). It never fails: problems are returned
// inside the result, which has Present set.
func Parse(data map[string]string) *evidence.AWSAuth {
	a := &evidence.AWSAuth{Present: true}
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch k {
		case "mapRoles", "mapUsers", "mapAccounts":
		default:
			if strings.EqualFold(k, "mapRoles") || strings.EqualFold(k, "mapUsers") || strings.EqualFold(k, "mapAccounts") || strings.EqualFold(k, "map_roles") {
				a.Problems = append(a.Problems, evidence.AuthProblem{Key: k, Message: fmt.Sprintf("data key %q is ignored, so it maps nothing: the authenticator reads only mapRoles, mapUsers and mapAccounts (case-sensitive)", k)})
			}
		}
	}
	if v, ok := data["mapRoles"]; ok && !skippable(v) {
		for i, entry := range decodeList(a, "mapRoles", v, knownRoleFields) {
			var rm struct {
				RoleArn  string   `json:"rolearn"`
				Username string   `json:"username"`
				Groups   []string `json:"groups"`
				SSO      any      `json:"sso"`
			}
			if err := json.Unmarshal(entry, &rm); err != nil {
				a.Problems = append(a.Problems, evidence.AuthProblem{Key: "mapRoles", Message: fmt.Sprintf("entry %d does not decode: %v", i+1, err)})
			}
			// RoleMapping.Validate: exactly one of rolearn and sso; a rejected entry is not loaded.
			if rm.RoleArn == "" && rm.SSO == nil {
				a.Problems = append(a.Problems, evidence.AuthProblem{Key: "mapRoles", Message: fmt.Sprintf("entry %d has no rolearn; the authenticator rejects it (one of rolearn or sso must be supplied) and loads nothing from it", i+1)})
				continue
			}
			if rm.RoleArn != "" && rm.SSO != nil {
				a.Problems = append(a.Problems, evidence.AuthProblem{Key: "mapRoles", Message: fmt.Sprintf("entry %d has both rolearn and sso; the authenticator rejects it (only one of rolearn or sso can be supplied), so %s is not mapped by it", i+1, rm.RoleArn)})
				continue
			}
			checkTemplates(a, "mapRoles", i, rm.Username, rm.Groups)
			a.Roles = append(a.Roles, evidence.RoleMapping{RoleArn: strings.TrimSpace(rm.RoleArn), Username: rm.Username, Groups: rm.Groups, Index: i})
		}
	}
	if v, ok := data["mapUsers"]; ok && !skippable(v) {
		for i, entry := range decodeList(a, "mapUsers", v, knownUserFields) {
			var um struct {
				UserArn  string   `json:"userarn"`
				Username string   `json:"username"`
				Groups   []string `json:"groups"`
			}
			if err := json.Unmarshal(entry, &um); err != nil {
				a.Problems = append(a.Problems, evidence.AuthProblem{Key: "mapUsers", Message: fmt.Sprintf("entry %d does not decode: %v", i+1, err)})
			}
			// UserMapping.Validate: userarn is required; a rejected entry is not loaded.
			if um.UserArn == "" {
				a.Problems = append(a.Problems, evidence.AuthProblem{Key: "mapUsers", Message: fmt.Sprintf("entry %d has no userarn; the authenticator rejects it and loads nothing from it", i+1)})
				continue
			}
			checkTemplates(a, "mapUsers", i, um.Username, um.Groups)
			a.Users = append(a.Users, evidence.UserMapping{UserArn: um.UserArn, Username: um.Username, Groups: um.Groups})
		}
	}
	if v, ok := data["mapAccounts"]; ok && !skippable(v) {
		var accts []string
		if err := yaml.Unmarshal([]byte(v), &accts); err != nil {
			a.Problems = append(a.Problems, evidence.AuthProblem{Key: "mapAccounts", Line: errLine(err), Message: "mapAccounts does not parse: " + err.Error()})
		}
		a.Accounts = accts
	}
	return a
}

// skippable mirrors the authenticator's isSkippable: a value that is blank or only a pair of
// backquotes, double quotes or single quotes is no mapping at all.
func skippable(v string) bool {
	t := strings.TrimSpace(v)
	return t == "" || t == "``" || t == `""` || t == "''"
}

// knownTemplates are the placeholders the authenticator substitutes in usernames and groups
// (aws-iam-authenticator pkg/server/server.go renderTemplate), by exact, case-sensitive
// string replacement.
var knownTemplates = map[string]bool{"{{EC2PrivateDNSName}}": true, "{{AccountID}}": true, "{{SessionName}}": true,
	"{{SessionNameRaw}}": true, "{{AccessKeyID}}": true}

// checkTemplates records a problem for every {{...}} in a username or group that the
// authenticator does not substitute: it stays in the Kubernetes name literally.
func checkTemplates(a *evidence.AWSAuth, key string, i int, username string, groups []string) {
	for k, v := range append([]string{username}, groups...) {
		rest := v
		for {
			start := strings.Index(rest, "{{")
			if start < 0 {
				break
			}
			end := strings.Index(rest[start:], "}}")
			if end < 0 {
				break
			}
			tpl := rest[start : start+end+2]
			rest = rest[start+end+2:]
			if !knownTemplates[tpl] {
				a.Problems = append(a.Problems, evidence.AuthProblem{Key: key, Username: k == 0, Message: fmt.Sprintf("entry %d: %s in %q is not a placeholder the authenticator substitutes (it knows %s, case-sensitive, without blanks); it stays in the name literally", i+1, tpl, v, templateList())})
			}
		}
	}
}

func templateList() string {
	out := make([]string, 0, len(knownTemplates))
	for k := range knownTemplates {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// decodeList converts a YAML list to JSON entries, recording YAML errors, duplicate keys (which
// the authenticator resolves silently, last one wins) and ignored field names.
func decodeList(a *evidence.AWSAuth, key, v string, known map[string]bool) []json.RawMessage {
	js, err := yaml.YAMLToJSON([]byte(v))
	if err != nil {
		a.Problems = append(a.Problems, evidence.AuthProblem{Key: key, Line: errLine(err), Message: fmt.Sprintf("%s is not valid YAML, so the authenticator loads none of its entries: %v", key, cleanErr(err))})
		return nil
	}
	if dups := duplicateKeys(v); len(dups) > 0 {
		a.Problems = append(a.Problems, evidence.AuthProblem{Key: key, Line: dups[0].line, Message: fmt.Sprintf("%s has a duplicate key (the authenticator silently keeps the last value): %s", key, dupList(dups))})
	}
	if strings.TrimSpace(string(js)) == "null" {
		return nil
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(js, &entries); err != nil {
		a.Problems = append(a.Problems, evidence.AuthProblem{Key: key, Message: fmt.Sprintf("%s must be a YAML list of mappings (\"- rolearn: ...\"), so the authenticator loads none of it: %v", key, err)})
		return nil
	}
	for i, e := range entries {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(e, &fields); err != nil {
			a.Problems = append(a.Problems, evidence.AuthProblem{Key: key, Message: fmt.Sprintf("entry %d is not a mapping: %s", i+1, string(e))})
			continue
		}
		names := make([]string, 0, len(fields))
		for f := range fields {
			names = append(names, f)
		}
		sort.Strings(names)
		for _, f := range names {
			if !known[strings.ToLower(f)] {
				a.Problems = append(a.Problems, evidence.AuthProblem{Key: key, Message: fmt.Sprintf("entry %d has field %q, which the authenticator ignores (known fields: %s)", i+1, f, knownList(known))})
			}
		}
	}
	return entries
}

// dupKey is a key written a second time in one YAML mapping, at a 1-based line.
type dupKey struct {
	line int
	key  string
}

// duplicateKeys lists the keys written more than once in the same mapping of v. Keys that a
// merge key ("<<: *anchor") brings in are not counted: the authenticator decodes with
// sigs.k8s.io/yaml YAMLToJSON (go-yaml v2 Unmarshal, not UnmarshalStrict), which resolves
// merges, and go-yaml v2's strict mode wrongly reports a key written beside "<<" as a
// duplicate (kubernetes-sigs/yaml#46, go-yaml/yaml#410). A text that does not parse here
// reports none; whether it is YAML at all is judged by YAMLToJSON.
func duplicateKeys(v string) []dupKey {
	var doc yaml3.Node
	if err := yaml3.Unmarshal([]byte(v), &doc); err != nil {
		return nil
	}
	var out []dupKey
	var walk func(n *yaml3.Node)
	walk = func(n *yaml3.Node) {
		if n == nil || n.Kind == yaml3.AliasNode {
			return
		}
		if n.Kind == yaml3.MappingNode {
			seen := map[string]bool{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind == yaml3.ScalarNode && k.ShortTag() != "!!merge" {
					if seen[k.Value] {
						out = append(out, dupKey{line: k.Line, key: k.Value})
					}
					seen[k.Value] = true
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	return out
}

// dupList renders duplicate keys as go-yaml's strict mode words them, one per line.
func dupList(d []dupKey) string {
	parts := make([]string, 0, len(d))
	for _, k := range d {
		parts = append(parts, fmt.Sprintf("line %d: key %q already set in map", k.line, k.key))
	}
	return strings.Join(parts, "; ")
}

func knownList(m map[string]bool) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func cleanErr(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "error converting YAML to JSON: ")
	return strings.TrimPrefix(s, "yaml: ")
}

func errLine(err error) int {
	s := err.Error()
	i := strings.Index(s, "line ")
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range s[i+5:] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}
