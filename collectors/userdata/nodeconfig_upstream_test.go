package userdata

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// These tests pin the NodeConfig reader to nodeadm (awslabs/amazon-eks-ami at 81fec2e8):
// nodeadm/internal/configprovider/mime.go ParseMaybeMultipart / ParseMultipart, which decode
// each application/node.eks.aws part (or the whole non-multipart user data) with
// nodeadm/internal/api/bridge/decode.go DecodeNodeConfig (apimachinery's UniversalDecoder over
// the scheme of bridge/scheme.go, which registers only v1alpha1), then merge the parts with
// nodeadm/internal/api/merge.go MergeNodeConfigs and check the result with
// nodeadm/internal/api/validation.go ValidateNodeConfig. The inputs are our own.

const ncCluster = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: my-cluster\n    apiServerEndpoint: https://x.eks.amazonaws.com\n    certificateAuthority: QUJD\n    cidr: 10.100.0.0/16\n"

func mimeNodeConfig(parts ...string) []byte {
	var b strings.Builder
	b.WriteString("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"BOUNDARY\"\n\n")
	for _, p := range parts {
		b.WriteString("--BOUNDARY\nContent-Type: application/node.eks.aws\n\n" + p + "\n")
	}
	b.WriteString("--BOUNDARY--\n")
	return []byte(b.String())
}

// Rule (DecodeNodeConfig): the YAML serializer converts one YAML document to JSON, so of a
// part holding several documents only the first is decoded; the others are ignored.
func TestNodeConfigOnlyFirstDocumentOfAPartIsRead(t *testing.T) {
	second := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: other-cluster\n"
	for name, raw := range map[string][]byte{
		"part":      mimeNodeConfig(ncCluster + "---\n" + second),
		"top level": []byte("---\n" + ncCluster + "---\n" + second),
	} {
		c := Decode(raw)
		if c.ClusterName != "my-cluster" {
			t.Errorf("%s: cluster = %q, want my-cluster (the second document is not read)", name, c.ClusterName)
		}
		if !strings.Contains(issuesOf(c), "only the first YAML document") {
			t.Errorf("%s: want an issue about the ignored document, got:\n%s", name, issuesOf(c))
		}
	}
	// Separate parts are each decoded and merged in order (MergeNodeConfigs: later non-empty
	// values override).
	c := Decode(mimeNodeConfig(ncCluster, second))
	if c.ClusterName != "other-cluster" || c.ServiceCIDR != "10.100.0.0/16" {
		t.Errorf("two parts: cluster %q cidr %q, want other-cluster and the first part's cidr", c.ClusterName, c.ServiceCIDR)
	}
	if e := errorsOf(c); len(e) != 0 {
		t.Errorf("two parts: unexpected errors %v", e)
	}
}

// Rule (bridge/scheme.go registers v1alpha1 only; DecodeNodeConfig checks group and kind):
// another version of the node.eks.aws group is not decoded.
func TestNodeConfigAPIVersionMustBeV1alpha1(t *testing.T) {
	c := Decode(mimeNodeConfig(strings.Replace(ncCluster, "v1alpha1", "v1beta1", 1)))
	if !strings.Contains(strings.Join(errorsOf(c), "\n"), "node.eks.aws/v1beta1") {
		t.Errorf("want an error naming node.eks.aws/v1beta1, got:\n%s", issuesOf(c))
	}
	if c.ClusterName != "" {
		t.Errorf("cluster = %q: the document is not decoded", c.ClusterName)
	}
}

// Rule (DecodeNodeConfig through apimachinery's JSON serializer, which decodes objects with
// case-sensitive field names): "apiserverEndpoint" is not "apiServerEndpoint" and is
// ignored, so validation then fails on the missing endpoint.
func TestNodeConfigFieldNamesAreCaseSensitive(t *testing.T) {
	c := Decode(mimeNodeConfig(strings.Replace(ncCluster, "apiServerEndpoint", "apiserverEndpoint", 1)))
	if c.APIServerEndpoint != "" {
		t.Errorf("endpoint = %q, want none (nodeadm ignores the wrong-case key)", c.APIServerEndpoint)
	}
	if !strings.Contains(issuesOf(c), "apiserverEndpoint") {
		t.Errorf("want an issue naming apiserverEndpoint, got:\n%s", issuesOf(c))
	}
	if c.Format != evidence.FormatNodeConfig || c.ClusterName != "my-cluster" {
		t.Errorf("format %s cluster %q", c.Format, c.ClusterName)
	}
}

// Rule (ParseMultipart reads the parts of the top-level multipart document only): a NodeConfig
// inside a nested multipart part is never seen by nodeadm.
func TestNodeConfigInNestedMultipartIsIgnored(t *testing.T) {
	raw := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"OUTER\"\n\n--OUTER\nContent-Type: multipart/mixed; boundary=\"INNER\"\n\n--INNER\nContent-Type: application/node.eks.aws\n\n" + ncCluster + "\n--INNER--\n\n--OUTER--\n"
	c := Decode([]byte(raw))
	if c.ClusterName != "" {
		t.Errorf("cluster = %q, want none: nodeadm does not look inside nested multipart parts", c.ClusterName)
	}
	if !strings.Contains(strings.Join(errorsOf(c), "\n"), "nested") {
		t.Errorf("want an error about the nested part, got:\n%s", issuesOf(c))
	}
}

// Rule (validation.go ValidateNodeConfig, on the merged configuration): with
// spec.cluster.enableOutpost true, spec.cluster.id is required ("cluster ID must be provided
// for outposts"); the id may come from another part.
func TestNodeConfigOutpostNeedsClusterID(t *testing.T) {
	outpost := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    enableOutpost: true\n"
	c := Decode(mimeNodeConfig(ncCluster, outpost))
	if !strings.Contains(strings.Join(errorsOf(c), "\n"), "spec.cluster.id") {
		t.Errorf("want an error about spec.cluster.id, got:\n%s", issuesOf(c))
	}
	withID := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    id: 0123abcd-0000-1111-2222-333344445555\n"
	c = Decode(mimeNodeConfig(ncCluster, outpost, withID))
	if e := errorsOf(c); len(e) != 0 {
		t.Errorf("id in a later part: unexpected errors %v", e)
	}
}
