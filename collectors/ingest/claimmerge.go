package ingest

import "github.com/eksdoctor/eksdoctor/collectors/evidence"

// mergeNodeClaims folds NodeClaims of the same name, as one paste shows them in several outputs
// (a kubectl get nodeclaims table beside the claim's -o yaml or describe), into one claim each,
// in the order of their first appearance. The fuller claim — one whose creationTimestamp is
// known (an object or a describe), else the first — gives every field it knows and its
// conditions; the others fill the fields it leaves unknown (the table's node pool, node class,
// provider and image IDs) and add the condition types it lacks. ListedAge is kept only when no
// claim of the name knows its creation time.
func mergeNodeClaims(claims []evidence.NodeClaim) []evidence.NodeClaim {
	var out []evidence.NodeClaim
	at := map[string]int{}
	for _, c := range claims {
		i, seen := at[c.Name]
		if !seen {
			at[c.Name] = len(out)
			out = append(out, c)
			continue
		}
		base, other := out[i], c
		if base.Created.IsZero() && !other.Created.IsZero() {
			base, other = other, base
		}
		fill := func(dst *string, src string) {
			if *dst == "" {
				*dst = src
			}
		}
		fill(&base.NodePool, other.NodePool)
		fill(&base.ProviderID, other.ProviderID)
		fill(&base.NodeName, other.NodeName)
		fill(&base.ImageID, other.ImageID)
		if base.NodeClassRef.Name == "" {
			base.NodeClassRef = other.NodeClassRef
		}
		for _, oc := range other.Conditions {
			if _, has := base.Condition(oc.Type); !has {
				base.Conditions = append(base.Conditions, oc)
			}
		}
		if base.ListedAge == 0 {
			base.ListedAge = other.ListedAge
		}
		if !base.Created.IsZero() {
			base.ListedAge = 0
		}
		out[i] = base
	}
	return out
}
