package snapshot

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/layout"
)

// errOtherObject is a keyed file (layout.Entry.Keyed) whose own identity field names another
// object than its path: user data or console output of another instance, another instance
// profile or role, versions of another launch template. Its Error text says which field holds
// what; the file is set aside as an input problem and what it would have served is a gap.
type errOtherObject struct {
	field, got, want string
}

func (e errOtherObject) Error() string {
	return fmt.Sprintf("holds the output of %s %q, not %q as its name says: it is another object's and is set aside (collect it again for %s)", e.field, e.got, e.want, e.want)
}

// otherObject reports whether doc, one shape-checked document of snapshot path p, belongs to
// another object than the one p names. The identity field is the layout entry's NameFrom
// ("InstanceId", "Role.RoleName"; for a list, "LaunchTemplateVersions.0.LaunchTemplateId",
// every element is compared). An ARN value is compared by its last part (an access entry's
// principalArn with the role name of its path). IAM names compare without case (IAM names are
// unique regardless of case: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html).
// An absent or empty field is not a mismatch (a --query projection may drop it).
func otherObject(p string, doc json.RawMessage) error {
	e, ok := layout.Match(p)
	if !ok || !e.Keyed() || e.NameFrom == "" {
		return nil
	}
	want := keyOf(e, p)
	if want == "" {
		return nil
	}
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return nil
	}
	var got []string
	if list, field, ok := strings.Cut(e.NameFrom, ".0."); ok {
		items, _ := layout.LookupAny(v, list).([]any)
		for _, it := range items {
			got = append(got, layout.Lookup(it, field))
		}
	} else {
		got = append(got, layout.Lookup(v, e.NameFrom))
	}
	field := e.NameFrom[strings.LastIndexByte(e.NameFrom, '.')+1:]
	fold := strings.HasPrefix(p, "iam/") || strings.HasPrefix(p, "eks/describe-access-entry/")
	for _, g := range got {
		name := g
		if strings.HasPrefix(name, "arn:") {
			name = nameFromArn(name)
		}
		if name == "" || name == want || fold && strings.EqualFold(name, want) {
			continue
		}
		return errOtherObject{field: field, got: g, want: want}
	}
	return nil
}

// keyOf is the name part of snapshot path p that entry e's "<…>" stands for; "" when p does
// not fill it (a kube/ file under its YAML spelling is matched by its base).
func keyOf(e layout.Entry, p string) string {
	i, j := strings.IndexByte(e.Path, '<'), strings.LastIndexByte(e.Path, '>')
	pre, suf := e.Path[:i], e.Path[j+1:]
	if strings.HasPrefix(p, "kube/") {
		for _, ext := range []string{".json", ".yaml", ".yml"} {
			if strings.HasSuffix(p, ext) {
				p = strings.TrimSuffix(p, ext) + suf[strings.LastIndexByte(suf, '.'):]
				break
			}
		}
	}
	if !strings.HasPrefix(p, pre) || !strings.HasSuffix(p, suf) || len(p) <= len(pre)+len(suf) {
		return ""
	}
	return p[len(pre) : len(p)-len(suf)]
}

// setAside records file p, which holds another object's output (err), as an input problem and
// gives the gap reason of what it would have served.
func (s *Snapshot) setAside(p string, err errOtherObject) (readResult, string) {
	s.problem(p, err.Error())
	return readGap, p + " " + err.Error()
}

// setAsideArn records file p, whose object has ARN got while the reference that led to it
// names want (same name, another account or path), as an input problem; it returns the gap reason.
func (s *Snapshot) setAsideArn(p, got, want string) string {
	msg := fmt.Sprintf("holds the output of %s, not the instance's %s: it is another object's and is set aside (collect it again in the instance's account)", got, want)
	s.problem(p, msg)
	return p + " " + msg
}
