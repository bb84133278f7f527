package userdata

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/klauspost/compress/gzip"
)

func load(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func errorsOf(c *evidence.BootstrapConfig) []string {
	var out []string
	for _, i := range c.Issues {
		if i.Level == evidence.IssueError {
			out = append(out, i.Message)
		}
	}
	return out
}

func TestDecodeAL2MimeWithVariables(t *testing.T) {
	c := Decode(load(t, "al2-mime-vars.txt"))
	if c.Format != evidence.FormatBootstrapSh || !c.CallsBootstrap {
		t.Fatalf("format = %s calls=%v", c.Format, c.CallsBootstrap)
	}
	if c.ClusterName != "ironman-2022" {
		t.Errorf("cluster = %q", c.ClusterName)
	}
	if c.APIServerEndpoint != "https://1234567890ABCDEFGHIJKLMNOPQRSTUV.gr7.eu-west-1.eks.amazonaws.com" {
		t.Errorf("endpoint = %q", c.APIServerEndpoint)
	}
	if c.CertificateAuthority != "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==" {
		t.Errorf("ca = %q", c.CertificateAuthority)
	}
	if !reflect.DeepEqual(c.ClusterDNS, []string{"10.100.0.10"}) {
		t.Errorf("dns = %v", c.ClusterDNS)
	}
	if c.MaxPods == nil || *c.MaxPods != 29 {
		t.Errorf("maxPods = %v", c.MaxPods)
	}
	if c.UseMaxPods == nil || *c.UseMaxPods {
		t.Errorf("useMaxPods = %v", c.UseMaxPods)
	}
	if c.Labels["eks.amazonaws.com/nodegroup"] != "ng1-public-ssh" || len(c.Labels) != 3 {
		t.Errorf("labels = %v", c.Labels)
	}
	if errs := errorsOf(c); len(errs) != 0 {
		t.Errorf("unexpected errors %v", errs)
	}
}

func TestDecodeClosingBoundaryBeforeLastPart(t *testing.T) {
	c := Decode(load(t, "al2023-closed-early.txt"))
	errs := errorsOf(c)
	if len(errs) != 1 || !strings.Contains(errs[0], "closing boundary --BOUNDARY--") || !strings.Contains(errs[0], "application/node.eks.aws") {
		t.Fatalf("want one closed-early error, got %v", errs)
	}
	if c.Issues[0].Line != 17 {
		t.Errorf("line = %d, want 17", c.Issues[0].Line)
	}
	// The first part still applies: cluster details are known.
	if c.Format != evidence.FormatNodeConfig || c.ClusterName != "my-cluster" || c.ServiceCIDR != "172.20.0.0/16" {
		t.Errorf("got %+v", c)
	}
}

func TestDecodeAL2023Injected(t *testing.T) {
	c := Decode(load(t, "al2023-injected.txt"))
	if c.Format != evidence.FormatNodeConfig || c.ClusterName != "my-cluster" {
		t.Fatalf("got %+v", c)
	}
	if c.MaxPods == nil || *c.MaxPods != 17 || !reflect.DeepEqual(c.ClusterDNS, []string{"172.20.0.10"}) {
		t.Errorf("maxPods=%v dns=%v", c.MaxPods, c.ClusterDNS)
	}
	if c.Labels["eks.amazonaws.com/nodegroup"] != "ng-al2023" {
		t.Errorf("labels = %v", c.Labels)
	}
	if len(c.Issues) != 0 {
		t.Errorf("issues = %+v", c.Issues)
	}
}

func TestDecodeBottlerocket(t *testing.T) {
	c := Decode(load(t, "bottlerocket.toml"))
	if c.Format != evidence.FormatBottlerocket || c.ClusterName != "bys-dev-eks-sec" || c.MaxPods == nil || *c.MaxPods != 20 {
		t.Fatalf("got %+v", c)
	}
	if c.Labels["eks.amazonaws.com/capacityType"] != "ON_DEMAND" {
		t.Errorf("labels = %v", c.Labels)
	}
}

func TestDecodeEksctlCloudConfigGzipBase64(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(load(t, "eksctl-cloud-config.yaml"))
	zw.Close()
	c := DecodeBase64(base64.StdEncoding.EncodeToString(buf.Bytes()))
	if !c.Gzipped || c.Format != evidence.FormatBootstrapSh {
		t.Fatalf("got %+v", c)
	}
	if c.ClusterName != "ironman-2022" || c.ContainerRuntime != "dockerd" || c.CertificateAuthority == "" {
		t.Errorf("got %+v", c)
	}
	if c.Labels["alpha.eksctl.io/nodegroup-name"] != "demo-self-ng" {
		t.Errorf("labels = %v", c.Labels)
	}
	if _, ok := c.Unresolved["kubeletExtraArgs"]; ok {
		t.Errorf("kubelet.env should resolve extra args: %v", c.Unresolved)
	}
}

func TestDecodeVariablesSetOutsideUserData(t *testing.T) {
	c := Decode(load(t, "ssm-params.sh"))
	if c.ClusterName != "foo-eks-cluster" {
		t.Fatalf("heredoc content must not be taken as the call: %q", c.ClusterName)
	}
	if c.CertificateAuthority != "" || c.APIServerEndpoint != "" {
		t.Errorf("unresolved values must stay empty: %+v", c)
	}
	if !strings.Contains(c.Unresolved["certificateAuthority"], "$B64_CLUSTER_CA") || c.Unresolved["apiServerEndpoint"] == "" {
		t.Errorf("unresolved = %v", c.Unresolved)
	}
}

func TestDecodeWindows(t *testing.T) {
	c := Decode(load(t, "windows.ps1"))
	if c.Format != evidence.FormatWindows || !c.CallsBootstrap || c.ClusterName != "my-cluster" || c.Labels["os"] != "windows" {
		t.Fatalf("got %+v", c)
	}
}

func TestDecodeProblems(t *testing.T) {
	cases := []struct {
		name, in string
		want     string // substring of an error issue; "" = no error
		format   evidence.BootstrapFormat
	}{
		{"empty", "", "", evidence.FormatNone},
		{"flag with equals", "#!/bin/bash\n/etc/eks/bootstrap.sh --apiserver-endpoint=https://x my-cluster\n", "does not accept --apiserver-endpoint=VALUE", evidence.FormatBootstrapSh},
		{"unknown flag", "#!/bin/bash\n/etc/eks/bootstrap.sh --kubelet-args x my-cluster\n", "no option --kubelet-args", evidence.FormatBootstrapSh},
		{"no cluster", "#!/bin/bash\n/etc/eks/bootstrap.sh --use-max-pods false\n", "without a cluster name", evidence.FormatBootstrapSh},
		{"no closing boundary with nodeconfig", "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: application/node.eks.aws\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: c\n", "no closing boundary", evidence.FormatNodeConfig},
		{"no closing boundary shell only", "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\n/etc/eks/bootstrap.sh c\n", "", evidence.FormatBootstrapSh},
		{"bad toml", "[settings.kubernetes]\ncluster-name = 'a\n", "TOML does not parse", evidence.FormatBottlerocket},
		{"nodeconfig wrong content type", "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: text/plain\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec: {}\n--B--\n", "only from parts of type application/node.eks.aws", evidence.FormatNone},
		{"nodeconfig bad yaml", "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster: [\n", "does not parse", evidence.FormatNodeConfig},
		{"bare script", "/etc/eks/bootstrap.sh my-cluster\n", "cloud-init does not run it", evidence.FormatBootstrapSh},
		{"unbound value", "#!/bin/bash\n/etc/eks/bootstrap.sh c --b64-cluster-ca\n", "has no value", evidence.FormatBootstrapSh},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Decode([]byte(tc.in))
			errs := errorsOf(c)
			if tc.want == "" && len(errs) > 0 {
				t.Fatalf("unexpected errors %v", errs)
			}
			if tc.want != "" && (len(errs) == 0 || !strings.Contains(strings.Join(errs, "|"), tc.want)) {
				t.Fatalf("want error containing %q, got %v", tc.want, errs)
			}
			if c.Format != tc.format {
				t.Errorf("format = %s, want %s", c.Format, tc.format)
			}
		})
	}
}

