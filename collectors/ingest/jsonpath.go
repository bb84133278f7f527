package ingest

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/google/shlex"
)

// kubectl's -o jsonpath=TEMPLATE prints the fields a template names, with the literal text
// between them and nothing else: no keys, no quotes. Its output is read back into an object
// of the resource's kind when the template is simple enough to split it without guessing
// (jsonpathText); every field it did not ask for is unknown, as a --query projection's are
// (Segment.selected).

// jpStep is one step of a field path: a key (".name", "['a.b/c']"), an index ("[0]"), or
// a filter on a list of objects ("[?(@.type=="Ready")]": the element whose key is value).
type jpStep struct {
	key                   string
	index                 int // -1 unless an index step
	filterKey, filterWant string
	filter                bool
}

// jpElem is one piece of a template: literal text printed as it is, or a field path.
type jpElem struct {
	lit   string
	path  []jpStep
	field bool
	text  string // the path as written, for validation by path
}

// jpTemplate is a parsed template: what precedes a {range .items[*]}, its body, what follows
// {end}; ranged is false for a template without range (all of it is in pre).
type jpTemplate struct {
	pre, body, post []jpElem
	ranged          bool
}

// jsonpathKinds maps kubectl's resource names (plural, singular, short, fully qualified)
// to the apiVersion and kind of the object kubectl get returns.
var jsonpathKinds = map[string][2]string{
	"node": {"v1", "Node"}, "nodes": {"v1", "Node"}, "no": {"v1", "Node"},
	"configmap": {"v1", "ConfigMap"}, "configmaps": {"v1", "ConfigMap"}, "cm": {"v1", "ConfigMap"},
	"nodeclaim": {"karpenter.sh/v1", "NodeClaim"}, "nodeclaims": {"karpenter.sh/v1", "NodeClaim"},
	"nodeclaims.karpenter.sh": {"karpenter.sh/v1", "NodeClaim"}, "nodeclaim.karpenter.sh": {"karpenter.sh/v1", "NodeClaim"},
	"nodepool": {"karpenter.sh/v1", "NodePool"}, "nodepools": {"karpenter.sh/v1", "NodePool"},
	"nodepools.karpenter.sh": {"karpenter.sh/v1", "NodePool"}, "nodepool.karpenter.sh": {"karpenter.sh/v1", "NodePool"},
	// EKS Auto Mode's NodeClass (nodeclasses.eks.amazonaws.com); Karpenter has no kind of that name
	"nodeclass": {"eks.amazonaws.com/v1", "NodeClass"}, "nodeclasses": {"eks.amazonaws.com/v1", "NodeClass"},
	"nodeclass.eks.amazonaws.com": {"eks.amazonaws.com/v1", "NodeClass"}, "nodeclasses.eks.amazonaws.com": {"eks.amazonaws.com/v1", "NodeClass"},
	"ec2nodeclass": {"karpenter.k8s.aws/v1", "EC2NodeClass"}, "ec2nodeclasses": {"karpenter.k8s.aws/v1", "EC2NodeClass"},
	"ec2nc": {"karpenter.k8s.aws/v1", "EC2NodeClass"}, "ec2ncs": {"karpenter.k8s.aws/v1", "EC2NodeClass"},
	"ec2nodeclass.karpenter.k8s.aws": {"karpenter.k8s.aws/v1", "EC2NodeClass"}, "ec2nodeclasses.karpenter.k8s.aws": {"karpenter.k8s.aws/v1", "EC2NodeClass"},
	"csr": {"certificates.k8s.io/v1", "CertificateSigningRequest"}, "csrs": {"certificates.k8s.io/v1", "CertificateSigningRequest"},
	"certificatesigningrequest": {"certificates.k8s.io/v1", "CertificateSigningRequest"}, "certificatesigningrequests": {"certificates.k8s.io/v1", "CertificateSigningRequest"},
}

// kubectlGetFlagsWithValue are kubectl get's flags that take the next word as their value
// when written apart ("-n kube-system"), so that word is no object name.
var kubectlGetFlagsWithValue = map[string]bool{
	"-n": true, "--namespace": true, "-l": true, "--selector": true, "-o": true, "--output": true,
	"--context": true, "--cluster": true, "--kubeconfig": true, "--field-selector": true, "--user": true,
	"-s": true, "--server": true, "--request-timeout": true, "--sort-by": true, "--chunk-size": true,
	"-L": true, "--label-columns": true, "--template": true, "--as": true,
}

