package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

type bundleScenario struct {
	Name   string   `json:"name"`
	File   string   `json:"file"`
	Kind   string   `json:"kind"`
	Expect []string `json:"expect"`
}

func bundleScenarios(t *testing.T) []bundleScenario {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, "bundles", "scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []bundleScenario
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// analyze runs eksdoctor analyze with stdin and returns the exit code, the JSON report and stderr.
func analyze(t *testing.T, stdin string, args ...string) (int, jsonReport, string, string) {
	t.Helper()
	code, out, errOut := runStdin(strings.NewReader(stdin), append([]string{"analyze", "-o", "json"}, args...)...)
	var r jsonReport
	if out != "" {
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
	}
	return code, r, out, errOut
}

func failing(r jsonReport) []string {
	set := map[string]bool{}
	for _, f := range r.Findings {
		if f.Status == "fail" {
			set[f.ID] = true
		}
	}
	out := []string{}
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func TestAnalyzeBundlesGolden(t *testing.T) {
	for _, sc := range bundleScenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			p := filepath.Join(fixtures, "bundles", sc.File)
			code, r, out, stderr := analyze(t, "", p)
			want := append([]string{}, sc.Expect...)
			sort.Strings(want)
			if got := failing(r); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("failing %v, want %v", got, want)
			}
			wantCode := map[bool]int{true: ExitFindings, false: ExitOK}[len(want) > 0]
			if r.Diagnosis.Verdict == "joined" && (r.Diagnosis.Node == nil || r.Diagnosis.Node.Ready) {
				wantCode = ExitOK // the node's log shows it registered and became Ready
			} else if len(want) == 0 && r.Diagnosis.Verdict == "inconclusive" {
				wantCode = ExitNothingChecked
			}
			if code != wantCode {
				t.Errorf("exit %d, want %d (verdict %s)", code, wantCode, r.Diagnosis.Verdict)
			}
			kindName := map[string]string{"bottlerocket": "Bottlerocket logdog bundle", "eks-linux": "EKS Linux log collector bundle", "eks-windows": "EKS Windows log collector bundle"}[sc.Kind]
			if !strings.Contains(stderr, kindName) {
				t.Errorf("stderr does not say the input kind %q: %s", kindName, stderr)
			}
			for _, f := range r.Findings {
				if f.Status == "fail" && strings.HasPrefix(f.ID, "runtime.") && (len(f.Evidence) == 0 || !strings.Contains(f.Evidence[0].Text, "first ")) {
					t.Errorf("%s lacks the matched lines: %+v", f.ID, f.Evidence)
				}
			}
			checkGolden(t, filepath.Join(fixtures, "golden", "bundles", sc.Name+".json"), out)
		})
	}
}

// TestAnalyzeBundleCrossCheck: the node's own CA against the cluster's in a snapshot.
func TestAnalyzeBundleCrossCheck(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "healthy-al2023")
	bundles, _ := filepath.Glob(filepath.Join(fixtures, "bundles", "*al2023-tls-untrusted.tar.gz"))
	_, r, _, _ := analyze(t, "", bundles[0], "--snapshot", snap)
	if got := strings.Join(failing(r), ","); got != "bootstrap.ca-mismatch,runtime.tls-untrusted" {
		t.Fatalf("failing %s", got)
	}
	if r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "bootstrap.ca-mismatch" {
		t.Errorf("cause %v", r.Diagnosis.MostLikelyCause)
	}
	healthy, _ := filepath.Glob(filepath.Join(fixtures, "bundles", "*al2023-healthy.tar.gz"))
	code, r, _, _ := analyze(t, "", healthy[0], "--snapshot", snap)
	if code != ExitOK || len(failing(r)) != 0 {
		t.Fatalf("healthy bundle + healthy snapshot: exit %d, failing %v", code, failing(r))
	}
	// the cross-check ran: the endpoint and CA checks judged, not skipped
	for _, f := range r.Findings {
		if (f.ID == "bootstrap.ca-mismatch" || f.ID == "bootstrap.endpoint-mismatch") && f.Status != "pass" {
			t.Errorf("%s %s: %s", f.ID, f.Status, f.Message)
		}
	}
}

