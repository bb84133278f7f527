package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// cutAWSAuthJSON is `kubectl get cm aws-auth -o json` cut by a terminal's scrollback in the
// middle of the mapRoles string: the JSON never closes.
const cutAWSAuthJSON = "$ kubectl -n kube-system get cm aws-auth -o json\n{\n    \"apiVersion\": \"v1\",\n    \"data\": {\n        \"mapRoles\": \"- groups:\\n  - system:bootstrappers\\n  - system:nodes\\n  rolearn: arn:aws:iam::777788889999:role/eks-ng-general-role\\n  username: system:node:{{EC2PrivateDNSName}}\\n- groups:\\n  - system:masters\\n  rolearn: arn:aws:iam::777788889999:role/Admin\\n  usern\n"

// TestCutAWSAuthIsAnInputProblem (red team round 7 #2): an aws-auth ConfigMap pasted as JSON
// and cut off mid-way is a damaged paste, not the cluster's aws-auth: it is named as an input
// problem and never fails auth.aws-auth-malformed, and the kubelet lines pasted under it are
// still read and judged.
func TestCutAWSAuthIsAnInputProblem(t *testing.T) {
	kubelet := "Nov 23 13:00:01 ip-10-3-1-8 kubelet[2222]: E1123 13:00:01.000000    2222 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-3-1-8.ec2.internal\"\n" +
		"Nov 23 13:00:08 ip-10-3-1-8 kubelet[2222]: E1123 13:00:08.000000    2222 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-3-1-8.ec2.internal\"\n"
	nodes := "$ kubectl get nodes\nNAME                         STATUS   ROLES    AGE   VERSION\nip-10-3-1-8.ec2.internal     Ready    <none>   3d    v1.30.4-eks-a737599\nip-10-3-2-19.ec2.internal    Ready    <none>   3d    v1.30.4-eks-a737599\n"
	bare := strings.SplitN(cutAWSAuthJSON, "\n", 2)[1] // without the command line above it
	cases := []struct {
		name, paste  string
		unauthorized bool // the kubelet's 401s are in the paste
	}{
		{"healthy ticket, under its command", "All nodes are Ready again, posting aws-auth for reference (got cut off):\n\n" + nodes + "\n" + cutAWSAuthJSON, false},
		{"kubelet lines after it, under its command", "aws-auth as JSON (the terminal buffer cut it), plus kubelet:\n\n" + cutAWSAuthJSON + "\n" + kubelet, true},
		{"kubelet lines after it, no command", "aws-auth as JSON (the terminal buffer cut it), plus kubelet:\n\n" + bare + "\n" + kubelet, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, r, out, errOut := analyze(t, c.paste, "-")
			for _, id := range failing(r) {
				if id == "auth.aws-auth-malformed" {
					t.Fatalf("a cut paste judged as the cluster's aws-auth: %s fails\n%s", id, errOut)
				}
			}
			var ips struct {
				InputProblems []struct{ Path, Problem string } `json:"inputProblems"`
			}
			_ = json.Unmarshal([]byte(out), &ips)
			named := false
			for _, p := range ips.InputProblems {
				named = named || strings.Contains(p.Problem, "aws-auth") && strings.Contains(p.Problem, "cut off")
			}
			if !named || !strings.Contains(errOut, "cut off") {
				t.Errorf("the cut aws-auth is not named as an input problem: %+v\nstderr: %s", ips.InputProblems, errOut)
			}
			if c.unauthorized {
				if code != 1 || len(r.Findings) == 0 || !strings.Contains(strings.ToLower(r.Findings[0].Message+r.Findings[0].ID), "unauthorized") {
					t.Errorf("exit %d, failing %v: want the kubelet's Unauthorized judged (exit 1)\nstderr: %s", code, failing(r), errOut)
				}
			} else if code == 1 {
				t.Errorf("exit 1 (failing %v) on a healthy ticket", failing(r))
			}
		})
	}
}
