package ingest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
	"sigs.k8s.io/yaml"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/layout"
	"github.com/eksdoctor/eksdoctor/collectors/userdata"
)

// structured reads a block as one or more structured documents. It reports false when the
// block is not one (log text or prose), so the caller reads it line by line. A document that
// does not parse is read again with the lines a terminal or ticket tool hard-wrapped rejoined
// (rejoinCut); the rejoined reading is kept only when it parses.
func structured(lines []line, command string) ([]Segment, bool) {
	if joined, changed := rejoinCut(lines, true); changed {
		// a cut that leaves its rest at column 0 inside an indented document is a wrap
		lines = joined
	}
	segs, ok := structuredOnce(lines, command)
	if ok && unparsed(segs) {
		if joined, changed := rejoinCut(lines, false); changed {
			if js, jok := structuredOnce(joined, command); jok && !unparsed(js) {
				segs = js
			}
		}
	}
	for i := range segs {
		segs[i].command = command
	}
	if ok && apiclientSome(command) {
		for i := range segs {
			segs[i].partial = segs[i].Type == TypeBottlerocketSettings
		}
	}
	return segs, ok
}

// apiclientOutput reports whether command is Bottlerocket's apiclient (with sudo, or run through
// sheltie or the admin container's wrappers: "apiclient get settings.kubernetes", "apiclient -u
// /settings | jq"), whose settings are the node's API's.
func apiclientOutput(command string) bool {
	f := strings.Fields(command)
	for len(f) > 0 && (f[0] == "sudo" || f[0] == "sheltie" || f[0] == "--") {
		f = f[1:]
	}
	return len(f) > 0 && f[0] == "apiclient"
}

// apiclientSome reports whether command is `apiclient get` of keys none of which holds the whole
// of settings.kubernetes ("apiclient get settings.kubernetes.api-server
// settings.kubernetes.cluster-name os.version-id"): what it prints holds only those keys, and
// keys of os or of other settings add none of settings.kubernetes. `apiclient get` with no key,
// or with settings or settings.kubernetes, prints all of it.
func apiclientSome(command string) bool {
	f := strings.Fields(command)
	if len(f) < 3 || f[0] != "apiclient" || f[1] != "get" {
		return false
	}
	some := false
	for _, a := range f[2:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if k := strings.TrimPrefix(a, "/"); k == "settings" || k == "settings.kubernetes" {
			return false
		}
		some = true
	}
	return some
}

// unparsed reports whether a document of segs was recognised but did not parse.
func unparsed(segs []Segment) bool {
	for _, s := range segs {
		if strings.Contains(s.Problem, "not valid YAML") || strings.Contains(s.Problem, "not valid JSON") || s.Detail == detailNodeConfigUnparsed {
			return true
		}
	}
	return false
}

// rejoinCut joins every line exactly as long as the longest (of at least 60 characters) with
// the line after it: the cut of a hard wrap, which falls at the same column every time. With
// dedented, only when every such cut is indented and its rest starts at column 0 with no YAML
// key, list item, document marker or closing JSON bracket: a document cannot go on that way.
// The joined line keeps the first line's number.
func rejoinCut(lines []line, dedented bool) ([]line, bool) {
	width := 0
	for _, l := range lines {
		width = max(width, len(l.text))
	}
	if width < 60 {
		return lines, false
	}
	if dedented {
		cuts := 0
		for i, l := range lines {
			if len(l.text) != width || i+1 >= len(lines) {
				continue
			}
			next := lines[i+1].text
			rest := i > 0 && len(lines[i-1].text) == width // this line is itself a cut's rest
			if !strings.HasPrefix(l.text, " ") && !rest || next == "" || strings.ContainsRune(" \t}]", rune(next[0])) || reYAMLLineStart.MatchString(next) {
				return lines, false
			}
			cuts++
		}
		if cuts == 0 {
			return lines, false
		}
	}
	out := make([]line, 0, len(lines))
	changed := false
	for i := 0; i < len(lines); i++ {
		cur := lines[i]
		for len(lines[i].text) == width && i+1 < len(lines) && strings.TrimSpace(lines[i+1].text) != "" {
			cur.text += lines[i+1].text
			i++
			changed = true
		}
		out = append(out, cur)
	}
	return out, changed
}

// reYAMLLineStart is how a line at column 0 of a YAML document starts: a key, a list item, a
// document marker or a comment.
var reYAMLLineStart = regexp.MustCompile(`^(?:[\w.$/"'-]+\s*:(?:\s|$)|- |-$|---|\.\.\.|#)`)

func structuredOnce(lines []line, command string) ([]Segment, bool) {
	if len(lines) > maxSegmentLines {
		return nil, false
	}
	text := joinLines(lines)
	first := strings.TrimSpace(lines[0].text)
	if len(text) > MaxDocumentBytes && (strings.HasPrefix(first, "{") || strings.HasPrefix(first, "[") || strings.HasPrefix(first, "apiVersion:") || first == "---") {
		s := seg(TypeData, "", lines)
		s.Problem = fmt.Sprintf("a document of %d MiB, over the %d MiB decoded from a paste; give AWS CLI or kubectl output this large in a snapshot (docs/snapshot-format.md)", len(text)>>20, MaxDocumentBytes>>20)
		return []Segment{s}, true
	}
	if imdsUserDataCommand(command) && !imdsError(lines) {
		// what the instance metadata service returns is the user data whole, as EC2 holds it
		return []Segment{seg(TypeUserData, detailIMDSUserData, lines)}, true
	}
	switch {
	case strings.HasPrefix(first, "{") || strings.HasPrefix(first, "["):
		if s, ok := jsonDocs(lines, text); ok {
			requeried(s, command)
			return s, true
		}
	case strings.HasPrefix(strings.ToLower(first), "mime-version:") || strings.HasPrefix(strings.ToLower(first), "content-type: multipart/"):
		return []Segment{seg(TypeUserData, "MIME multipart user data", lines)}, true
	case userdata.PartsFragment(text):
		return []Segment{seg(TypeUserData, "MIME parts cut from a multipart document", lines)}, true
	case strings.HasPrefix(first, "<powershell>"):
		return []Segment{seg(TypeUserData, "PowerShell user data", lines)}, true
	case (strings.HasPrefix(first, "version:") || strings.HasPrefix(first, "tasks:")) && userdata.EC2LaunchV2(text):
		return []Segment{seg(TypeUserData, "EC2Launch v2 YAML user data", lines)}, true
	case strings.HasPrefix(first, "#!"):
		return []Segment{seg(TypeUserData, "shell script", lines)}, true
	case strings.HasPrefix(first, "#cloud-config"):
		return []Segment{seg(TypeUserData, "cloud-config", lines)}, true
	}
	if s, ok := jsonpathText(lines, command); ok {
		return []Segment{s}, true
	}
	if s, ok := queriedText(lines, command); ok {
		return []Segment{s}, true
	}
	if s, ok := listText(lines, command); ok {
		return []Segment{s}, true
	}
	if s, ok := keylessText(lines, command); ok {
		return []Segment{s}, true
	}
	if tomlSettings(lines) {
		return []Segment{seg(TypeUserData, "Bottlerocket TOML settings", lines)}, true
	}
	if s, ok := base64Blob(lines); ok {
		return []Segment{s}, true
	}
	if s, ok := kubectlVersion(lines); ok {
		return []Segment{s}, true
	}
	if s, ok := kubectlText(lines, command); ok {
		return s, true
	}
	if s, ok := terraformCluster(lines); ok {
		return []Segment{s}, true
	}
	if s, ok := terraformAWSAuth(lines); ok {
		return []Segment{s}, true
	}
	if s, ok := terraformNodeArgs(lines); ok {
		return []Segment{s}, true
	}
	if s, ok := terraformResources(lines); ok {
		return s, true
	}
	if s, ok := queriedYAML(lines, command); ok {
		return []Segment{s}, true
	}
	if s, ok := yamlDocs(lines); ok {
		return s, true
	}
	if s, ok := bootstrapScript(lines); ok {
		// the script starts at its #! line: sentences above it in the same block ("user data
		// from the launch template:") are the poster's, and an apostrophe in them would open a
		// shell quote
		for i := 1; i < len(lines); i++ {
			if strings.HasPrefix(strings.TrimSpace(lines[i].text), "#!") {
				if head := trimBlank(lines[:i]); len(head) > 0 {
					return []Segment{seg(TypeProse, "", head), seg(TypeUserData, "shell script", lines[i:])}, true
				}
				return []Segment{seg(TypeUserData, "shell script", lines[i:])}, true
			}
		}
		return []Segment{s}, true
	}
	if s, ok := windowsBootstrapScript(lines); ok {
		return []Segment{s}, true
	}
	if s, ok := mapRolesFragment(lines); ok {
		return []Segment{s}, true
	}
	return nil, false
}

