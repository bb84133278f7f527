package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
	"github.com/eksdoctor/eksdoctor/collectors/userdata"
)

// Type names what a document is. Types of text documents start with "log:" (scanned for
// signatures), "kube:" (Kubernetes objects), "text:" (kubectl's human output), "aws:" (AWS CLI
// output, by snapshot path), or are one of the node configuration types below.
type Type string

// Document types a paste can hold.
const (
	TypeLog                  Type = "log"
	TypeProse                Type = "prose"
	TypeUserData             Type = "userdata"
	TypeNodeConfig           Type = "nodeadm:nodeconfig"
	TypeBottlerocketSettings Type = "bottlerocket:settings"
	TypeKubeconfig           Type = "kubelet:kubeconfig"
	TypeKubeletConfig        Type = "kubelet:config"
	TypeAWSAuth              Type = "kube:configmap/kube-system/aws-auth"
	TypeVPCCNIConfig         Type = "kube:configmap/kube-system/amazon-vpc-cni"
	TypeNodes                Type = "kube:nodes"
	TypeCSRs                 Type = "kube:csrs"
	TypeEC2NodeClass         Type = "kube:ec2nodeclass"
	TypeNodePool             Type = "kube:nodepool"
	TypeNodeClaim            Type = "kube:nodeclaim"
	TypeDescribeNode         Type = "text:kubectl-describe-node"
	TypeDescribeCSR          Type = "text:kubectl-describe-csr"
	TypeDescribePod          Type = "text:kubectl-describe-pod"
	TypeDescribeConfigMap    Type = "text:kubectl-describe-configmap"
	TypeDescribeNodeClaim    Type = "text:kubectl-describe-nodeclaim"
	// TypeDescribeNodeClass is kubectl describe ec2nodeclass (or Auto Mode nodeclass) with a status.
	TypeDescribeNodeClass Type = "text:kubectl-describe-nodeclass"
	TypeGetNodes          Type = "text:kubectl-get-nodes"
	// TypeCallerIdentity is `aws sts get-caller-identity` output; its value is the document.
	TypeCallerIdentity Type = "aws:sts/get-caller-identity"
	// TypeServerVersion is `kubectl version` output (text, or -o json / yaml); its value is
	// the API server's gitVersion ("v1.31.13-eks-5e7f0a1").
	TypeServerVersion Type = "kube:version"
	TypeGetCSR        Type = "text:kubectl-get-csr"
	TypeGetEvents     Type = "text:kubectl-get-events"
	// TypeGetNodeClasses is kubectl get ec2nodeclasses (or Auto Mode nodeclasses): names and READY.
	TypeGetNodeClasses Type = "text:kubectl-get-nodeclasses"
	// TypeGetNodeClaims is kubectl get nodeclaims: instance type, node and READY per claim.
	TypeGetNodeClaims    Type = "text:kubectl-get-nodeclaims"
	TypeTerraformAWSAuth Type = "text:terraform-plan-aws-auth"
	// TypeEksctlConfig is an eksctl ClusterConfig (eksctl.io/v1alpha5): the cluster's name and
	// a node group's overrideBootstrapCommand.
	TypeEksctlConfig Type = "eksctl:clusterconfig"
	// TypeEgressAddress is the public address an address echo service (reEchoService)
	// answered a curl typed on the node: the node's egress address.
	TypeEgressAddress Type = "node:egress-address"
	// TypeData is JSON or YAML that is no document eksdoctor knows (reported, not read).
	TypeData Type = "data"
)

// AWSType is the type of AWS CLI output stored at a snapshot path (docs/snapshot-format.md):
// "aws:ec2/describe-instances.json".
func AWSType(snapshotPath string) Type { return Type("aws:" + snapshotPath) }

// Segment is one part of a paste read as one document.
type Segment struct {
	Type Type
	// Detail refines the type for people ("journal", "eksctl output", "mapRoles block").
	Detail string
	// First and Last are the segment's 1-based line numbers in the input (inclusive).
	First, Last int
	// Text is the segment's text (without Markdown fences or shell prompts).
	Text []byte
	// Problem says why a part recognised as Type could not be read; empty when it was.
	Problem string
	// value is the decoded document (JSON-compatible) when the segment is structured.
	value any
	// compacted is true when Text was rewritten (pretty-printed JSON records, one per line).
	compacted bool
	// cutFirst is true for a mapRoles fragment whose first entry begins above the paste.
	cutFirst bool
	// selected is true for AWS CLI output narrowed by a --query that picked fields (a
	// multi-select hash or list): a field it lacks was not asked for, not absent.
	selected bool
	// partial is true for Bottlerocket settings printed by `apiclient get KEY…` for keys none of
	// which is settings or settings.kubernetes whole: the keys not asked for are not shown, not
	// unset.
	partial bool
	// command is the shell command shown above the segment ("aws ec2
	// get-managed-prefix-list-entries --prefix-list-id pl-…"), empty when none was: it names
	// the object of output that does not name it (layout.Entry.NameArg).
	command string
	// decoded is the text a base64 (or gzip+base64) blob that is not user data decodes to, and
	// encoding says which ("base64", "gzip+base64"); Segments reads decoded as a paste of its own.
	decoded  []byte
	encoding string
	// textFirst, when not 0, is the line number Text's first line has in the text it was
	// carried in (a console output's Output): log lines are numbered from it, not from First.
	textFirst int
	// inJSON is true for text read out of a JSON string value that carried it whole
	// ({"message": "…"}); decodedFrom is the encoding ("base64", "gzip+base64") of the blob a
	// segment was decoded from. Label names both; Detail stays what the text itself is.
	inJSON      bool
	decodedFrom string
	// console is the get-console-output document the segment was read from (nil otherwise):
	// its Timestamp is when EC2 captured the console.
	console *evidence.ConsoleOutput
	// shell is the shell command whose output region the segment is part of ("systemctl cat
	// kubelet", "env | grep -i proxy"), and shellHost where the prompt says it ran (hostNode,
	// hostWorkstation, or "" when no prompt says)
	shell, shellHost string
}

// Where a prompt says a command ran (Segment.shellHost).
const (
	// hostNode: a prompt of a shell on a node (nodePrompt).
	hostNode = "node"
	// hostWorkstation: a prompt naming a user and host that is no node's ("dana@laptop:~$",
	// "PS C:\Users\dana>").
	hostWorkstation = "workstation"
)

// line is one input line with its 1-based number.
type line struct {
	n    int
	text string
}

// maxSegmentLines bounds one structured document; longer runs are read as log text.
const maxSegmentLines = 200000

var (
	reFence = regexp.MustCompile("^\\s{0,3}(```+|~~~+)")
	// reJiraFence is a Jira code or preformatted block's marker line ({code}, {code:json},
	// {noformat}), which both opens and closes the block.
	reJiraFence = regexp.MustCompile(`^\s*\{(code|noformat)(?::[^}]*)?\}\s*$`)
	// rePrompt is a shell prompt line: "$ kubectl …", "# journalctl …", "user@host:~$ aws …",
	// "PS C:\> Get-…", and the arrow prompts of zsh themes ("(base) ➜  repo git:(main) ✗ kubectl …").
	// Its one "^" outside the alternatives lets a line that is no prompt fail at its start: with
	// a "^" in each, the regexp engine tries every position of a megabyte-long pasted line.
	rePrompt = regexp.MustCompile(`^(?:\s*(?:(?:\[[^\]\n]{1,80}\]|[\w.@-]+(?:@[\w.-]+)?(?::[^\s$#]*)?)?\s*[$#%]|(?:\([\w.-]+\)\s+)?[➜❯]\s+(?:[^\s$#%]+\s+)?(?:git:\([^)\s]*\)\s+)?(?:✗\s*)?)\s+(?:sudo\s+)?(kubectl|aws|eksctl|journalctl|systemctl|cat|tail|head|less|grep|egrep|terraform|helm|nodeadm|apiclient|crictl|ctr|docker|curl|dmesg|sheltie|logdog|base64|echo|env|printenv|k|kc)\b(.*)$|\s*PS [A-Z]:\\[^>]*>\s+(.*)$)`)
)

// Segments splits text into segments: Markdown fences first, then shell prompts, then runs of
// log lines, structured documents and prose (see classify). Segments come in input order.
func Segments(text []byte) []Segment { return segments(text, 0) }

// maxDecodeDepth bounds base64 inside base64: a blob's decoded text is read as a paste of its
// own at most this many times over.
const maxDecodeDepth = 2

// segments is Segments at depth levels of base64 decoding: a segment that is a base64 blob other
// than user data is replaced by the segments of its decoded text, each spanning the blob's lines
// and labelled with the encoding.
func segments(text []byte, depth int) []Segment {
	out := splitSegments(text)
	if !hasDecoded(out) {
		return out
	}
	var res []Segment
	for _, s := range out {
		if s.decoded == nil {
			res = append(res, s)
			continue
		}
		if depth >= maxDecodeDepth {
			s.Detail, s.decoded = s.encoding+" inside base64 more than "+fmt.Sprint(maxDecodeDepth)+" times over; not decoded further", nil
			res = append(res, s)
			continue
		}
		for _, in := range segments(s.decoded, depth+1) {
			in.First, in.Last, in.encoding = s.First, s.Last, s.encoding
			if in.decodedFrom == "" {
				in.decodedFrom = s.encoding // Label says so; Detail keeps what the text is
			}
			res = append(res, in)
		}
	}
	return res
}

func hasDecoded(segs []Segment) bool {
	for _, s := range segs {
		if s.decoded != nil {
			return true
		}
	}
	return false
}

// splitSegments is one level of Segments: the text as pasted.
func splitSegments(text []byte) []Segment {
	lines := splitLines(text)
	var out []Segment
	rs := regions(lines)
	hosts := journalHosts(lines)
	for i, r := range rs {
		if len(out) >= MaxSegments {
			// a budget, not a paste people write: the rest is scanned as one log
			var rest []line
			for _, r := range rs[i:] {
				rest = append(rest, r.lines...)
			}
			s := seg(TypeLog, "", rest)
			s.Problem = fmt.Sprintf("the input has more than %d parts; from line %d on it is read as one log, not split into documents", MaxSegments, rest[0].n)
			return append(out, s)
		}
		for _, sub := range splitPrompts(r.lines, hosts...) {
			n := len(out)
			out = append(out, classify(sub.lines, r.fenced, sub.command)...)
			for k := n; k < len(out); k++ {
				out[k].shell, out[k].shellHost = sub.command, sub.host
			}
		}
	}
	return out
}

// MaxSegments bounds the parts a paste is split into (each part is classified and decoded on
// its own); the text after the last one is scanned as one log.
const MaxSegments = 2000

// MaxDocumentBytes bounds one JSON or YAML document decoded from a paste: decoding costs about
// ten times the text in memory, and the whole run stays under 200 MiB. Larger AWS CLI output
// belongs in a snapshot (docs/snapshot-format.md), whose files are read up to 64 MiB.
const MaxDocumentBytes = 4 << 20

// splitLines cuts text into numbered lines, without their line break or a trailing "\r". The
// lines share one copy of text: a paste of millions of short lines costs one line struct each.
func splitLines(text []byte) []line {
	s := string(text)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	out := make([]line, 0, strings.Count(s, "\n")+1)
	for n := 1; ; n++ {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, line{n: n, text: strings.TrimRight(s, "\r")})
		}
		out = append(out, line{n: n, text: strings.TrimRight(s[:i], "\r")})
		s = s[i+1:]
	}
}

type region struct {
	lines  []line
	fenced bool
}

