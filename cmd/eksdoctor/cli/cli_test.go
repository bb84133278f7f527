package cli

import (
	"archive/tar"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/klauspost/compress/gzip"
)

var update = flag.Bool("update", false, "rewrite fixtures/golden from the current output")

const fixtures = "../../../fixtures"

type scenario struct {
	Name       string  `json:"name"`
	InstanceID string  `json:"instanceId"`
	Expect     *string `json:"expect"`
}

func loadScenarios(t testing.TB) []scenario {
	b, err := os.ReadFile(filepath.Join(fixtures, "scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []scenario
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(out) < 8 {
		t.Fatalf("only %d scenarios", len(out))
	}
	return out
}

func run(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Main(args, &o, &e)
	return code, o.String(), e.String()
}

type jsonReport struct {
	SchemaVersion string `json:"schemaVersion"`
	Diagnosis     struct {
		Verdict         string  `json:"verdict"`
		MostLikelyCause *string `json:"mostLikelyCause"`
		Summary         string  `json:"summary"`
		Node            *struct {
			Name  string `json:"name"`
			Ready bool   `json:"ready"`
		} `json:"node"`
		Unchecked []struct {
			ID     string `json:"id"`
			Reason string `json:"reason"`
			Denied bool   `json:"denied"`
		} `json:"unchecked"`
	} `json:"diagnosis"`
	Findings []struct {
		ID       string `json:"id"`
		Status   string `json:"status"`
		Severity string `json:"severity"`
		Resource string `json:"resource"`
		Message  string `json:"message"`
		Evidence []struct {
			Source string `json:"source"`
			Text   string `json:"text"`
		} `json:"evidence"`
		Remediation string   `json:"remediation"`
		Docs        []string `json:"docs"`
	} `json:"findings"`
	Paths []struct {
		Flow    string `json:"flow"`
		Verdict string `json:"verdict"`
		Hops    []struct {
			Hop     string `json:"hop"`
			Verdict string `json:"verdict"`
		} `json:"hops"`
	} `json:"paths"`
	Summary struct {
		Checks, Fail, Warn, Pass, Skipped, Error int
	} `json:"summary"`
	Gaps []struct {
		Kind       string `json:"kind"`
		Reason     string `json:"reason"`
		Permission string `json:"permission"`
	} `json:"gaps"`
}

func TestScenariosGolden(t *testing.T) {
	for _, sc := range loadScenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			snap := filepath.Join(fixtures, "snapshots", sc.Name)
			code, out, errOut := run("why-not-joining", sc.InstanceID, "--snapshot", snap, "-o", "json")
			var r jsonReport
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("output is not JSON (%v): %s %s", err, out, errOut)
			}
			if r.SchemaVersion != "eksdoctor/v1" || r.Summary.Checks != len(checks.Default().All()) {
				t.Errorf("schema %q checks %d", r.SchemaVersion, r.Summary.Checks)
			}
			if sc.Expect == nil {
				if r.Diagnosis.MostLikelyCause != nil || r.Summary.Fail != 0 || code != ExitOK {
					t.Fatalf("healthy scenario: cause %v, %d failures, exit %d", r.Diagnosis.MostLikelyCause, r.Summary.Fail, code)
				}
			} else {
				if r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != *sc.Expect {
					t.Fatalf("mostLikelyCause = %v, want %s (%s)", r.Diagnosis.MostLikelyCause, *sc.Expect, r.Diagnosis.Summary)
				}
				// an instance whose Node exists has joined: exit 0 when it is Ready (the cause is
				// reported as another problem), 1 when it is NotReady with a cause; a symptom
				// alone (a NodeClaim never registered) names no cause: inconclusive, 3
				want := ExitFindings
				switch {
				case r.Diagnosis.Verdict == "joined" && r.Diagnosis.Node != nil && r.Diagnosis.Node.Ready:
					want = ExitOK
				case slices.Contains(symptomIDs, *sc.Expect) && r.Summary.Fail == 1:
					if r.Diagnosis.Verdict != "inconclusive" {
						t.Errorf("only the symptom %s fails: verdict %s, want inconclusive", *sc.Expect, r.Diagnosis.Verdict)
					}
					want = ExitNothingChecked
				}
				if code != want {
					t.Errorf("exit %d, want %d (verdict %s)", code, want, r.Diagnosis.Verdict)
				}
				f := r.Findings[0]
				if f.ID != *sc.Expect || f.Status != "fail" || f.Resource == "" || f.Remediation == "" || len(f.Evidence) == 0 || len(f.Docs) == 0 {
					t.Errorf("first finding is not a complete failure of %s: %+v", *sc.Expect, f)
				}
			}
			isNet := func(id string) bool {
				return strings.HasPrefix(id, "net.") || id == "nodegroup.lt-custom-sg-no-cluster-sg"
			}
			for _, f := range r.Findings {
				if f.Status == "error" {
					t.Errorf("check error %s: %s", f.ID, f.Message)
				}
				if f.Status != "fail" || !isNet(f.ID) {
					continue
				}
				// exactly the injected network check fails, naming the blocking resource
				if sc.Expect == nil || f.ID != *sc.Expect {
					t.Errorf("unexpected network failure %s: %s", f.ID, f.Message)
				}
				named := false
				for _, p := range []string{"rtb-", "acl-", "sg-", "vpce-", "nat-", "igw-", "publicAccessCidrs", "dopt-", "vpc-", "private only"} {
					named = named || strings.Contains(f.Message, p)
				}
				if !named {
					t.Errorf("%s does not name the blocking route, rule or endpoint: %s", f.ID, f.Message)
				}
			}
			// a NodeClaim that never launched has no instance, hence no network path to judge
			if len(r.Paths) < 6 && (strings.HasPrefix(sc.InstanceID, "i-") || len(r.Paths) != 0) {
				t.Errorf("only %d network paths", len(r.Paths))
			}
			// a flow blocked where the block is only a post-join warning (S3 layers for a node
			// not seen joined) names no cause: its check warns instead
			warned := map[string]bool{}
			for _, f := range r.Findings {
				warned[f.ID] = warned[f.ID] || f.Status == "warn"
			}
			for _, p := range r.Paths {
				if sc.Expect == nil && p.Verdict != "reachable" && !(p.Flow == "s3" && warned["net.s3-endpoint-policy"]) {
					t.Errorf("healthy scenario: flow %s is %s", p.Flow, p.Verdict)
				}
			}
			checkGolden(t, filepath.Join(fixtures, "golden", sc.Name+".json"), out)
		})
	}
}

