package ingest

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"
)

// CloudFormation templates hold a node's user data as the template language writes it:
// `UserData: Fn::Base64: !Sub |` over the script, or `{"Fn::Base64": {"Fn::Join": ["", [...]]}}`
// in the JSON templates of 2018-2019 (amazon-eks-nodegroup.yaml). The node runs the text
// CloudFormation renders from it; cfnUserData renders it, the template's parameters and
// attributes left as placeholders the user data decoders know are filled in at deploy time.
// Source: AWS CloudFormation User Guide, "Intrinsic function reference" (Fn::Base64, Fn::Sub,
// Fn::Join, Ref, Fn::GetAtt) and "AWS::EC2::LaunchTemplate LaunchTemplateData" (UserData).

// cfnMaxNodes bounds the YAML nodes one template is converted through, aliases included (a
// template is a few thousand nodes; an alias bomb is stopped at the bound).
const cfnMaxNodes = 200000

// cfnMaxDepth bounds the nesting of intrinsic functions rendered into user data.
const cfnMaxDepth = 32

// cfnUserData is one resource's UserData rendered: the resource's logical name and type (""
// for a fragment that shows only LaunchTemplateData), and the text the node would run.
type cfnUserData struct {
	resource, typ string
	text          string
}

// cloudFormationYAML reads a YAML document as a CloudFormation template (or a fragment of one)
// keeping the short-form intrinsic function tags (!Ref, !Sub, !GetAtt, !Base64, !Join …) that
// a plain YAML decoder drops. ok is false when the text does not parse, or shows no
// CloudFormation resource type nor intrinsic function, or holds no UserData.
func cloudFormationYAML(text []byte) ([]cfnUserData, bool) {
	var n yaml3.Node
	if err := yaml3.Unmarshal(text, &n); err != nil {
		return nil, false
	}
	budget := cfnMaxNodes
	v, ok := cfnValue(&n, &budget, 0)
	if !ok {
		return nil, false
	}
	return cloudFormation(v)
}

// cloudFormation finds the UserData of a decoded template (JSON, or YAML through cfnValue):
// under Resources, under one resource ({Type, Properties}), or in a bare LaunchTemplateData.
func cloudFormation(v any) ([]cfnUserData, bool) {
	if !cfnShaped(v, 0) {
		return nil, false
	}
	var out []cfnUserData
	var walk func(v any, resource, typ string, depth int)
	walk = func(v any, resource, typ string, depth int) {
		if depth > 64 {
			return
		}
		switch d := v.(type) {
		case map[string]any:
			if t, _ := d["Type"].(string); strings.HasPrefix(t, "AWS::") {
				typ = t
			}
			keys := make([]string, 0, len(d))
			for k := range d {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if k == "UserData" {
					if text, ok := cfnRender(d[k], 0); ok && strings.TrimSpace(text) != "" {
						out = append(out, cfnUserData{resource: resource, typ: typ, text: text})
					}
					continue
				}
				name := resource
				if m, ok := d[k].(map[string]any); ok {
					if t, _ := m["Type"].(string); strings.HasPrefix(t, "AWS::") {
						name = k
					}
				}
				walk(d[k], name, typ, depth+1)
			}
		case []any:
			for _, e := range d {
				walk(e, resource, typ, depth+1)
			}
		}
	}
	walk(v, "", "", 0)
	return out, len(out) > 0
}

