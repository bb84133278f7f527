package ingest

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

var (
	reDescribeName = regexp.MustCompile(`^Name:\s+\S`)
	// reCutName is a describe object's Name line whose first characters a selection missed
	// ("ame:               csr-sjvjg"); only the first line of a paste is read so.
	reCutName = regexp.MustCompile(`^(?:ame|me):\s{2,}\S`)
	// reDescribeField is a top-level field of kubectl describe, its value aligned after spaces.
	reDescribeField = regexp.MustCompile(`^[A-Z][A-Za-z ]*:(?:\s{2,}\S|\s*$)`)
	// reTableHeader is the header of kubectl get's table output.
	reTableHeader = regexp.MustCompile(`^(?:NAMESPACE\s{2,})?(?:NAME|LAST SEEN)\s{2,}[A-Z]`)
	// reGetNodes is a kubectl get command listing nodes (not nodeclaims, nodepools or nodeclasses).
	reGetNodes = regexp.MustCompile(`\bget\s+(?:nodes?|no)(?:\s|$)`)
)

// kubectlText reads kubectl's human output: describe (one or more objects) and get tables.
func kubectlText(lines []line, command string) ([]Segment, bool) {
	cmd := strings.ToLower(command)
	if reDescribeName.MatchString(lines[0].text) || reCutName.MatchString(lines[0].text) && describeLike(lines) {
		// what follows a blank line and is no part of describe output (prose, a log, another
		// tool's output pasted under it) is another document, read on its own
		if end := describeEnd(lines); end < len(lines) {
			if rest := trimBlank(lines[end:]); len(rest) > 0 {
				head, _ := kubectlText(trimBlank(lines[:end]), command)
				return append(head, classify(rest, false, "")...), true
			}
		}
		var out []Segment
		start := 0
		for i := 1; i <= len(lines); i++ {
			if i == len(lines) || reDescribeName.MatchString(lines[i].text) {
				obj := trimBlank(lines[start:i])
				out = append(out, describeSegment(obj, cmd))
				start = i
			}
		}
		return out, true
	}
	if reTableHeader.MatchString(lines[0].text) {
		// kubectl get prints no blank line inside a table: what follows one is another document
		// (the next command's output, a log excerpt), read on its own
		for i := 1; i < len(lines); i++ {
			// nor does a table row read as a log line: a journal pasted right under the
			// table is the next document
			if strings.TrimSpace(lines[i].text) == "" || logLine(lines[i].text) {
				if rest := trimBlank(lines[i:]); len(rest) > 0 {
					head, _ := kubectlText(lines[:i], command)
					return append(head, classify(rest, false, "")...), true
				}
				break
			}
		}
		cols := strings.Fields(lines[0].text)
		has := func(c string) bool {
			for _, x := range cols {
				if x == c {
					return true
				}
			}
			return false
		}
		switch {
		case has("READY") && karpenterTable(cmd) == "ec2nodeclass":
			return []Segment{seg(TypeGetNodeClasses, "kubectl get ec2nodeclasses", lines)}, true
		case has("READY") && karpenterTable(cmd) == "nodeclass":
			return []Segment{seg(TypeGetNodeClasses, "kubectl get nodeclasses (EKS Auto Mode)", lines)}, true
		case has("READY") && has("NODE") && (karpenterTable(cmd) == "nodeclaim" || has("CAPACITY") && has("ZONE") && has("TYPE")):
			return []Segment{seg(TypeGetNodeClaims, "kubectl get nodeclaims", lines)}, true
		case has("READY") && has("NODE") && has("ZONE") && has("TYPE") && karpenterTable(cmd) == "machine":
			// Karpenter v0.28–v0.31 Machines have the same columns (CAPACITY only with -o wide);
			// a Cluster API Machine table has none of TYPE, ZONE, READY
			return []Segment{seg(TypeGetNodeClaims, "kubectl get machines (Karpenter v1alpha5, read as NodeClaims)", lines)}, true
		case has("SIGNERNAME") || has("REQUESTOR") || (has("CONDITION") && strings.Contains(cmd, "csr")):
			return []Segment{seg(TypeGetCSR, "kubectl get csr", lines)}, true
		case has("ROLES") && has("VERSION") || k9sNodes(cols) || reGetNodes.MatchString(cmd):
			return []Segment{seg(TypeGetNodes, "kubectl get nodes", lines)}, true
		case has("REASON") && has("MESSAGE") || strings.Contains(lines[0].text, "LAST SEEN"):
			return []Segment{seg(TypeGetEvents, "kubectl get events", lines)}, true
		}
		return []Segment{seg(TypeLog, "kubectl get output", lines)}, true
	}
	if s, ok := conditionsFragment(lines); ok {
		return []Segment{s}, true
	}
	return nil, false
}

