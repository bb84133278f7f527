package ingest

import "testing"

// TestRedactionAsterisksAreNotMarkdown: a poster's redaction with runs of asterisks
// ("http://*********/latest/…: dial tcp **********") is not Markdown bold, so the log lines
// around it are read as log text; bold written for people still marks a paragraph as prose.
func TestRedactionAsterisksAreNotMarkdown(t *testing.T) {
	redacted := []byte(`  296            Error kubelet             0 E0120 14:07:22.959495    3984 server.go:292] "Failed to run kubelet" err="failed to run Kubelet: could not init cloud provider \"aws\": unable to determine AWS
                                             \"http://*********/latest/meta-data/placement/availability-zone\": dial tcp **********: connectex: An established connection was aborted by the
`)
	if got := types(Segments(redacted)); !equalTypes(got, []Type{TypeLog}) {
		t.Errorf("redacted log lines read as %v, want [log]", got)
	}
	bold := []byte("**What happened**: the node stays NotReady after boot\nwe restarted it twice\n")
	if got := types(Segments(bold)); !equalTypes(got, []Type{TypeProse}) {
		t.Errorf("bold prose read as %v, want [prose]", got)
	}
}
