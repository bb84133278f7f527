package checks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

const host = "ip-10-0-12-34.us-west-2.compute.internal"

// runtimeSamples are one realistic failing line per runtime.* finding (docs/bundle-formats.md §5).
var runtimeSamples = map[string]string{
	"runtime.unauthorized":           `Jul 24 15:30:02 ` + host + ` kubelet[2841]: E0724 15:30:02.118732    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="` + host + `"`,
	"runtime.tls-untrusted":          `Jul 24 15:30:02 ` + host + ` kubelet[2841]: E0724 15:30:02.118732    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \"https://0A1B.gr7.us-west-2.eks.amazonaws.com/api/v1/nodes\": tls: failed to verify certificate: x509: certificate signed by unknown authority"`,
	"runtime.apiserver-timeout":      `Jul 24 15:30:02 ` + host + ` kubelet[2841]: E0724 15:30:02.118732    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \"https://0A1B.gr7.us-west-2.eks.amazonaws.com/api/v1/nodes\": dial tcp 10.0.1.5:443: i/o timeout"`,
	"runtime.node-name-not-found":    `Jul 24 15:30:02 ` + host + ` kubelet[2841]: E0724 15:30:02.118732    2841 kubelet.go:2412] "Error getting node" err="node \"` + host + `\" not found"`,
	"runtime.cni-not-ready":          `Jul 24 15:30:02 ` + host + ` kubelet[2841]: E0724 15:30:02.118732    2841 kubelet.go:2874] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"`,
	"runtime.ipamd-no-ips":           `{"level":"error","ts":"2026-07-24T15:31:04.203Z","caller":"ipamd/ipamd.go:845","msg":"Failed to CreateNetworkInterface for subnet subnet-0abc: InsufficientFreeAddressesInSubnet: insufficient free address to create interface"}`,
	"runtime.ipamd-no-ec2":           `{"level":"error","ts":"2026-07-24T15:31:04.203Z","caller":"awsutils/awsutils.go:420","msg":"Failed to call ec2:DescribeNetworkInterfaces: RequestError: send request failed caused by: Post \"https://ec2.us-west-2.amazonaws.com/\": dial tcp 52.94.1.1:443: i/o timeout"}`,
	"runtime.image-pull":             `Jul 24 15:29:58 ` + host + ` containerd[2101]: time="2026-07-24T15:29:58.771203391Z" level=error msg="PullImage \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.5\" failed" error="failed to resolve reference: unexpected status: 401 Unauthorized"`,
	"runtime.kubelet-crashloop":      `Jul 24 15:30:02 ` + host + ` kubelet[2841]: E0724 15:30:02.118732    2841 run.go:72] "command failed" err="failed to run Kubelet: misconfiguration: kubelet cgroup driver: \"cgroupfs\" is different from docker cgroup driver: \"systemd\""`,
	"runtime.exec-credential-failed": `Jul 24 15:30:02 ` + host + ` kubelet[2841]: E0724 15:30:02.118732    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \"https://0A1B.gr7.us-west-2.eks.amazonaws.com/api/v1/nodes\": getting credentials: exec: executable aws failed with exit code 255"`,
	"runtime.credential-provider":    `Jul 24 15:30:02 ` + host + ` kubelet[2841]: E0724 15:30:02.118732    2841 run.go:72] "command failed" err="failed to register CRI auth plugins: error initializing credential provider plugins: plugin binary executable /etc/eks/image-credential-provider/ecr-credential-provider did not exist"`,
	"runtime.disk-pressure":          `Jul 24 15:29:58 ` + host + ` containerd[2101]: time="2026-07-24T15:29:58.771203391Z" level=error msg="failed to extract layer" error="write /var/lib/containerd/tmpmounts/x: no space left on device"`,
	"runtime.clock-skew":             `Jul 24 15:30:02 ` + host + ` kubelet[2841]: E0724 15:30:02.118732    2841 certificate_manager.go:562] "Unhandled Error" err="x509: certificate has expired or is not yet valid: current time 2019-01-01T00:00:00Z is before 2026-07-24T00:00:00Z"`,
	"runtime.throttled":              `2026-07-24T15:29:40+0000 [eks-bootstrap] INFO: An error occurred (ThrottlingException) when calling the DescribeCluster operation (reached max retries: 2): Rate exceeded`,
	"runtime.windows-ipam-label":     `"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox: plugin type=""vpc-bridge"" failed (add): failed to parse Kubernetes args: pod does not have label vpc.amazonaws.com/PrivateIPv4Address"`,
	"runtime.bootstrap-failed":       `Jul 24 15:29:41 ` + host + ` nodeadm[1893]: fatal cli/main.go:56 Command failed {"error": "Certificate authority is missing in cluster configuration"}`,
}