// karpenterTable names the Karpenter or Auto Mode resource a kubectl get command lists
// ("ec2nodeclass", "nodeclass", "nodeclaim", or "machine": a v0.28–v0.31 Machine or a Cluster
// API one, which the columns tell apart), "" for any other command. Short names and
// fully qualified names count: ec2nc, nodeclaims.karpenter.sh, nodeclasses.eks.amazonaws.com.
func karpenterTable(cmd string) string {
	f := strings.Fields(cmd)
	for i, w := range f {
		if w != "get" || i+1 >= len(f) {
			continue
		}
		res, _, _ := strings.Cut(f[i+1], ".")
		switch res {
		case "ec2nodeclass", "ec2nodeclasses", "ec2nc", "ec2ncs":
			return "ec2nodeclass"
		case "nodeclass", "nodeclasses":
			return "nodeclass"
		case "nodeclaim", "nodeclaims":
			return "nodeclaim"
		case "machine", "machines":
			return "machine"
		}
	}
	return ""
}

// describeEnd returns the index of the first line after a blank line that cannot belong to
// kubectl describe output (describeContinues), or len(lines).
func describeEnd(lines []line) int {
	blank := false
	for i := 1; i < len(lines); i++ {
		t := lines[i].text
		if strings.TrimSpace(t) == "" {
			blank = true
			continue
		}
		if blank && !describeContinues(t) {
			return i
		}
		blank = false
	}
	return len(lines)
}

// describeContinues reports whether a line after a blank one may still be kubectl describe
// output: indented, a field or section (Name:, Events:, Data, BinaryData), the ----/==== rules
// under them, or a line of a ConfigMap value printed at column 0 (YAML keys and list items,
// JSON, comments, PEM armour, the "[]" and "<none>" of empty values).
func describeContinues(t string) bool {
	// a field name is at most a few words ("Non-terminated Pods:"); a sentence ending in a
	// colon ("And here is another node that works fine:") is not one
	key, _, _ := strings.Cut(t, ":")
	switch {
	case t[0] == ' ' || t[0] == '\t',
		reDescribeName.MatchString(t) || reDescribeField.MatchString(t) && len(strings.Fields(key)) <= 3 || reYAMLish.MatchString(t),
		strings.Trim(t, "-=") == "",
		strings.ContainsRune("-[{\"#<", rune(t[0])):
		return true
	}
	switch strings.TrimSpace(t) {
	case "Data", "BinaryData", "Events:", "null":
		return true
	}
	return false
}

// reNodeCondition is a row of a Node's Conditions table: a pressure condition type, or the
// kubelet's Ready reasons (k8s.io/api/core/v1 NodeConditionType; pkg/kubelet/nodestatus).
var reNodeCondition = regexp.MustCompile(`\n\s+(?:MemoryPressure|DiskPressure|PIDPressure)\s+(?:True|False|Unknown)\s|\sKubelet(?:Ready|NotReady|HasSufficientMemory|HasNoDiskPressure|HasSufficientPID)\s`)

// nodeConditions reports whether a describe's text holds a Node's condition rows.
func nodeConditions(text string) bool { return reNodeCondition.MatchString(text) }

// describeSegment types one kubectl describe object by the command and the fields it shows.
func describeSegment(obj []line, cmd string) Segment {
	text := string(joinLines(obj))
	has := func(field string) bool { return strings.Contains(text, "\n"+field) }
	switch {
	case strings.Contains(cmd, "describe csr") || strings.Contains(cmd, "certificatesigningrequest") || has("Requesting User:") || has("Signer:"):
		return seg(TypeDescribeCSR, "kubectl describe csr", obj)
	case strings.Contains(cmd, "describe nodeclaim") || strings.Contains(text, "Kind:         NodeClaim") || regexp.MustCompile(`\nKind:\s+NodeClaim`).MatchString(text):
		return seg(TypeDescribeNodeClaim, "kubectl describe nodeclaim", obj)
	case regexp.MustCompile(`\nAPI Version:\s+karpenter\.sh/v1alpha5\s*\nKind:\s+Machine\s*\n`).MatchString(text):
		return seg(TypeDescribeNodeClaim, "kubectl describe machine (Karpenter v1alpha5, read as a NodeClaim)", obj)
	case strings.Contains(cmd, "describe node") || strings.Contains(cmd, "describe no ") || has("ProviderID:") || has("Kubelet Version:") || has("Taints:") || has("Unschedulable:") ||
		has("Conditions:") && nodeConditions(text):
		// a describe trimmed to its Name, Labels and Conditions is still a Node's: only a Node
		// has the kubelet's pressure conditions and KubeletReady reasons
		return seg(TypeDescribeNode, "kubectl describe node", obj)
	case strings.Contains(cmd, "describe cm") || strings.Contains(cmd, "describe configmap") || has("Data\n====") || strings.Contains(text, "\nData\n===="):
		t := Segment{}
		if looksAWSAuth([]byte(text)) || strings.HasPrefix(text, "Name:         aws-auth") || regexp.MustCompile(`^Name:\s+aws-auth\b`).MatchString(text) {
			t = seg(TypeAWSAuth, "kubectl describe configmap aws-auth", obj)
		} else {
			t = seg(TypeDescribeConfigMap, "kubectl describe configmap", obj)
		}
		return t
	case regexp.MustCompile(`\nKind:\s+(EC2NodeClass|NodeClass)\n`).MatchString(text) && has("Status:"):
		return seg(TypeDescribeNodeClass, "kubectl describe "+strings.ToLower(describeFields(text)["Kind"]), obj)
	case strings.Contains(cmd, "describe po") || has("Containers:") || has("Controlled By:"):
		return seg(TypeDescribePod, "kubectl describe pod", obj)
	}
	return seg(TypeLog, "kubectl describe output", obj)
}

