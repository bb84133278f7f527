package ingest

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/shlex"
	"sigs.k8s.io/yaml"

	"github.com/eksdoctor/eksdoctor/collectors/layout"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// AWS CLI output narrowed with --query is a piece of the command's document: `aws ec2
// describe-route-tables --query 'RouteTables[0].Routes'` prints a list of routes, `aws eks
// describe-nodegroup --query nodegroup.nodeRole --output text` one ARN. When the command line
// was pasted above its output, the piece is put back where the expression took it from, so the
// document reads as the command's own output (with only the fields the query kept).
//
// Only the JMESPath forms people write to narrow output are inverted: field names, indexes
// ([0], [-1]), projections ([*], []) and a final multi-select hash ({Name: Field, …}) or
// multi-select list ([Name, State.Name], its values in the order of the paths) whose values are
// field paths. Anything else is left as data: a filter ([?…]) drops items, so the rebuilt list
// would say that what it dropped is absent; functions and pipes do not say where a value came
// from.

// awsQuery returns the --query expression and the --output format of an aws CLI command line;
// ok is false when the command is not `aws` or has no --query.
//
// Only the aws command's own output is narrowed: a line that pipes it into a program that
// changes it (base64 -d, openssl), writes it to a file or runs other commands after it prints
// something else (shownAWSCommand).
func awsQuery(command string) (expr, output string, ok bool) {
	if !strings.HasPrefix(command, "aws ") {
		return "", "", false
	}
	if command, ok = shownAWSCommand(command); !ok {
		return "", "", false
	}
	args, err := shlex.Split(command)
	if err != nil {
		return "", "", false
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--query" && i+1 < len(args):
			expr = args[i+1]
			i++
		case strings.HasPrefix(a, "--query="):
			expr = strings.TrimPrefix(a, "--query=")
		case a == "--output" && i+1 < len(args):
			output = args[i+1]
			i++
		case strings.HasPrefix(a, "--output="):
			output = strings.TrimPrefix(a, "--output=")
		}
	}
	return expr, output, expr != ""
}

// qStep is one step of a narrowing expression: a field, an index, a projection, or a final
// multi-select hash (keys → field paths) or list (field paths, in order).
type qStep struct {
	field   string
	index   bool
	project bool
	flatten bool
	hash    map[string][]qStep
	list    [][]qStep
}

// parseQuery splits a narrowing JMESPath expression into steps; ok is false for anything
// outside the forms listed above.
func parseQuery(expr string) ([]qStep, bool) {
	expr = strings.TrimSpace(expr)
	var steps []qStep
	for len(expr) > 0 {
		switch {
		case expr[0] == '.':
			expr = expr[1:]
		case expr[0] == '[':
			end := closing(expr, '[', ']')
			if end < 0 {
				return nil, false
			}
			in := strings.TrimSpace(expr[1:end])
			switch {
			case in == "*":
				steps = append(steps, qStep{project: true})
			case in == "":
				steps = append(steps, qStep{project: true, flatten: true})
			case isInt(in):
				steps = append(steps, qStep{index: true})
			case len(steps) > 0 && strings.TrimSpace(expr[end+1:]) == "":
				// a final multi-select list of field paths
				var list [][]qStep
				for _, part := range splitTop(in) {
					// an element that is no field path (a filter, a pipe, a function:
					// Tags[?Key==`Name`]|[0].Value) keeps its place; its value is dropped
					sub, _ := fieldPath(part)
					list = append(list, sub)
				}
				steps = append(steps, qStep{list: list})
			default:
				return nil, false // a slice, a filter, a list that is not last
			}
			expr = expr[end+1:]
		case expr[0] == '{':
			end := closing(expr, '{', '}')
			if end < 0 || strings.TrimSpace(expr[end+1:]) != "" {
				return nil, false
			}
			h := map[string][]qStep{}
			for _, part := range splitTop(expr[1:end]) {
				k, v, found := strings.Cut(part, ":")
				if !found {
					return nil, false
				}
				sub, _ := fieldPath(v) // nil: not placeable, dropped
				h[strings.Trim(strings.TrimSpace(k), `"`)] = sub
			}
			steps = append(steps, qStep{hash: h})
			expr = ""
		default:
			n := 0
			for n < len(expr) && (isIdent(expr[n])) {
				n++
			}
			if n == 0 {
				return nil, false // a function, a pipe, a literal
			}
			steps = append(steps, qStep{field: expr[:n]})
			expr = expr[n:]
		}
	}
	return steps, len(steps) > 0
}