// detailIMDSUserData is the detail of user data printed by a command that fetched it from the
// instance metadata service (imdsUserDataCommand): the whole user data, not an excerpt.
const detailIMDSUserData = "user data from the instance metadata service"

// reIMDSUserData is a command that prints the instance's user data from the instance metadata
// service (IMDS returns it decoded, as it was given: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-add-user-data.html):
// curl, wget, Invoke-RestMethod or Invoke-WebRequest of http://169.254.169.254/latest/user-data
// (or IMDS's IPv6 address), the AWS Tools for PowerShell's Get-EC2InstanceMetadata -Category
// UserData, and ec2-metadata --user-data.
var reIMDSUserData = regexp.MustCompile(`(?i)(?:169\.254\.169\.254|\[fd00:ec2::254\]|instance-data)(?::80)?/latest/user-data(?:[\s'")/]|$)|\bGet-EC2InstanceMetadata\b.*-Category\s+UserData\b|\bec2-metadata\s+(?:-d|--user-data)\b`)

// imdsUserDataCommand reports whether command fetched the instance's user data from IMDS
// (reIMDSUserData).
func imdsUserDataCommand(command string) bool {
	return command != "" && reIMDSUserData.MatchString(command)
}

// reIMDSError is the first line of what a user data fetch prints when IMDS has none or refused
// it: its 404 page (XML or HTML), PowerShell's error record, curl's error.
var reIMDSError = regexp.MustCompile(`(?i)^\s*(?:<\?xml|<!DOCTYPE|<html|Invoke-(?:RestMethod|WebRequest)\s*:|Get-EC2InstanceMetadata\s*:|curl: \(\d+\)|wget:|404 - Not Found|.*\(40[134]\) (?:Not Found|Unauthorized|Forbidden))`)

// imdsError reports whether the output of a user data fetch is an error, not user data.
func imdsError(lines []line) bool {
	return len(lines) > 0 && reIMDSError.MatchString(lines[0].text)
}

// rePowerShellLine is a line of a PowerShell script: a comment, a typed or plain variable
// assignment, a call (&), a Verb-Noun cmdlet, a script tag or a blank line.
var rePowerShellLine = regexp.MustCompile(`^\s*(?:#|\[[\w.\[\]]+\]\s*\$|\$[\w:]+\s*=|&\s|[A-Z][a-z]+-[A-Z]\w+\b|</?(?:powershell|script|persist)>|$)`)

// windowsBootstrapScript recognises PowerShell pasted on its own that calls the EKS Windows
// bootstrap script Start-EKSBootstrap.ps1 (the EKS Windows user data template without its
// <powershell> tag, or with it further down): at least half its lines PowerShell, no log line.
func windowsBootstrapScript(lines []line) (Segment, bool) {
	if !strings.Contains(strings.ToLower(string(joinLines(lines))), "start-eksbootstrap.ps1") {
		return Segment{}, false
	}
	ps := 0
	for _, l := range lines {
		if logLine(l.text) {
			return Segment{}, false
		}
		if rePowerShellLine.MatchString(l.text) {
			ps++
		}
	}
	if ps*2 < len(lines) {
		return Segment{}, false
	}
	return seg(TypeUserData, "PowerShell script", lines), true
}

var (
	reRoleArnKey = regexp.MustCompile(`(?i)^\s*(?:-\s*)?"?rolearn"?\s*[:=]`)
	reFragKey    = regexp.MustCompile(`^\s*(-\s+)?"?([A-Za-z_]+)"?\s*[:=](?:\s+|$|")(.*?)\s*,?\s*$`)
	reFragItem   = regexp.MustCompile(`^\s*-\s+"?([^"]+?)"?\s*,?\s*$`)
)

// mapRolesFragment reads a piece of aws-auth's mapRoles cut out of a ConfigMap, a Terraform
// rendering or a chat message (entries whose indentation or quoting no longer parse as YAML): it
// collects each entry's rolearn, username and groups.
func mapRolesFragment(lines []line) (Segment, bool) {
	n := 0
	for _, l := range lines {
		if reRoleArnKey.MatchString(l.text) {
			n++
		}
		// a log line, quoted or not (a lone "> " line is left quoted by unquote), is not part
		// of a mapping: the region holds more than the fragment, and is split, not swallowed
		if logLine(l.text) || logLine(unquoteLine(l.text)) {
			return Segment{}, false
		}
	}
	if n == 0 {
		return Segment{}, false
	}
	list := fragmentEntries(lines, false)
	if !anyMapping(list) {
		return Segment{}, false
	}
	s := seg(TypeAWSAuth, "aws-auth mapRoles fragment", lines)
	s.value = list
	s.cutFirst = startsInsideEntry(lines)
	return s, true
}

// anyMapping reports whether a fragment's entries map a role to anything: a username or groups
// beside a rolearn. A lone "roleArn" key is as likely another output's field (describe-cluster's
// cluster role, cut short so it no longer parses as JSON) as a mapping.
func anyMapping(entries []any) bool {
	for _, e := range entries {
		m, _ := e.(map[string]any)
		if m["username"] != nil || m["groups"] != nil {
			return true
		}
	}
	return false
}

// startsInsideEntry reports whether a mapRoles fragment begins inside an entry: its first key
// has no list dash while a later entry starts with one, so the first entry's dash, and whatever
// keys came before the cut, are out of view.
func startsInsideEntry(lines []line) bool {
	first := true
	for _, l := range lines {
		m := reFragKey.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		if first {
			if m[1] != "" {
				return false
			}
			first = false
			continue
		}
		if m[1] != "" {
			return true
		}
	}
	return false
}

// fragmentEntries collects the mapRoles entries (rolearn, username, groups) of text that is
// mapRoles-shaped but may not parse as YAML; with keepCut also those without a rolearn (an
// entry cut off by the end of a paste).
func fragmentEntries(lines []line, keepCut bool) []any {
	var entries []map[string]any
	cur := map[string]any{}
	inGroups := false
	flush := func() {
		if len(cur) > 0 {
			entries = append(entries, cur)
		}
		cur = map[string]any{}
	}
	for _, l := range lines {
		if m := reFragKey.FindStringSubmatch(l.text); m != nil {
			key := strings.ToLower(m[2])
			val := strings.Trim(m[3], `"' `)
			if m[1] != "" || cur[key] != nil {
				flush()
			}
			inGroups = key == "groups"
			switch key {
			case "rolearn", "username":
				cur[key] = val
			case "groups":
				var gs []any
				for _, g := range strings.FieldsFunc(strings.Trim(val, "[]"), func(r rune) bool { return r == ',' || r == ' ' }) {
					if g = strings.Trim(g, `"'`); g != "" {
						gs = append(gs, g)
					}
				}
				cur["groups"] = gs
			}
			continue
		}
		if m := reFragItem.FindStringSubmatch(l.text); m != nil && inGroups {
			gs, _ := cur["groups"].([]any)
			cur["groups"] = append(gs, strings.Trim(m[1], "'")) // YAML's single quotes, as Pulumi renders them
		}
	}
	flush()
	var list []any
	for _, e := range entries {
		if _, ok := e["rolearn"]; ok || keepCut {
			list = append(list, e)
		}
	}
	return list
}