func TestTableAndMarkdownName(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "bootstrap-ca-mismatch")
	code, out, _ := run("why-not-joining", "i-0a1b2c3d4e5f60008", "--snapshot", snap, "--no-color")
	if code != ExitFindings || !strings.Contains(out, "Most likely cause: bootstrap.ca-mismatch") || strings.Contains(out, "\x1b[") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	_, md, _ := run("why-not-joining", "i-0a1b2c3d4e5f60008", "--snapshot", snap, "-o", "markdown")
	if !strings.Contains(md, "**Most likely cause: `bootstrap.ca-mismatch`**") || !strings.Contains(md, "| fail | critical | `bootstrap.ca-mismatch` |") {
		t.Fatalf("markdown:\n%s", md)
	}
	code, _, _ = run("why-not-joining", "i-0a1b2c3d4e5f60008", "--snapshot", snap, "--exit-zero")
	if code != ExitOK {
		t.Errorf("--exit-zero exit %d", code)
	}
}

func TestExitCodesAndBadInput(t *testing.T) {
	// no AWS configuration may leak in: live mode must fail before any call
	for k, v := range map[string]string{"AWS_REGION": "", "AWS_DEFAULT_REGION": "", "AWS_PROFILE": "", "AWS_ENDPOINT_URL": "http://127.0.0.1:9",
		"AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none")} {
		t.Setenv(k, v)
	}
	healthy := filepath.Join(fixtures, "snapshots", "healthy-al2023")
	dir := t.TempDir()
	// truncated tar.gz
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	body := bytes.Repeat([]byte("{}"), 4096)
	tw.WriteHeader(&tar.Header{Name: "snap/ec2/describe-instances.json", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
	tw.Write(body)
	tw.Close()
	zw.Close()
	truncated := filepath.Join(dir, "truncated.tar.gz")
	os.WriteFile(truncated, buf.Bytes()[:buf.Len()/2], 0o644)
	notArchive := filepath.Join(dir, "junk.tar.gz")
	os.WriteFile(notArchive, []byte("this is not gzip"), 0o644)

	cases := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"unknown instance", []string{"why-not-joining", "i-0000000000000dead", "--snapshot", healthy}, ExitInput, "not in ec2/describe-instances.json"},
		{"missing snapshot", []string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", filepath.Join(dir, "nope")}, ExitInput, "no such file"},
		{"truncated archive", []string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", truncated}, ExitInput, "corrupt or truncated"},
		{"not an archive", []string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", notArchive}, ExitInput, "is not a snapshot archive: a snapshot is a directory, or a .tar.gz, .tar or .zip of one"},
		{"live without a region", []string{"why-not-joining", "i-0a1b2c3d4e5f60001"}, ExitInput, "no AWS region"},
		{"bad output", []string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", healthy, "-o", "yaml"}, ExitUsage, "unknown --output"},
		{"bad instance id", []string{"why-not-joining", "Node_1", "--snapshot", healthy}, ExitUsage, "neither an EC2 instance ID (i-...) nor a NodeClaim name"},
		{"unknown nodeclaim", []string{"why-not-joining", "default-abcde", "--snapshot", healthy}, ExitInput, "Karpenter / EKS Auto Mode is not installed in the cluster"},
		{"nodeclaim live without cluster", []string{"why-not-joining", "default-abcde", "--region", "eu-west-1"}, ExitUsage, "why-not-joining NODECLAIM against AWS needs --cluster"},
		{"bad selector", []string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", healthy, "--checks", "nope.*"}, ExitUsage, "no check matches"},
		{"unknown flag", []string{"why-not-joining", "--frobnicate"}, ExitUsage, "unknown flag"},
		{"unknown explain", []string{"explain", "auth.nope"}, ExitUsage, "no check"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := run(tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.err) {
				t.Fatalf("exit %d stderr %q, want %d containing %q", code, errOut, tc.code, tc.err)
			}
		})
	}
}

// copyDir copies a fixture so a test can damage it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func findingOf(t *testing.T, out, id string) (status, message string) {
	t.Helper()
	var r jsonReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, f := range r.Findings {
		if f.ID == id {
			return f.Status, f.Message
		}
	}
	t.Fatalf("no finding %s", id)
	return "", ""
}

func TestDamagedSnapshotFiles(t *testing.T) {
	const id = "i-0a1b2c3d4e5f60001"
	snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	unregister(t, snap, id)
	// invalid JSON in one file: that evidence is a gap naming the file, the rest still loads
	os.WriteFile(filepath.Join(snap, "iam", "list-attached-role-policies", "prod-node-role.json"), []byte(`{"AttachedPolicies": [`), 0o644)
	// an AWS CLI error captured instead of JSON
	os.WriteFile(filepath.Join(snap, "ec2", "describe-subnets.json"), []byte("\nAn error occurred (UnauthorizedOperation) when calling the DescribeSubnets operation: You are not authorized to perform this operation.\n"), 0o644)
	code, out, _ := run("why-not-joining", id, "--snapshot", snap, "-o", "json")
	if code != ExitPartial {
		t.Errorf("exit %d, want %d (partial: a permission was denied)", code, ExitPartial)
	}
	if st, msg := findingOf(t, out, "iam.node-role-policies"); st != "skipped" || !strings.Contains(msg, "parse error in iam/list-attached-role-policies/prod-node-role.json") {
		t.Errorf("iam.node-role-policies %s %q", st, msg)
	}
	if st, msg := findingOf(t, out, "subnet.ip-exhausted"); st != "skipped" || !strings.Contains(msg, "missing permission ec2:DescribeSubnets (UnauthorizedOperation)") {
		t.Errorf("subnet.ip-exhausted %s %q", st, msg)
	}
	if st, _ := findingOf(t, out, "auth.role-not-mapped"); st != "pass" {
		t.Errorf("unrelated check %s", st)
	}
	if !strings.Contains(out, `"inputProblems": [`) || !strings.Contains(out, "list-attached-role-policies") {
		t.Error("input problem not reported")
	}
}

// unregister removes instance id's Node from a snapshot copy, so the instance has not joined.
func unregister(t *testing.T, snap, id string) {
	t.Helper()
	p := filepath.Join(snap, "kube", "nodes.json")
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return // no cluster side: no Node either
	}
	if err != nil {
		t.Fatal(err)
	}
	var list map[string]any
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	var keep []any
	for _, it := range list["items"].([]any) {
		if pid, _ := it.(map[string]any)["spec"].(map[string]any)["providerID"].(string); !strings.HasSuffix(pid, "/"+id) {
			keep = append(keep, it)
		}
	}
	list["items"] = keep
	b, _ = json.Marshal(list)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeUserData(t *testing.T, snap, id, b64 string) {
	t.Helper()
	unregister(t, snap, id)
	b, _ := json.Marshal(map[string]any{"InstanceId": id, "UserData": map[string]string{"Value": b64}})
	if err := os.WriteFile(filepath.Join(snap, "ec2", "instance-user-data", id+".json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHostileUserData(t *testing.T) {
	const id = "i-0a1b2c3d4e5f60001"
	cases := []struct {
		name, b64, check, status, msg string
	}{
		{"not base64", "#!/bin/bash\n/etc/eks/bootstrap.sh prod", "bootstrap.userdata-unparseable", "fail", "not valid base64"},
		{"no closing boundary", base64.StdEncoding.EncodeToString([]byte("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: application/node.eks.aws\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n")),
			"bootstrap.userdata-unparseable", "fail", "no closing boundary"},
		{"20 MB", base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("#!/bin/bash\necho filler filler filler filler filler filler\n"), 20<<20/48)),
			"bootstrap.userdata-too-large", "fail", "over the 16384-byte limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
			writeUserData(t, snap, id, tc.b64)
			code, out, errOut := run("why-not-joining", id, "--snapshot", snap, "-o", "json")
			if code != ExitFindings {
				t.Fatalf("exit %d %s", code, errOut)
			}
			if st, msg := findingOf(t, out, tc.check); st != tc.status || !strings.Contains(msg, tc.msg) {
				t.Errorf("%s %s %q", tc.check, st, msg)
			}
		})
	}
}

func TestNothingChecked(t *testing.T) {
	snap := t.TempDir()
	os.MkdirAll(filepath.Join(snap, "ec2"), 0o755)
	os.WriteFile(filepath.Join(snap, "ec2", "describe-instances.json"), []byte(`{"Reservations":[{"Instances":[{"InstanceId":"i-0123456789abcdef0","State":{"Code":16,"Name":"running"}}]}]}`), 0o644)
	code, out, _ := run("why-not-joining", "i-0123456789abcdef0", "--snapshot", snap, "--checks", "auth.*,csr.*", "-o", "json")
	if code != ExitNothingChecked {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestSnapshotTarGz(t *testing.T) {
	src := filepath.Join(fixtures, "snapshots", "auth-role-path")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, _ := os.ReadFile(p)
		tw.WriteHeader(&tar.Header{Name: "./snap/" + filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg})
		tw.Write(b)
		return nil
	})
	// hostile members are skipped, never written anywhere
	tw.WriteHeader(&tar.Header{Name: "../../etc/evil", Mode: 0o644, Size: 1, Typeflag: tar.TypeReg})
	tw.Write([]byte("x"))
	tw.WriteHeader(&tar.Header{Name: "snap/kube/link.json", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink})
	tw.Close()
	zw.Close()
	archive := filepath.Join(t.TempDir(), "snap.tar.gz")
	os.WriteFile(archive, buf.Bytes(), 0o644)
	code, out, _ := run("why-not-joining", "i-0a1b2c3d4e5f60006", "--snapshot", archive, "-o", "json")
	var r jsonReport
	json.Unmarshal([]byte(out), &r)
	if code != ExitFindings || r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "auth.role-path" {
		t.Fatalf("exit %d cause %v", code, r.Diagnosis.MostLikelyCause)
	}
	if !strings.Contains(out, "leaves the archive") || !strings.Contains(out, "not a regular file") {
		t.Error("hostile members not reported as input problems")
	}
}

func TestChecksListExplainVersion(t *testing.T) {
	code, out, _ := run("checks", "list", "-o", "json")
	var list []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != len(checks.Default().All()) {
		t.Fatalf("checks list: exit %d, %d entries", code, len(list))
	}
	code, out, _ = run("explain", "auth.role-path", "-o", "markdown")
	if code != 0 || !strings.Contains(out, "# auth.role-path") || !strings.Contains(out, "## What to do") {
		t.Fatalf("explain: %d %s", code, out)
	}
	if code, out, _ = run("version"); code != 0 || !strings.Contains(out, "eksdoctor") {
		t.Fatalf("version: %d %s", code, out)
	}
	if code, out, _ = run("completion", "bash"); code != 0 || !strings.Contains(out, "eksdoctor") {
		t.Fatalf("completion: %d", code)
	}
}

func readArchiveFile(t *testing.T, archive, name string) []byte {
	t.Helper()
	var found []byte
	eachTarMember(t, archive, func(h *tar.Header, r io.Reader) bool {
		if h.Name == name {
			found, _ = io.ReadAll(r)
			return false
		}
		return true
	})
	return found
}

// eachTarMember calls fn for each member of a .tar.gz until fn returns false.
func eachTarMember(t *testing.T, archive string, fn func(h *tar.Header, r io.Reader) bool) {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil || !fn(h, tr) {
			return
		}
	}
}