// regions splits lines at Markdown fences; fence lines themselves are dropped. HTML character
// references are decoded (unescapeHTML), line numbers removed (unnumber). Lines quoted
// with "> " (an e-mail or Markdown quote, "> > " for a quote of a quote) are unquoted first, a CI runner's timestamps removed
// (unprefixCI: a CI runner's, `kubectl logs --timestamps`' or `aws logs tail`'s), a log
// shipper's records replaced by the lines they carry (unship), the indentation every
// non-blank line of a region shares is removed (see dedent), and another command's stderr lines
// inside a JSON document are moved under it (unstderr).
func regions(lines []line) []region {
	// numbers inside a CI runner's prefix show once the prefix is gone
	lines = unship(unnumber(uncode(unprefixCI(unquote(unnumber(unbox(unk9s(untable(unjoinEvents(unjoin(journalArrays(undoubleCSV(unchat(unescapeHTML(lines)))))))))))))))
	var out []region
	// the lines of a region are those between two fence lines: a part of lines, not a copy
	start := 0
	flush := func(end int, fenced bool) {
		if cur := lines[start:end:end]; len(cur) > 0 {
			// a CI log pasted into an indented code block: its stamps show once the block is
			// dedented, and what they prefixed may be indented itself (a describe pasted indented)
			out = append(out, region{lines: unstderr(uncode(unnumber(dedent(unprefixCI(dedent(cur)))))), fenced: fenced})
		}
		start = end + 1
	}
	fence := ""
	for i, l := range lines {
		if fence == "" && reFileHeader.MatchString(l.text) {
			// `head`/`tail` of several files: each file is a document of its own
			flush(i, false)
			continue
		}
		m := reFence.FindStringSubmatch(l.text)
		if j := reJiraFence.FindStringSubmatch(l.text); j != nil {
			// Jira's {code} / {noformat}: the same line opens and closes the block
			switch {
			case fence == "":
				flush(i, false)
				fence = "{" + j[1]
				continue
			case fence == "{"+j[1]:
				flush(i, true)
				fence = ""
				continue
			}
		}
		switch {
		case m != nil && fence == "":
			flush(i, false)
			fence = m[1]
		case m != nil && strings.HasPrefix(strings.TrimSpace(l.text), fence) && strings.TrimSpace(strings.Trim(strings.TrimSpace(l.text), fence[:1])) == "":
			flush(i, true)
			fence = ""
		}
	}
	flush(len(lines), fence != "")
	return out
}

// reFileHeader is the line `head` and `tail` write above each file when given several
// ("==> eks/describe-cluster.json <=="): the text under it is another file's.
var reFileHeader = regexp.MustCompile(`^==> .+ <==\s*$`)

// dedent removes the leading whitespace that every non-blank line shares: a paste indented as a
// whole (a Markdown code block written with four spaces, a block under a list item, a snippet
// copied out of an indented file) is read as its author wrote it, so user data's MIME headers,
// a NodeConfig or a kubectl table start in column one again. Relative indentation is kept.
func dedent(lines []line) []line {
	prefix, first := "", true
	for _, l := range lines {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		ws := l.text[:len(l.text)-len(strings.TrimLeft(l.text, " \t"))]
		if first {
			prefix, first = ws, false
			continue
		}
		n := 0
		for n < len(prefix) && n < len(ws) && prefix[n] == ws[n] {
			n++
		}
		prefix = prefix[:n]
		if prefix == "" {
			return lines
		}
	}
	if prefix == "" {
		return lines
	}
	out := make([]line, len(lines))
	for i, l := range lines {
		if strings.HasPrefix(l.text, prefix) {
			l.text = l.text[len(prefix):]
		} else {
			l.text = strings.TrimLeft(l.text, " \t") // a blank line shorter than the prefix
		}
		out[i] = l
	}
	return out
}

// reCIStamp is the timestamp a collector puts before every line it stores, which the line's
// own source never wrote: RFC 3339 in UTC with seven to nine fractional digits (a GitHub Actions
// or Azure DevOps runner's .NET round-trip format; `kubectl logs --timestamps` and `docker logs
// -t`, RFC 3339 with nanoseconds), then a space, or nothing on a blank line. A component's own
// ISO 8601 stamp (Karpenter's milliseconds, a journal's microseconds with an offset) is not one
// of these.
var reCIStamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7,9}Z(?: |$)`)

// reCRIPrefix is the CRI log format of /var/log/containers and /var/log/pods: a stamp, the
// stream and a full or partial tag ("2024-05-01T10:00:00.123456789Z stderr F "). Its lines are
// read as they are: the log reader knows the format, and its stamp dates a klog line that
// carries no year.
var reCRIPrefix = regexp.MustCompile(`^\S+ (?:stdout|stderr) [FP] `)

// reLogsTail is what `aws logs tail` prints before each event's message: the event's time in
// ISO 8601 with microseconds and a UTC offset, and the log stream's name
// ("2024-05-01T10:00:00.123000+00:00 ip-10-0-1-2.ec2.internal-kubelet.service ").
var reLogsTail = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00 \S+ `)

// unprefix removes re's match from the start of every line that has one.
func unprefix(lines []line, re *regexp.Regexp) []line {
	out := make([]line, len(lines))
	for i, l := range lines {
		if loc := re.FindStringIndex(l.text); loc != nil {
			l.text = l.text[loc[1]:]
		}
		out[i] = l
	}
	return out
}

// reSyslogTag is the identifier a journal or syslog message starts with once its date and host
// are gone ("kubelet[3021]: ", "kubelet: ", "kubelet.service: ").
var reSyslogTag = regexp.MustCompile(`^[\w.@/-]+(?:\[\d+\])?: `)

// reCIStampAny is reCIStamp with the fraction RFC 3339 with nanoseconds prints when it ends in
// zeros, which it drops (".12345Z", or none): removed once most lines carry the full stamp.
var reCIStampAny = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z(?: |$)`)

// unprefixCI removes the collector's timestamp from every line when most non-blank lines carry
// it: the output of eksctl, Terraform or kubectl copied out of a CI job's log, or a component's
// log read with `kubectl logs --timestamps`, then reads as the tool printed it (a Terraform
// plan's columns, a YAML document's indentation, a klog header, a journal line, a message
// wrapped onto indented lines). The collector's time is dropped with it; the line's own
// timestamp, when it has one, is what dates it.
//
// `aws logs tail`'s time is kept on a journal message that carries no time of its own (one
// shipped without its prefix, "kubelet[3021]: E0724 …"; rsyslog's RSYSLOG_FileFormat,
// "2026-07-24T15:30:01.000000+00:00 HOST kubelet[3021]: …", has the same shape): removed, it
// would leave the line undated, judged by its place in the paste rather than its time, and a
// newest-first export would read backwards.
func unprefixCI(lines []line) []line {
	if mostly(lines, reLogsTail.MatchString) {
		out := make([]line, len(lines))
		for i, l := range lines {
			if loc := reLogsTail.FindStringIndex(l.text); loc != nil && (logscan.Stamped(l.text[loc[1]:]) || !reSyslogTag.MatchString(l.text[loc[1]:])) {
				l.text = l.text[loc[1]:]
			}
			out[i] = l
		}
		return out
	}
	if !mostly(lines, reCIStamp.MatchString) || mostly(lines, reCRIPrefix.MatchString) {
		return lines
	}
	return unprefix(lines, reCIStampAny)
}

// unship replaces each log shipper's record by the line it carries (shippedRecord: a Fluent Bit
// or Fluentd record's "log", a shipped journald entry's "message", alone or after a pipeline's
// time and tag columns) when the first non-blank line (a CSV export's header aside) and most
// others are such records: a node log exported from a log pipeline one JSON record per line then
// reads as the component wrote it, its quotes no longer escaped, dated and attributed to its host
// as a journal line is when the record or its columns say so.
func unship(lines []line) []line {
	for _, l := range lines {
		if strings.TrimSpace(l.text) == "" || csvHeader(l.text) {
			continue
		}
		if _, ok := shippedRecord(l.text); !ok {
			return lines
		}
		break
	}
	if !mostly(lines, func(t string) bool { _, ok := shippedRecord(t); return ok || csvHeader(t) }) {
		return lines
	}
	out := make([]line, len(lines))
	for i, l := range lines {
		if t, ok := shippedRecord(l.text); ok {
			l.text = t
		}
		out[i] = l
	}
	return out
}

// csvHeader reports whether l is the header of a CloudWatch Logs Insights CSV export: its
// fields' names, "@timestamp" and "@message" among them.
func csvHeader(l string) bool {
	return strings.HasPrefix(l, "@") && strings.Contains(l, "@message") && !strings.Contains(l, " ")
}

// recordStarts are how a log record begins, one pattern per log shape: a journal or syslog
// prefix, a klog header, an RFC 3339 or cloud-init stamp, a kernel or console stamp, a JSON
// record, a klog header's file:line alone, a console's systemd status record. Each matches at
// the start of a record only.
var recordStarts = []*regexp.Regexp{
	regexp.MustCompile(`(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 0-3]?\d \d\d:\d\d:\d\d(?:\.\d+)? [\w.-]+ [\w@./:-]+(?:\[\d+\])?: `),
	regexp.MustCompile(`[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ [\w.-]+:\d+\] `),
	regexp.MustCompile(`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)? `),
	regexp.MustCompile(`\[\s*\d+\.\d{6}\] `),
	regexp.MustCompile(`\{"(?:level|lvl|ts|time|timestamp|@timestamp|msg|message|log)":`),
	// a klog record whose severity, time and PID a selection left out ("kubelet.go:2397] …")
	regexp.MustCompile(`[a-z][\w-]*\.go:\d+\] `),
	// what systemd prints on a console (an EC2 serial console, Bottlerocket's): a unit's status
	// ("[  OK  ] Started …", "[FAILED] Failed to start …", "[DEPEND] …", "[ TIME ] …"), a job
	// starting ("Starting kubelet.service...", the description ending in "..."), the line it
	// prints under a failed unit ("See 'systemctl status kubelet.service' for details."), and a
	// kernel or service line timed since boot ("[   12.345678] …", any precision) between them
	regexp.MustCompile(`\[\s*(?:OK|FAILED|DEPEND|TIME|\d+\.\d+)\s*\] |(?:Starting|Stopping|Mounting|Unmounting|Reloading) \S.{0,150}?\.\.\.(?: |$)|See '(?:systemctl|journalctl) [^']{1,200}' for details\.`),
}

// rePromptStart is a shell prompt at the start of a line: "$ ", "# ", "% ", "❯ ", "> ", or
// "[root@ip-10-0-1-2 ~]# ", "user@host:~$ ".
var rePromptStart = regexp.MustCompile(`^\s*(?:[$#%>❯]|\[[^\]]{1,80}\][$#]|[\w.-]+@[\w.-]+:\S*[$#])\s`)

// recordStartsAt0 are recordStarts anchored at the start of the text.
var recordStartsAt0 = func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(recordStarts))
	for i, re := range recordStarts {
		out[i] = regexp.MustCompile(`^(?:` + re.String() + `)`)
	}
	return out
}()

// minJoined is the length (bytes) from which a line is looked at as several log records that
// lost the line breaks between them.
const minJoined = 300

// unjoin splits a line that is several log records run together — text whose line breaks a web
// page, chat client or ticket tool collapsed into spaces — back into one record per line: a
// line of at least minJoined bytes that starts with a record of one shape (recordStarts) and
// holds at least two more of that shape, each after a space, is cut before each. The pieces keep
// the line's number. Lines of any other form are kept as they are.
func unjoin(lines []line) []line {
	return cutLines(lines, joinedRecords)
}

// cutLines returns lines with each line that cuts (its text) gives offsets for cut before each
// offset, the spaces at a piece's end trimmed and one space at the next piece's start dropped
// (the space the line breaks were collapsed into); the pieces keep the line's number. Lines
// without offsets are kept as they are, and lines itself is returned when no line is cut.
func cutLines(lines []line, cuts func(string) []int) []line {
	var out []line
	for i, l := range lines {
		at := cuts(l.text)
		if at == nil {
			if out != nil {
				out = append(out, l)
			}
			continue
		}
		if out == nil {
			out = append(make([]line, 0, len(lines)+len(at)), lines[:i]...)
		}
		prev := 0
		for _, c := range at {
			out = append(out, line{n: l.n, text: strings.TrimRight(l.text[prev:c], " ")})
			prev = c
			if prev < len(l.text) && l.text[prev] == ' ' {
				prev++
			}
		}
		out = append(out, line{n: l.n, text: l.text[prev:]})
	}
	if out == nil {
		return lines
	}
	return out
}

