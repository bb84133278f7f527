package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The account side of the cross-check tests: cluster prod, whose one instance is tagged
// eks:cluster-name=prod and launched with user data that names prod and its endpoint.
const (
	xInstance    = "i-0123456789abcdef0"
	xEndpoint    = "https://ABCDEF.gr7.us-east-1.eks.amazonaws.com"
	xWrongServer = "https://WRONGENDPOINT.gr7.us-east-1.eks.amazonaws.com"
	xUserData    = "#!/bin/bash\n/etc/eks/bootstrap.sh prod --b64-cluster-ca Zm9v --apiserver-endpoint " + xEndpoint + "\n"
)

// writeXSnapshot writes the snapshot of cluster prod into a new directory.
func writeXSnapshot(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]any{
		"manifest.json": map[string]any{"cluster": "prod", "region": "us-east-1", "instanceIds": []string{xInstance}, "collectedAt": "2025-07-24T16:00:00Z", "tool": "test"},
		"eks/describe-cluster.json": map[string]any{"cluster": map[string]any{"name": "prod", "arn": "arn:aws:eks:us-east-1:111122223333:cluster/prod",
			"version": "1.31", "status": "ACTIVE", "endpoint": xEndpoint, "roleArn": "arn:aws:iam::111122223333:role/eks-cluster-role",
			"resourcesVpcConfig":      map[string]any{"subnetIds": []string{"subnet-1"}, "clusterSecurityGroupId": "sg-cluster", "vpcId": "vpc-1", "endpointPublicAccess": true, "publicAccessCidrs": []string{"0.0.0.0/0"}},
			"kubernetesNetworkConfig": map[string]any{"serviceIpv4Cidr": "10.100.0.0/16", "ipFamily": "ipv4"},
			"certificateAuthority":    map[string]any{"data": "Zm9v"}, "accessConfig": map[string]any{"authenticationMode": "CONFIG_MAP"}, "createdAt": "2024-01-01T00:00:00Z"}},
		"ec2/describe-instances.json": map[string]any{"Reservations": []any{map[string]any{"ReservationId": "r-1", "OwnerId": "111122223333", "Instances": []any{map[string]any{
			"InstanceId": xInstance, "InstanceType": "m5.large", "ImageId": "ami-1", "LaunchTime": "2025-07-24T15:00:00+00:00",
			"State": map[string]any{"Code": 16, "Name": "running"}, "SubnetId": "subnet-1", "VpcId": "vpc-1",
			"PrivateDnsName": "ip-10-0-1-23.ec2.internal", "PrivateIpAddress": "10.0.1.23",
			"IamInstanceProfile": map[string]any{"Arn": "arn:aws:iam::111122223333:instance-profile/node", "Id": "AIPA"},
			"SecurityGroups":     []any{map[string]any{"GroupId": "sg-node", "GroupName": "node"}},
			"Tags":               []any{map[string]any{"Key": "eks:cluster-name", "Value": "prod"}, map[string]any{"Key": "kubernetes.io/cluster/prod", "Value": "owned"}},
		}}}}},
		"ec2/instance-user-data/" + xInstance + ".json": map[string]any{"InstanceId": xInstance, "UserData": map[string]any{"Value": base64.StdEncoding.EncodeToString([]byte(xUserData))}},
		"kube/nodes.json": map[string]any{"apiVersion": "v1", "kind": "List", "items": []any{}},
	}
	for name, v := range files {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// xBundleTime is when the bundles were collected: an hour before the snapshot.
var xBundleTime = time.Date(2025, 7, 24, 15, 30, 0, 0, time.UTC)

// writeXBundle writes a gzip-compressed tar of members (in the order given) into a new file.
func writeXBundle(t *testing.T, name string, members [][2]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, m := range members {
		if err := tw.WriteHeader(&tar.Header{Name: m[0], Mode: 0o644, Size: int64(len(m[1])), Typeflag: tar.TypeReg, ModTime: xBundleTime}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(m[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// xFinding returns the finding of check id, failing the test when there is none.
func xFinding(t *testing.T, r jsonReport, id string) (status, resource, message, evidence, remediation string) {
	t.Helper()
	for _, f := range r.Findings {
		if f.ID == id {
			var ev []string
			for _, e := range f.Evidence {
				ev = append(ev, e.Text+" ["+e.Source+"]")
			}
			return f.Status, f.Resource, f.Message, strings.Join(ev, "; "), f.Remediation
		}
	}
	t.Fatalf("no %s finding", id)
	return
}

// xWarnings returns the report's warnings.
func xWarnings(t *testing.T, out string) []string {
	t.Helper()
	var w struct {
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &w); err != nil {
		t.Fatal(err)
	}
	return w.Warnings
}

// TestAnalyzeCrossCheckOtherCluster: a Bottlerocket node configured for cluster prod-a (and
// another endpoint), cross-checked with a snapshot of cluster prod whose instance is tagged
// prod. The snapshot names the cluster the node belongs to; the node's own name is what is
// judged, so the cluster name and endpoint fail against prod's, the report warns, and no fix
// tells the user to tag for, or grant access in, prod-a.
func TestAnalyzeCrossCheckOtherCluster(t *testing.T) {
	settings := `{"os":{"arch":"x86_64","pretty_name":"Bottlerocket OS 1.24.1 (aws-k8s-1.31)","variant_id":"aws-k8s-1.31","version_id":"1.24.1"},
 "settings":{"aws":{"region":"us-east-1"},"kubernetes":{"api-server":"` + xWrongServer + `","cluster-certificate":"Zm9v","cluster-dns-ip":"10.100.0.10",
 "cluster-name":"prod-a","provider-id":"aws:///us-east-1a/` + xInstance + `","hostname-override":"ip-10-0-1-23.ec2.internal"}}}`
	journal := `Jul 24 15:30:01.123456 localhost kubelet[3021]: E0724 15:30:01.223456    3021 kubelet_node_status.go:94] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-23.ec2.internal"` + "\n"
	b := writeXBundle(t, "bottlerocket-logs.tar.gz", [][2]string{
		{"bottlerocket-logs/logdog.errors", ""},
		{"bottlerocket-logs/settings.json", settings},
		{"bottlerocket-logs/os-release", "NAME=Bottlerocket\nID=bottlerocket\nVARIANT_ID=aws-k8s-1.31\nVERSION_ID=1.24.1\n"},
		{"bottlerocket-logs/journalctl.log", journal},
	})
	_, r, out, stderr := analyze(t, "", b, "--snapshot", writeXSnapshot(t))

	assertOtherCluster(t, r, "settings.json")
	if c := r.Diagnosis.MostLikelyCause; c == nil || *c != "bootstrap.cluster-name-mismatch" {
		t.Errorf("most likely cause %v, want bootstrap.cluster-name-mismatch", c)
	}
	const warning = "the node is configured for cluster prod-a but the snapshot is of cluster prod"
	if w := xWarnings(t, out); len(w) != 1 || w[0] != warning {
		t.Errorf("warnings %q", w)
	}
	if !strings.Contains(stderr, "eksdoctor: warning: "+warning) {
		t.Errorf("stderr lacks the warning: %s", stderr)
	}
	if status, _, msg, _, _ := xFinding(t, r, "subnet.cluster-tag"); status == "fail" {
		t.Errorf("subnet.cluster-tag judged against the node's cluster: %s", msg)
	}
	for _, f := range r.Findings {
		if f.Status == "fail" && (strings.Contains(f.Remediation, "prod-a") || strings.Contains(f.Message, "kubernetes.io/cluster/prod-a")) {
			t.Errorf("%s acts on the node's cluster prod-a: %s / %s", f.ID, f.Message, f.Remediation)
		}
	}
}

// xKubeconfigBundle is an EKS Linux (AL2) bundle whose only bootstrap evidence is the kubelet's
// kubeconfig: it points at another endpoint, and its credential plugin signs for cluster prod-a.
func xKubeconfigBundle(t *testing.T) string {
	kubeconfig := `apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority: /etc/kubernetes/pki/ca.crt
    server: ` + xWrongServer + `
  name: kubernetes
contexts:
- context:
    cluster: kubernetes
    user: kubelet
  name: kubelet
current-context: kubelet
users:
- name: kubelet
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: /usr/bin/aws-iam-authenticator
      args: ["token", "-i", "prod-a", "--region", "us-east-1"]
`
	kubelet := `Jul 24 15:30:01 ip-10-0-1-23.ec2.internal kubelet[3021]: I0724 15:30:01.123456    3021 kubelet_node_status.go:72] "Attempting to register node" node="ip-10-0-1-23.ec2.internal"
Jul 24 15:30:01 ip-10-0-1-23.ec2.internal kubelet[3021]: E0724 15:30:01.223456    3021 kubelet_node_status.go:94] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-23.ec2.internal"
`
	return writeXBundle(t, "eks_"+xInstance+"_2025-07-24_1530-UTC_0.7.9.tar.gz", [][2]string{
		{"./kubelet/kubelet.log", kubelet},
		{"./kubelet/kubeconfig.yaml", kubeconfig},
		{"./system/instance-id.txt", xInstance + "\n"},
		{"./system/region.txt", "us-east-1\n"},
		{"./kernel/uname.txt", "Linux ip-10-0-1-23 5.10.220-209.869.amzn2.x86_64 #1 SMP x86_64 GNU/Linux\n"},
	})
}

// TestAnalyzeKubeconfigBootstrapEvidence: the kubelet kubeconfig is the node's bootstrap
// evidence when the bundle holds nothing else — its server and the cluster its credential plugin
// signs for. Alone it names the node's cluster; cross-checked with a snapshot it is what the node
// actually used, so it is judged against the cluster instead of the user data the instance was
// launched with, and that user data is still judged for what the kubeconfig does not show.
func TestAnalyzeKubeconfigBootstrapEvidence(t *testing.T) {
	b := xKubeconfigBundle(t)
	_, r, out, _ := analyze(t, "", b)
	for _, g := range r.Gaps {
		if g.Kind == "node:bootstrap-config" {
			t.Errorf("bootstrap configuration is a gap: %s", g.Reason)
		}
	}
	var tg struct {
		Target struct{ Cluster, ClusterSource string } `json:"target"`
	}
	if err := json.Unmarshal([]byte(out), &tg); err != nil || tg.Target.Cluster != "prod-a" || tg.Target.ClusterSource != "node configuration" {
		t.Errorf("target %+v (%v)", tg.Target, err)
	}
	status, _, msg, _, _ := xFinding(t, r, "bootstrap.endpoint-mismatch")
	if status != "skipped" || msg != "missing evidence: eks:cluster: not in a node log bundle (add --snapshot to cross-check with the account)" {
		t.Errorf("endpoint-mismatch alone %s: %s", status, msg)
	}

	_, r, out, stderr := analyze(t, "", b, "--snapshot", writeXSnapshot(t))
	assertOtherCluster(t, r, "kubelet/kubeconfig.yaml")
	// what the kubeconfig does not show is still the launch user data's
	status, _, msg, _, _ = xFinding(t, r, "bootstrap.userdata-too-large")
	if want := "user data is " + strconv.Itoa(len(xUserData)) + " bytes (limit 16384)"; status != "pass" || msg != want {
		t.Errorf("userdata-too-large %s: %s, want %s", status, msg, want)
	}
	if c := r.Diagnosis.MostLikelyCause; c == nil || *c != "bootstrap.cluster-name-mismatch" {
		t.Errorf("most likely cause %v, want bootstrap.cluster-name-mismatch", c)
	}
	const warning = "the node is configured for cluster prod-a but the snapshot is of cluster prod"
	if w := xWarnings(t, out); len(w) != 1 || w[0] != warning || !strings.Contains(stderr, "eksdoctor: warning: "+warning) {
		t.Errorf("warnings %q; stderr %s", w, stderr)
	}
}

// assertOtherCluster checks a report of a node configured for cluster prod-a at xWrongServer,
// cross-checked with the snapshot of prod: both mismatch checks fail on the instance, the name's
// evidence citing the snapshot's tag and the bundle file src the configuration came from.
func assertOtherCluster(t *testing.T, r jsonReport, src string) {
	t.Helper()
	status, res, msg, ev, _ := xFinding(t, r, "bootstrap.cluster-name-mismatch")
	if status != "fail" || res != xInstance || msg != `user data joins cluster "prod-a", but the node belongs to "prod"` ||
		!strings.Contains(ev, `user data cluster name "prod-a"; target cluster "prod" (instance tag eks:cluster-name)`) ||
		!strings.Contains(ev, src) {
		t.Errorf("cluster-name-mismatch %s %s: %s (%s)", status, res, msg, ev)
	}
	status, res, msg, _, _ = xFinding(t, r, "bootstrap.endpoint-mismatch")
	if status != "fail" || res != xInstance || msg != "user data points the kubelet at "+xWrongServer+", but the cluster's endpoint is "+xEndpoint {
		t.Errorf("endpoint-mismatch %s %s: %s", status, res, msg)
	}
}