// healthyJournal is normal startup noise: transient errors before the node registered.
var healthyJournal = strings.Join([]string{
	`Jul 24 15:29:58 ` + host + ` kubelet[2841]: I0724 15:29:58.100000    2841 kubelet_node_status.go:75] "Attempting to register node" node="` + host + `"`,
	runtimeSamples["runtime.node-name-not-found"],
	runtimeSamples["runtime.cni-not-ready"],
	strings.Replace(runtimeSamples["runtime.cni-not-ready"], "15:30:02", "15:30:04", 2), // the kubelet repeats it every few seconds
	`Jul 24 15:30:05 ` + host + ` kubelet[2841]: I0724 15:30:05.100000    2841 kubelet_node_status.go:78] "Successfully registered node" node="` + host + `"`,
	`Jul 24 15:30:25 ` + host + ` kubelet[2841]: I0724 15:30:25.100000    2841 kubelet_node_status.go:710] "Recording event message for node" node="` + host + `" event="NodeReady"`,
}, "\n") + "\n"

// healthyFor is healthyJournal plus one ordinary line of every component whose lines can show
// finding id (its presence literal), so the check has read lines that could have failed it.
func healthyFor(id string) string {
	var b strings.Builder
	b.WriteString(healthyJournal)
	comps := map[string]bool{}
	for _, c := range componentsOf(id) {
		comps[c] = true
	}
	for _, c := range logscan.Components() {
		if comps[c.Name] && len(c.Presence) > 0 {
			b.WriteString("Jul 24 15:31:00 " + host + " " + c.Presence[0] + " normal operation\n")
		}
	}
	return b.String()
}

func withLogs(text string) func(ev *evidence.Evidence) {
	return func(ev *evidence.Evidence) {
		sc := logscan.MustDefault()
		sc.Ref = time.Date(2026, 7, 24, 16, 0, 0, 0, time.UTC)
		if err := sc.Scan(strings.NewReader(text), "journalctl.log", "journal"); err != nil {
			panic(err)
		}
		ev.NodeLogs = sc.Result("bottlerocket")
		ev.Mark(evidence.KindNodeLogs, "bundle:test")
	}
}

// catalogSample returns the first example line of a failure signature naming id.
func catalogSample(id string) string {
	sigs, _, err := logscan.SourceCatalog()
	if err != nil {
		panic(err)
	}
	for _, sg := range sigs {
		if !sg.Normal && sg.Finding == id && len(sg.Examples.Match) > 0 {
			return sg.Examples.Match[0]
		}
	}
	return ""
}