// reJSONStringMember is a pretty-printed JSON object's member whose value is a string
// ("    \"Output\": \"…).
var reJSONStringMember = regexp.MustCompile(`^\s*"[A-Za-z0-9_.-]{1,64}"\s*:\s*"`)

// jsonStringMember reports whether t is one member of pretty-printed JSON whose string value
// holds escaped line breaks and runs to the line's end (a trailing comma at most): the text of
// a multi-line string, which the JSON reader splits, not records run together.
func jsonStringMember(t string) bool {
	tt := strings.TrimRight(t, " \t\r,")
	return reJSONStringMember.MatchString(t) && strings.Contains(t, `\n`) && strings.HasSuffix(tt, `"`) && !strings.HasSuffix(tt, `\"`)
}

// joinedRecords returns the offsets at which t, a line that is log records run together, is
// cut (nil for any other line): where a record of the shape t's records have begins after a
// space. The line may start with a record, or with text before the first one (the poster's words,
// a shell prompt and the command that printed them: "❯ k logs aws-node-x {"level":…} …"); it
// needs three records of the shape then, of a shape prose does not have unless a prompt starts
// the line. Records of another component with a header of its own
// (a journal prefix, a klog header) interleaved with them are cut too: the last record would
// otherwise run on into them.
func joinedRecords(t string) []int {
	if len(t) < minJoined {
		return nil
	}
	if tt := strings.TrimSpace(t); (tt[0] == '{' || tt[0] == '[' || tt[0] == '"') && json.Valid([]byte(tt)) {
		// one JSON document (a log carried in a string: {"message": "…\n…"}): the records
		// inside it are the JSON reader's to split, at its escaped line breaks
		return nil
	}
	if jsonStringMember(t) {
		// a member of pretty-printed JSON whose string holds a log (aws ec2 get-console-output's
		// "Output": "…\n…"): the same, the document being the lines around it
		return nil
	}
	// each shape's records are found once, for both passes and for the shapes interleaved
	// with another's: a pasted line can be megabytes long
	found := make([][][]int, len(recordStarts))
	records := func(i int) [][]int {
		if found[i] == nil {
			found[i] = append([][]int{}, recordStarts[i].FindAllStringIndex(t, -1)...)
		}
		return found[i]
	}
	// records at the start of the line decide its shape; text before the first record is
	// looked at only when no shape starts the line
	for pass := 0; pass < 2; pass++ {
		for i := range recordStarts {
			if !mayRepeat(t, i) {
				continue
			}
			if cuts := joinedShape(t, i, records, pass == 1); cuts != nil {
				return cuts
			}
		}
	}
	return nil
}

// recordMarks are text every record of the shape of recordStarts[i] holds.
var recordMarks = []string{": ", "] ", ":", "] ", `{"`, ".go:", " "}

// mayRepeat reports whether t may hold the three records of the shape of recordStarts[i] that
// joinedShape needs at least: it holds the shape's recordMarks three times, and a journal,
// klog or timestamped record's clock ("15:30:01") three times. Counting them is many times
// faster than finding the records, and a long line rarely holds many.
func mayRepeat(t string, i int) bool {
	if strings.Count(t, recordMarks[i]) < 3 {
		return false
	}
	if i > 2 {
		return true
	}
	clocks := 0
	for k := 0; k < len(t) && clocks < 3; {
		c := strings.IndexByte(t[k:], ':')
		if c < 0 {
			break
		}
		k += c + 1
		if k+2 < len(t) && t[k+2] == ':' {
			clocks++ // a colon three bytes after another: "hh:mm:ss"
		}
	}
	return clocks >= 3
}

// joinedShape returns the cuts of t for record shape i (see joinedRecords), nil when t is not
// records of that shape run together; prefixed allows text before the first record. records(j)
// are the records of shape j in t (recordStarts[j]'s matches).
func joinedShape(t string, i int, records func(j int) [][]int, prefixed bool) []int {
	var cuts []int
	first := -1
	for _, loc := range records(i) {
		if loc[0] == 0 && recordStartsAt0[i].MatchString(t) {
			first = 0
			continue
		}
		if t[loc[0]-1] != ' ' {
			continue
		}
		if first < 0 {
			first = loc[0]
		}
		cuts = append(cuts, loc[0])
	}
	switch {
	case first == 0 && len(cuts) >= 2 && !prefixed:
	case first > 0 && len(cuts) >= 3 && prefixed && (i == 0 || i == 1 || i == 4):
		// shapes prose does not have (a journal prefix, a klog header, a JSON record) may follow
		// any text: a whole ticket whose line breaks were lost starts with the poster's words
	case first > 0 && first <= 200 && len(cuts) >= 3 && prefixed && rePromptStart.MatchString(t):
		// others (a sentence can hold dates) only a shell prompt's command
	default:
		return nil
	}
	for j := range recordStarts[:2] {
		if j == i || i == 0 {
			continue // a journal record carries a klog header inside it
		}
		for _, loc := range records(j) {
			if loc[0] > 0 && t[loc[0]-1] == ' ' {
				cuts = append(cuts, loc[0])
			}
		}
	}
	slices.Sort(cuts)
	return slices.Compact(cuts)
}

// reFlatEventRow finds where a kubectl event row starts inside a line whose line breaks were
// collapsed into spaces: a `kubectl describe` row (Type, Reason, Age and its "(xN over …)")
// or a `kubectl get events` row (LAST SEEN and its count, TYPE, REASON), after a space; and the
// header rows of both listings (with describe's dashed underline).
var reFlatEventRow = regexp.MustCompile(` (?:(?:Normal|Warning) [A-Z][A-Za-z]+ (?:\d+[dhms])+(?: \(x\d+ over (?:\d+[dhms])+\))? |(?:\d+[dhms])+(?: \(x\d+ over (?:\d+[dhms])+\))? (?:Normal|Warning) [A-Z][A-Za-z]+ |Type Reason Age From Message(?: -+ -+ -+ -+ -+)? |LAST SEEN TYPE REASON OBJECT MESSAGE )`)

// unjoinEvents splits a line that is a kubectl event listing run together (a web page or ticket
// tool collapsed its line breaks into spaces) into one row per line, as kubectl printed it, so
// each row's age and count say when its series last happened (endedEvents): a line of at least
// 120 bytes in which at least two rows start. The pieces keep the line's number.
func unjoinEvents(lines []line) []line {
	return cutLines(lines, func(t string) []int {
		if len(t) < 120 || !strings.Contains(t, "Normal ") && !strings.Contains(t, "Warning ") {
			return nil
		}
		locs := reFlatEventRow.FindAllStringIndex(t, -1)
		rows := 0
		at := make([]int, 0, len(locs))
		for _, loc := range locs {
			if c := t[loc[0]+1]; c != 'T' && c != 'L' {
				rows++ // a row, not a header
			}
			at = append(at, loc[0])
		}
		if rows < 2 {
			return nil
		}
		return at
	})
}

// reInsightsHeader is the header row of a CloudWatch Logs Insights result copied from the
// console: "#", then the query's fields, tab-separated, @message last.
var reInsightsHeader = regexp.MustCompile(`^#\t@\w+(?:\t@?[\w.]+)*\t@message\s*$`)

// untable reads a Logs Insights result copied from the console (a header row, then rows of a
// row number, the other fields and the message, tab-separated) as its messages, one per line,
// each keeping its line number: the rows' prefixes would hide the components' lines.
func untable(lines []line) []line {
	var out []line
	cols := 0
	for i, l := range lines {
		switch {
		case reInsightsHeader.MatchString(l.text):
			if out == nil {
				out = append(make([]line, 0, len(lines)), lines[:i]...)
			}
			cols = strings.Count(strings.TrimSpace(l.text), "\t") + 1
			continue
		case cols > 0:
			f := strings.SplitN(l.text, "\t", cols)
			if len(f) == cols && isInt(strings.TrimSpace(f[0])) {
				l.text = f[cols-1]
			} else {
				cols = 0 // the table ended
			}
		}
		if out != nil {
			out = append(out, l)
		}
	}
	if out == nil {
		return lines
	}
	return out
}

// reK9sTitle is the title line of a k9s resource view ("Nodes(all)[4]", "Pods(kube-system)[12]")
// and reK9sSort the sort indicator k9s appends to a header's column name ("NAME↑", "AGE↓").
var (
	reK9sTitle = regexp.MustCompile(`^\s?[A-Z][A-Za-z]*\([^()\s]*\)\[\d+\]\s*$`)
	reK9sSort  = regexp.MustCompile(`[A-Z%/-][↑↓]`)
)

// unk9s reads a k9s resource view copied from the terminal as the kubectl get table it shows:
// k9s indents its pane by one space, titles it ("Nodes(all)[4]") and marks the sorted column
// with an arrow ("NAME↑"). The title becomes blank, the header's arrow a space (one column wide
// as on screen, so the header's column positions stay those of the rows) and the pane's rows
// lose their one-space indent, up to the first blank line.
func unk9s(lines []line) []line {
	var out []line
	for i := 0; i+1 < len(lines); i++ {
		h := lines[i+1].text
		if !reK9sTitle.MatchString(lines[i].text) || !strings.HasPrefix(h, " ") || strings.HasPrefix(h, "  ") ||
			!reK9sSort.MatchString(h) || !reTableHeader.MatchString(strings.NewReplacer("↑", " ", "↓", " ").Replace(h[1:])) {
			continue
		}
		if out == nil {
			out = append([]line(nil), lines...)
		}
		out[i].text = ""
		out[i+1].text = strings.NewReplacer("↑", " ", "↓", " ").Replace(h[1:])
		for j := i + 2; j < len(out) && strings.TrimSpace(out[j].text) != ""; j++ {
			out[j].text = strings.TrimPrefix(out[j].text, " ")
		}
	}
	if out == nil {
		return lines
	}
	return out
}

// unbox removes the frame a terminal UI draws around its panes (k9s, a rich table: "│ Events: …
// │") when most non-blank lines sit inside it: the text inside then reads as the tool printed
// it. Lines of the frame itself (┌──┐, ├──┤, └──┘) become blank.
func unbox(lines []line) []line {
	if !mostly(lines, func(t string) bool {
		t = strings.TrimSpace(t)
		return strings.HasPrefix(t, "│") || strings.HasPrefix(t, "┃") || frameLine(t)
	}) {
		return lines
	}
	out := make([]line, len(lines))
	for i, l := range lines {
		t := strings.TrimSpace(l.text)
		switch {
		case frameLine(t):
			l.text = ""
		case strings.HasPrefix(t, "│") || strings.HasPrefix(t, "┃"):
			t = strings.TrimPrefix(strings.TrimPrefix(t, "│"), "┃")
			t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimRight(t, " "), "│"), "┃")
			l.text = strings.TrimRight(strings.TrimPrefix(t, " "), " ")
		}
		out[i] = l
	}
	return out
}

// frameLine reports whether t is a frame's top, bottom or rule (box-drawing corners and bars only).
func frameLine(t string) bool {
	if t == "" {
		return false
	}
	for _, r := range t {
		if !strings.ContainsRune("┌┐└┘├┤┬┴┼─━┏┓┗┛┣┫╭╮╰╯ ", r) {
			return false
		}
	}
	return true
}

// reLineNumber is a line number and what separates it from the text: a tab (`cat -n`), two
// spaces (an editor, a shell history) or a bar (a CI console's or a pager's gutter: "12 | ").
var reLineNumber = regexp.MustCompile(`^\s*(\d{1,6})(\t| {2}| ?[|│] ?|$)`)

// unnumber removes line numbers (`cat -n`, an editor's or a shell history's numbering) when
// nearly every line carries one and they count up by one: the numbered file then reads as the
// document it is. A table whose first column is a number is not numbered this way (its header
// line carries none).
func unnumber(lines []line) []line {
	numbered, nonBlank, steps, barred, prev := 0, 0, 0, 0, -1
	for _, l := range lines {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		nonBlank++
		m := reLineNumber.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		numbered++
		n, _ := strconv.Atoi(m[1])
		if n == prev+1 || prev < 0 {
			steps++
		}
		if strings.ContainsAny(m[2], "|│") {
			barred++
		}
		prev = n
	}
	// a gutter bar on every line numbers even one or two lines; a tab or spaces only three or more
	if nonBlank < 3 && (barred < nonBlank || nonBlank == 0) || numbered*10 < nonBlank*9 || steps*10 < numbered*8 {
		return lines
	}
	return unprefix(lines, reLineNumber)
}