// numberOutOfRange reads a JSON document that is well formed but holds a number no float64
// holds (a 400-digit State.Code, 1e999), which the JSON reader refuses. When the document is of
// a known type (describe-instances output, a Node list …) it returns a segment that is not read,
// whose Problem names that type, the number and its line: an input problem, not unrecognised
// text.
func numberOutOfRange(lines []line, text []byte, err error) (Segment, bool) {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || !strings.HasPrefix(te.Value, "number ") {
		return Segment{}, false
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return Segment{}, false
	}
	t, detail := docType(v)
	if t == TypeData {
		return Segment{}, false
	}
	num := strings.TrimPrefix(te.Value, "number ")
	if len(num) > 24 {
		num = fmt.Sprintf("%s…%s (%d characters)", num[:12], num[len(num)-4:], len(num))
	}
	at := ""
	if off := int(te.Offset); off > 0 && off <= len(text) {
		at = fmt.Sprintf(" on line %d", lines[0].n+bytes.Count(text[:off], []byte("\n")))
	}
	what := Segment{Type: t, Detail: detail}.Label()
	s := seg(TypeData, "JSON that does not parse", lines)
	s.Problem = fmt.Sprintf("%s that does not parse: the number %s%s is out of range (beyond what a 64-bit float holds)", what, num, at)
	return s, true
}

// MaxJSONDepth is how many levels of nesting (objects and arrays) the JSON reader follows:
// encoding/json's maxNestingDepth (src/encoding/json/scanner.go), past which it stops with
// "exceeded max depth". AWS CLI and kubectl output nests a few dozen levels at most.
const MaxJSONDepth = 10000

// nestedTooDeep reads a JSON document the reader stopped in because it nests deeper than
// MaxJSONDepth (err is the decoder's) as a segment that is not read, whose Problem says so with
// the limit and where: an input problem, not unrecognised text. ok is false for any other error.
func nestedTooDeep(lines []line, text []byte, err error) (Segment, bool) {
	var se *json.SyntaxError
	if !errors.As(err, &se) || !strings.HasSuffix(se.Error(), "exceeded max depth") {
		return Segment{}, false
	}
	at := ""
	if off := int(se.Offset); off > 0 && off <= len(text) {
		at = fmt.Sprintf(", reached on line %d", lines[0].n+bytes.Count(text[:off], []byte("\n")))
	}
	s := seg(TypeData, "JSON nested too deeply", lines)
	s.Problem = fmt.Sprintf("JSON too deeply nested to read: more than %d levels of objects and arrays, the reader's limit%s", MaxJSONDepth, at)
	return s, true
}

// damagedAWSAuthJSON is the segment of an aws-auth ConfigMap pasted as JSON that does not parse
// (err, from reading text). kubectl prints a ConfigMap as valid JSON (and kubectl apply
// refuses JSON that is not), so JSON that does not parse is damage done to the paste — most
// often a terminal's scrollback or a copy that cut it off — and says nothing about the cluster's
// aws-auth: the segment is not read (TypeData) and its Problem names the damage and its line.
// A JSON string cannot hold a line break (RFC 8259 section 7), so a line that ends inside one
// was cut there, as was a document that ends before its brackets close.
func damagedAWSAuthJSON(lines []line, text []byte, err error) Segment {
	s := seg(TypeData, "aws-auth ConfigMap, JSON that does not parse", lines)
	var se *json.SyntaxError
	at := lines[len(lines)-1].n
	if errors.As(err, &se) && se.Offset > 0 && int(se.Offset) <= len(text) {
		at = lines[0].n + bytes.Count(text[:se.Offset-1], []byte("\n"))
	}
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		s.Problem = fmt.Sprintf("aws-auth ConfigMap cut off at line %d: the JSON ends before its closing brackets, so the paste holds only part of it; not judged (paste the whole output of kubectl get -n kube-system configmap aws-auth -o yaml)", at)
	case strings.Contains(err.Error(), `'\n' in string literal`):
		s.Problem = fmt.Sprintf("aws-auth ConfigMap cut off at line %d: the line ends inside a JSON string, so the paste holds only part of it; not judged (paste the whole output of kubectl get -n kube-system configmap aws-auth -o yaml)", at)
	default:
		s.Problem = fmt.Sprintf("aws-auth ConfigMap pasted as JSON that does not parse (%v, line %d): kubectl prints a ConfigMap as valid JSON, so the paste was damaged; not judged", err, at)
	}
	return s
}

// jsonDocs reads one JSON value, or a sequence of them (paginated CLI output). A block of one
// JSON log record per line is not a document (it is a log).
func jsonDocs(lines []line, text []byte) ([]Segment, bool) {
	jsonLines := 0
	for _, l := range lines {
		if jsonRecord(l.text) {
			jsonLines++
		}
	}
	if jsonLines*2 > len(lines) {
		return nil, false // one JSON log record per line: a log
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	var docs []any
	var ends []int64 // the offset in text after each of docs
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if err.Error() == "EOF" {
				break
			}
			if len(docs) == 0 {
				if looksAWSAuth(text) {
					return []Segment{damagedAWSAuthJSON(lines, text, err)}, true
				}
				if s, ok := numberOutOfRange(lines, text, err); ok {
					return []Segment{s}, true
				}
				if s, ok := nestedTooDeep(lines, text, err); ok {
					return []Segment{s}, true
				}
				// "[ERROR] …", a cut JSON record: not a document; read as text
				return nil, false
			}
			break
		}
		docs = append(docs, v)
		ends = append(ends, dec.InputOffset())
	}
	if len(docs) == 0 {
		return nil, false
	}
	if rest := bytes.TrimSpace(text[dec.InputOffset():]); len(rest) > 0 {
		// "[   27.562077] sundog[1145]: …": a JSON value followed by text is not JSON
		return nil, false
	}
	if out, ok := splitJSONDocs(lines, text, docs, ends); ok {
		return out, true
	}
	if msgs, ok := logEvents(docs); ok {
		// CloudWatch Logs output (filter-log-events, get-log-events, a Logs Insights result or
		// export): the messages are the log, one event per line
		s := seg(TypeLog, "CloudWatch Logs events", lines)
		s.Text = []byte(strings.Join(msgs, "\n") + "\n")
		s.compacted = true
		return []Segment{s}, true
	}
	if allLogRecords(docs) {
		// pretty-printed log records (a Karpenter or IPAMD line run through jq): one line each
		var b bytes.Buffer
		for _, d := range docs {
			j, _ := json.Marshal(d)
			b.Write(j)
			b.WriteByte('\n')
		}
		s := seg(TypeLog, "JSON", lines)
		s.Text = b.Bytes()
		s.compacted = true
		return []Segment{s}, true
	}
	if out, ok := consoleOutput(docs, lines); ok {
		return out, true
	}
	if len(docs) == 1 {
		if out, ok := listItems(docs[0], lines); ok {
			return out, true
		}
	}
	s := seg(TypeData, "JSON", lines)
	s.Type, s.Detail = docType(docs[0])
	if s.Type == TypeData {
		if uds, ok := cloudFormationJSON(docs[0]); ok {
			if out, ok := cfnSegments(uds, lines); ok {
				return out, true
			}
		}
		if out, ok := embedded(docs, lines); ok {
			return out, true
		}
	}
	if len(docs) > 1 {
		s.value = docs
	} else {
		s.value = docs[0]
	}
	return []Segment{s}, true
}