func runtimeCases() []checkCase {
	var out []checkCase
	samples := map[string]string{}
	for id, line := range runtimeSamples {
		samples[id] = line
	}
	for _, c := range Default().All() {
		if _, ok := samples[c.Meta.ID]; !ok && readsLogs(c.Meta) {
			samples[c.Meta.ID] = catalogSample(c.Meta.ID)
		}
	}
	for id, line := range samples {
		silent := "no log lines of"
		if strings.HasPrefix(id, "karpenter.") {
			// judged from Karpenter's objects too: on a node nothing shows Karpenter launched it
			// has nothing to judge; on a Karpenter node the missing object is a gap
			silent = "not applicable: nothing in the evidence shows Karpenter launched this node"
			out = append(out, checkCase{id, "karpenter node, no object and no lines", func(ev *evidence.Evidence) {
				withLogs("an unrelated line\n")(ev)
				ev.Provisioner = evidence.Provisioner{Kind: evidence.ProvisionerKarpenter, Name: "default", Because: "tag karpenter.sh/nodepool"}
			}, StatusSkipped, "missing evidence: kube:"})
		}
		out = append(out,
			// ten lines: more than any signature's minCount (a loop, not a first attempt)
			checkCase{id, "signature", withLogs(strings.Repeat(line+"\n", 10)), StatusFail, ""},
			checkCase{id, "healthy node", withLogs(healthyFor(id)), StatusPass, ""},
			checkCase{id, "no lines of its components", func(ev *evidence.Evidence) {
				withLogs("an unrelated line\n")(ev)
				ev.AWSNode = nil
				ev.AddGapForce(evidence.KindAWSNode, "not collected")
			}, StatusSkipped, silent})
	}
	bottlerocket := func(ca string) func(ev *evidence.Evidence) {
		return func(ev *evidence.Evidence) {
			ev.Bootstrap = &evidence.BootstrapConfig{Format: evidence.FormatBottlerocket, CallsBootstrap: true, ClusterName: "prod", APIServerEndpoint: "https://x.eks.amazonaws.com", CertificateAuthority: ca}
		}
	}
	out = append(out,
		checkCase{"bootstrap.nodeconfig-incomplete", "bottlerocket complete", bottlerocket("Y2E="), StatusPass, "Bottlerocket settings have"},
		checkCase{"bootstrap.nodeconfig-incomplete", "bottlerocket without CA", bottlerocket(""), StatusFail, "settings.kubernetes.cluster-certificate"},
		checkCase{"runtime.node-name-not-found", "repeated, counted", withLogs(strings.Repeat(runtimeSamples["runtime.node-name-not-found"]+"\n", 5)), StatusFail, "5 lines"},
		checkCase{"runtime.cni-not-ready", "transient before NodeReady", withLogs(healthyJournal), StatusPass, "transient"},
		checkCase{"runtime.cni-not-ready", "one line, the log goes on (a node's first seconds)", withLogs(strings.Join([]string{
			`Jul 24 15:29:58 ` + host + ` kubelet[2841]: I0724 15:29:58.100000    2841 kubelet_node_status.go:75] "Attempting to register node" node="` + host + `"`,
			runtimeSamples["runtime.cni-not-ready"],
			`Jul 24 15:30:03 ` + host + ` kubelet[2841]: I0724 15:30:03.100000    2841 factory.go:221] Registration of the containerd container factory successfully`,
			`Jul 24 15:30:03 ` + host + ` kubelet[2841]: I0724 15:30:03.200000    2841 manager.go:309] Recovery completed`,
			`Jul 24 15:30:03 ` + host + ` kubelet[2841]: I0724 15:30:03.300000    2841 kubelet_node_status.go:352] "Setting node annotation to enable volume controller attach/detach"`,
		}, "\n") + "\n"), StatusPass, "fewer than the 2"},
		checkCase{"runtime.cni-not-ready", "one line the log ends with (cut while not ready)", withLogs(strings.Join([]string{
			`Jul 24 15:29:58 ` + host + ` kubelet[2841]: I0724 15:29:58.100000    2841 kubelet_node_status.go:75] "Attempting to register node" node="` + host + `"`,
			runtimeSamples["runtime.cni-not-ready"]}, "\n") + "\n"), StatusFail, "CNI"},
		checkCase{"runtime.cni-not-ready", "IPAM wait the log was cut in a second after it began", withLogs(ipamWait(
			`I0124 01:37:49.320455      14 request.go:621] Throttling request took 1.041851984s, request: GET:https://10.100.0.1:443/apis/external.metrics.k8s.io/v1beta1?timeout=32s`)),
			StatusPass, "the log ends sooner after it than the 30s a healthy start can wait there"},
		checkCase{"runtime.cni-not-ready", "IPAM wait the log ends with", withLogs(ipamWait()), StatusFail, "waiting for its gRPC port"},
		checkCase{"runtime.cni-not-ready", "IPAM wait that lasted", withLogs(ipamWait(
			`{"level":"info","ts":"2022-01-24T01:39:02.000Z","caller":"entrypoint.sh","msg":"Install CNI binaries.."}`)), StatusFail, "waiting for its gRPC port"},
		checkCase{"runtime.apiserver-timeout", "one IPAMD attempt (a first start before kube-proxy)", withLogs(`{"level":"error","ts":"2023-11-21T00:56:46.794Z","caller":"wait/wait.go:222","msg":"Unable to reach API Server, Get \"https://10.100.0.1:443/version?timeout=5s\": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)"}` + "\n"),
			StatusPass, "fewer than the 2"},
		checkCase{"runtime.unauthorized", "after registration is not resolved", withLogs(healthyJournal + strings.Replace(runtimeSamples["runtime.unauthorized"], "15:30:02", "15:40:02", 2) + "\n"), StatusFail, "401"},
	)
	return out
}