// describeFields returns the top-level "Key: value" fields of a kubectl describe object.
func describeFields(text string) map[string]string {
	out := map[string]string{}
	for i, l := range strings.Split(text, "\n") {
		if l == "" || l[0] == ' ' || l[0] == '\t' {
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		if i == 0 && reCutName.MatchString(l) {
			k = "Name" // the paste's first characters were lost
		}
		if !ok || strings.Contains(k, " ") && !strings.Contains(k, "User") && !strings.Contains(k, "Version") && !strings.Contains(k, "Requested") {
			continue
		}
		if _, dup := out[k]; !dup {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}

// describeSection returns the indented lines under a top-level section header ("Conditions:").
func describeSection(text, header string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, header):
			in = true
		case in && l != "" && l[0] != ' ' && l[0] != '\t':
			return out
		case in:
			out = append(out, l)
		}
	}
	return out
}

// fieldsTable reads a table whose cells are separated by runs of two or more spaces (kubectl
// get output whose values overflow their columns).
func fieldsTable(lines []string) (header []string, rows [][]string) {
	split := regexp.MustCompile(`\s{2,}`)
	if len(lines) == 0 {
		return nil, nil
	}
	header = split.Split(strings.TrimSpace(lines[0]), -1)
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		rows = append(rows, split.Split(strings.TrimSpace(l), -1))
	}
	return header, rows
}

// rejoinRows puts back together the rows of a kubectl table a narrow terminal wrapped: kubectl
// starts every row (and the header) at the first column, so a line that starts with a space is
// the continuation of the one above (red team round 7, finding 7: `kubectl get nodes -o wide` on
// a phone, every row in three lines, read as a node per line).
func rejoinRows(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if len(out) > 0 && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && strings.TrimSpace(l) != "" {
			out[len(out)-1] += "  " + strings.TrimSpace(l)
			continue
		}
		out = append(out, l)
	}
	return out
}

// k9sNodes reports whether a table's header is k9s's Nodes view (NAME STATUS ROLE TAINTS VERSION
// PODS CPU MEM … AGE): its ROLE cell is empty for nodes without a role label, so its rows are
// read by the header's column positions.
func k9sNodes(cols []string) bool {
	return slices.Contains(cols, "ROLE") && slices.Contains(cols, "TAINTS") && slices.Contains(cols, "VERSION") && slices.Contains(cols, "STATUS")
}

// describedNodes reads Nodes from kubectl describe node or kubectl get nodes output.
func describedNodes(s *Segment) []evidence.Node {
	text := string(s.Text)
	if s.Type == TypeGetNodes {
		table := fieldsTable
		if k9sNodes(strings.Fields(strings.SplitN(strings.TrimSpace(text), "\n", 2)[0])) {
			table = k9sTable
		}
		header, rows := table(rejoinRows(strings.Split(strings.TrimSpace(text), "\n")))
		readyCol := customColumnNames(header, s.command)
		var out []evidence.Node
		at := map[string]int{}
		for _, r := range rows {
			st := column(header, r, "STATUS")
			if readyCol != "" && st == "" {
				// -o custom-columns with the Ready condition's status: True, False or Unknown
				switch column(header, r, readyCol) {
				case "True":
					st = "Ready"
				case "False":
					st = "NotReady"
				case "Unknown", "<none>":
					st = "Unknown"
				}
			}
			n := evidence.Node{Name: column(header, r, "NAME"), KubeletVersion: column(header, r, "VERSION"), ProviderID: column(header, r, "PROVIDER-ID"),
				Ready: strings.HasPrefix(st, "Ready"), OS: osOfImage(column(header, r, "OS-IMAGE")), Age: kubectlAge(column(header, r, "AGE")),
				// kubectl prints Unknown for a Node without a Ready condition: its kubelet never
				// reported on it (evidence.Node.Unregistered)
				Unregistered: strings.HasPrefix(st, "Unknown"),
				// -o custom-columns without a STATUS or Ready condition column: readiness unknown
				ReadyUnknown: readyCol == "" && !slices.Contains(header, "STATUS")}
			if n.Name == "" {
				continue
			}
			if i, seen := at[n.Name]; seen {
				out[i] = n // kubectl get nodes -w: a later row is the node's newer state
				continue
			}
			at[n.Name] = len(out)
			out = append(out, n)
		}
		return out
	}
	f := describeFields(text)
	n := evidence.Node{Name: f["Name"], ProviderID: f["ProviderID"], KubeletVersion: f["Kubelet Version"], Labels: map[string]string{}}
	for _, l := range append([]string{f["Labels"]}, describeSection(text, "Labels:")...) {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), "="); ok {
			n.Labels[k] = v
		}
	}
	n.OS = n.Labels["kubernetes.io/os"]
	if n.OS == "" {
		n.OS = strings.ToLower(f["Operating System"])
	}
	for _, l := range describeSection(text, "Conditions:") {
		fs := strings.Fields(l)
		switch {
		case len(fs) >= 2 && fs[0] == "Ready":
			n.Ready = fs[1] == "True"
		case len(fs) >= 2 && strings.HasSuffix(fs[0], "Pressure") && fs[1] == "True":
			n.Pressure = append(n.Pressure, fs[0])
		}
	}
	if n.Name == "" {
		return nil
	}
	return []evidence.Node{n}
}

