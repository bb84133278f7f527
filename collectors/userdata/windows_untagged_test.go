package userdata

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// untaggedWindows is the Start-EKSBootstrap.ps1 call of the EKS Windows user data template
// without its <powershell> wrapper.
const untaggedWindows = `[string]$EKSBinDir = "$env:ProgramFiles\Amazon\EKS"
[string]$EKSBootstrapScriptName = 'Start-EKSBootstrap.ps1'
[string]$EKSBootstrapScriptFile = "$EKSBinDir\$EKSBootstrapScriptName"
& $EKSBootstrapScriptFile -EKSClusterName "win-prod" -APIServerEndpoint "https://ABC.gr7.us-east-1.eks.amazonaws.com" -KubeletExtraArgs '--node-labels=workload=dotnet' 3>&1 4>&1 5>&1 6>&1
`

func issuesAt(c *evidence.BootstrapConfig, level evidence.IssueLevel) []string {
	var out []string
	for _, is := range c.Issues {
		if is.Level == level {
			out = append(out, is.Message)
		}
	}
	return out
}

// TestWindowsUntagged: EC2Launch (v1 and v2) runs user data only inside <powershell> or
// <script> tags, or as EC2Launch v2 YAML; a Start-EKSBootstrap.ps1 call outside them never runs.
// Whole user data says so as an error, and the node never bootstraps; a pasted excerpt, whose
// tags may be above or below what was copied, as a warning.
func TestWindowsUntagged(t *testing.T) {
	c := Decode([]byte(untaggedWindows))
	errs := issuesAt(c, evidence.IssueError)
	if len(errs) != 1 || !strings.Contains(errs[0], "<powershell>") || !strings.Contains(errs[0], "EC2Launch") {
		t.Fatalf("errors %q, want one naming <powershell> and EC2Launch", errs)
	}
	if !c.Issues[0].NotRun {
		t.Errorf("the error is not marked NotRun: bootstrap.userdata-unparseable would report user data that parses")
	}
	if c.Format != evidence.FormatWindows || c.CallsBootstrap || !strings.Contains(c.BootstrapUnreached, "<powershell>") {
		t.Errorf("format %s, calls %v, unreached %q", c.Format, c.CallsBootstrap, c.BootstrapUnreached)
	}
	if c.ClusterName != "win-prod" {
		t.Errorf("cluster %q: the call's arguments are still read", c.ClusterName)
	}

	p := DecodePasted([]byte(untaggedWindows))
	if errs := issuesAt(p, evidence.IssueError); len(errs) != 0 {
		t.Errorf("excerpt errors %q, want none", errs)
	}
	if w := issuesAt(p, evidence.IssueWarning); len(w) != 1 || !strings.Contains(w[0], "<powershell>") {
		t.Errorf("excerpt warnings %q", w)
	}
	if !p.CallsBootstrap || p.BootstrapUnreached != "" {
		t.Errorf("excerpt: calls %v, unreached %q", p.CallsBootstrap, p.BootstrapUnreached)
	}

	// near misses: a tag EC2Launch v1 finds anywhere in the text (its regex is not anchored),
	// and EC2Launch v2 YAML
	for name, in := range map[string]string{
		"powershell after a comment": "# EKS Windows nodes\n<powershell>\n" + untaggedWindows + "</powershell>\n",
		"batch script tag":           "<script>\npowershell -File C:\\boot.ps1\n</script>\n" + "rem Start-EKSBootstrap.ps1 is called by boot.ps1\n",
		"ec2launch v2 yaml":          "version: 1.1\ntasks:\n- task: executeScript\n  inputs:\n  - frequency: once\n    type: powershell\n    content: |-\n      " + strings.ReplaceAll(strings.TrimSpace(untaggedWindows), "\n", "\n      ") + "\n",
	} {
		c := Decode([]byte(in))
		for _, is := range c.Issues {
			if strings.Contains(is.Message, "tag") {
				t.Errorf("%s: issue %q", name, is.Message)
			}
		}
		if c.BootstrapUnreached != "" {
			t.Errorf("%s: unreached %q", name, c.BootstrapUnreached)
		}
	}
}