// ipamWait is an aws-node container log (v1.10 entrypoint) up to its wait for IPAMD, then more.
func ipamWait(more ...string) string {
	return strings.Join(append([]string{
		`{"level":"info","ts":"2022-01-24T01:37:48.178Z","caller":"entrypoint.sh","msg":"Starting IPAM daemon in the background ... "}`,
		`{"level":"info","ts":"2022-01-24T01:37:48.179Z","caller":"entrypoint.sh","msg":"Checking for IPAM connectivity ... "}`,
	}, more...), "\n") + "\n"
}

func TestRuntimeSignatureLocatesLines(t *testing.T) {
	ev := healthyEvidence()
	withLogs("noise\n" + runtimeSamples["runtime.unauthorized"] + "\nnoise\n" + runtimeSamples["runtime.unauthorized"] + "\n")(ev)
	c, _ := Default().Get("runtime.unauthorized")
	f := Run([]Check{c}, ev)[0]
	if f.Status != StatusFail || !strings.Contains(f.Message, "journalctl.log:4 (2026-07-24T15:30:02Z)") {
		t.Fatalf("got %s %q", f.Status, f.Message)
	}
	if !strings.Contains(f.Evidence[0].Text, "first journalctl.log:2") || !strings.Contains(f.Evidence[0].Text, "last journalctl.log:4") {
		t.Fatalf("evidence %q", f.Evidence[0].Text)
	}
}

// TestEndedTestimonyPasses: failure lines that are all kubelet events which stopped repeating
// (SignatureHit.Ended) make the finding pass, saying why; one live hit among them keeps it failing.
func TestEndedTestimonyPasses(t *testing.T) {
	hit := func(name, ended string) evidence.SignatureHit {
		return evidence.SignatureHit{Signature: name, Component: "kubelet", Finding: "runtime.cni-not-ready", Meaning: "the container network is not ready",
			Count: 1, First: evidence.LogLine{Path: "stdin", Line: 4}, Last: evidence.LogLine{Path: "stdin", Line: 4}, Ended: ended}
	}
	c, _ := Default().Get("runtime.cni-not-ready")
	for _, tc := range []struct {
		name string
		hits []evidence.SignatureHit
		want Status
		msg  string
	}{
		{"all ended", []evidence.SignatureHit{hit("a", "its lines are kubelet NetworkNotReady events that stopped")}, StatusPass, "stopped: over"},
		{"one live", []evidence.SignatureHit{hit("a", "its lines are kubelet NetworkNotReady events that stopped"), hit("b", "")}, StatusFail, "not ready"},
	} {
		ev := healthyEvidence()
		withLogs("noise\n")(ev)
		ev.NodeLogs.Hits = tc.hits
		f := Run([]Check{c}, ev)[0]
		if f.Status != tc.want || !strings.Contains(f.Message, tc.msg) {
			t.Errorf("%s: got %s %q", tc.name, f.Status, f.Message)
		}
	}
}

// TestListedReadyNodeEndsTestimony: the kubelet logged "cni plugin not initialized" after it
// registered and the log ends there, but the node list pasted with it shows that Node Ready: the
// CNI lines were the node's first seconds. Another node's readiness, or no readiness, leaves the
// failure standing.
func TestListedReadyNodeEndsTestimony(t *testing.T) {
	log := "Jul 24 15:30:01 ip-10-0-1-2 kubelet[2289]: I0724 15:30:01.701486    2289 kubelet_node_status.go:78] \"Successfully registered node\" node=\"ip-10-0-1-2.ec2.internal\"\n"
	for i := 0; i < 6; i++ {
		log += fmt.Sprintf("Jul 24 15:3%d:02 ip-10-0-1-2 kubelet[2289]: E0724 15:3%d:02.271772    2289 kubelet.go:3117] \"Container runtime network not ready\" networkReady=\"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\"\n", i, i)
	}
	c, _ := Default().Get("runtime.cni-not-ready")
	for _, tc := range []struct {
		name  string
		nodes []evidence.Node
		want  Status
	}{
		{"listed Ready", []evidence.Node{{Name: "ip-10-0-1-2.ec2.internal", Ready: true}}, StatusPass},
		{"listed NotReady", []evidence.Node{{Name: "ip-10-0-1-2.ec2.internal"}}, StatusFail},
		{"another node Ready", []evidence.Node{{Name: "ip-10-0-9-9.ec2.internal", Ready: true}}, StatusFail},
	} {
		ev := &evidence.Evidence{}
		withLogs(log)(ev)
		ev.Nodes = tc.nodes
		ev.Mark(evidence.KindNodes, "paste:test")
		f := Run([]Check{c}, ev)[0]
		if f.Status != tc.want {
			t.Errorf("%s: got %s %q, want %s", tc.name, f.Status, f.Message, tc.want)
		}
	}
}

