package userdata

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"sigs.k8s.io/yaml"
)

var (
	reEC2LaunchVersion = regexp.MustCompile(`(?m)^version:[ \t]*["']?[0-9]`)
	reEC2LaunchTasks   = regexp.MustCompile(`(?m)^tasks:[ \t]*$`)
)

// EC2LaunchV2 reports whether text is EC2Launch v2's YAML user data (see looksLikeEC2LaunchV2),
// for a paste reader deciding what a pasted document is.
func EC2LaunchV2(text []byte) bool {
	return looksLikeEC2LaunchV2(strings.TrimLeft(string(text), " \t\r\n"))
}

// looksLikeEC2LaunchV2 reports whether s is EC2Launch v2's YAML user data: a top-level version
// and a top-level tasks list (EC2 user guide, "EC2Launch v2 task configuration",
// https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2launch-v2-settings.html).
func looksLikeEC2LaunchV2(s string) bool {
	return reEC2LaunchVersion.MatchString(s) && reEC2LaunchTasks.MatchString(s)
}

// ec2LaunchV2Doc is the part of EC2Launch v2's YAML user data eksdoctor reads: the tasks, of
// which executeScript runs each input's content as a powershell or batch script (inputs is a
// list for executeScript; other tasks take other shapes, so it is decoded per task).
type ec2LaunchV2Doc struct {
	Version any `json:"version"`
	Tasks   []struct {
		Task   string `json:"task"`
		Inputs any    `json:"inputs"`
	} `json:"tasks"`
}

// handleEC2LaunchV2 reads EC2Launch v2 YAML user data (Windows Server 2022 and later AMIs run
// EC2Launch v2): the content of each executeScript input of type powershell or batch is judged
// as <powershell> user data is.
func (d *decoder) handleEC2LaunchV2(s, part string, firstLine int) {
	d.addFormat(evidence.FormatWindows)
	var doc ec2LaunchV2Doc
	if err := yaml.Unmarshal([]byte(s), &doc); err != nil {
		d.cfg.Parts = append(d.cfg.Parts, describe(part, "EC2Launch v2 YAML"))
		d.issue(evidence.IssueError, part, firstLine, "EC2Launch v2 YAML user data does not parse (%v); EC2Launch v2 runs none of its tasks", err)
		return
	}
	scripts := 0
	for _, t := range doc.Tasks {
		if t.Task != "executeScript" {
			continue
		}
		inputs, _ := t.Inputs.([]any)
		for _, in := range inputs {
			m, _ := in.(map[string]any)
			typ, _ := m["type"].(string)
			content, _ := m["content"].(string)
			if typ = strings.ToLower(typ); (typ != "powershell" && typ != "batch") || content == "" {
				continue
			}
			scripts++
			d.cfg.Parts = append(d.cfg.Parts, describe(part, fmt.Sprintf("EC2Launch v2 executeScript (%s)", typ)))
			d.handleWindows(content, part, firstLine)
		}
	}
	if scripts == 0 {
		d.cfg.Parts = append(d.cfg.Parts, describe(part, "EC2Launch v2 YAML"))
	}
}

// handleWindows reads PowerShell user data calling Start-EKSBootstrap.ps1
// (https://docs.aws.amazon.com/eks/latest/userguide/eks-optimized-windows-ami.html#bootstrap-script-configuration-parameters).
func (d *decoder) handleWindows(s, part string, firstLine int) {
	d.addFormat(evidence.FormatWindows)
	lower := strings.ToLower(s)
	if strings.HasPrefix(strings.TrimSpace(lower), "<powershell>") && !strings.Contains(lower, "</powershell>") && !d.endCut {
		// (the end of user data printed by head may hold the closing tag)
		d.issue(evidence.IssueError, part, firstLine, "<powershell> block is not closed with </powershell>; EC2Launch does not run it")
	}
	idx := strings.Index(lower, "start-eksbootstrap.ps1")
	if idx < 0 {
		return
	}
	// Parameters may follow the script variable on a later line ("& $EKSBootstrapScriptFile -EKSClusterName ...").
	call := strings.Index(lower, "-eksclustername")
	if call < 0 {
		d.cfg.CallsBootstrap = strings.Contains(lower, "& $eksbootstrapscriptfile") || strings.Contains(lower, "start-eksbootstrap.ps1 ")
		return
	}
	d.cfg.CallsBootstrap = true
	lineStart := strings.LastIndex(s[:call], "\n") + 1
	lineEnd := strings.Index(s[call:], "\n")
	if lineEnd < 0 {
		lineEnd = len(s)
	} else {
		lineEnd += call
	}
	args := psTokens(s[lineStart:lineEnd])
	for k := 0; k < len(args); k++ {
		if !strings.HasPrefix(args[k], "-") || k+1 >= len(args) {
			continue
		}
		name, val := strings.ToLower(args[k]), args[k+1]
		if field := psJoinFields[name]; field != "" && reTemplateRef.MatchString(val) {
			// a template's placeholder (Terraform, CloudFormation) is replaced before the node
			// runs the script: the value the node gets is not in this text
			d.unresolvedTemplate(field, args[k]+" "+val)
			continue
		}
		switch name {
		case "-eksclustername":
			d.cfg.ClusterName = val
		case "-apiserverendpoint":
			d.cfg.APIServerEndpoint = val
		case "-base64clusterca":
			d.cfg.CertificateAuthority = val
		case "-dnsclusterip":
			d.cfg.ClusterDNS = []string{val}
		case "-containerruntime":
			d.cfg.ContainerRuntime = val
		case "-kubeletextraargs":
			d.applyKubeletArgs(strings.Fields(val), part, firstLine)
		default:
			continue
		}
		k++
	}
}