func TestDecodeNotBase64(t *testing.T) {
	c := DecodeBase64("this is #!/bin/bash not base64!!")
	if errs := errorsOf(c); len(errs) != 1 || !strings.Contains(errs[0], "not valid base64") {
		t.Fatalf("got %v", errs)
	}
}

func TestDecodeHugeInputIsBounded(t *testing.T) {
	big := bytes.Repeat([]byte("#!/bin/bash\necho aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"), 20<<20/56)
	c := Decode(big)
	if c.RawBytes != len(big) {
		t.Errorf("RawBytes = %d", c.RawBytes)
	}
	found := false
	for _, i := range c.Issues {
		found = found || strings.Contains(i.Message, "only the first")
	}
	if !found {
		t.Error("want a truncation warning")
	}
}

// TestTruncatedParseIsFlagged: user data cut by a decoder limit sets Truncated, so checks that
// conclude from an absence do not take what was not read for what is not there (p_mime_many:
// 20,000 parts, bootstrap.sh called in the last one, past the 1 MiB parse limit).
func TestTruncatedParseIsFlagged(t *testing.T) {
	mime := func(n int) []byte {
		var b strings.Builder
		b.WriteString("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"==B==\"\n\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "--==B==\nContent-Type: text/x-shellscript; charset=\"us-ascii\"\n\n#!/bin/bash\necho %d\n\n", i)
		}
		b.WriteString("--==B==\nContent-Type: text/x-shellscript\n\n#!/bin/bash\n/etc/eks/bootstrap.sh prod\n\n--==B==--\n")
		return []byte(b.String())
	}
	for _, tc := range []struct {
		name  string
		raw   []byte
		trunc bool
		why   string
	}{
		{"over 1 MiB", mime(20000), true, "it is over the 1048576-byte parse limit"},
		{"over 256 parts", mime(300), true, "it has more than 256 MIME parts"},
		{"whole", mime(3), false, ""},
	} {
		for _, c := range []*evidence.BootstrapConfig{Decode(tc.raw), DecodePasted(tc.raw)} {
			if c.Truncated != tc.trunc || c.TruncatedWhy != tc.why {
				t.Errorf("%s: Truncated %v %q; want %v %q", tc.name, c.Truncated, c.TruncatedWhy, tc.trunc, tc.why)
			}
			if !tc.trunc && (!c.CallsBootstrap || c.ClusterName != "prod") {
				t.Errorf("%s: bootstrap.sh call not read: %+v", tc.name, c)
			}
		}
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(mime(20000))
	zw.Close()
	if c := Decode(buf.Bytes()); !c.Truncated || c.TruncatedWhy != "decompressed, it is over the 1048576-byte parse limit" {
		t.Errorf("gzip: Truncated %v %q", c.Truncated, c.TruncatedWhy)
	}
}