func osOfImage(img string) string {
	if strings.Contains(strings.ToLower(img), "windows") {
		return "windows"
	}
	if img == "" {
		return ""
	}
	return "linux"
}

// describedCSRs reads CertificateSigningRequests from kubectl describe csr or kubectl get csr.
func describedCSRs(s *Segment) []evidence.CSR {
	text := string(s.Text)
	if s.Type == TypeGetCSR {
		header, rows := fieldsTable(strings.Split(strings.TrimSpace(text), "\n"))
		var out []evidence.CSR
		for _, r := range rows {
			c := evidence.CSR{Name: column(header, r, "NAME"), SignerName: column(header, r, "SIGNERNAME"), Username: column(header, r, "REQUESTOR")}
			c.State = csrState(column(header, r, "CONDITION"))
			c.Age = kubectlAge(column(header, r, "AGE"))
			if c.Name != "" {
				out = append(out, c)
			}
		}
		return out
	}
	f := describeFields(text)
	c := evidence.CSR{Name: f["Name"], SignerName: f["Signer"], Username: f["Requesting User"], State: csrState(f["Status"])}
	if sub := f["Subject"]; sub == "" {
		for _, l := range describeSection(text, "Subject:") {
			if k, v, ok := strings.Cut(strings.TrimSpace(l), ":"); ok && strings.TrimSpace(k) == "Common Name" {
				c.CommonName = strings.TrimSpace(v)
			}
		}
	}
	if c.Name == "" {
		return nil
	}
	return []evidence.CSR{c}
}

// csrState turns kubectl's condition column ("Approved,Issued", "Pending", "Denied") into a state.
func csrState(cond string) string {
	switch {
	case strings.Contains(cond, "Denied"):
		return "Denied"
	case strings.Contains(cond, "Failed"):
		return "Failed"
	case strings.Contains(cond, "Approved"):
		return "Approved"
	case strings.Contains(cond, "Pending"), cond == "":
		return "Pending"
	}
	return cond
}

// alignedTable reads kubectl get's table by the header's column positions, so an empty cell (a
// NodeClaim with no node yet) stays empty instead of shifting the cells after it. A row whose
// text crosses a column boundary (the paste lost the alignment) is read by runs of two or more
// spaces when it has one cell per column, and dropped otherwise.
func alignedTable(lines []string) (header []string, rows [][]string) {
	if len(lines) == 0 {
		return nil, nil
	}
	head := lines[0]
	var starts []int
	for i := 0; i < len(head); i++ {
		if head[i] != ' ' && (i == 0 || head[i-1] == ' ') {
			starts = append(starts, i)
		}
	}
	header = strings.Fields(head)
	if len(header) != len(starts) {
		return fieldsTable(lines) // a header with one-space names: no positions to trust
	}
	split := regexp.MustCompile(`\s{2,}`)
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		row, aligned := make([]string, len(starts)), true
		for i, st := range starts {
			if st > 0 && st <= len(l) && l[st-1] != ' ' {
				aligned = false
				break
			}
			end := len(l)
			if i+1 < len(starts) && starts[i+1] < end {
				end = starts[i+1]
			}
			if st < end {
				row[i] = strings.TrimSpace(l[st:end])
			}
		}
		if !aligned {
			row = split.Split(strings.TrimSpace(l), -1)
			if len(row) != len(header) {
				continue
			}
		}
		rows = append(rows, row)
	}
	return header, rows
}

// k9sTable reads a k9s resource table by the header's column positions: k9s left-aligns text
// and right-aligns numbers, so a number may start a little before its column's name ("3420"
// under "CPU"). Each word of a row belongs to the last column that starts before the word ends;
// words of one column are joined by a space, and a column no word falls in is empty (a node
// without a role). Column positions count bytes: the header's sort arrow is a space by then
// (unk9s), and rows are ASCII past the name.
func k9sTable(lines []string) (header []string, rows [][]string) {
	if len(lines) == 0 {
		return nil, nil
	}
	word := regexp.MustCompile(`\S+`)
	var starts []int
	for _, m := range word.FindAllStringIndex(lines[0], -1) {
		starts = append(starts, m[0])
		header = append(header, lines[0][m[0]:m[1]])
	}
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		row := make([]string, len(starts))
		for _, m := range word.FindAllStringIndex(l, -1) {
			col := 0
			for i, st := range starts {
				if st < m[1] {
					col = i
				}
			}
			row[col] = strings.TrimSpace(row[col] + " " + l[m[0]:m[1]])
		}
		rows = append(rows, row)
	}
	return header, rows
}