// jsonpathCommand reads a `kubectl get RESOURCE [NAME] -o jsonpath=TEMPLATE` command line: the
// object's apiVersion and kind, the one name asked for ("" for a list), the namespace (-n) and
// the template. ok is false for any other command, several names, or a resource kind not in
// jsonpathKinds.
func jsonpathCommand(command string) (apiVersion, kind, name, namespace, template string, ok bool) {
	f := strings.Fields(command)
	if len(f) < 3 || f[0] != "kubectl" && f[0] != "k" && f[0] != "kc" || !strings.Contains(command, "jsonpath") {
		return
	}
	args, err := shlex.Split(command)
	if err != nil {
		return
	}
	var pos []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		val := ""
		switch {
		case a == "-o" || a == "--output":
			if i+1 < len(args) {
				val = args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--output="):
			val = strings.TrimPrefix(a, "--output=")
		case strings.HasPrefix(a, "-o="):
			val = strings.TrimPrefix(a, "-o=")
		case strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "--"):
			val = strings.TrimPrefix(a, "-o")
		case a == "-n" || a == "--namespace":
			if i+1 < len(args) {
				namespace = args[i+1]
			}
			i++
			continue
		case strings.HasPrefix(a, "--namespace="):
			namespace = strings.TrimPrefix(a, "--namespace=")
			continue
		case a == "-A" || a == "--all-namespaces" || a == "-l" || a == "--selector" || strings.HasPrefix(a, "--selector="):
			// a selection: a list, whatever else the line names
			if kubectlGetFlagsWithValue[a] {
				i++
			}
			pos = append(pos, "", "") // never one object
			continue
		case kubectlGetFlagsWithValue[a]:
			i++
			continue
		case strings.HasPrefix(a, "-"):
			continue
		default:
			pos = append(pos, a)
			continue
		}
		if t, isJP := strings.CutPrefix(val, "jsonpath="); isJP {
			template = t
		} else if val != "" {
			return "", "", "", "", "", false // another output format given too
		}
	}
	if template == "" || len(pos) < 2 || pos[0] != "get" {
		return "", "", "", "", "", false
	}
	res := strings.ToLower(pos[1])
	if r, _, slash := strings.Cut(res, "/"); slash {
		// kubectl get nodeclass/gpu-batch: the name keeps its case
		res, pos = r, append([]string{"get", r, pos[1][len(r)+1:]}, pos[2:]...)
	}
	k, known := jsonpathKinds[res]
	if !known {
		return "", "", "", "", "", false
	}
	switch len(pos) {
	case 2:
	case 3:
		name = pos[2]
	default:
		return "", "", "", "", "", false
	}
	return k[0], k[1], name, namespace, template, true
}

// reJPFilter is a filter step on a list of objects: [?(@.type=="Ready")] (either quote).
var reJPFilter = regexp.MustCompile(`^\[\?\(@\.([A-Za-z0-9_]+)\s*==\s*(?:"([^"]*)"|'([^']*)')\)\]`)