func TestGzipBomb(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(bytes.Repeat([]byte{'#'}, 64<<20))
	zw.Close()
	c := Decode(buf.Bytes())
	if !c.Gzipped {
		t.Fatal("gzip not detected")
	}
}

func FuzzDecode(f *testing.F) {
	for _, n := range []string{"al2-mime-vars.txt", "al2023-closed-early.txt", "al2023-injected.txt", "bottlerocket.toml", "eksctl-cloud-config.yaml", "ssm-params.sh", "windows.ps1"} {
		b, _ := os.ReadFile("testdata/" + n)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		c := DecodeWithLimits(in, Limits{MaxDecodedBytes: 64 << 10, MaxParts: 32})
		if c == nil {
			t.Fatal("nil config")
		}
	})
}

// TestNodeConfigHybrid: a NodeConfig with spec.hybrid marks the configuration as a hybrid node's,
// and the SSM activation code it carries is kept nowhere in the decoded configuration.
func TestNodeConfigHybrid(t *testing.T) {
	cfg := Decode([]byte(`apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: prod
    region: eu-west-1
  hybrid:
    ssm:
      activationCode: Zm9vYmFyc2VjcmV0YWN0aXZhdGlvbg
      activationId: 2c4c3e39-3b5e-4a6e-9d5c-2a7f0f0e1b11
`))
	if !cfg.Hybrid || cfg.ClusterName != "prod" {
		t.Fatalf("hybrid %v, cluster %q", cfg.Hybrid, cfg.ClusterName)
	}
	b, _ := json.Marshal(cfg)
	if strings.Contains(string(b), "Zm9vYmFyc2VjcmV0YWN0aXZhdGlvbg") {
		t.Fatalf("activation code kept: %s", b)
	}
	// spec.cluster.region is a field of the hybrid nodeadm's API (aws/eks-hybrid
	// api/v1alpha1/nodeconfig_types.go ClusterDetails.Region): no unknown-field warning
	if len(cfg.Issues) > 0 {
		t.Errorf("issues %+v, want none for a hybrid NodeConfig with spec.cluster.region", cfg.Issues)
	}
	if cfg.HybridCredentials != evidence.HybridSSM || cfg.HybridRoleARN != "" {
		t.Errorf("hybrid credentials %q role %q, want %q and no role", cfg.HybridCredentials, cfg.HybridRoleARN, evidence.HybridSSM)
	}
}