// reHTMLEntity is an HTML character reference a page's source carries for a quote, an angle
// bracket, an ampersand or an apostrophe.
var reHTMLEntity = regexp.MustCompile(`&(?:quot|lt|gt|amp|apos|#3[49]|#x2[27]|#0?39);`)

// unescapeHTML decodes character references in a paste copied out of a page's HTML source
// or a web form that stored it escaped (`&quot;Unauthorized&quot;`), when it holds at least
// two, or one that is not "&amp;" (a short paste with one apostrophe: "Couldn&#39;t …"): one
// "&amp;" can be a script's or a URL's own.
func unescapeHTML(lines []line) []line {
	n, amp := 0, 0
	for _, l := range lines {
		for _, m := range reHTMLEntity.FindAllString(l.text, 2) {
			n++
			if m == "&amp;" {
				amp++
			}
		}
		if n >= 2 {
			break
		}
	}
	if n == 0 || n == 1 && amp == 1 {
		return lines
	}
	out := make([]line, len(lines))
	for i, l := range lines {
		if strings.IndexByte(l.text, '&') >= 0 {
			l.text = html.UnescapeString(l.text)
		}
		out[i] = l
	}
	return out
}

// undoubleCSV undoes the quote doubling of CSV exports on each line that is a CSV record
// (csvRecord) with a quoted field holding a doubled quote: a CloudWatch Logs Insights "Download
// CSV" (@timestamp,@message,@logStream), a Splunk export (_raw) or an event log exported with
// Export-Csv quote the message field and double every quote in it (RFC 4180 §2.7), so a kubelet
// line's `err=""Unauthorized""` becomes `err="Unauthorized"` again. Each field keeps its place
// and its outer quotes; a line that is not such a record is left as it is.
func undoubleCSV(lines []line) []line {
	var out []line
	for i, l := range lines {
		if !strings.Contains(l.text, `""`) || strings.IndexByte(l.text, ',') < 0 {
			continue
		}
		t, ok := csvRecord(l.text)
		if !ok {
			continue
		}
		if out == nil {
			out = make([]line, len(lines))
			copy(out, lines)
		}
		out[i].text = t
	}
	if out == nil {
		return lines
	}
	return out
}

// csvRecord reads l as one strict CSV record (RFC 4180: a quoted field ends at a quote followed
// by a comma or the line's end, and a field that does not start with a quote holds none) of at
// least two fields. It returns l with the doubled quotes inside its quoted fields undoubled,
// and true when l is such a record and at least one quoted field held a doubled quote.
func csvRecord(l string) (string, bool) {
	var b strings.Builder
	fields, doubled := 0, false
	for i := 0; ; {
		fields++
		if i < len(l) && l[i] == '"' {
			b.WriteByte('"')
			j := i + 1
			for {
				k := strings.IndexByte(l[j:], '"')
				if k < 0 {
					return "", false // unterminated
				}
				b.WriteString(l[j : j+k])
				j += k + 1
				if j < len(l) && l[j] == '"' { // a doubled quote
					b.WriteByte('"')
					doubled = true
					j++
					continue
				}
				break
			}
			b.WriteByte('"')
			i = j
		} else {
			k := strings.IndexByte(l[i:], ',')
			if k < 0 {
				k = len(l) - i
			}
			if strings.IndexByte(l[i:i+k], '"') >= 0 {
				return "", false
			}
			b.WriteString(l[i : i+k])
			i += k
		}
		if i == len(l) {
			break
		}
		if l[i] != ',' {
			return "", false
		}
		b.WriteByte(',')
		i++
	}
	if fields < 2 || !doubled {
		return "", false
	}
	return b.String(), true
}

// unquote removes "> " quoting, every level of it (see unquoteLine), when most non-blank lines
// carry it, and otherwise from each block of at least minQuotedBlock quoted lines (blank lines between them belong to
// the block): an answer that quotes the question, a reply that quotes the logs it answers.
func unquote(lines []line) []line {
	quoted, nonBlank := 0, 0
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		nonBlank++
		if strings.HasPrefix(t, ">") {
			quoted++
		}
	}
	if nonBlank == 0 || quoted == 0 {
		return lines
	}
	out := make([]line, len(lines))
	copy(out, lines)
	if quoted*10 >= nonBlank*8 {
		for i := range out {
			out[i].text = unquoteLine(out[i].text)
		}
		return out
	}
	if quoted < minQuotedBlock {
		return lines
	}
	// block by block: a run of quoted and blank lines, unquoted when it holds enough quoted ones
	for i := 0; i < len(out); {
		if !isQuoted(out[i].text) {
			i++
			continue
		}
		j, n, last := i, 0, i
		for ; j < len(out); j++ {
			t := strings.TrimSpace(out[j].text)
			if t == "" {
				continue
			}
			if !strings.HasPrefix(t, ">") {
				break
			}
			n, last = n+1, j
		}
		if n >= minQuotedBlock {
			for k := i; k <= last; k++ {
				out[k].text = unquoteLine(out[k].text)
			}
		}
		i = last + 1
	}
	return out
}

// reCodeLine is a line that is one Markdown code span, or a short label ("Error message:")
// and one: group 1 is the span's text. A poster who pastes one error message into prose
// often marks it so (`InvalidParameterException: …`); the span is what a component wrote.
var reCodeLine = regexp.MustCompile("^\\s*(?:[\\p{L}][\\p{L} ]{0,28}:\\s*)?`([^`]{30,})`\\s*[.,;]?\\s*$")

// uncode replaces a line that is one inline code span (reCodeLine) with the span's text.
func uncode(lines []line) []line {
	var out []line
	for i, l := range lines {
		m := reCodeLine.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		if out == nil {
			out = make([]line, len(lines))
			copy(out, lines)
		}
		out[i].text = strings.TrimSpace(m[1])
	}
	if out == nil {
		return lines
	}
	return out
}

// minQuotedBlock is the fewest quoted lines unquote takes for a quotation rather than a line
// that happens to start with ">" (a shell's continuation prompt, a diff, a comparison).
const minQuotedBlock = 3

// isQuoted reports whether a line is quoted with ">" (after leading spaces).
func isQuoted(s string) bool {
	return strings.HasPrefix(strings.TrimLeft(s, " "), ">")
}

// unquoteLine removes every level of "> " quoting from s ("> > ", ">> ", ">>"), if it has any: an
// e-mail thread quotes each earlier message one level deeper, so one paste mixes depths, and each
// line is read at its own depth — the kubelet lines a reply quotes from the message before it are
// a log, not part of the aws-auth the reply itself quotes. One space after each ">" goes with it;
// further indentation (YAML's) stays.
func unquoteLine(s string) string {
	t := strings.TrimLeft(s, " ")
	if !strings.HasPrefix(t, ">") {
		return s
	}
	for strings.HasPrefix(t, ">") {
		t = strings.TrimPrefix(strings.TrimPrefix(t, ">"), " ")
	}
	return t
}

type subRegion struct {
	lines   []line
	command string // the shell command that printed these lines, if a prompt preceded them
	// onNode is true when the prompt shows a shell on a node (nodePrompt): what the command
	// printed there used the node's credentials and clock
	onNode bool
	// host is where the prompt says the command ran (hostNode, hostWorkstation, "")
	host string
}

// OperatorCLIMark starts an AWS CLI error line printed under an aws command that was not typed
// on a node (a workstation's prompt, a bare command): withFailedRequest puts it after the
// command, so "[aws sts get-caller-identity] [operator CLI] An error occurred (ExpiredToken) …".
// It also starts kubectl's own client errors under a kubectl command typed off the node
// (operatorKubectlLine: "[operator CLI] E1124 … memcache.go:265] couldn't get current server API
// group list: … x509: …"): they answer the poster's access to the cluster, and the kubelet's
// TLS, timeout and authentication signatures (kubelet.yaml, client-go.yaml) exclude them.
// Log signatures that read such errors as the node's credentials, clock or API quota exclude it
// (collectors/logscan/catalog aws-sdk.yaml, bootstrap-sh.yaml): an expired SSO session or a
// deactivated access key on the poster's laptop says nothing of the node. It also starts the
// lines of a 401 or 403 answer to an HTTP request the poster sent without credentials, on the node
// or off it (anonymousRequest, reIdentityAnswer): "[operator CLI] … User \"system:anonymous\" …".
const OperatorCLIMark = "[operator CLI] "

// reNodePrompt is a shell prompt on an EKS node: its EC2 host name ("[ec2-user@ip-10-0-1-23 ~]$",
// "root@ip-172-31-5-6:~#"), an instance ID, the ec2-user or ssm-user account, or the bare shell
// of an SSM session ("sh-4.2$", "sh-5.2$"), or Bottlerocket's control and admin containers
// ("[ssm-user@control]$", "[root@admin]#": their host names are the containers', not the node's).
var reNodePrompt = regexp.MustCompile(`\bip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}\b|\bi-[0-9a-f]{8,17}\b|\b(?:ec2-user|ssm-user)@|^\s*sh-\d+\.\d+[$#]|^\s*\[[\w-]+@(?:control|admin)\][$#]`)

// nodePrompt reports whether prompt, the part of a prompt line before its command, is a shell
// on a node (reNodePrompt).
func nodePrompt(prompt string) bool { return reNodePrompt.MatchString(prompt) }

// promptHost says where a prompt (the part of a prompt line before its command) shows a shell:
// on a node, on a workstation when it names a user and host that is no node's or is
// PowerShell's, "" when it names neither (a bare "$").
func promptHost(prompt string) string {
	switch {
	case nodePrompt(prompt):
		return hostNode
	case reUserHost.MatchString(prompt), strings.HasPrefix(strings.TrimSpace(prompt), "PS "):
		return hostWorkstation
	}
	return ""
}

// reUserHost is a prompt naming its user and host: "dana@laptop:~/eks$", "[dana@ws01 ~]$".
var reUserHost = regexp.MustCompile(`[\w.-]+@([\w.-]+)`)

// userHostName returns the host a user@host prompt names, "" when it names none.
func userHostName(prompt string) string {
	if m := reUserHost.FindStringSubmatch(prompt); m != nil {
		return m[1]
	}
	return ""
}

// reNodeJournalLine is a journal line (short format) a node's join components wrote, with the
// host it was written on: "Jan 27 14:05:31 ss-kanda-k8s02 kubelet[3318]: …".
var reNodeJournalLine = regexp.MustCompile(`^\s*(?:[A-Z][a-z]{2} )?[A-Z][a-z]{2}\s+\d{1,2} \d\d:\d\d:\d\d ([\w.-]+) (?:kubelet|nodeadm|containerd|kube-proxy|nodeadm-(?:config|run|init)|aws-node)\[\d+\]: `)

// journalHosts returns the hosts the node journal lines of lines were written on (at most a few):
// a prompt naming one of them is the node's shell.
func journalHosts(lines []line) []string {
	var hosts []string
	for _, l := range lines {
		if len(l.text) < 20 || l.text[0] != ' ' && (l.text[0] < 'A' || l.text[0] > 'Z') {
			continue
		}
		if m := reNodeJournalLine.FindStringSubmatch(l.text); m != nil && !slices.Contains(hosts, m[1]) {
			if hosts = append(hosts, m[1]); len(hosts) == 4 {
				break
			}
		}
	}
	return hosts
}

