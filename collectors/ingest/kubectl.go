package ingest

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

var (
	reDescribeName = regexp.MustCompile(`^Name:\s+\S`)
	// reTableHeader is the header of kubectl get's table output.
	reTableHeader = regexp.MustCompile(`^(?:NAMESPACE\s{2,})?(?:NAME|LAST SEEN)\s{2,}[A-Z]`)
	// reGetNodes is a kubectl get command listing nodes (not nodeclaims, nodepools or nodeclasses).
	reGetNodes = regexp.MustCompile(`\bget\s+(?:nodes?|no)(?:\s|$)`)
)

// kubectlText reads kubectl's human output: describe (one or more objects) and get tables.
func kubectlText(lines []line, command string) ([]Segment, bool) {
	cmd := strings.ToLower(command)
	if reDescribeName.MatchString(lines[0].text) {
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
		case has("SIGNERNAME") || has("REQUESTOR") || (has("CONDITION") && strings.Contains(cmd, "csr")):
			return []Segment{seg(TypeGetCSR, "kubectl get csr", lines)}, true
		case has("ROLES") && has("VERSION") || reGetNodes.MatchString(cmd):
			return []Segment{seg(TypeGetNodes, "kubectl get nodes", lines)}, true
		case has("REASON") && has("MESSAGE") || strings.Contains(lines[0].text, "LAST SEEN"):
			return []Segment{seg(TypeGetEvents, "kubectl get events", lines)}, true
		}
		return []Segment{seg(TypeLog, "kubectl get output", lines)}, true
	}
	return nil, false
}

// karpenterTable names the Karpenter or Auto Mode resource a kubectl get command lists
// ("ec2nodeclass", "nodeclass", "nodeclaim"), "" for any other command. Short names and
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
		}
	}
	return ""
}

