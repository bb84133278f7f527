package kube

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// CustomRead is one list of a custom resource (Karpenter, EKS Auto Mode) read with the dynamic
// client and written at Path as `kubectl get RESOURCE.GROUP -o json` prints it.
type CustomRead struct {
	GVR  schema.GroupVersionResource
	Kind string
	Path string
	// Evidence is the kind the list serves.
	Evidence evidence.Kind
}

// CustomReads are the custom resources the collector lists: Karpenter's NodeClaims, NodePools
// and EC2NodeClasses and EKS Auto Mode's NodeClasses (all cluster-scoped, v1).
var CustomReads = []CustomRead{
	{schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}, "NodeClaim", "kube/nodeclaims.json", evidence.KindNodeClaims},
	{schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}, "NodePool", "kube/nodepools.json", evidence.KindNodePools},
	{schema.GroupVersionResource{Group: "karpenter.k8s.aws", Version: "v1", Resource: "ec2nodeclasses"}, "EC2NodeClass", "kube/ec2nodeclasses.json", evidence.KindEC2NodeClasses},
	{schema.GroupVersionResource{Group: "eks.amazonaws.com", Version: "v1", Resource: "nodeclasses"}, "NodeClass", "kube/nodeclasses.json", evidence.KindNodeClasses},
}

// collectCustom lists one custom resource. A CRD that is not installed is written as kubectl's
// answer ("the server doesn't have a resource type"), which the snapshot reader turns into a gap
// saying Karpenter or Auto Mode is not installed; a denial as kubectl's Forbidden text.
func (col *collector) collectCustom(ctx context.Context, dc dynamic.Interface, r CustomRead) {
	if dc == nil {
		col.saveText(r.Path, "Error from server (NoAccess): no dynamic client to list "+r.GVR.Resource+"."+r.GVR.Group+"\n")
		return
	}
	l, err := dc.Resource(r.GVR).List(ctx, metav1.ListOptions{})
	switch {
	case err == nil:
		items := make([]map[string]any, 0, len(l.Items))
		for _, it := range l.Items {
			items = append(items, it.Object)
		}
		col.saveList(r.Path, r.GVR.Group+"/"+r.GVR.Version, r.Kind, items)
	case apierrors.IsNotFound(err):
		col.saveText(r.Path, fmt.Sprintf("error: the server doesn't have a resource type %q\n", r.GVR.Resource))
	default:
		col.save(r.Path, "", "", nil, err)
	}
}

// saveText writes kubectl's error text and its typed error, parsed once here.
func (col *collector) saveText(path, text string) {
	col.mu.Lock()
	col.res.Files[path] = []byte(text)
	if e := snapshot.ParseCLIError([]byte(text)); e != nil {
		col.res.Errors[path] = e
	}
	col.mu.Unlock()
}