// markOperatorCLI returns lines with OperatorCLIMark before each error line a CLI printed about
// its own request, for the output of a command not typed on a node: the AWS CLI's ("An error
// occurred (…") under an aws command, and kubectl's own client errors under a kubectl command
// (operatorKubectlLine). Other lines, and other commands' output, are returned as they are.
func markOperatorCLI(lines []line, command string, onNode bool) []line {
	if onNode {
		return lines
	}
	var own func(string) bool
	switch {
	case strings.HasPrefix(command, "aws "):
		own = func(t string) bool { return strings.HasPrefix(t, "An error occurred (") }
	case reKubectlCommand.MatchString(command) && !reKubectlRelays.MatchString(command):
		own = operatorKubectlLine
	default:
		return lines
	}
	var out []line
	for i, l := range lines {
		if t := strings.TrimSpace(l.text); own(t) {
			if out == nil {
				out = append([]line(nil), lines...)
			}
			out[i].text = OperatorCLIMark + t
		}
	}
	if out == nil {
		return lines
	}
	return out
}

var (
	// reKubectlCommand is a kubectl command, or the k / kc aliases rePrompt knows.
	reKubectlCommand = regexp.MustCompile(`^(?:kubectl|k|kc)(?:\.exe)?\s`)
	// reKubectlRelays is a kubectl command whose output is another program's: a container's log
	// (logs), a command run in a pod or on a node (exec, debug, attach, run, cp), or an API path
	// read raw (get --raw /api/v1/nodes/…/proxy/logs/…): their client-go lines are a component's,
	// not kubectl's.
	reKubectlRelays = regexp.MustCompile(`\s(?:logs|exec|debug|attach|run|cp|--raw)(?:\s|=|$)`)
	// reKubectlClientLine is a klog line of client-go as kubectl prints it to stderr, with no
	// journal or container prefix: "E1124 10:00:01.223456   81234 memcache.go:265] couldn't get
	// current server API group list: …" (discovery's memory cache, k8s.io/client-go
	// discovery/cached/memory/memcache.go), its disk cache, the discovery client, the request
	// round trippers, the REST request and an exec credential plugin.
	reKubectlClientLine = regexp.MustCompile(`^[EWIF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+ (?:memcache|cached_discovery|discovery_client|round_trippers|request|exec|loader)\.go:\d+\] `)
)

// operatorKubectlLine reports whether t, a line printed under a kubectl command, is kubectl's own
// error about reaching the cluster: a client-go klog line (reKubectlClientLine), or the error
// kubectl prints before it exits (k8s.io/kubectl/pkg/cmd/util/helpers.go: "Unable to connect to
// the server: …", "error: You must be logged in to the server (…)", "error: …", "Error from
// server (…): …"). A kubelet line quoted from a journal starts with its date and host, not so.
func operatorKubectlLine(t string) bool {
	return strings.HasPrefix(t, "Unable to connect to the server:") || strings.HasPrefix(t, "error: ") ||
		strings.HasPrefix(t, "Error from server") || reKubectlClientLine.MatchString(t)
}

// splitPrompts splits lines at shell prompt lines, and at kubectl, eksctl and aws commands
// pasted alone on a line without a prompt (reBareCommand); each part remembers the command
// before it. Output a poster put behind "# " under its command (a script, a README) is
// uncommented (uncomment).
func splitPrompts(lines []line, nodeHosts ...string) []subRegion {
	var out []subRegion
	// a part is the lines between two command lines: a part of lines, not a copy
	cur, start := subRegion{}, 0
	// keep: the line at end starts the next part (else it is a command line, dropped)
	part := func(end int, keep bool) {
		if cur.lines = lines[start:end:end]; len(cur.lines) > 0 {
			if cur.command != "" {
				// output indented as a whole under a prompt at column 0 (a ticket that indents
				// what it quotes): the region's dedent did not see it, the prompt being in it
				cur.lines = markOperatorCLI(uncomment(dedent(cur.lines)), cur.command, cur.onNode)
			}
			out = append(out, cur)
		}
		start = end + 1
		if keep {
			start = end
		}
	}
	flush := func(end int) { part(end, false) }
	// saved: the files a command line wrote a command's output to, each with that command; a
	// later `cat FILE` prints that command's output (catOfSaved)
	var saved map[string]string
	for i, l := range lines {
		cmd, prompt, isPrompt := promptCommand(l.text)
		if isPrompt {
			if k := introBefore(lines[start:i]); k > 0 {
				// the poster's words introducing the command ("And here is another node that
				// works fine:"), after a blank line under the last part: not that part's last line
				part(start+k, true)
				cur = subRegion{}
			}
			flush(i)
			typed := cmd
			if writer, ok := catOfSaved(cmd, saved); ok {
				cmd = writer
			}
			for file, writer := range savedOutputs(typed) {
				if saved == nil {
					saved = map[string]string{}
				}
				saved[file] = writer
			}
			cur = subRegion{command: cmd, onNode: nodePrompt(prompt), host: promptHost(prompt)}
			if cur.host == hostWorkstation && slices.Contains(nodeHosts, userHostName(prompt)) {
				// the host the paste's node journal was written on: a node whose name is no EC2
				// name (a hybrid node, a custom hostname)
				cur.onNode, cur.host = true, hostNode
			}
			continue
		}
		if cmd, ok := decoratedCommand(l.text); ok {
			flush(i)
			cur = subRegion{command: cmd}
			continue
		}
		if barePrompt(l.text) || listMarker(l.text) {
			// the prompt the shell printed after the output, nothing typed after it, or the
			// number of the next item of a ticket's list ("2."): the output ends here (the line
			// is dropped, as a command line is)
			flush(i)
			cur = subRegion{}
			continue
		}
		if chatHeader(l.text) {
			// the next speaker's message: what the last one pasted ends here
			flush(i)
			cur = subRegion{}
		}
	}
	flush(len(lines))
	return out
}

// promptCommand returns the command typed on a shell prompt line and the prompt before it: a
// prompt rePrompt knows followed by one of the commands it lists, or a prompt that names its user
// and host, or a bash or sh version, followed by any command (reHostPrompt: "[ec2-user@ip-10-0-1-2
// ~]$ sudo iptables -t nat -S", "bash-5.2# df -h"), whose output is that command's and not the
// previous one's. ok is false for any other line.
func promptCommand(t string) (cmd, prompt string, ok bool) {
	if m := rePrompt.FindStringSubmatch(t); m != nil && (m[1] != "env" && m[1] != "printenv" || reEnvListing.MatchString(m[2])) {
		cmd = strings.TrimSpace(m[1] + m[2])
		if m[3] != "" {
			cmd = strings.TrimSpace(m[3])
		}
		return cmd, t[:max(0, strings.Index(t, m[1]+m[2]))], true
	}
	if m := reHostPrompt.FindStringSubmatch(t); m != nil {
		return strings.TrimSpace(m[2]), m[1], true
	}
	return "", "", false
}

// reHostPrompt is a prompt that cannot be a line of a log or a script, followed by any command:
// one naming its user and host in brackets or before a colon ("[root@ip-10-0-1-2 ~]#",
// "dana@laptop:~/eks$") or a shell's name and version ("bash-5.2#", "sh-4.2$").
var reHostPrompt = regexp.MustCompile(`^(\s*(?:\[[\w.-]+@[^\]\n]{1,80}\][$#]|[\w.-]+@[\w.-]+:[^\s$#]*[$#]|(?:ba)?sh-\d+\.\d+[$#]))\s+(\S.*)$`)

// anonymousRequest reports whether command, a shell command a paste shows above its output, is
// an HTTP request sent without credentials: curl, wget, Invoke-WebRequest or Invoke-RestMethod
// (iwr, irm) with no option that sends any (reRequestCredentials: an Authorization or IMDSv2 token
// header, a client certificate, a user and password, a bearer token, a SigV4 signature, a config
// file). What the server answers such a request — the API server's 403 for "system:anonymous",
// its 401, IMDS's 401 page when IMDSv2 is required — is what every anonymous request gets
// (https://kubernetes.io/docs/reference/access-authn-authz/authentication/#anonymous-requests,
// https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-instance-metadata-service.html):
// it says nothing of the kubelet's credentials or of what a script on the node was answered.
func anonymousRequest(command string) bool {
	f := strings.Fields(command)
	for len(f) > 0 && (f[0] == "sudo" || strings.Contains(f[0], "=")) {
		f = f[1:] // sudo, VAR=value before the command
	}
	if len(f) == 0 {
		return false
	}
	switch strings.ToLower(strings.TrimSuffix(f[0], ".exe")) {
	case "curl", "wget", "invoke-webrequest", "invoke-restmethod", "iwr", "irm":
		return !reRequestCredentials.MatchString(command)
	}
	return false
}

// reRequestCredentials is an option of curl, wget or PowerShell's web cmdlets that sends
// credentials, or a header naming a token.
var reRequestCredentials = regexp.MustCompile(`(?i:authorization|metadata-token|bearer|\$\{?token)|(?:^|\s)(?:-[a-zA-Z]*[EuKn]|--cert|--key|--user|--oauth2-bearer|--aws-sigv4|--negotiate|--ntlm|--netrc|--config|--password|--http-user|--certificate|--private-key|-Credential|-Certificate|-Headers|-UseDefaultCredentials|-Authentication)\b`)

// reIdentityAnswer is a line of a server's answer about who the requester is: the API server's
// 401 or 403 (a Status message naming system:anonymous, "Unauthorized", "Forbidden") or IMDS's
// 401 page. The rest of a request's output (curl -v's "Trying IP:443", a timeout, the body it
// fetched) says what it says of the path whoever sent it.
var reIdentityAnswer = regexp.MustCompile(`(?i)system:anonymous|unauthori[sz]ed|forbidden|\b40[13]\b`)

// markLines returns text with mark before each line that re matches; the line count stays.
func markLines(text []byte, mark string, re *regexp.Regexp) []byte {
	lines := bytes.Split(text, []byte("\n"))
	for i, l := range lines {
		if re.Match(l) {
			lines[i] = append([]byte(mark), l...)
		}
	}
	return bytes.Join(lines, []byte("\n"))
}

// reEnvListing is what follows env or printenv when the command lists the environment: nothing,
// a pipe ("env | grep -i proxy"), or the names printenv prints. "# env vars for the proxy", a
// comment of a script, is no such command.
var reEnvListing = regexp.MustCompile(`^\s*(?:$|\|)|^(?:\s+(?:[A-Z_][A-Z0-9_]*|https?_proxy|no_proxy))+\s*$`)

// reBarePrompt is a shell prompt with nothing typed after it, alone on its line: one that names
// its user or host ("[ec2-user@ip-10-0-1-2 ~]$", "[root@ip-10-0-1-2 ~]#", "dana@laptop:~/eks$"),
// an SSM session's bare shell ("sh-4.2$") or PowerShell's ("PS C:\Users\dana>"). A "$" or "#"
// alone is not one: a comment or a heredoc holds those.
var reBarePrompt = regexp.MustCompile(`^\s*(?:\[[\w.-]+@[^\]\n]{1,80}\][$#]|[\w.-]+@[\w.-]+:[^\s$#]*[$#]|sh-\d+\.\d+[$#]|PS [A-Z]:\\[^>]*>)\s*$`)

// barePrompt reports whether t is a prompt line with no command (reBarePrompt): copied out of a
// terminal, the prompt the shell printed after the last command's output.
func barePrompt(t string) bool { return reBarePrompt.MatchString(t) }

// introBefore returns where the last paragraph of lines starts when it is one sentence of the
// poster's ending with a colon (introLine) after a blank line, with text above it; else 0.
func introBefore(lines []line) int {
	k := len(lines) - 1
	for k >= 0 && strings.TrimSpace(lines[k].text) == "" {
		k--
	}
	if k < 2 || strings.TrimSpace(lines[k-1].text) != "" || !strings.HasSuffix(strings.TrimSpace(lines[k].text), ":") || !introLine(lines[k].text) {
		return 0
	}
	return k
}

// reChatHeader is a chat client's message header alone on its line, as a copy out of the client
// keeps it: Teams' "[14:36] Name" (or "[2:36 PM] Name:"), Slack's "Name  2:36 PM" or
// "Name  [2:36 PM]": a time and a name of one to four capitalised words, nothing else.
var reChatHeader = regexp.MustCompile(`^\s*(?:\[\d{1,2}:\d\d(?:\s?[AaPp][Mm])?\]\s+` + chatName + `:?|` + chatName + `\s{2,}\[?\d{1,2}:\d\d\s?[AaPp][Mm]\]?)\s*$`)