// TestSymptomOnlyIsInconclusive: a tool's "NodeCreationFailure: Instances failed to join" only
// says the nodes did not join: alone it makes the run inconclusive, naming the symptom and the
// checks that could have named the cause; a health code that names a cause
// (Ec2SecurityGroupNotFound), or a cause failing beside the symptom, is cause-found.
func TestSymptomOnlyIsInconclusive(t *testing.T) {
	const symptom = "Error: waiting for EKS Node Group (prod:ng-1) create: unexpected state 'CREATE_FAILED', wanted target 'ACTIVE'. last error: 1 error occurred:\n\t* i-0a1b2c3d4e5f60001: NodeCreationFailure: Instances failed to join the kubernetes cluster\n"
	const cause = "Error: waiting for EKS Node Group (prod:ng-1) create: unexpected state 'CREATE_FAILED', wanted target 'ACTIVE'. last error: 1 error occurred:\n\t* sg-0123456789abcdef0: Ec2SecurityGroupNotFound: The security group sg-0123456789abcdef0 does not exist\n"
	const unauthorized = "Jul 24 15:30:01 ip-10-0-1-2 kubelet[2289]: E0724 15:30:01.701486    2289 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-2.ec2.internal\"\n"
	metas := map[string]Meta{}
	for _, c := range Default().All() {
		metas[c.Meta.ID] = c.Meta
	}
	for _, tc := range []struct {
		name, log, top string
		want           Verdict
	}{
		{"NodeCreationFailure alone", symptom, "nodegroup.health-issues", VerdictInconclusive},
		{"a health code naming a cause", cause, "nodegroup.health-issues", VerdictCauseFound},
		{"the symptom beside a cause", symptom + unauthorized + unauthorized + unauthorized, "runtime.unauthorized", VerdictCauseFound},
	} {
		ev := &evidence.Evidence{}
		withLogs(tc.log)(ev)
		d := Conclude(Run(Default().All(), ev), metas, ev)
		if d.Verdict != tc.want || d.MostLikelyCause != tc.top {
			t.Errorf("%s: verdict %s, cause %q (%s); want %s, %s", tc.name, d.Verdict, d.MostLikelyCause, d.Summary, tc.want, tc.top)
		}
		if tc.want == VerdictInconclusive && (!strings.HasPrefix(d.Summary, "inconclusive: only a symptom failed (Managed node group reports health issues: ") || len(d.Unchecked) == 0) {
			t.Errorf("%s: summary %q, %d unchecked", tc.name, d.Summary, len(d.Unchecked))
		}
	}
}

