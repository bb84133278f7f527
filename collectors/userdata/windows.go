package userdata

import (
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// handleWindows reads PowerShell user data calling Start-EKSBootstrap.ps1
// (https://docs.aws.amazon.com/eks/latest/userguide/eks-optimized-windows-ami.html#bootstrap-script-configuration-parameters).
func (d *decoder) handleWindows(s, part string, firstLine int) {
	d.addFormat(evidence.FormatWindows)
	lower := strings.ToLower(s)
	if strings.HasPrefix(strings.TrimSpace(lower), "<powershell>") && !strings.Contains(lower, "</powershell>") {
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
