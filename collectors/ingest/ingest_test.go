package ingest

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	kubeletLog = `Jun 06 19:33:03 ip-10-150-127-198 kubelet[3214]: E0606 19:33:03.828406 3214 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="ip-10-150-127-198.ec2.internal"
Jun 06 19:33:03 ip-10-150-127-198 kubelet[3214]: E0606 19:33:03.828481 3214 controller.go:145] "Failed to ensure lease exists, will retry" err="Unauthorized" interval="7s"
`
	awsAuthYAML = `apiVersion: v1
kind: ConfigMap
metadata:
  name: aws-auth
  namespace: kube-system
data:
  mapRoles: |
    - rolearn: arn:aws:iam::111122223333:role/eks/nodes/node-role
      username: system:node:{{EC2PrivateDNSName}}
      groups:
        - system:bootstrappers
        - system:nodes
`
	describeCSR = `Name:               csr-8xk2p
Labels:             <none>
Annotations:        <none>
CreationTimestamp:  Mon, 24 Jul 2026 15:30:02 +0000
Requesting User:    system:node:ip-10-0-1-23.eu-west-1.compute.internal
Signer:             kubernetes.io/kubelet-serving
Status:             Denied
Subject:
  Common Name:    system:node:ip-10-0-1-23.eu-west-1.compute.internal
  Serial Number:
Events:  <none>
`
)

func types(segs []Segment) []Type {
	var out []Type
	for _, s := range segs {
		out = append(out, s.Type)
	}
	return out
}

// TestIssueBodySegments: prose, then each artefact in a fence, is read as each artefact alone.
func TestIssueBodySegments(t *testing.T) {
	body := "Our nodes do not join since the upgrade. Kubelet says:\n\n```\n" + kubeletLog + "```\n\nHere is aws-auth:\n\n```yaml\n" + awsAuthYAML + "```\n\nand the CSR:\n\n```\n$ kubectl describe csr csr-8xk2p\n" + describeCSR + "```\nThanks!\n"
	r := Read([]byte(body), "stdin", Options{})
	want := []Type{TypeProse, TypeLog, TypeProse, TypeAWSAuth, TypeProse, TypeDescribeCSR, TypeProse}
	if got := types(r.Segments); !equalTypes(got, want) {
		t.Fatalf("segments %v, want %v", got, want)
	}
	ev := r.Evidence
	if !ev.Have(evidence.KindNodeLogs) || !ev.Have(evidence.KindAWSAuth) || !ev.Have(evidence.KindCSRs) {
		t.Fatalf("kinds %v", ev.CollectedKinds())
	}
	if len(ev.AWSAuth.Roles) != 1 || ev.AWSAuth.Roles[0].RoleArn != "arn:aws:iam::111122223333:role/eks/nodes/node-role" {
		t.Fatalf("aws-auth %+v", ev.AWSAuth)
	}
	if len(ev.CSRs) != 1 || ev.CSRs[0].State != "Denied" || ev.CSRs[0].SignerName != "kubernetes.io/kubelet-serving" {
		t.Fatalf("csrs %+v", ev.CSRs)
	}
	if src := ev.Source(evidence.KindAWSAuth); src != "paste:stdin:11-22" {
		t.Errorf("aws-auth origin %q", src)
	}
	found := false
	for _, h := range ev.NodeLogs.Hits {
		if h.Finding == "runtime.unauthorized" {
			found = true
		}
	}
	if !found {
		t.Errorf("the kubelet's 401 was not found: %+v", ev.NodeLogs.Hits)
	}
}

func equalTypes(a, b []Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestUnfencedMix: without fences, paragraphs split log lines, YAML and prose.
func TestUnfencedMix(t *testing.T) {
	body := "the node never joins\n\n" + kubeletLog + "\n" + awsAuthYAML + "\nany idea?\n"
	r := Read([]byte(body), "stdin", Options{})
	want := []Type{TypeProse, TypeLog, TypeAWSAuth, TypeProse}
	if got := types(r.Segments); !equalTypes(got, want) {
		t.Fatalf("segments %v, want %v", got, want)
	}
}

// TestNothingRecognised: prose, source code, HTML and empty JSON are read but not recognised.
func TestNothingRecognised(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	goSrc, err := os.ReadFile("segment.go")
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string][]byte{
		"README.md": readme,
		"Go source": goSrc,
		"HTML":      []byte("<!DOCTYPE html>\n<html><head><title>EKS</title></head>\n<body><p>Nodes are not joining.</p></body></html>\n"),
		"{}":        []byte("{}\n"),
		"prose":     []byte("Hi team,\n\nsince yesterday our nodes do not join. Any idea why?\n"),
	} {
		r := Read(in, name, Options{})
		if r.Recognised() {
			for _, s := range r.Segments {
				if s.Recognised() {
					t.Errorf("%s: lines %d-%d read as %s", name, s.First, s.Last, s.Label())
				}
			}
		}
	}
}

