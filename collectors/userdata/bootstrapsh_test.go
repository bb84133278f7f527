package userdata

import (
	"reflect"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// The rules tested here are those of the AL2 /etc/eks/bootstrap.sh as last published in
// awslabs/amazon-eks-ami, templates/al2/runtime/bootstrap.sh (commit 0ab84280, before AL2 was
// removed): its top-level `while [[ $# -gt 0 ]]; case $key in` option loop, where every known
// option reads $2 and shifts twice, and the `*)` branch appends anything else (unknown
// `--options` included) to POSITIONAL; then `CLUSTER_NAME="$1"` of the restored positional
// parameters. The inputs are our own.

func bootstrapScript(args string) []byte {
	return []byte("#!/bin/bash\nset -ex\n/etc/eks/bootstrap.sh " + args + "\n")
}

func issuesOf(c *evidence.BootstrapConfig) string {
	var out []string
	for _, i := range c.Issues {
		out = append(out, string(i.Level)+": "+i.Message)
	}
	return strings.Join(out, "\n")
}

// Rule: --service-ipv4-cidr is a known option of the option loop (case branch
// `--service-ipv4-cidr) SERVICE_IPV4_CIDR=$2; shift; shift`), so its value is consumed and the
// cluster name is the first remaining positional argument, whether it comes before or after
// the options.
func TestBootstrapShServiceIPv4CIDRTakesAValue(t *testing.T) {
	for _, args := range []string{
		"--b64-cluster-ca QUJD --apiserver-endpoint https://x.eks.amazonaws.com --service-ipv4-cidr 10.100.0.0/16 my-cluster",
		"my-cluster --b64-cluster-ca QUJD --apiserver-endpoint https://x.eks.amazonaws.com --service-ipv4-cidr 10.100.0.0/16",
		"--b64-cluster-ca QUJD my-cluster --service-ipv4-cidr 10.100.0.0/16 --apiserver-endpoint https://x.eks.amazonaws.com",
	} {
		c := Decode(bootstrapScript(args))
		if c.ClusterName != "my-cluster" {
			t.Errorf("%s: cluster = %q, want my-cluster (issues: %s)", args, c.ClusterName, issuesOf(c))
		}
		if c.ServiceCIDR != "10.100.0.0/16" {
			t.Errorf("%s: service CIDR = %q, want 10.100.0.0/16", args, c.ServiceCIDR)
		}
		if c.APIServerEndpoint != "https://x.eks.amazonaws.com" || c.CertificateAuthority != "QUJD" {
			t.Errorf("%s: endpoint %q ca %q", args, c.APIServerEndpoint, c.CertificateAuthority)
		}
		if len(c.Issues) != 0 {
			t.Errorf("%s: unexpected issues:\n%s", args, issuesOf(c))
		}
	}
}

// Rule: every option of the case statement takes a value (there are no value-less flags
// besides -h/--help): the value is consumed even when it looks like an option or a cluster name.
func TestBootstrapShEveryOptionTakesAValue(t *testing.T) {
	opts := []string{"--use-max-pods", "--b64-cluster-ca", "--apiserver-endpoint", "--kubelet-extra-args",
		"--enable-docker-bridge", "--aws-api-retry-attempts", "--docker-config-json", "--containerd-config-file",
		"--pause-container-account", "--pause-container-version", "--dns-cluster-ip", "--container-runtime",
		"--ip-family", "--service-ipv4-cidr", "--service-ipv6-cidr", "--enable-local-outpost", "--cluster-id",
		"--mount-bpf-fs", "--local-disks"}
	for _, o := range opts {
		val := "somevalue"
		switch o {
		case "--ip-family":
			val = "ipv4"
		case "--kubelet-extra-args":
			val = "--v=2"
		case "--dns-cluster-ip":
			val = "10.100.0.10"
		}
		c := Decode(bootstrapScript(o + " " + val + " my-cluster"))
		if c.ClusterName != "my-cluster" {
			t.Errorf("%s: cluster = %q, want my-cluster", o, c.ClusterName)
		}
		if errs := errorsOf(c); len(errs) != 0 {
			t.Errorf("%s: unexpected errors %v", o, errs)
		}
	}
}

// Rule: the `*)` branch keeps an unknown option as a positional argument, so an unknown option
// written before the cluster name becomes CLUSTER_NAME.
func TestBootstrapShUnknownOptionBeforeClusterNameBecomesTheName(t *testing.T) {
	c := Decode(bootstrapScript("--max-pods 20 my-cluster"))
	if c.ClusterName != "--max-pods" {
		t.Errorf("cluster = %q, want --max-pods (bootstrap.sh takes the first positional argument)", c.ClusterName)
	}
	if !strings.Contains(issuesOf(c), "bootstrap.sh has no option --max-pods") {
		t.Errorf("issues:\n%s", issuesOf(c))
	}
}

// Rule: --ip-family accepts ipv4 or ipv6 in any case (lower-cased with tr, then compared);
// anything else ends the script ("Invalid --ip-family"). --service-ipv6-cidr with
// --ip-family ipv4 also ends it.
func TestBootstrapShIPFamilyValidation(t *testing.T) {
	c := Decode(bootstrapScript("--ip-family IPv6 --service-ipv6-cidr fd00::/108 my-cluster"))
	if errs := errorsOf(c); len(errs) != 0 {
		t.Errorf("IPv6: unexpected errors %v", errs)
	}
	c = Decode(bootstrapScript("--ip-family dual my-cluster"))
	if !strings.Contains(issuesOf(c), "--ip-family \"dual\"") {
		t.Errorf("dual: want an --ip-family error, got:\n%s", issuesOf(c))
	}
	c = Decode(bootstrapScript("--ip-family ipv4 --service-ipv6-cidr fd00::/108 my-cluster"))
	if !strings.Contains(issuesOf(c), "--service-ipv6-cidr") {
		t.Errorf("ipv4+v6 cidr: want an error, got:\n%s", issuesOf(c))
	}
}

// Rule: bootstrap.sh writes --kubelet-extra-args into a systemd drop-in
// (Environment='KUBELET_EXTRA_ARGS=...', 30-kubelet-extra-args.conf) and kubelet.service runs
// `ExecStart=/usr/bin/kubelet ... $KUBELET_EXTRA_ARGS`. systemd splits an unbraced $VAR with
// replace_env_argv() (systemd src/basic/env-util.c: strv_split_full with
// EXTRACT_RELAX|EXTRACT_UNQUOTE): blanks separate words, single and double quotes group and are
// removed. So quotes inside the value never reach the kubelet.
func TestBootstrapShKubeletExtraArgsSystemdQuoting(t *testing.T) {
	c := Decode(bootstrapScript(`--kubelet-extra-args '--node-labels="team=a b,env=prod" --register-with-taints=dedicated=gpu:NoSchedule' my-cluster`))
	if c.ClusterName != "my-cluster" {
		t.Fatalf("cluster = %q", c.ClusterName)
	}
	want := map[string]string{"team": "a b", "env": "prod"}
	if !reflect.DeepEqual(c.Labels, want) {
		t.Errorf("labels = %q, want %q", c.Labels, want)
	}
	if !reflect.DeepEqual(c.Taints, []string{"dedicated=gpu:NoSchedule"}) {
		t.Errorf("taints = %q", c.Taints)
	}
	if errs := errorsOf(c); len(errs) != 0 {
		t.Errorf("unexpected errors %v", errs)
	}
}

// Rule: an unquoted second kubelet flag after --kubelet-extra-args is not part of its value:
// the option takes exactly one word ($2), the next word goes to the `*)` branch.
func TestBootstrapShKubeletExtraArgsUnquoted(t *testing.T) {
	c := Decode(bootstrapScript(`my-cluster --kubelet-extra-args --node-labels=a=b --register-with-taints=x=y:NoSchedule`))
	if c.ClusterName != "my-cluster" {
		t.Fatalf("cluster = %q", c.ClusterName)
	}
	if !reflect.DeepEqual(c.Labels, map[string]string{"a": "b"}) || len(c.Taints) != 0 {
		t.Errorf("labels %v taints %v: only the first word is the option's value", c.Labels, c.Taints)
	}
	if !strings.Contains(issuesOf(c), "--register-with-taints") {
		t.Errorf("want an issue naming the stray --register-with-taints, got:\n%s", issuesOf(c))
	}
}

// Rule: bootstrap.sh uses --apiserver-endpoint and --b64-cluster-ca only together
// (`if [[ -z "${B64_CLUSTER_CA}" ]] || [[ -z "${APISERVER_ENDPOINT}" ]]` then
// `aws eks describe-cluster`, whose result overwrites both); one without the other is
// discarded in favour of the cluster's values.
func TestBootstrapShEndpointWithoutCAIsReplacedByDescribeCluster(t *testing.T) {
	c := Decode(bootstrapScript("--apiserver-endpoint https://old.eks.amazonaws.com my-cluster"))
	if c.APIServerEndpoint != "" {
		t.Errorf("endpoint = %q, want none: bootstrap.sh takes the endpoint from DescribeCluster", c.APIServerEndpoint)
	}
	if !strings.Contains(issuesOf(c), "https://old.eks.amazonaws.com") || !strings.Contains(issuesOf(c), "DescribeCluster") {
		t.Errorf("want a warning quoting the ignored endpoint, got:\n%s", issuesOf(c))
	}
	c = Decode(bootstrapScript("--b64-cluster-ca QUJD my-cluster"))
	if c.CertificateAuthority != "" || !strings.Contains(issuesOf(c), "--b64-cluster-ca") {
		t.Errorf("ca = %q, issues:\n%s", c.CertificateAuthority, issuesOf(c))
	}
	// a value from an unresolved variable may be set at run time: keep it and say nothing
	c = Decode([]byte("#!/bin/bash\n/etc/eks/bootstrap.sh --apiserver-endpoint https://x.eks.amazonaws.com --b64-cluster-ca \"$CA\" my-cluster\n"))
	if c.APIServerEndpoint != "https://x.eks.amazonaws.com" || strings.Contains(issuesOf(c), "DescribeCluster") {
		t.Errorf("unresolved CA: endpoint %q issues:\n%s", c.APIServerEndpoint, issuesOf(c))
	}
}

// Rule: -h and --help are the only options without a value (`-h | --help) print_help; exit 1`),
// so the script stops there; as the value of another option they are just that value.
func TestBootstrapShHelpTakesNoValue(t *testing.T) {
	c := Decode(bootstrapScript("my-cluster --help"))
	if !strings.Contains(strings.Join(errorsOf(c), "\n"), "prints its help and exits 1") {
		t.Errorf("--help: issues:\n%s", issuesOf(c))
	}
	c = Decode(bootstrapScript("--kubelet-extra-args -h my-cluster"))
	if strings.Contains(issuesOf(c), "prints its help") || c.ClusterName != "my-cluster" {
		t.Errorf("-h as a value: cluster %q issues:\n%s", c.ClusterName, issuesOf(c))
	}
}

// Rule: an unknown option after the cluster name is a positional argument bootstrap.sh never
// reads: the setting it meant is lost (a warning), the node still bootstraps.
func TestBootstrapShUnknownOptionAfterClusterNameIsIgnored(t *testing.T) {
	c := Decode(bootstrapScript("managed-cluster --alp-cluster-121"))
	if c.ClusterName != "managed-cluster" {
		t.Errorf("cluster = %q, want managed-cluster", c.ClusterName)
	}
	for _, i := range c.Issues {
		if i.Level == evidence.IssueError {
			t.Errorf("error for an ignored positional argument: %s", i.Message)
		}
	}
	if !strings.Contains(issuesOf(c), "bootstrap.sh has no option --alp-cluster-121; after the cluster name managed-cluster it is an extra positional argument bootstrap.sh ignores") {
		t.Errorf("issues:\n%s", issuesOf(c))
	}
}

// Rule (bootstrap.sh, the `if [[ "${ENABLE_LOCAL_OUTPOST}" == "true" ]]` block): a local
// Outposts cluster needs the cluster ID for the aws-iam-authenticator bootstrap kubeconfig.
// The ID comes from --cluster-id (or the CLUSTER_ID environment variable) or from
// DescribeCluster, which the script calls only when --b64-cluster-ca or --apiserver-endpoint
// is missing; with both given and no ID it logs "Cluster ID is required when local outpost
// support is enabled" and exits 1. The flag must be exactly "true".
func TestBootstrapShLocalOutpostNeedsClusterID(t *testing.T) {
	const conn = "--b64-cluster-ca QUJD --apiserver-endpoint https://x.eks.amazonaws.com "
	for _, args := range []string{
		conn + "--enable-local-outpost true my-cluster",
		"my-cluster " + conn + "--enable-local-outpost true --cluster-id ''",
	} {
		c := Decode(bootstrapScript(args))
		errs := strings.Join(errorsOf(c), "\n")
		if !strings.Contains(errs, "--cluster-id") || !strings.Contains(errs, "Cluster ID is required when local outpost support is enabled") {
			t.Errorf("%s: want an error naming --cluster-id and the script's message, got:\n%s", args, issuesOf(c))
		}
	}
	for _, args := range []string{
		conn + "--enable-local-outpost true --cluster-id 0123abcd-0000-1111-2222-333344445555 my-cluster",
		"--enable-local-outpost true my-cluster",                                                  // DescribeCluster gives the ID
		"--apiserver-endpoint https://x.eks.amazonaws.com --enable-local-outpost true my-cluster", // likewise
		conn + "--enable-local-outpost false my-cluster",
		conn + "--enable-local-outpost True my-cluster", // only "true" turns it on
		conn + "--enable-local-outpost true --cluster-id \"$ID\" my-cluster",
		conn + "my-cluster",
	} {
		c := Decode(bootstrapScript(args))
		if strings.Contains(issuesOf(c), "Cluster ID is required") {
			t.Errorf("%s: unexpected cluster-ID error:\n%s", args, issuesOf(c))
		}
	}
	c := Decode([]byte("#!/bin/bash\nexport CLUSTER_ID=0123abcd-0000-1111-2222-333344445555\n/etc/eks/bootstrap.sh " + conn + "--enable-local-outpost true my-cluster\n"))
	if strings.Contains(issuesOf(c), "Cluster ID is required") {
		t.Errorf("CLUSTER_ID exported: unexpected error:\n%s", issuesOf(c))
	}
}