// splitJSONDocs reads JSON documents back to back (files put together with `cat f1 f2 …`) apart
// when they are of different types: each run of documents of one type (the pages of one command
// stay together) is read as its own part, over its own lines. ok is false when the documents are
// all of one type, or one of them does not start and end on lines of its own.
func splitJSONDocs(lines []line, text []byte, docs []any, ends []int64) ([]Segment, bool) {
	if len(docs) < 2 {
		return nil, false
	}
	first, _ := docType(docs[0])
	mixed := false
	for _, d := range docs[1:] {
		if t, _ := docType(d); t != first {
			mixed = true
			break
		}
	}
	if !mixed {
		return nil, false
	}
	// starts[k] is the offset in text of lines[k] (joinLines: each line and a line break)
	starts := make([]int64, len(lines)+1)
	for k, l := range lines {
		starts[k+1] = starts[k] + int64(len(l.text)) + 1
	}
	// lineOf returns the index of the line that begins at offset off, or -1
	lineOf := func(off int64) int {
		k := sort.Search(len(starts), func(k int) bool { return starts[k] >= off })
		if k < len(starts) && starts[k] == off {
			return k
		}
		return -1
	}
	// bounds[k] is the index of the first line of docs[k]; bounds[len(docs)] is len(lines)
	bounds := make([]int, len(docs)+1)
	bounds[len(docs)] = len(lines)
	var prev int64
	for k := range docs {
		off := prev
		for off < int64(len(text)) && (text[off] == ' ' || text[off] == '\t' || text[off] == '\n' || text[off] == '\r') {
			off++
		}
		l := lineOf(off)
		if l < 0 {
			return nil, false
		}
		if e := ends[k]; e < int64(len(text)) && text[e] != '\n' {
			return nil, false // the next value goes on on the same line
		}
		bounds[k], prev = l, ends[k]
	}
	var out []Segment
	for k := 0; k < len(docs); {
		t, _ := docType(docs[k])
		j := k + 1
		for j < len(docs) {
			if u, _ := docType(docs[j]); u != t {
				break
			}
			j++
		}
		part := trimBlank(lines[bounds[k]:bounds[j]])
		segs, ok := jsonDocs(part, joinLines(part))
		if !ok {
			return nil, false
		}
		out = append(out, segs...)
		k = j
	}
	return out, true
}

// listTypes are the types a List of several items reads as one document (a Node list …).
var listTypes = map[Type]bool{TypeNodes: true, TypeCSRs: true, TypeNodeClaim: true, TypeEC2NodeClass: true, TypeNodePool: true}

// maxListItemSegments bounds the segments one List of mixed kinds gives for types read one
// object at a time (aws-auth, amazon-vpc-cni …); the items past it are not read.
const maxListItemSegments = 16