// TestBinaryAndArchives: non-text input is refused by Text with what it is.
func TestBinaryAndArchives(t *testing.T) {
	rnd := make([]byte, 4096)
	rand.New(rand.NewSource(1)).Read(rnd)
	for name, in := range map[string][]byte{
		"png":    []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
		"xz":     []byte{0xFD, '7', 'z', 'X', 'Z', 0x00, 0, 0},
		"zstd":   {0x28, 0xB5, 0x2F, 0xFD, 1, 2},
		"bzip2":  []byte("BZh91AY&SY"),
		"random": rnd,
		"nul":    []byte("Jul 24 kubelet\x00\x00\x00"),
	} {
		if _, p := Text(in); p == nil || !p.Unsupported {
			t.Errorf("%s: accepted as text (%v)", name, p)
		}
	}
	utf16 := []byte{0xFF, 0xFE}
	for _, c := range kubeletLog {
		utf16 = append(utf16, byte(c), 0)
	}
	text, p := Text(utf16)
	if p != nil || !strings.Contains(string(text), `err="Unauthorized"`) {
		t.Fatalf("UTF-16 not decoded: %v %q", p, text)
	}
	noBOM := utf16[2:]
	if text, p := Text(noBOM); p != nil || !strings.Contains(string(text), "kubelet_node_status.go") {
		t.Fatalf("UTF-16 without BOM not decoded: %v", p)
	}
}

// TestTextUTF32IsNamed: UTF-32 text (p_utf32_bom.txt) is not read as UTF-16 with NUL holes,
// which left nothing recognised; it is an unsupported input named by its encoding.
func TestTextUTF32IsNamed(t *testing.T) {
	enc := func(s string, le bool) []byte {
		var b []byte
		for _, r := range s {
			if le {
				b = append(b, byte(r), byte(r>>8), byte(r>>16), 0)
			} else {
				b = append(b, 0, byte(r>>16), byte(r>>8), byte(r))
			}
		}
		return b
	}
	for name, tc := range map[string]struct {
		in   []byte
		want string
	}{
		"LE BOM":    {enc("\ufeff"+kubeletLog, true), "UTF-32 text (little-endian, with a byte-order mark)"},
		"BE BOM":    {enc("\ufeff"+kubeletLog, false), "UTF-32 text (big-endian, with a byte-order mark)"},
		"LE no BOM": {enc(kubeletLog, true), "UTF-32 text (little-endian, without a byte-order mark)"},
		"BE no BOM": {enc(kubeletLog, false), "UTF-32 text (big-endian, without a byte-order mark)"},
	} {
		_, p := Text(tc.in)
		if p == nil || !p.Unsupported || p.Message != "the input is "+tc.want+", an encoding eksdoctor does not read (convert it to UTF-8: iconv -f UTF-32 -t UTF-8 FILE)" {
			t.Errorf("%s: %+v", name, p)
		}
	}
	// UTF-16 LE text is still decoded, and a log with NUL holes is still read
	if _, p := Text(append([]byte{0xFF, 0xFE}, enc16(kubeletLog)...)); p != nil {
		t.Errorf("UTF-16: %v", p)
	}
	if _, p := Text([]byte("Jul 24 15:30:02 h kubelet[1]: x\n" + strings.Repeat("\x00", 4096) + "Jul 24 15:30:03 h kubelet[1]: y\n")); p != nil {
		t.Errorf("NUL holes: %v", p)
	}
}

func enc16(s string) []byte {
	var b []byte
	for _, c := range []byte(s) {
		b = append(b, c, 0)
	}
	return b
}