// chatName is a speaker's name in a chat header: one to four words, each capitalised.
const chatName = `\p{Lu}[\p{L}.'-]*(?:\s\p{Lu}[\p{L}.'-]*){0,3}`

// chatHeader reports whether t is a chat client's message header (reChatHeader). A log line
// with a bracketed time goes on with its message ("[14:36] ERROR …" holds no name alone).
func chatHeader(t string) bool {
	return len(t) < 80 && reChatHeader.MatchString(t) && !reChatLevel.MatchString(t)
}

// reChatLevel is a log level where a chat header has its name.
var reChatLevel = regexp.MustCompile(`\]\s+(?:INFO|WARN|WARNING|ERROR|DEBUG|FATAL|TRACE|CRITICAL)\b`)

// reChatLine is the time and speaker a chat client puts before every line of a message when it
// is copied out or exported (IRC, Matrix, a Slack export): "[10:42] alice: ", "[2:36 PM] Dana
// Whitfield: " (a time without seconds, a name of one to four words and a colon), or "[10:42:01]
// <alice> " (IRC's nick in angle brackets, seconds allowed). Group 1 is the speaker.
var reChatLine = regexp.MustCompile(`^\[\d{1,2}:\d\d(?:(?::\d\d)?\]\s<([^>\s]{1,32})>|(?:\s?[AaPp][Mm])?\]\s(` + `[\p{L}\d._@'-]{1,32}(?:\s[\p{L}\d._@'-]{1,32}){0,3}):)(?: |$)`)

// unchat removes a chat client's time and speaker (reChatLine) from every line that has one,
// when most non-blank lines do and one speaker's name is on at least half of them, and puts a
// blank line between two messages (another time or speaker) so each is read apart: a paste
// copied out of a chat that prefixes every line then reads as the lines the speaker pasted (a
// YAML document keeps its indentation, a journal line its own prefix, and the quotes findings
// show hold none of the chat's). A log whose lines start with a bracketed time and a level or a
// component ("[14:36] ERROR …", "[14:36] kubelet: …" from line to line another) is no chat.
func unchat(lines []line) []line {
	speakers := map[string]int{}
	chat := func(t string) bool {
		m := reChatLine.FindStringSubmatch(t)
		if m == nil || reChatLevel.MatchString(t) {
			return false
		}
		speakers[m[1]+m[2]]++
		return true
	}
	if !mostly(lines, chat) {
		return lines
	}
	total, top := 0, 0
	for _, n := range speakers {
		total += n
		top = max(top, n)
	}
	if total < 2 || top*2 < total {
		return lines
	}
	// each message (a change of time or speaker) ends what the one before it pasted: a blank
	// line, numbered as the message's first, goes between them
	out := make([]line, 0, len(lines)+8)
	prev := ""
	for _, l := range lines {
		if loc := reChatLine.FindStringIndex(l.text); loc != nil {
			msg := strings.TrimSpace(l.text[:loc[1]])
			if prev != "" && msg != prev && len(out) > 0 && strings.TrimSpace(out[len(out)-1].text) != "" {
				out = append(out, line{n: l.n})
			}
			prev = msg
			l.text = l.text[loc[1]:]
		}
		out = append(out, l)
	}
	return out
}

// reShellError is bash reporting an error in a script ("/etc/eks/bootstrap.sh: line 56: $2:
// unbound variable"), with "line" in the locales bash is translated to.
var reShellError = regexp.MustCompile(`^\s*(?:[\w.-]+\[\d+\]: )?/\S+\.sh: (?:line|行|Zeile|ligne|línea|linha|riga) \d+: `)

// reBareCommand is a kubectl, eksctl or aws command that reads the cluster or the account,
// alone on its line without a prompt ("kubectl get nodeclaims", "aws eks describe-nodegroup
// --cluster-name prod …"); a comma inside an argument (Name=vpc-id,Values=vpc-1) is the
// command's, a comma and a space a sentence's.
var reBareCommand = regexp.MustCompile(`^\s*(?:kubectl\s+(?:-n\s+\S+\s+)?(?:get|describe)|eksctl\s+(?:get|utils\s+describe-stacks)|aws\s+(?:eks|ec2|iam|sts|ssm|autoscaling|cloudformation)\s+(?:get|describe|list)-[a-z-]+)\b(?:(?:[^,;!?()]|,[^\s,;!?()])*[^,;!?().\s])?\s*$`)

// bareCommand reports whether t is a command reBareCommand matches once its quoted arguments
// are read as one word each. A line that does not start with kubectl, eksctl or aws is none, and
// is not rewritten to find out: a pasted line can be megabytes long. (Quoting cannot make it
// start so: a quoted argument becomes "Q", and text before the first quote stays as it is.)
func bareCommand(t string) bool {
	s := strings.TrimLeft(t, " \t\n\f\r") // reBareCommand's \s
	if !strings.HasPrefix(s, "kubectl") && !strings.HasPrefix(s, "eksctl") && !strings.HasPrefix(s, "aws") {
		return false
	}
	return reBareCommand.MatchString(reQuotedArg.ReplaceAllString(t, "Q"))
}

// decoratedCommand returns the command of a line holding only a command reBareCommand matches,
// as it is or set off as a heading the way posters label what follows: "==== aws eks
// describe-cluster --name prod ====", "--- kubectl get nodes ---", "### aws ec2 …", "**kubectl
// get csr**", "`aws iam get-role …`:".
func decoratedCommand(t string) (string, bool) {
	if bareCommand(t) {
		return strings.TrimSpace(t), true
	}
	if m := reListItem.FindStringIndex(t); m != nil && bareCommand(t[m[1]:]) {
		// the item of a numbered list that is a command ("3. aws ec2 describe-nat-gateways …")
		return strings.TrimSpace(t[m[1]:]), true
	}
	const marks = "=#*-`~:"
	s := strings.TrimSpace(t)
	inner := strings.TrimSpace(strings.TrimRight(strings.TrimLeft(s, marks+" "), marks+" "))
	if inner == s || inner == "" || len(s)-len(inner) < 2 || !bareCommand(inner) {
		return "", false
	}
	return inner, true
}

// reListItem is the number of an item of a list a ticket numbers ("1.", "2)", "(3)") at the start
// of a line, with the space after it.
var reListItem = regexp.MustCompile(`^\s*(?:\d{1,2}[.)]|\(\d{1,2}\))\s+`)

// reListMarker is a line holding only such a number: what follows is the item.
var reListMarker = regexp.MustCompile(`^\s*(?:\d{1,2}[.)]|\(\d{1,2}\))\s*$`)

// listMarker reports whether t is only the number of a list item (reListMarker): no output of
// the tools eksdoctor reads is a line of a number and a dot or parenthesis.
func listMarker(t string) bool { return reListMarker.MatchString(t) }

// reQuotedArg is a quoted argument of a command line ('NatGateways[].{id:NatGatewayId,eip:…}'):
// its commas and brackets are the query's, not a sentence's.
var reQuotedArg = regexp.MustCompile(`'[^']*'|"[^"]*"`)

// uncomment removes a "# " the poster put before every line of a command's output, when the
// rest of the first line is output kubectl prints (a table header): a comment of a script
// stays as it is.
func uncomment(lines []line) []line {
	first := -1
	for i, l := range lines {
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "#") {
			return lines
		}
		if first < 0 {
			first = i
		}
	}
	if first < 0 || !reTableHeader.MatchString(strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(lines[first].text), "#"), " ")) {
		return lines
	}
	out := make([]line, len(lines))
	for i, l := range lines {
		t := strings.TrimPrefix(strings.TrimLeft(l.text, " \t"), "#")
		out[i] = line{n: l.n, text: strings.TrimPrefix(t, " ")}
	}
	return out
}

func joinLines(lines []line) []byte {
	n := 0
	for _, l := range lines {
		n += len(l.text) + 1
	}
	return appendLines(make([]byte, 0, n), lines)
}

// appendLines appends lines to b, each ending in a line break.
func appendLines(b []byte, lines []line) []byte {
	for _, l := range lines {
		b = append(b, l.text...)
		b = append(b, '\n')
	}
	return b
}

// trimBlank drops leading and trailing blank lines.
func trimBlank(lines []line) []line {
	for len(lines) > 0 && strings.TrimSpace(lines[0].text) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1].text) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func seg(t Type, detail string, lines []line) Segment {
	return Segment{Type: t, Detail: detail, First: lines[0].n, Last: lines[len(lines)-1].n, Text: joinLines(lines)}
}

// foreignAfterBlank returns the index of the first line that follows a blank line at column
// 0 and cannot continue a YAML or JSON document (no key, list item, bracket, comment or document
// marker), or 0. Under JSON that is complete above the blank line (jsonEndsAt) any line but
// another JSON value's first is foreign: a NodeConfig or MIME user data pasted under a command's
// JSON output starts there.
func foreignAfterBlank(lines []line) int {
	first := strings.TrimSpace(lines[0].text)
	isJSON := strings.HasPrefix(first, "{") || strings.HasPrefix(first, "[")
	for i := 1; i < len(lines); i++ {
		t := lines[i].text
		if strings.TrimSpace(lines[i-1].text) != "" || strings.TrimSpace(t) == "" || t[0] == ' ' || t[0] == '\t' {
			continue
		}
		if isJSON && !strings.ContainsRune("{[", rune(t[0])) && jsonEndsAt(lines, i) {
			// JSON output complete above the blank line (a command's) cannot go on with a key,
			// MIME headers or a document marker: what follows was pasted under it
			return i
		}
		if !reYAMLish.MatchString(t) && !reYAMLLineStart.MatchString(t) && !strings.ContainsRune("{}[]-#\"", rune(t[0])) || proseKey(t) || longSentence(t) {
			return i // a sentence, even one that starts like a key ("SGs: cluster SG is …")
		}
	}
	return 0
}

// jsonEndsAt reports whether the lines before line i (after a blank line) end a JSON document
// that starts at the first line: the last of them closes it ("}" or "]" alone) and together they
// are valid JSON.
func jsonEndsAt(lines []line, i int) bool {
	k := i - 1
	for k > 0 && strings.TrimSpace(lines[k].text) == "" {
		k--
	}
	if t := strings.TrimSpace(lines[k].text); t != "}" && t != "]" {
		return false
	}
	return json.Valid(joinLines(lines[:k+1]))
}

// longSentence reports whether a line at column 0 reads as the poster's words: ten words or more
// ending in a full stop or a question mark.
func longSentence(t string) bool {
	t = strings.TrimSpace(t)
	return len(strings.Fields(t)) >= 10 && strings.ContainsAny(t[len(t)-1:], ".?")
}

// unreadable reports whether any of segs was recognised but could not be read (or, a NodeConfig,
// does not parse).
func unreadable(segs []Segment) bool {
	for _, s := range segs {
		if s.Problem != "" || s.Detail == detailNodeConfigUnparsed {
			return true
		}
	}
	return false
}

