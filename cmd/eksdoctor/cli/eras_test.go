package cli

import (
	"strings"
	"testing"
)

// TestComponentEraWordings (red team 10b): the same fault as older and newer releases of a
// component print it, pasted alone, gives the same finding, exit code and explanation.
func TestComponentEraWordings(t *testing.T) {
	retrying := `{"level":"info","ts":"2022-12-12T10:05:04.300Z","caller":"entrypoint.sh","msg":"Retrying waiting for IPAM-D"}` + "\n"
	v112Start := `{"level":"info","ts":"2022-12-12T10:05:02.200Z","caller":"entrypoint.sh","msg":"Starting IPAM daemon in the background ... "}` + "\n" +
		`{"level":"info","ts":"2022-12-12T10:05:02.300Z","caller":"entrypoint.sh","msg":"Checking for IPAM connectivity ... "}` + "\n"
	// VPC CNI v1.6.0 scripts/entrypoint.sh: plain echo, lower case, the outcome on the line
	v160Failed := "starting IPAM daemon in background ... ok.\nchecking for IPAM connectivity ...  failed.\ntimed out waiting for IPAM daemon to start.\n"
	cases := []struct {
		name, input string
		code        int
		want        []string
		msg         string // in the message of the first wanted finding
	}{
		// #7: the v1.10-v1.12 entrypoint's wait loop, still retrying when the log ends, is the wait
		// the "Checking …" line alone already shows unfinished
		{"v1.12 entrypoint still retrying at the end", v112Start + strings.Repeat(retrying, 4), 1, []string{"runtime.cni-not-ready"}, "keeps waiting for IPAMD"},
		{"v1.12 entrypoint retrying, then IPAMD answered", v112Start + strings.Repeat(retrying, 2) +
			`{"level":"info","ts":"2022-12-12T10:05:06.300Z","caller":"entrypoint.sh","msg":"Copying config file ... "}` + "\n" +
			`{"level":"info","ts":"2022-12-12T10:05:06.310Z","caller":"entrypoint.sh","msg":"Successfully copied CNI plugin binary and config file."}` + "\n" +
			`{"level":"info","ts":"2022-12-12T10:05:06.320Z","caller":"entrypoint.sh","msg":"Foregrounding IPAM daemon ..."}` + "\n", 3, nil, ""},
		// #5: v1.6.0's lower-case output is aws-node's: one failed wait is a restart (as its
		// capitalised v1.6.3 form), a second one is the loop
		{"v1.6.0 entrypoint one failed wait", v160Failed, 3, nil, ""},
		{"v1.6.0 entrypoint failing on restart", v160Failed + v160Failed, 1, []string{"runtime.cni-not-ready"}, "gave up waiting for IPAMD"},
		// #10: pluto's EC2 and EKS timeouts inside sundog's report name the network cause, as
		// bootstrap.sh's connect timeout to the EKS endpoint does
		{"Bottlerocket pluto EC2 timeout", "Jun 12 10:06:05.523456 localhost sundog[1400]: Setting generator 'pluto hostname-override' failed with exit code 1 - stderr: Timed out retrieving private DNS name from EC2: deadline has elapsed\n" +
			"Jun 12 10:06:05.530000 localhost systemd[1]: sundog.service: Main process exited, code=exited, status=1/FAILURE\n", 1, []string{"runtime.bootstrap-failed"}, "no route or VPC endpoint to the EC2 API"},
		{"Bottlerocket pluto EKS describe timeout", "Jun 12 10:06:05.523456 localhost sundog[1400]: Setting generator 'pluto cluster-dns-ip' failed with exit code 1 - stderr: Timed-out waiting for EKS Describe Cluster API response: deadline has elapsed\n", 1, []string{"runtime.bootstrap-failed"}, "no NAT and no eks interface endpoint"},
		{"Bottlerocket pluto EKS connection timeout", "Jun 12 10:03:05.523456 localhost sundog[1400]: Setting generator 'pluto cluster-dns-ip' failed with exit code 1 - stderr: Error describing cluster: HttpDispatch: Error during dispatch: connection timed out\n", 1, []string{"runtime.bootstrap-failed"}, "no NAT and no eks interface endpoint"},
		// #11: IPAMD's client failure is printed by v1.5 to v1.7.x (moved to k8sutils in v1.8);
		// with a network error it is the API server timeout v1.5's "Failed to communicate with K8S
		// Server" and v1.11's "Failed to check API server connectivity" report (red team 14)
		{"VPC CNI 1.7 API server client failure", "2020-03-12T10:05:02Z [INFO]	Testing communication with server\n2020-03-12T10:05:34Z [ERROR]	Failed to create client: error communicating with apiserver: Get https://172.20.0.1:443/version?timeout=32s: dial tcp 172.20.0.1:443: i/o timeout\n", 1, []string{"runtime.apiserver-timeout", "runtime.cni-not-ready"}, "IPAMD (VPC CNI 1.7 and earlier) cannot reach the API server"},
		{"VPC CNI 1.11 API server connectivity failure", `{"level":"error","ts":"2022-03-12T10:05:34.101Z","caller":"aws-k8s-agent/main.go:40","msg":"Failed to check API server connectivity: error communicating with apiserver: Get \"https://172.20.0.1:443/version?timeout=32s\": dial tcp 172.20.0.1:443: i/o timeout"}` + "\n", 1, []string{"runtime.apiserver-timeout"}, "IPAMD cannot reach the API server"},
		// IPAMD 1.6 to 1.15 without an ENIConfig for the node print only this, on every reconcile
		{"VPC CNI 1.7 custom networking without ENIConfig", strings.Repeat(`{"level":"error","ts":"2021-02-27T22:54:08.373Z","caller":"ipamd/ipamd.go:670","msg":"Failed to get pod ENI config"}`+"\n", 2), 1, []string{"runtime.ipamd-no-ips"}, "no ENIConfig"},
		// aws-node 1.6 to 1.11's entrypoint when IPAMD has exited (v1.12 on: "Failed to wait for
		// IPAM daemon to complete")
		{"VPC CNI 1.7 entrypoint IPAMD terminated", `{"level":"info","ts":"2021-06-15T13:04:00.415Z","caller":"entrypoint.sh","msg":"Foregrounding IPAM daemon ..."}` + "\n" +
			`{"level":"error","ts":"2021-06-15T13:04:00.990Z","caller":"entrypoint.sh","msg":"failed (process terminated)"}` + "\n", 1, []string{"runtime.cni-not-ready"}, "IPAMD exited"},
		// the kubelet's stray argument as 1.20 (klog.Fatalf) and the main branch after 1.33
		// (returned to cli.Run) print it
		{"kubelet 1.20 unknown command", "F1114 04:10:31.504409    4796 server.go:157] unknown command: corp.example.com\n", 1, []string{"runtime.kubelet-crashloop"}, "not a flag"},
		{"kubelet main-branch unknown command", `E1114 04:10:31.504409    4796 run.go:74] "command failed" err="unknown command corp.example.com"` + "\n", 1, []string{"runtime.kubelet-crashloop"}, "not a flag"},
		{"Bottlerocket other generator failure stays generic", "Jun 12 10:03:05.523456 localhost sundog[1400]: Setting generator 'pluto max-pods' failed with exit code 1 - stderr: Failed to parse setting max-pods as u32\n", 1, []string{"runtime.bootstrap-failed"}, "setting generator"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, r, out, stderr := analyze(t, tc.input, "-")
			if out == "" {
				t.Fatalf("no report (exit %d): %s", code, stderr)
			}
			if strings.Contains(stderr, "prose") || strings.Contains(stderr, "unrecognised") {
				t.Errorf("not read as the component's log: %s", stderr)
			}
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if got := failing(r); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("failing %v, want %v", got, want)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if tc.msg == "" {
				return
			}
			for _, f := range r.Findings {
				if f.ID == tc.want[0] && f.Status == "fail" && !strings.Contains(f.Message, tc.msg) {
					t.Errorf("%s message %q, want it to say %q", f.ID, f.Message, tc.msg)
				}
			}
		})
	}
}