// column returns the value of the named column in row, "" when absent.
// customColumnPaths are the Node fields a `kubectl get nodes -o custom-columns=…` column may
// show, by JSONPath, and the default column of kubectl get nodes -o wide that holds them.
var customColumnPaths = map[string]string{
	".metadata.name": "NAME", ".status.nodeInfo.kubeletVersion": "VERSION", ".status.nodeInfo.osImage": "OS-IMAGE",
	".metadata.creationTimestamp": "CREATED", ".spec.providerID": "PROVIDER-ID",
}

// customColumnNames renames, in header, the columns of a `-o custom-columns=NAME:PATH,…` command
// whose JSONPath is a Node field of customColumnPaths to kubectl's default name for it, and
// returns the header of the column showing the Ready condition's status
// (.status.conditions[?(@.type=="Ready")].status), "" when there is none.
func customColumnNames(header []string, command string) string {
	spec := ""
	for _, f := range strings.Fields(command) {
		switch {
		case strings.HasPrefix(f, "custom-columns="):
			spec = strings.TrimPrefix(f, "custom-columns=")
		case strings.HasPrefix(f, "-ocustom-columns="), strings.HasPrefix(f, "--output=custom-columns="):
			spec = f[strings.Index(f, "custom-columns=")+len("custom-columns="):]
		}
	}
	spec = strings.Trim(spec, `'"`)
	if spec == "" {
		return ""
	}
	ready := ""
	for _, col := range strings.Split(spec, ",") {
		name, path, ok := strings.Cut(col, ":")
		if !ok {
			continue
		}
		path = strings.ReplaceAll(strings.ReplaceAll(path, "'", `"`), " ", "")
		for i, h := range header {
			if h != name {
				continue
			}
			if canon, known := customColumnPaths[path]; known && name != canon {
				header[i] = canon
			}
			if strings.HasPrefix(path, `.status.conditions[?(@.type=="Ready")].status`) {
				ready = name
			}
		}
	}
	return ready
}

func column(header, row []string, name string) string {
	for i, h := range header {
		if h == name && i < len(row) {
			return row[i]
		}
	}
	return ""
}

var reAgePart = regexp.MustCompile(`(\d+)([ydhms])`)

// kubectlAge reads kubectl's AGE column ("4m42s", "3h", "2d5h"); 0 when it does not parse.
func kubectlAge(s string) time.Duration {
	var d time.Duration
	// kubectl's ages (k8s.io/apimachinery/pkg/util/duration HumanDuration) go up to years: "4y", "2y30d"
	unit := map[string]time.Duration{"y": 365 * 24 * time.Hour, "d": 24 * time.Hour, "h": time.Hour, "m": time.Minute, "s": time.Second}
	for _, m := range reAgePart.FindAllStringSubmatch(s, -1) {
		n, _ := strconv.Atoi(m[1])
		d += time.Duration(n) * unit[m[2]]
	}
	return d
}

// tabledNodeClasses reads kubectl get ec2nodeclasses (or Auto Mode nodeclasses): each row is a
// node class known only by its name and READY column, so it is StatusOnly and its Ready
// condition has no reason or message.
func tabledNodeClasses(s *Segment) []evidence.NodeClass {
	header, rows := fieldsTable(strings.Split(strings.TrimSpace(string(s.Text)), "\n"))
	auto := strings.Contains(s.Detail, "Auto Mode")
	var out []evidence.NodeClass
	for _, r := range rows {
		name, ready := column(header, r, "NAME"), column(header, r, "READY")
		if name == "" || !validConditionStatus(ready) {
			continue
		}
		out = append(out, evidence.NodeClass{Name: name, AutoMode: auto, StatusOnly: true,
			Role:       column(header, r, "ROLE"),
			Conditions: []evidence.Condition{{Type: "Ready", Status: ready}}})
	}
	return out
}