// TestWorkloadProgressEndsStartupFailures: the kubelet's own account that the node works after
// a failure ends it — aws-node passing its readiness probe ends "cni plugin not initialized",
// a pod's container starting or the Node registering ends a throttled call its start-up
// retried (red team 3, F9). Without those lines both still fail.
func TestWorkloadProgressEndsStartupFailures(t *testing.T) {
	const cni = `Nov 18 08:14:33 ip-10-42-47-183.eu-west-1.compute.internal kubelet[3040]: E1118 08:14:33.577738    3040 kubelet.go:2902] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"` + "\n"
	const probe = `Nov 18 08:16:42 ip-10-42-47-183.eu-west-1.compute.internal kubelet[3040]: I1118 08:16:42.988524    3040 kubelet.go:2474] "SyncLoop (probe)" probe="readiness" status="ready" pod="kube-system/aws-node-s4j44"` + "\n"
	const throttle = `Nov 14 10:22:17 ip-10-10-71-36.ap-southeast-2.compute.internal kubelet[2906]: E1114 10:22:17.634386    4240 main.go:212] Error running credential provider plugin: operation error ECR: GetAuthorizationToken, exceeded maximum number of attempts, 3, https response error StatusCode: 400, RequestID: fb90a633-d7aa-ef72-1a0c-bafd5df9e01e, api error ThrottlingException: Rate exceeded` + "\n"
	const started = `Nov 14 10:22:28 ip-10-10-71-36.ap-southeast-2.compute.internal kubelet[2906]: I1114 10:22:28.634386    2906 kubelet.go:2439] "SyncLoop (PLEG): event for pod" pod="analytics/airflow-worker-0" event={"ID":"e2e54f91-9901-42cf-ac16-2e48d18a8b84","Type":"ContainerStarted","Data":"cc9d9009ca186bd96fd63d043a40d441d45763a121c97c1fa4ae6add625bfe1c"}` + "\n"
	for _, tc := range []struct {
		id, log string
		want    Status
	}{
		{"runtime.cni-not-ready", strings.Repeat(cni, 6), StatusFail},
		{"runtime.cni-not-ready", strings.Repeat(cni, 6) + probe, StatusPass},
		{"runtime.throttled", throttle, StatusFail},
		{"runtime.throttled", throttle + started, StatusPass},
		{"runtime.throttled", `Jul 24 15:29:30 ip-10-0-12-34 cloud-init[1200]: An error occurred (ThrottlingException) when calling the DescribeCluster operation (reached max retries: 4): Rate exceeded` + "\n" +
			`Jul 24 15:29:52 ip-10-0-12-34 kubelet[2841]: I0724 15:29:52.000000    2841 kubelet_node_status.go:78] "Successfully registered node" node="ip-10-0-12-34.ec2.internal"` + "\n", StatusPass},
	} {
		c, _ := Default().Get(tc.id)
		ev := &evidence.Evidence{}
		withLogs(tc.log)(ev)
		if f := Run([]Check{c}, ev)[0]; f.Status != tc.want {
			t.Errorf("%s over %d lines: %s %q, want %s", tc.id, strings.Count(tc.log, "\n"), f.Status, f.Message, tc.want)
		}
	}
}

// TestAnotherNodesLinesAreNotTheTargets: with the instance known, failure lines that name only
// another node, in logs that also show the instance's own node registering, are not the
// instance's cause; the run is joined and Ready (red team 4). Lines of one node whatever its
// name are judged as before.
func TestAnotherNodesLinesAreNotTheTargets(t *testing.T) {
	own := `Nov 24 09:41:12 ` + tNode + ` kubelet[3187]: I1124 09:41:12.483117    3187 kubelet_node_status.go:78] "Successfully registered node" node="` + tNode + `"` + "\n" +
		`Nov 24 09:41:30 ` + tNode + ` kubelet[3187]: I1124 09:41:30.000000    3187 kubelet_node_status.go:493] "Recording event message for node" node="` + tNode + `" event="NodeReady"` + "\n"
	var other string
	for m := 42; m < 47; m++ {
		other += fmt.Sprintf(`Nov 24 09:%d:00 ip-10-0-33-12 kubelet[2841]: E1124 09:%d:00.000000    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-33-12.eu-west-1.compute.internal"`+"\n", m, m)
	}
	c, _ := Default().Get("runtime.unauthorized")
	metas := map[string]Meta{}
	for _, ch := range Default().All() {
		metas[ch.Meta.ID] = ch.Meta
	}
	ev := healthyEvidence()
	ev.Nodes, ev.NodesPartial = nil, false
	ev.AddGapForce(evidence.KindNodes, "test")
	withLogs(own + other)(ev)
	f := Run([]Check{c}, ev)[0]
	if f.Status != StatusSkipped || !strings.Contains(f.Message, "not a cause: the lines naming runtime.unauthorized are those of node ip-10-0-33-12") {
		t.Errorf("%s %q", f.Status, f.Message)
	}
	if n := JoinedNode(ev); n == nil || !n.Ready {
		t.Errorf("joined node %+v, want %s Ready", n, tNode)
	}
	ev = healthyEvidence()
	withLogs(other)(ev)
	if f := Run([]Check{c}, ev)[0]; f.Status != StatusFail {
		t.Errorf("one node's log: %s %q", f.Status, f.Message)
	}
}

