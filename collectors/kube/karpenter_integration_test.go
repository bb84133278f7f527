package kube_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/kube"
	"github.com/eksdoctor/eksdoctor/collectors/kube/kubetest"
)

var (
	dynMu  sync.Mutex
	dynFor = map[kubernetes.Interface]dynamic.Interface{}
)

// registerDynamic records the dynamic client that goes with cs (same token), for optionsFor.
func registerDynamic(t *testing.T, cs kubernetes.Interface, token string) {
	t.Helper()
	d, err := dynamic.NewForConfig(env.Config(token))
	if err != nil {
		t.Fatal(err)
	}
	dynMu.Lock()
	dynFor[cs] = d
	dynMu.Unlock()
}

// optionsFor returns collection options reading the custom resources with cs's identity.
func optionsFor(cs kubernetes.Interface) kube.Options {
	dynMu.Lock()
	defer dynMu.Unlock()
	return kube.Options{Dynamic: dynFor[cs], Scan: true}
}

// karpenterFixtures are the snapshot fixtures whose Karpenter / Auto Mode objects are stored in
// the API server and read back.
var karpenterFixtures = []string{"healthy-karpenter", "healthy-automode", "karpenter-nodeclaim-not-registered", "karpenter-nodeclass-not-ready"}

var karpenterSeeded bool

// seedKarpenterOnce first checks that a cluster without the CRDs gives the "not installed" gap,
// then installs the upstream Karpenter CRDs (and the Auto Mode NodeClass stand-in) and creates
// the fixtures' objects with their status.
func seedKarpenterOnce(t *testing.T, cs kubernetes.Interface) {
	if karpenterSeeded {
		return
	}
	karpenterSeeded = true
	ev := evidenceWith(t, kube.Collect(context.Background(), cs, kube.Options{Needs: []evidence.Kind{evidence.KindNodeClaims}, Dynamic: optionsFor(cs).Dynamic}).Files)
	if ev.Have(evidence.KindNodeClaims) || !strings.Contains(ev.GapFor(evidence.KindNodeClaims).Reason, "Karpenter / EKS Auto Mode is not installed") {
		t.Errorf("without the CRD: have %v, gap %q", ev.Have(evidence.KindNodeClaims), ev.GapFor(evidence.KindNodeClaims).Reason)
	}
	for _, c := range []kubetest.UpstreamCRD{kubetest.KarpenterNodeClaimCRD, kubetest.KarpenterNodePoolCRD, kubetest.KarpenterEC2NodeClassCRD} {
		b, err := c.Read()
		if err != nil {
			t.Fatalf("upstream CRD %s: %v", c, err)
		}
		if err := env.InstallCRD(b); err != nil {
			t.Fatalf("installing %s: %v", c, err)
		}
	}
	b, err := os.ReadFile("../../fixtures/crds/eks.amazonaws.com_nodeclasses.yaml")
	if err == nil {
		err = env.InstallCRD(b)
	}
	if err != nil {
		t.Fatalf("Auto Mode NodeClass CRD: %v", err)
	}
	dyn := optionsFor(cs).Dynamic
	ctx := context.Background()
	for _, fx := range karpenterFixtures {
		for _, r := range kube.CustomReads {
			for _, it := range fixtureItems(t, fx, r.Path) {
				u := &unstructured.Unstructured{Object: it}
				status := it["status"]
				u.SetResourceVersion("")
				created, err := dyn.Resource(r.GVR).Create(ctx, u, metav1.CreateOptions{})
				if err != nil {
					if strings.Contains(err.Error(), "already exists") {
						continue // the same NodePool / node class in two fixtures
					}
					t.Fatalf("%s %s: %v", fx, r.Path, err)
				}
				if status != nil {
					created.Object["status"] = status
					if _, err := dyn.Resource(r.GVR).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
						t.Fatalf("%s %s status: %v", fx, r.Path, err)
					}
				}
			}
		}
	}
}

// fixtureItems returns the objects of a fixture's kubectl list (none when the file holds
// kubectl's "not installed" answer).
func fixtureItems(t *testing.T, fx, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../fixtures/snapshots", fx, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	var l struct{ Items []map[string]any }
	if json.Unmarshal(b, &l) != nil {
		return nil
	}
	return l.Items
}