// TestAnalyzeExtractedAndStdin: the same bundle extracted into a directory, and piped on stdin.
func TestAnalyzeExtractedAndStdin(t *testing.T) {
	for _, sc := range bundleScenarios(t) {
		if sc.Name != "bottlerocket-unauthorized" && sc.Name != "al2023-subnet-full" {
			continue
		}
		p := filepath.Join(fixtures, "bundles", sc.File)
		dir := t.TempDir()
		extract(t, p, dir)
		_, r, _, _ := analyze(t, "", dir)
		if got, want := strings.Join(failing(r), ","), strings.Join(sc.Expect, ","); got != want {
			t.Errorf("%s extracted: failing %s, want %s", sc.Name, got, want)
		}
		data, _ := os.ReadFile(p)
		_, r, _, _ = analyze(t, string(data), "-")
		if got, want := strings.Join(failing(r), ","), strings.Join(sc.Expect, ","); got != want {
			t.Errorf("%s on stdin: failing %s, want %s", sc.Name, got, want)
		}
	}
}

func extract(t *testing.T, archive, dir string) {
	t.Helper()
	eachTarMember(t, archive, func(h *tar.Header, r io.Reader) bool {
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if h.Typeflag == tar.TypeDir {
			_ = os.MkdirAll(p, 0o755)
			return true
		}
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		b, _ := io.ReadAll(r)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return true
	})
}

const testHost = "ip-10-0-1-23.eu-west-1.compute.internal"

