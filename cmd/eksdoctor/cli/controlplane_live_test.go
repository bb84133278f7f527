package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/awsapi"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// controlPlaneSnapshot is healthy-al2023 without kube/ whose cluster sends authenticator and
// audit logs to CloudWatch Logs, and whose authenticator refused the node role (and, before the
// node launched at 09:31:07, a human user, which is not this node's problem).
func controlPlaneSnapshot(t *testing.T, logging bool) string {
	t.Helper()
	snap := withoutKube(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	p := filepath.Join(snap, "eks", "describe-cluster.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var dc map[string]any
	if err := json.Unmarshal(b, &dc); err != nil {
		t.Fatal(err)
	}
	dc["cluster"].(map[string]any)["logging"] = map[string]any{"clusterLogging": []any{
		map[string]any{"types": []string{"api", "controllerManager", "scheduler"}, "enabled": false},
		map[string]any{"types": []string{"audit", "authenticator"}, "enabled": logging},
	}}
	b, _ = json.MarshalIndent(dc, "", "    ")
	os.WriteFile(p, b, 0o644)
	os.MkdirAll(filepath.Join(snap, "logs"), 0o755)
	auth := `{"events": [
 {"logStreamName": "authenticator-8c0c5c2e5e0f4b7e", "timestamp": 1795164600000, "message": "time=\"2026-11-20T08:50:00Z\" level=warning msg=\"access denied\" arn=\"arn:aws:iam::111122223333:user/alice\" client=\"127.0.0.1:51234\" error=\"ARN is not mapped\" method=POST path=/authenticate"},
 {"logStreamName": "authenticator-8c0c5c2e5e0f4b7e", "timestamp": 1795167130000, "message": "time=\"2026-11-20T09:32:10Z\" level=warning msg=\"access denied\" arn=\"arn:aws:iam::111122223333:role/prod-node-role\" client=\"127.0.0.1:51234\" error=\"ARN is not mapped\" method=POST path=/authenticate"}
]}`
	os.WriteFile(filepath.Join(snap, "logs", "authenticator-events.json"), []byte(auth), 0o644)
	os.WriteFile(filepath.Join(snap, "logs", "audit-events.json"), []byte(`{"events": []}`), 0o644)
	return snap
}

// TestLiveControlPlaneLogs: with authenticator and audit logging on, the live collector reads
// both streams with FilterLogEvents (JSON 1.1 through the wire-protocol fake) and finds what the
// snapshot of the same account finds: the authenticator refusing the node role. The human
// user's refusal, logged before the node launched, is not read (the query starts at the launch).
func TestLiveControlPlaneLogs(t *testing.T) {
	snap := controlPlaneSnapshot(t, true)
	fake := liveEnv(t, snap, nil)
	code, live, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "-o", "json", "--no-kube")
	codeS, offline, _ := run("why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", snap, "-o", "json")
	lf, _ := findingsOf(t, live)
	sf, _ := findingsOf(t, offline)
	t.Logf("operations: %v", fake.Operations())
	sameFindings(t, lf, sf)
	if code != codeS || code != ExitFindings {
		t.Fatalf("exit %d live, %d snapshot, want %d (%s)", code, codeS, ExitFindings, errOut)
	}
	f := lf["auth.authenticator-denied"]
	if len(f) != 1 || f[0].Status != "fail" || !strings.Contains(strings.Join(f[0].Evidence, "\n"), "role/prod-node-role") ||
		strings.Contains(strings.Join(f[0].Evidence, "\n"), "user/alice") {
		t.Fatalf("auth.authenticator-denied live = %+v", f)
	}
	n := 0
	for _, op := range fake.Operations() {
		if op == "logs:FilterLogEvents" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d FilterLogEvents calls, want 2 (authenticator, audit): %v", n, fake.Operations())
	}
}

// TestLiveControlPlaneLoggingOff: with control-plane logging off, no log is read (the log group
// would not exist) and the report says so with the command that turns it on.
func TestLiveControlPlaneLoggingOff(t *testing.T) {
	snap := controlPlaneSnapshot(t, false)
	fake := liveEnv(t, snap, nil)
	_, live, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "-o", "json", "--no-kube")
	for _, op := range fake.Operations() {
		if strings.HasPrefix(op, "logs:") {
			t.Fatalf("called %s with logging off", op)
		}
	}
	_, r := findingsOf(t, live)
	found := false
	for _, g := range r.Gaps {
		if g.Kind == "logs:control-plane" {
			found = strings.Contains(g.Reason, "logging is off") && strings.Contains(g.Reason, "aws eks update-cluster-config --name prod")
			if !found {
				t.Errorf("gap = %+v", g)
			}
		}
	}
	if !found {
		t.Fatalf("no logs:control-plane gap (%s): %s", errOut, live)
	}
	for _, f := range r.Findings {
		if f.ID == "auth.authenticator-denied" && f.Status == "fail" {
			t.Errorf("authenticator-denied failed with logging off: %+v", f)
		}
	}
}