// TestNodeConfigHybridRolesAnywhere: a hybrid NodeConfig with IAM Roles Anywhere names the role
// its kubelet authenticates as (spec.hybrid.iamRolesAnywhere.roleArn); an EC2 node's NodeConfig
// with spec.cluster.region is still warned about, since the AL2023 nodeadm's API has no such
// field (amazon-eks-ami nodeadm/api/v1alpha1/nodeconfig_types.go ClusterDetails).
func TestNodeConfigHybridRolesAnywhere(t *testing.T) {
	cfg := Decode([]byte(`apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: hybrid-prod
    region: us-west-2
  hybrid:
    iamRolesAnywhere:
      nodeName: onprem-node-01
      trustAnchorArn: arn:aws:rolesanywhere:us-west-2:111122223333:trust-anchor/abc
      profileArn: arn:aws:rolesanywhere:us-west-2:111122223333:profile/def
      roleArn: arn:aws:iam::111122223333:role/AmazonEKSHybridNodesRole
      certificatePath: /etc/iam/pki/server.pem
      privateKeyPath: /etc/iam/pki/server.key
`))
	if !cfg.Hybrid || len(cfg.Issues) > 0 {
		t.Fatalf("hybrid %v issues %+v, want a hybrid NodeConfig with no issue", cfg.Hybrid, cfg.Issues)
	}
	if cfg.HybridCredentials != evidence.HybridIAMRolesAnywhere || cfg.HybridRoleARN != "arn:aws:iam::111122223333:role/AmazonEKSHybridNodesRole" {
		t.Errorf("hybrid credentials %q role %q", cfg.HybridCredentials, cfg.HybridRoleARN)
	}
	ec2 := Decode([]byte("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n    region: us-west-2\n" +
		"    apiServerEndpoint: https://ABC.gr7.us-west-2.eks.amazonaws.com\n    certificateAuthority: Q0E=\n    cidr: 10.100.0.0/16\n"))
	if len(ec2.Issues) != 1 || !strings.Contains(ec2.Issues[0].Message, `unknown field "spec.cluster.region"`) {
		t.Errorf("EC2 NodeConfig issues %+v, want the unknown field spec.cluster.region", ec2.Issues)
	}
}

// TestDecodeKarpenterQuotedNodeLabels: Karpenter writes the NodeConfig's label flag with the
// value in double quotes (--node-labels="k=v,…", karpenter-provider-aws's bootstrap options); the
// quotes are not part of the first key or the last value, and such nodes join.
func TestDecodeKarpenterQuotedNodeLabels(t *testing.T) {
	nc := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n" +
		"    apiServerEndpoint: https://ABC.gr7.us-east-1.eks.amazonaws.com\n    certificateAuthority: Q0E=\n    cidr: 10.100.0.0/16\n" +
		"  kubelet:\n    flags:\n    - --node-labels=\"karpenter.k8s.aws/ec2nodeclass=default,karpenter.sh/nodepool=general\"\n" +
		"    - --register-with-taints='dedicated=gpu:NoSchedule'\n"
	c := Decode([]byte(nc))
	if c.Labels["karpenter.k8s.aws/ec2nodeclass"] != "default" || c.Labels["karpenter.sh/nodepool"] != "general" || len(c.Labels) != 2 {
		t.Errorf("labels = %q", c.Labels)
	}
	if !reflect.DeepEqual(c.Taints, []string{"dedicated=gpu:NoSchedule"}) {
		t.Errorf("taints = %q", c.Taints)
	}
}