// checkGolden compares a report (fixture paths normalised) with its golden file, or rewrites the
// file with -update.
func checkGolden(t *testing.T, golden, out string) {
	t.Helper()
	normalized := strings.ReplaceAll(out, fixtures+"/", "fixtures/")
	if *update {
		_ = os.MkdirAll(filepath.Dir(golden), 0o755)
		if err := os.WriteFile(golden, []byte(normalized), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/eksdoctor/cli -run Golden -update)", err)
	}
	if string(want) != normalized {
		t.Errorf("output differs from %s; rerun with -update and review the diff", golden)
	}
}

// TestSnapshotOfAnotherCluster: --cluster naming a cluster the snapshot was not collected for is
// an input error (exit 4) in every command that reads one, not the snapshot's data judged as that
// cluster's (a made-up bootstrap.cluster-name-mismatch).
func TestSnapshotOfAnotherCluster(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "auth-role-path")
	var m struct {
		InstanceIDs []string `json:"instanceIds"`
	}
	b, _ := os.ReadFile(filepath.Join(snap, "manifest.json"))
	if err := json.Unmarshal(b, &m); err != nil || len(m.InstanceIDs) == 0 {
		t.Fatalf("manifest: %v", err)
	}
	for _, args := range [][]string{
		{"scan", "--cluster", "other", "--snapshot", snap},
		{"why-not-joining", "--all-pending", "--cluster", "other", "--snapshot", snap},
		{"why-not-joining", m.InstanceIDs[0], "--cluster", "other", "--snapshot", snap},
	} {
		code, out, stderr := run(args...)
		if code != ExitInput || out != "" || !strings.Contains(stderr, "not other (--cluster)") {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q", args, code, len(out), stderr)
		}
	}
}