// TestDocumentShapes: each shape of a document a paste holds is read as its type.
func TestDocumentShapes(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte("#!/bin/bash\n/etc/eks/bootstrap.sh prod\n"))
	_ = zw.Close()
	for name, tc := range map[string]struct {
		in   string
		want Type
	}{
		"mapRoles block":     {"mapRoles: |\n  - rolearn: arn:aws:iam::1:role/r\n    username: system:node:{{EC2PrivateDNSName}}\n", TypeAWSAuth},
		"mapRoles fragment":  {` "rolearn": "arn:aws:iam::1:role/a/b"` + "\n      \"username\": \"system:node:{{EC2PrivateDNSName}}\"\n    - \"groups\":\n      - \"system:nodes\"\n", TypeAWSAuth},
		"bare mapRoles list": {"- rolearn: arn:aws:iam::1:role/r\n  username: x\n  groups: [system:nodes]\n", TypeAWSAuth},
		"NodeConfig":         {"apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n", TypeNodeConfig},
		// a describe node trimmed to Name, Labels and Conditions, as people paste it
		"trimmed describe node": {"Name:               ip-10-0-12-34.us-west-2.compute.internal\nRoles:              <none>\nLabels:             beta.kubernetes.io/arch=amd64\nCreationTimestamp:  Mon, 05 Dec 2022 03:40:12 +0000\nConditions:\n  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n  ----             ------  -----------------                 ------------------                ------                       -------\n  DiskPressure     False   Mon, 05 Dec 2022 04:10:22 +0000   Mon, 05 Dec 2022 03:52:40 +0000   KubeletHasNoDiskPressure     kubelet has no disk pressure\n  Ready            True    Mon, 05 Dec 2022 04:10:22 +0000   Mon, 05 Dec 2022 03:40:42 +0000   KubeletReady                 kubelet is posting ready status\n", TypeDescribeNode},
		"shell user data":       {"#!/bin/bash\nset -ex\n/etc/eks/bootstrap.sh prod --b64-cluster-ca X\n", TypeUserData},
		"script, no shebang":    {"/etc/eks/bootstrap.sh prod --kubelet-extra-args '--node-labels=a=b'\n", TypeUserData},
		"base64 gzip":           {base64.StdEncoding.EncodeToString(gz.Bytes()), TypeUserData},
		"Bottlerocket TOML":     {"[settings.kubernetes]\ncluster-name = \"prod\"\n", TypeUserData},
		"EC2Launch v2 YAML":     {"version: 1.1\ntasks:\n- task: executeScript\n  inputs:\n  - frequency: always\n    type: powershell\n    content: |-\n      & $EKSBootstrapScriptFile -EKSClusterName \"prod\"\n", TypeUserData},
		"Bottlerocket JSON":     {`{"settings":{"kubernetes":{"cluster-name":"prod"}}}`, TypeBottlerocketSettings},
		"describe-instances":    {`{"Reservations":[]}`, AWSType("ec2/describe-instances.json")},
		"get-role":              {`{"Role":{"RoleName":"n","Arn":"arn:aws:iam::1:role/n"}}`, AWSType("iam/get-role/<role-name>.json")},
		"NodeList":              {`{"apiVersion":"v1","kind":"NodeList","items":[]}`, TypeNodes},
		"kubectl get csr":       {"NAME        AGE   SIGNERNAME                      REQUESTOR   REQUESTEDDURATION   CONDITION\ncsr-vgrfh   4m    kubernetes.io/kubelet-serving   test        <none>              Pending\n", TypeGetCSR},
		"kubectl get nodes":     {"NAME                          STATUS     ROLES    AGE   VERSION\nip-10-8-12-74.ec2.internal    NotReady   <none>   40s   v1.29.6-eks-1552ad0\n", TypeGetNodes},
		"kubectl describe csr":  {describeCSR, TypeDescribeCSR},
		"ipamd JSON lines":      {`{"level":"error","ts":"2026-07-24T15:29:57.120Z","caller":"ipamd/ipamd.go:845","msg":"x"}` + "\n" + `{"level":"info","ts":"2026-07-24T15:29:58.120Z","caller":"ipamd/ipamd.go:845","msg":"y"}` + "\n", TypeLog},
		"[ERROR] lines":         {"[ERROR]\tFailed to get ENI eni-1 information from EC2\ncaused by: RequestError: send request failed\n", TypeLog},
		"events rows":           {" Warning  FailedCreatePodSandBox  6m7s  kubelet  Failed to create pod sandbox: pod does not have label vpc.amazonaws.com/PrivateIPv4Address\n", TypeLog},
	} {
		segs := Segments([]byte(tc.in))
		if len(segs) != 1 || segs[0].Type != tc.want {
			t.Errorf("%s: %v, want one %s", name, types(segs), tc.want)
		}
	}
}

// TestTerraformPlanOfAWSAuth: the mappings a plan removes are rebuilt from the diff markers.
func TestTerraformPlanOfAWSAuth(t *testing.T) {
	plan := `  # module.eks.kubernetes_config_map.aws_auth[0] will be updated in-place
  ~ resource "kubernetes_config_map" "aws_auth" {
      ~ data        = {
          ~ "mapRoles"    = <<~EOT
              - - groups:
              -   - system:bootstrappers
              -   - system:nodes
              -   rolearn: arn:aws:iam::1234567890:role/managed-node-groups
              -   username: system:node:{{EC2PrivateDNSName}}
                - groups:
                  - system:masters
                  rolearn: arn:aws:iam::1234567890:role/admin
                  username: admin
              + - groups:
              +   - system:masters
              +   rolearn: arn:aws:iam::1234567890:role/ops
              +   username: ops
            EOT
        }
    }
`
	r := Read([]byte(plan), "plan.txt", Options{})
	if len(r.Segments) != 1 || r.Segments[0].Type != TypeTerraformAWSAuth {
		t.Fatalf("segments %v", types(r.Segments))
	}
	ch := r.Evidence.MappingChanges
	if len(ch) != 2 || ch[0].Action != "removed" || ch[0].RoleArn != "arn:aws:iam::1234567890:role/managed-node-groups" || ch[0].Line != 8 ||
		ch[1].Action != "added" || ch[1].RoleArn != "arn:aws:iam::1234567890:role/ops" {
		t.Fatalf("changes %+v", ch)
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{kubeletLog, awsAuthYAML, describeCSR, "```\n" + kubeletLog + "```\n", "mapRoles: |\n - a\n", "#!/bin/bash\n", `{"cluster":{}}`,
		"TUlNRS1WZXJzaW9uOiAxLjA=", "NAME   AGE\nx  1s\n", "# x will be destroyed\n  - \"mapRoles\" = <<-EOT\n  - rolearn: a\nEOT\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		text, p := Text(data)
		if p != nil {
			return
		}
		r := Read(text, "fuzz", Options{})
		if r.Evidence == nil {
			t.Fatal("no evidence")
		}
		last := 0
		for _, s := range r.Segments {
			if s.First < 1 || s.Last < s.First || s.First <= last && last != 0 && s.First < last {
				t.Fatalf("segment lines %d-%d after %d", s.First, s.Last, last)
			}
			last = s.Last
		}
	})
}

