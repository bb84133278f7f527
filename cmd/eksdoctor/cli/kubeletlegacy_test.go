package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestKubelet118ReadyEvent (red team 10b #8): kubelets up to 1.20 at --v=2 (the AL2
// bootstrap.sh of 2020–21) log "Recording NodeReady event message for node X" when their Node
// turns Ready. A healthy 1.18 log is a Ready node (exit 0), as the structured 1.21 line is; its
// NodeNotReady event is not.
func TestKubelet118ReadyEvent(t *testing.T) {
	const node = "ip-192-168-10-20.us-west-2.compute.internal"
	log := "Jun 12 10:01:00 ip-192-168-10-20 kubelet: I0612 10:01:00.100000    3456 server.go:417] Version: v1.18.9-eks-d1db3c\n" +
		"Jun 12 10:01:01 ip-192-168-10-20 kubelet: I0612 10:01:01.300100    3456 kubelet_node_status.go:70] Attempting to register node " + node + "\n" +
		"Jun 12 10:01:01 ip-192-168-10-20 kubelet: I0612 10:01:01.500000    3456 kubelet_node_status.go:73] Successfully registered node " + node + "\n" +
		"Jun 12 10:01:31 ip-192-168-10-20 kubelet: I0612 10:01:31.000000    3456 kubelet_node_status.go:486] Recording NodeReady event message for node " + node + "\n"
	code, r, _, errOut := analyze(t, log, "-")
	d := r.Diagnosis
	if code != ExitOK || d.Verdict != "joined" || d.Node == nil || d.Node.Name != node || !d.Node.Ready {
		t.Fatalf("exit %d (want %d), verdict %s, node %+v\n%s", code, ExitOK, d.Verdict, d.Node, errOut)
	}
	notReady := strings.Replace(log, "Recording NodeReady", "Recording NodeNotReady", 1)
	if code, r, _, _ := analyze(t, notReady, "-"); code == ExitOK || r.Diagnosis.Node == nil || r.Diagnosis.Node.Ready {
		t.Errorf("a NodeNotReady event read as Ready: exit %d, node %+v", code, r.Diagnosis.Node)
	}
}

// TestNodeLabelsBeforeKubelet116 (red team 10b #2): a kubelet before 1.16 only warned about
// --node-labels in the kubernetes.io namespace (W… "in 1.16, --node-labels … must begin with"),
// 1.16 refused to start (KEP "Bounding Self-Labeling Kubelets"). On a 1.14 kubelet, by its
// start-up line, the labels are not the cause — the 401 it then logs is — and its warning is
// no crash loop; on a 1.16 kubelet the same user data is the cause.
func TestNodeLabelsBeforeKubelet116(t *testing.T) {
	const ud = "```\n#!/bin/bash\nset -o xtrace\n/etc/eks/bootstrap.sh prod --kubelet-extra-args '--node-labels=kubernetes.io/role=worker,team=payments'\n```\n\n```\n$ journalctl -u kubelet --no-pager | head\n"
	const p = "Oct 09 10:01:0%d ip-192-168-10-20.us-west-2.compute.internal kubelet[3456]: "
	line := func(s int, text string) string { return strings.Replace(p, "%d", string(rune('0'+s)), 1) + text + "\n" }
	version := func(v string) string {
		return line(0, "I1009 10:01:00.100000    3456 server.go:417] Version: "+v)
	}
	warn := line(0, "W1009 10:01:00.200000    3456 options.go:251] unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [kubernetes.io/role]") +
		line(0, "W1009 10:01:00.200100    3456 options.go:252] in 1.16, --node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (kubelet.kubernetes.io, node.kubernetes.io) or be in the specifically allowed set (kubernetes.io/hostname)")
	register := line(1, "I1009 10:01:01.300100    3456 kubelet_node_status.go:72] Attempting to register node ip-192-168-10-20.us-west-2.compute.internal") +
		line(1, `E1009 10:01:01.310000    3456 kubelet_node_status.go:94] Unable to register node "ip-192-168-10-20.us-west-2.compute.internal" with API server: Unauthorized`)
	fatal := line(0, "F1009 10:01:00.200000    3456 server.go:185] unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [kubernetes.io/role]")
	for _, c := range []struct {
		name, paste, cause string
		labels             string // the status of bootstrap.restricted-node-labels
		warnsOnly          bool   // runtime.kubelet-crashloop must not fail
	}{
		{"1.14 with its warnings", ud + version("v1.14.9-eks-1f0ca9") + warn + register + "```\n", "runtime.unauthorized", "pass", true},
		{"1.14 without them", ud + version("v1.14.9-eks-1f0ca9") + register + "```\n", "runtime.unauthorized", "pass", true},
		{"1.16 refuses", ud + version("v1.16.15-eks-ad4801") + fatal + "```\n", "bootstrap.restricted-node-labels", "fail", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, r, _, errOut := analyze(t, c.paste, "-")
			d := r.Diagnosis
			if code != ExitFindings || d.MostLikelyCause == nil || *d.MostLikelyCause != c.cause {
				t.Fatalf("exit %d, cause %v, want %s; failing %v\n%s", code, d.MostLikelyCause, c.cause, failing(r), errOut)
			}
			status := ""
			for _, f := range r.Findings {
				if f.ID == "bootstrap.restricted-node-labels" {
					status = string(f.Status)
				}
			}
			if status != c.labels {
				t.Errorf("bootstrap.restricted-node-labels %q, want %q", status, c.labels)
			}
			if c.warnsOnly && slices.Contains(failing(r), "runtime.kubelet-crashloop") {
				t.Errorf("a kubelet that only warned is in a crash loop (failing %v)", failing(r))
			}
		})
	}
}