// paragraphs reads unfenced text paragraph by paragraph (blank-line separated); consecutive
// paragraphs that are neither log nor prose are joined and read as one document (YAML with blank
// lines, kubectl describe output).
func paragraphs(lines []line) []Segment {
	// paragraphs are the ranges [lo, hi) of lines that hold them
	var paras [][2]int
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l.text) == "" {
			if start >= 0 {
				paras = append(paras, [2]int{start, i})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		paras = append(paras, [2]int{start, len(lines)})
	}
	paras, hard := splitAtHeaders(lines, paras)
	para := func(k int) []line { return lines[paras[k][0]:paras[k][1]:paras[k][1]] }
	// pos is the index in lines of the last line numbered as line k is: the pieces of a line cut
	// in records (unjoin) share its number
	pos := func(k int) int {
		for k+1 < len(lines) && lines[k+1].n == lines[k].n {
			k++
		}
		return k
	}
	var m merger
	for i := 0; i < len(paras); i++ {
		p := para(i)
		if structuredStart(p) {
			// join the following paragraphs while the whole still reads as a document
			j := i + 1
			best, bestJ := []Segment(nil), i
			if segs, ok := structured(p, ""); ok {
				best, bestJ = segs, i
			}
			// MIME user data holds part bodies of any shape (a shell script reads as prose):
			// its paragraphs up to the closing boundary belong to it
			closing := mimeClosing(p, i+1, min(len(paras), i+20), para)
			for ; j < len(paras) && j < i+20 && (j <= i+closing || !proseLike(para(j))) && !docAfterDoc(lines, paras[j-1][0], paras[j][0]) && !hard[paras[j][0]]; j++ {
				// with the blank lines between the paragraphs: MIME needs the one that ends
				// its headers, and a script or a YAML block scalar keeps its own
				joined := lines[pos(paras[i][0]) : pos(paras[j][1]-1)+1]
				// a join that does not parse does not replace a reading already found: a
				// document cut off mid-way ends where the text after it (log lines) starts
				if segs, ok := structured(joined, ""); ok && (best == nil || !unreadable(segs)) {
					best, bestJ = segs, j
				}
			}
			if best != nil {
				for _, s := range best {
					m.add(s, nil)
				}
				i = bestJ
				continue
			}
		}
		t, detail := logOrProse(p)
		m.add(Segment{Type: t, Detail: detail, First: p[0].n, Last: p[len(p)-1].n}, p)
	}
	return m.out
}

// merger collects the segments of paragraphs, joining consecutive log segments and consecutive
// prose segments as they come: a paste of a million short paragraphs makes one
// segment, not a million to be joined later.
type merger struct {
	out []Segment
}

// add appends s, or joins it to the last segment; a segment of lines has no Text yet, and its
// lines are written to the Text it joins.
func (m *merger) add(s Segment, lines []line) {
	if n := len(m.out); n > 0 && (s.Type == TypeLog || s.Type == TypeProse) && m.out[n-1].Type == s.Type && (s.Detail == "text") == (m.out[n-1].Detail == "text") {
		prev := &m.out[n-1]
		for gap := s.First - prev.Last - 1; gap > 0; gap-- {
			prev.Text = append(prev.Text, '\n')
		}
		if lines != nil {
			prev.Text = appendLines(prev.Text, lines)
		} else {
			prev.Text = append(prev.Text, s.Text...)
		}
		prev.Last = s.Last
		if s.Type == TypeLog && prev.Detail != s.Detail {
			prev.Detail = "mixed log lines"
		}
		return
	}
	if lines != nil {
		s.Text = joinLines(lines)
	}
	m.out = append(m.out, s)
}

// reBoundary is the boundary parameter of a multipart Content-Type header (RFC 2046 5.1.1).
var reBoundary = regexp.MustCompile(`(?i)boundary="?([^";\s]+)"?`)

// mimeClosing returns, when paragraph p starts MIME multipart user data (MIME-Version or a
// multipart Content-Type header, or a boundary line opening parts cut from one), how many of the
// paragraphs para(from) … para(to-1) after it reach its closing boundary line ("--BOUNDARY--"),
// else 0.
func mimeClosing(p []line, from, to int, para func(k int) []line) int {
	first := strings.ToLower(strings.TrimSpace(p[0].text))
	var boundary string
	switch {
	case strings.HasPrefix(first, "mime-version:") || strings.HasPrefix(first, "content-type: multipart/"):
		for _, l := range p {
			if m := reBoundary.FindStringSubmatch(l.text); m != nil {
				boundary = m[1]
				break
			}
		}
	case strings.HasPrefix(first, "--") && userdata.PartsFragment(joinLines(p)):
		// parts cut from a multipart document: their first line is the boundary
		boundary = strings.TrimPrefix(strings.TrimSpace(p[0].text), "--")
	}
	if boundary == "" {
		return 0
	}
	for k := from; k < to; k++ {
		for _, l := range para(k) {
			if strings.TrimSpace(l.text) == "--"+boundary+"--" {
				return k - from + 1
			}
		}
	}
	return 0
}

// splitAtHeaders cuts a paragraph (a range [lo, hi) of lines) where kubectl output starts inside
// it (a get table header or a describe "Name:" line after other text), so an error line pasted
// above a table does not hide it, and at the seams of artefacts pasted with nothing between them
// (see seams.go): a JSON document at column 0 under a log line, the line after a JSON document's
// balanced end, a YAML document under a log line (yamlAfterLog), a log line stamped at column 0
// under a document's last line. It returns the ranges and, for the ranges that start at such a
// seam or where a document starts right under another (docAfterDoc), true in hard at their first
// line: paragraphs never joins a range across one.
func splitAtHeaders(lines []line, paras [][2]int) (out [][2]int, hard map[int]bool) {
	// out is nil while no paragraph was cut: paras is returned as it is
	for k, p := range paras {
		start := p[0]
		// the paragraph's JSON documents, indexed when one may start in it
		var scan *jsonScan
		validJSONEnd := func(i int) int {
			if !jsonStart(lines[i].text) {
				return -1
			}
			if scan == nil {
				scan = newJSONScan(lines, i, p[1])
			}
			return scan.validEnd(i)
		}
		// jsonEnd is the end of the JSON document that starts the current range, or -1
		jsonEnd, docTries := validJSONEnd(start), 0
		for i := p[0] + 1; i < p[1]; i++ {
			seam := false
			switch {
			case i == jsonEnd && jsonStart(lines[i].text):
				// JSON documents back to back stay together: jsonDocs reads them apart
				jsonEnd = validJSONEnd(i)
			case i == jsonEnd:
				seam = true
			case docAfterDoc(lines, start, i) || yamlAfterLog(lines, i, p[1]):
				seam = true
			case jsonStart(lines[i].text):
				// inside a valid JSON document, a line opening another is part of it (the last
				// record of an array of JSON log records), not a seam
				if i > jsonEnd && jsonAfterLog(lines, i, validJSONEnd) > 0 {
					seam = true
				}
			case logAfterLine(lines, i) && docTries < 4:
				// the parse is bounded per range: a range of text with log lines in it is
				// no document, and is not parsed again for each of them
				docTries++
				seam = docPiece(lines, start, i)
			}
			if seam || reTableHeader.MatchString(lines[i].text) || reDescribeName.MatchString(lines[i].text) || manifestAfterLog(lines, i) || labelsAboveJSON(lines, start, i) {
				if out == nil {
					out = append(make([][2]int, 0, len(paras)+1), paras[:k]...)
				}
				if seam {
					if hard == nil {
						hard = map[int]bool{}
					}
					hard[i] = true
				}
				out = append(out, [2]int{start, i})
				start, jsonEnd, docTries = i, validJSONEnd(i), 0
			}
		}
		if out != nil {
			out = append(out, [2]int{start, p[1]})
		}
	}
	if out == nil {
		return paras, hard
	}
	return out, hard
}

// labelsAboveJSON reports whether lines[i] opens a JSON document at column 0 ("{" or "[" alone
// on its line) right under lines[start:i], a few labels a copy from a web console caught with it
// ("Event record", "Info", "Copy" above a CloudTrail record; "Edit trust policy" above an IAM
// role's trust policy): short lines at column 0 that neither continue a document (no trailing
// ",", "{", "[" or ":", no quoted key) nor are log records. The document is then read on its
// own and the labels as text.
func labelsAboveJSON(lines []line, start, i int) bool {
	if t := lines[i].text; (t != "{" && t != "[") || i-start > maxLabelLines {
		return false
	}
	for _, l := range lines[start:i] {
		t := l.text
		if t == "" || len(t) > 100 || t[0] == ' ' || t[0] == '\t' || strings.ContainsAny(t[len(t)-1:], ",{[:(\\") ||
			strings.Contains(t, `": `) || strongLogLine(t) {
			return false
		}
	}
	return true
}

// maxLabelLines bounds the labels labelsAboveJSON takes above a document.
const maxLabelLines = 8

// docAfterDoc reports whether lines[i] starts another document right under the one that starts
// at lines[start], with no blank line between: files put together with `cat f1 f2 …`. JSON
// closed at column 0 ("}" or "]" alone) cannot go on with a manifest's apiVersion: or kind:, and
// a YAML document cannot go on with "{" or "[" at column 0 (a JSON document's first line).
// JSON documents back to back stay together here; jsonDocs reads them apart when their types
// differ.
func docAfterDoc(lines []line, start, i int) bool {
	prev, cur := lines[i-1].text, lines[i].text
	if (prev == "}" || prev == "]") && (reManifestStart.MatchString(cur) || cur == "---") {
		return true
	}
	return yamlFirst(lines[start].text) && jsonStart(cur)
}

// yamlFirst reports whether a document's first line is a YAML key or list item at column 0
// (not JSON, not a comment).
func yamlFirst(t string) bool {
	return t != "" && !strings.ContainsRune("{[#", rune(t[0])) && reYAMLLineStart.MatchString(t)
}

// jsonStart reports whether a line at column 0 opens a JSON document: "{" or "[" alone, or
// followed by a key, an object or a string. A TOML table ("[settings.kubernetes]") or a kernel
// line ("[    5.1]") is none.
func jsonStart(t string) bool {
	return t == "{" || t == "[" || strings.HasPrefix(t, `{"`) || strings.HasPrefix(t, `[{`) || strings.HasPrefix(t, `["`)
}

// reManifestStart is the first line of a Kubernetes manifest at column 0.
var reManifestStart = regexp.MustCompile(`^(?:apiVersion|kind):\s*\S`)

// manifestAfterLog reports whether lines[i] starts a Kubernetes manifest (apiVersion: or kind:
// at column 0, the other of the two among the next lines) right under a journal, syslog, klog or
// timestamped line: a ConfigMap appended to a log with no blank line between (Add-Content after
// `kubectl … >`) is a document of its own, not more of the log.
func manifestAfterLog(lines []line, i int) bool {
	if i == 0 || !reManifestStart.MatchString(lines[i].text) || !strongLogLine(lines[i-1].text) {
		return false
	}
	other := "kind:"
	if strings.HasPrefix(lines[i].text, "kind:") {
		other = "apiVersion:"
	}
	for j := i + 1; j < min(len(lines), i+8); j++ {
		if strings.HasPrefix(lines[j].text, other) {
			return true
		}
	}
	return false
}

// logOrProse reads a paragraph as log text (a component's messages need no timestamp to be
// recognised: the scanner decides by the lines it knows), unless it is written prose: Markdown
// with inline code, links, emphasis, headings or table rows, as documentation and issue text is.
// It returns the type and detail of the paragraph's segment.
func logOrProse(lines []line) (Type, string) {
	for _, l := range lines {
		if logLine(l.text) {
			return TypeLog, logDetail(lines)
		}
	}
	if tfDiagnosticContext(lines) {
		return TypeLog, "tool error"
	}
	if markdownProse(lines) {
		return TypeProse, ""
	}
	if jsonFragment(lines) {
		return TypeData, "JSON that does not parse"
	}
	if sourceCode(lines) {
		return TypeProse, "source code"
	}
	return TypeLog, "text"
}

// tfDiagnosticContext reports whether a paragraph is the part of a Terraform diagnostic a
// blank line set apart from its summary when it was printed without its box (-no-color, a CI
// log): "with ADDRESS," then "on FILE line N, in …:" and the source excerpt. It is more of the
// tool's error above it (a log paragraph), never source code or prose, so the diagnostic stays
// one record (records).
func tfDiagnosticContext(lines []line) bool {
	if len(lines) < 2 {
		return false
	}
	first, second := tfBody([]byte(lines[0].text)), tfBody([]byte(lines[1].text))
	return reTFDiagWith.Match(first) && reTFDiagOn.Match(second) || reTFDiagOn.Match(first)
}

var (
	reJSONMember = regexp.MustCompile(`^\s*"[^"]+"\s*:\s*\S`)
	reJSONPunct  = regexp.MustCompile(`^\s*(?:[\[\]{}],?\s*)+$|^\s*(?:\.\.\.|…)\s*$`)
)