// TestDataFragmentLinesAreScanned: JSON that is no document eksdoctor knows — a health issue
// quoted on its own, or describe-nodegroup output with the poster's elisions and markers, which
// no JSON parser accepts — still has its lines matched against the catalog.
func TestDataFragmentLinesAreScanned(t *testing.T) {
	for name, in := range map[string]string{
		"health issue alone": "{\n  \"code\": \"AsgInstanceLaunchFailures\",\n  \"message\": \"Could not launch On-Demand Instances. InvalidKMSKey.InvalidState\"\n}\n",
		"elided describe-nodegroup": "{\n    \"nodegroup\": {\n        \"nodegroupName\": \"ng-1\", <<<---\n        ...\n        \"status\": \"DEGRADED\",\n" +
			"        \"health\": {\n            \"issues\": [\n                {\n                    \"code\": \"AsgInstanceLaunchFailures\",\n" +
			"                    \"message\": \"Instance became unhealthy while waiting for instance to be in InService state.\"\n                }\n            ]\n        }\n        ...\n}\n",
	} {
		r := Read([]byte(in), name, Options{})
		if !r.Recognised() {
			t.Errorf("%s: not recognised: %v", name, types(r.Segments))
			continue
		}
		ev := r.Evidence
		if ev.NodeLogs == nil || !hasSignature(ev.NodeLogs, "eks-describe-nodegroup-health-code") {
			t.Errorf("%s: the health code line was not matched", name)
		}
	}
}

func hasSignature(nl *evidence.NodeLogs, name string) bool {
	if nl == nil {
		return false
	}
	for _, h := range nl.Hits {
		if h.Signature == name {
			return true
		}
	}
	return false
}

// TestFlattenedAWSAuthIsReindented: kubectl describe configmap aws-auth copied from a web page
// that dropped every indentation is read as the mappings it shows, not as malformed YAML; a
// mapRoles value that is indented but broken still is.
func TestFlattenedAWSAuthIsReindented(t *testing.T) {
	flat := "Name: aws-auth\nNamespace: kube-system\nLabels: <none>\nAnnotations: <none>\nData\n====\nmapRoles:\n----\n- groups:\n- system:masters\n" +
		"rolearn: arn:aws:iam::111111111111:role/aws-reserved/sso.amazonaws.com/us-east-1/AWSReservedSSO_Admin_1310\nusername: sso-admin\n" +
		"- rolearn: arn:aws:iam::111111111111:role/node\nusername: system:node:{{EC2PrivateDNSName}}\ngroups:\n- system:bootstrappers\n- system:nodes\n"
	r := Read([]byte(flat), "stdin", Options{})
	a := r.Evidence.AWSAuth
	if a == nil || len(a.Problems) != 0 || len(a.Roles) != 2 {
		t.Fatalf("aws-auth %+v", a)
	}
	if a.Roles[0].Username != "sso-admin" || len(a.Roles[0].Groups) != 1 || a.Roles[1].RoleArn != "arn:aws:iam::111111111111:role/node" || len(a.Roles[1].Groups) != 2 {
		t.Errorf("roles %+v", a.Roles)
	}
	broken := strings.Replace(flat, "- groups:\n- system:masters\nrolearn:", "- groups:\n  - system:masters\n rolearn:", 1)
	if a := Read([]byte(broken), "stdin", Options{}).Evidence.AWSAuth; a == nil || len(a.Problems) == 0 {
		t.Errorf("indented but broken mapRoles read without a problem: %+v", a)
	}
}

// TestPastedBootstrapLineIsAnExcerpt: one bootstrap.sh line copied out of user data is read as
// the script it belongs to (a warning that the #! line is not shown), not as user data cloud-init
// would not run; base64 user data, which is whole, still fails without it.
func TestPastedBootstrapLineIsAnExcerpt(t *testing.T) {
	line := "/etc/eks/bootstrap.sh dev --kubelet-extra-args '--max-pods=17' --b64-cluster-ca $B64_CLUSTER_CA --apiserver-endpoint $API_SERVER_URL\n"
	b := Read([]byte(line), "stdin", Options{}).Evidence.Bootstrap
	if b == nil || !b.CallsBootstrap || b.ClusterName != "dev" {
		t.Fatalf("bootstrap %+v", b)
	}
	for _, i := range b.Issues {
		if i.Level == evidence.IssueError {
			t.Errorf("error for a pasted excerpt: %s", i.Message)
		}
	}
	whole := Read([]byte(base64.StdEncoding.EncodeToString([]byte(line))+"\n"), "stdin", Options{}).Evidence.Bootstrap
	if whole == nil || whole.CallsBootstrap {
		t.Errorf("base64 user data without #! read as bootstrapping: %+v", whole)
	}
}

// TestPlanCutInsideARemovedEntry: a Terraform plan pasted up to the first lines of the mapRoles
// entry it removes still shows a node mapping removed, its rolearn below the cut.
func TestPlanCutInsideARemovedEntry(t *testing.T) {
	plan := "Terraform will perform the following actions:\n\n  # module.eks.kubernetes_config_map_v1_data.aws_auth[0] will be updated in-place\n" +
		"  ~ resource \"kubernetes_config_map_v1_data\" \"aws_auth\" {\n      ~ data  = {\n          ~ \"mapRoles\"    = <<-EOT\n              - - groups:\n              -   - system:bootstrappers\n"
	ev := Read([]byte(plan), "stdin", Options{}).Evidence
	if len(ev.MappingChanges) != 1 || ev.MappingChanges[0].Action != "removed" || ev.MappingChanges[0].RoleArn != "" || len(ev.MappingChanges[0].Groups) != 1 {
		t.Fatalf("changes %+v", ev.MappingChanges)
	}
}