// parseJPPath parses a field path (".a.b", ".a[0].b", ".a[?(@.k=="v")].b", ".a['k.with/dots']",
// ".a.k\.with\.dots"); ok is false for anything else ([*], slices, recursive descent, functions).
func parseJPPath(p string) ([]jpStep, bool) {
	p = strings.TrimPrefix(strings.TrimPrefix(p, "$"), "@")
	var steps []jpStep
	for p != "" {
		switch {
		case strings.HasPrefix(p, "."):
			p = p[1:]
			var key strings.Builder
			for p != "" && p[0] != '.' && p[0] != '[' {
				if p[0] == '\\' && len(p) > 1 && p[1] == '.' {
					key.WriteByte('.')
					p = p[2:]
					continue
				}
				key.WriteByte(p[0])
				p = p[1:]
			}
			if key.Len() == 0 || strings.ContainsAny(key.String(), "*()@ ") {
				return nil, false
			}
			steps = append(steps, jpStep{key: key.String(), index: -1})
		case strings.HasPrefix(p, "[?"):
			m := reJPFilter.FindStringSubmatch(p)
			if m == nil {
				return nil, false
			}
			steps = append(steps, jpStep{filter: true, filterKey: m[1], filterWant: m[2] + m[3], index: -1})
			p = p[len(m[0]):]
		case strings.HasPrefix(p, "['") || strings.HasPrefix(p, `["`):
			q := p[1]
			end := strings.IndexByte(p[2:], q)
			if end < 0 || !strings.HasPrefix(p[2+end+1:], "]") {
				return nil, false
			}
			steps = append(steps, jpStep{key: p[2 : 2+end], index: -1})
			p = p[2+end+2:]
		case strings.HasPrefix(p, "["):
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return nil, false
			}
			n, err := strconv.Atoi(p[1:end])
			if err != nil || n != 0 {
				// [*] prints every element joined by spaces; an index past the first leaves the
				// elements before it unknown in a list that must hold them: neither is read
				return nil, false
			}
			steps = append(steps, jpStep{index: 0})
			p = p[end+1:]
		default:
			return nil, false
		}
	}
	if len(steps) == 0 || steps[len(steps)-1].key == "" {
		return nil, false // a path must end at a field, not at a list element
	}
	return steps, true
}

// parseJPTemplate parses a kubectl jsonpath template made of field paths, quoted literals
// ({"\t"}), plain text and at most one {range .items[*]}…{end}.
func parseJPTemplate(t string) (jpTemplate, bool) {
	var tpl jpTemplate
	cur := &tpl.pre
	inRange := false
	add := func(e jpElem) {
		if !e.field && len(*cur) > 0 && !(*cur)[len(*cur)-1].field {
			(*cur)[len(*cur)-1].lit += e.lit
			return
		}
		if !e.field && e.lit == "" {
			return
		}
		*cur = append(*cur, e)
	}
	for t != "" {
		open := strings.IndexByte(t, '{')
		if open < 0 {
			add(jpElem{lit: t})
			break
		}
		if open > 0 {
			add(jpElem{lit: t[:open]})
		}
		// the action ends at the first } outside a quoted string
		end, quote := -1, byte(0)
		for i := open + 1; i < len(t); i++ {
			c := t[i]
			switch {
			case quote != 0 && c == '\\':
				i++
			case quote != 0 && c == quote:
				quote = 0
			case quote == 0 && (c == '"' || c == '\''):
				quote = c
			case quote == 0 && c == '}':
				end = i
			}
			if end >= 0 {
				break
			}
		}
		if end < 0 {
			return tpl, false
		}
		act := strings.TrimSpace(t[open+1 : end])
		t = t[end+1:]
		switch {
		case strings.HasPrefix(act, `"`) || strings.HasPrefix(act, `'`):
			q := act
			if len(act) < 2 || act[len(act)-1] != act[0] {
				return tpl, false
			}
			if act[0] == '\'' {
				q = `"` + strings.ReplaceAll(act[1:len(act)-1], `"`, `\"`) + `"`
			}
			s, err := strconv.Unquote(q)
			if err != nil {
				return tpl, false
			}
			add(jpElem{lit: s})
		case strings.HasPrefix(act, "range "):
			if tpl.ranged || strings.Join(strings.Fields(strings.TrimPrefix(act, "range ")), "") != ".items[*]" {
				return tpl, false
			}
			tpl.ranged, inRange, cur = true, true, &tpl.body
		case act == "end":
			if !inRange {
				return tpl, false
			}
			inRange, cur = false, &tpl.post
		case strings.HasPrefix(act, ".") || strings.HasPrefix(act, "$.") || strings.HasPrefix(act, "@."):
			steps, ok := parseJPPath(act)
			if !ok {
				return tpl, false
			}
			add(jpElem{field: true, path: steps, text: strings.TrimPrefix(strings.TrimPrefix(act, "$"), "@")})
		default:
			return tpl, false
		}
	}
	if inRange {
		return tpl, false
	}
	return tpl, true
}

