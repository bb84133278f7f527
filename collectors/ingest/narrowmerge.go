package ingest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Several narrowed outputs of one object — `aws eks describe-cluster --name c --query
// cluster.accessConfig`, then `--query cluster.arn`; two `kubectl get ec2nodeclass X -o
// jsonpath=…` of different fields — are one document seen in pieces: they are merged field by
// field (mergeCopies) rather than the later ones dropped as second copies. Two outputs are of
// the same object when they identify the same objects (objectIDs): the cluster's name, the
// instances' IDs, the Kubernetes objects' names. A field both hold with different values is a
// conflict, and nothing of the later output is read.

// idKeys are the members that name an AWS object in the outputs eksdoctor reads, first match
// wins: describe-instances' InstanceId before the SubnetId an instance also holds.
var idKeys = []string{"InstanceId", "SubnetId", "GroupId", "RouteTableId", "NatGatewayId", "VpcEndpointId", "NetworkAclId",
	"InternetGatewayId", "PrefixListId", "LaunchTemplateId", "AutoScalingGroupName", "RoleName", "InstanceProfileName",
	"principalArn", "nodegroupName", "name"}

// objectIDs returns the sorted identities of the objects doc holds: a Kubernetes object's
// namespace/name (a List's items'), an AWS object's ID member (idKeys) under the output's one
// top-level key (describe-cluster's cluster, describe-subnets' Subnets, describe-instances'
// Reservations[].Instances[]). ok is false when an object names itself by none of them.
func objectIDs(doc any) (ids []string, ok bool) {
	m, isMap := doc.(map[string]any)
	if !isMap {
		return nil, false
	}
	if _, kube := m["apiVersion"]; kube || m["kind"] != nil || m["metadata"] != nil {
		ids, ok = itemIDs(m)
		slices.Sort(ids)
		return ids, ok
	}
	var inner any
	for _, v := range m {
		switch v.(type) {
		case map[string]any, []any:
			if inner != nil {
				return nil, false // more than one: not the shape of one command's output
			}
			inner = v
		}
	}
	if inner == nil {
		return nil, false
	}
	ids, ok = itemIDs(inner)
	slices.Sort(ids)
	return ids, ok
}

// itemIDs identifies one object or a list of them (objectIDs).
func itemIDs(v any) ([]string, bool) {
	switch x := v.(type) {
	case []any:
		var ids []string
		for _, e := range x {
			sub, ok := itemIDs(e)
			if !ok {
				return nil, false
			}
			ids = append(ids, sub...)
		}
		return ids, len(ids) > 0
	case map[string]any:
		if items, ok := x["items"].([]any); ok && x["kind"] == "List" {
			return itemIDs(items)
		}
		if meta, ok := x["metadata"].(map[string]any); ok {
			if name, _ := meta["name"].(string); name != "" {
				ns, _ := meta["namespace"].(string)
				return []string{"object " + ns + "/" + name}, true
			}
			return nil, false
		}
		if id := elemID(x); id != "" {
			return []string{id}, true
		}
		if inst, ok := x["Instances"].([]any); ok {
			return itemIDs(inst) // a reservation: its instances
		}
	}
	return nil, false
}

// elemID is the ID member of one AWS object (idKeys), "" when it has none.
func elemID(m map[string]any) string {
	for _, k := range idKeys {
		if v, ok := m[k].(string); ok && v != "" {
			return k + " " + v
		}
	}
	return ""
}

// sameObjects reports whether two outputs identify the same objects (objectIDs).
func sameObjects(a, b any) bool {
	ia, oka := objectIDs(a)
	ib, okb := objectIDs(b)
	return oka && okb && slices.Equal(ia, ib)
}

// fieldConflict is a field two outputs hold with different values.
type fieldConflict struct {
	path     string
	was, now any
}

