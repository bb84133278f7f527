package cli

import (
	"strings"
	"testing"
)

// TestFieldGrammarClasses: lines shaped as the components print them (their own source's wording,
// not a corpus case's), pasted alone, yield the finding of the state they show; the healthy
// continuation of each yields none.
func TestFieldGrammarClasses(t *testing.T) {
	awsNodeStart := `time="2026-07-24T15:29:55Z" level=info msg="Install CNI binaries.."` + "\n" +
		`time="2026-07-24T15:29:55Z" level=info msg="Starting IPAM daemon... "` + "\n" +
		`time="2026-07-24T15:29:55Z" level=info msg="Checking for IPAM connectivity... "` + "\n"
	cases := []struct {
		name, input string
		want        []string
	}{
		// aws-node waits for IPAMD's gRPC port; the log stopping there is the stuck state
		{"aws-node stuck waiting for IPAMD", awsNodeStart, []string{"runtime.cni-not-ready"}},
		{"aws-node reached IPAMD", awsNodeStart + `time="2026-07-24T15:30:01Z" level=info msg="Copying config file... "` + "\n" +
			`time="2026-07-24T15:30:01Z" level=info msg="Successfully copied CNI plugin binary and config file."` + "\n", nil},
		// the old entrypoint.sh prints the outcome on the same line: one failed wait is a restart
		{"entrypoint one failed wait", "Checking for IPAM connectivity ...  failed.\nTimed out waiting for IPAM daemon to start:\n", nil},
		// kubectl get pods -n kube-system: an aws-node pod that cannot run
		{"get pods: aws-node crash-looping", "NAME                       READY   STATUS             RESTARTS   AGE\naws-node-8x7kq             0/1     CrashLoopBackOff   6          12m\ncoredns-5c5677bc78-k2v4x   0/1     ContainerCreating  0          12m\nkube-proxy-4tx9z           1/1     Running            0          12m\n", []string{"runtime.cni-not-ready"}},
		{"v1.6 entrypoint reached IPAMD", "Starting IPAM daemon in the background ... ok.\nChecking for IPAM connectivity ... ok.\nCopying additional CNI plugin binaries and config files ... ok.\n", nil},
		// IPAMD's pool held nothing when a pod asked (prefix delegation without a free /28)
		{"ipamd pool empty on assign", `{"level":"debug","ts":"2026-07-24T15:31:04.203Z","caller":"datastore/data_store.go:786","msg":"AssignPodIPv4Address: IP address pool stats: total 0, assigned 0"}` + "\n" +
			`{"level":"error","ts":"2026-07-24T15:31:04.203Z","caller":"datastore/data_store.go:858","msg":"DataStore has no available IP/Prefix addresses"}` + "\n", []string{"runtime.ipamd-no-ips"}},
		{"ipamd pool full of pods", `{"level":"info","ts":"2026-07-24T15:30:04.203Z","caller":"ipamd/ipamd.go:1290","msg":"Successfully increased IP pool, total: 6, used: 0"}` + "\n" + `{"level":"debug","ts":"2026-07-24T15:31:04.203Z","caller":"datastore/data_store.go:786","msg":"AssignPodIPv4Address: IP address pool stats: total 6, assigned 5"}` + "\n", nil},
		// the start-up allocation of one IP failed: the init failure names IP allocation
		{"ipamd init cannot allocate one IP", `{"level":"error","ts":"2026-07-24T15:30:40.101Z","caller":"aws-k8s-agent/main.go:152","msg":"Initialization failure: failed to allocate one IP addresses on ENI eni-0a1b2c3d4e5f60718, err: allocate IP address: failed to allocate a private IP address: InsufficientFreeAddressesInSubnet"}` + "\n", []string{"runtime.ipamd-no-ips"}},
		// ... because EC2 throttled the call: throttling, not the subnet (red team 6, case 27)
		{"ipamd init throttled", `{"level":"error","ts":"2026-07-24T15:30:40.101Z","caller":"aws-k8s-agent/main.go:152","msg":"Initialization failure: failed to allocate one IP addresses on ENI eni-0a1b2c3d4e5f60718, err: allocate IP address: failed to allocate a private IP address: RequestLimitExceeded"}` + "\n", []string{"runtime.throttled"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, r, out, stderr := analyze(t, tc.input, "-")
			if out == "" {
				t.Fatalf("no report (exit %d): %s", code, stderr)
			}
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if got := failing(r); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("failing %v, want %v", got, want)
			}
		})
	}
}

// TestFieldGrammarRustDiagnostic: Bottlerocket's TOML error pasted as printed (the toml crate
// quotes the tokens it expected in backticks) is read as the component's output.
func TestFieldGrammarRustDiagnostic(t *testing.T) {
	in := "Unable to serialize settings from instance user data: Error parsing TOML user data: TOML parse error at line 1, column 13\nexpected `.`, `=`\n"
	_, r, out, stderr := analyze(t, in, "-")
	if out == "" {
		t.Fatalf("no report: %s", stderr)
	}
	if got := strings.Join(failing(r), ","); got != "bootstrap.userdata-unparseable" {
		t.Fatalf("failing %s", got)
	}
}

