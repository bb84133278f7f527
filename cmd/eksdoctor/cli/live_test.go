package cli

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/awsapi"
	"github.com/eksdoctor/eksdoctor/collectors/awsapi/awsfake"
)

// liveEnv starts the AWS wire-protocol fake on a copy of a snapshot scenario and points the
// SDK at it through AWS_ENDPOINT_URL, with static fake credentials and no shared config.
func liveEnv(t *testing.T, snap string, tune func(*awsfake.Server)) *awsfake.Server {
	t.Helper()
	f := awsfake.New(snap)
	if tune != nil {
		tune(f)
	}
	url := f.Start()
	t.Cleanup(f.Close)
	for k, v := range map[string]string{"AWS_ENDPOINT_URL": url, "AWS_ACCESS_KEY_ID": "AKIDFAKEFAKEFAKE", "AWS_SECRET_ACCESS_KEY": "fake",
		"AWS_SESSION_TOKEN": "", "AWS_PROFILE": "", "AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "", "AWS_EC2_METADATA_DISABLED": "true",
		"AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none"),
		"AWS_MAX_ATTEMPTS": "", "AWS_RETRY_MODE": "", "KUBECONFIG": filepath.Join(t.TempDir(), "no-kubeconfig"), "KUBERNETES_SERVICE_HOST": ""} {
		t.Setenv(k, v)
	}
	return f
}

// withoutKube copies a snapshot without kube/: live mode reads only AWS in this build.
func withoutKube(t *testing.T, src string) string {
	dst := copyDir(t, src)
	if err := os.RemoveAll(filepath.Join(dst, "kube")); err != nil {
		t.Fatal(err)
	}
	pruneNotCollectedLive(t, dst)
	return dst
}

// comparable is a finding without the evidence sources, which name the snapshot file in one
// mode and the API operation in the other.
type comparable struct {
	ID, Status, Resource, Message string
	Evidence                      []string
}

func findingsOf(t *testing.T, out string) (map[string][]comparable, *jsonReport) {
	t.Helper()
	var r jsonReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON (%v): %s", err, out)
	}
	m := map[string][]comparable{}
	for _, f := range r.Findings {
		// a file the source does not hold is "not collected" live and "not in snapshot" offline
		msg := strings.ReplaceAll(f.Message, "not collected (", "not in snapshot (")
		c := comparable{ID: f.ID, Status: f.Status, Resource: f.Resource, Message: msg}
		for _, e := range f.Evidence {
			c.Evidence = append(c.Evidence, e.Text)
		}
		m[f.ID] = append(m[f.ID], c)
	}
	return m, &r
}

func sameFindings(t *testing.T, a, b map[string][]comparable) {
	t.Helper()
	ids := map[string]bool{}
	for id := range a {
		ids[id] = true
	}
	for id := range b {
		ids[id] = true
	}
	for id := range ids {
		ja, _ := json.Marshal(a[id])
		jb, _ := json.Marshal(b[id])
		if string(ja) != string(jb) {
			t.Errorf("%s differs:\n live:     %s\n snapshot: %s", id, ja, jb)
		}
	}
}

func TestLiveEquivalentToSnapshot(t *testing.T) {
	for _, sc := range loadScenarios(t) {
		if !strings.HasPrefix(sc.InstanceID, "i-") {
			// a NodeClaim is resolved from the cluster side, which --no-kube leaves out; the
			// kube integration suite compares the live NodeClaims with the snapshot's
			continue
		}
		t.Run(sc.Name, func(t *testing.T) {
			snap := withoutKube(t, filepath.Join(fixtures, "snapshots", sc.Name))
			fake := liveEnv(t, snap, nil)
			code, live, errOut := run("why-not-joining", sc.InstanceID, "-o", "json", "--no-kube")
			codeS, offline, _ := run("why-not-joining", sc.InstanceID, "--snapshot", snap, "-o", "json")
			if code != codeS {
				t.Errorf("exit %d live, %d snapshot (%s)", code, codeS, errOut)
			}
			lf, lr := findingsOf(t, live)
			sf, sr := findingsOf(t, offline)
			sameFindings(t, lf, sf)
			if (lr.Diagnosis.MostLikelyCause == nil) != (sr.Diagnosis.MostLikelyCause == nil) ||
				lr.Diagnosis.MostLikelyCause != nil && *lr.Diagnosis.MostLikelyCause != *sr.Diagnosis.MostLikelyCause {
				t.Errorf("cause differs: %v vs %v", lr.Diagnosis.MostLikelyCause, sr.Diagnosis.MostLikelyCause)
			}
			// 25 for the node and its network, 2 for the cluster role (GetRole, ListAttachedRolePolicies),
			// one FilterLogEvents per control-plane log the cluster sends
			if n, most := fake.Requests(), 29+controlPlaneLogFiles(snap); n > most {
				t.Errorf("%d AWS requests for one diagnosis, want at most %d", n, most)
			}
		})
	}
}

