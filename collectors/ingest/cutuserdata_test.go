package ingest

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestUserDataShownInPart: user data printed by `head` or `tail` (alone or at the end of a pipe)
// is only part of the file: its end (or start) was not shown, so what is missing from it — a
// closing </powershell> head did not show, a MIME closing boundary, the bootstrap call — is not
// judged absent; the configuration is Truncated with the command named. tail shows the end, so a
// block left open there is open. The same text under `cat` is the whole file.
func TestUserDataShownInPart(t *testing.T) {
	const ps = "<powershell>\n$ErrorActionPreference = 'Stop'\nStart-Transcript -Path 'C:\\ProgramData\\userdata.log' -Append\n\n# corporate trust bundle\n$bundle = @'\n"
	for _, c := range []struct {
		cmd               string
		partial, unclosed bool
	}{
		{"$ head -6 build/win2022-userdata.ps1", true, false},
		{"$ cat build/win2022-userdata.ps1 | head -n 6", true, false},
		{"$ tail -6 build/win2022-userdata.ps1", true, true},
		{"$ tail -f /var/log/cloud-init-output.log", false, true},
		{"$ cat build/win2022-userdata.ps1", false, true},
	} {
		r := Read([]byte(c.cmd+"\n"+ps), "paste.txt", Options{})
		b := r.Evidence.Bootstrap
		if b == nil {
			t.Errorf("%s: no bootstrap configuration (segments %+v)", c.cmd, r.Segments)
			continue
		}
		var errs []string
		for _, is := range b.Issues {
			if is.Level == evidence.IssueError {
				errs = append(errs, is.Message)
			}
		}
		if c.partial != (b.Truncated && strings.Contains(b.TruncatedWhy, strings.TrimPrefix(c.cmd, "$ "))) || c.unclosed != (len(errs) > 0) {
			t.Errorf("%s: truncated %v (%q), errors %q; want truncated (naming the command) %v, the unclosed <powershell> an error %v",
				c.cmd, b.Truncated, b.TruncatedWhy, errs, c.partial, c.unclosed)
		}
	}
}