// TestFieldGrammarAWSAuthFragments: what a pasted piece of aws-auth shows, and what it cannot.
func TestFieldGrammarAWSAuthFragments(t *testing.T) {
	cases := []struct {
		name, input string
		want        []string
	}{
		// the authenticator keeps the last entry for an ARN; one in system:masters lacks no
		// permission (RBAC admits the group to everything), its username is what breaks the node
		{"node role remapped to an admin username", "mapRoles: |\n  - rolearn: arn:aws:iam::111122223333:role/node\n    username: system:node:{{EC2PrivateDNSName}}\n    groups:\n      - system:bootstrappers\n      - system:nodes\n  - rolearn: arn:aws:iam::111122223333:role/node\n    username: ops\n    groups:\n      - system:masters\n",
			[]string{"auth.wrong-username"}},
		// a fragment starting inside an entry: the keys above the cut are out of view, not missing
		{"fragment cut inside the first entry", `  "rolearn": "arn:aws:iam::111122223333:role/eks/nodes/a"` + "\n" + `  "username": "system:node:{{EC2PrivateDNSName}}"` + "\n" +
			`- "groups":` + "\n" + `  - "system:bootstrappers"` + "\n" + `  - "system:nodes"` + "\n" + `  "rolearn": "arn:aws:iam::111122223333:role/b"` + "\n" + `  "username": "system:node:{{EC2PrivateDNSName}}"` + "\n",
			[]string{"auth.role-path"}},
		// a whole entry without groups is still judged
		{"entry without groups", `- "rolearn": "arn:aws:iam::111122223333:role/a"` + "\n" + `  "username": "system:node:{{EC2PrivateDNSName}}"` + "\n",
			[]string{"auth.missing-groups"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, r, out, stderr := analyze(t, tc.input, "-")
			if out == "" {
				t.Fatalf("no report (exit %d): %s", code, stderr)
			}
			if got := failing(r); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("failing %v, want %v", got, tc.want)
			}
		})
	}
}

// TestFieldGrammarNodeRestriction: NodeRestriction names the kubelet's identity and the Node it
// tried to write. An identity that is a DNS name is what {{EC2PrivateDNSName}} renders: the mapping
// works and the kubelet registers under another name. A bare name (an instance ID from
// {{SessionName}}, a fixed username) is the mapping's username.
func TestFieldGrammarNodeRestriction(t *testing.T) {
	line := func(identity string) string {
		return `Apr 12 17:38:41 ip-10-0-248-163.us-west-2.compute.internal kubelet[1233]: E0412 17:38:41.561272    1233 kubelet_node_status.go:92] "Unable to register node with API server" err="nodes \"ip-10-0-248-163.us-west-2.compute.internal\" is forbidden: node \"` + identity + `\" is not allowed to modify node \"ip-10-0-248-163.us-west-2.compute.internal\"" node="ip-10-0-248-163.us-west-2.compute.internal"` + "\n"
	}
	for identity, want := range map[string]string{
		"i-0558290eed951076c.us-west-2.compute.internal": "runtime.node-name-not-found",
		"i-0558290eed951076c":                            "auth.wrong-username",
	} {
		_, r, out, stderr := analyze(t, line(identity), "-")
		if out == "" {
			t.Fatalf("no report: %s", stderr)
		}
		if got := r.Diagnosis.MostLikelyCause; got == nil || *got != want {
			t.Errorf("identity %s: most likely %v (failing %v), want %s", identity, deref(got), failing(r), want)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}

// TestFieldGrammarAMINames: an EC2NodeClass whose amiSelectorTerms name an EKS-optimized AMI of
// another family than spec.amiFamily boots an image that cannot read the user data Karpenter
// generates for that family.
func TestFieldGrammarAMINames(t *testing.T) {
	class := func(family, name string) string {
		return "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: default\nspec:\n  amiFamily: " + family +
			"\n  role: KarpenterNodeRole-prod\n  amiSelectorTerms:\n    - name: \"" + name + "\"\n  subnetSelectorTerms:\n    - tags:\n        karpenter.sh/discovery: prod\n  securityGroupSelectorTerms:\n    - tags:\n        karpenter.sh/discovery: prod\n"
	}
	for _, tc := range []struct {
		family, name string
		fail         bool
	}{
		{"AL2023", "amazon-eks-node-1.31-v20250123", true},
		{"AL2", "amazon-eks-node-al2023-x86_64-standard-1.31-*", true},
		{"AL2023", "bottlerocket-aws-k8s-1.31-x86_64-*", true},
		{"AL2023", "amazon-eks-node-al2023-x86_64-standard-1.31-v20250123", false},
		{"AL2", "amazon-eks-gpu-node-1.31-*", false},
		{"Bottlerocket", "bottlerocket-aws-k8s-1.31-nvidia-x86_64-v1.30.0-*", false},
		{"AL2023", "my-golden-image-*", false},
	} {
		_, r, out, stderr := analyze(t, class(tc.family, tc.name), "-")
		if out == "" {
			t.Fatalf("no report: %s", stderr)
		}
		// a manifest without status shows nothing of readiness or of the instance profile made
		want := ""
		if tc.fail {
			want = "karpenter.userdata-format"
		}
		if got := strings.Join(failing(r), ","); got != want {
			t.Errorf("amiFamily %s, AMI name %s: failing %q, want %q", tc.family, tc.name, got, want)
		}
	}
}