// TestTerraformHeredocIsReadAsItsDocument: an output or attribute whose value Terraform prints as
// a heredoc (the module's aws_auth_configmap_yaml, a launch template's user data) is read as the
// document inside it.
func TestTerraformHeredocIsReadAsItsDocument(t *testing.T) {
	out := "Changes to Outputs:\n  + aws_auth_configmap_yaml = <<-EOT\n        apiVersion: v1\n        kind: ConfigMap\n        metadata:\n          name: aws-auth\n          namespace: kube-system\n" +
		"        data:\n          mapRoles: |\n            - rolearn: arn:aws:iam::111122223333:role/node\n              username: system:node:{{EC2PrivateDNSName}}\n              groups:\n                - system:nodes\n    EOT\n"
	r := Read([]byte(out), "stdin", Options{})
	a := r.Evidence.AWSAuth
	if a == nil || len(a.Roles) != 1 || a.Roles[0].RoleArn != "arn:aws:iam::111122223333:role/node" {
		t.Fatalf("aws-auth %+v; segments %v", a, types(r.Segments))
	}
}

// TestTerraformHeredocCutByThePaste: a heredoc whose closing EOT is below the paste's end.
func TestTerraformHeredocCutByThePaste(t *testing.T) {
	out := "Changes to Outputs:\n  + user_data = <<-EOT\n        #!/bin/bash\n        set -ex\n        /etc/eks/bootstrap.sh prod --apiserver-endpoint https://ABC.gr7.us-west-2.eks.amazonaws.com\n"
	b := Read([]byte(out), "stdin", Options{}).Evidence.Bootstrap
	if b == nil || !b.CallsBootstrap || b.ClusterName != "prod" {
		t.Fatalf("bootstrap %+v", b)
	}
}

// TestAWSAuthManifestDuplicateKey: an aws-auth manifest with two data: blocks is malformed (only
// one can be applied); one with each key once is not.
func TestAWSAuthManifestDuplicateKey(t *testing.T) {
	block := "data:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/ROLE\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\n"
	head := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\n"
	for _, tc := range []struct {
		name, text string
		dup        bool
	}{
		{"two data blocks", head + strings.ReplaceAll(block, "ROLE", "ng-1") + "\n" + strings.ReplaceAll(block, "ROLE", "ng-2"), true},
		{"one data block", head + strings.ReplaceAll(block, "ROLE", "ng-1"), false},
	} {
		a := Read([]byte(tc.text), "stdin", Options{}).Evidence.AWSAuth
		if a == nil {
			t.Fatalf("%s: no aws-auth read", tc.name)
		}
		dup := false
		for _, p := range a.Problems {
			dup = dup || strings.Contains(p.Message, "has a key twice")
		}
		if dup != tc.dup {
			t.Errorf("%s: problems %+v", tc.name, a.Problems)
		}
	}
}

// TestFullerNodeConfigurationWins: a paste holding the bootstrap.sh command someone typed and,
// later, the node group's whole configuration is read with the fuller one, whichever comes
// first; the other segment says why it was set aside.
func TestFullerNodeConfigurationWins(t *testing.T) {
	typed := "```\nsudo /etc/eks/bootstrap.sh prod --enable-docker-bridge\n```\n"
	full := "```\n#!/bin/bash\nset -o xtrace\n/etc/eks/bootstrap.sh prod --apiserver-endpoint https://ABC.gr7.us-east-1.eks.amazonaws.com --b64-cluster-ca LS0t --kubelet-extra-args '--node-labels=kubernetes.io/lifecycle=spot,team=a --register-with-taints=dedicated=a:NoSchedule'\n```\n"
	cases := []struct{ name, body, problem string }{
		{"typed first", typed + "\nand the user data:\n\n" + full, "a fuller node configuration follows in the paste; that one is used"},
		{"full first", full + "\nand I ran:\n\n" + typed, "a second node configuration in the paste; the first one, which says as much or more, is used"},
	}
	for _, c := range cases {
		r := Read([]byte(c.body), "stdin", Options{})
		b := r.Evidence.Bootstrap
		if b == nil || b.Labels["kubernetes.io/lifecycle"] != "spot" || b.APIServerEndpoint == "" {
			t.Errorf("%s: bootstrap %+v, want the full user data's", c.name, b)
			continue
		}
		var problems, fuller []string
		for _, s := range r.Segments {
			if s.Problem != "" {
				problems = append(problems, s.Problem)
			}
			if strings.HasPrefix(string(s.Text), "#!/bin/bash") {
				fuller = append(fuller, Origin("stdin", s))
			}
		}
		if len(problems) != 1 || problems[0] != c.problem {
			t.Errorf("%s: problems %q, want %q", c.name, problems, c.problem)
		}
		if src := r.Evidence.Source(evidence.KindBootstrap); len(fuller) != 1 || src != fuller[0] {
			t.Errorf("%s: bootstrap source %q, want the full user data's %q", c.name, src, fuller)
		}
	}
}

