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
		case has("SIGNERNAME") || has("REQUESTOR") || (has("CONDITION") && strings.Contains(cmd, "csr")):
			return []Segment{seg(TypeGetCSR, "kubectl get csr", lines)}, true
		case has("ROLES") && has("VERSION") || strings.Contains(cmd, "get node") || strings.Contains(cmd, "get no "):
			return []Segment{seg(TypeGetNodes, "kubectl get nodes", lines)}, true
		case has("REASON") && has("MESSAGE") || strings.Contains(lines[0].text, "LAST SEEN"):
			return []Segment{seg(TypeGetEvents, "kubectl get events", lines)}, true
		}
		return []Segment{seg(TypeLog, "kubectl get output", lines)}, true
	}
	return nil, false
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
