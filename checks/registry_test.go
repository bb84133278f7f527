package checks

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

var update = flag.Bool("update", false, "rewrite checks/testdata goldens from the current catalog")

// catalogIDs are the IDs issues #2, #3 and #6 require (docs/checks-catalog.md).
var catalogIDs = strings.Fields(`cluster.not-active cluster.updating cluster.health-issues cluster.version-skew
cluster.ami-family-unsupported nodegroup.health-issues iam.no-instance-profile iam.node-role-policies iam.node-role-trust
auth.role-not-mapped auth.role-path auth.instance-profile-arn auth.wrong-username auth.missing-groups auth.aws-auth-malformed
auth.access-mode auth.access-entry-type subnet.ip-exhausted subnet.cluster-tag bootstrap.userdata-unparseable
bootstrap.userdata-too-large bootstrap.no-bootstrap bootstrap.wrong-format-for-ami bootstrap.cluster-name-mismatch
bootstrap.endpoint-mismatch bootstrap.ca-mismatch bootstrap.private-cluster-args bootstrap.nodeconfig-incomplete
bootstrap.dns-ip bootstrap.max-pods instance.not-running instance.imds csr.pending csr.denied windows.ipam-disabled
windows.kube-proxy-group windows.no-linux-nodes
net.endpoint-unreachable net.endpoint-public-cidrs net.no-egress-route net.public-subnet-no-public-ip net.vpc-endpoints-missing
net.vpc-endpoint-sg net.vpc-endpoint-private-dns net.s3-endpoint-policy net.sg-node-egress net.sg-control-plane-ingress
net.nacl-blocks net.vpc-dns-disabled net.dhcp-options net.cidr-overlap nodegroup.lt-custom-sg-no-cluster-sg
cluster.webhook-blocks-nodes runtime.cni-not-ready auth.node-manager-rbac
nodegroup.asg-launch-failures nodegroup.lt-network-interfaces`)