// TestContainerRuntimeFromBootstrapLog (red team 10b #9): bootstrap.sh's own "Using kubelet
// version" line (the 2022 plain echo and the 2023 log form) is the kubelet version
// bootstrap.container-runtime judges --container-runtime against, and its refusal is that
// check's failure, not a generic bootstrap failure.
func TestContainerRuntimeFromBootstrapLog(t *testing.T) {
	ud := "#!/bin/bash\nset -o xtrace\n/etc/eks/bootstrap.sh prod --container-runtime dockerd\n\n"
	cases := []struct{ name, log, ver string }{
		{"2022 echo", "Cloud-init v. 19.3-45.amzn2 running 'modules:final' at Wed, 12 Oct 2022 10:01:00 +0000. Up 20.12 seconds.\nUsing kubelet version 1.24.7\ntrue\nERROR: containerd is the only supported container runtime as of Kubernetes version 1.24\nExited with error on line 212\n", "1.24"},
		{"2023 log", "2023-11-12T10:01:00+0000 [eks-bootstrap] INFO: Using kubelet version 1.28.3\n2023-11-12T10:01:01+0000 [eks-bootstrap] ERROR: containerd is the only supported container runtime as of Kubernetes version 1.24\nExited with error on line 207\n", "1.28"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, r, out, stderr := analyze(t, ud+"$ cat /var/log/cloud-init-output.log\n"+tc.log, "-")
			if out == "" {
				t.Fatalf("no report (exit %d): %s", code, stderr)
			}
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "bootstrap.container-runtime" {
				got := "none"
				if r.Diagnosis.MostLikelyCause != nil {
					got = *r.Diagnosis.MostLikelyCause
				}
				t.Errorf("most likely cause %s, want bootstrap.container-runtime (failing %v)", got, failing(r))
			}
			found := false
			for _, f := range r.Findings {
				if f.ID == "bootstrap.container-runtime" {
					found = true
					if f.Status != "fail" || !strings.Contains(f.Message, "--container-runtime dockerd on a "+tc.ver+" kubelet") {
						t.Errorf("bootstrap.container-runtime %s %q", f.Status, f.Message)
					}
				}
			}
			if !found {
				t.Errorf("no bootstrap.container-runtime finding")
			}
		})
	}
}