// A script saved with CRLF line ends: cloud-init execs the part (scripts-user's runparts) and the
// kernel looks for the interpreter "/bin/bash\r", which does not exist ("bad interpreter"), so
// nothing in the part runs. The CRLF between MIME parts is the format's own and is not an error;
// a plain paste (DecodePasted) may have picked up its CRs on the way and is not judged.
func TestDecodeCRLFShebang(t *testing.T) {
	script := "#!/bin/bash\r\nset -ex\r\n/etc/eks/bootstrap.sh prod --apiserver-endpoint https://x.eks.amazonaws.com --b64-cluster-ca Q0E=\r\n"
	crlfIssue := func(c *evidence.BootstrapConfig) string {
		for _, m := range errorsOf(c) {
			if strings.Contains(m, "carriage return") {
				return m
			}
		}
		return ""
	}
	c := Decode([]byte(script))
	m := crlfIssue(c)
	if m == "" || !strings.Contains(m, `"/bin/bash\r"`) || !strings.Contains(m, "dos2unix") {
		t.Fatalf("CRLF script: errors %q, want one naming the interpreter \"/bin/bash\\r\" and dos2unix", errorsOf(c))
	}
	if c.CallsBootstrap {
		t.Errorf("CRLF script: CallsBootstrap = true; the part never runs")
	}
	// the same script as a MIME part of a CRLF document
	mime := strings.ReplaceAll("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: text/x-shellscript; charset=\"us-ascii\"\n\n", "\n", "\r\n") +
		script + "\r\n--B--\r\n"
	if c := Decode([]byte(mime)); crlfIssue(c) == "" || c.CallsBootstrap {
		t.Errorf("CRLF script in a MIME part: errors %q, calls %v", errorsOf(c), c.CallsBootstrap)
	}
	// a CRLF MIME document whose script part has LF line ends runs
	ok := strings.ReplaceAll("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: text/x-shellscript; charset=\"us-ascii\"\n\n", "\n", "\r\n") +
		strings.ReplaceAll(script, "\r\n", "\n") + "\r\n--B--\r\n"
	if c := Decode([]byte(ok)); crlfIssue(c) != "" || !c.CallsBootstrap {
		t.Errorf("LF script in a CRLF MIME document: errors %q, calls %v", errorsOf(c), c.CallsBootstrap)
	}
	if c := Decode([]byte(strings.ReplaceAll(script, "\r\n", "\n"))); crlfIssue(c) != "" || !c.CallsBootstrap {
		t.Errorf("LF script: errors %q, calls %v", errorsOf(c), c.CallsBootstrap)
	}
	if c := DecodePasted([]byte(script)); crlfIssue(c) != "" || !c.CallsBootstrap {
		t.Errorf("pasted CRLF script: errors %q, calls %v", errorsOf(c), c.CallsBootstrap)
	}
}

func TestCRShebang(t *testing.T) {
	for _, c := range []struct{ in, interp, arg string }{
		{"#!/bin/bash\r\necho", "/bin/bash\r", ""},
		{"#!/bin/bash -xe\r\necho", "/bin/bash", "-xe\r"},
		{"#! /usr/bin/env bash\r\n", "/usr/bin/env", "bash\r"},
	} {
		interp, arg, ok := crShebang(c.in)
		if !ok || interp != c.interp || arg != c.arg {
			t.Errorf("crShebang(%q) = %q, %q, %v; want %q, %q", c.in, interp, arg, ok, c.interp, c.arg)
		}
	}
	for _, in := range []string{"#!/bin/bash\necho\r\n", "echo\r\n", "#!\r\n"} {
		if _, _, ok := crShebang(in); ok {
			t.Errorf("crShebang(%q) = true", in)
		}
	}
}