// TestCutDescribeClusterIsNotAWSAuth: a describe-cluster output cut short (no longer JSON) names
// the cluster role under "roleArn"; without a username or groups beside it, that is no mapRoles
// entry, and reading it as one judged a healthy ticket's cluster as an aws-auth.
func TestCutDescribeClusterIsNotAWSAuth(t *testing.T) {
	in := "{\n    \"cluster\": {\n        \"name\": \"int1\",\n        \"arn\": \"arn:aws:eks:us-east-1:111122223333:cluster/int1\",\n" +
		"        \"version\": \"1.13\",\n        \"roleArn\": \"arn:aws:iam::111122223333:role/eks-cluster\",\n        \"resourcesVpcConfig\": {\n" +
		"            \"subnetIds\": [\n                \"subnet-0a1\"\n            ],\n"
	for _, s := range Segments([]byte(in)) {
		if s.Type == TypeAWSAuth {
			t.Fatalf("cut describe-cluster read as %s (%s)", s.Type, s.Label())
		}
	}
	// a real fragment keeps being read: a rolearn with its username
	frag := "    - rolearn: arn:aws:iam::111122223333:role/nodes\n      username: system:node:{{EC2PrivateDNSName}}\n"
	if segs := Segments([]byte(frag)); len(segs) != 1 || segs[0].Type != TypeAWSAuth {
		t.Fatalf("fragment: %v", types(segs))
	}
}

// TestApiclientGetSomeKeysIsPartial: `apiclient get` of two keys prints only them; the
// settings read from it do not lack the others (cluster-certificate was not asked for).
func TestApiclientGetSomeKeysIsPartial(t *testing.T) {
	paste := "bash-5.1# apiclient get settings.kubernetes.api-server settings.kubernetes.cluster-name\n{\n  \"settings\": {\n    \"kubernetes\": {\n      \"api-server\": \"https://ABC.gr7.us-west-2.eks.amazonaws.com\",\n      \"cluster-name\": \"geo\"\n    }\n  }\n}\n"
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if ev.Bootstrap == nil || ev.Bootstrap.ClusterName != "geo" || !ev.Bootstrap.Fragment {
		t.Fatalf("bootstrap %+v", ev.Bootstrap)
	}
	// keys of other settings beside some of settings.kubernetes: still only those printed
	withOS := strings.Replace(paste, "apiclient get settings.kubernetes.api-server", "apiclient get os settings.kubernetes.api-server", 1)
	if ev := Read([]byte(withOS), "stdin", Options{}).Evidence; ev.Bootstrap == nil || !ev.Bootstrap.Fragment {
		t.Fatalf("apiclient get os settings.kubernetes.…: not partial: %+v", ev.Bootstrap)
	}
	whole := strings.Replace(paste, "apiclient get settings.kubernetes.api-server settings.kubernetes.cluster-name", "apiclient get settings.kubernetes", 1)
	if ev := Read([]byte(whole), "stdin", Options{}).Evidence; ev.Bootstrap == nil || ev.Bootstrap.Fragment {
		t.Fatalf("the whole settings.kubernetes read as partial: %+v", ev.Bootstrap)
	}
	// keys of other settings or of os beside them add no settings.kubernetes key (pastes26/05)
	for _, cmd := range []string{"apiclient get settings.kubernetes.cluster-name settings.kubernetes.api-server os.version-id", "apiclient get os settings.kubernetes.api-server settings.network.hostname"} {
		some := strings.Replace(paste, "apiclient get settings.kubernetes.api-server settings.kubernetes.cluster-name", cmd, 1)
		if ev := Read([]byte(some), "stdin", Options{}).Evidence; ev.Bootstrap == nil || !ev.Bootstrap.Fragment {
			t.Errorf("%s: read as the whole settings: %+v", cmd, ev.Bootstrap)
		}
	}
	for _, cmd := range []string{"apiclient get settings", "apiclient get os settings.kubernetes"} {
		all := strings.Replace(paste, "apiclient get settings.kubernetes.api-server settings.kubernetes.cluster-name", cmd, 1)
		if ev := Read([]byte(all), "stdin", Options{}).Evidence; ev.Bootstrap == nil || ev.Bootstrap.Fragment {
			t.Errorf("%s: read as partial: %+v", cmd, ev.Bootstrap)
		}
	}
}

// TestTextWithNULHoles: a log a crash left runs of NUL bytes in (trailing, or a hole between
// lines) is text whose holes end lines; data whose other bytes are not text stays binary.
func TestTextWithNULHoles(t *testing.T) {
	line := "Jul 24 15:30:02 ip-10-0-1-2 kubelet[2841]: E0724 15:30:02.118732    2841 kubelet_node_status.go:107] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-2\"\n"
	for name, in := range map[string]string{
		"trailing": line + line + line + strings.Repeat("\x00", 10),
		"hole":     "Jul 24 15:29:00 ip-10-0-1-2 systemd[1]: Started kubelet.\n" + strings.Repeat("\x00", 8192) + line + line + line,
	} {
		out, p := Text([]byte(in))
		if p != nil {
			t.Errorf("%s: %v", name, p)
			continue
		}
		if bytes.IndexByte(out, 0) >= 0 || strings.Count(string(out), "Unauthorized") != 3 {
			t.Errorf("%s: text %q", name, out)
		}
	}
	bin := make([]byte, 4096)
	for i := range bin {
		bin[i] = byte(i * 7919 % 251) // every byte value, NULs and controls among them
	}
	if _, p := Text(bin); p == nil || !strings.Contains(p.Message, "binary") {
		t.Errorf("binary data read as text (%v)", p)
	}
}

