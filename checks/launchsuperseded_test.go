package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestLaunchFailureSupersededByLaterBoot: a failure to launch an instance at all (no
// EKS-optimized AMI for the version and family: SSM ParameterNotFound) stops only the launch it
// was part of. When the logs show a node booting after it (a boot or bootstrap-agent-start
// milestone, later by the lines' times, or dated while the lookup's line is not), a later launch
// found an AMI and the lookup no longer stops the node shown: it passes as superseded. With no
// boot, or a boot before it by the lines' own times, it stays the cause (blind pastes21/07).
func TestLaunchFailureSupersededByLaterBoot(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	lookup := func(when time.Time, seq int64) evidence.SignatureHit {
		l := evidence.LogLine{Path: "paste.txt", Line: seq, Seq: seq, Time: when, Text: "An error occurred (ParameterNotFound) when calling the GetParameter operation"}
		return evidence.SignatureHit{Signature: "aws-cli-ssm-eks-ami-parameter-not-found", Component: "aws-sdk", Finding: "cluster.ami-family-unsupported",
			Meaning: "SSM has no EKS-optimized AMI parameter", Count: 1, First: l, Last: l}
	}
	boot := func(when time.Time, seq int64) evidence.SignatureHit {
		l := evidence.LogLine{Path: "paste.txt", Line: seq, Seq: seq, Time: when, Text: "nodeadm[1698]: Checking user is root.."}
		return evidence.SignatureHit{Signature: "nodeadm-init-started", Component: "nodeadm", Normal: true, Milestone: "bootstrap-started",
			Meaning: "nodeadm init started", Count: 1, First: l, Last: l}
	}
	cases := []struct {
		name string
		hits []evidence.SignatureHit
		want Status
		msg  string
	}{
		{"undated lookup, then a dated boot", []evidence.SignatureHit{lookup(time.Time{}, 14), boot(at("2025-11-18T06:12:31Z"), 70)}, StatusPass, "superseded"},
		{"lookup, then a later boot", []evidence.SignatureHit{lookup(at("2025-11-18T05:40:00Z"), 14), boot(at("2025-11-18T06:12:31Z"), 70)}, StatusPass, "superseded"},
		{"no node booted: the lookup is the cause", []evidence.SignatureHit{lookup(time.Time{}, 14)}, StatusFail, "ParameterNotFound"},
		{"the boot came before the lookup by their times", []evidence.SignatureHit{lookup(at("2025-11-18T07:00:00Z"), 14), boot(at("2025-11-18T06:12:31Z"), 70)}, StatusFail, "ParameterNotFound"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			logs := &evidence.NodeLogs{Origin: "artefact", Hits: c.hits}
			fs := testimonyFindings("cluster.ami-family-unsupported", judgeTestimony(logs, "cluster.ami-family-unsupported"), logs, "node", "paste:paste.txt")
			if len(fs) != 1 {
				t.Fatalf("got %d findings: %+v", len(fs), fs)
			}
			f := fs[0]
			text := f.Message
			for _, e := range f.Evidence {
				text += " " + e.Text
			}
			if f.Status != c.want || !strings.Contains(text, c.msg) {
				t.Errorf("got %s %q, want %s with %q", f.Status, text, c.want, c.msg)
			}
		})
	}
}