// EC2Launch v2's YAML user data (EC2 user guide, "EC2Launch v2 task configuration": version,
// tasks, executeScript with inputs of type powershell or batch) is read like <powershell>
// user data: its script content is what calls Start-EKSBootstrap.ps1.
func TestDecodeEC2LaunchV2YAML(t *testing.T) {
	doc := `version: 1.1
tasks:
- task: enableOpenSsh
- task: executeScript
  inputs:
  - frequency: always
    type: powershell
    runAs: localSystem
    content: |-
      [string]$EKSBootstrapScriptFile = "$env:ProgramFiles\Amazon\EKS\Start-EKSBootstrap.ps1"
      & $EKSBootstrapScriptFile -EKSClusterName "prod" -APIServerEndpoint "https://x.eks.amazonaws.com" -Base64ClusterCA "Q0E=" -DNSClusterIP "172.20.0.10" 3>&1 4>&1
`
	c := Decode([]byte(doc))
	if c.Format != evidence.FormatWindows || !c.CallsBootstrap || c.ClusterName != "prod" || c.APIServerEndpoint != "https://x.eks.amazonaws.com" ||
		!reflect.DeepEqual(c.ClusterDNS, []string{"172.20.0.10"}) || len(c.Issues) != 0 {
		t.Fatalf("EC2Launch v2 YAML: format %s calls %v cluster %q endpoint %q dns %v issues %+v", c.Format, c.CallsBootstrap, c.ClusterName, c.APIServerEndpoint, c.ClusterDNS, c.Issues)
	}
	if !reflect.DeepEqual(c.Parts, []string{"EC2Launch v2 executeScript (powershell)"}) {
		t.Errorf("parts = %q", c.Parts)
	}
	// a task list with no script: recognised, and it does not bootstrap
	c = Decode([]byte("version: 1.0\ntasks:\n- task: setWallpaper\n  inputs:\n    attributes: [hostName]\n"))
	if c.Format != evidence.FormatWindows || c.CallsBootstrap || len(c.Issues) != 0 {
		t.Errorf("EC2Launch v2 YAML without a script: format %s calls %v issues %+v", c.Format, c.CallsBootstrap, c.Issues)
	}
	// YAML EC2Launch v2 cannot read
	c = Decode([]byte("version: 1.1\ntasks:\n- task: executeScript\n  inputs:\n  - type: powershell\n    content: |-\n  & $x -EKSClusterName \"prod\"\n\t- bad\n"))
	if errs := errorsOf(c); len(errs) == 0 || !strings.Contains(errs[0], "EC2Launch v2") || c.CallsBootstrap {
		t.Errorf("broken EC2Launch v2 YAML: errors %q calls %v", errs, c.CallsBootstrap)
	}
}

// A node that names its Node after its instance ID authenticates as system:node:{{SessionName}}
// (nodeadm featureGates.InstanceIdNodeName; Bottlerocket hostname-override-source instance-id):
// the decoder keeps that choice for the auth checks; later NodeConfig documents override earlier ones.
func TestDecodeInstanceIDNodeName(t *testing.T) {
	nc := func(gates string) string {
		return "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: c\n" + gates
	}
	for _, tc := range []struct {
		name, in string
		want     bool
	}{
		{"nodeadm gate on", nc("  featureGates:\n    InstanceIdNodeName: true\n"), true},
		{"nodeadm gate off", nc("  featureGates:\n    InstanceIdNodeName: false\n"), false},
		{"nodeadm no gates", nc(""), false},
		{"nodeadm other gate", nc("  featureGates:\n    FastImagePull: true\n"), false},
		{"bottlerocket instance-id", "[settings.kubernetes]\ncluster-name = \"c\"\nhostname-override-source = \"instance-id\"\n", true},
		{"bottlerocket private-dns-name", "[settings.kubernetes]\ncluster-name = \"c\"\nhostname-override-source = \"private-dns-name\"\n", false},
		{"bottlerocket override is an instance ID", "[settings.kubernetes]\ncluster-name = \"c\"\nhostname-override = \"i-0123456789abcdef0\"\n", true},
		{"bootstrap.sh", "#!/bin/bash\n/etc/eks/bootstrap.sh c\n", false},
	} {
		cfg := Decode([]byte(tc.in))
		if cfg.InstanceIDNodeName != tc.want {
			t.Errorf("%s: InstanceIDNodeName = %v, want %v (issues %v)", tc.name, cfg.InstanceIDNodeName, tc.want, cfg.Issues)
		}
	}
	// MIME: the later NodeConfig part turns the gate off again
	mime := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: application/node.eks.aws\n\n" +
		nc("  featureGates:\n    InstanceIdNodeName: true\n") + "\n--B\nContent-Type: application/node.eks.aws\n\n" +
		nc("  featureGates:\n    InstanceIdNodeName: false\n") + "\n--B--\n"
	if cfg := Decode([]byte(mime)); cfg.InstanceIDNodeName {
		t.Errorf("later part sets InstanceIdNodeName false: InstanceIDNodeName = true (issues %v)", cfg.Issues)
	}
}