// callsWindowsBootstrap reports whether s, user data none of the other formats claimed, names
// the EKS Windows bootstrap script Start-EKSBootstrap.ps1.
func callsWindowsBootstrap(s string) bool {
	return strings.Contains(strings.ToLower(s), "start-eksbootstrap.ps1")
}

// reWindowsTag is a script tag EC2Launch runs the content of, anywhere in the user data: v1's
// Invoke-Userdata matches "(?is)<powershell>(.*?)</powershell>" (and <script>) without
// anchoring, and v2 falls back to the same tags when the user data is not its YAML ("Parsing
// failed, fall back to XML format"); see
// https://docs.aws.amazon.com/AWSEC2/latest/WindowsGuide/ec2-windows-user-data.html#user-data-scripts.
var reWindowsTag = regexp.MustCompile(`(?is)<(powershell|script)>.*?</(powershell|script)>`)

// handleWindowsText reads user data that calls Start-EKSBootstrap.ps1 but does not start with a
// <powershell> or <script> tag and is not EC2Launch v2 YAML. With a tag further down (after a
// comment) EC2Launch still runs it. Without one, EC2Launch runs none of it: whole user data
// never bootstraps the node (an error, as a bare bootstrap.sh script is for cloud-init), while a
// pasted excerpt, whose tags may not have been copied, is read as the script it is, with a
// warning.
func (d *decoder) handleWindowsText(s, part string, firstLine int) {
	if reWindowsTag.MatchString(s) {
		d.cfg.Parts = append(d.cfg.Parts, describe(part, "powershell"))
		d.handleWindows(s, part, firstLine)
		return
	}
	d.cfg.Parts = append(d.cfg.Parts, describe(part, "PowerShell without a <powershell> tag"))
	if d.excerpt {
		d.issue(evidence.IssueWarning, part, firstLine, "the pasted PowerShell calls Start-EKSBootstrap.ps1 outside <powershell>…</powershell> (it may be an excerpt); if the user data itself lacks the tag, EC2Launch does not run it")
		d.handleWindows(s, part, firstLine)
		return
	}
	d.issue(evidence.IssueError, part, firstLine, "user data calls Start-EKSBootstrap.ps1 but has no <powershell> or <script> tag and is not EC2Launch v2 YAML; EC2Launch runs only what those tags (or EC2Launch v2's executeScript tasks) hold, so it runs none of it (wrap the script in <powershell>…</powershell>)")
	d.cfg.Issues[len(d.cfg.Issues)-1].NotRun = true // bootstrap.no-bootstrap's, not a parse failure
	d.handleWindows(s, part, firstLine)
	d.cfg.CallsBootstrap = false
	d.cfg.BootstrapUnreached = "it calls Start-EKSBootstrap.ps1 without a <powershell> or <script> tag and is not EC2Launch v2 YAML, so EC2Launch runs none of it"
}

// psTokens splits a PowerShell command line into tokens, honouring single and double quotes.
func psTokens(s string) []string {
	var out []string
	var cur strings.Builder
	var quote byte
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote = c
			in = true
		case c == ' ' || c == '\t' || c == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// psJoinFields are the Start-EKSBootstrap.ps1 parameters that say how the node joins, by the
// NodeConfig field they set.
var psJoinFields = map[string]string{"-eksclustername": "clusterName", "-apiserverendpoint": "apiServerEndpoint", "-base64clusterca": "certificateAuthority"}

// unresolvedTemplate records that field's value in the user data is a template's placeholder
// (quoted as what), rendered before the node reads it, so it is not known.
func (d *decoder) unresolvedTemplate(field, what string) {
	if d.cfg.Unresolved == nil {
		d.cfg.Unresolved = map[string]string{}
	}
	d.cfg.Unresolved[field] = clip(what, MaxQuoteBytes) + " is a template placeholder (filled in before the node runs the user data)"
}
