package checks

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

var idPattern = regexp.MustCompile(`^[a-z]+\.[a-z0-9]+(-[a-z0-9]+)*$`)

// Registry is an immutable set of checks keyed by ID.
type Registry struct {
	checks []Check
	byID   map[string]int
}

// NewRegistry builds a registry from an explicit list. It returns an error naming the first
// duplicate ID, malformed ID or missing metadata field.
func NewRegistry(list ...Check) (*Registry, error) {
	r := &Registry{byID: map[string]int{}}
	for _, c := range list {
		m := c.Meta
		var missing []string
		if !idPattern.MatchString(m.ID) {
			return nil, fmt.Errorf("check ID %q is not of the form area.slug", m.ID)
		}
		if m.Title == "" {
			missing = append(missing, "Title")
		}
		if m.Severity.Rank() == 0 {
			missing = append(missing, "Severity")
		}
		if len(m.Needs) == 0 && len(m.NeedsAny) == 0 {
			missing = append(missing, "Needs")
		}
		if m.Why == "" {
			missing = append(missing, "Why")
		}
		if m.Remediation == "" {
			missing = append(missing, "Remediation")
		}
		if len(m.Docs) == 0 {
			missing = append(missing, "Docs")
		}
		if m.Stage == 0 {
			missing = append(missing, "Stage")
		}
		if c.Eval == nil {
			missing = append(missing, "Eval")
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("check %s: incomplete metadata: %s", m.ID, strings.Join(missing, ", "))
		}
		if _, dup := r.byID[m.ID]; dup {
			return nil, fmt.Errorf("check %s registered twice", m.ID)
		}
		r.byID[m.ID] = len(r.checks)
		r.checks = append(r.checks, c)
	}
	sort.SliceStable(r.checks, func(i, j int) bool { return r.checks[i].Meta.ID < r.checks[j].Meta.ID })
	for i, c := range r.checks {
		r.byID[c.Meta.ID] = i
	}
	return r, nil
}

// All returns every check, sorted by ID.
func (r *Registry) All() []Check { return append([]Check(nil), r.checks...) }

// Get returns the check with id.
func (r *Registry) Get(id string) (Check, bool) {
	i, ok := r.byID[id]
	if !ok {
		return Check{}, false
	}
	return r.checks[i], true
}

// Select returns the checks matching any selector: an exact ID, "area.*", or "*". An empty
// selector list selects all. A selector matching nothing is an error.
func (r *Registry) Select(selectors []string) ([]Check, error) {
	if len(selectors) == 0 {
		return r.All(), nil
	}
	seen := map[string]bool{}
	var out []Check
	for _, s := range selectors {
		s = strings.TrimSpace(s)
		n := 0
		for _, c := range r.checks {
			if Matches(s, c.Meta.ID) {
				n++
				if !seen[c.Meta.ID] {
					seen[c.Meta.ID] = true
					out = append(out, c)
				}
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("no check matches %q (see 'eksdoctor checks list')", s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Meta.ID < out[j].Meta.ID })
	return out, nil
}

// Matches reports whether pattern (an ID, "area.*" or "*") matches id.
func Matches(pattern, id string) bool {
	if pattern == "*" || pattern == id {
		return true
	}
	if area, ok := strings.CutSuffix(pattern, ".*"); ok {
		return strings.HasPrefix(id, area+".")
	}
	return false
}

// Needs returns the evidence kinds (required and optional) the given checks use, sorted, so
// collectors fetch only what is needed.
func Needs(list []Check) []evidence.Kind {
	set := map[evidence.Kind]bool{}
	for _, c := range list {
		for _, k := range c.Meta.Needs {
			set[k] = true
		}
		for _, k := range c.Meta.Optional {
			set[k] = true
		}
		for _, k := range c.Meta.NeedsAny {
			set[k] = true
		}
	}
	out := make([]evidence.Kind, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