// TestKubelet124Dockershim (red team 10b #12): a 1.24 or later kubelet told to use the Docker
// runtime (kubelet --container-runtime=docker, or bootstrap.sh --container-runtime dockerd from a
// launch template written for 1.23) exits with "using dockershim is not supported". The crash
// loop names dockershim and the --container-runtime flag, not the generic "a flag, its
// configuration, the cloud provider or the container runtime".
func TestKubelet124Dockershim(t *testing.T) {
	line := `E1012 10:01:00.200000    3456 server.go:302] "Failed to run kubelet" err="failed to run Kubelet: using dockershim is not supported, please consider using a full-fledged CRI implementation."`
	for name, log := range map[string]string{
		"journal": "Oct 12 10:01:00 ip-192-168-10-20 kubelet[3456]: I1012 10:01:00.100000    3456 server.go:440] \"Kubelet version\" kubeletVersion=\"v1.24.7-eks-fb459a0\"\n" +
			"Oct 12 10:01:00 ip-192-168-10-20 kubelet[3456]: " + line + "\n" +
			"Oct 12 10:01:00 ip-192-168-10-20 systemd[1]: kubelet.service: Main process exited, code=exited, status=1/FAILURE\n",
		"bare": line + "\n",
	} {
		code, r, out, errOut := analyze(t, log, "-")
		d := r.Diagnosis
		if code != ExitFindings || d.MostLikelyCause == nil || *d.MostLikelyCause != "runtime.kubelet-crashloop" {
			t.Errorf("%s: exit %d cause %v\n%s", name, code, d.MostLikelyCause, errOut)
			continue
		}
		// the dockershim line is one line, counted once (not also as the generic "failed to run
		// Kubelet"), with the systemd exit when the journal has it
		lines := map[string]string{"journal": "(2 lines, last at stdin:3)", "bare": "(1 line, last at stdin:1)"}[name]
		if !strings.Contains(out, lines) {
			t.Errorf("%s: want %q:\n%s", name, lines, out)
		}
		if !strings.Contains(out, "dockershim") || !strings.Contains(out, "--container-runtime") {
			t.Errorf("%s: dockershim and --container-runtime not named:\n%s", name, out)
		}
	}
}

// TestNodeadmConsoleEC2Denied (red team 10b #15): nodeadm logs in zap's console encoding since
// amazon-eks-ami 4c653a29 (2025-12-08; nodeadm/internal/cli/logger.go), JSON before. The same
// ec2:DescribeInstances denial gets the nodeadm explanation (the node name and max pods) in both
// forms, and its one line counts once, not also as the generic "not authorized to perform".
func TestNodeadmConsoleEC2Denied(t *testing.T) {
	denial := `operation error EC2: DescribeInstances, https response error StatusCode: 403, RequestID: 0a1b2c3d-aaaa-bbbb-cccc-0123456789ab, api error UnauthorizedOperation: You are not authorized to perform this operation. User: arn:aws:sts::111122223333:assumed-role/eks-node-role/i-0a1b2c3d4e5f60006 is not authorized to perform: ec2:DescribeInstances because no identity-based policy allows the ec2:DescribeInstances action`
	for name, log := range map[string]string{
		"console": `Mar 12 10:01:03 ip-192-168-10-20 nodeadm[1789]: fatal nodeadm/main.go:38 Command failed {"error": "` + denial + `"}` + "\n",
		"json":    `Mar 12 10:01:03 ip-192-168-10-20 nodeadm[1789]: {"level":"fatal","ts":1710237663.202,"caller":"nodeadm/main.go:36","msg":"Command failed","error":"` + denial + `"}` + "\n",
		"sdk":     `Mar 12 10:01:03 ip-192-168-10-20 nodeadm[1789]: SDK 2024/03/12 10:01:03 DEBUG request failed with unretryable error https response error StatusCode: 403, RequestID: 0a1b2c3d-aaaa-bbbb-cccc-0123456789ab, api error UnauthorizedOperation: You are not authorized to perform this operation. User: arn:aws:sts::111122223333:assumed-role/eks-node-role/i-0a1b2c3d4e5f60006 is not authorized to perform: ec2:DescribeInstances because no identity-based policy allows the ec2:DescribeInstances action` + "\n",
	} {
		code, r, out, errOut := analyze(t, log, "-")
		if code != ExitFindings || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "iam.node-role-policies" {
			t.Errorf("%s: exit %d cause %v\n%s", name, code, r.Diagnosis.MostLikelyCause, errOut)
			continue
		}
		if !strings.Contains(out, "which nodeadm needs for the node name and max pods (1 line, last at stdin:1)") {
			t.Errorf("%s: not the nodeadm explanation of one line:\n%s", name, out)
		}
	}
}