// tabledNodeClaims reads kubectl get nodeclaims: every column the karpenter.sh NodeClaim CRD
// prints (kubernetes-sigs/karpenter pkg/apis/crds/karpenter.sh_nodeclaims.yaml,
// additionalPrinterColumns: NAME TYPE CAPACITY ZONE NODE READY AGE; -o wide from v1.0 ID
// (.status.providerID), NODEPOOL, NODECLASS (.spec.nodeClassRef.name), from v1.3 IMAGEID
// (.status.imageID), from v1.7 DRIFTED (the Drifted condition's status); v0.32–v0.37's v1beta1
// has CAPACITY, NODEPOOL and NODECLASS under -o wide only). NODECLASS names the class alone: its
// kind and group stay unknown. A column not printed leaves its field unknown. kubectl get
// machines of Karpenter v0.28–v0.31 has the same columns (-o wide: CAPACITY, PROVISIONER,
// TEMPLATE); TEMPLATE, the machine's AWSNodeTemplate, is no node class and is not read.
//
// The conditions are what the row shows: READY is the Ready condition; a row with an instance
// type or a provider ID has launched; one with a node has registered. A launched claim with no
// node has Registered Unknown: the table prints no creation time, so its AGE is kept
// (ListedAge) for the registration check to judge it against Karpenter's registration timeout.
// A claim not launched has no Launched condition (the table does not say why, nor whether it
// failed), but is kept: its node pool and class tie it to the rest of the input.
func tabledNodeClaims(s *Segment) []evidence.NodeClaim {
	header, rows := alignedTable(strings.Split(strings.TrimRight(string(s.Text), "\n"), "\n"))
	var out []evidence.NodeClaim
	for _, r := range rows {
		cell := func(name string) string {
			if v := column(header, r, name); v != "<none>" {
				return v
			}
			return ""
		}
		c := evidence.NodeClaim{Name: cell("NAME"), NodePool: cell("NODEPOOL"), NodeName: cell("NODE"),
			ProviderID: cell("ID"), ImageID: cell("IMAGEID"), ListedAge: kubectlAge(cell("AGE"))}
		if cls := cell("NODECLASS"); cls != "" {
			c.NodeClassRef = evidence.NodeClassRef{Name: cls}
		}
		if c.NodePool == "" {
			c.NodePool = cell("PROVISIONER") // a v1alpha5 Machine's -o wide
		}
		ready := cell("READY")
		if c.Name == "" || !validConditionStatus(ready) {
			continue
		}
		launched := cell("TYPE") != "" || c.ProviderID != ""
		switch {
		case c.NodeName != "" && launched:
			c.Conditions = []evidence.Condition{{Type: "Launched", Status: "True"}, {Type: "Registered", Status: "True"}}
			if ready == "True" {
				// READY is the NodeClaim's root condition, True only once Launched, Registered
				// and Initialized all are (karpenter.sh/v1 NodeClaim status)
				c.Conditions = append(c.Conditions, evidence.Condition{Type: "Initialized", Status: "True"})
			}
		case launched:
			c.Conditions = []evidence.Condition{{Type: "Launched", Status: "True"},
				{Type: "Registered", Status: "Unknown", Message: "no node after " + cell("AGE")}}
		}
		c.Conditions = append(c.Conditions, evidence.Condition{Type: "Ready", Status: ready})
		if d := cell("DRIFTED"); validConditionStatus(d) {
			c.Conditions = append(c.Conditions, evidence.Condition{Type: "Drifted", Status: d})
		}
		out = append(out, c)
	}
	return out
}

// validConditionStatus reports whether s is a Kubernetes condition status.
func validConditionStatus(s string) bool { return s == "True" || s == "False" || s == "Unknown" }

// describedNodeClass reads kubectl describe ec2nodeclass (or an Auto Mode nodeclass): its
// conditions (describedConditions), and spec.role and spec.instanceProfile. The rest of the spec
// is not read: the class is StatusOnly. The result is empty when the output shows no name (a
// conditions-only fragment is named unnamed) or nothing it reads.
func describedNodeClass(s *Segment) []evidence.NodeClass {
	text := string(s.Text)
	f := describeFields(text)
	nc := evidence.NodeClass{Name: f["Name"], AutoMode: f["Kind"] == "NodeClass", StatusOnly: true}
	// spec.role and spec.instanceProfile are shown verbatim (one line each, at the spec's
	// first level); the selectors' nesting is not read back
	specIndent := -1
	for _, l := range describeSection(text, "Spec:") {
		trim := strings.TrimLeft(l, " ")
		if trim == "" {
			continue
		}
		if depth := len(l) - len(trim); specIndent < 0 {
			specIndent = depth
		} else if depth != specIndent {
			continue
		}
		k, v, _ := strings.Cut(trim, ":")
		switch strings.TrimSpace(k) {
		case "Role":
			nc.Role = strings.TrimSpace(v)
		case "Instance Profile":
			nc.InstanceProfile = strings.TrimSpace(v)
		}
	}
	nc.Conditions = describedConditions(text)
	if nc.Name == "" && s.Detail == conditionsOnlyDetail(nc.AutoMode, "ec2nodeclass") {
		nc.Name = unnamed
	}
	if nc.Name == "" || len(nc.Conditions) == 0 && nc.Role == "" && nc.InstanceProfile == "" {
		return nil
	}
	return []evidence.NodeClass{nc}
}

// unnamed names an object whose kubectl describe output was pasted without its Name line.
const unnamed = "(name not shown)"

// reUnhealthyDependent is one "Type=Status" of the message a Ready condition with reason
// UnhealthyDependents gives: the conditions Ready depends on that are not True, in
// operatorpkg's status.ConditionSet wording ("Registered=False", "Launched=True, Registered=Unknown").
var reUnhealthyDependent = regexp.MustCompile(`\b([A-Z][A-Za-z]+)=(True|False|Unknown)\b`)