// jsonFragment reports whether a paragraph is JSON that no parser accepts — output a poster
// elided ("..."), marked up ("<<<---") or cut — rather than program source: most of its lines
// are "key": value members or bare brackets, and at least two are members.
func jsonFragment(lines []line) bool {
	members, shaped, n := 0, 0, 0
	for _, l := range lines {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		n++
		switch {
		case reJSONMember.MatchString(l.text):
			members++
			shaped++
		case reJSONPunct.MatchString(l.text):
			shaped++
		}
	}
	return members >= 2 && shaped*10 >= n*8
}

var reCode = regexp.MustCompile(`^\s*(?:func |package |import |return\b|if .*\{\s*$|for .*\{\s*$|var |const |type |case .*:\s*$|default:|switch |[})\]],?\s*$|//|/\*|\*/|#include|def |class |public |private |fn |let |impl |use )|:= |;\s*$|\{\s*$|\},\s*$`)

// sourceCode reports whether a paragraph is program source (Go, C, Python, Rust, Java …):
// a third of its lines have a statement's or declaration's shape.
func sourceCode(lines []line) bool {
	n := 0
	for _, l := range lines {
		if reCode.MatchString(l.text) {
			n++
		}
	}
	return len(lines) >= 3 && n*3 >= len(lines)
}

var reInlineCode = regexp.MustCompile("(?:^|\\s)`[^`]+`")

var reMarkdown = regexp.MustCompile("\\]\\(|(?:^|[^*])\\*\\*[^*\\s][^*]*[^*\\s]\\*\\*(?:[^*]|$)|^\\s{0,3}#{1,6}\\s|^\\s*\\|.*\\|\\s*$|^\\s*[-*+]\\s+\\*\\*|<(?:p|br|div|details|summary|img|a)[\\s>/]")

// reURLLink is a Markdown link whose text is a URL ("[https://sts.us-east-2.amazonaws.com/
// ](https://sts.us-east-2.amazonaws.com/)"): what an editor makes of a bare URL in pasted machine
// output, not markup a person wrote, so it does not make the text prose.
var reURLLink = regexp.MustCompile(`\[\s*(https?://[^\]\s]*)\s*\]\(https?://[^)\s]*\)`)

// markdownProse reports whether a paragraph carries Markdown or HTML markup (inline code, links,
// bold, headings, table rows, tags): text written for people, which quotes messages rather than
// printing them. Bold is two asterisks hugging a word on each side: a poster's redaction
// ("http://*********/latest", "dial tcp **********") is a longer run and is not markup.
func markdownProse(lines []line) bool {
	for _, l := range lines {
		t := l.text
		if strings.Contains(t, "](") {
			t = reURLLink.ReplaceAllString(t, "$1") // a link needs "]("; replacing copies the line
		}
		if reMarkdown.MatchString(t) {
			return true
		}
	}
	// inline code marks prose only in sentences: Rust and TOML errors quote with backticks too,
	// and their own diagnostics' quoting is not inline code at all
	for _, l := range lines {
		if reInlineCode.MatchString(withoutRustDiagnostics(l.text)) {
			return sentences(joinLines(lines))
		}
	}
	return false
}

// proseLike reports whether a paragraph reads as sentences: no log line, no key: value or list
// structure on most lines.
func proseLike(p []line) bool {
	structuredLines := 0
	for _, l := range p {
		t := l.text
		if logLine(t) || reYAMLish.MatchString(t) || reTOMLLine.MatchString(t) || strings.HasPrefix(t, " ") || strings.HasPrefix(t, "\t") {
			structuredLines++
		}
	}
	return structuredLines*2 < len(p)
}

// reTOMLLine is a TOML table header ("[settings.kubernetes]", "[[settings.x]]") or key/value
// line ("cluster-name = \"prod\"", "\"workload\" = \"batch\"") at column 0: a paragraph of
// Bottlerocket settings after a blank line is the document's next table, not the poster's words.
var reTOMLLine = regexp.MustCompile(`^(?:\[\[?[A-Za-z0-9_"-]+(?:\.[A-Za-z0-9_."-]+)*\]\]?\s*(?:#.*)?$|(?:[A-Za-z0-9_-]+|"[^"]*")(?:\.(?:[A-Za-z0-9_-]+|"[^"]*"))*\s*=\s*\S)`)

// reYAMLish is a line that starts as YAML does: a key or a list item. One "^" outside the
// alternatives lets a line that is neither fail at its start (see rePrompt).
var reYAMLish = regexp.MustCompile(`^(?:\s*(?:- )?[A-Za-z0-9_./"-]+:(?:\s|$)|\s*- )`)

// structuredStart reports whether a paragraph may begin a document: YAML keys, JSON, MIME,
// a script, TOML tables, kubectl describe or table output.
func structuredStart(p []line) bool {
	t := strings.TrimSpace(p[0].text)
	return reYAMLish.MatchString(p[0].text) || strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") || strings.HasPrefix(t, "#!") ||
		strings.HasPrefix(strings.ToLower(t), "mime-version") || strings.HasPrefix(t, "<powershell>") || reTableHeader.MatchString(p[0].text) ||
		strings.HasPrefix(t, "apiVersion") || strings.HasPrefix(t, "Content-Type") ||
		reHCLAttribute.MatchString(p[0].text) || t == "---" || reTFResource.MatchString(p[0].text) || reTFEKSCluster.MatchString(p[0].text) || reTFBlock.MatchString(p[0].text) ||
		strings.HasPrefix(p[0].text, "--") && userdata.PartsFragment(joinLines(p)) // not parts indented in a YAML block
}

// reHCLAttribute is a Terraform attribute assignment ("kubelet_extra_args = \"--node-labels=…\"").
var reHCLAttribute = regexp.MustCompile(`^\s*[a-z_][a-z0-9_]*\s*=\s*\S`)

// Log line shapes: timestamps of journald, syslog, klog, ISO 8601 (CRI, eksctl, bootstrap.sh,
// CloudWatch exports), console boot lines, JSON and logfmt records, and the error lines of the
// AWS CLI, kubectl, Terraform, CloudFormation, CDK and Pulumi.
var logShapes = []struct {
	name string
	re   *regexp.Regexp
}{
	{"journal", regexp.MustCompile(`^\s*(?:[A-Z][a-z]{2} )?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+\d\d:\d\d:\d\d`)},
	{"klog", regexp.MustCompile(`^\s*[IWEF]\d{4}\s+\d\d:\d\d:\d\d`)},
	{"timestamped", regexp.MustCompile(`^\s*(?:<\d+>)?\[?\d{4}[-/]\d\d[-/]\d\d[T ]\d\d:\d\d(?::\d\d)?`)},
	{"console", regexp.MustCompile(`^\s*\[\s*\d+\.\d+\]|^\s*\[\s*(?:OK|FAILED|DEPEND|TIME|\*+)\s*\]|^\s*(?:Starting|Started|Stopped|Stopping|Finished|Reached target|Failed to start|Mounting|Mounted) .{3,}\.{0,3}$`)},
	{"JSON", regexp.MustCompile(`^\s*\{.*"(?:level|lvl|msg|message|ts|time|log|logger|caller|severity)"\s*:`)},
	{"logfmt", regexp.MustCompile(`(?:^|\s)(?:time|ts)="?\d{4}-\d\d-\d\d|(?:^|\s)level=\w+\s.*\bmsg=`)},
	{"syslog", regexp.MustCompile(`^\s*[\w.-]+\[\d+\]:\s|^\s*[\w.-]+\s+[\w.@-]+\[\d+\]:\s`)},
	{"tool error", regexp.MustCompile(`^\s*(?:[│|╷╵]\s*)?(?:Error|Warning|error|ERROR|FATAL|fatal|panic):\s|^\s*An error occurred \(|^\s*Error from server|^\s*(?:Resource handler returned message|Status Reason|StatusReason|Cause|Reason):\s|^\s*(?:CREATE|UPDATE|DELETE|ROLLBACK)_(?:FAILED|IN_PROGRESS|COMPLETE)\b|\s(?:CREATE|UPDATE|DELETE)_FAILED\s|^\s*[✖❌✗]|^\s*\[(?:ℹ|✖|!|✔|▶|eks-bootstrap)\]`)},
	{"level-first", regexp.MustCompile(`^\s*\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|FATAL|CRITICAL)\]?[\s:\]]`)},
	{"cloud-init", regexp.MustCompile(`^\s*(?:Cloud-init v\.|ci-info:|cloud-init\[\d+\]|util\.py\[|\+ /etc/eks/)`)},
	{"time-only", regexp.MustCompile(`^\s*\d\d:\d\d:\d\d(?:[.,]\d+)?\s`)},
	{"kubectl events", regexp.MustCompile(`^\s*(?:\S+\s+)?(?:Normal|Warning)\s+[A-Z][A-Za-z]+\s+\S`)},
}

// strongLogShapes are the log line shapes no configuration document has at column 0: a line
// stamped by journald, syslog or klog, with an ISO 8601 date and time first, or with the kernel's
// printk time (seconds since boot with six decimals: EC2 console output).
var strongLogShapes = func() []*regexp.Regexp {
	out := []*regexp.Regexp{reKernelStamp}
	for _, sh := range logShapes {
		switch sh.name {
		case "journal", "klog", "timestamped", "syslog":
			out = append(out, sh.re)
		}
	}
	return out
}()

// reKernelStamp is the kernel's printk time at the start of a console line ("[    8.914201] ").
var reKernelStamp = regexp.MustCompile(`^\[\s*\d+\.\d{6}\]\s`)

// strongLogLine reports whether a line has one of strongLogShapes.
func strongLogLine(s string) bool {
	for _, re := range strongLogShapes {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// logLine reports whether a line has the shape of a log or tool error line.
func logLine(s string) bool {
	if len(strings.TrimSpace(s)) < 8 {
		return false
	}
	for _, sh := range logShapes {
		if sh.re.MatchString(s) {
			return true
		}
	}
	return false
}

// logDetail names the dominant line shape of a log segment.
func logDetail(lines []line) string {
	count := map[string]int{}
	for _, l := range lines {
		for _, sh := range logShapes {
			if sh.re.MatchString(l.text) {
				count[sh.name]++
				break
			}
		}
	}
	best, n := "text", 0
	for _, sh := range logShapes {
		if count[sh.name] > n {
			best, n = sh.name, count[sh.name]
		}
	}
	return best
}

// withFailedRequest puts the AWS CLI command line in front of the CLI's error line ("An error
// occurred (ParameterNotFound) when calling the GetParameter operation: …") printed under it:
// the error names the operation, and only the command names what it asked for (the SSM
// parameter of an AMI, the role, the cluster). Other output is returned as it is.
func withFailedRequest(lines []line, command string) []line {
	if !strings.HasPrefix(command, "aws ") {
		return lines
	}
	var out []line
	for i, l := range lines {
		if t := strings.TrimSpace(l.text); strings.HasPrefix(strings.TrimPrefix(t, OperatorCLIMark), "An error occurred (") {
			if out == nil {
				out = append([]line(nil), lines...)
			}
			out[i].text = "[" + command + "] " + strings.TrimSpace(l.text)
		}
	}
	if out == nil {
		return lines
	}
	return out
}

// proseKey reports whether a line at column 0 that YAML would read as a key is a sentence: it
// starts with a capital letter and its text before the first ": " — or before the colon that
// ends it ("And here is another node that works fine:") — has six words or more.
func proseKey(t string) bool {
	if t == "" || t[0] < 'A' || t[0] > 'Z' {
		return false
	}
	key, _, found := strings.Cut(t, ": ")
	if !found {
		key, found = strings.CutSuffix(strings.TrimRight(t, " \t\r"), ":")
	}
	return found && len(strings.Fields(key)) >= 6
}

// mostly reports whether at least 80 % of the non-blank lines satisfy is.
func mostly(lines []line, is func(string) bool) bool {
	yes, nonBlank := 0, 0
	for _, l := range lines {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		nonBlank++
		if is(l.text) {
			yes++
		}
	}
	return nonBlank > 0 && yes*10 >= nonBlank*8
}