func TestRegistryComplete(t *testing.T) {
	r, err := NewRegistry(All()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range catalogIDs {
		c, ok := r.Get(id)
		if !ok {
			t.Errorf("catalog ID %s is not registered", id)
			continue
		}
		for _, d := range c.Meta.Docs {
			if !strings.HasPrefix(d, "https://") {
				t.Errorf("%s: doc link %q is not https", id, d)
			}
		}
		for _, p := range c.Meta.Explains {
			found := p == "*"
			for _, other := range r.All() {
				found = found || Matches(p, other.Meta.ID) || strings.HasPrefix(p, "runtime.")
			}
			if !found {
				t.Errorf("%s explains %q, which matches no check", id, p)
			}
		}
	}
	// Every registered ID is in the project's catalog (docs/checks-catalog.md).
	b, err := os.ReadFile(filepath.Join("..", "docs", "checks-catalog.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.All() {
		if !strings.Contains(string(b), "| "+c.Meta.ID+" |") {
			t.Errorf("%s is not in docs/checks-catalog.md", c.Meta.ID)
		}
	}
}

func TestRegistryRejects(t *testing.T) {
	good := All()[0]
	bad := good
	bad.Meta.Why = ""
	if _, err := NewRegistry(bad); err == nil || !strings.Contains(err.Error(), "Why") {
		t.Errorf("incomplete metadata accepted: %v", err)
	}
	if _, err := NewRegistry(good, good); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate accepted: %v", err)
	}
	badID := good
	badID.Meta.ID = "NotAnID"
	if _, err := NewRegistry(badID); err == nil {
		t.Error("malformed ID accepted")
	}
}

func TestSelect(t *testing.T) {
	r := Default()
	got, err := r.Select([]string{"auth.*", "csr.denied"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 12 {
		t.Errorf("got %d checks, want 12 (11 auth + csr.denied)", len(got))
	}
	if _, err := r.Select([]string{"nope.*"}); err == nil {
		t.Error("selector matching nothing accepted")
	}
	needs := Needs(got)
	if !containsKind(needs, evidence.KindAWSAuth) || !containsKind(needs, evidence.KindCSRs) || containsKind(needs, evidence.KindSubnets) {
		t.Errorf("needs = %v", needs)
	}
}

func containsKind(l []evidence.Kind, k evidence.Kind) bool {
	for _, x := range l {
		if x == k {
			return true
		}
	}
	return false
}

func TestRunnerSkipsPanicsAndEmpty(t *testing.T) {
	meta := Meta{ID: "test.x", Title: "t", Severity: SeverityHigh, Needs: []evidence.Kind{evidence.KindCSRs}, Why: "w", Remediation: "r", Docs: []string{"https://x"}, Stage: 1}
	ev := &evidence.Evidence{Target: evidence.Target{InstanceID: "i-1"}}
	ev.AddGap(evidence.KindCSRs, "kubectl: Forbidden (kube/csrs.json)")
	fs := Run([]Check{{Meta: meta, Eval: func(*evidence.Evidence) []Finding { panic("should not run") }}}, ev)
	if fs[0].Status != StatusSkipped || !strings.Contains(fs[0].Message, "Forbidden") {
		t.Errorf("missing evidence: %+v", fs[0])
	}
	ev.Mark(evidence.KindCSRs, "test")
	fs = Run([]Check{{Meta: meta, Eval: func(*evidence.Evidence) []Finding { var m map[string]int; m["x"]++; return nil }}}, ev)
	if fs[0].Status != StatusError || !strings.Contains(fs[0].Message, "panicked") || fs[0].ID != "test.x" {
		t.Errorf("panic: %+v", fs[0])
	}
	fs = Run([]Check{{Meta: meta, Eval: func(*evidence.Evidence) []Finding { return nil }}}, ev)
	if fs[0].Status != StatusError {
		t.Errorf("empty: %+v", fs[0])
	}
}

func TestDiagnoseRanksCausesBeforeSymptoms(t *testing.T) {
	reg := Default()
	ev := healthyEvidence()
	ev.AWSAuth.Roles, ev.AccessEntries = nil, nil // unmapped role…
	ev.CSRs[0].State = "Pending"                  // …and a CSR stuck Pending (a symptom)
	ev.Nodegroups[0].HealthIssues = []evidence.HealthIssue{{Code: "NodeCreationFailure", Message: "Instances failed to join"}}
	fs := Run(reg.All(), ev)
	d := Diagnose(fs, reg.Metas())
	if d.MostLikelyCause != "auth.role-not-mapped" {
		t.Fatalf("cause = %s, ranked %v", d.MostLikelyCause, d.Ranked)
	}
	if strings.Join(d.Chain, ",") != "nodegroup.health-issues,csr.pending" && strings.Join(d.Chain, ",") != "csr.pending,nodegroup.health-issues" {
		t.Errorf("chain = %v", d.Chain)
	}
	// a stopped instance outranks everything
	ev.Instance.State = "stopped"
	d = Diagnose(Run(reg.All(), ev), reg.Metas())
	if d.MostLikelyCause != "instance.not-running" {
		t.Errorf("cause = %s", d.MostLikelyCause)
	}
	if d := Diagnose(Run(reg.All(), healthyEvidence()), reg.Metas()); d.MostLikelyCause != "" || len(d.Ranked) != 0 {
		t.Errorf("healthy diagnosis = %+v", d)
	}
}

func TestCanonicalRoleArn(t *testing.T) {
	for in, want := range map[string]string{
		"arn:aws:iam::1:role/Node":           "arn:aws:iam::1:role/node",
		"arn:aws:iam::1:role/eks/nodes/Node": "arn:aws:iam::1:role/node",
		"arn:aws-cn:iam::1:role/a/b":         "arn:aws-cn:iam::1:role/b",
		" arn:aws:iam::1:role/x ":            "arn:aws:iam::1:role/x",
	} {
		if got, ok := canonicalRoleArn(in); !ok || got != want {
			t.Errorf("%q → %q %v, want %q", in, got, ok, want)
		}
	}
	if _, ok := canonicalRoleArn("arn:aws:iam::1:instance-profile/x"); ok {
		t.Error("instance profile taken as role")
	}
}

func TestKubeMinor(t *testing.T) {
	for in, want := range map[string]string{
		"v1.29.3-eks-ae9a62a": "1.29", "1.30": "1.30", "amazon-eks-node-1.29-v20240117": "1.29",
		"amazon-eks-node-al2023-x86_64-standard-1.31-v20241115": "1.31", "bottlerocket-aws-k8s-1.29-x86_64-v1.19.2-29cc92cc": "1.29",
		"Windows_Server-2022-English-Core-EKS_Optimized-1.30-2024.05.15": "1.30", "my-ami": "",
	} {
		if got := kubeMinor(in); got != want {
			t.Errorf("kubeMinor(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSignatureFindingsAreRegistered: every finding a log signature names (or resolves, or is a
// consequence of) is a registered check, and every runtime.* check has a failure signature.
func TestSignatureFindingsAreRegistered(t *testing.T) {
	reg := Default()
	testified := map[string]bool{}
	for _, sg := range logscan.Catalog() {
		ids := append(append([]string{sg.Finding}, sg.Resolves...), sg.ConsequenceOf...)
		for _, id := range ids {
			if id == "" {
				continue
			}
			if _, ok := reg.Get(id); !ok {
				t.Errorf("signature %s (%s.yaml) names %s, which is not a registered check", sg.Name, sg.Component, id)
			}
		}
		if !sg.Normal {
			testified[sg.Finding] = true
		}
	}
	for _, c := range reg.All() {
		if strings.HasPrefix(c.Meta.ID, "runtime.") && !testified[c.Meta.ID] {
			t.Errorf("%s has no log signature in collectors/logscan/catalog", c.Meta.ID)
		}
	}
}

// TestSignatureFindingMap pins which finding every signature is evidence for
// (testdata/signature-findings.txt): moving a signature to another finding must be deliberate
// (go test ./checks -run SignatureFindingMap -update).
func TestSignatureFindingMap(t *testing.T) {
	var b strings.Builder
	for _, sg := range logscan.Catalog() {
		f := sg.Finding
		if sg.Normal {
			f = "normal → " + strings.Join(sg.Resolves, ",")
		}
		fmt.Fprintf(&b, "%s/%s %s\n", sg.Component, sg.Name, f)
	}
	const golden = "testdata/signature-findings.txt"
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != b.String() {
		t.Errorf("the signature → finding map differs from %s; rerun with -update and review the diff", golden)
	}
}

// TestDiagnoseLogLinesExplainedByACheck (blind set snapshots10, case 02): nodeadm retrying
// ec2:DescribeInstances until it gives up fails runtime.bootstrap-failed; when the route tables
// show the node's subnet has no route out, that is the cause the retries show (the signature's
// consequenceOf names it), so it ranks first and the bootstrap failure is in its chain. With the
// routes healthy the bootstrap failure stays the cause.
func TestDiagnoseLogLinesExplainedByACheck(t *testing.T) {
	reg := Default()
	var b strings.Builder
	for i := 2; i <= 6; i++ {
		fmt.Fprintf(&b, "Feb 19 07:57:3%d ip-10-0-1-2.ec2.internal nodeadm[2015]: SDK 2026/02/19 07:57:3%d DEBUG retrying request EC2/DescribeInstances, attempt %d\n", i, i, i)
	}
	ev := healthyEvidence()
	withLogs(b.String())(ev)
	ev.RouteTables[0].Routes[1].State = "blackhole"
	d := Diagnose(Run(reg.All(), ev), reg.Metas())
	if d.MostLikelyCause != "net.no-egress-route" || !slices.Contains(d.Chain, "runtime.bootstrap-failed") {
		t.Errorf("cause %s, chain %v, ranked %v", d.MostLikelyCause, d.Chain, d.Ranked)
	}
	ev = healthyEvidence()
	withLogs(b.String())(ev)
	if d := Diagnose(Run(reg.All(), ev), reg.Metas()); d.MostLikelyCause != "runtime.bootstrap-failed" {
		t.Errorf("healthy routes: cause %s, ranked %v", d.MostLikelyCause, d.Ranked)
	}
}
