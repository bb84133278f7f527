package cli

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLiveKubeUnreachableSaidOnce: a cluster whose API server cannot be reached at all (nothing
// listens at the kubeconfig's server) leaves every cluster-side check without evidence: the run
// is inconclusive and exits 5, and the report says once that the server could not be reached and
// why — one input problem, not one per object read, each with its URL.
func TestLiveKubeUnreachableSaidOnce(t *testing.T) {
	src := notJoinedLive(t)
	liveEnv(t, withoutKube(t, src), nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := "https://" + ln.Addr().String()
	ln.Close()
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	os.WriteFile(kc, []byte(fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters: [{name: t, cluster: {server: %q, insecure-skip-tls-verify: true}}]\nusers: [{name: a, user: {token: x}}]\ncontexts: [{name: t, context: {cluster: t, user: a}}]\ncurrent-context: t\n", server)), 0o600)
	code, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "--kubeconfig", kc, "-o", "json")
	var r struct {
		Diagnosis     struct{ Verdict string }         `json:"diagnosis"`
		InputProblems []struct{ Path, Problem string } `json:"inputProblems"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON (%v): %s\n%s", err, out, errOut)
	}
	if code != ExitPartial || r.Diagnosis.Verdict != "inconclusive" {
		t.Errorf("exit %d, verdict %s; want %d, inconclusive", code, r.Diagnosis.Verdict, ExitPartial)
	}
	var kube []string
	for _, p := range r.InputProblems {
		if strings.HasPrefix(p.Path, "kube/") {
			kube = append(kube, p.Path+": "+p.Problem)
		}
	}
	if len(kube) != 1 || !strings.Contains(kube[0], server) || !strings.Contains(kube[0], "could not be reached") || !strings.Contains(kube[0], "connection refused") {
		t.Errorf("kube input problems: %q", kube)
	}
}
