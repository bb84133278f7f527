package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/eksdoctor/eksdoctor/collectors/kube"
	"github.com/eksdoctor/eksdoctor/collectors/kube/kubetest"
)

// TestLiveNodeClaimEquivalentToSnapshot diagnoses a NodeClaim by its name live — the AWS side
// from the fake AWS API, the NodeClaim and its NodePool and EC2NodeClass from a real API server
// with the upstream Karpenter CRDs — and from the snapshot: the karpenter.* findings are the same.
func TestLiveNodeClaimEquivalentToSnapshot(t *testing.T) {
	bin, ok := kubetest.BinDir()
	if !ok {
		if os.Getenv("EKSDOCTOR_REQUIRE_APISERVER") != "" {
			t.Fatalf("kube-apiserver binaries missing in %s", bin)
		}
		t.Skipf("SKIPPING: no kube-apiserver binaries in %s", bin)
	}
	env, err := kubetest.Start(bin) // its own API server: the Karpenter objects stay out of the other tests
	if err != nil {
		t.Fatal(err)
	}
	defer env.Stop()
	for _, c := range []kubetest.UpstreamCRD{kubetest.KarpenterNodeClaimCRD, kubetest.KarpenterNodePoolCRD, kubetest.KarpenterEC2NodeClassCRD} {
		b, err := c.Read()
		if err == nil {
			err = env.InstallCRD(b)
		}
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
	}
	const fx = "karpenter-nodeclaim-not-registered"
	src := filepath.Join(fixtures, "snapshots", fx)
	dyn, _ := dynamic.NewForConfig(env.Config(kubetest.AdminToken))
	for _, r := range kube.CustomReads {
		b, _ := os.ReadFile(filepath.Join(src, filepath.FromSlash(r.Path)))
		var l struct{ Items []map[string]any }
		if json.Unmarshal(b, &l) != nil {
			continue // kubectl's "not installed" answer
		}
		for _, it := range l.Items {
			status := it["status"]
			created, err := dyn.Resource(r.GVR).Create(context.Background(), &unstructured.Unstructured{Object: it}, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("%s: %v", r.Path, err)
			}
			created.Object["status"] = status
			if _, err := dyn.Resource(r.GVR).UpdateStatus(context.Background(), created, metav1.UpdateOptions{}); err != nil {
				t.Fatalf("%s status: %v", r.Path, err)
			}
		}
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	os.WriteFile(kubeconfig, []byte(fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters: [{name: t, cluster: {server: %q, insecure-skip-tls-verify: true}}]\nusers: [{name: a, user: {token: %q}}]\ncontexts: [{name: t, context: {cluster: t, user: a}}]\ncurrent-context: t\n", env.Host, kubetest.AdminToken)), 0o600)

	liveEnv(t, withoutKube(t, src), nil)
	_, live, errOut := run("why-not-joining", "default-r2d2q", "--cluster", "prod", "--kubeconfig", kubeconfig, "-o", "json")
	_, offline, _ := run("why-not-joining", "default-r2d2q", "--snapshot", src, "-o", "json")
	lf, lr := findingsOf(t, live)
	sf, _ := findingsOf(t, offline)
	for id := range sf {
		if !strings.HasPrefix(id, "karpenter.") {
			delete(sf, id)
			delete(lf, id)
		}
	}
	sameFindings(t, lf, sf)
	if f := lf["karpenter.nodeclaim-not-registered"]; len(f) != 1 || f[0].Status != "fail" || !strings.Contains(f[0].Message, "NodeClaim default-r2d2q launched i-0a1b2c3d4e5f6") {
		t.Errorf("live: %+v (%s)", f, errOut)
	}
	if lr.Diagnosis.MostLikelyCause == nil {
		t.Errorf("live: no cause (%s)", errOut)
	}
}
