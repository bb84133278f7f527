package ingest

import (
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/layout"
)

// markSpecOnly flags the node classes the paste gave without a status block (a manifest as
// written for kubectl apply): their missing conditions and instance profile are not the
// cluster's, so status-based checks do not judge them.
func markSpecOnly(ev *evidence.Evidence, segs []Segment) {
	noStatus := map[string]bool{}
	for _, s := range segs {
		if s.Type != TypeEC2NodeClass || s.selected {
			// a jsonpath template's fields: the status it did not ask for is unknown, not absent
			continue
		}
		objs, ok := s.value.([]any)
		if !ok {
			objs = []any{s.value}
			if m, isMap := s.value.(map[string]any); isMap {
				if items, isList := m["items"].([]any); isList {
					objs = items
				}
			}
		}
		for _, o := range objs {
			m, ok := o.(map[string]any)
			if !ok {
				continue
			}
			if _, has := m["status"]; !has {
				noStatus[layout.Lookup(m, "metadata.name")] = true
			}
		}
	}
	for i := range ev.NodeClasses {
		if !ev.NodeClasses[i].AutoMode && noStatus[ev.NodeClasses[i].Name] {
			ev.NodeClasses[i].SpecOnly = true
		}
	}
}
