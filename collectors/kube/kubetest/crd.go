package kubetest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
)

// InstallCRD creates the CustomResourceDefinition in b (YAML or JSON) as it is and waits until
// every served version of it is discoverable. An existing CRD of the same name is kept. Errors:
// b is not a CRD, the create failed, or the API was not served within 10 seconds.
func (e *Env) InstallCRD(b []byte) error {
	u := &unstructured.Unstructured{}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	for len(u.Object) == 0 {
		if err := dec.Decode(&u.Object); err != nil {
			return err
		}
	}
	var crd apiextv1.CustomResourceDefinition
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &crd); err != nil || crd.Spec.Group == "" {
		return fmt.Errorf("not a CRD: %v", err)
	}
	unstructured.RemoveNestedField(u.Object, "status")
	dyn, err := dynamic.NewForConfig(e.Config(AdminToken))
	if err != nil {
		return err
	}
	gvr := apiextv1.SchemeGroupVersion.WithResource("customresourcedefinitions")
	if _, err := dyn.Resource(gvr).Create(context.Background(), u, metav1.CreateOptions{}); err != nil && !strings.Contains(err.Error(), "already exists") {
		return err
	}
	dc, err := discovery.NewDiscoveryClientForConfig(e.Config(AdminToken))
	if err != nil {
		return err
	}
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		gv := crd.Spec.Group + "/" + v.Name
		for i := 0; ; i++ {
			if rl, err := dc.ServerResourcesForGroupVersion(gv); err == nil && hasResource(rl, crd.Spec.Names.Plural) {
				break
			}
			if i == 100 {
				return fmt.Errorf("%s %s was not served", gv, crd.Spec.Names.Plural)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}

func hasResource(rl *metav1.APIResourceList, plural string) bool {
	for _, r := range rl.APIResources {
		if r.Name == plural {
			return true
		}
	}
	return false
}