// TestSymptomRanksAfterCauses: a node group's NodeCreationFailure (a symptom) ranks after any
// failure that names a cause, whatever their stages (red team 4: it was "why it is not Ready"
// ahead of the CNI that never came up).
func TestSymptomRanksAfterCauses(t *testing.T) {
	metas := map[string]Meta{}
	for _, c := range Default().All() {
		metas[c.Meta.ID] = c.Meta
	}
	ncf := Finding{ID: "nodegroup.health-issues", Status: StatusFail, Symptom: true}
	cni := Finding{ID: "runtime.cni-not-ready", Status: StatusFail}
	for _, order := range [][]Finding{{ncf, cni}, {cni, ncf}} {
		if d := Diagnose(order, metas); d.MostLikelyCause != "runtime.cni-not-ready" {
			t.Errorf("ranked %v", d.Ranked)
		}
	}
	if d := Diagnose([]Finding{{ID: "nodegroup.health-issues", Status: StatusFail}, cni}, metas); d.MostLikelyCause != "nodegroup.health-issues" {
		t.Errorf("a health code naming a cause: ranked %v", d.Ranked)
	}
}

// TestMappingEvidenceOverOlderNotMappedLine: the authenticator's "ARN is not mapped" for the node
// role, logged before the evidence that maps the role was collected, does not make
// auth.role-not-mapped claim the role is mapped nowhere: it warns that the line predates the
// mapping. A line after the collection, or one naming another role, still fails.
func TestMappingEvidenceOverOlderNotMappedLine(t *testing.T) {
	hit := func(at time.Time, arn string) evidence.SignatureHit {
		l := evidence.LogLine{Path: "logs/authenticator-events.json", Line: 2, Time: at,
			Text: `level=warning msg="access denied" arn="` + arn + `" error="ARN is not mapped" path=/authenticate`}
		return evidence.SignatureHit{Signature: "authenticator-arn-not-mapped", Component: "authenticator", Finding: "auth.role-not-mapped",
			Meaning: "the authenticator verified the node's IAM identity but neither aws-auth mapRoles nor an access entry maps it, so the API server answers 401",
			Count:   1, First: l, Last: l, Facts: map[string][]string{"roleArn": {arn}}}
	}
	c, _ := Default().Get("auth.role-not-mapped")
	for _, tc := range []struct {
		name string
		hit  evidence.SignatureHit
		want Status
		msg  string
	}{
		{"older line, node role", hit(tNow.Add(-17*time.Minute), tRole), StatusWarn,
			"predates the evidence collected at " + tNow.UTC().Format(time.RFC3339) + ", which maps the role"},
		{"older line, node role's session", hit(tNow.Add(-17*time.Minute), "arn:aws:sts::111122223333:assumed-role/node/i-1"), StatusWarn, "predates the evidence"},
		{"later line", hit(tNow.Add(5*time.Minute), tRole), StatusFail, "the evidence collected at " + tNow.UTC().Format(time.RFC3339) + ", before this line, maps the role"},
		{"another role", hit(tNow.Add(-17*time.Minute), "arn:aws:iam::111122223333:role/other-node"), StatusFail, "neither aws-auth mapRoles nor an access entry maps it"},
	} {
		ev := healthyEvidence()
		withLogs("noise\n")(ev)
		ev.NodeLogs.Hits = []evidence.SignatureHit{tc.hit}
		var got *Finding
		for _, f := range Run([]Check{c}, ev) {
			if f.Status != StatusPass {
				f := f
				got = &f
			}
		}
		if got == nil || got.Status != tc.want || !strings.Contains(got.Message, tc.msg) {
			t.Errorf("%s: got %+v, want %s containing %q", tc.name, got, tc.want, tc.msg)
		}
	}
}