// TestJSONNumberOutOfRange: describe-instances output holding a number no float64 holds
// (p_hugenum2.json's 400-digit State.Code, 1e999) is named as the AWS CLI output it is, with the
// number and its line, as a problem of the input; it is not unrecognised text.
func TestJSONNumberOutOfRange(t *testing.T) {
	doc := func(code string) string {
		return "{\n  \"Reservations\": [{\"ReservationId\": \"r-1\", \"Instances\": [{\n    \"InstanceId\": \"i-0123456789abcdef0\", \"InstanceType\": \"m5.large\",\n    \"State\": {\"Code\": " + code + ", \"Name\": \"running\"}}]}]\n}\n"
	}
	const what = "AWS CLI output (aws ec2 describe-instances output) that does not parse: the number "
	for _, tc := range []struct{ code, want string }{
		{strings.Repeat("9", 400), what + "999999999999…9999 (400 characters) on line 4 is out of range (beyond what a 64-bit float holds)"},
		{"1e999", what + "1e999 on line 4 is out of range (beyond what a 64-bit float holds)"},
	} {
		r := Read([]byte(doc(tc.code)), "hugenum.json", Options{})
		if r.Recognised() || len(r.Segments) != 1 || r.Segments[0].Problem != tc.want {
			t.Errorf("%s: recognised %v, segments %+v; want the problem %q", tc.code[:5], r.Recognised(), r.Segments, tc.want)
		}
	}
	// beside a log that is read, it is a problem of the input, and the log is still read
	r := Read([]byte(kubeletLog+"\n"+doc("1e999")), "mixed", Options{})
	var problems []string
	for _, s := range r.Segments {
		if s.Problem != "" {
			problems = append(problems, s.Problem)
		}
	}
	if !r.Recognised() || len(problems) != 1 || !strings.HasPrefix(problems[0], what+"1e999 on line ") {
		t.Errorf("mixed: recognised %v, problems %q", r.Recognised(), problems)
	}
	// a number in range is read as before
	if r := Read([]byte(doc("16")), "ok.json", Options{}); !r.Recognised() || r.Evidence.Instance == nil {
		t.Errorf("State.Code 16: not read: %+v", r.Segments)
	}
}

// TestBase64BlobIsReadForWhatItHolds: a lone base64 (or gzip+base64) blob is user data only
// when what it decodes to looks like user data; a journal, kubectl output or a certificate moved
// through a clipboard that way is read as what it is.
func TestBase64BlobIsReadForWhatItHolds(t *testing.T) {
	journal := "Nov 20 09:41:02 ip-10-0-1-23.us-west-2.compute.internal kubelet[3121]: E1120 09:41:02.530114    3121 kubelet_node_status.go:95] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.us-west-2.compute.internal\"\n" +
		"Nov 20 09:41:09 ip-10-0-1-23.us-west-2.compute.internal kubelet[3121]: E1120 09:41:09.549917    3121 kubelet_node_status.go:95] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.us-west-2.compute.internal\"\n"
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		_, _ = zw.Write([]byte(s))
		_ = zw.Close()
		return b.Bytes()
	}
	wrap := func(s string) string { // base64's 76-column lines
		var b strings.Builder
		for len(s) > 76 {
			b.WriteString(s[:76] + "\n")
			s = s[76:]
		}
		return b.String() + s + "\n"
	}
	b64 := base64.StdEncoding.EncodeToString
	pem := "-----BEGIN CERTIFICATE-----\nMIIC/jCCAeagAwIBAgIBADANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl\n-----END CERTIFICATE-----\n"
	nodes := "NAME                          STATUS     ROLES    AGE   VERSION\nip-10-8-12-74.ec2.internal    NotReady   <none>   40s   v1.29.6-eks-1552ad0\n"
	for name, tc := range map[string]struct {
		in      string
		want    Type
		notUser bool
	}{
		"base64 journal":         {wrap(b64([]byte(journal))), TypeLog, false},
		"gzip+base64 journal":    {b64(gz(journal)), TypeLog, false},
		"base64 kubectl output":  {b64([]byte(nodes)), TypeGetNodes, false},
		"base64 cluster CA":      {b64([]byte(pem)), "", true},
		"base64 shell user data": {b64([]byte("#!/bin/bash\n/etc/eks/bootstrap.sh prod\n")), TypeUserData, false},
		"gzip+base64 NodeConfig": {b64(gz("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n")), TypeUserData, false},
		"base64 TOML":            {b64([]byte("[settings.kubernetes]\ncluster-name = \"prod\"\n")), TypeUserData, false},
	} {
		segs := Segments([]byte(tc.in))
		if len(segs) != 1 {
			t.Errorf("%s: %v, want one segment", name, types(segs))
			continue
		}
		if tc.notUser {
			if segs[0].Type == TypeUserData || !strings.Contains(segs[0].Label(), "base64") {
				t.Errorf("%s: %s, want something else than user data, labelled base64", name, segs[0].Label())
			}
			continue
		}
		if segs[0].Type != tc.want || segs[0].First != 1 {
			t.Errorf("%s: %s (lines %d-%d), want %s from line 1", name, segs[0].Label(), segs[0].First, segs[0].Last, tc.want)
		}
		if tc.want != TypeUserData && !strings.Contains(segs[0].Label(), "base64") {
			t.Errorf("%s: label %q does not say it was base64", name, segs[0].Label())
		}
	}
}