// jpNoSpace are the field paths whose values never hold a space: a value of any other path
// followed by a separator of spaces could hold it, so such a template is not read.
var jpNoSpace = regexp.MustCompile(`^\.(?:metadata\.(?:name|namespace|uid|creationTimestamp|resourceVersion)|spec\.(?:providerID|role|instanceProfile|amiFamily|nodeClassRef\.\w+)|status\.(?:nodeInfo\.(?:kubeletVersion|kubeProxyVersion|containerRuntimeVersion|operatingSystem|architecture)|providerID|nodeName|imageID|instanceProfile)|status\.conditions\[[^\]]*\]\.(?:status|type|reason|lastTransitionTime))$`)

// jpValid checks a value against what its path can hold: a name, a kubelet version, a
// condition status, a timestamp. A value that does not fit shows the output was split wrong.
func jpValid(path, v string) bool {
	if strings.ContainsAny(v, "\n\r") {
		return false
	}
	if v == "" {
		return true
	}
	switch {
	case path == ".metadata.name":
		return reK8sName.MatchString(v)
	case strings.HasSuffix(path, "Version") && strings.HasPrefix(path, ".status.nodeInfo.kube"):
		return reKubeVersion.MatchString(v)
	case strings.HasPrefix(path, ".status.conditions[") && strings.HasSuffix(path, "].status"):
		return validConditionStatus(v)
	case strings.HasSuffix(path, "Timestamp") || strings.HasSuffix(path, "TransitionTime"):
		_, err := time.Parse(time.RFC3339, v)
		return err == nil
	}
	if jpNoSpace.MatchString(path) {
		return !strings.ContainsAny(v, " \t")
	}
	return true
}

var (
	reK8sName     = regexp.MustCompile(`^[a-z0-9]([-a-z0-9.:]*[a-z0-9])?$`)
	reKubeVersion = regexp.MustCompile(`^v\d+\.\d+\.\d+\S*$`)
)

// jpMatch splits text, from pos, by the pieces of elems: literal text must be there as it is;
// a field's value runs to the next literal (a field followed by another field, or last in a
// range's body, cannot be split). It returns the values by element index and the position
// after them.
func jpMatch(text string, pos int, elems []jpElem, last bool) (map[int]string, int, bool) {
	vals := map[int]string{}
	for i, e := range elems {
		if !e.field {
			if !strings.HasPrefix(text[pos:], e.lit) {
				return nil, 0, false
			}
			pos += len(e.lit)
			continue
		}
		var v string
		switch {
		case i+1 < len(elems) && !elems[i+1].field:
			next := elems[i+1].lit
			end := strings.Index(text[pos:], next)
			if end < 0 {
				return nil, 0, false
			}
			v = text[pos : pos+end]
			if strings.Trim(next, " ") == "" && !jpNoSpace.MatchString(e.text) {
				// a separator of spaces after a value that may hold spaces: not known where it ends
				return nil, 0, false
			}
		case i+1 == len(elems) && last:
			v = text[pos:] // the template's last piece: the rest
		default:
			return nil, 0, false
		}
		if !jpValid(e.text, v) {
			return nil, 0, false
		}
		vals[i] = v
		pos += len(v)
	}
	return vals, pos, true
}

// jpSet puts value v at path in obj, creating the maps and lists on the way: an index step
// makes a one-element list, a filter step the list element whose key is the filter's value.
func jpSet(obj map[string]any, path []jpStep, v string) {
	cur := obj
	for i, st := range path {
		lastStep := i == len(path)-1
		switch {
		case st.key != "" && lastStep:
			cur[st.key] = v
			return
		case st.key != "" && i+1 < len(path) && (path[i+1].filter || path[i+1].index == 0):
			list, _ := cur[st.key].([]any)
			nx := path[i+1]
			var el map[string]any
			for _, x := range list {
				m, _ := x.(map[string]any)
				if m != nil && (nx.index == 0 || m[nx.filterKey] == nx.filterWant) {
					el = m
					break
				}
			}
			if el == nil {
				el = map[string]any{}
				if nx.filter {
					el[nx.filterKey] = nx.filterWant
				}
				list = append(list, el)
				cur[st.key] = list
			}
			cur = el
		case st.key != "":
			m, _ := cur[st.key].(map[string]any)
			if m == nil {
				m = map[string]any{}
				cur[st.key] = m
			}
			cur = m
		}
		// filter and index steps were taken with the key before them
	}
}