// withFargateProfile adds one Fargate profile to a snapshot.
func withFargateProfile(t *testing.T, snap string) {
	t.Helper()
	os.MkdirAll(filepath.Join(snap, "eks", "describe-fargate-profile"), 0o755)
	os.WriteFile(filepath.Join(snap, "eks", "list-fargate-profiles.json"), []byte(`{"fargateProfileNames": ["fp-default"]}`), 0o644)
	os.WriteFile(filepath.Join(snap, "eks", "describe-fargate-profile", "fp-default.json"), []byte(`{"fargateProfile": {"fargateProfileName": "fp-default",
 "fargateProfileArn": "arn:aws:eks:eu-west-1:111122223333:fargateprofile/prod/fp-default/1a2b", "clusterName": "prod", "createdAt": "2026-11-01T10:00:00+00:00",
 "podExecutionRoleArn": "arn:aws:iam::111122223333:role/prod-fargate-pods", "subnets": ["subnet-0a11b22c33d44e551"],
 "selectors": [{"namespace": "serverless"}], "status": "ACTIVE"}}`), 0o644)
}

// TestLiveFargateProfilesEqualSnapshot: a scan's live collection reads the Fargate profiles
// (ListFargateProfiles, DescribeFargateProfile) and each pod execution role (GetRole,
// ListAttachedRolePolicies), and the cluster's evidence built from them equals the snapshot's.
func TestLiveFargateProfilesEqualSnapshot(t *testing.T) {
	snap := controlPlaneSnapshot(t, true)
	withFargateProfile(t, snap)
	role, _ := os.ReadFile(filepath.Join(snap, "iam", "get-role", "prod-node-role.json"))
	os.WriteFile(filepath.Join(snap, "iam", "get-role", "prod-fargate-pods.json"), []byte(strings.ReplaceAll(string(role), "prod-node-role", "prod-fargate-pods")), 0o644)
	os.WriteFile(filepath.Join(snap, "iam", "list-attached-role-policies", "prod-fargate-pods.json"), []byte(`{"AttachedPolicies": [{"PolicyName": "AmazonEKSFargatePodExecutionRolePolicy", "PolicyArn": "arn:aws:iam::aws:policy/AmazonEKSFargatePodExecutionRolePolicy"}]}`), 0o644)
	fake := liveEnv(t, snap, nil)
	cfg, err := awsapi.LoadConfig(context.Background(), awsapi.ConfigOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := awsapi.Collect(context.Background(), awsapi.NewClients(cfg), nil, awsapi.Options{Cluster: "prod", Scan: true})
	if err != nil {
		t.Fatal(err)
	}
	live := snapshot.FromDocuments("aws:eu-west-1", res.Files, res.Errors).ClusterEvidence("prod")
	s, err := snapshot.Open(snap, snapshot.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	offline := s.ClusterEvidence("prod")
	lj, _ := json.Marshal(live.Fargate.Profiles)
	sj, _ := json.Marshal(offline.Fargate.Profiles)
	if string(lj) != string(sj) || !live.Have(evidence.KindFargateProfiles) {
		t.Fatalf("Fargate profiles differ:\n live:     %s\n snapshot: %s", lj, sj)
	}
	if p := live.Fargate.Profiles; len(p) != 1 || !p[0].RoleRead || len(p[0].RolePolicies) != 1 {
		t.Fatalf("profile = %s", lj)
	}
	ops := strings.Join(fake.Operations(), " ")
	for _, want := range []string{"eks:ListFargateProfiles", "eks:DescribeFargateProfile", "iam:GetRole"} {
		if !strings.Contains(ops, want) {
			t.Errorf("%s not called: %s", want, ops)
		}
	}
}

// TestAuditShowsAWSAuthEditRemovingTheNodeRole: the node role has no access entry and the
// current aws-auth does not map it; the audit log shows the Terraform apply that rewrote
// aws-auth without it. auth.mapping-removed fails quoting who and when, and is the most likely
// cause (it explains auth.role-not-mapped).
func TestAuditShowsAWSAuthEditRemovingTheNodeRole(t *testing.T) {
	snap := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	os.WriteFile(filepath.Join(snap, "eks", "list-access-entries.json"), []byte(`{"accessEntries": ["arn:aws:iam::111122223333:role/platform-admin"]}`), 0o644)
	os.Remove(filepath.Join(snap, "eks", "describe-access-entry", "prod-node-role.json"))
	admin := "- rolearn: arn:aws:iam::111122223333:role/platform-admin\n  username: platform-admin\n  groups:\n    - system:masters\n"
	node := "- rolearn: arn:aws:iam::111122223333:role/prod-node-role\n  username: system:node:{{EC2PrivateDNSName}}\n  groups:\n    - system:bootstrappers\n    - system:nodes\n"
	os.WriteFile(filepath.Join(snap, "kube", "aws-auth.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n    "+strings.ReplaceAll(strings.TrimSuffix(admin, "\n"), "\n", "\n    ")+"\n"), 0o644)
	write := func(at, mapRoles string) map[string]any {
		obj := map[string]any{"kind": "ConfigMap", "apiVersion": "v1", "metadata": map[string]any{"name": "aws-auth", "namespace": "kube-system"}, "data": map[string]any{"mapRoles": mapRoles}}
		e := map[string]any{"kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": "RequestResponse", "stage": "ResponseComplete", "verb": "update",
			"requestURI": "/api/v1/namespaces/kube-system/configmaps/aws-auth", "user": map[string]any{"username": "kubernetes-admin", "extra": map[string]any{"arn": []string{"arn:aws:iam::111122223333:role/terraform-ci"}}},
			"objectRef":      map[string]any{"resource": "configmaps", "namespace": "kube-system", "name": "aws-auth", "apiVersion": "v1"},
			"responseStatus": map[string]any{"code": 200}, "requestObject": obj, "responseObject": obj, "requestReceivedTimestamp": at, "stageTimestamp": at}
		b, _ := json.Marshal(e)
		return map[string]any{"logStreamName": "kube-apiserver-audit-5e5c1b4c", "timestamp": 0, "message": string(b)}
	}
	e1, e2 := write("2026-11-19T16:00:00Z", node+admin), write("2026-11-20T09:05:00Z", admin)
	e1["timestamp"], e2["timestamp"] = 1795104000000, 1795165500000
	b, _ := json.Marshal(map[string]any{"events": []any{e1, e2}})
	os.MkdirAll(filepath.Join(snap, "logs"), 0o755)
	os.WriteFile(filepath.Join(snap, "logs", "audit-events.json"), b, 0o644)
	// the instance never registered
	np := filepath.Join(snap, "kube", "nodes.json")
	nb, _ := os.ReadFile(np)
	var nodes map[string]any
	json.Unmarshal(nb, &nodes)
	var kept []any
	for _, it := range nodes["items"].([]any) {
		if it.(map[string]any)["metadata"].(map[string]any)["name"] != "ip-10-0-1-23.eu-west-1.compute.internal" {
			kept = append(kept, it)
		}
	}
	nodes["items"] = kept
	nb, _ = json.Marshal(nodes)
	os.WriteFile(np, nb, 0o644)
	code, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", snap, "-o", "json")
	f, r := findingsOf(t, out)
	mr := f["auth.mapping-removed"]
	if code != ExitFindings || len(mr) != 1 || mr[0].Status != "fail" || !strings.Contains(mr[0].Message, "terraform-ci") || !strings.Contains(mr[0].Message, "2026-11-20T09:05:00Z") {
		t.Fatalf("exit %d (%s); auth.mapping-removed = %+v", code, errOut, mr)
	}
	if c := r.Diagnosis.MostLikelyCause; c == nil || *c != "auth.mapping-removed" {
		t.Errorf("most likely cause %v, want auth.mapping-removed", c)
	}
}

// TestLiveScanEquivalentToSnapshot: `scan` against the AWS wire-protocol fake finds, for the
// cluster, what `scan --snapshot` finds in the same files (the cluster side left out on both):
// Fargate profiles and their pod execution roles, CloudTrail's launch and access-entry events,
// node groups and Auto Scaling, on every fixture that has the cluster's instances.
func TestLiveScanEquivalentToSnapshot(t *testing.T) {
	for _, name := range []string{"healthy-fargate", "fargate-pod-execution-role", "fargate-profile-public-subnet", "fargate-no-matching-profile",
		"cloudtrail-launch-errors", "cloudtrail-access-entry-deleted", "healthy-cloudtrail", "nodegroup-asg-launch-failures", "healthy-al2023"} {
		t.Run(name, func(t *testing.T) {
			snap := withoutKube(t, filepath.Join(fixtures, "snapshots", name))
			liveEnv(t, snap, nil)
			_, live, errOut := run("scan", "--cluster", "prod", "-o", "json", "--no-kube")
			_, offline, _ := run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json")
			type finding struct{ ID, Status, Resource, Message string }
			var l, s struct {
				ClusterFindings []finding `json:"clusterFindings"`
			}
			if err := json.Unmarshal([]byte(live), &l); err != nil {
				t.Fatalf("live: %v (%s)", err, errOut)
			}
			if err := json.Unmarshal([]byte(offline), &s); err != nil {
				t.Fatalf("snapshot: %v", err)
			}
			norm := func(fs []finding) string {
				var out []string
				for _, f := range fs {
					out = append(out, f.ID+" "+f.Status+" "+f.Resource+" "+strings.ReplaceAll(f.Message, "not collected (", "not in snapshot ("))
				}
				sort.Strings(out)
				return strings.Join(out, "\n")
			}
			if a, b := norm(l.ClusterFindings), norm(s.ClusterFindings); a != b || a == "" {
				t.Errorf("cluster findings differ:\n live:\n%s\n snapshot:\n%s", a, b)
			}
		})
	}
}