// fieldPath parses a dotted field path (State.Name, NatGatewayAddresses[0].PublicIp) inside a
// multi-select; ok is false for anything else. An or-expression of sibling field paths
// (GatewayId||NatGatewayId, people's way of printing a route's one target) is placed under its
// first alternative: which alternative gave the value is not printed, and the readers of such
// siblings (a route's target fields) take whichever is set.
func fieldPath(expr string) ([]qStep, bool) {
	if alts := splitOr(expr); len(alts) > 1 {
		var first []qStep
		for i, a := range alts {
			sub, ok := fieldPath(a)
			if !ok || i > 0 && !siblings(first, sub) {
				return nil, false
			}
			if i == 0 {
				first = sub
			}
		}
		return first, true
	}
	sub, ok := parseQuery(expr)
	if !ok {
		return nil, false
	}
	for _, s := range sub {
		if s.field == "" && !s.index {
			return nil, false // a projection inside a multi-select: its grouping is lost
		}
	}
	return sub, true
}

// splitOr splits a JMESPath expression at its top-level `||` operators (outside brackets and
// quotes); one element when it has none.
func splitOr(s string) []string {
	var out []string
	depth, start := 0, 0
	unquoted(s, func(i int) bool {
		switch c := s[i]; {
		case c == '[' || c == '{' || c == '(':
			depth++
		case c == ']' || c == '}' || c == ')':
			depth--
		case c == '|' && depth == 0 && i+1 < len(s) && s[i+1] == '|' && i >= start:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 2
		}
		return true
	})
	return append(out, strings.TrimSpace(s[start:]))
}

// unquoted calls visit with the index of each byte of s outside quoted text ('…', "…", `…`),
// in order, until visit returns false.
func unquoted(s string, visit func(i int) bool) {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		default:
			if !visit(i) {
				return
			}
		}
	}
}

// siblings reports whether two field paths differ only in their last field (Route.GatewayId
// and Route.NatGatewayId): members of one object.
func siblings(a, b []qStep) bool {
	if len(a) != len(b) || len(a) == 0 || a[len(a)-1].field == "" || b[len(b)-1].field == "" {
		return false
	}
	for i := range len(a) - 1 {
		if a[i].field != b[i].field || a[i].index != b[i].index {
			return false
		}
	}
	return true
}

