package kubetest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// UpstreamCRD names a CustomResourceDefinition file inside a Go module that ships it, so tests
// install the upstream definition rather than a hand-written copy.
type UpstreamCRD struct {
	// Module and Version identify the Go module ("github.com/kyverno/kyverno", "v1.19.1").
	Module, Version string
	// Path is the file inside the module.
	Path string
}

// Upstream CRDs the report tests validate against.
var (
	// WGPolicyOriginalCRD is the original wg-policy v1alpha2 ClusterPolicyReport CRD (severity
	// high|medium|low). sigs.k8s.io/wg-policy-prototypes is not served by the module proxy;
	// Kyverno v1.7.0 ships that definition unchanged (the schema of wg-policy-prototypes'
	// policy-report/crd/v1alpha2 before severity was extended in May 2022; only descriptions
	// differ).
	WGPolicyOriginalCRD = UpstreamCRD{"github.com/kyverno/kyverno", "v1.7.0", "config/crds/wgpolicyk8s.io_clusterpolicyreports.yaml"}
	// KyvernoPolicyReportCRD is Kyverno's current ClusterPolicyReport CRD (severity
	// critical|high|medium|low|info).
	KyvernoPolicyReportCRD = UpstreamCRD{"github.com/kyverno/kyverno", "v1.19.1", "config/crds/policyreport/wgpolicyk8s.io_clusterpolicyreports.yaml"}
	// OpenReportsClusterReportCRD is the openreports.io/v1alpha1 ClusterReport CRD.
	OpenReportsClusterReportCRD = UpstreamCRD{"github.com/openreports/reports-api", "v0.2.1", "config/crd/openreports.io_clusterreports.yaml"}
)

// Read returns the CRD file, downloading the module into the module cache through the Go
// module proxy (`go mod download`, checksums verified) when it is not there yet. Errors: the go
// command failed (no network and not cached) or the file is missing.
func (c UpstreamCRD) Read() ([]byte, error) {
	cmd := exec.Command("go", "mod", "download", "-json", c.Module+"@"+c.Version)
	cmd.Dir = os.TempDir() // outside any module: the download does not touch go.mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Dir == "" {
		return nil, fmt.Errorf("go mod download %s@%s: %v %s", c.Module, c.Version, err, info.Error)
	}
	return os.ReadFile(filepath.Join(info.Dir, filepath.FromSlash(c.Path)))
}

// String returns module@version/path.
func (c UpstreamCRD) String() string { return c.Module + "@" + c.Version + "/" + c.Path }

// Karpenter's CRDs (karpenter.sh/v1 NodeClaim and NodePool, karpenter.k8s.aws/v1 EC2NodeClass)
// as the AWS provider ships them (its NodeClaim and NodePool files are those of
// sigs.k8s.io/karpenter v1.6.2, which it requires).
var (
	KarpenterNodeClaimCRD    = UpstreamCRD{"github.com/aws/karpenter-provider-aws", "v1.6.3", "pkg/apis/crds/karpenter.sh_nodeclaims.yaml"}
	KarpenterNodePoolCRD     = UpstreamCRD{"github.com/aws/karpenter-provider-aws", "v1.6.3", "pkg/apis/crds/karpenter.sh_nodepools.yaml"}
	KarpenterEC2NodeClassCRD = UpstreamCRD{"github.com/aws/karpenter-provider-aws", "v1.6.3", "pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml"}
)