// jpObject builds the object of one template run: every asked field with a value at its path.
func jpObject(elems []jpElem, vals map[int]string, apiVersion, kind string) map[string]any {
	obj := map[string]any{"apiVersion": apiVersion, "kind": kind}
	for i, e := range elems {
		if v := vals[i]; e.field && v != "" {
			// an empty value is a field the object does not have (kubectl prints nothing for it)
			jpSet(obj, e.path, v)
		}
	}
	return obj
}

// jsonpathText reads the output of `kubectl get RESOURCE [NAME] -o jsonpath=TEMPLATE`
// (jsonpathCommand, parseJPTemplate) back into the object (NAME given) or the List of objects
// (a {range .items[*]}) kubectl printed it from, each of the resource's kind with the fields the
// template asked for; the fields it did not ask for are unknown (Segment.selected), not absent.
// A NAME given on the command line names the object unless the template printed its name.
// Output that does not split back into the template's pieces — a count that does not fit, a
// value of the wrong shape, a separator a value could hold — is not read (ok false).
func jsonpathText(lines []line, command string) (Segment, bool) {
	apiVersion, kind, name, namespace, template, ok := jsonpathCommand(command)
	if !ok {
		return Segment{}, false
	}
	tpl, ok := parseJPTemplate(template)
	if !ok || tpl.ranged == (name != "") {
		// one object has no .items to range over; a list's fields are in its items
		return Segment{}, false
	}
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.text
	}
	text := strings.Join(texts, "\n")
	all := append(append(append([]jpElem(nil), tpl.pre...), tpl.body...), tpl.post...)
	if n := len(all); n > 0 && !all[n-1].field && strings.HasSuffix(all[n-1].lit, "\n") {
		// the paste drops the output's last line break
		text += "\n"
	}
	name0 := func(o map[string]any) {
		meta, _ := o["metadata"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
			o["metadata"] = meta
		}
		if _, has := meta["name"]; !has && name != "" {
			meta["name"] = name
		}
		if _, has := meta["namespace"]; !has && namespace != "" {
			meta["namespace"] = namespace
		}
	}
	var v map[string]any
	if !tpl.ranged {
		vals, end, ok := jpMatch(text, 0, tpl.pre, true)
		if !ok || end != len(text) || !hasField(tpl.pre) {
			return Segment{}, false
		}
		v = jpObject(tpl.pre, vals, apiVersion, kind)
		name0(v)
	} else {
		if hasField(tpl.pre) || hasField(tpl.post) || !hasField(tpl.body) || tpl.body[len(tpl.body)-1].field {
			return Segment{}, false
		}
		_, pos, ok := jpMatch(text, 0, tpl.pre, false)
		if !ok {
			return Segment{}, false
		}
		var items []any
		for n := 0; ; n++ {
			if rest := text[pos:]; n > 0 && jpLiteralRest(tpl.post) == rest {
				break
			}
			if pos >= len(text) {
				return Segment{}, false
			}
			vals, end, ok := jpMatch(text, pos, tpl.body, false)
			if !ok || end == pos {
				return Segment{}, false
			}
			o := jpObject(tpl.body, vals, apiVersion, kind)
			if meta, _ := o["metadata"].(map[string]any); meta == nil || meta["name"] == nil {
				// an item the template does not name cannot be told from the others
				return Segment{}, false
			}
			name0(o)
			items = append(items, o)
			pos = end
		}
		v = map[string]any{"apiVersion": "v1", "kind": "List", "items": items}
	}
	t, detail := docType(v)
	if t == TypeData || t == "" {
		return Segment{}, false
	}
	s := seg(t, detail+", read from kubectl -o jsonpath (the fields the template did not ask for are unknown)", lines)
	s.value, s.selected, s.command = v, true, command
	return s, true
}

// hasField reports whether elems hold a field path.
func hasField(elems []jpElem) bool {
	for _, e := range elems {
		if e.field {
			return true
		}
	}
	return false
}

// jpLiteralRest is the text a template part made of literals only prints.
func jpLiteralRest(elems []jpElem) string {
	var b strings.Builder
	for _, e := range elems {
		b.WriteString(e.lit)
	}
	return b.String()
}