// describedConditions reads the status conditions kubectl describe prints under "Conditions:"
// (or, in a fragment pasted without it, from the first line). kubectl prints a list of maps as
// the maps' fields one after another, so a condition ends where a field repeats. A condition
// whose reason is UnhealthyDependents also gives the dependents its message names, unless they
// are listed themselves; a block cut before its Type still gives them.
func describedConditions(text string) []evidence.Condition {
	lines := strings.Split(text, "\n")
	from := 0
	for i, l := range lines {
		if strings.TrimSpace(l) == "Conditions:" {
			from = i + 1
			break
		}
	}
	var out, deps []evidence.Condition
	var cur map[string]string
	flush := func() {
		if cur["Reason"] == "UnhealthyDependents" {
			for _, m := range reUnhealthyDependent.FindAllStringSubmatch(cur["Message"], -1) {
				deps = append(deps, evidence.Condition{Type: m[1], Status: m[2], Reason: "UnhealthyDependents", Message: "named by the Ready condition: " + cur["Message"]})
			}
		}
		if cur["Type"] != "" && validConditionStatus(cur["Status"]) {
			c := evidence.Condition{Type: cur["Type"], Status: cur["Status"], Reason: cur["Reason"], Message: cur["Message"]}
			c.LastTransition, _ = time.Parse(time.RFC3339, cur["Last Transition Time"])
			out = append(out, c)
		}
		cur = map[string]string{}
	}
	cur = map[string]string{}
	indent := -1
	for _, l := range lines[from:] {
		trim := strings.TrimLeft(l, " ")
		if trim == "" {
			continue
		}
		depth := len(l) - len(trim)
		k, v, ok := strings.Cut(trim, ":")
		if indent < 0 {
			indent = depth
		}
		if depth < indent || !ok {
			break
		}
		if depth > indent {
			continue // a wrapped message or nested field
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !conditionKeys[k] {
			break
		}
		if _, seen := cur[k]; seen {
			flush()
		}
		cur[k] = v
	}
	flush()
	for _, d := range deps {
		if _, listed := findCondition(out, d.Type); !listed {
			out = append(out, d)
		}
	}
	return out
}

// findCondition returns the condition of type t in cs.
func findCondition(cs []evidence.Condition, t string) (evidence.Condition, bool) {
	for _, c := range cs {
		if c.Type == t {
			return c, true
		}
	}
	return evidence.Condition{}, false
}

// conditionKeys are the fields kubectl describe prints for one status condition.
var conditionKeys = map[string]bool{"Last Transition Time": true, "Last Heartbeat Time": true, "Last Probe Time": true,
	"Message": true, "Observed Generation": true, "Reason": true, "Severity": true, "Status": true, "Type": true}

// nodeClaimConditions and nodeClassConditions are condition types only a Karpenter NodeClaim,
// or only an EC2NodeClass (or Auto Mode NodeClass), has (karpenter.sh/v1 NodeClaim status,
// karpenter.k8s.aws/v1 EC2NodeClass status).
var (
	nodeClaimConditions   = map[string]bool{"Launched": true, "Registered": true, "Initialized": true, "ConsistentStateFound": true, "Drifted": true, "Consolidatable": true, "MachineLaunched": true, "MachineRegistered": true, "MachineInitialized": true}
	nodeClassConditions   = map[string]bool{"InstanceProfileReady": true, "AMIsReady": true, "SubnetsReady": true, "SecurityGroupsReady": true, "ValidationSucceeded": true, "CapacityReservationsReady": true}
	reConditionKeyLine    = regexp.MustCompile(`^(\s*)([A-Z][A-Za-z ]*):(?:\s|$)`)
	reConditionTypeAnyKey = regexp.MustCompile(`^\s*Type:\s+(\S+)`)
	// reNodePoolLabel is the karpenter.sh/nodepool label among describe's Labels lines.
	reNodePoolLabel = regexp.MustCompile(`(?m)^(?:Labels:)?\s+karpenter\.sh/nodepool=(\S+)`)
)

// conditionsOnlyDetail is the detail of a conditions fragment of kind ("nodeclaim",
// "ec2nodeclass", or the Auto Mode "nodeclass").
func conditionsOnlyDetail(autoMode bool, kind string) string {
	if autoMode {
		kind = "nodeclass"
	}
	return "kubectl describe " + kind + " (its status conditions only)"
}

// conditionsFragment reads the status conditions of a kubectl describe cut out of its object
// (a "Conditions:" block, or its fields alone): at least two conditions' worth of condition
// fields, nothing else at their indentation. A NodeClaim's or an EC2NodeClass's condition types
// say whose they are; others are scanned as lines.
func conditionsFragment(lines []line) (Segment, bool) {
	keys, other, types := 0, 0, map[string]bool{}
	hasType, hasStatus := false, false
	indent := -1
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if t == "" || keys+other == 0 && indent < 0 && (t == "Conditions:" || t == "Status:") {
			continue // the block's headers: "Conditions:", or "Status:" then "Conditions:"
		}
		m := reConditionKeyLine.FindStringSubmatch(l.text)
		if m == nil {
			if indent >= 0 && len(l.text)-len(strings.TrimLeft(l.text, " ")) > indent {
				continue // a wrapped message
			}
			other++
			continue
		}
		if indent < 0 {
			indent = len(m[1])
		}
		if len(m[1]) > indent {
			continue
		}
		if !conditionKeys[m[2]] || len(m[1]) < indent {
			other++
			continue
		}
		keys++
		hasType = hasType || m[2] == "Type"
		hasStatus = hasStatus || m[2] == "Status"
		if tm := reConditionTypeAnyKey.FindStringSubmatch(l.text); tm != nil {
			types[tm[1]] = true
		}
	}
	if keys < 5 || !hasType || !hasStatus || other*4 > keys {
		return Segment{}, false
	}
	claim, class := false, false
	for t := range types {
		claim = claim || nodeClaimConditions[t]
		class = class || nodeClassConditions[t]
	}
	switch {
	case claim && !class:
		return seg(TypeDescribeNodeClaim, conditionsOnlyDetail(false, "nodeclaim"), lines), true
	case class && !claim:
		return seg(TypeDescribeNodeClass, conditionsOnlyDetail(false, "ec2nodeclass"), lines), true
	}
	return seg(TypeLog, "kubectl describe status conditions", lines), true
}