// listItems splits a Kubernetes List whose items are of different types — `kubectl get cm -n
// kube-system -o yaml` prints every ConfigMap of the namespace in one List, kube-root-ca.crt
// first — into segments of the types eksdoctor reads, each over the List's lines: one per type
// that reads as a list (listTypes, the items of that type in a List), one per item otherwise.
// ok is false when v is no List, or its items are all of one type, which docType names.
func listItems(v any, lines []line) ([]Segment, bool) {
	d, _ := v.(map[string]any)
	if kind, _ := d["kind"].(string); kind != "List" && kind != "ConfigMapList" {
		return nil, false
	}
	items, _ := d["items"].([]any)
	if len(items) < 2 {
		return nil, false
	}
	type group struct {
		detail string
		items  []any
	}
	var order []Type
	groups := map[Type]*group{}
	for _, it := range items {
		t, detail := docType(it)
		g := groups[t]
		if g == nil {
			g = &group{detail: detail}
			groups[t] = g
			order = append(order, t)
		}
		g.items = append(g.items, it)
	}
	if len(order) < 2 {
		return nil, false
	}
	base := seg(TypeData, "", lines) // the List's text, shared by its segments
	var out []Segment
	for _, t := range order {
		if t == TypeData {
			continue
		}
		g := groups[t]
		if listTypes[t] {
			s := base
			s.Type, s.Detail = t, g.detail+" (in a List)"
			if len(g.items) > 1 {
				s.Detail = strings.Fields(g.detail)[0] + " list (in a List)"
			}
			s.value = map[string]any{"apiVersion": "v1", "kind": "List", "items": g.items}
			out = append(out, s)
			continue
		}
		for _, it := range g.items {
			if len(out) == maxListItemSegments {
				break
			}
			s := base
			s.Type, s.value = t, it
			_, s.Detail = docType(it)
			s.Detail += " (in a List)"
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, false
	}
	return out, true
}

// docType names a decoded JSON/YAML document: a Kubernetes object by kind (and name), node
// configuration, Bottlerocket settings, or AWS CLI output by its top-level key.
func docType(v any) (Type, string) {
	switch d := v.(type) {
	case map[string]any:
		kind, _ := d["kind"].(string)
		name := layout.Lookup(d, "metadata.name")
		switch kind {
		case "ConfigMap":
			if _, ok := d["data"].(map[string]any); ok && (name == "aws-auth" || hasAny(d["data"], "mapRoles", "mapUsers", "mapAccounts")) {
				return TypeAWSAuth, "aws-auth ConfigMap"
			}
			if name == "amazon-vpc-cni" {
				return TypeVPCCNIConfig, "ConfigMap amazon-vpc-cni"
			}
			return TypeData, "ConfigMap " + name
		case "ClusterConfig":
			if api, _ := d["apiVersion"].(string); strings.HasPrefix(api, "eksctl.io/") {
				return TypeEksctlConfig, "eksctl ClusterConfig " + name
			}
		case "NodeConfig":
			return TypeNodeConfig, "nodeadm NodeConfig"
		case "Config":
			if _, ok := d["clusters"]; ok {
				return TypeKubeconfig, "kubeconfig"
			}
		case "KubeletConfiguration":
			return TypeKubeletConfig, "KubeletConfiguration"
		case "EC2NodeClass":
			return TypeEC2NodeClass, "Karpenter EC2NodeClass " + name
		case "AWSNodeTemplate":
			return TypeEC2NodeClass, "Karpenter AWSNodeTemplate " + name + " (v1alpha1, read as an EC2NodeClass)"
		case "NodeClass":
			// EKS Auto Mode's node class (https://docs.aws.amazon.com/eks/latest/userguide/create-node-class.html)
			if api, _ := d["apiVersion"].(string); strings.HasPrefix(api, "eks.amazonaws.com/") {
				return TypeEC2NodeClass, "EKS Auto Mode NodeClass " + name
			}
		case "NodePool":
			return TypeNodePool, "Karpenter NodePool " + name
		case "NodeClaim":
			return TypeNodeClaim, "Karpenter NodeClaim " + name
		case "Machine":
			// Karpenter v0.28–v0.31's NodeClaim (a Cluster API Machine is cluster.x-k8s.io)
			if api, _ := d["apiVersion"].(string); strings.HasPrefix(api, "karpenter.sh/") {
				return TypeNodeClaim, "Karpenter Machine " + name + " (v1alpha5, read as a NodeClaim)"
			}
		case "Node":
			return TypeNodes, "Node " + name
		case "CertificateSigningRequest":
			return TypeCSRs, "CertificateSigningRequest " + name
		case "List", "NodeList", "CertificateSigningRequestList", "ConfigMapList", "EC2NodeClassList", "NodeClassList", "NodeClaimList", "MachineList", "NodePoolList":
			items, _ := d["items"].([]any)
			if len(items) > 0 {
				t, detail := docType(items[0])
				switch t {
				case TypeNodes, TypeCSRs, TypeNodeClaim, TypeEC2NodeClass, TypeNodePool:
					return t, strings.TrimSuffix(strings.Fields(detail + " ")[0], " ") + " list"
				}
				return t, detail
			}
			switch kind {
			case "NodeList":
				return TypeNodes, "empty Node list"
			case "CertificateSigningRequestList":
				return TypeCSRs, "empty CSR list"
			}
			return TypeData, "empty List"
		}
		if kind == "" {
			if arn, _ := d["Arn"].(string); len(d) <= 3 && d["UserId"] != nil && strings.HasPrefix(arn, "arn:aws") && strings.Contains(arn, ":sts::") || len(d) <= 3 && d["UserId"] != nil && strings.Contains(arn, ":iam::") {
				return TypeCallerIdentity, "aws sts get-caller-identity"
			}
			if arn, _ := d["Arn"].(string); len(d) == 1 && strings.HasPrefix(arn, "arn:aws") && strings.Contains(arn, ":sts::") && strings.Contains(arn, ":assumed-role/") {
				// `aws sts get-caller-identity --query Arn` put back: an assumed role's session
				return TypeCallerIdentity, "aws sts get-caller-identity"
			}
			if g, _ := layout.LookupAny(d, "serverVersion.gitVersion").(string); minorOf(g) != "" {
				return TypeServerVersion, "kubectl version"
			}
			if c, ok := loadedConfig(d); ok && c != nil {
				return TypeNodeConfig, detailLoadedConfig
			}
			if hasAny(d, "mapRoles", "mapUsers") {
				return TypeAWSAuth, "aws-auth data block"
			}
			if s, ok := d["settings"].(map[string]any); ok && hasAny(s, "kubernetes", "host-containers", "aws", "updates", "motd", "network") {
				return TypeBottlerocketSettings, "Bottlerocket settings"
			}
			if k, ok := d["kubernetes"].(map[string]any); ok && hasAny(k, "cluster-name", "api-server", "cluster-certificate") {
				return TypeBottlerocketSettings, "Bottlerocket settings"
			}
			if bottlerocketKubernetes(d) {
				return TypeBottlerocketSettings, "Bottlerocket settings.kubernetes"
			}
			if _, ok := d["clusters"]; ok && hasAny(d, "users", "contexts") {
				return TypeKubeconfig, "kubeconfig"
			}
			if eksctlNodeGroups(d) {
				return TypeEksctlConfig, "eksctl ClusterConfig node groups (no apiVersion shown)"
			}
			if snapshotManifest(d) {
				return TypeData, "the snapshot's manifest.json: its cluster, region and instance IDs, no evidence of its own"
			}
			if _, ok := trailRecords(d); ok {
				return AWSType(lookupEventsPath), "CloudTrail event record (read as aws cloudtrail lookup-events output)"
			}
			for key := range d {
				if key == "Entries" && !prefixListEntries(d["Entries"]) {
					continue // another service's Entries (EventBridge, a network ACL's on its own)
				}
				if e, ok := layout.ByPasteKey(key); ok && !strings.HasPrefix(e.Path, "kube/") && pasteValueFits(key, d[key]) {
					return AWSType(e.Path), strings.Fields(e.Command)[0] + " " + strings.Join(strings.Fields(e.Command)[1:3], " ") + " output"
				}
			}
		}
	case []any:
		if len(d) > 0 {
			if m, ok := d[0].(map[string]any); ok && hasAny(m, "rolearn", "roleARN", "userarn") {
				return TypeAWSAuth, "mapRoles list"
			}
		}
	}
	return TypeData, "data"
}

// pasteValueFits reports whether v, the value of the top-level key of an AWS CLI output, has the
// shape that output gives it: text for get-console-output's "Output", an object or a list for
// every other (a "cluster" that is a name is the snapshot manifest's, not describe-cluster's).
func pasteValueFits(key string, v any) bool {
	switch v.(type) {
	case string:
		return key == "Output"
	case map[string]any, []any:
		return key != "Output"
	}
	return false
}

// snapshotManifest reports whether d is a snapshot's manifest.json (docs/snapshot-format.md):
// "cluster" a name, beside at least one more of its keys and none that is not its.
func snapshotManifest(d map[string]any) bool {
	if _, ok := d["cluster"].(string); !ok || len(d) < 2 {
		return false
	}
	for k := range d {
		switch k {
		case "cluster", "region", "instanceIds", "collectedAt", "tool":
		default:
			return false
		}
	}
	return true
}

// bottlerocketKubernetes reports whether d is the settings.kubernetes table of Bottlerocket on
// its own (apiclient -u /settings | jq .kubernetes): several of its kebab-case keys.
func bottlerocketKubernetes(d map[string]any) bool {
	n := 0
	for _, k := range []string{"cluster-name", "api-server", "cluster-certificate", "cluster-dns-ip", "cluster-domain", "authentication-mode",
		"cloud-provider", "credential-providers", "max-pods", "node-labels", "node-taints", "standalone-mode", "pod-infra-container-image", "provider-id", "hostname-override"} {
		if _, ok := d[k]; ok {
			n++
		}
	}
	return n >= 3
}

func hasAny(v any, keys ...string) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

var reAWSAuthKey = regexp.MustCompile(`(?m)^\s*"?(mapRoles|mapUsers|maproles|mapusers|map_roles)"?\s*[:=]`)

// looksAWSAuth reports whether text holds aws-auth's data keys.
func looksAWSAuth(text []byte) bool { return reAWSAuthKey.Match(text) }

// yamlDocs reads YAML documents separated by "---". Each document that is a known type becomes
// a segment; a block that holds no mapping or list, or only scalars, is not YAML here.
//
// Comment lines ("# managed by terraform") before the first key are YAML's own and are read with
// the document; a document that does not parse but names itself a NodeConfig (nodeadmNamed) is
// the node's user data that nodeadm rejects, read as such so the decoder reports why.
func yamlDocs(lines []line) ([]Segment, bool) {
	head := 0 // the first line that is not a YAML comment
	for head < len(lines)-1 && yamlComment(lines[head].text) {
		head++
	}
	if !reYAMLish.MatchString(lines[head].text) && !strings.HasPrefix(strings.TrimSpace(lines[head].text), "---") {
		return nil, false
	}
	var docs [][]line
	var cur []line
	// a document marker sits at the documents' own indentation; one indented deeper is text
	// inside a block scalar (user data holding a NodeConfig)
	base := len(lines[head].text) - len(strings.TrimLeft(lines[head].text, " "))
	for _, l := range lines {
		indent := len(l.text) - len(strings.TrimLeft(l.text, " "))
		if indent <= base && (strings.TrimSpace(l.text) == "---" || strings.HasPrefix(strings.TrimSpace(l.text), "--- ") || elision(l.text)) {
			if len(trimBlank(cur)) > 0 {
				docs = append(docs, trimBlank(cur))
			}
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	if len(trimBlank(cur)) > 0 {
		docs = append(docs, trimBlank(cur))
	}
	var out []Segment
	var prev []line // the lines of the last object read, which conditions after an elision join
	for _, d := range docs {
		text := joinLines(d)
		var v any
		if err := yaml.Unmarshal(text, &v); err != nil {
			if looksAWSAuth(text) {
				s := seg(TypeAWSAuth, "aws-auth ConfigMap (YAML that does not parse)", d)
				s.Problem = "not valid YAML: " + strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
				out = append(out, s)
				continue
			}
			if nodeadmNamed(text) {
				out = append(out, seg(TypeNodeConfig, detailNodeConfigUnparsed, d))
				continue
			}
			return nil, false
		}
		switch v.(type) {
		case map[string]any, []any:
		default:
			return nil, false
		}
		if conds, ok := bareConditions(v); ok {
			if n := len(out); n > 0 && withoutConditions(out[n-1].value) {
				// the status an elision cut from the object above it
				obj := out[n-1].value.(map[string]any)
				status, _ := obj["status"].(map[string]any)
				if status == nil {
					status = map[string]any{}
					obj["status"] = status
				}
				status["conditions"] = conds
				prev = append(prev, d...)
				out[n-1].Last, out[n-1].Text = d[len(d)-1].n, joinLines(prev)
				continue
			}
			if obj, t, detail, ok := conditionsOwner(conds); ok {
				s := seg(t, detail, d)
				s.value = obj
				out = append(out, s)
				prev = d
				continue
			}
			return nil, false
		}
		if items, ok := listItems(v, d); ok {
			out = append(out, items...)
			prev = d
			continue
		}
		t, detail := docType(v)
		if t == TypeData && !k8sObject(v) {
			if uds, ok := cloudFormationYAML(text); ok {
				// a CloudFormation template: the node runs the user data it renders
				if segs, ok := cfnSegments(uds, d); ok {
					out = append(out, segs...)
					prev = d
					continue
				}
			}
			// YAML-shaped text that is no document we know: let the line reader decide
			return nil, false
		}
		s := seg(t, detail, d)
		s.value = v
		out = append(out, s)
		prev = d
	}
	return out, len(out) > 0
}

// detailNodeConfigUnparsed names a NodeConfig whose YAML does not parse: read as user data,
// whose decoder reports the parse error as nodeadm would meet it.
const detailNodeConfigUnparsed = "nodeadm NodeConfig whose YAML does not parse"

// reNodeadmAPIVersion and reNodeConfigKind are a NodeConfig's apiVersion and kind lines
// (node.eks.aws, amazon-eks-ami nodeadm/api), quoted or not.
var (
	reNodeadmAPIVersion = regexp.MustCompile(`(?m)^\s*["']?apiVersion["']?\s*:\s*["']?node\.eks\.aws/`)
	reNodeConfigKind    = regexp.MustCompile(`(?m)^\s*["']?kind["']?\s*:\s*["']?NodeConfig["']?\s*(?:#.*)?$`)
)

// nodeadmNamed reports whether text has a NodeConfig's apiVersion and kind lines, whether or not
// the rest of it parses.
func nodeadmNamed(text []byte) bool {
	return reNodeadmAPIVersion.Match(text) && reNodeConfigKind.Match(text)
}

// yamlComment reports whether a line is a YAML comment ("# …" or a lone "#"), not the "#!" or
// "#cloud-config" first line of user data.
func yamlComment(text string) bool {
	t := strings.TrimSpace(text)
	return t == "#" || strings.HasPrefix(t, "# ")
}

// elision reports whether a line is an elision mark on its own ("...", "…", "[...]"): YAML's
// document end marker, and where a poster cut lines out of a manifest.
func elision(text string) bool {
	switch strings.TrimSpace(text) {
	case "...", "…", "[...]", "[…]", "....":
		return true
	}
	return false
}

// bareConditions returns the status conditions a YAML document shows without their object: a
// list of conditions, {conditions: [...]} or {status: {conditions: [...]}} with no kind. A
// condition has a type and a status of True, False or Unknown (metav1.Condition).
func bareConditions(v any) ([]any, bool) {
	if m, ok := v.(map[string]any); ok && !hasAny(m, "kind", "apiVersion", "metadata", "spec") {
		if st, ok := m["status"].(map[string]any); ok && len(m) == 1 {
			m = st
		}
		if len(m) != 1 {
			return nil, false
		}
		v = m["conditions"]
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, false
	}
	for _, c := range list {
		m, ok := c.(map[string]any)
		typ, _ := m["type"].(string)
		status, _ := m["status"].(string)
		if !ok || typ == "" || !validConditionStatus(status) {
			return nil, false
		}
	}
	return list, true
}

// withoutConditions reports whether v is a Kubernetes object whose status shows no conditions.
func withoutConditions(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || !k8sObject(m) {
		return false
	}
	return layout.LookupAny(m, "status.conditions") == nil
}

// conditionsOwner gives status conditions shown alone the Karpenter object their types belong
// to (nodeClaimConditions, nodeClassConditions), named unnamed; conditions any object could
// have are not given an owner.
func conditionsOwner(conds []any) (obj map[string]any, t Type, detail string, ok bool) {
	claim, class := false, false
	for _, c := range conds {
		typ, _ := c.(map[string]any)["type"].(string)
		claim = claim || nodeClaimConditions[typ]
		class = class || nodeClassConditions[typ]
	}
	obj = map[string]any{"metadata": map[string]any{"name": unnamed}, "status": map[string]any{"conditions": conds}}
	switch {
	case claim && !class:
		obj["apiVersion"], obj["kind"] = "karpenter.sh/v1", "NodeClaim"
		return obj, TypeNodeClaim, "Karpenter NodeClaim status conditions (the object not shown)", true
	case class && !claim:
		obj["apiVersion"], obj["kind"] = "karpenter.k8s.aws/v1", "EC2NodeClass"
		return obj, TypeEC2NodeClass, "Karpenter EC2NodeClass status conditions (the object not shown)", true
	}
	return nil, "", "", false
}

// k8sObject reports whether v has apiVersion and kind.
func k8sObject(v any) bool { return hasAny(v, "apiVersion") && hasAny(v, "kind") }

var reTOMLTable = regexp.MustCompile(`^\s*\[\[?settings(\.[A-Za-z0-9_."-]+)*\]\]?\s*(#.*)?$`)

// tomlSettings reports whether the block is Bottlerocket TOML (a [settings…] table first).
func tomlSettings(lines []line) bool {
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		return reTOMLTable.MatchString(t) || strings.HasPrefix(t, "settings.")
	}
	return false
}

var reBase64 = regexp.MustCompile(`^[A-Za-z0-9+/=]+$`)

// base64Blob recognises user data as EC2 returns it: one base64 token (possibly wrapped).
func base64Blob(lines []line) (Segment, bool) {
	var b strings.Builder
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if !reBase64.MatchString(t) {
			return Segment{}, false
		}
		b.WriteString(t)
	}
	s := b.String()
	if len(s) < 24 {
		return Segment{}, false
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "=")); err != nil {
			return Segment{}, false
		}
	}
	if !bytes.HasPrefix(raw, []byte{0x1f, 0x8b}) && invalidUTF8(raw) > 0 {
		return Segment{}, false
	}
	text, how := raw, "base64"
	if bytes.HasPrefix(raw, []byte{0x1f, 0x8b}) {
		if t, ok := gunzipText(raw); ok {
			text, how = t, "gzip+base64"
		}
	}
	if bytes.HasPrefix(text, []byte{0x1f, 0x8b}) || invalidUTF8(text) > 0 || userDataLike(text) {
		// what EC2 returns or a template holds; the user data decoder reports what it cannot read
		return seg(TypeUserData, "base64 user data", lines), true
	}
	// anything else moved through a clipboard as base64 (a journal, kubectl output, the cluster
	// CA): Segments reads the decoded text as any paste
	s0 := seg(typeUnknownText, how+" text that is not user data", lines)
	s0.decoded, s0.encoding = text, how
	return s0, true
}