func isIdent(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isInt(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// closing returns the index of the bracket closing s[0], skipping quoted text; -1 when none.
func closing(s string, open, close byte) int {
	depth, at := 0, -1
	unquoted(s, func(i int) bool {
		switch s[i] {
		case open:
			depth++
		case close:
			if depth--; depth == 0 {
				at = i
				return false
			}
		}
		return true
	})
	return at
}

// splitTop splits a hash body at its top-level commas.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// unquery puts v, the result of steps, back into the document shape the steps read it from.
// ok is false when v's shape does not fit the steps (a projection over a non-list).
func unquery(steps []qStep, v any) (any, bool) {
	if len(steps) == 0 {
		return v, true
	}
	st, rest := steps[0], steps[1:]
	switch {
	case st.field != "":
		if len(rest) == 0 {
			v = typedText(st.field, v)
		}
		inner, ok := unquery(rest, v)
		if !ok {
			return nil, false
		}
		return map[string]any{st.field: inner}, true
	case st.index:
		inner, ok := unquery(rest, v)
		if !ok {
			return nil, false
		}
		return []any{inner}, true
	case st.project:
		list, isList := v.([]any)
		if !isList {
			return nil, false
		}
		if st.flatten && projects(rest) {
			// a flattened inner projection lost the grouping: one element holds all of it
			inner, ok := unquery(rest, v)
			if !ok {
				return nil, false
			}
			return []any{inner}, true
		}
		out := make([]any, 0, len(list))
		for _, e := range list {
			inner, ok := unquery(rest, e)
			if !ok {
				return nil, false
			}
			out = append(out, inner)
		}
		return out, true
	case st.hash != nil:
		m, isMap := v.(map[string]any)
		if !isMap {
			return nil, false
		}
		out := map[string]any{}
		for k, path := range st.hash {
			val, present := m[k]
			if !present || path == nil {
				continue
			}
			if len(path) > 0 {
				val = typedText(path[len(path)-1].field, val)
			}
			inner, ok := unquery(path, val)
			if !ok {
				return nil, false
			}
			merge(out, inner.(map[string]any))
		}
		return out, true
	case st.list != nil:
		vals, isList := v.([]any)
		if !isList || len(vals) != len(st.list) {
			return nil, false
		}
		out := map[string]any{}
		for i, path := range st.list {
			if path == nil {
				continue // an element that is no field path: its value has no place
			}
			// null in JSON, None in text: the field was asked for and is absent (a null at
			// its path says so: a profile with no ARN is no profile)
			inner, ok := unquery(path, vals[i])
			if !ok {
				return nil, false
			}
			merge(out, inner.(map[string]any))
		}
		return out, true
	}
	return nil, false
}

func projects(steps []qStep) bool {
	for _, s := range steps {
		if s.project {
			return true
		}
	}
	return false
}

// merge adds src's keys into dst, merging nested objects.
func merge(dst, src map[string]any) {
	for k, v := range src {
		if dm, ok := dst[k].(map[string]any); ok {
			if sm, ok := v.(map[string]any); ok {
				merge(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// textValue reads `--output text` of a narrowing query: one value per line, tab-separated
// values on a line (the CLI prints a list of scalars on one line, tab-separated). One value
// is returned as a string, several — or one under a projection (`Reservations[].Instances[].ImageId`
// of one instance) — as a list. When the query ends in a multi-select list,
// its values keep their places (None is null): one list for the line of a single object,
// one list per line under a projection.
func textValue(lines []line, steps []qStep) any {
	if n := len(steps); n > 0 && steps[n-1].list != nil {
		var rows []any
		for _, l := range lines {
			if strings.TrimSpace(l.text) == "" {
				continue
			}
			var row []any
			for _, f := range strings.Split(strings.TrimSpace(l.text), "\t") {
				if f = strings.TrimSpace(f); f != "None" {
					row = append(row, f)
				} else {
					row = append(row, nil)
				}
			}
			rows = append(rows, row)
		}
		if !projects(steps) && len(rows) == 1 {
			return rows[0]
		}
		return rows
	}
	var vals []any
	for _, l := range lines {
		for _, f := range strings.Split(strings.TrimSpace(l.text), "\t") {
			if f = strings.TrimSpace(f); f != "" && f != "None" {
				vals = append(vals, f)
			}
		}
	}
	if len(vals) == 1 && !projects(steps) {
		return vals[0]
	}
	return vals
}

// requeried turns a JSON segment that is not recognisable output into the command's output
// when its command line narrowed it with --query and the value fits back into place.
//
// Without a command line, a value that is the items of exactly one AWS CLI output (a list of
// instances, one cluster object: layout.RewrapAny) is read as that output.
func requeried(segs []Segment, command string) {
	if len(segs) != 1 || segs[0].Type != TypeData {
		return
	}
	if doc, detail, ok := requery(segs[0].value, command); ok {
		segs[0].selected = selects(command)
		segs[0].value = doc
		segs[0].Type, segs[0].Detail = docType(doc)
		segs[0].Detail += detail
		return
	}
	if e, doc, ok := layout.RewrapAny(segs[0].value); ok {
		if t, detail := docType(doc); strings.HasPrefix(string(t), "aws:") {
			segs[0].value = doc
			segs[0].Type, segs[0].Detail = t, detail+", without its "+e.PasteKey+" wrapper (narrowed by a --query)"
		}
	}
}

// queriedText reads the `--output text` or `--output table` of a narrowing --query (at most a
// few lines) as the command's output.
func queriedText(lines []line, command string) (Segment, bool) {
	expr, output, ok := awsQuery(command)
	if !ok || output != "text" && output != "table" && !jsonScalar(lines, output) || len(lines) > 50 {
		return Segment{}, false
	}
	steps, ok := parseQuery(expr)
	if !ok {
		return Segment{}, false
	}
	var v any
	switch last := steps[len(steps)-1]; {
	case output != "text" && output != "table":
		// the JSON output of a query down to one value: a quoted string, a number, a boolean
		_ = json.Unmarshal([]byte(strings.TrimSpace(lines[0].text)), &v)
	case output == "table" && last.hash != nil:
		// a hash's table puts its keys (sorted) in a header row above the values
		rows, ok := tableRows(lines)
		if !ok || len(rows) < 2 {
			return Segment{}, false
		}
		if obj, ok := verticalObject(rows); ok && !projects(steps) {
			for k := range obj {
				if _, known := last.hash[k]; !known {
					return Segment{}, false
				}
			}
			v = obj
			break
		}
		header := strings.Split(rows[0].text, "\t")
		for _, k := range header {
			if _, known := last.hash[k]; !known {
				return Segment{}, false
			}
		}
		var items []any
		for _, r := range rows[1:] {
			cells := strings.Split(r.text, "\t")
			if len(cells) != len(header) {
				return Segment{}, false
			}
			item := map[string]any{}
			for i, k := range header {
				if cells[i] != "None" {
					item[k] = cells[i]
				}
			}
			items = append(items, item)
		}
		if v = items; !projects(steps) && len(items) == 1 {
			v = items[0]
		}
	case output == "table":
		rows, ok := tableRows(lines)
		if !ok {
			return Segment{}, false
		}
		if obj, ok := verticalObject(rows); ok && last.list == nil && !projects(steps) {
			v = obj
			break
		}
		if items, ok := tableObjects(rows); ok && last.list == nil {
			if v = items; !projects(steps) && len(items) == 1 {
				v = items[0]
			}
			break
		}
		v = textValue(rows, steps)
	default:
		v = textValue(lines, steps)
	}
	return requeriedSegment(lines, v, command, "")
}

// requeriedSegment is the segment of lines whose value v, narrowed by command's --query, is put
// back into the command's output (requery); suffix ends its detail. ok is false when v does not
// fit back.
func requeriedSegment(lines []line, v any, command, suffix string) (Segment, bool) {
	doc, detail, ok := requery(v, command)
	if !ok {
		return Segment{}, false
	}
	s := seg(TypeData, "", lines)
	s.value = doc
	s.Type, s.Detail = docType(doc)
	s.Detail += detail + suffix
	s.selected = selects(command)
	return s, true
}

// jsonScalar reports whether lines are the JSON output (output "" or "json") of a query down to
// one value: a single line holding a quoted string, a number or a boolean (a JSON object or list
// is read as JSON before this).
func jsonScalar(lines []line, output string) bool {
	if output != "" && output != "json" || len(lines) != 1 {
		return false
	}
	var v any
	if json.Unmarshal([]byte(strings.TrimSpace(lines[0].text)), &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64, bool:
		return true
	}
	return false
}

// queriedYAML reads the `--output yaml` (or yaml-stream) of a narrowing --query as the command's
// output, as queriedText reads text: the YAML is decoded and put back where the query took it from.
func queriedYAML(lines []line, command string) (Segment, bool) {
	_, output, ok := awsQuery(command)
	if !ok || output != "yaml" && output != "yaml-stream" || len(lines) > 20000 {
		return Segment{}, false
	}
	var v any
	if err := yaml.Unmarshal(joinLines(lines), &v); err != nil || v == nil {
		return Segment{}, false
	}
	if list, isList := v.([]any); isList && output == "yaml-stream" && len(list) == 1 {
		v = list[0] // one page
	}
	return requeriedSegment(lines, v, command, " (--output "+output+")")
}

// selects reports whether command's --query picked fields inside the output's items, so the
// document rebuilt from it holds only those: a multi-select hash or list, or a path that goes
// deeper than the items (Reservations[].Instances[].SecurityGroups[], Subnets[].SubnetId,
// nodegroup.nodeRole). A path to the items (Reservations[].Instances[], Subnets, cluster) keeps
// them whole.
func selects(command string) bool {
	expr, _, _ := awsQuery(command)
	steps, ok := parseQuery(expr)
	if !ok {
		return false
	}
	fields := 0
	for _, st := range steps {
		if st.hash != nil || st.list != nil {
			return true
		}
		if st.field != "" {
			fields++
		}
	}
	depth := 1 // Subnets, cluster, nodegroup: the items are the top-level key's
	if steps[0].field == "Reservations" {
		depth = 2 // describe-instances: Reservations[].Instances[]
	}
	return fields > depth
}

// requery puts v back into the document its command's --query took it from; ok is false
// unless the result is recognised AWS CLI output.
func requery(v any, command string) (doc any, detail string, ok bool) {
	expr, _, ok := awsQuery(command)
	if !ok {
		return nil, "", false
	}
	steps, ok := parseQuery(expr)
	if !ok {
		return nil, "", false
	}
	doc, ok = unquery(steps, v)
	if !ok {
		return nil, "", false
	}
	// what the command line names (the instance, type or profile asked for) completes the
	// document before it is told: `--instance-ids i-0abc --query 'Reservations[].Instances[].ImageId'`
	// keeps no key that says it is describe-instances' output
	namedInstance(doc, command)
	namedInstanceType(doc, command)
	namedMembers(doc, command)
	if t, _ := docType(doc); !strings.HasPrefix(string(t), "aws:") {
		return nil, "", false
	}
	return doc, ", narrowed by --query " + expr, true
}

// namedInstance gives the one instance of a rebuilt describe-instances document the ID its
// command line asked for (--instance-ids i-0abc…) when the query did not keep InstanceId
// (`--query 'Reservations[].Instances[].SecurityGroups[]'`): the output is that instance's.
func namedInstance(doc any, command string) {
	ids := cliValues(command, "describe-instances", "--instance-ids")
	if len(ids) != 1 || !strings.HasPrefix(ids[0], "i-") {
		return
	}
	var instances []map[string]any
	if res, ok := layout.LookupAny(doc, "Reservations").([]any); ok {
		for _, r := range res {
			list, _ := layout.LookupAny(r, "Instances").([]any)
			for _, in := range list {
				if m, ok := in.(map[string]any); ok {
					instances = append(instances, m)
				}
			}
		}
	}
	if len(instances) == 1 && instances[0]["InstanceId"] == nil {
		instances[0]["InstanceId"] = ids[0]
	}
}

// namedInstanceType gives the one type of a rebuilt describe-instance-types document the name its
// command line asked for (--instance-types m5.large) when the query did not keep InstanceType
// (`--query 'InstanceTypes[0].NetworkInfo.{…}'`).
func namedInstanceType(doc any, command string) {
	names := cliValues(command, "describe-instance-types", "--instance-types")
	list, _ := layout.LookupAny(doc, "InstanceTypes").([]any)
	if len(names) != 1 || len(list) != 1 {
		return
	}
	if m, ok := list[0].(map[string]any); ok && m["InstanceType"] == nil {
		m["InstanceType"] = names[0]
	}
}

// argFlag returns the value a split command line (args, from shlex) gives flag, as `--flag V` or
// `--flag=V` (the last one given); "" when it gives none.
func argFlag(args []string, flag string) string {
	v := ""
	for i := 1; i < len(args); i++ {
		switch {
		case args[i] == flag && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(args[i], flag+"="):
			v = strings.TrimPrefix(args[i], flag+"=")
		}
	}
	return v
}

// commandNames are the members of a rebuilt document that its command line names when the
// query dropped them: `aws SERVICE OPERATION` → the flag and the member (a dotted path) its
// value fills (`aws eks describe-access-entry --principal-arn ARN --query 'accessEntry.type'`
// prints the type of ARN's entry; `aws iam get-instance-profile --instance-profile-name P
// --query 'InstanceProfile.Roles[0].Arn'` the role of profile P, filed under its name).
var commandNames = map[string][][2]string{
	"iam get-instance-profile":  {{"--instance-profile-name", "InstanceProfile.InstanceProfileName"}},
	"iam get-role":              {{"--role-name", "Role.RoleName"}},
	"eks describe-access-entry": {{"--principal-arn", "accessEntry.principalArn"}, {"--cluster-name", "accessEntry.clusterName"}},
	"eks describe-cluster":      {{"--name", "cluster.name"}},
	"eks describe-nodegroup":    {{"--nodegroup-name", "nodegroup.nodegroupName"}, {"--cluster-name", "nodegroup.clusterName"}},
}

// namedMembers fills in a rebuilt document the members its command line names (commandNames)
// when the query did not keep them; a member the output holds is left as it is.
func namedMembers(doc any, command string) {
	args, err := shlex.Split(command)
	if err != nil || len(args) < 3 || args[0] != "aws" {
		return
	}
	for _, fill := range commandNames[args[1]+" "+args[2]] {
		v := argFlag(args, fill[0])
		dot := strings.LastIndexByte(fill[1], '.')
		m, _ := layout.LookupAny(doc, fill[1][:dot]).(map[string]any)
		if v == "" || m == nil || m[fill[1][dot+1:]] != nil {
			continue
		}
		m[fill[1][dot+1:]] = v
	}
}

// cliValues returns the values an `aws ec2 OPERATION` command line gives flag (space-separated
// or repeated, --flag=v1 too); nil for another command.
func cliValues(command, operation, flag string) []string {
	args, err := shlex.Split(command)
	if err != nil || len(args) < 3 || args[0] != "aws" || args[1] != "ec2" || args[2] != operation {
		return nil
	}
	var vals []string
	for i := 3; i < len(args); i++ {
		switch a := args[i]; {
		case a == flag:
			for j := i + 1; j < len(args) && !strings.HasPrefix(args[j], "--"); j++ {
				vals = append(vals, strings.Fields(args[j])...)
			}
		case strings.HasPrefix(a, flag+"="):
			vals = append(vals, strings.Fields(strings.TrimPrefix(a, flag+"="))...)
		}
	}
	return vals
}

// tableRows reads the AWS CLI's `--output table` of a flat result (scalars, or rows of a
// multi-select list) as the tab-separated rows `--output text` prints: border lines
// (-----, +----+----+) and the title row (the operation's name, DescribeSubnets) are dropped,
// each row's cells are trimmed. ok is false for nested sections ("||" rows: objects whose keys
// the table puts in header rows) and for lines that are not table rows.
func tableRows(lines []line) ([]line, bool) {
	var out []line
	title := true
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if t == "" || strings.Trim(t, "-+|") == "" {
			continue
		}
		if !strings.HasPrefix(t, "|") || !strings.HasSuffix(t, "|") || strings.HasPrefix(t, "||") {
			return nil, false
		}
		cells := strings.Split(t[1:len(t)-1], "|")
		if title {
			title = false
			if len(cells) == 1 && isOperationName(strings.TrimSpace(cells[0])) {
				continue
			}
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		out = append(out, line{n: l.n, text: strings.Join(cells, "\t")})
	}
	return out, len(out) > 0
}

// reFieldName is an AWS API member name as a table's header row prints it (GatewayId, endpointPublicAccess).
var reFieldName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)

// tableObjects reads tableRows of objects with scalar members: the AWS CLI's table formatter
// prints a header row of their keys, sorted, then one row per object, a member an object lacks
// left blank (awscli/formatter.py, TableFormatter._group_scalar_keys_from_list). ok is false
// unless the first row is at least two distinct member names in sorted order and every other
// row has as many cells; blank and None cells are left out of the objects, values are typed
// as their fields are in JSON output (typedText).
func tableObjects(rows []line) ([]any, bool) {
	if len(rows) < 2 {
		return nil, false
	}
	header := strings.Split(rows[0].text, "\t")
	if len(header) < 2 {
		return nil, false
	}
	for i, k := range header {
		if !reFieldName.MatchString(k) || i > 0 && header[i-1] >= k {
			return nil, false
		}
	}
	items := make([]any, 0, len(rows)-1)
	for _, r := range rows[1:] {
		cells := strings.Split(r.text, "\t")
		if len(cells) != len(header) {
			return nil, false
		}
		item := map[string]any{}
		for i, k := range header {
			if cells[i] != "" && cells[i] != "None" {
				item[k] = typedText(k, cells[i])
			}
		}
		items = append(items, item)
	}
	return items, true
}

// verticalObject reads tableRows of one object printed key by key: the AWS CLI turns a table
// wider than the terminal whose sections have one row each into rows of "key | value"
// (awscli/table.py, convert_to_vertical_table). ok is false unless there are at least two rows,
// each of two cells, the first cells distinct member names in sorted order (the header order).
// None values are left out, values are typed as their fields are in JSON output (typedText).
func verticalObject(rows []line) (map[string]any, bool) {
	if len(rows) < 2 {
		return nil, false
	}
	obj := map[string]any{}
	prev := ""
	for _, r := range rows {
		cells := strings.Split(r.text, "\t")
		if len(cells) != 2 || !reFieldName.MatchString(cells[0]) || cells[0] <= prev {
			return nil, false
		}
		prev = cells[0]
		if cells[1] != "" && cells[1] != "None" {
			obj[cells[0]] = typedText(cells[0], cells[1])
		}
	}
	return obj, true
}

// isOperationName reports whether s is an AWS API operation name as the table's title row
// prints it (DescribeSubnets, ListAccessEntries).
func isOperationName(s string) bool {
	if len(s) < 4 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i]) || s[i] == '-' || s[i] == '_' {
			return false
		}
	}
	return true
}

// textInts and textBools are the number and boolean fields of the AWS CLI outputs eksdoctor
// reads (the botocore shapes' integer and boolean members it decodes), which `--output text`
// and `--output table` print as bare words: 8152, True.
var (
	textInts = map[string]bool{"AvailableIpAddressCount": true, "FromPort": true, "ToPort": true, "DeviceIndex": true,
		"HttpPutResponseHopLimit": true, "Ipv4AddressesPerInterface": true, "MaximumNetworkInterfaces": true, "RuleNumber": true,
		"VersionNumber": true, "VolumeSize": true, "Code": true, "DesiredCapacity": true, "MinSize": true, "MaxSize": true,
		"desiredSize": true, "minSize": true, "maxSize": true}
	textBools = map[string]bool{"DefaultVersion": true, "Egress": true, "IsDefault": true, "Main": true, "MapPublicIpOnLaunch": true,
		"PrivateDnsEnabled": true, "endpointPrivateAccess": true, "endpointPublicAccess": true, "DefaultForAz": true,
		"EnableDnsSupport": true, "EnableDnsHostnames": true}
)

// typedText gives a value read from text or table output (always a string) the type its field
// has in the JSON output, so it decodes like JSON output would; other values are unchanged.
func typedText(field string, v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	switch {
	case textInts[field]:
		if n, err := strconv.Atoi(s); err == nil {
			return float64(n)
		}
	case textBools[field]:
		switch strings.ToLower(s) {
		case "true":
			return true
		case "false":
			return false
		}
	}
	return v
}

// listTextOutputs are AWS CLI list operations whose result is one list of flat items, by
// "SERVICE OPERATION": the output key and the item's fields in the order `--output text` prints
// them (sorted by name; nil for a list of strings). The text formatter prints one row per item,
// the output key upper-cased, then the values (aws-cli awscli/formatter.py TextFormatter).
var listTextOutputs = map[string]struct {
	key    string
	fields []string
}{
	"iam list-attached-role-policies": {"AttachedPolicies", []string{"PolicyArn", "PolicyName"}},
	"iam list-role-policies":          {"PolicyNames", nil},
	"eks list-access-entries":         {"accessEntries", nil},
	"eks list-nodegroups":             {"nodegroups", nil},
}

// listText reads the `--output text` of a list operation of listTextOutputs run without --query
// (ATTACHEDPOLICIES\tarn:aws:iam::aws:policy/…\tName rows) as the command's JSON output. ok is
// false for another command, another output, or a row that is not the list's.
func listText(lines []line, command string) (Segment, bool) {
	args, err := shlex.Split(command)
	if err != nil || len(args) < 3 || args[0] != "aws" || len(lines) > 2000 {
		return Segment{}, false
	}
	if _, _, q := awsQuery(command); q {
		return Segment{}, false
	}
	spec, known := listTextOutputs[args[1]+" "+args[2]]
	if !known {
		return vpcAttributeText(lines, args)
	}
	if argFlag(args, "--output") != "text" {
		return Segment{}, false
	}
	tag := strings.ToUpper(spec.key)
	items := []any{}
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		cells := strings.Split(t, "\t")
		if len(cells) == 1 {
			cells = strings.Fields(t)
		}
		if cells[0] != tag || len(cells) != 1+max(len(spec.fields), 1) {
			return Segment{}, false
		}
		if spec.fields == nil {
			items = append(items, cells[1])
			continue
		}
		item := map[string]any{}
		for i, f := range spec.fields {
			item[f] = cells[1+i]
		}
		items = append(items, item)
	}
	doc := map[string]any{spec.key: items}
	t, detail := docType(doc)
	if !strings.HasPrefix(string(t), "aws:") {
		return Segment{}, false
	}
	sg := seg(t, detail+" (--output text)", lines)
	sg.value = doc
	return sg, true
}

// reTextRowTag is the first cell of a row of the AWS CLI's text output: the upper-cased name of
// the list or object the row's values belong to (NATGATEWAYS, ENTRIES, ASSOCIATIONS, TAGS).
var reTextRowTag = regexp.MustCompile(`^[A-Z][A-Z0-9]+$`)

// keylessText recognises the whole `--output text` of an AWS CLI describe, list or get command
// without --query (its command line shown above it) that listText cannot read: each row is an
// upper-cased tag and the values of one object's scalar members, in the order of their sorted
// names but without them, a member the object lacks left out (awscli/formatter.py,
// TextFormatter), so which value is which cannot be told. The segment names that problem and
// how to paste the output instead; ok is false for anything else.
func keylessText(lines []line, command string) (Segment, bool) {
	args, err := shlex.Split(command)
	if err != nil || len(args) < 3 || args[0] != "aws" || argFlag(args, "--output") != "text" {
		return Segment{}, false
	}
	if _, _, q := awsQuery(command); q {
		return Segment{}, false
	}
	rows := 0
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		cells := strings.Split(t, "\t")
		if !reTextRowTag.MatchString(cells[0]) {
			return Segment{}, false
		}
		if len(cells) > 1 {
			rows++
		}
	}
	if rows == 0 {
		return Segment{}, false
	}
	s := seg(TypeData, "aws "+args[1]+" "+args[2]+" --output text", lines)
	s.Problem = "the AWS CLI's text output prints each object's values without their names, leaving out the members it lacks, so which value is which cannot be told; paste it with --output json (or --output yaml), or name the fields with --query"
	return s, true
}

// vpcAttributeText reads `aws ec2 describe-vpc-attribute --attribute enableDnsHostnames|
// enableDnsSupport --output text` without --query: the VPC ID on the first line, then the
// attribute upper-cased and its value (the text formatter's row for the nested {"Value": …}), as
// the command's JSON output. ok is false for anything else.
func vpcAttributeText(lines []line, args []string) (Segment, bool) {
	if len(args) < 3 || args[1] != "ec2" || args[2] != "describe-vpc-attribute" {
		return Segment{}, false
	}
	attr, output := argFlag(args, "--attribute"), argFlag(args, "--output")
	key := map[string]string{"enableDnsHostnames": "EnableDnsHostnames", "enableDnsSupport": "EnableDnsSupport"}[attr]
	if key == "" || output != "text" {
		return Segment{}, false
	}
	var vpc, value string
	for _, l := range lines {
		f := strings.Fields(l.text)
		switch {
		case len(f) == 0:
		case len(f) == 1 && strings.HasPrefix(f[0], "vpc-"):
			vpc = f[0]
		case len(f) == 2 && f[0] == strings.ToUpper(key) && (f[1] == "True" || f[1] == "False"):
			value = f[1]
		default:
			return Segment{}, false
		}
	}
	if vpc == "" || value == "" {
		return Segment{}, false
	}
	doc := map[string]any{"VpcId": vpc, key: map[string]any{"Value": value == "True"}}
	t, detail := docType(doc)
	if !strings.HasPrefix(string(t), "aws:") {
		return Segment{}, false
	}
	sg := seg(t, detail+" (--output text)", lines)
	sg.value = doc
	return sg, true
}

// ec2Narrowing reads what an `aws ec2 describe-…` command line says about the output pasted
// under it (snapshot.Narrowing): its --filters (or --filter, describe-nat-gateways' spelling), in
// the CLI's shorthand (Name=vpc-id,Values=vpc-1,vpc-2, several after one flag) or JSON
// ([{"Name":"vpc-id","Values":["vpc-1"]}]), and the IDs of its --…-ids flag. origin names where
// the output was read. ok is false for another command, or one that narrows nothing.
func ec2Narrowing(command, origin string) (snapshot.Narrowing, bool) {
	args, err := shlex.Split(command)
	if err != nil || len(args) < 3 || args[0] != "aws" || args[1] != "ec2" || !strings.HasPrefix(args[2], "describe-") {
		return snapshot.Narrowing{}, false
	}
	n := snapshot.Narrowing{Filters: map[string][]string{}}
	var given []string
	for i := 3; i < len(args); i++ {
		a := args[i]
		flag, inline, hasInline := strings.Cut(a, "=")
		if !strings.HasPrefix(flag, "--") {
			continue
		}
		var vals []string
		if hasInline {
			vals = []string{inline}
		}
		for j := i + 1; !hasInline && j < len(args) && !strings.HasPrefix(args[j], "--"); j++ {
			vals = append(vals, args[j])
			i = j
		}
		switch {
		case flag == "--filters" || flag == "--filter":
			for _, v := range vals {
				if !addFilters(n.Filters, v) {
					return snapshot.Narrowing{}, false // a filter not understood: nothing is said
				}
			}
			given = append(given, flag+" "+strings.Join(vals, " "))
		case strings.HasSuffix(flag, "-ids") && flag != "--owner-ids":
			for _, v := range vals {
				n.IDs = append(n.IDs, strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ',' })...)
			}
			given = append(given, flag+" "+strings.Join(vals, " "))
		}
	}
	if expr, _, ok := awsQuery(command); ok {
		if steps, ok := parseQuery(expr); ok {
			for i := 1; i < len(steps); i++ {
				if steps[i].index && steps[i-1].field != "" && i > 1 {
					n.OneOf = steps[i-1].field // a list inside the items, cut to one element
				}
			}
		}
	}
	if len(given) == 0 && n.OneOf == "" {
		return snapshot.Narrowing{}, false
	}
	n.Origin = strings.Join(given, " ") + " (" + origin + ")"
	if len(given) == 0 {
		n.Origin = "the command line (" + origin + ")"
	}
	return n, true
}

// addFilters adds the filters of one --filters value to f: shorthand Name=N,Values=V1,V2 or a
// JSON list of {"Name","Values"}. ok is false for anything else.
func addFilters(f map[string][]string, v string) bool {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "[") {
		var list []struct {
			Name   string
			Values []string
		}
		if json.Unmarshal([]byte(v), &list) != nil {
			return false
		}
		for _, e := range list {
			if e.Name == "" {
				return false
			}
			f[e.Name] = append(f[e.Name], e.Values...)
		}
		return true
	}
	name, rest, ok := strings.Cut(v, ",")
	name, isName := strings.CutPrefix(name, "Name=")
	values, isValues := strings.CutPrefix(rest, "Values=")
	if !ok || !isName || !isValues || name == "" {
		return false
	}
	values = strings.Trim(values, "[]")
	for _, x := range strings.Split(values, ",") {
		if x = strings.TrimSpace(x); x != "" {
			f[name] = append(f[name], x)
		}
	}
	return len(f[name]) > 0
}
