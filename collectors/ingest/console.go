package ingest

import (
	"regexp"
	"strings"
)

// Copies out of the AWS Management Console: the console prints a resource's page as labels and
// values on lines of their own, with breadcrumbs ("IAM > Roles > NAME") and button labels
// ("Info", "Copy", "Edit") caught in the selection. What such a copy shows of a resource the
// page identifies is read as the AWS CLI output that gives the same fields, with the copy's
// lines as origin.

// reIAMRoleCrumb is the breadcrumb of an IAM role's console page ("IAM > Roles > eks-node");
// reRoleArnLine a line that is a role's ARN alone (the Summary's "ARN" value).
var (
	reIAMRoleCrumb = regexp.MustCompile(`^\s*IAM\s*>\s*Roles\s*>\s*([\w+=,.@-]{1,64})\s*$`)
	reRoleArnLine  = regexp.MustCompile(`^\s*(arn:aws[\w-]*:iam::\d{12}:role/(?:[\w+=,.@-]+/)*([\w+=,.@-]{1,64}))\s*$`)
)

// consoleRoles gives each trust policy copied from an IAM role's console page (a JSON document
// of statements that allow sts:AssumeRole* to a principal) to the role the page names: the last
// role whose breadcrumb or ARN line comes before the policy in the paste, read as `aws iam
// get-role` output (RoleName, Arn when the page shows it, AssumeRolePolicyDocument). A policy
// with no page above it, or under text naming another role after the page's, is left as it is:
// which role trusts so is not known.
func consoleRoles(segs []Segment) {
	name, arn := "", ""
	for i := range segs {
		s := &segs[i]
		if s.Type == TypeData && s.value != nil && name != "" {
			if doc, ok := s.value.(map[string]any); ok && trustPolicy(doc) {
				role := map[string]any{"RoleName": name, "AssumeRolePolicyDocument": doc}
				if arn != "" {
					role["Arn"] = arn
				}
				s.value = map[string]any{"Role": role}
				s.Type, s.Detail = AWSType("iam/get-role/<role-name>.json"), "trust policy of role "+name+" copied from the IAM console (read as aws iam get-role output)"
				name, arn = "", "" // one page, one policy
				continue
			}
		}
		if s.value != nil && s.Type != TypeData {
			continue
		}
		for _, l := range strings.Split(string(s.Text), "\n") {
			if m := reIAMRoleCrumb.FindStringSubmatch(l); m != nil {
				if m[1] != name {
					arn = ""
				}
				name = m[1]
			} else if m := reRoleArnLine.FindStringSubmatch(l); m != nil {
				if m[2] != name {
					// an ARN of another role than the breadcrumb's: the page is that role's only
					// when no breadcrumb said otherwise
					if name != "" {
						name, arn = "", ""
						continue
					}
					name = m[2]
				}
				arn = m[1]
			}
		}
	}
}

// trustPolicy reports whether doc is an IAM role's trust policy: a Statement (one or a list)
// whose every statement names a Principal and allows or denies an sts:AssumeRole* action.
func trustPolicy(doc map[string]any) bool {
	st := doc["Statement"]
	stmts, _ := st.([]any)
	if m, ok := st.(map[string]any); ok {
		stmts = []any{m}
	}
	if len(stmts) == 0 || len(doc) > 3 {
		return false
	}
	for _, x := range stmts {
		m, _ := x.(map[string]any)
		if m == nil || m["Principal"] == nil {
			return false
		}
		assume := false
		for _, a := range stringsOf(m["Action"]) {
			assume = assume || strings.HasPrefix(strings.ToLower(a), "sts:assumerole")
		}
		if !assume {
			return false
		}
	}
	return true
}