// gunzipText decompresses gzip data of at most MaxDocumentBytes once decompressed; false when
// it is not gzip, is corrupt or decompresses to more.
func gunzipText(b []byte) ([]byte, bool) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, false
	}
	out, err := io.ReadAll(io.LimitReader(zr, MaxDocumentBytes+1))
	if err != nil || len(out) > MaxDocumentBytes {
		return nil, false
	}
	return out, true
}

// userDataLike reports whether decoded text has the shape of EC2 user data some boot agent
// reads: a script (#!), cloud-config or boothook, a MIME document or parts of one, PowerShell
// or batch tags, EC2Launch v2 YAML, a NodeConfig, Bottlerocket TOML settings, or a script
// calling bootstrap.sh, nodeadm or Start-EKSBootstrap.ps1 without its #! line.
func userDataLike(text []byte) bool {
	t := strings.TrimLeft(string(text), " \t\r\n\ufeff")
	lower := strings.ToLower(t)
	for _, p := range []string{"#!", "#cloud-config", "#cloud-boothook", "#include", "mime-version:", "content-type:", "<powershell>", "<script>", "<persist>"} {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	if userdata.PartsFragment(text) || userdata.EC2LaunchV2(text) || strings.Contains(t, "node.eks.aws/") || reBootstrapCall.Match(text) {
		return true
	}
	return tomlSettings(splitLines(text))
}

var reBootstrapCall = regexp.MustCompile(`(?m)^\s*(?:sudo\s+|exec\s+|bash\s+|sh\s+|&\s*)?(?:/etc/eks/bootstrap\.sh|\./bootstrap\.sh|/etc/eks/bootstrap\b|"?[A-Za-z]:?[\\/][^\s"]*Start-EKSBootstrap\.ps1"?|nodeadm\s+init\b)`)

// reShellLine is a line of a shell script: a comment, an assignment, a common command or keyword,
// a continuation of the previous line.
var reShellLine = regexp.MustCompile(`^\s*(?:#|[A-Za-z_][A-Za-z0-9_]*=|(?:set|export|echo|if|then|else|fi|for|do|done|while|case|esac|exit|source|sudo|yum|dnf|apt-get|systemctl|mkdir|cat|cp|mv|chmod|curl|aws|\$)\b|--[a-z]|.*\\$|\s*$)`)

// bootstrapScript recognises a user data script pasted without its shebang: lines calling
// /etc/eks/bootstrap.sh (and no log line).
func bootstrapScript(lines []line) (Segment, bool) {
	text := joinLines(lines)
	if !reBootstrapCall.Match(text) {
		return Segment{}, false
	}
	shell := 0
	for _, l := range lines {
		if reShellLine.MatchString(l.text) || reBootstrapCall.MatchString(l.text) {
			shell++
		}
	}
	if shell*2 < len(lines) {
		return Segment{}, false
	}
	for _, l := range lines {
		if logLine(l.text) {
			return Segment{}, false
		}
	}
	return seg(TypeUserData, "shell script", lines), true
}

// allLogRecords reports whether every decoded document is a log record.
func allLogRecords(docs []any) bool {
	for _, d := range docs {
		m, ok := d.(map[string]any)
		if !ok || !logRecord(m) {
			return false
		}
	}
	return len(docs) > 0
}

// logEvents returns the messages of CloudWatch Logs output in docs: the "events" of `aws logs
// filter-log-events` or `get-log-events` (objects with a "message" and a "timestamp",
// "ingestionTime", "logStreamName" or "eventId"), the "@message" fields of `aws logs
// get-query-results` ("results": rows of {"field", "value"}), or a Logs Insights export (objects
// with "@message"). A message that is a log shipper's record (Fluent Bit or Fluentd: {"log": …,
// "stream" | "time" | "kubernetes": …}) gives its "log" text. ok is false when docs hold no event.
func logEvents(docs []any) (msgs []string, ok bool) {
	var events []any
	for _, d := range docs {
		switch v := d.(type) {
		case map[string]any:
			if ev, isList := v["events"].([]any); isList {
				if controlPlaneEvents(ev) {
					return nil, false // the control plane's log group: read as a snapshot's (aws:logs/…)
				}
				events = append(events, ev...)
			} else if rows, isList := v["results"].([]any); isList {
				for _, r := range rows {
					fields, _ := r.([]any)
					for _, f := range fields {
						if m, _ := f.(map[string]any); m != nil && m["field"] == "@message" {
							events = append(events, map[string]any{"@message": m["value"]})
						}
					}
				}
			} else {
				events = append(events, v)
			}
		case []any:
			events = append(events, v...)
		default:
			return nil, false
		}
	}
	for _, e := range events {
		m, _ := e.(map[string]any)
		msg, isText := m["@message"].(string)
		if !isText {
			if msg, isText = m["message"].(string); !isText || !hasAny(m, "timestamp", "ingestionTime", "logStreamName", "eventId") {
				return nil, false
			}
		}
		msg = strings.TrimRight(msg, "\r\n")
		if l, ok := shippedRecord(eventColumns(m) + msg); ok {
			msgs = append(msgs, l)
			continue
		}
		msgs = append(msgs, shippedLog(msg))
	}
	return msgs, len(msgs) > 0
}

// eventColumns returns a CloudWatch Logs event's time and log stream as the columns a console
// copy puts before its message ("2026-11-24T10:01:01.223Z<TAB>STREAM<TAB>"): the event's
// "timestamp" (milliseconds since the epoch, filter-log-events and get-log-events) or
// "@timestamp" (Logs Insights), and its "logStreamName" or "@logStream" — what shippedRecord
// dates a shipped record by, and takes a host or unit from when the record names none. "" when
// the event has no time.
func eventColumns(m map[string]any) string {
	var at time.Time
	switch ts := m["timestamp"].(type) {
	case float64:
		at = time.UnixMilli(int64(ts)).UTC()
	}
	if s, ok := m["@timestamp"].(string); ok && at.IsZero() {
		at = shipTime(s)
	}
	if at.IsZero() {
		return ""
	}
	out := at.Format(time.RFC3339Nano) + "\t"
	for _, k := range []string{"logStreamName", "@logStream"} {
		if s, ok := m[k].(string); ok && s != "" && !strings.ContainsAny(s, " \t,\"") {
			return out + s + "\t"
		}
	}
	return out
}

// controlPlaneEvents reports whether filter-log-events events come from the cluster's own log
// group (/aws/eks/CLUSTER/cluster): authenticator or kube-apiserver audit streams, or audit
// events as messages. Those are read as the snapshot's control-plane logs are, which keep each
// event's time, decode audit events and keep only lines about a node's role.
func controlPlaneEvents(events []any) bool {
	for _, e := range events {
		m, _ := e.(map[string]any)
		stream, _ := m["logStreamName"].(string)
		msg, _ := m["message"].(string)
		if !strings.HasPrefix(stream, "authenticator") && !strings.HasPrefix(stream, "kube-apiserver-audit") && !strings.Contains(msg, `"auditID"`) {
			return false
		}
	}
	return len(events) > 0
}

// shippedLog returns the "log" text of a log shipper's record (Fluent Bit, Fluentd: {"log":
// "E0501 …\n", "stream": "stderr", "kubernetes": {…}}) or the message of a journald entry it
// shipped (a "systemd_unit" and a "message"), and other text unchanged.
func shippedLog(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") || !strings.Contains(t, `"log"`) && !strings.Contains(t, "systemd_unit") && !strings.Contains(t, "_SYSTEMD_UNIT") && !strings.Contains(t, "SYSLOG_IDENTIFIER") {
		return s
	}
	var m map[string]any
	if json.Unmarshal([]byte(t), &m) != nil {
		return s
	}
	if l, ok := m["log"].(string); ok && hasAny(m, "stream", "time", "date", "kubernetes", "@timestamp") {
		return strings.TrimRight(l, "\r\n")
	}
	// a journald entry shipped by Container Insights or Fluent Bit's systemd input
	// ({"hostname": …, "systemd_unit": "kubelet.service", "message": "I0501 …"})
	for _, k := range []string{"message", "MESSAGE"} {
		if l, ok := m[k].(string); ok && hasAny(m, "systemd_unit", "_SYSTEMD_UNIT", "SYSLOG_IDENTIFIER") {
			return strings.TrimRight(l, "\r\n")
		}
	}
	return s
}

