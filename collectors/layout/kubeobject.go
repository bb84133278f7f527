package layout

import (
	"fmt"
	"strings"
)

// IsKubeList reports whether a decoded JSON/YAML document is a kubectl List: kind "List" or
// "<Kind>List" (kubectl prints "List" for `get` with a label selector, several names or several
// resource types, and the typed list kind for API list responses), or any object with an
// items array and no kind of its own.
func IsKubeList(doc any) bool {
	d, ok := doc.(map[string]any)
	if !ok {
		return false
	}
	kind, _ := d["kind"].(string)
	_, items := d["items"].([]any)
	return strings.HasSuffix(kind, "List") || kind == "" && items
}

// KubeObject returns the one Kubernetes object of the given kind and name (a ConfigMap
// aws-auth, a DaemonSet aws-node) that a file or pasted block read as that object holds. A
// document that is no List (IsKubeList) is returned as it is. A List — `kubectl get cm -n
// kube-system -o yaml` prints every ConfigMap of the namespace in one, a label selector or two
// names always give one — yields its item of that kind and name; when items of several
// namespaces match, the one in namespace ns. err, for a List only, says why no item can be used:
// the List holds none (which shows nothing about the object: the command that made it may have
// selected by label or name), or several. An item without a kind matches on its name, as one
// without a namespace matches ns.
func KubeObject(doc any, kind, name, ns string) (obj any, err error) {
	if !IsKubeList(doc) {
		return doc, nil
	}
	items, _ := doc.(map[string]any)["items"].([]any)
	var match []map[string]any
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		if k, _ := m["kind"].(string); k != "" && k != kind || Lookup(m, "metadata.name") != name {
			continue
		}
		match = append(match, m)
	}
	if len(match) > 1 {
		var inNS []map[string]any
		for _, m := range match {
			if n := Lookup(m, "metadata.namespace"); n == "" || n == ns {
				inNS = append(inNS, m)
			}
		}
		match = inNS
	}
	switch len(match) {
	case 1:
		return match[0], nil
	case 0:
		return nil, fmt.Errorf("a kubectl List of %d items with no %s %s in it; collect the object itself (kubectl -n %s get %s %s)", len(items), kind, name, ns, strings.ToLower(kind), name)
	}
	return nil, fmt.Errorf("a kubectl List with %d copies of %s %s/%s; collect the object itself (kubectl -n %s get %s %s)", len(match), kind, ns, name, ns, strings.ToLower(kind), name)
}