// TestLineMatchedBySeveralSignaturesCountsOnce (red team 10b #14): a line several signatures of
// one finding match (containerd 2.x's pause pull failure: the sandbox, the pull and the EKS
// image signatures) is one line of the finding: two lines pasted say "2 lines", not 8. The image
// named in the registry's URL is the image, not the URL's path.
func TestLineMatchedBySeveralSignaturesCountsOnce(t *testing.T) {
	fail := `failed to get sandbox image \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.10\": failed to pull image \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.10\": failed to pull and unpack image \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.10\": failed to resolve reference \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.10\": unexpected status from HEAD request to https://602401143452.dkr.ecr.us-west-2.amazonaws.com/v2/eks/pause/manifests/3.10: 401 Unauthorized`
	log := `Jun 12 10:05:02 ip-192-168-10-20 containerd[2811]: time="2025-06-12T10:05:02.123456789Z" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:aws-node-8xk2p,Uid:0f6c,Namespace:kube-system,Attempt:0,} failed, error" error="rpc error: code = Unknown desc = ` + fail + `"` + "\n" +
		`Jun 12 10:05:02 ip-192-168-10-20 kubelet[3456]: E0612 10:05:02.124000    3456 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = ` + fail + `"` + "\n"
	code, r, out, errOut := analyze(t, log, "-")
	if code != ExitFindings || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.image-pull" {
		t.Fatalf("exit %d cause %v\n%s", code, r.Diagnosis.MostLikelyCause, errOut)
	}
	if !strings.Contains(out, "(2 lines, last at stdin:2)") {
		t.Errorf("two lines not counted as two:\n%s", out)
	}
	// the registry API URL (/v2/NAME/manifests/REF) names the image NAME:REF, not "NAME/manifests/REF:"
	if strings.Contains(out, "manifests") || !strings.Contains(out, "eks/pause:3.10") {
		t.Errorf("image fact taken from the URL as it is:\n%s", out)
	}
}

// TestRepeatedFullWidthRecordsNotUnfolded (red team 10b #13): bootstrap.sh of 2019 in
// cloud-init-output.log repeats one long aws CLI error, each time followed by its own short line
// ("Attempt 1 of 3", "Exited with error on line 146"). The identical lines are whole records of
// one length, not the first pieces of wrapped ones: the cluster is "prod", not "prodAttempt".
func TestRepeatedFullWidthRecordsNotUnfolded(t *testing.T) {
	denied := "An error occurred (AccessDeniedException) when calling the DescribeCluster operation: User: arn:aws:sts::111122223333:assumed-role/eks-node-role/i-0a1b2c3d4e5f60006 is not authorized to perform: eks:DescribeCluster on resource: arn:aws:eks:us-west-2:111122223333:cluster/prod\n"
	log := "Cloud-init v. 18.2-72.amzn2.0.6 running 'modules:final' at Wed, 12 Jun 2019 10:01:00 +0000. Up 20.12 seconds.\n\n" +
		denied + "Attempt 1 of 3\n\n" + denied + "Attempt 2 of 3\n\n" + denied + "Exited with error on line 146\n"
	code, _, out, errOut := analyze(t, log, "-")
	if code != ExitFindings || strings.Contains(out, "prodAttempt") || strings.Contains(out, "prodExited") || !strings.Contains(out, "(3 lines, last at stdin:9)") {
		t.Errorf("exit %d\n%s\n%s", code, errOut, out)
	}
}