// logRecord reports whether a decoded object is a log record: a message with a level, a time or
// a logger.
func logRecord(m map[string]any) bool {
	return hasAny(m, "msg", "message", "log", "MESSAGE") && hasAny(m, "level", "lvl", "severity", "ts", "time", "timestamp", "@timestamp", "logger", "caller")
}

// jsonRecord reports whether a line is one JSON log record: an object with a level or severity
// and a message, or a timestamp and a message (IPAMD, Karpenter, nodeadm, CloudWatch exports).
func jsonRecord(l string) bool {
	t := strings.TrimSpace(l)
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") {
		return false
	}
	var m map[string]any
	if json.Unmarshal([]byte(t), &m) != nil {
		return false
	}
	return logRecord(m)
}

// eksctlNodeGroups reports whether d is the node group part of an eksctl ClusterConfig pasted
// without its header: a managedNodeGroups or nodeGroups list whose entries have a name and an
// eksctl node group field.
func eksctlNodeGroups(d map[string]any) bool {
	for _, key := range []string{"managedNodeGroups", "nodeGroups"} {
		list, ok := d[key].([]any)
		if !ok || len(list) == 0 {
			continue
		}
		ng, ok := list[0].(map[string]any)
		if ok && hasAny(ng, "name") && hasAny(ng, "instanceType", "instanceTypes", "ami", "amiFamily", "desiredCapacity", "minSize", "maxSize", "overrideBootstrapCommand", "preBootstrapCommands", "userData", "labels", "iam", "volumeSize") {
			return true
		}
	}
	return false
}