// TestKarpenterLiveEquivalentToSnapshot reads the fixtures' NodeClaims, NodePools and node classes
// back from a real API server (through the upstream CRDs' schemas) and compares the evidence
// with what the snapshot files give.
func TestKarpenterLiveEquivalentToSnapshot(t *testing.T) {
	cs := need(t)
	live := evidenceWith(t, kube.Collect(context.Background(), cs, optionsFor(cs)).Files)
	for _, k := range []evidence.Kind{evidence.KindNodeClaims, evidence.KindNodePools, evidence.KindEC2NodeClasses, evidence.KindNodeClasses} {
		if !live.Have(k) {
			t.Fatalf("%s: %s", k, live.GapFor(k).Reason)
		}
	}
	claims := map[string]evidence.NodeClaim{}
	for _, c := range live.NodeClaims {
		c.Created = time.Time{} // set by the API server
		claims[c.Name] = c
	}
	pools := map[string]evidence.NodePool{}
	for _, p := range live.NodePools {
		pools[p.Name] = p
	}
	classes := map[string]evidence.NodeClass{}
	for _, c := range live.NodeClasses {
		classes[c.Name+"/"+map[bool]string{true: "auto", false: "ec2"}[c.AutoMode]] = c
	}
	n := 0
	for _, fx := range karpenterFixtures {
		files := map[string][]byte{}
		for _, r := range kube.CustomReads {
			b, _ := os.ReadFile(filepath.Join("../../fixtures/snapshots", fx, filepath.FromSlash(r.Path)))
			files[r.Path] = b
		}
		snap := evidenceWith(t, files)
		for _, c := range snap.NodeClaims {
			c.Created = time.Time{}
			if !reflect.DeepEqual(claims[c.Name], c) {
				t.Errorf("%s: NodeClaim %s\n live:     %+v\n snapshot: %+v", fx, c.Name, claims[c.Name], c)
			}
			n++
		}
		for _, p := range snap.NodePools {
			if !reflect.DeepEqual(pools[p.Name], p) {
				t.Errorf("%s: NodePool %s\n live:     %+v\n snapshot: %+v", fx, p.Name, pools[p.Name], p)
			}
		}
		for _, c := range snap.NodeClasses {
			key := c.Name + "/" + map[bool]string{true: "auto", false: "ec2"}[c.AutoMode]
			if fx == "healthy-karpenter" || fx == "healthy-automode" { // the later fixtures' classes of the same name were not stored
				if !reflect.DeepEqual(classes[key], c) {
					t.Errorf("%s: node class %s\n live:     %+v\n snapshot: %+v", fx, key, classes[key], c)
				}
			}
		}
	}
	if n != len(karpenterFixtures) {
		t.Errorf("compared %d NodeClaims, want %d", n, len(karpenterFixtures))
	}
	// the NodeClaim that never registered is diagnosed from its name alone, live as from the snapshot
	if c := claims["default-r2d2q"]; c.InstanceID() == "" {
		t.Errorf("NodeClaim default-r2d2q has no instance: %+v", c)
	}
}

// TestKarpenterForbiddenNamesThePermission: kubectl's Forbidden text for each custom resource
// becomes a gap naming the permission of the layout table.
func TestKarpenterForbiddenNamesThePermission(t *testing.T) {
	need(t)
	files := map[string][]byte{}
	for _, r := range kube.CustomReads {
		files[r.Path] = []byte("Error from server (Forbidden): " + r.GVR.Resource + "." + r.GVR.Group + " is forbidden: User \"x\" cannot list resource \"" + r.GVR.Resource + "\" in API group \"" + r.GVR.Group + "\" at the cluster scope\n")
	}
	ev := evidenceWith(t, files)
	for _, r := range kube.CustomReads {
		if g := ev.GapFor(r.Evidence); g.Permission != "kubernetes:"+r.GVR.Resource+"/list" {
			t.Errorf("%s: %+v", r.Evidence, g)
		}
	}
}