// mergeCopies adds into dst the fields of src that dst lacks, returning the fields both hold
// with different values (dst keeps its own). Objects are merged member by member; lists of
// objects element by element, by the elements' IDs (elemID, a reservation by its instances')
// when every element has one, else by position when both have the same length; any other
// value is compared whole. dst is changed even when there are conflicts: callers merge into a
// copy.
func mergeCopies(dst map[string]any, src map[string]any, path string) []fieldConflict {
	var out []fieldConflict
	for _, k := range slices.Sorted(maps.Keys(src)) {
		sv := src[k]
		p := joinPath(path, k)
		dv, has := dst[k]
		if !has {
			dst[k] = sv
			continue
		}
		merged, conflicts := mergeValue(dv, sv, p)
		dst[k] = merged
		out = append(out, conflicts...)
	}
	return out
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// mergeValue merges two values of one field (mergeCopies).
func mergeValue(dv, sv any, p string) (any, []fieldConflict) {
	switch d := dv.(type) {
	case map[string]any:
		if s, ok := sv.(map[string]any); ok {
			return d, mergeCopies(d, s, p)
		}
	case []any:
		if s, ok := sv.([]any); ok {
			if merged, conflicts, ok := mergeLists(d, s, p); ok {
				return merged, conflicts
			}
		}
	}
	if sameJSON(dv, sv) {
		return dv, nil
	}
	return dv, []fieldConflict{{p, dv, sv}}
}

// mergeLists merges two lists of objects (mergeCopies); ok is false unless both are lists of
// objects that can be paired.
func mergeLists(d, s []any, p string) ([]any, []fieldConflict, bool) {
	dm, sm := objects(d), objects(s)
	if dm == nil || sm == nil || len(dm) != len(sm) {
		return nil, nil, false
	}
	var out []fieldConflict
	pairs := make([]int, len(sm)) // sm[i] pairs with dm[pairs[i]]
	byID := map[string]int{}
	for i, m := range dm {
		if id := listElemID(m); id != "" {
			byID[id] = i
		}
	}
	keyed := len(byID) == len(dm)
	for i, m := range sm {
		pairs[i] = i
		if !keyed {
			continue
		}
		j, found := byID[listElemID(m)]
		if !found {
			return nil, nil, false // other elements: compared whole
		}
		pairs[i] = j
	}
	for i, m := range sm {
		j := pairs[i]
		ep := p + "[" + strconv.Itoa(j) + "]"
		if id := listElemID(dm[j]); id != "" {
			ep = p + "[" + id + "]"
		}
		out = append(out, mergeCopies(dm[j], m, ep)...)
	}
	return d, out, true
}

// listElemID is an element's ID (elemID), a reservation's its instances', a Kubernetes
// object's its name.
func listElemID(m map[string]any) string {
	ids, ok := itemIDs(m)
	if !ok {
		return ""
	}
	return strings.Join(ids, ",")
}

// objects returns l's elements when every one is an object, else nil.
func objects(l []any) []map[string]any {
	out := make([]map[string]any, 0, len(l))
	for _, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return nil
		}
		out = append(out, m)
	}
	return out
}

// sameJSON compares two decoded values as JSON (a number typed from --output text and one
// decoded from JSON are equal).
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// jsonCopy returns a deep copy of v through JSON; ok is false when v is not JSON data.
func jsonCopy(v any) (any, bool) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil, false
	}
	return out, true
}

// conflictText says what fields two copies disagree on, each value quoted at most 200 bytes;
// at most three fields are named.
func conflictText(cs []fieldConflict, was, now string) string {
	var parts []string
	for i, c := range cs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(cs)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("%s is %s %s, %s %s", c.path, quoteValue(c.was), was, quoteValue(c.now), now))
	}
	return strings.Join(parts, "; ")
}

// quoteValue renders v as JSON, cut to 200 bytes.
func quoteValue(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 200 {
		return string(b[:200]) + fmt.Sprintf("…[%d bytes]", len(b))
	}
	return string(b)
}

// mergeCopy reads v, a second output kept at path, with the first when either is narrowed
// (Segment.selected, reader.selected) and both are of the same objects (sameObjects): two
// narrowed outputs are merged field by field and the file stays narrowed (what neither asked
// for is unknown); with a whole output, the whole one is kept and the narrowed one only adds the
// fields it lacks. A field both hold with different values is the narrowed (or later) segment's
// problem, naming both lines, and nothing of it is read. ok is false when the outputs are not
// merged this way (two whole copies, other objects, pages of a listing): the caller treats v
// as a second copy.
func (rd *reader) mergeCopy(path string, v any, origin string, s *Segment) bool {
	prevSel := rd.selected[path]
	if !prevSel && !s.selected {
		return false
	}
	if _, pages := v.([]any); pages {
		return false
	}
	var prevDoc any
	if json.Unmarshal(rd.files[path], &prevDoc) != nil {
		return false // pages of a listing, one JSON document a line
	}
	curDoc, ok := jsonCopy(v)
	if !ok {
		return false
	}
	prev, isMap := prevDoc.(map[string]any)
	cur, curMap := curDoc.(map[string]any)
	if !isMap || !curMap || !sameObjects(prev, cur) {
		return false
	}
	prevOrigin := rd.fileOrigin[path]
	if prevSel && !s.selected {
		// a whole output after narrowed ones: it is kept, and they add what it lacks
		kept := cur
		copied, _ := jsonCopy(cur)
		merged, isMap := copied.(map[string]any)
		if !isMap {
			return false
		}
		if cs := mergeCopies(merged, prev, ""); len(cs) > 0 {
			if p := rd.fileSeg[path]; p != nil {
				p.Problem = fmt.Sprintf("this --query output differs from the whole %s at %s: %s; the whole one is used",
					path, origin, conflictText(cs, "there", "here"))
			}
		} else {
			kept = merged
			origin += " and " + prevOrigin
		}
		rd.files[path], _ = json.Marshal(kept)
		rd.fileOrigin[path], rd.fileSeg[path] = origin, s
		delete(rd.selected, path)
		return true
	}
	whole := "the copy of " + path
	keep := "the first one is used"
	if !prevSel {
		whole, keep = "the whole "+path, "the whole one is used"
	}
	if cs := mergeCopies(prev, cur, ""); len(cs) > 0 {
		s.Problem = fmt.Sprintf("this --query output differs from %s at %s: %s; %s", whole, prevOrigin, conflictText(cs, "there", "here"), keep)
		return true
	}
	rd.files[path], _ = json.Marshal(prev)
	rd.fileOrigin[path] = prevOrigin + " and " + origin
	s.Detail += ", read with " + whole + " at " + prevOrigin
	return true
}