// cfnShaped reports whether v shows CloudFormation: a "Type: AWS::…" resource, a template's
// AWSTemplateFormatVersion, or an intrinsic function (Ref, Fn::…) anywhere.
func cfnShaped(v any, depth int) bool {
	if depth > 64 {
		return false
	}
	switch d := v.(type) {
	case map[string]any:
		if _, ok := d["AWSTemplateFormatVersion"]; ok {
			return true
		}
		if t, _ := d["Type"].(string); strings.HasPrefix(t, "AWS::") {
			return true
		}
		for k, e := range d {
			if k == "Ref" || strings.HasPrefix(k, "Fn::") || cfnShaped(e, depth+1) {
				return true
			}
		}
	case []any:
		for _, e := range d {
			if cfnShaped(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// cfnValue converts a YAML node to the values encoding/json gives for the same template in
// JSON: a short-form tag becomes the long form's one-key map (!Ref X → {"Ref": "X"}, !Sub s →
// {"Fn::Sub": s}, !GetAtt A.B → {"Fn::GetAtt": "A.B"}). budget counts the nodes converted;
// ok is false once it is spent or the nesting is too deep.
func cfnValue(n *yaml3.Node, budget *int, depth int) (any, bool) {
	*budget--
	if *budget < 0 || depth > 128 {
		return nil, false
	}
	var v any
	switch n.Kind {
	case yaml3.DocumentNode:
		if len(n.Content) == 0 {
			return nil, false
		}
		return cfnValue(n.Content[0], budget, depth+1)
	case yaml3.AliasNode:
		return cfnValue(n.Alias, budget, depth+1)
	case yaml3.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			e, ok := cfnValue(n.Content[i+1], budget, depth+1)
			if !ok {
				return nil, false
			}
			m[n.Content[i].Value] = e
		}
		v = m
	case yaml3.SequenceNode:
		l := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			e, ok := cfnValue(c, budget, depth+1)
			if !ok {
				return nil, false
			}
			l = append(l, e)
		}
		v = l
	case yaml3.ScalarNode:
		if strings.HasPrefix(n.Tag, "!!") || n.Tag == "" {
			if err := n.Decode(&v); err != nil {
				v = n.Value
			}
		} else {
			v = n.Value
		}
	default:
		return nil, false
	}
	if tag := n.Tag; strings.HasPrefix(tag, "!") && !strings.HasPrefix(tag, "!!") {
		name := strings.TrimPrefix(tag, "!")
		if name != "Ref" && name != "Condition" {
			name = "Fn::" + name
		}
		if name == "Fn::GetAtt" {
			if s, ok := v.(string); ok {
				v = s // the short form's "A.B"
			}
		}
		v = map[string]any{name: v}
	}
	return v, true
}

// reCfnSubVar is a variable of Fn::Sub's string: ${Name}, ${Resource.Attr}, ${AWS::Region}, and
// the literal ${!Text}, which renders as ${Text}.
var reCfnSubVar = regexp.MustCompile(`\$\{(!?)([^}\n]*)\}`)

// cfnRender renders a UserData value as CloudFormation would for the node: Fn::Base64 of its
// content, Fn::Sub with the variables its own map gives literally, Fn::Join of its parts. A
// value known only when the stack is deployed (a parameter's Ref, an attribute, a pseudo
// parameter, any other function) renders as a placeholder: ${Name} for a parameter, as bash
// would leave an unset variable, and ${Resource.Attr}, ${AWS::Region} or ${Fn::Name} for the
// others, which the user data decoders read as template values (userdata reTemplateRef).
func cfnRender(v any, depth int) (string, bool) {
	if depth > cfnMaxDepth {
		return "", false
	}
	switch d := v.(type) {
	case string:
		return d, true
	case bool, float64, int, int64, uint64:
		return fmt.Sprint(d), true
	case map[string]any:
		if len(d) != 1 {
			return "", false
		}
		for fn, arg := range d {
			switch fn {
			case "Fn::Base64":
				return cfnRender(arg, depth+1)
			case "Ref":
				name, _ := arg.(string)
				return "${" + name + "}", name != ""
			case "Fn::GetAtt":
				switch a := arg.(type) {
				case string:
					return "${" + a + "}", true
				case []any:
					var parts []string
					for _, p := range a {
						parts = append(parts, fmt.Sprint(p))
					}
					return "${" + strings.Join(parts, ".") + "}", true
				}
				return "", false
			case "Fn::Join":
				a, _ := arg.([]any)
				if len(a) != 2 {
					return "", false
				}
				sep, _ := a[0].(string)
				parts, ok := a[1].([]any)
				if !ok {
					return "${Fn::Join}", true // a list another function gives
				}
				out := make([]string, 0, len(parts))
				for _, p := range parts {
					s, ok := cfnRender(p, depth+1)
					if !ok {
						return "", false
					}
					out = append(out, s)
				}
				return strings.Join(out, sep), true
			case "Fn::Sub":
				var tmpl string
				vars := map[string]any{}
				switch a := arg.(type) {
				case string:
					tmpl = a
				case []any:
					if len(a) != 2 {
						return "", false
					}
					tmpl, _ = a[0].(string)
					vars, _ = a[1].(map[string]any)
				default:
					return "", false
				}
				return cfnSub(tmpl, vars, depth), true
			default:
				return "${" + fn + "}", true
			}
		}
	}
	return "", false
}

// cfnSub renders an Fn::Sub template string: ${!X} is the literal ${X}; a variable its map
// names is that value rendered; any other stays a placeholder.
func cfnSub(tmpl string, vars map[string]any, depth int) string {
	return reCfnSubVar.ReplaceAllStringFunc(tmpl, func(m string) string {
		sm := reCfnSubVar.FindStringSubmatch(m)
		if sm[1] == "!" {
			return "${" + sm[2] + "}"
		}
		if val, ok := vars[sm[2]]; ok {
			if s, ok := cfnRender(val, depth+1); ok {
				return s
			}
		}
		return m
	})
}

// cfnSegments are the segments of the user data a CloudFormation document holds, each over the
// document's lines and labelled with the resource it belongs to. ok is false when the document
// holds none.
func cfnSegments(uds []cfnUserData, lines []line) ([]Segment, bool) {
	var out []Segment
	for _, u := range uds {
		where := "UserData"
		switch {
		case u.resource != "" && u.typ != "":
			where = "UserData of " + u.typ + " " + u.resource
		case u.typ != "":
			where = "UserData of " + u.typ
		}
		for _, in := range Segments([]byte(strings.TrimRight(u.text, "\n") + "\n")) {
			in.First, in.Last = lines[0].n, lines[len(lines)-1].n
			in.compacted = true
			in.Detail = strings.TrimPrefix(orText(in.Detail, "text")+", from the CloudFormation "+where+" (parameters left as placeholders)", ", ")
			out = append(out, in)
		}
	}
	return out, len(out) > 0
}

// cloudFormationJSON is cloudFormation for a template already decoded from JSON.
func cloudFormationJSON(v any) ([]cfnUserData, bool) {
	if _, ok := v.(map[string]any); !ok {
		return nil, false
	}
	return cloudFormation(v)
}
