package ingest

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const untaggedWindowsUD = `[string]$EKSBinDir = "$env:ProgramFiles\Amazon\EKS"
[string]$EKSBootstrapScriptName = 'Start-EKSBootstrap.ps1'
[string]$EKSBootstrapScriptFile = "$EKSBinDir\$EKSBootstrapScriptName"
& $EKSBootstrapScriptFile -EKSClusterName "win-prod" -APIServerEndpoint "https://ABC.gr7.us-east-1.eks.amazonaws.com" 3>&1 4>&1 5>&1 6>&1
`

// TestIMDSUserDataUnderPrompt: what a command fetching the instance's user data from IMDS prints
// under a shell or PowerShell prompt (curl, Invoke-RestMethod, Invoke-WebRequest,
// Get-EC2InstanceMetadata, ec2-metadata) is the node's user data, whole as EC2 returns it: an
// untagged Start-EKSBootstrap.ps1 call in it is an error. The same text pasted bare, with no
// command naming its origin, is an excerpt (a warning).
func TestIMDSUserDataUnderPrompt(t *testing.T) {
	for _, cmd := range []string{
		`PS C:\Users\Administrator> Invoke-RestMethod -Uri http://169.254.169.254/latest/user-data -Headers @{'X-aws-ec2-metadata-token'=$tok}`,
		`PS C:\> (Invoke-WebRequest -UseBasicParsing http://169.254.169.254/latest/user-data).Content`,
		`PS C:\> Get-EC2InstanceMetadata -Category UserData`,
		`[ec2-user@ip-10-0-1-2 ~]$ curl -s -H "X-aws-ec2-metadata-token: $TOKEN" http://169.254.169.254/latest/user-data`,
	} {
		paste := cmd + "\n" + untaggedWindowsUD + `PS C:\Users\Administrator>` + "\n"
		r := Read([]byte(paste), "paste.txt", Options{})
		var seg *Segment
		for i := range r.Segments {
			if r.Segments[i].Type == TypeUserData {
				seg = &r.Segments[i]
			}
		}
		if seg == nil {
			t.Errorf("%s: no user data segment in %+v", cmd, r.Segments)
			continue
		}
		b := r.Evidence.Bootstrap
		if b == nil {
			t.Errorf("%s: no bootstrap configuration", cmd)
			continue
		}
		var errs []string
		for _, is := range b.Issues {
			if is.Level == evidence.IssueError {
				errs = append(errs, is.Message)
			}
		}
		if len(errs) != 1 || !strings.Contains(errs[0], "<powershell>") || b.CallsBootstrap {
			t.Errorf("%s: errors %q, calls bootstrap %v", cmd, errs, b.CallsBootstrap)
		}
	}

	// pasted bare: an excerpt of user data, its tags perhaps not copied
	r := Read([]byte("The user data of the launch template:\n\n"+untaggedWindowsUD), "paste.txt", Options{})
	b := r.Evidence.Bootstrap
	if b == nil {
		t.Fatalf("bare: no bootstrap configuration (segments %+v)", r.Segments)
	}
	for _, is := range b.Issues {
		if is.Level == evidence.IssueError {
			t.Errorf("bare: error %q, want a warning", is.Message)
		}
	}
}

// TestEC2LaunchLogRead: EC2Launch v1's UserdataExecution.log printed by Get-Content under a
// PowerShell prompt is a log the scanner reads, not prose.
func TestEC2LaunchLogRead(t *testing.T) {
	paste := `PS C:\> Get-Content C:\ProgramData\Amazon\EC2-Windows\Launch\Log\UserdataExecution.log
2025/09/16 08:14:02Z: Userdata execution begins
2025/09/16 08:14:02Z: Zero or more than one <persist> tag was not provided
2025/09/16 08:14:02Z: Unregistering the persist scheduled task
2025/09/16 08:14:05Z: Zero or more than one <runAsLocalSystem> tag was not provided
2025/09/16 08:14:05Z: Zero or more than one <script> tag was not provided
2025/09/16 08:14:05Z: Zero or more than one <powershellArguments> tag was not provided
2025/09/16 08:14:05Z: Zero or more than one <powershell> tag was not provided
2025/09/16 08:14:05Z: Userdata execution done
`
	r := Read([]byte(paste), "paste.txt", Options{})
	if len(r.Segments) != 1 || r.Segments[0].Type != TypeLog {
		t.Fatalf("segments %+v, want one log", r.Segments)
	}
	if r.Evidence.NodeLogs == nil || len(r.Evidence.NodeLogs.Hits) == 0 {
		t.Fatalf("no signature hit")
	}
	if h := r.Evidence.NodeLogs.Hits[0]; h.First.Time.IsZero() {
		t.Errorf("line %q undated", h.First.Text)
	}
}