// describedNodeClaim reads kubectl describe nodeclaim: its name, conditions, provider ID, node
// name and node class. A claim is given only with a verdict the output itself shows (Launched
// False, or Registered True or False): kubectl describe prints no "now", so a claim still
// waiting for its node cannot be told from one past Karpenter's registration timeout.
func describedNodeClaim(s *Segment) []evidence.NodeClaim {
	text := string(s.Text)
	f := describeFields(text)
	c := evidence.NodeClaim{Name: f["Name"], Conditions: describedConditions(text)}
	for i := range c.Conditions {
		c.Conditions[i].Type = evidence.NodeClaimConditionType(c.Conditions[i].Type)
	}
	if c.Name == "" && s.Detail == conditionsOnlyDetail(false, "nodeclaim") {
		c.Name = unnamed
	}
	for _, l := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok {
			continue
		}
		switch v = strings.TrimSpace(v); strings.TrimSpace(k) {
		case "Provider ID":
			c.ProviderID = v
		case "Node Name":
			c.NodeName = v
		case "Image ID":
			c.ImageID = v
		case "Creation Timestamp":
			c.Created, _ = time.Parse(time.RFC3339, v)
		}
	}
	if m := reNodePoolLabel.FindStringSubmatch(text); m != nil {
		c.NodePool = m[1]
	}
	launched, _ := findCondition(c.Conditions, "Launched")
	registered, _ := findCondition(c.Conditions, "Registered")
	if c.Name == "" || launched.Status != "False" && registered.Status != "True" && registered.Status != "False" {
		return nil
	}
	return []evidence.NodeClaim{c}
}

// describeLike reports whether lines read as one kubectl describe object after its first line:
// at least three more top-level fields with aligned values, among them one describe prints for
// every object (Labels, Annotations, CreationTimestamp, Events).
func describeLike(lines []line) bool {
	n, common := 0, false
	for _, l := range lines[1:] {
		if reDescribeField.MatchString(l.text) {
			n++
			k, _, _ := strings.Cut(l.text, ":")
			common = common || k == "Labels" || k == "Annotations" || k == "CreationTimestamp" || k == "Events"
		}
	}
	return n >= 3 && common
}

var (
	// reVersionLine is a line of `kubectl version`: "Server Version: v1.31.13-eks-5e7f0a1",
	// the --short form, or the version.Info{…} struct older clients print; and the warning a
	// client outside the supported skew adds.
	reVersionLine = regexp.MustCompile(`^(?:(Client|Kustomize|Server) Version: (\S.*)|WARNING: version difference between client .*)$`)
	// reGitVersion is the GitVersion field of an old client's version.Info{…}.
	reGitVersion = regexp.MustCompile(`GitVersion:"(v[0-9][^"]*)"`)
)

// kubectlVersion reads `kubectl version` text: every line one of its own, one of them the
// server's. The segment's value is the server's gitVersion.
func kubectlVersion(lines []line) (Segment, bool) {
	server := ""
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		m := reVersionLine.FindStringSubmatch(t)
		if m == nil {
			return Segment{}, false
		}
		if m[1] == "Server" {
			server = strings.TrimSpace(m[2])
			if g := reGitVersion.FindStringSubmatch(server); g != nil {
				server = g[1]
			}
		}
	}
	if !strings.HasPrefix(server, "v") || minorOf(server) == "" {
		return Segment{}, false
	}
	s := seg(TypeServerVersion, "kubectl version", lines)
	s.value = server
	return s, true
}

// minorOf returns "MAJOR.MINOR" of a Kubernetes gitVersion ("v1.31.13-eks-5e7f0a1" → "1.31"),
// "" when it has none.
func minorOf(gitVersion string) string {
	f := strings.SplitN(strings.TrimPrefix(gitVersion, "v"), ".", 3)
	if len(f) < 2 {
		return ""
	}
	for _, p := range f[:2] {
		if _, err := strconv.Atoi(p); err != nil {
			return ""
		}
	}
	return f[0] + "." + f[1]
}