// TestAuthenticatorDeniedOfAMappedRole: the authenticator denied the node role, but the collected
// aws-auth maps it: the denial stays the finding, and its fix no longer tells the operator to
// create the mapping (create-access-entry would fail with ResourceInUseException) but says the
// role is mapped in the evidence and what to compare. An unmapped role keeps the mapping fix.
func TestAuthenticatorDeniedOfAMappedRole(t *testing.T) {
	at := tNow.Add(-17 * time.Minute)
	l := evidence.LogLine{Path: "logs/authenticator-events.json", Line: 2, Time: at,
		Text: `level=warning msg="access denied" arn="` + tRole + `" error="ARN is not mapped" path=/authenticate`}
	hit := evidence.SignatureHit{Signature: "authenticator-access-denied", Component: "authenticator", Finding: "auth.authenticator-denied",
		Meaning: "the control plane's authenticator refused this identity", Count: 1, First: l, Last: l,
		Facts: map[string][]string{"roleArn": {tRole}, "detail": {"ARN is not mapped"}}}
	c, _ := Default().Get("auth.authenticator-denied")
	for _, tc := range []struct {
		name        string
		mod         func(ev *evidence.Evidence)
		msg, remedy string
	}{
		{"mapped", nil, "the evidence collected at " + tNow.UTC().Format(time.RFC3339) + " maps this role (aws-auth mapRoles entry 1, access entry type EC2_LINUX)",
			"The role is already mapped"},
		{"not mapped", func(ev *evidence.Evidence) { ev.AWSAuth.Roles, ev.AccessEntries = nil, nil }, "refused this identity", "Map the ARN the log names"},
	} {
		ev := healthyEvidence()
		withLogs("noise\n")(ev)
		ev.NodeLogs.Hits = []evidence.SignatureHit{hit}
		if tc.mod != nil {
			tc.mod(ev)
		}
		f := Run([]Check{c}, ev)[0]
		if f.Status != StatusFail || !strings.Contains(f.Message, tc.msg) || !strings.HasPrefix(f.Remediation, tc.remedy) {
			t.Errorf("%s: got %s %q fix %q", tc.name, f.Status, f.Message, f.Remediation)
		}
	}
}

// TestAuthenticatorDeniedOfOtherIdentities: a control plane's authenticator log is the whole
// cluster's. When the node's role is known — collected (instance profile) or seen in the same log
// mapped to system:node:… — and every identity refused is another role (a CI role, an SSO
// user), the denial is not this node's: a pass naming them (blind pastes14/12). A refused
// node role, an instance's session of another role, or no known node role still fail.
func TestAuthenticatorDeniedOfOtherIdentities(t *testing.T) {
	const (
		ci      = "arn:aws:iam::111122223333:role/jenkins-agent-search"
		node    = "arn:aws:iam::111122223333:role/search-prod-node-role"
		granted = `time="2025-11-03T10:03:07Z" level=info msg="access granted" arn="` + node + `" client="127.0.0.1:34120" groups="[system:nodes]" method=POST path=/authenticate username="system:node:ip-10-90-44-17.us-west-2.compute.internal"` + "\n"
	)
	denied := func(arn string) string {
		return `time="2025-11-03T10:02:11Z" level=warning msg="access denied" arn="` + arn + `" client="127.0.0.1:33718" error="ARN is not mapped" method=POST path=/authenticate` + "\n"
	}
	c, _ := Default().Get("auth.authenticator-denied")
	for _, tc := range []struct {
		name, logs string
		profile    bool // the instance profile names the node role
		want       Status
	}{
		{"CI role denied, node granted", denied(ci) + granted, false, StatusPass},
		{"CI role denied, node role collected", denied(ci), true, StatusPass},
		{"node role denied", denied(node) + granted, false, StatusFail},
		{"an instance's session of another role", denied("arn:aws:sts::111122223333:assumed-role/other-node-role/i-0a4f2c87e1d93b560") + granted, false, StatusFail},
		{"no node role known", denied(ci), false, StatusFail},
	} {
		ev := healthyEvidence()
		if !tc.profile {
			ev.InstanceProfile, ev.NodeRole = nil, nil
		}
		withLogs(tc.logs)(ev)
		f := Run([]Check{c}, ev)[0]
		if f.Status != tc.want {
			t.Errorf("%s: got %s %q, want %s", tc.name, f.Status, f.Message, tc.want)
		}
		if tc.want == StatusPass && (!strings.Contains(f.Message, "refused only other identities ("+ci+")") || !tc.profile && !strings.Contains(f.Message, node)) {
			t.Errorf("%s: message %q", tc.name, f.Message)
		}
	}
}