// describeSegment types one kubectl describe object by the command and the fields it shows.
func describeSegment(obj []line, cmd string) Segment {
	text := string(joinLines(obj))
	has := func(field string) bool { return strings.Contains(text, "\n"+field) }
	switch {
	case strings.Contains(cmd, "describe csr") || strings.Contains(cmd, "certificatesigningrequest") || has("Requesting User:") || has("Signer:"):
		return seg(TypeDescribeCSR, "kubectl describe csr", obj)
	case strings.Contains(cmd, "describe nodeclaim") || strings.Contains(text, "Kind:         NodeClaim") || regexp.MustCompile(`\nKind:\s+NodeClaim`).MatchString(text):
		return seg(TypeDescribeNodeClaim, "kubectl describe nodeclaim", obj)
	case strings.Contains(cmd, "describe node") || strings.Contains(cmd, "describe no ") || has("ProviderID:") || has("Kubelet Version:") || has("Taints:") || has("Unschedulable:"):
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
	for _, l := range strings.Split(text, "\n") {
		if l == "" || l[0] == ' ' || l[0] == '\t' {
			continue
		}
		k, v, ok := strings.Cut(l, ":")
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

// describedNodes reads Nodes from kubectl describe node or kubectl get nodes output.
func describedNodes(s *Segment) []evidence.Node {
	text := string(s.Text)
	if s.Type == TypeGetNodes {
		header, rows := fieldsTable(strings.Split(strings.TrimSpace(text), "\n"))
		var out []evidence.Node
		for _, r := range rows {
			st := column(header, r, "STATUS")
			n := evidence.Node{Name: column(header, r, "NAME"), KubeletVersion: column(header, r, "VERSION"),
				Ready: strings.HasPrefix(st, "Ready"), OS: osOfImage(column(header, r, "OS-IMAGE"))}
			if n.Name != "" {
				out = append(out, n)
			}
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
		if len(fs) >= 2 && fs[0] == "Ready" {
			n.Ready = fs[1] == "True"
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

// column returns the value of the named column in row, "" when absent.
func column(header, row []string, name string) string {
	for i, h := range header {
		if h == name && i < len(row) {
			return row[i]
		}
	}
	return ""
}

var reAgePart = regexp.MustCompile(`(\d+)([dhms])`)

// kubectlAge reads kubectl's AGE column ("4m42s", "3h", "2d5h"); 0 when it does not parse.
func kubectlAge(s string) time.Duration {
	var d time.Duration
	unit := map[string]time.Duration{"d": 24 * time.Hour, "h": time.Hour, "m": time.Minute, "s": time.Second}
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

// registrationTTL is how long Karpenter waits for a launched NodeClaim's node to register
// before it deletes the claim (karpenter's registration TTL, 15 minutes:
// kubernetes-sigs/karpenter pkg/controllers/nodeclaim/lifecycle/liveness.go). A younger claim
// without a node is still booting.
const registrationTTL = 15 * time.Minute

// tabledNodeClaims reads kubectl get nodeclaims (NAME TYPE CAPACITY ZONE NODE READY AGE, with
// -o wide also ID, NODEPOOL, NODECLASS). A row with an instance type has launched; one with a
// node has registered. A claim younger than the registration TTL with no node is left out: it
// is still booting, and nothing in the row says otherwise.
func tabledNodeClaims(s *Segment) []evidence.NodeClaim {
	header, rows := alignedTable(strings.Split(strings.TrimRight(string(s.Text), "\n"), "\n"))
	var out []evidence.NodeClaim
	for _, r := range rows {
		c := evidence.NodeClaim{Name: column(header, r, "NAME"), NodePool: column(header, r, "NODEPOOL"),
			NodeName: column(header, r, "NODE"), ProviderID: column(header, r, "ID")}
		if cls := column(header, r, "NODECLASS"); cls != "" {
			c.NodeClassRef = evidence.NodeClassRef{Name: cls}
		}
		ready, age := column(header, r, "READY"), kubectlAge(column(header, r, "AGE"))
		if c.Name == "" || !validConditionStatus(ready) {
			continue
		}
		launched := column(header, r, "TYPE") != "" || c.ProviderID != ""
		switch {
		case c.NodeName != "" && launched:
			c.Conditions = []evidence.Condition{{Type: "Launched", Status: "True"},
				{Type: "Registered", Status: "True"}, {Type: "Ready", Status: ready}}
		case age < registrationTTL:
			continue
		case launched:
			c.Conditions = []evidence.Condition{{Type: "Launched", Status: "True"},
				{Type: "Registered", Status: "Unknown", Message: "no node after " + column(header, r, "AGE")}}
		default:
			continue // not launched: the table does not say why, nor whether it failed
		}
		out = append(out, c)
	}
	return out
}

// validConditionStatus reports whether s is a Kubernetes condition status.
func validConditionStatus(s string) bool { return s == "True" || s == "False" || s == "Unknown" }

// describedNodeClass reads the conditions of kubectl describe ec2nodeclass (or an Auto Mode
// nodeclass). kubectl prints a list of maps as the maps' fields one after another, so a
// condition ends where a field repeats. The spec is not read: the class is StatusOnly. The
// result is empty when the output shows no name or no condition.
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
	var cur map[string]string
	flush := func() {
		if cur["Type"] != "" && validConditionStatus(cur["Status"]) {
			c := evidence.Condition{Type: cur["Type"], Status: cur["Status"], Reason: cur["Reason"], Message: cur["Message"]}
			c.LastTransition, _ = time.Parse(time.RFC3339, cur["Last Transition Time"])
			nc.Conditions = append(nc.Conditions, c)
		}
		cur = map[string]string{}
	}
	in := false
	indent := -1
	for _, l := range describeSection(text, "Status:") {
		trim := strings.TrimLeft(l, " ")
		depth := len(l) - len(trim)
		if strings.HasPrefix(trim, "Conditions:") {
			in, indent, cur = true, -1, map[string]string{}
			continue
		}
		if !in {
			continue
		}
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
		if _, seen := cur[k]; seen {
			flush()
		}
		cur[k] = v
	}
	if in {
		flush()
	}
	if nc.Name == "" || len(nc.Conditions) == 0 && nc.Role == "" && nc.InstanceProfile == "" {
		return nil
	}
	return []evidence.NodeClass{nc}
}