// TestAnalyzeArtefactsOnStdin: each single-artefact kind, pasted on stdin, yields its finding;
// the healthy form of each yields none.
func TestAnalyzeArtefactsOnStdin(t *testing.T) {
	nodeConfigNoCIDR := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n    apiServerEndpoint: https://ABC.gr7.eu-west-1.eks.amazonaws.com\n    certificateAuthority: " + base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")) + "\n"
	nodeConfigOK := nodeConfigNoCIDR + "    cidr: 172.20.0.0/16\n"
	cases := []struct {
		name, kind, input string
		want              []string
	}{
		{"journal excerpt", "log (journal)", `Jul 24 15:30:02 ` + testHost + ` kubelet[2841]: E0724 15:30:02.118732    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="` + testHost + `"` + "\n", []string{"runtime.unauthorized"}},
		{"klog excerpt", "log (klog)", `E0724 15:30:02.118732    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \"https://ABC.gr7.eu-west-1.eks.amazonaws.com/api/v1/nodes\": dial tcp 10.0.1.200:443: i/o timeout"` + "\n", []string{"runtime.apiserver-timeout"}},
		{"healthy kubelet", "log (klog)", `I0724 15:30:02.118732    2841 kubelet_node_status.go:75] "Attempting to register node" node="x"` + "\n" + `E0724 15:30:02.2    2841 kubelet.go:2412] "Error getting node" err="node \"x\" not found"` + "\n" + `I0724 15:30:05.1    2841 kubelet_node_status.go:78] "Successfully registered node" node="x"` + "\n", nil},
		{"ipamd log", "log (JSON)", `{"level":"error","ts":"2026-07-24T15:29:57.120Z","caller":"ipamd/ipamd.go:845","msg":"Failed to CreateNetworkInterface for subnet subnet-0a11: InsufficientFreeAddressesInSubnet: insufficient free address"}` + "\n", []string{"runtime.ipamd-no-ips"}},
		{"healthy ipamd log", "log (JSON)", `{"level":"info","ts":"2026-07-24T15:29:55.402Z","caller":"aws-k8s-agent/main.go:125","msg":"Successful communication with the Cluster! Cluster Version is: v1.31.4"}` + "\n", nil},
		{"cloud-init output", "log", "Cloud-init v. 22.2.2 running 'modules:final' at Fri, 24 Jul 2026 15:29:01 +0000.\n!!!!!!!!!! The bootstrap script has been removed from AL2023-based EKS AMIs.\n", []string{"bootstrap.wrong-format-for-ami"}},
		{"nodeadm output", "log (journal)", `Jul 24 15:29:41 ` + testHost + ` nodeadm[1893]: fatal cli/main.go:56 Command failed {"error": "CIDR is missing in cluster configuration"}` + "\n", []string{"bootstrap.nodeconfig-incomplete", "runtime.bootstrap-failed"}},
		{"containerd log", "log (journal)", `Jul 24 15:29:58 ` + testHost + ` containerd[2101]: time="2026-07-24T15:29:58.771203391Z" level=error msg="PullImage \"602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/pause:3.5\" failed" error="unexpected status: 401 Unauthorized"` + "\n", []string{"runtime.image-pull"}},
		{"NodeConfig YAML", "user data (nodeadm NodeConfig)", nodeConfigNoCIDR, []string{"bootstrap.nodeconfig-incomplete"}},
		{"complete NodeConfig", "user data (nodeadm NodeConfig)", nodeConfigOK, nil},
		{"user data base64 MIME", "user data", base64.StdEncoding.EncodeToString([]byte("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: application/node.eks.aws\n\n" + nodeConfigNoCIDR + "\n--B--\n")), []string{"bootstrap.nodeconfig-incomplete"}},
		{"Bottlerocket TOML", "user data (Bottlerocket TOML settings)", "[settings.kubernetes]\napi-server = \"https://ABC.gr7.eu-west-1.eks.amazonaws.com\"\ncluster-name = \"prod\n", []string{"bootstrap.no-bootstrap", "bootstrap.userdata-unparseable"}},
		{"Bottlerocket settings JSON", "Bottlerocket settings", `{"os":{"variant_id":"aws-k8s-1.31"},"settings":{"kubernetes":{"cluster-name":"prod","api-server":"https://ABC.gr7.eu-west-1.eks.amazonaws.com","cluster-certificate":"` + base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")) + `","max-pods":29}}}`, nil},
		{"aws-auth ConfigMap YAML", "aws-auth", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/node\n      username: system:node:{{EC2PrivateDNSName}}\n     groups:\n      - system:nodes\n", []string{"auth.aws-auth-malformed"}},
		{"aws-auth mapRoles block", "aws-auth", "mapRoles: |\n  - rolearn: arn:aws:iam::111122223333:role/node\n    username: system:node:{{EC2PrivateDNSName}}\n    groups:\n      - system:bootstrappers\n      - system:nodes\n", nil},
		{"aws-auth kubectl JSON", "aws-auth", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"aws-auth","namespace":"kube-system"},"data":{"mapRoles":"- rolearn: [oops\n"}}`, []string{"auth.aws-auth-malformed"}},
		{"aws-node container log (CRI)", "log", strings.Repeat(`2026-07-24T15:30:01.004512377Z stdout F {"level":"error","ts":"2026-07-24T15:30:01.004Z","caller":"aws-vpc-cni/main.go:447","msg":"Timed out waiting for IPAM daemon to start"}`+"\n", 2), []string{"runtime.cni-not-ready"}},
		{"Bottlerocket settings without CA", "Bottlerocket settings", `{"settings":{"kubernetes":{"cluster-name":"prod","api-server":"https://ABC.gr7.eu-west-1.eks.amazonaws.com"}}}`, []string{"bootstrap.nodeconfig-incomplete"}},
		{"kubectl get nodes", "kubectl JSON (Node list)", `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"` + testHost + `"},"spec":{"providerID":"aws:///eu-west-1a/i-0a1b2c3d4e5f60001"},"status":{"conditions":[{"type":"Ready","status":"True"}],"nodeInfo":{"kubeletVersion":"v1.31.4-eks-1a2b3c4","operatingSystem":"linux"}}}]}`, nil},
		{"aws eks describe-cluster", "AWS CLI output (aws eks describe-cluster output)", `{"cluster":{"name":"prod","arn":"arn:aws:eks:eu-west-1:111122223333:cluster/prod","version":"1.31","endpoint":"https://ABC.gr7.eu-west-1.eks.amazonaws.com","status":"FAILED","resourcesVpcConfig":{"vpcId":"vpc-1"},"kubernetesNetworkConfig":{"serviceIpv4Cidr":"172.20.0.0/16"}}}`, []string{"cluster.not-active"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, r, out, stderr := analyze(t, tc.input, "-")
			if out == "" {
				t.Fatalf("no report (exit %d): %s", code, stderr)
			}
			if !strings.Contains(stderr, tc.kind) {
				t.Errorf("stderr does not name the artefact kind %q: %s", tc.kind, stderr)
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

func asCode(err error, c *codeOnly) bool   { return errorsAs(err, c) }
func asExit(err error, e **ExitError) bool { return errorsAs(err, e) }

var errorsAs = errors.As

// TestAnalyzeVersionSkewFromBundle: the kubelet version the node reports, against the cluster.
func TestAnalyzeVersionSkewFromBundle(t *testing.T) {
	// a snapshot of a 1.30 cluster without this instance: the Bottlerocket aws-k8s-1.31 variant's
	// kubelet is newer than the control plane
	snap := filepath.Join(fixtures, "snapshots", "auth-role-path")
	healthy, _ := filepath.Glob(filepath.Join(fixtures, "bundles", "bottlerocket-healthy.tar.gz"))
	_, r, _, _ := analyze(t, "", healthy[0], "--snapshot", snap)
	seen := false
	for _, f := range r.Findings {
		if f.ID == "cluster.version-skew" {
			seen = true
			if f.Status != "fail" || !strings.Contains(f.Evidence[0].Text, "the node's kubelet v1.31; control plane 1.30") {
				t.Fatalf("%s %s %+v", f.Status, f.Message, f.Evidence)
			}
		}
	}
	if !seen {
		t.Fatal("no cluster.version-skew finding")
	}
}

// TestAnalyzeBadInput: unreadable or hostile input exits 4 with a message naming it.
func TestAnalyzeBadInput(t *testing.T) {
	dir := t.TempDir()
	good, _ := os.ReadFile(filepath.Join(fixtures, "bundles", "bottlerocket-unauthorized.tar.gz"))
	trunc := filepath.Join(dir, "truncated.tar.gz")
	_ = os.WriteFile(trunc, good[:len(good)/2], 0o644)
	// cut in the middle: the cause found before the cut stands (exit 1), the damage is said
	code, _, _, stderr := analyze(t, "", trunc)
	if code != ExitFindings || !strings.Contains(stderr, "truncated.tar.gz is damaged") {
		t.Errorf("truncated: exit %d %q", code, stderr)
	}
	code, _, _, stderr = analyze(t, "", filepath.Join(fixtures, "bundles", "bottlerocket-unauthorized.tar.gz"), "--max-bytes", "100")
	if code != ExitInput || !strings.Contains(stderr, "--max-bytes") {
		t.Errorf("limit: exit %d %q", code, stderr)
	}
	code, _, _, stderr = analyze(t, "", filepath.Join(dir, "missing"))
	if code != ExitInput || !strings.Contains(stderr, "missing") {
		t.Errorf("missing: exit %d %q", code, stderr)
	}
	code, _, _, stderr = analyze(t, "", "-")
	if code != ExitInput || !strings.Contains(stderr, "empty") {
		t.Errorf("empty stdin: exit %d %q", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("analyze wrote files: %v", entries)
	}
}

// TestAnalyzeSnapshotInput: a snapshot handed to analyze is recognised and every pending
// instance diagnosed.
func TestAnalyzeSnapshotInput(t *testing.T) {
	analyzeRolePathSnapshot(t, filepath.Join(fixtures, "snapshots", "auth-role-path"))
}

// analyzeRolePathSnapshot runs analyze -o json on the auth-role-path snapshot at p (a directory
// or an archive): read as a snapshot, its one instance diagnosed auth.role-path.
func analyzeRolePathSnapshot(t *testing.T, p string) {
	t.Helper()
	var o, e bytes.Buffer
	cmd := NewRootCmd(&o, &e)
	cmd.SetArgs([]string{"analyze", p, "-o", "json"})
	_ = cmd.Execute()
	if !strings.Contains(e.String(), "snapshot of AWS CLI / kubectl outputs") {
		t.Fatalf("stderr %q", e.String())
	}
	var fleet struct {
		Instances []jsonReport `json:"instances"`
	}
	if err := json.Unmarshal(o.Bytes(), &fleet); err != nil || len(fleet.Instances) != 1 {
		t.Fatalf("%v %s", err, o.String())
	}
	if c := fleet.Instances[0].Diagnosis.MostLikelyCause; c == nil || *c != "auth.role-path" {
		t.Fatalf("cause %v", c)
	}
}

// TestJunkExitsThree: text in which nothing is recognised — the README, a Go file, HTML, {} —
// exits 3 with a message and no report.
func TestJunkExitsThree(t *testing.T) {
	readme, _ := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	goSrc, _ := os.ReadFile("analyze.go")
	for name, in := range map[string][]byte{
		"README.md": readme, "a Go file": goSrc,
		"HTML": []byte("<!DOCTYPE html><html><body><h1>Nodes not joining</h1><p>help</p></body></html>\n"),
		"{}":   []byte("{}\n"),
	} {
		code, _, out, stderr := analyze(t, string(in), "-")
		if code != ExitNothingChecked || out != "" || !strings.Contains(stderr, "recognised") {
			t.Errorf("%s: exit %d, report %d bytes, stderr %q", name, code, len(out), stderr)
		}
	}
}

// TestNonTextExitsFour: bytes that are not text — random bytes, NULs, an image, an xz archive,
// UTF-32, bytes behind a UTF-16 byte-order mark that decode to no text — are refused with exit
// 4 (the input could not be read), a message naming the input and what it is, and no report:
// never the exit 3 of text in which nothing is recognised, nor read as such text.
func TestNonTextExitsFour(t *testing.T) {
	rnd := make([]byte, 8192)
	for i := range rnd {
		rnd[i] = byte(i*7919 + i/13)
	}
	for name, tc := range map[string]struct {
		in   []byte
		what string
	}{
		"random bytes": {rnd, "binary data"},
		"NULs":         {make([]byte, 4096), "only NUL bytes"},
		"UTF-16 BOM":   {append([]byte{0xFF, 0xFE}, rnd...), "UTF-16"},
		"UTF-32":       {[]byte{0xFF, 0xFE, 0, 0, 'a', 0, 0, 0}, "UTF-32"},
		"PNG":          {[]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"), "PNG image"},
		"xz":           {[]byte{0xFD, '7', 'z', 'X', 'Z', 0x00, 0x00, 0x04, 0xE6, 0xD6, 0xB4, 0x46}, "xz-compressed"},
	} {
		for _, file := range []bool{false, true} {
			arg, name := "-", name
			if file {
				arg = filepath.Join(t.TempDir(), "ticket-attachment.txt")
				if err := os.WriteFile(arg, tc.in, 0o644); err != nil {
					t.Fatal(err)
				}
				name += " (file)"
			}
			code, _, out, stderr := analyze(t, string(tc.in), arg)
			if code != ExitInput || out != "" || !strings.Contains(stderr, tc.what) || file && !strings.Contains(stderr, arg) {
				t.Errorf("%s: exit %d, report %d bytes, stderr %q", name, code, len(out), stderr)
			}
		}
	}
}

// TestAnalyzeCollectedSnapshotArchive: the .tar.gz eksdoctor collect and collect-snapshot.sh
// write holds the layout below one folder, snapshot/; analyze reads it as a snapshot, not as a
// bundle it cannot recognise.
func TestAnalyzeCollectedSnapshotArchive(t *testing.T) {
	src := filepath.Join(fixtures, "snapshots", "auth-role-path")
	archive := filepath.Join(t.TempDir(), "snapshot.tar.gz")
	f, err := os.Create(archive)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: "snapshot/" + filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(b)
		return err
	})
	if err != nil || tw.Close() != nil || zw.Close() != nil || f.Close() != nil {
		t.Fatal(err)
	}
	analyzeRolePathSnapshot(t, archive)
}

// TestStderrEscapesControls: what analyze says on stderr about the input (a segment's name, an
// error) shows the input's escape sequences escaped, so a paste copied from an untrusted issue
// cannot set the terminal's title or clear it.
func TestStderrEscapesControls(t *testing.T) {
	paste := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"x\\e]0;PWNED\\a\\e[2J\"\n  namespace: default\ndata: {}\n"
	// (YAML's own escapes: \e is ESC, \a BEL)
	_, _, _, stderr := analyze(t, paste, "-")
	if strings.ContainsAny(stderr, "\x1b\x07") {
		t.Fatalf("raw control characters on stderr: %q", stderr)
	}
	if !strings.Contains(stderr, `\x1b]0;PWNED`) {
		t.Errorf("stderr %q does not show the name escaped", stderr)
	}
}

// TestAnalyzeBase64BlobThatIsNotUserData: a kubelet journal moved through a clipboard as
// gzip+base64 is read as the journal (its Unauthorized loop is the cause), and the cluster CA
// alone is not user data (no bootstrap.no-bootstrap from it).
func TestAnalyzeBase64BlobThatIsNotUserData(t *testing.T) {
	journal := "Nov 20 09:41:02 ip-10-0-1-23.us-west-2.compute.internal kubelet[3121]: E1120 09:41:02.530114    3121 kubelet_node_status.go:95] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.us-west-2.compute.internal\"\n" +
		"Nov 20 09:41:09 ip-10-0-1-23.us-west-2.compute.internal kubelet[3121]: E1120 09:41:09.549917    3121 kubelet_node_status.go:95] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.us-west-2.compute.internal\"\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(journal))
	_ = zw.Close()
	code, r, _, errOut := analyze(t, base64.StdEncoding.EncodeToString(gz.Bytes())+"\n", "-")
	if code != 1 || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.unauthorized" || !strings.Contains(errOut, "gzip+base64-decoded journal") {
		t.Errorf("gzip+base64 journal: exit %d, cause %v, failing %v, stderr %q; want exit 1, runtime.unauthorized", code, r.Diagnosis.MostLikelyCause, failing(r), errOut)
	}
	ca := base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nMIIC/jCCAeagAwIBAgIBADANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl\n-----END CERTIFICATE-----\n"))
	code, r, _, errOut = analyze(t, ca+"\n", "-")
	if code == 1 || slices.Contains(failing(r), "bootstrap.no-bootstrap") || !strings.Contains(errOut, "base64-decoded") {
		t.Errorf("cluster CA alone: exit %d, failing %v, stderr %q; want no finding and the blob named as base64-decoded text", code, failing(r), errOut)
	}
}

// TestAnalyzeUserDataStepAfterBootstrap: bootstrap.sh printed "complete!" (it had started the
// kubelet) and a later user-data command failed, so cloud-init reports the script part failed.
// That failure is not the bootstrap agent's: runtime.bootstrap-failed warns, it is not the cause.
// A failure of bootstrap.sh itself after its start is still the cause.
func TestAnalyzeUserDataStepAfterBootstrap(t *testing.T) {
	head := "[   10.982311] cloud-init[2211]: Cloud-init v. 19.3-46.amzn2.0.2 running 'modules:final' at Thu, 20 Nov 2025 09:40:51 +0000. Up 10.97 seconds.\n" +
		"[   11.010101] cloud-init[2211]: 2025-11-20T09:40:51+0000 [eks-bootstrap] INFO: starting...\n"
	done := "[   12.900211] cloud-init[2211]: 2025-11-20T09:40:53+0000 [eks-bootstrap] INFO: complete!\n" +
		"[   12.901001] cloud-init[2211]: + yum install -y https://s3.amazonaws.com/amazoncloudwatch-agent/amazon_linux/amd64/latest/amazon-cloudwatch-agent.rpm\n" +
		"[   43.120555] cloud-init[2211]: Error: Nothing to do\n"
	fails := "[   43.131202] cloud-init[2211]: Nov 20 09:41:23 cloud-init[2211]: util.py[WARNING]: Failed running /var/lib/cloud/instance/scripts/part-001 [1]\n" +
		"[   43.131455] cloud-init[2211]: Nov 20 09:41:23 cloud-init[2211]: cc_scripts_user.py[WARNING]: Failed to run module scripts-user (scripts in /var/lib/cloud/instance/scripts)\n" +
		"[   43.190101] cloud-init[2211]: Cloud-init v. 19.3-46.amzn2.0.2 finished at Thu, 20 Nov 2025 09:41:23 +0000. Datasource DataSourceEc2.  Up 43.18 seconds\n"
	code, r, _, _ := analyze(t, head+done+fails, "-")
	status, msg := "", ""
	for _, f := range r.Findings {
		if f.ID == "runtime.bootstrap-failed" {
			status, msg = f.Status, f.Message
		}
	}
	if code == 1 || slices.Contains(failing(r), "runtime.bootstrap-failed") || status != "warn" || !strings.Contains(msg, "after the bootstrap agent finished") {
		t.Errorf("step after complete!: exit %d, failing %v, runtime.bootstrap-failed %s %q; want a warning naming the step after the agent finished", code, failing(r), status, msg)
	}
	// bootstrap.sh never completed: the same cloud-init failure is the cause
	code, r, _, _ = analyze(t, head+fails, "-")
	if code != 1 || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.bootstrap-failed" {
		t.Errorf("no complete!: exit %d, cause %v; want exit 1, runtime.bootstrap-failed", code, r.Diagnosis.MostLikelyCause)
	}
}

// TestTruncatedGzipPasteReadsWhatDecompressed (red team round 8b, finding 18): a gzip-compressed
// log cut short (an interrupted download) is read up to the cut, as a rotated .gz inside a
// bundle is: the cause in the lines before is found, the report lists the cut as an input
// problem and stderr says so. A stream that decompresses to nothing stays an input error.
func TestTruncatedGzipPasteReadsWhatDecompressed(t *testing.T) {
	var log strings.Builder
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&log, "Nov 24 10:%02d:%02d ip-10-0-1-23 kubelet[2345]: E1124 10:%02d:%02d.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.ec2.internal\" attempt=%d\n", i/60%60, i%60, i/60%60, i%60, i)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(log.String()))
	_ = zw.Close()
	dir := t.TempDir()
	cut := filepath.Join(dir, "kubelet.log.gz")
	if err := os.WriteFile(cut, gz.Bytes()[:gz.Len()*9/10], 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run("analyze", cut, "-o", "json")
	var r jsonReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("exit %d, no JSON report: %v\n%s", code, err, errOut)
	}
	if code != 1 || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "runtime.unauthorized" {
		t.Errorf("exit %d, cause %v; want 1, runtime.unauthorized\n%s", code, r.Diagnosis.MostLikelyCause, errOut)
	}
	if !strings.Contains(out, `"inputProblems": [`) || !strings.Contains(out, "gzip stream is cut") {
		t.Errorf("the cut is not an input problem:\n%s", out)
	}
	if !strings.Contains(errOut, "read only in part") {
		t.Errorf("stderr does not say the input was read in part: %q", errOut)
	}
	// only the gzip header: nothing decompresses, the input error stands
	head := filepath.Join(dir, "head.log.gz")
	if err := os.WriteFile(head, gz.Bytes()[:12], 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run("analyze", head); code != 4 || !strings.Contains(errOut, "does not decompress") {
		t.Errorf("a gzip header alone: exit %d, %q", code, errOut)
	}
}