func TestLiveThrottledHalfTheCalls(t *testing.T) {
	snap := withoutKube(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	liveEnv(t, snap, nil)
	baseCode, base, _ := run("why-not-joining", "i-0a1b2c3d4e5f60001", "-o", "json", "--no-kube")
	fake := liveEnv(t, snap, func(s *awsfake.Server) { s.ThrottleEvery = 2 })
	code, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "-o", "json", "--no-kube")
	if code != baseCode || code != ExitNothingChecked {
		// --no-kube: aws-auth is never read, so the healthy node's run is inconclusive either way
		t.Fatalf("exit %d, %d without throttling: %s", code, baseCode, errOut)
	}
	b, _ := findingsOf(t, base)
	o, _ := findingsOf(t, out)
	sameFindings(t, o, b)
	if fake.Requests() < 30 {
		t.Errorf("only %d requests: throttling was not exercised", fake.Requests())
	}
}

func TestLiveAccessDeniedOnEachOperation(t *testing.T) {
	snap := withoutKube(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	fake := liveEnv(t, snap, nil)
	_, base, _ := run("why-not-joining", "i-0a1b2c3d4e5f60001", "-o", "json", "--no-kube")
	baseline, _ := findingsOf(t, base)
	used := map[string]bool{}
	for _, op := range fake.Operations() {
		used[op] = true
	}
	var ops []string
	for op := range used {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	for _, op := range ops {
		t.Run(op, func(t *testing.T) {
			liveEnv(t, snap, func(s *awsfake.Server) { s.Deny[op] = true })
			code, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "-o", "json", "--no-kube")
			if op == "ec2:DescribeInstances" {
				if code != ExitInput || !strings.Contains(errOut, "UnauthorizedOperation") {
					t.Fatalf("exit %d %q", code, errOut)
				}
				return
			}
			if code != ExitPartial {
				t.Fatalf("exit %d, want %d (partial): %s", code, ExitPartial, errOut)
			}
			got, r := findingsOf(t, out)
			if !strings.Contains(out, `"deniedPermissions": [`) || !strings.Contains(out, `"`+op+`"`) {
				t.Errorf("deniedPermissions does not name %s", op)
			}
			_ = r
			for id, fs := range got {
				for i, f := range fs {
					if i >= len(baseline[id]) || f.Status == baseline[id][i].Status {
						continue
					}
					// every check that changed is skipped and names the denied permission
					if f.Status != "skipped" || !strings.Contains(f.Message, "missing permission "+op) {
						t.Errorf("%s changed from %s to %s: %s", id, baseline[id][i].Status, f.Status, f.Message)
					}
				}
			}
		})
	}
}

func TestCollectRoundTripAndRedaction(t *testing.T) {
	snap := withoutKube(t, filepath.Join(fixtures, "snapshots", "auth-role-path"))
	const id = "i-0a1b2c3d4e5f60006"
	// a secret in the user data, as people do
	ud := "#!/bin/bash\nexport AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nexport AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n" +
		"/etc/eks/bootstrap.sh prod --b64-cluster-ca LS0tLS1CRUdJTg== --apiserver-endpoint https://x.gr7.eu-west-1.eks.amazonaws.com\n"
	writeUserData(t, snap, id, base64.StdEncoding.EncodeToString([]byte(ud)))
	liveEnv(t, snap, nil)
	code, live, _ := run("why-not-joining", id, "-o", "json", "--no-kube")
	// the unredacted snapshot gives exactly the live findings
	kept := filepath.Join(t.TempDir(), "kept.tar.gz")
	if c, _, errOut := run("collect", "--cluster", "prod", "--instance", id, "--archive", kept, "--no-redact", "--no-kube"); c != 0 {
		t.Fatalf("collect exit %d: %s", c, errOut)
	}
	codeS, offline, _ := run("why-not-joining", id, "--snapshot", kept, "-o", "json")
	if code != codeS {
		t.Errorf("exit %d live, %d from collected snapshot", code, codeS)
	}
	lf, _ := findingsOf(t, live)
	sf, _ := findingsOf(t, offline)
	sameFindings(t, lf, sf)
	out := filepath.Join(t.TempDir(), "snap.tar.gz")
	if c, _, errOut := run("collect", "--cluster", "prod", "--instance", id, "--archive", out, "--no-kube"); c != 0 {
		t.Fatalf("collect exit %d: %s", c, errOut)
	}

	raw := readArchiveFile(t, out, "snapshot/ec2/instance-user-data/"+id+".json")
	var attr struct{ UserData struct{ Value string } }
	json.Unmarshal(raw, &attr)
	dec, _ := base64.StdEncoding.DecodeString(attr.UserData.Value)
	if strings.Contains(string(dec), "AKIAIOSFODNN7EXAMPLE") || strings.Contains(string(dec), "wJalrXUtnFEMI") || !strings.Contains(string(dec), "REDACTED") {
		t.Errorf("secrets not redacted:\n%s", dec)
	}
	if !strings.Contains(string(dec), "--b64-cluster-ca LS0tLS1CRUdJTg==") {
		t.Errorf("bootstrap flags must be kept:\n%s", dec)
	}
	for _, p := range []string{"snapshot/manifest.json", "snapshot/eks/describe-cluster.json", "snapshot/ec2/describe-subnets.json"} {
		if len(readArchiveFile(t, out, p)) == 0 {
			t.Errorf("%s missing from the collected snapshot", p)
		}
	}
	// EKS output is camelCase, EC2 PascalCase, as the AWS CLI prints them
	if c := string(readArchiveFile(t, out, "snapshot/eks/describe-cluster.json")); !strings.Contains(c, `"resourcesVpcConfig"`) || !strings.Contains(c, `"certificateAuthority"`) {
		t.Errorf("describe-cluster is not camelCase:\n%.300s", c)
	}
	if c := string(readArchiveFile(t, out, "snapshot/ec2/describe-subnets.json")); !strings.Contains(c, `"AvailableIpAddressCount"`) {
		t.Errorf("describe-subnets is not PascalCase:\n%.300s", c)
	}
	json.Unmarshal(readArchiveFile(t, kept, "snapshot/ec2/instance-user-data/"+id+".json"), &attr)
	dec, _ = base64.StdEncoding.DecodeString(attr.UserData.Value)
	if !strings.Contains(string(dec), "AKIAIOSFODNN7EXAMPLE") {
		t.Error("--no-redact redacted anyway")
	}
}

// readOnly matches the actions eksdoctor may call: Describe/Get/List, and the two read-only
// searches of the control plane's and the account's history (logs:FilterLogEvents,
// cloudtrail:LookupEvents).
var readOnly = regexp.MustCompile(`^((ec2|eks|iam|autoscaling):(Describe|Get|List)[A-Za-z]+|logs:FilterLogEvents|cloudtrail:LookupEvents)$`)

// TestIAMPolicyCoversEveryCall runs live diagnoses and a collect against the fake, records
// every operation the SDK invoked, and fails if one is missing from the published policy or is
// not a read-only Describe/Get/List operation, or if the policy grants an action no run called.
func TestIAMPolicyCoversEveryCall(t *testing.T) {
	code, out, _ := run("iam-policy")
	doc, err := os.ReadFile("../../../docs/iam-policy.json")
	if code != 0 || err != nil || string(doc) != out {
		t.Fatalf("docs/iam-policy.json differs from 'eksdoctor iam-policy' (regenerate with: go run ./cmd/eksdoctor iam-policy > docs/iam-policy.json)")
	}
	var policy struct{ Statement []struct{ Action []string } }
	if err := json.Unmarshal(doc, &policy); err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{}
	for _, a := range policy.Statement[0].Action {
		if !readOnly.MatchString(a) {
			t.Errorf("policy action %s is not a read-only Describe/Get/List operation", a)
		}
		allowed[a] = true
	}
	seen := map[string]bool{}
	for _, sc := range []scenario{{Name: "healthy-al2023", InstanceID: "i-0a1b2c3d4e5f60001"}, {Name: "healthy-al2-self-managed", InstanceID: "i-0a1b2c3d4e5f60002"},
		{Name: "healthy-private-cluster", InstanceID: "i-0a1b2c3d4e5f60015"}, {Name: "control-plane-logs+fargate", InstanceID: "i-0a1b2c3d4e5f60001"},
		{Name: "prefix-lists", InstanceID: "i-0a1b2c3d4e5f60024"}} {
		var snap string
		switch sc.Name {
		case "control-plane-logs+fargate":
			snap = controlPlaneSnapshot(t, true)
			withFargateProfile(t, snap)
		case "prefix-lists":
			// the node's security group names a prefix list (DescribeManagedPrefixLists,
			// GetManagedPrefixListEntries)
			snap = withoutKube(t, filepath.Join(fixtures, "snapshots", "net-sg-node-egress"))
			withPrefixList(t, snap, "10.0.0.0/16")
		default:
			snap = withoutKube(t, filepath.Join(fixtures, "snapshots", sc.Name))
		}
		fake := liveEnv(t, snap, nil)
		run("why-not-joining", sc.InstanceID, "-o", "json", "--no-kube")
		run("collect", "--cluster", "prod", "--archive", filepath.Join(t.TempDir(), "s.tar.gz"), "--no-kube")
		for _, op := range fake.Operations() {
			seen[op] = true
		}
	}
	if len(seen) < 20 {
		t.Errorf("only %d distinct operations recorded", len(seen))
	}
	for op := range seen {
		if !allowed[op] {
			t.Errorf("the test suite made the SDK call %s, which docs/iam-policy.json does not allow", op)
		}
		if !readOnly.MatchString(op) {
			t.Errorf("%s is not read-only", op)
		}
	}
	for _, o := range awsapi.Operations {
		if !allowed[o.Action()] {
			t.Errorf("collector operation %s missing from the policy", o.Action())
		}
	}
	// The other direction: every action the policy grants is one the collector calls.
	for _, a := range policy.Statement[0].Action {
		if !seen[a] {
			t.Errorf("docs/iam-policy.json allows %s, which no live diagnosis or collect of the test suite called", a)
		}
	}
}

// fleetSnapshot copies a scenario and replicates its instance n times (same node group, launch
// template and subnet; distinct IDs and addresses).
func fleetSnapshot(t *testing.T, scenario string, n int) string {
	dir := withoutKube(t, filepath.Join(fixtures, "snapshots", scenario))
	p := filepath.Join(dir, "ec2", "describe-instances.json")
	b, _ := os.ReadFile(p)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	res := out["Reservations"].([]any)[0].(map[string]any)
	base, _ := json.Marshal(res["Instances"].([]any)[0])
	var insts []any
	for i := 0; i < n; i++ {
		var in map[string]any
		json.Unmarshal(base, &in)
		in["InstanceId"] = fmt.Sprintf("i-0fleet%010d", i)
		ip := fmt.Sprintf("10.0.%d.%d", 1+i/250, 10+i%250)
		in["PrivateIpAddress"] = ip
		in["PrivateDnsName"] = "ip-" + strings.ReplaceAll(ip, ".", "-") + ".eu-west-1.compute.internal"
		insts = append(insts, in)
	}
	res["Instances"] = insts
	b, _ = json.MarshalIndent(out, "", "    ")
	os.WriteFile(p, b, 0o644)
	return dir
}

// TestAllPendingCallsIndependentOfInstanceCount diagnoses 10 and then 1,000 instances of one
// cluster live: the AWS calls must not grow with the number of instances.
func TestAllPendingCallsIndependentOfInstanceCount(t *testing.T) {
	counts := map[int]int{}
	for _, n := range []int{10, 1000} {
		fake := liveEnv(t, fleetSnapshot(t, "healthy-al2023", n), nil)
		code, out, errOut := run("why-not-joining", "--all-pending", "--cluster", "prod", "-o", "json", "--no-kube")
		// nothing fails, and without the cluster side (--no-kube) every instance is inconclusive
		if code != ExitNothingChecked {
			t.Fatalf("n=%d exit %d: %s", n, code, errOut)
		}
		var fleet struct {
			Summary struct {
				Diagnosed, Failing int
				Verdicts           map[string]int
			}
		}
		if err := json.Unmarshal([]byte(out), &fleet); err != nil {
			t.Fatal(err)
		}
		if fleet.Summary.Diagnosed != n || fleet.Summary.Failing != 0 || fleet.Summary.Verdicts["inconclusive"] != n {
			t.Fatalf("n=%d: %+v", n, fleet.Summary)
		}
		counts[n] = fake.Requests()
	}
	// 25, and the 4 CloudTrail lookups of a fleet (access-entry changes, launch errors)
	if counts[1000] != counts[10] || counts[10] > 29 {
		t.Errorf("AWS requests: %d for 10 instances, %d for 1,000 (must not grow, at most 29)", counts[10], counts[1000])
	}
}
