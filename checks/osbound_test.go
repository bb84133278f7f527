package checks

import (
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestNodeConfigIgnoredByCloudInit: cloud-init's "Unhandled unknown content-type
// (application/node.eks.aws)" is harmless on AL2023 (nodeadm reads the NodeConfig itself) but
// says the NodeConfig was ignored on an OS without nodeadm (AL2, Ubuntu): there nothing
// bootstraps the node. An unknown OS judges nothing.
func TestNodeConfigIgnoredByCloudInit(t *testing.T) {
	const line = "2026-07-24 15:29:30,001 - __init__.py[WARNING]: Unhandled unknown content-type (application/node.eks.aws) userdata: 'b'---'...'"
	c, _ := Default().Get("bootstrap.wrong-format-for-ami")
	for _, tc := range []struct {
		os   string
		want Status
	}{{"ubuntu", StatusFail}, {"al2", StatusFail}, {"al2023", StatusSkipped}, {"", StatusSkipped}} {
		ev := healthyEvidence()
		withLogs(line + "\n")(ev)
		ev.NodeLogs.OS = tc.os
		ev.AddGapForce(evidence.KindInstance, "not in a node log bundle")
		ev.AddGapForce(evidence.KindBootstrap, "the bundle does not show how the node was bootstrapped")
		fs := Run([]Check{c}, ev)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("OS %q: %+v, want %s", tc.os, fs, tc.want)
		}
	}
}