// hardWrapped cuts every line of s into pieces of at most width characters, as a terminal or a
// ticket tool copying a fixed-width screen does.
func hardWrapped(s string, width int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		for len(l) > width {
			out = append(out, l[:width])
			l = l[width:]
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestHardWrappedUserData: user data pasted from a fixed-width screen has its long bootstrap
// line cut inside a quoted --kubelet-extra-args or -KubeletExtraArgs value; the pieces are read
// as the one line they were (the node labels whole, the flags after the quote still flags),
// never as a label value or key with a line break in it, which the kubelet would refuse.
func TestHardWrappedUserData(t *testing.T) {
	sh := "#!/bin/bash\nset -ex\n/etc/eks/bootstrap.sh prod --kubelet-extra-args '--node-labels=eks.amazonaws.com/nodegroup-image=ami-08c86de312838cfb6,eks.amazonaws.com/capacityType=SPOT,eks.amazonaws.com/nodegroup=ng-1 --max-pods=20' --b64-cluster-ca $B64_CLUSTER_CA --apiserver-endpoint $API_SERVER_URL --dns-cluster-ip $K8S_CLUSTER_DNS_IP --use-max-pods false\n"
	ps := "<powershell>\n[string]$EKSBootstrapScriptFile = \"$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1\"\n& $EKSBootstrapScriptFile -EKSClusterName \"prod\" -KubeletExtraArgs \"--node-labels=alpha.eksctl.io/cluster-name=prod,alpha.eksctl.io/nodegroup-name=ng-win --register-with-taints=os=windows:NoSchedule\" 3>&1 4>&1 5>&1 6>&1\n</powershell>\n"
	for _, c := range []struct {
		name, body string
		labels     map[string]string
	}{
		{"bootstrap.sh", sh, map[string]string{"eks.amazonaws.com/nodegroup-image": "ami-08c86de312838cfb6", "eks.amazonaws.com/nodegroup": "ng-1"}},
		{"Start-EKSBootstrap.ps1", ps, map[string]string{"alpha.eksctl.io/cluster-name": "prod", "alpha.eksctl.io/nodegroup-name": "ng-win"}},
	} {
		for _, width := range []int{80, 100} {
			r := Read([]byte(hardWrapped(c.body, width)), "stdin", Options{})
			b := r.Evidence.Bootstrap
			if b == nil {
				t.Fatalf("%s at %d: no bootstrap configuration read", c.name, width)
			}
			for k, v := range c.labels {
				if b.Labels[k] != v {
					t.Errorf("%s at %d: label %s = %q, want %q (labels %q)", c.name, width, k, b.Labels[k], v, b.Labels)
				}
			}
			for k, v := range b.Labels {
				if strings.ContainsAny(k+v, "\n ") {
					t.Errorf("%s at %d: label %q=%q holds the wrap", c.name, width, k, v)
				}
			}
		}
	}
	// a script whose long lines are not cut (different lengths, quotes closed) is read as it is
	r := Read([]byte(sh), "stdin", Options{})
	if b := r.Evidence.Bootstrap; b == nil || b.Labels["eks.amazonaws.com/nodegroup"] != "ng-1" || b.MaxPods == nil || *b.MaxPods != 20 {
		t.Errorf("unwrapped script: %+v", b)
	}
}

// TestProseAboveAScriptIsNotTheScript: a ticket's sentences above a pasted user data script, in
// one paragraph block with it, are not part of the script: an apostrophe in them ("the AMI's
// bootstrap.sh") would open a shell quote that swallows the bootstrap.sh call (blind pastes21/10).
func TestProseAboveAScriptIsNotTheScript(t *testing.T) {
	paste := "Hi,\n\nWe added a batch pool on Ubuntu. Maybe the vendor AMI's bootstrap.sh is different from the Amazon one?\n\n" +
		"user data (from the launch template):\n\n#!/bin/bash\nset -o xtrace\n/etc/eks/bootstrap.sh reports-cac1 \\\n" +
		"  --kubelet-extra-args '--node-labels=workload=batch --register-with-taints=dedicated=batch:NoSchedule'\n"
	r := Read([]byte(paste), "stdin", Options{})
	b := r.Evidence.Bootstrap
	if b == nil || !b.CallsBootstrap || b.ClusterName != "reports-cac1" {
		t.Fatalf("bootstrap %+v; segments %v", b, types(r.Segments))
	}
	for _, s := range r.Segments {
		if s.Type == TypeUserData && s.First != 7 {
			t.Errorf("user data starts at line %d, want 7 (the #! line)", s.First)
		}
	}
}