// consoleOutput reads `aws ec2 get-console-output` as printed in JSON (the CLI's default
// output: {"InstanceId", "Timestamp", "Output"}, Output decoded by the CLI, or base64 as the
// API and SDKs return it) as what the instance's console printed: a paste of its own — the
// serial console log, and any artefact a boot script printed there (user data it echoed, a
// manifest it applied) read as that artefact — whose parts all cover the JSON document's lines,
// their log lines numbered as the console printed them (textFirst). Every part carries the
// console output (Text and Timestamp, RFC 3339 as the CLI prints it; zero when absent or not a
// time). ok is false for any other document.
func consoleOutput(docs []any, lines []line) ([]Segment, bool) {
	if len(docs) != 1 {
		return nil, false
	}
	m, _ := docs[0].(map[string]any)
	out, isText := m["Output"].(string)
	if !isText || !hasAny(m, "InstanceId") || strings.TrimSpace(out) == "" {
		return nil, false
	}
	if !strings.ContainsAny(out, " \n") {
		if b, err := base64.StdEncoding.DecodeString(out); err == nil && utf8.Valid(b) {
			out = string(b)
		}
	}
	co := &evidence.ConsoleOutput{Text: out}
	if ts, ok := m["Timestamp"].(string); ok {
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(ts)); err == nil {
			co.Timestamp = t.UTC()
		}
	}
	inner := Segments(append(bytes.TrimRight(clean([]byte(out)), "\n"), '\n'))
	for i := range inner {
		in := &inner[i]
		in.textFirst = in.First
		in.First, in.Last = lines[0].n, lines[len(lines)-1].n
		in.compacted = true
		in.console = co
		if in.Detail == "" {
			in.Detail = detailConsole // otherwise Label names the console output (Detail has meaning)
		}
	}
	if len(inner) == 0 {
		return nil, false
	}
	return inner, true
}

// detailConsole is the detail of the serial console log read from get-console-output.
const detailConsole = "serial console output (aws ec2 get-console-output)"

// embedded reads the text inside a JSON document no type knows — a log, user data or a
// ConfigMap carried as one escaped string value ({"message": "line\nline…"}, a tool's JSON
// report quoting a command's output, a log line whose quotes JSON escaped) — as a paste of its
// own: the string values with a line break or a space, in key order, split into segments that
// all cover the JSON document's lines. ok is false when no value holds a line break or an
// escaped quote or backslash. Each level of nesting doubles the escaping,
// so the recursion through Segments is shallow whatever the input.
func embedded(docs []any, lines []line) ([]Segment, bool) {
	var texts []string
	multi := false
	var walk func(v any)
	walk = func(v any) {
		switch d := v.(type) {
		case string:
			if t := strings.TrimSpace(d); strings.Contains(t, "\n") {
				texts = append(texts, strings.TrimRight(d, "\r\n"))
				multi = true
			} else if strings.Contains(t, " ") {
				texts = append(texts, t)
			}
		case []any:
			for _, e := range d {
				walk(e)
			}
		case map[string]any:
			if journalEntry(d) {
				// journalctl -o json-pretty: a field holding control bytes is an array of them
				journalText(d)
			}
			keys := make([]string, 0, len(d))
			for k := range d {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(d[k])
			}
		}
	}
	for _, d := range docs {
		walk(d)
	}
	if !multi && !slices.ContainsFunc(texts, func(t string) bool { return strings.ContainsAny(t, `"\`) }) {
		// phrases without escapes read the same in the JSON's own lines (a health issue's
		// "code" and "message" quoted on their own), which are scanned as they are
		return nil, false
	}
	inner := Segments([]byte(strings.Join(texts, "\n\n") + "\n"))
	for i := range inner {
		inner[i].First, inner[i].Last = lines[0].n, lines[len(lines)-1].n
		inner[i].compacted = true
		inner[i].inJSON = true // Label says so; Detail keeps what the text is
	}
	return inner, len(inner) > 0
}

// detailLoadedConfig is the detail of nodeadm's loaded configuration pasted on its own.
const detailLoadedConfig = "nodeadm's loaded configuration (spec and status, without apiVersion and kind)"

// loadedConfig reports whether d is the configuration object nodeadm logs when it loads it
// ("Loaded configuration" {"config": {"spec": {"cluster": …}, "status": …}}), with or without
// the config wrapper: no kind, a spec whose cluster names an endpoint, a CA or a service CIDR.
func loadedConfig(d map[string]any) (map[string]any, bool) {
	if c, ok := d["config"].(map[string]any); ok && len(d) == 1 {
		d = c
	}
	if _, hasKind := d["kind"]; hasKind {
		return nil, false
	}
	spec, _ := d["spec"].(map[string]any)
	cluster, _ := spec["cluster"].(map[string]any)
	if !hasAny(cluster, "apiServerEndpoint", "certificateAuthority", "cidr") {
		return nil, false
	}
	return d, true
}

// prefixListEntries reports whether v is the Entries list of get-managed-prefix-list-entries:
// every item an object with a Cidr and nothing but Cidr and Description (PrefixListEntry,
// https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_PrefixListEntry.html); an empty list
// is one too.
func prefixListEntries(v any) bool {
	items, ok := v.([]any)
	if !ok {
		return false
	}
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m["Cidr"].(string); !ok {
			return false
		}
		for k := range m {
			if k != "Cidr" && k != "Description" {
				return false
			}
		}
	}
	return true
}
