package ingest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"sigs.k8s.io/yaml"
)

// TestTextStripsTerminalEscapes: colour and cursor codes of pasted terminal or CI output, and
// colour codes that lost their ESC, are removed where the text enters; lines stay in place and
// text that merely looks like a code (one "[5m" with no reset) is kept.
func TestTextStripsTerminalEscapes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\x1b[31mE0606\x1b[0m kubelet \x1b[1;33mUnauthorized\x1b[0m\nnext\n", "E0606 kubelet Unauthorized\nnext\n"},
		{"\x1b]8;;https://x\x07link\x1b]8;;\x07 \x1b(Bok\x1b[2K\n", "link ok\n"},
		{"[31m╷[0m[0m\n[31m│[0m [0m[1m[31mError: [0m[0m[1mcreating EKS Node Group[0m\n", "╷\n│ Error: creating EKS Node Group\n"},
		{"retry in [5m0s] then\n", "retry in [5m0s] then\n"},
	} {
		got, p := Text([]byte(tc.in))
		if p != nil {
			t.Fatal(p.Message)
		}
		if string(got) != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestIndentedPasteIsDedented: user data pasted with every line indented (a Markdown code block
// written with four spaces) is read as the MIME document it is, its NodeConfig decoded.
func TestIndentedPasteIsDedented(t *testing.T) {
	ud := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"BOUNDARY\"\n\n--BOUNDARY\nContent-Type: application/node.eks.aws\n\n" +
		"apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n    apiServerEndpoint: https://X.gr7.eu-west-1.eks.amazonaws.com\n" +
		"    certificateAuthority: Y2E=\n    cidr: 10.100.0.0/16\n\n--BOUNDARY--\n"
	var b strings.Builder
	for _, l := range strings.SplitAfter(ud, "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString("    ")
		}
		b.WriteString(l)
	}
	r := Read([]byte(b.String()), "stdin", Options{})
	if r.Evidence.Bootstrap == nil || r.Evidence.Bootstrap.ClusterName != "prod" {
		t.Fatalf("bootstrap %+v from segments %+v", r.Evidence.Bootstrap, r.Segments)
	}
}

// TestPaddedLinesAreTrimmed: user data copied out of a terminal, every line padded with spaces
// (its blank separator lines too), is read as the MIME document it is.
func TestPaddedLinesAreTrimmed(t *testing.T) {
	ud := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: application/node.eks.aws\n\n" +
		"apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n    apiServerEndpoint: https://X.gr7.eu-west-1.eks.amazonaws.com\n" +
		"    certificateAuthority: Y2E=\n    cidr: 10.100.0.0/16\n\n--B--\n"
	text, p := Text([]byte(strings.ReplaceAll(ud, "\n", "   \n")))
	if p != nil {
		t.Fatal(p.Message)
	}
	r := Read(text, "stdin", Options{})
	if r.Evidence.Bootstrap == nil || r.Evidence.Bootstrap.ClusterName != "prod" {
		t.Fatalf("bootstrap %+v from segments %+v", r.Evidence.Bootstrap, r.Segments)
	}
}

// TestHardWrappedLogIsUnfolded: a kubelet journal pasted hard-wrapped at 80 columns (each
// record cut in two, the spaces at a cut trimmed) is read as one record per line, so the
// Unauthorized signature matches; records that merely reach the width are not joined.
func TestHardWrappedLogIsUnfolded(t *testing.T) {
	rec := `Jun 06 19:33:03 ip-10-150-127-198 kubelet[3214]: E0606 19:33:03.828406    3214 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="ip-10-150-127-198.ec2.internal"`
	var b strings.Builder
	for i := 0; i < 3; i++ {
		for at := 0; at < len(rec); at += 80 {
			b.WriteString(rec[at:min(at+80, len(rec))] + "\n")
		}
	}
	text, _ := Text([]byte(b.String()))
	got := string(unfold(text))
	if n := strings.Count(got, rec); n != 3 {
		t.Fatalf("%d whole records after unfolding:\n%s", n, got)
	}
	if lines := strings.Count(got, "\n"); lines != strings.Count(b.String(), "\n") {
		t.Errorf("%d lines, the paste has %d: line numbers moved", lines, strings.Count(b.String(), "\n"))
	}
	plain := strings.Repeat(rec+"\n", 3)
	if string(unfold([]byte(plain))) != plain {
		t.Errorf("unwrapped records were changed")
	}
}

// TestWrapWidthIsInCharacters: a terminal wraps at a number of characters, not bytes; eksctl's
// "[✖]" and en dash make its first piece longer in bytes than the next, which is still a cut
// inside a word ("request" / "ed amiType") and is joined without a space.
func TestWrapWidthIsInCharacters(t *testing.T) {
	rec := `2022-03-18 14:30:51 [✖]  AWS::EKS::Nodegroup/ManagedNodeGroup: CREATE_FAILED – "Resource handler returned message: \"[g5g.xlarge] is not a valid instance type for requested amiType AL2_x86_64_GPU (Service: Eks, Status Code: 400, Request ID: 369e97fb-7cb6-4daa-9553-92f48593d666, Extended Request ID: null)\" (RequestToken: cc5e5f39-64b1-3739-4d94-9a39b1b64d2c, HandlerErrorCode: InvalidRequest)"`
	r := []rune(rec)
	var b strings.Builder
	b.WriteString("managedNodeGroups:\n  - name: mng-1\n    instanceType: g5g.xlarge\n\n")
	for at := 0; at < len(r); at += 170 {
		b.WriteString(string(r[at:min(at+170, len(r))]) + "\n")
	}
	got := string(unfold([]byte(b.String())))
	if !strings.Contains(got, rec) {
		t.Fatalf("not rejoined as it was cut:\n%s", got)
	}
}

// TestWordWrappedMessageIsUnfolded: one message a page wrapped at word boundaries, every piece
// starting with a word, is one record again: a start shape seen once says nothing about where
// records start.
func TestWordWrappedMessageIsUnfolded(t *testing.T) {
	text := "Initialization failure: unable to describe security groups: operation error\nEC2: DescribeSecurityGroups, https response error StatusCode: 403, api error\nUnauthorizedOperation: You are not authorized to perform this operation...\nno identity-based policy allows the ec2:DescribeSecurityGroups action\n"
	got := string(unfold([]byte(text)))
	if want := "Initialization failure: unable to describe security groups: operation error EC2: DescribeSecurityGroups, https response error StatusCode: 403, api error UnauthorizedOperation: You are not authorized to perform this operation... no identity-based policy allows the ec2:DescribeSecurityGroups action\n\n\n\n"; got != want {
		t.Errorf("unfolded:\n%q\nwant\n%q", got, want)
	}
	status := "● sandbox-image.service - pull sandbox image defined in containerd config.toml\n   Loaded: loaded (/etc/systemd/system/sandbox-image.service; enabled; vendor preset: disabled)\n" +
		"   Active: failed (Result: exit-code) since Thu 2021-12-16 22:21:18 UTC; 1min 58s ago\n  Process: 3053 ExecStart=/etc/eks/containerd/pull-sandbox-image.sh (code=exited, status=2)\n Main PID: 3053 (code=exited, status=2)\n"
	if got := string(unfold([]byte(status))); got != status {
		t.Errorf("systemctl status layout joined:\n%s", got)
	}
}

// TestTableIsNotUnfolded: a kubectl table whose rows all reach the same width is not a wrap.
func TestTableIsNotUnfolded(t *testing.T) {
	table := "NAME                       READY   STATUS             RESTARTS   AGE\naws-node-8x7kq             0/1     CrashLoopBackOff   6          12m\n" +
		"coredns-5c5677bc78-k2v4x   0/1     ContainerCreating  0          12m\nkube-proxy-4tx9z           1/1     Running            0          12m\n"
	if got := string(unfold([]byte(table))); got != table {
		t.Errorf("table changed:\n%s", got)
	}
}

// TestCIStampsAreRemoved: user data printed in a GitHub Actions job, every line (blank ones too)
// behind the runner's timestamp, is read as the MIME document it is.
func TestCIStampsAreRemoved(t *testing.T) {
	ud := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: application/node.eks.aws\n\n" +
		"apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n    apiServerEndpoint: https://X.gr7.eu-west-1.eks.amazonaws.com\n" +
		"    certificateAuthority: Y2E=\n    cidr: 10.100.0.0/16\n\n--B--\n"
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.TrimSuffix(ud, "\n"), "\n") {
		b.WriteString("2026-11-20T08:10:03.1234567Z " + l)
	}
	text, _ := Text([]byte(b.String() + "\n"))
	r := Read(text, "stdin", Options{})
	if r.Evidence.Bootstrap == nil || r.Evidence.Bootstrap.ClusterName != "prod" {
		t.Fatalf("bootstrap %+v from segments %+v", r.Evidence.Bootstrap, r.Segments)
	}
}

// TestPlanRequotingARedactedMappingRemovesNothing: a Terraform plan that only re-quotes aws-auth,
// the poster's redaction cutting the old rolearn short, shows no removed node mapping; a plan
// that replaces the mapping by another role's still does.
func TestPlanRequotingARedactedMappingRemovesNothing(t *testing.T) {
	plan := func(added string) string {
		return ` # module.eks.kubernetes_config_map.aws_auth[0] will be updated in-place
  ~ resource "kubernetes_config_map" "aws_auth" {
      ~ data        = {
          ~ "mapRoles"    = <<-EOT
              - - groups:
              -   - system:bootstrappers
              -   - system:nodes
              -   rolearn: arn:aws:iam::<redacted>
              -   username: system:node:{{EC2PrivateDNSName}}
              + - "groups":
              +   - "system:bootstrappers"
              +   - "system:nodes"
              +   "rolearn": "` + added + `"
              +   "username": "` + "system:node:{{EC2PrivateDNSName}}" + `"
            EOT
`
	}
	removed := func(p string) int {
		n := 0
		for _, c := range Read([]byte(p), "stdin", Options{}).Evidence.MappingChanges {
			if c.Action == "removed" {
				n++
			}
		}
		return n
	}
	if n := removed(plan("arn:aws:iam::<redacted>:role/<redacted>")); n != 0 {
		t.Errorf("re-quoted plan: %d removed mappings, want 0", n)
	}
	if n := removed(strings.Replace(plan("arn:aws:iam::111122223333:role/other"), "<redacted>", "111122223333:role/nodes", 1)); n != 1 {
		t.Errorf("replacing plan: %d removed mappings, want 1", n)
	}
}

// TestUnitStatusLinesNameTheirUnit: the lines of a `systemctl status` block say which unit they
// describe only in the block's header; read, each carries the unit's name, so a kubelet that
// keeps exiting is seen in "Active: activating (auto-restart) (Result: exit-code)".
func TestUnitStatusLinesNameTheirUnit(t *testing.T) {
	in := "systemctl status kubelet\n● kubelet.service - Kubernetes Kubelet\n   Loaded: loaded (/etc/systemd/system/kubelet.service; enabled; vendor preset: disabled)\n" +
		"   Active: activating (auto-restart) (Result: exit-code) since Wed 2020-12-30 14:16:36 UTC; 4s ago\n" +
		"  Process: 22376 ExecStart=/usr/bin/kubelet --node-ip=${NODE_IP} (code=exited, status=255)\n Main PID: 22376 (code=exited, status=255)\n" +
		"Dec 30 14:16:36 ip-10-0-1-2 kubelet[22376]: I1230 14:16:36.1 22376 server.go:417] Version: v1.18.9\n"
	got := string(unitStatus([]byte(in)))
	for _, want := range []string{"\nkubelet.service: Active: activating (auto-restart) (Result: exit-code) since", "\nkubelet.service: Main PID: 22376 (code=exited, status=255)\n",
		"\nDec 30 14:16:36 ip-10-0-1-2 kubelet[22376]: I1230"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Count(got, "\n") != strings.Count(in, "\n") {
		t.Errorf("line count changed")
	}
	r := Read([]byte(in), "stdin", Options{})
	if !hasSignature(r.Evidence.NodeLogs, "systemd-status-kubelet-failed") {
		t.Errorf("the kubelet's failed status was not matched: %v", types(r.Segments))
	}
}

// TestLineNumbersAreRemoved: user data shown with `cat -n` (or an editor's line numbers) is read
// as the document it numbers; a table whose first column is a count is left alone.
func TestLineNumbersAreRemoved(t *testing.T) {
	nc := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n    apiServerEndpoint: https://ABC.gr7.us-west-2.eks.amazonaws.com\n    certificateAuthority: Y2E=\n    cidr: 10.100.0.0/16\n"
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimSuffix(nc, "\n"), "\n") {
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, l)
	}
	r := Read([]byte(b.String()), "stdin", Options{})
	if got := types(r.Segments); len(got) != 1 || got[0] != TypeNodeConfig {
		t.Fatalf("cat -n NodeConfig read as %v", got)
	}
	table := "COUNT  NAME\n3      ip-10-0-1-2\n4      ip-10-0-1-3\n5      ip-10-0-1-4\n"
	ls := unnumber(splitLines([]byte(table)))
	if ls[1].text != "3      ip-10-0-1-2" {
		t.Errorf("table changed: %q", ls[1].text)
	}
}

// TestRedactionSurvivesUnbold: bold markers go, a run of asterisks redacting an account ID stays.
func TestRedactionSurvivesUnbold(t *testing.T) {
	in := "**Error:** User: arn:aws:sts::************:assumed-role/EKSHybridNode-********/mi-******* is not authorized"
	want := "Error: User: arn:aws:sts::************:assumed-role/EKSHybridNode-********/mi-******* is not authorized"
	if got := string(unbold([]byte(in))); got != want {
		t.Errorf("got %q", got)
	}
}

// TestDescribeWithCutFirstLine: kubectl describe output whose first characters a selection
// missed ("ame:" for "Name:") is still read as the object, its name kept.
func TestDescribeWithCutFirstLine(t *testing.T) {
	text := `ame:               csr-sjvjg
Labels:             <none>
Annotations:        <none>
CreationTimestamp:  Wed, 11 Sep 2019 07:31:11 -0400
Requesting User:    arn:aws:iam::111122223333:role/my-test-role
Status:             Pending
Subject:
  Common Name:    system:node:ip-172-31-1-2.us-west-2.compute.internal
  Organization:   system:nodes
Events:  <none>
`
	ev := Read([]byte(text), "stdin", Options{}).Evidence
	if len(ev.CSRs) != 1 || ev.CSRs[0].Name != "csr-sjvjg" || ev.CSRs[0].State != "Pending" || ev.CSRs[0].Username != "arn:aws:iam::111122223333:role/my-test-role" {
		t.Fatalf("CSRs %+v", ev.CSRs)
	}
	if r := Read([]byte("me:  this is a note\nnot a describe\n"), "stdin", Options{}); len(r.Evidence.CSRs) != 0 {
		t.Errorf("a note read as kubectl describe: %+v", r.Segments)
	}
}

// TestTableEndsAtBlankLine: kubectl get's table ends at a blank line; the next command's output
// after it (aws-node pods crash-looping) is read on its own, not taken as more table.
func TestTableEndsAtBlankLine(t *testing.T) {
	text := "NAME                        STATUS     ROLES    AGE   VERSION\n" +
		"ip-10-0-1-76.ec2.internal   NotReady   <none>   43m   v1.34.2-eks-ecaa3a6\n\n" +
		"aws-node-7ggwm             1/2     CrashLoopBackOff   13 (4m9s ago)   43m\n"
	r := Read([]byte(text), "stdin", Options{})
	if len(r.Evidence.Nodes) != 1 || r.Evidence.NodeLogs == nil {
		t.Fatalf("nodes %+v, logs %+v, segments %+v", r.Evidence.Nodes, r.Evidence.NodeLogs, r.Segments)
	}
	found := false
	for _, h := range r.Evidence.NodeLogs.Hits {
		found = found || h.Finding == "runtime.cni-not-ready"
	}
	if !found {
		t.Errorf("the aws-node row after the table was not read: %+v", r.Evidence.NodeLogs.Hits)
	}
}

// TestHardWrappedDocumentIsRejoined: a YAML document a terminal cut at a fixed column (the
// rest of each cut line at column 0, where YAML cannot go on) is read with its lines rejoined;
// a document whose long lines are its own is left as it is.
func TestHardWrappedDocumentIsRejoined(t *testing.T) {
	arn := "arn:aws:iam::111122223333:role/eksctl-prod-nodegroup-ng-1-NodeInstanceRole-ABCDEFGHIJKLMNOP"
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n    - groups:\n      - system:bootstrappers\n      - system:nodes\n      rolearn: " + arn + "\n      username: system:node:{{EC2PrivateDNSName}}\n"
	cut := strings.Replace(doc, "ABCDEFGH", "ABCD\nEFGH", 1)
	for _, c := range []struct{ name, paste string }{{"whole", doc}, {"cut", cut}} {
		t.Run(c.name, func(t *testing.T) {
			ev := Read([]byte(c.paste), "stdin", Options{}).Evidence
			if ev.AWSAuth == nil || len(ev.AWSAuth.Problems) > 0 || len(ev.AWSAuth.Roles) != 1 || ev.AWSAuth.Roles[0].RoleArn != arn {
				t.Fatalf("aws-auth %+v", ev.AWSAuth)
			}
		})
	}
	// a key at column 0 after the longest line is the document going on, not a cut
	own := "metadata:\n  annotations:\n    description: " + strings.Repeat("x", 80) + "\nkind: ConfigMap\n"
	lines := splitLines([]byte(own))
	if _, changed := rejoinCut(lines, true); changed {
		t.Errorf("a document's own long line was rejoined with the key after it")
	}
}

// TestZshArrowPrompt: the prompt of zsh themes names the command whose output follows.
func TestZshArrowPrompt(t *testing.T) {
	paste := "(base) ➜  kubeflow-eks git:(master) ✗ kubectl get configmap aws-auth -n kube-system -o yaml   \napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/node\n      username: system:node:{{EC2PrivateDNSName}}\n      groups: [system:bootstrappers, system:nodes]\n"
	segs := Segments([]byte(paste))
	if len(segs) != 1 || segs[0].Type != TypeAWSAuth || segs[0].First != 2 {
		t.Fatalf("segments %v (first %+v)", types(segs), segs)
	}
}

// TestAWSCLIErrorKeepsItsCommand: the AWS CLI's error line under a pasted command is read with
// the command in front of it, so what the failed request asked for is in the line; other
// output under the command is left as it is.
func TestAWSCLIErrorKeepsItsCommand(t *testing.T) {
	paste := "$ aws ssm get-parameter --name /aws/service/eks/optimized-ami/1.33/amazon-linux-2/recommended/image_id\n\nAn error occurred (ParameterNotFound) when calling the GetParameter operation:\n"
	segs := Segments([]byte(paste))
	if len(segs) != 1 || !strings.HasPrefix(string(segs[0].Text), "[aws ssm get-parameter --name /aws/service/eks/optimized-ami/1.33/") || segs[0].First != 3 {
		t.Fatalf("segments %+v", segs)
	}
	other := Segments([]byte("$ kubectl get nodes\n\nAn error occurred (X) when calling the Y operation:\n"))
	if len(other) != 1 || strings.HasPrefix(string(other[0].Text), "[") {
		t.Errorf("a kubectl command was put in front of its output: %q", other[0].Text)
	}
}

// TestPasteShapesFromHuntHH: a k9s pane's frame is removed, a journal right under a kubectl get
// table is read on its own, a sentence after a YAML document is not read as a key, and
// single-quoted groups in a mapRoles fragment are the groups.
func TestPasteShapesFromHuntHH(t *testing.T) {
	k9s := "│ Events:                                                             │\n│   Type     Reason   Age   From   Message                                 │\n│   ----     ------   ----  ----   -------                                 │\n│   Warning  FailedScheduling  51s  default-scheduler  0/3 nodes are available │\n"
	if segs := Segments([]byte(k9s)); len(segs) != 1 || strings.Contains(string(segs[0].Text), "│") {
		t.Errorf("framed pane: %+v", segs)
	}
	table := "NAME                          STATUS     ROLES    AGE     VERSION\nip-10-0-18-198.ec2.internal   NotReady   <none>   3m31s   v1.19.6-eks-49a6c0\nMay 25 06:51:15 ip-10-0-29-116 kubelet: E0525 06:51:15.788460    4532 kubelet.go:2108] Container runtime network not ready\n"
	if got := types(Segments([]byte(table))); len(got) != 2 || got[0] != TypeGetNodes || got[1] != TypeLog {
		t.Errorf("table then journal: %v", got)
	}
	yamlThenMessage := "managedNodeGroups:\n  - name: ng\n    instanceType: t3.medium\n    privateNetworking: true\nOne or more Amazon EC2 Subnets of [subnet-1] for node group ng does not automatically assign public IP addresses. See IP addressing in VPC guide: https://docs.aws.amazon.com/vpc/\n"
	if got := types(Segments([]byte(yamlThenMessage))); len(got) != 2 || got[0] != TypeEksctlConfig || got[1] != TypeLog {
		t.Errorf("YAML then a message: %v", got)
	}
	frag := "- rolearn: 'arn:aws:iam::111122223333:role/node'\n  username: 'system:node:{{EC2PrivateDNSName}}'\n  groups:\n    - 'system:bootstrappers'\n    - 'system:nodes'\n"
	a := Read([]byte(frag), "stdin", Options{}).Evidence.AWSAuth
	if a == nil || len(a.Roles) != 1 || len(a.Roles[0].Groups) != 2 || a.Roles[0].Groups[1] != "system:nodes" {
		t.Errorf("single-quoted groups: %+v", a)
	}
}

// TestBootstrapCommandAndItsShellError: the bootstrap.sh command a poster ran, then bash's
// error report from it, are the node's configuration and a log line, not one script.
func TestBootstrapCommandAndItsShellError(t *testing.T) {
	r := Read([]byte("sudo /etc/eks/bootstrap.sh prod --enable-docker-bridge true\n/etc/eks/bootstrap.sh: line 56: $2: unbound variable\n"), "stdin", Options{})
	if got := types(r.Segments); !equalTypes(got, []Type{TypeUserData, TypeLog}) {
		t.Fatalf("segments %v", got)
	}
	if b := r.Evidence.Bootstrap; b == nil || b.ClusterName != "prod" {
		t.Errorf("bootstrap %+v", b)
	}
	if !r.Evidence.Have(evidence.KindNodeLogs) {
		t.Errorf("the error line was not scanned")
	}
}

// TestURLLinkIsNotProse: a bare URL that an editor turned into a Markdown link to itself, in a
// pasted error, leaves the error a log line; a link a person wrote still marks prose.
func TestURLLinkIsNotProse(t *testing.T) {
	paste := "controller.aws  Checking EC2 API connectivity, WebIdentityErr: failed to retrieve credentials\ncaused by: RequestError: send request failed\ncaused by: Post \"[https://sts.us-east-2.amazonaws.com/ ](https://sts.us-east-2.amazonaws.com/)\": dial tcp 10.188.214.212:443: i/o timeout\n"
	r := Read([]byte(paste), "stdin", Options{})
	if got := types(r.Segments); !equalTypes(got, []Type{TypeLog}) {
		t.Fatalf("segments %v", got)
	}
	prose := "See [the troubleshooting guide](https://docs.aws.amazon.com/eks/latest/userguide/troubleshooting.html) for the steps we tried.\n"
	if got := types(Read([]byte(prose), "stdin", Options{}).Segments); !equalTypes(got, []Type{TypeProse}) {
		t.Errorf("a written link: %v", got)
	}
}

// TestPipeNumberedAndHTMLEscapedPastes: a file copied out of a CI console or a viewer that
// numbers lines "  12 | text", and a paste copied out of a web page's HTML source (&quot;,
// &lt;, &amp;), read as the document they show.
func TestPipeNumberedAndHTMLEscapedPastes(t *testing.T) {
	nc := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n    apiServerEndpoint: https://ABC.gr7.us-west-2.eks.amazonaws.com\n    certificateAuthority: Y2E=\n    cidr: 10.100.0.0/16\n"
	for _, sep := range []string{" | ", "│ ", "|"} {
		var b strings.Builder
		for i, l := range strings.Split(strings.TrimSuffix(nc, "\n"), "\n") {
			fmt.Fprintf(&b, "%4d%s%s\n", i+1, sep, l)
		}
		r := Read([]byte(b.String()), "stdin", Options{})
		if got := types(r.Segments); len(got) != 1 || got[0] != TypeNodeConfig {
			t.Errorf("NodeConfig numbered with %q read as %v", sep, got)
		}
	}
	escaped := "Apr 02 10:00:01 ip-10-0-1-2 kubelet[2711]: E0402 10:00:01.000000    2711 kubelet_node_status.go:94] &quot;Unable to register node with API server&quot; err=&quot;Unauthorized&quot; node=&quot;ip-10-0-1-2.ec2.internal&quot;\n"
	r := Read([]byte(escaped), "stdin", Options{})
	if r.Evidence.NodeLogs == nil || len(r.Evidence.NodeLogs.Hits) == 0 {
		t.Fatalf("HTML-escaped kubelet line not recognised (segments %v)", types(r.Segments))
	}
	if h := r.Evidence.NodeLogs.Hits[0]; !strings.Contains(h.First.Text, `"Unable to register node with API server" err="Unauthorized"`) {
		t.Errorf("hit text %q keeps the entities", h.First.Text)
	}
	shell := "#!/bin/bash\n/etc/eks/bootstrap.sh prod && echo done &amp; wait\n"
	if got := Read([]byte(shell), "stdin", Options{}).Segments; len(got) != 1 || !strings.Contains(string(got[0].Text), "&amp;") {
		t.Errorf("a single entity in a script was unescaped: %v", types(got))
	}
}

// TestCollectorStampsAreRemoved: a log read with `kubectl logs --timestamps` (RFC 3339 with
// nanoseconds, trailing zeros dropped on some lines) is read as the component wrote it: a
// `systemctl status` block keeps its layout. A component's own ISO 8601 stamp with milliseconds
// (Karpenter) and the CRI format's prefix (which dates a klog line) are left where they are.
func TestCollectorStampsAreRemoved(t *testing.T) {
	status := []string{"● kubelet.service - Kubernetes Kubelet",
		"   Loaded: loaded (/etc/systemd/system/kubelet.service; enabled; vendor preset: disabled)",
		"   Active: activating (auto-restart) (Result: exit-code) since Wed 2020-12-30 14:16:36 UTC; 4s ago",
		"  Process: 22376 ExecStart=/usr/bin/kubelet --node-ip=${NODE_IP} (code=exited, status=255)",
		" Main PID: 22376 (code=exited, status=255)"}
	for name, stamp := range map[string]func(i int) string{
		"kubectl --timestamps": func(i int) string {
			if i == 2 {
				return "2024-05-01T10:00:02.1Z " // RFC 3339 with nanoseconds drops trailing zeros
			}
			return fmt.Sprintf("2024-05-01T10:00:0%d.12345678%dZ ", i, i)
		},
	} {
		var b strings.Builder
		for i, l := range status {
			b.WriteString(stamp(i) + l + "\n")
		}
		r := Read([]byte(b.String()), "stdin", Options{})
		if !hasSignature(r.Evidence.NodeLogs, "systemd-status-kubelet-failed") {
			t.Errorf("%s: the kubelet's failed status was not matched: %v", name, types(r.Segments))
		}
	}
	karpenter := []line{{1, "2024-05-01T10:00:00.123Z\tERROR\tcontroller\tfailed"}, {2, "2024-05-01T10:00:01.456Z\tINFO\tcontroller\tok"}}
	cri := []line{{1, "2024-07-24T15:30:01.118732123Z stderr F E0724 15:30:01.118732 2841 kubelet.go:1] x"}, {2, "2024-07-24T15:30:02.118732123Z stderr F E0724 15:30:02.118732 2841 kubelet.go:1] y"}}
	for _, in := range [][]line{karpenter, cri} {
		if got := unprefixCI(in); got[0].text != in[0].text {
			t.Errorf("a stamp that is not a collector's was removed: %q", got[0].text)
		}
	}
}

// TestCloudWatchEventsAreTheLog: CloudWatch Logs output pasted as JSON — filter-log-events
// events, a Logs Insights query result, a Fluent Bit record or shipped journald entry inside a
// message — as `aws logs tail` prints it, or a shipper's records one per line, is read as the
// messages it holds, one per line and in order, so a kubelet line's quoted err="Unauthorized" is
// matched as the kubelet wrote it and a `systemctl status` block keeps its layout.
func TestCloudWatchEventsAreTheLog(t *testing.T) {
	kubelet := `E0501 10:00:00.000000    2863 kubelet_node_status.go:92] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-2.ec2.internal"`
	status := []string{"● kubelet.service - Kubernetes Kubelet",
		"   Loaded: loaded (/etc/systemd/system/kubelet.service; enabled; vendor preset: disabled)",
		"   Active: activating (auto-restart) (Result: exit-code) since Wed 2020-12-30 14:16:36 UTC; 4s ago",
		" Main PID: 22376 (code=exited, status=255)"}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	events := func(msgs ...string) string {
		var b strings.Builder
		b.WriteString("{\n    \"events\": [\n")
		for i, m := range msgs {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "        {\n            \"logStreamName\": \"kubelet/i-0abc\",\n            \"timestamp\": %d,\n            \"message\": %s,\n            \"ingestionTime\": %d,\n            \"eventId\": \"38%d\"\n        }", 1714557600000+i, q(m), 1714557600500+i, i)
		}
		b.WriteString("\n    ],\n    \"searchedLogStreams\": []\n}\n")
		return b.String()
	}
	for _, tc := range []struct{ name, in, signature string }{
		{"filter-log-events", events(kubelet), "kubelet-register-unauthorized"},
		{"filter-log-events of systemctl status", events(status...), "systemd-status-kubelet-failed"},
		{"get-query-results", `{"results": [[{"field": "@timestamp", "value": "2024-05-01 10:00:00.000"}, {"field": "@message", "value": ` + q(kubelet) + `}]], "status": "Complete"}`, "kubelet-register-unauthorized"},
		{"Fluent Bit record", events(`{"log":` + q(kubelet+"\n") + `,"stream":"stderr","kubernetes":{"host":"ip-10-0-1-2"}}`), "kubelet-register-unauthorized"},
		{"Container Insights journald entry", events(`{"hostname":"ip-10-0-1-2.ec2.internal","systemd_unit":"kubelet.service","message":` + q(kubelet) + `}`), "kubelet-register-unauthorized"},
		{"Fluent Bit records one per line", `{"log":` + q(kubelet+"\n") + `,"stream":"stderr","time":"2024-05-01T10:00:00.000000001Z"}` + "\n" + `{"log":"I0501 10:00:01.000000    2863 kubelet.go:1] ok\n","stream":"stderr","time":"2024-05-01T10:00:01Z"}` + "\n", "kubelet-register-unauthorized"},
		{"aws logs tail", strings.Join(func() []string {
			var out []string
			for i, l := range status {
				out = append(out, fmt.Sprintf("2024-05-01T10:00:0%d.123000+00:00 ip-10-0-1-2.ec2.internal-kubelet.service %s", i, l))
			}
			return out
		}(), "\n") + "\n", "systemd-status-kubelet-failed"},
	} {
		r := Read([]byte(tc.in), "stdin", Options{})
		if !hasSignature(r.Evidence.NodeLogs, tc.signature) {
			t.Errorf("%s: %s not matched: %v", tc.name, tc.signature, types(r.Segments))
		}
	}
}

// TestTypographicSubstitutionsAreUndone: text that went through a chat client, a word processor
// or a web page — non-breaking spaces for indentation and between words, zero-width spaces,
// curly quotes — is read as the machine printed it: the kubelet line is matched and aws-auth
// parses to its one mapping, with no parse problem.
func TestTypographicSubstitutionsAreUndone(t *testing.T) {
	kubelet := "E0501 10:00:00.000000\u00a0\u00a0\u00a0 2863 kubelet_node_status.go:92] \u201cUnable to register node with API server\u201d err=\u201cUn\u200bauthorized\u201d node=\u201cip-10-0-1-2.ec2.internal\u201d\n"
	text, p := Text([]byte(kubelet))
	if p != nil {
		t.Fatal(p.Message)
	}
	if r := Read(text, "stdin", Options{}); !hasSignature(r.Evidence.NodeLogs, "kubelet-register-unauthorized") {
		t.Errorf("kubelet line with typographic substitutions not matched: %q read as %v", text, types(r.Segments))
	}
	nbsp := strings.NewReplacer("  ", "\u00a0\u00a0", "'", "\u2019").Replace(awsAuthYAML)
	text, _ = Text([]byte(nbsp))
	r := Read(text, "stdin", Options{})
	a := r.Evidence.AWSAuth
	if a == nil || len(a.Roles) != 1 || len(a.Problems) != 0 {
		t.Fatalf("aws-auth indented with non-breaking spaces: %+v (segments %v)", a, types(r.Segments))
	}
	if plain, _ := Text([]byte("ascii only\n")); string(plain) != "ascii only\n" {
		t.Errorf("ASCII text changed: %q", plain)
	}
	if dash, _ := Text([]byte("  \u2013 rolearn: x\n")); !strings.Contains(string(dash), "\u2013") {
		t.Errorf("an en dash was rewritten: %q", dash)
	}
}

// TestTextInsideJSONIsRead: `aws ec2 get-console-output` in the CLI's default JSON output (Output
// decoded, or base64 as the API returns it) is the serial console's log; the text inside a JSON
// document no type knows — a multi-line string, or a log line whose quotes JSON escaped — is
// read as a paste of its own; a health issue quoted as JSON stays lines of data. Nesting JSON in
// JSON strings fourteen deep (about 100 KiB of backslashes: each level doubles the escaping, so depth is logarithmic in the input) ends.
func TestTextInsideJSONIsRead(t *testing.T) {
	kubelet := `E0501 10:00:00.000000    2863 kubelet_node_status.go:92] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-2.ec2.internal"`
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	console := "[   12.345678] cloud-init[1234]: Cloud-init v. 19.3 running 'modules:final'\n" + kubelet + "\n"
	for _, tc := range []struct{ name, in, signature string }{
		{"get-console-output", "{\n    \"InstanceId\": \"i-0abc\",\n    \"Timestamp\": \"2024-05-01T10:00:00+00:00\",\n    \"Output\": " + q(console) + "\n}\n", "kubelet-register-unauthorized"},
		// journal lines (a record's header after each line break) in the CLI's key order: the
		// Output member is one line of at least 300 bytes, not records run together
		{"get-console-output of journal lines", "{\n    \"InstanceId\": \"i-0abc\",\n    \"Output\": " + q(strings.Repeat("May 01 10:00:00 ip-10-0-1-2 kubelet[2863]: "+kubelet+"\n", 3)) + ",\n    \"Timestamp\": \"2024-05-01T10:00:00+00:00\"\n}\n", "kubelet-register-unauthorized"},
		{"get-console-output base64", `{"InstanceId": "i-0abc", "Output": "` + base64.StdEncoding.EncodeToString([]byte(console)) + `"}` + "\n", "kubelet-register-unauthorized"},
		{"multi-line message", `{"message": ` + q("node logs:\n"+kubelet+"\nI0501 10:00:01.000000    2863 kubelet.go:1] next\n") + `, "source": "ticket"}` + "\n", "kubelet-register-unauthorized"},
		{"escaped log line", `{"error": ` + q(kubelet) + `, "node": "ip-10-0-1-2"}` + "\n", "kubelet-register-unauthorized"},
	} {
		r := Read([]byte(tc.in), "stdin", Options{})
		if !hasSignature(r.Evidence.NodeLogs, tc.signature) {
			t.Errorf("%s: %s not matched: %v", tc.name, tc.signature, types(r.Segments))
			continue
		}
		for _, s := range r.Segments {
			if s.First != 1 || s.Last != strings.Count(tc.in, "\n") {
				t.Errorf("%s: segment %s covers lines %d-%d, want the JSON document's 1-%d", tc.name, s.Type, s.First, s.Last, strings.Count(tc.in, "\n"))
			}
		}
	}
	deep := kubelet
	for range 14 {
		deep = `{"message": ` + q(deep+"\nnext line") + `}`
	}
	r := Read([]byte(deep+"\n"), "stdin", Options{})
	if len(r.Segments) == 0 {
		t.Error("nested JSON strings gave no segment")
	}
}

// TestJoinedLogRecordsAreSplit: log records whose line breaks a web page or chat client turned
// into spaces are read one per line again — journal lines cut before each journal prefix (not
// before the klog header inside them), JSON records before each record — so a registration after
// an Unauthorized is seen and the line numbers stay the input's. A long line of prose that
// mentions a date, or holds fewer than three records, is kept whole.
func TestJoinedLogRecordsAreSplit(t *testing.T) {
	j := func(ts, klog string) string {
		return "May 20 12:30:" + ts + " ip-192-168-218-117.us-east-2.compute.internal kubelet[4502]: " + klog
	}
	joined := strings.Join([]string{
		j("57", `E0520 12:30:57.379123    4502 kubelet_node_status.go:107] "Unable to register node with API server" err="Unauthorized" node="ip-192-168-218-117.us-east-2.compute.internal"`),
		j("58", `I0520 12:30:58.100000    4502 kubelet_node_status.go:70] "Attempting to register node" node="ip-192-168-218-117.us-east-2.compute.internal"`),
		j("59", `I0520 12:30:59.100000    4502 kubelet_node_status.go:78] "Successfully registered node" node="ip-192-168-218-117.us-east-2.compute.internal"`),
	}, " ")
	got := unjoin([]line{{1, "before"}, {2, joined}})
	if len(got) != 4 || got[1].n != 2 || got[3].n != 2 || !strings.HasPrefix(got[3].text, "May 20 12:30:59 ") || strings.HasSuffix(got[1].text, " ") {
		t.Fatalf("unjoin = %+v", got)
	}
	r := Read([]byte(joined+"\n"), "stdin", Options{})
	if !hasSignature(r.Evidence.NodeLogs, "kubelet-registered") {
		t.Fatalf("the registration inside the joined line was not read: %v", types(r.Segments))
	}
	for _, h := range r.Evidence.NodeLogs.Hits {
		if h.Signature == "kubelet-registered" && !strings.HasPrefix(h.Last.Text, "May 20 12:30:59 ") {
			t.Errorf("the registration is quoted as %q, want its own record", h.Last.Text)
		}
	}
	rec := `{"level":"info","ts":"2022-01-24T01:37:48.103Z","caller":"entrypoint.sh","msg":"Validating env variables ..."}`
	if got := unjoin([]line{{1, strings.Repeat(rec+" ", 3) + rec}}); len(got) != 4 || got[0].text != rec {
		t.Errorf("JSON records: %+v", got)
	}
	// the command above the records, and another component's klog record after them, are
	// lines of their own: the last JSON record does not run on into them
	klog := `I0124 01:37:49.320455      14 request.go:621] Throttling request took 1.041851984s`
	if got := unjoin([]line{{1, "❯ k logs aws-node-64sqt -n kube-system " + strings.Repeat(rec+" ", 3) + rec + " " + klog}}); len(got) != 6 ||
		got[0].text != "❯ k logs aws-node-64sqt -n kube-system" || got[4].text != rec || got[5].text != klog {
		t.Errorf("prompt, JSON records, klog: %+v", got)
	}
	// a whole ticket whose line breaks were lost: the poster's words, then journal records
	words := "Our SOC forwards kubelet logs to the SIEM and every scale-out raises alerts for E-level kubelet lines; are these expected on a normal boot? Cluster 1.33, AL2023 managed node group, nothing custom; the first seconds of the unit follow. ```"
	if got := unjoin([]line{{1, words + " " + joined}}); len(got) != 4 || got[0].text != words || !strings.HasPrefix(got[3].text, "May 20 12:30:59 ") {
		t.Errorf("words, then journal records: %+v", got)
	}
	// klog records whose severity, time and PID a selection left out
	bare := `kubelet.go:2397] "Container runtime network not ready" networkReady="NetworkReady=false"`
	if got := unjoin([]line{{1, strings.Repeat(bare+" ", 3) + `factory.go:145] Registering containerd factory`}}); len(got) != 4 || got[0].text != bare {
		t.Errorf("bare klog records: %+v", got)
	}
	for _, keep := range []string{
		"We upgraded on 2024-05-01 10:00:00 and again " + strings.Repeat("x ", 150) + "then 2024-05-02 10:00:00 and 2024-05-03 10:00:00 ",
		j("57", strings.Repeat("y", 300)) + " " + j("58", "z"),
	} {
		if got := unjoin([]line{{1, keep}}); len(got) != 1 {
			t.Errorf("split a line that is not joined records: %+v", got)
		}
	}
}

// TestConfigurationThatLostItsLineBreaksIsNotJudged: aws-auth or MIME user data whose line
// breaks a web page or chat collapsed is one line no file holds: it is reported as such and not
// judged (no malformed aws-auth, no user data without bootstrap), while aws-auth as compact JSON
// on one line is read as the document it is.
func TestConfigurationThatLostItsLineBreaksIsNotJudged(t *testing.T) {
	flat := "mapRoles: | - rolearn: arn:aws:iam::111122223333:role/node-role username: system:node:{{EC2PrivateDNSName}} groups: - system:bootstrappers - system:nodes - rolearn: arn:aws:iam::111122223333:role/other-node-role username: system:node:{{EC2PrivateDNSName}} groups: - system:bootstrappers - system:nodes"
	mime := "MIME-Version: 1.0 Content-Type: multipart/mixed; boundary=\"//\" --// Content-Type: text/x-shellscript; charset=\"us-ascii\" #!/bin/bash set -ex /etc/eks/bootstrap.sh prod --kubelet-extra-args '--max-pods=20' --//--"
	// shorter than the long form's bound, but a block scalar with its content on its own line
	short := `mapRoles: | - "groups": - "system:bootstrappers" - "system:nodes" "rolearn": "<node_role_arn>" "username": "system:node:{{EC2PrivateDNSName}}"`
	for _, in := range []string{flat, mime, short} {
		r := Read([]byte(in+"\n"), "stdin", Options{})
		if len(r.Segments) != 1 || r.Segments[0].Type != typeUnknownText || !strings.Contains(r.Segments[0].Detail, "line breaks were lost") {
			t.Errorf("%.40q…: segments %+v", in, r.Segments)
		}
		if r.Evidence.AWSAuth != nil || r.Evidence.Bootstrap != nil {
			t.Errorf("%.40q…: judged as configuration: aws-auth %+v, bootstrap %+v", in, r.Evidence.AWSAuth, r.Evidence.Bootstrap)
		}
	}
	compact := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"aws-auth","namespace":"kube-system"},"data":{"mapRoles":"- rolearn: arn:aws:iam::111122223333:role/node-role\n  username: system:node:{{EC2PrivateDNSName}}\n  groups:\n    - system:bootstrappers\n    - system:nodes\n"}}`
	if r := Read([]byte(compact+"\n"), "stdin", Options{}); r.Evidence.AWSAuth == nil || len(r.Evidence.AWSAuth.Roles) != 1 {
		t.Errorf("compact JSON aws-auth not read: %v", types(r.Segments))
	}
}

// TestLogsInsightsTableCopiedFromTheConsole: a Logs Insights result copied from the console (a
// header row, then numbered rows with the timestamp and stream before the message) reads as its
// messages; a tab-separated table without that header is left as it is.
func TestLogsInsightsTableCopiedFromTheConsole(t *testing.T) {
	msg := `E0814 09:04:31.775210    2398 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \"https://B3D7.sk1.eu-central-1.eks.amazonaws.com/api/v1/nodes\": tls: failed to verify certificate: x509: certificate signed by unknown authority"`
	in := []line{{1, "#\t@timestamp\t@logStream\t@message"}, {2, "1\t2024-08-14 09:04:31.775\ti-0a7e4c19d3b85f2e1.kubelet\t" + msg}, {3, ""}, {4, "after"}}
	got := untable(in)
	if len(got) != 3 || got[0].text != msg || got[0].n != 2 || got[2].text != "after" {
		t.Fatalf("untable = %+v", got)
	}
	plain := []line{{1, "NAME\tSTATUS"}, {2, "1\tReady\tx"}}
	if got := untable(plain); len(got) != 2 || got[1].text != "1\tReady\tx" {
		t.Errorf("a table without the Insights header changed: %+v", got)
	}
}

// TestJSONStringIsNotUnjoined: a log carried in one JSON string ({"message": "…\n…\n…"}) is one
// JSON document, not records whose line breaks were lost: its klog headers after the journal
// prefixes are not cut apart, so the JSON reader splits it at its escaped line breaks.
func TestJSONStringIsNotUnjoined(t *testing.T) {
	rec := `Jul 24 15:30:00 ip-10-0-12-34 kubelet[2841]: E0724 15:30:00.118732    2841 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-12-34\"`
	doc := `{"message": "` + rec + `\n` + rec + `\n` + rec + `"}`
	if got := unjoin([]line{{1, doc}}); len(got) != 1 {
		t.Fatalf("cut into %d lines", len(got))
	}
	r := Read([]byte(doc+"\n"), "stdin", Options{})
	if r.Evidence.NodeLogs == nil || len(r.Evidence.NodeLogs.Hits) == 0 || r.Evidence.NodeLogs.Hits[0].Finding != "runtime.unauthorized" {
		t.Errorf("the log inside the string is not read (segments %v)", types(r.Segments))
	}
}

// TestQuotedQuestionInAnswer: an answer that quotes the question with "> " (logs and fences
// inside the quotation) and answers below it: the quoted block is unquoted and read, though most
// of the paste is not quoted; a line or two starting with ">" elsewhere stays as it is.
func TestQuotedQuestionInAnswer(t *testing.T) {
	paste := "Answer by **someone** · 2 days ago\n\n" +
		"> **Nodes stay NotReady**\n>\n> The kubelet says:\n>\n> ```\n" +
		"> Jul 24 15:30:01 ip-10-0-12-34 kubelet[2841]: E0724 15:30:01.118732    2841 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-12-34\"\n" +
		"> ```\n\n" +
		"Your node role is not in aws-auth. Map it with system:bootstrappers and system:nodes and\n" +
		"restart the kubelet; that is all there is to it, and it will register within a minute.\n" +
		"If it does not, check the role ARN has no path in it, since aws-auth does not accept one.\n" +
		"> a lone quoted line\n"
	res := Read([]byte(paste), "stdin", Options{})
	if res.Evidence.NodeLogs == nil {
		t.Fatalf("the quoted kubelet line was not read: %+v", res.Segments)
	}
	found := false
	for _, h := range res.Evidence.NodeLogs.Hits {
		found = found || h.Finding == "runtime.unauthorized"
	}
	if !found {
		t.Errorf("no runtime.unauthorized hit: %+v", res.Evidence.NodeLogs.Hits)
	}
	lines := []line{{text: "x"}, {text: "> y"}, {text: "z"}, {text: "w"}, {text: "v"}}
	if got := unquote(lines); got[1].text != "> y" {
		t.Errorf("a lone quoted line was unquoted: %q", got[1].text)
	}
}

// TestAWSAuthShownAgainLaterWins: a ticket that shows aws-auth, then shows it again after an
// edit, is judged on the later copy (the ConfigMap's state), as a node list shown again is; a
// later copy naming its roles by Terraform references does not replace one naming ARNs.
func TestAWSAuthShownAgainLaterWins(t *testing.T) {
	cm := func(body string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\ndata:\n  mapRoles: |\n" + body
	}
	broken := cm("    - rolearn: arn:aws:iam::111122223333:role/node-a\n      username: system:node:{{EC2PrivateDNSName}}\n       groups:\n        - system:nodes\n")
	fixed := cm("    - rolearn: arn:aws:iam::111122223333:role/node-b\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\n")
	paste := "Our aws-auth:\n\n```\n" + broken + "```\n\nAfter fixing the indentation:\n\n```\n" + fixed + "```\n"
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if ev.AWSAuth == nil || len(ev.AWSAuth.Roles) != 1 || !strings.HasSuffix(ev.AWSAuth.Roles[0].RoleArn, "role/node-b") || len(ev.AWSAuth.Problems) != 0 {
		t.Fatalf("later copy not used: %+v", ev.AWSAuth)
	}
	tf := cm("    - rolearn: ${aws_iam_role.node.arn}\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:nodes\n")
	ev = Read([]byte("```\n"+fixed+"```\n\nterraform has:\n\n```\n"+tf+"```\n"), "stdin", Options{}).Evidence
	if ev.AWSAuth == nil || len(ev.AWSAuth.Roles) != 1 || !strings.HasSuffix(ev.AWSAuth.Roles[0].RoleArn, "role/node-b") {
		t.Fatalf("Terraform references replaced ARNs: %+v", ev.AWSAuth)
	}
}

// TestMixedQuoteDepths: an e-mail thread that quotes a quote ("> > " under "> ", or ">> ") is
// unquoted line by line to each line's own depth, so the kubelet lines nested two levels deep are
// read as a log and the aws-auth quoted one level deep as aws-auth, neither swallowing the other.
func TestMixedQuoteDepths(t *testing.T) {
	rec := func(ts string) string {
		return "Nov 23 08:55:" + ts + " ip-10-20-3-41 kubelet[2874]: E1123 08:55:" + ts + ".112233    2874 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-20-3-41.eu-west-1.compute.internal\""
	}
	awsAuth := ">\n> aws-auth:\n> apiVersion: v1\n> data:\n>   mapRoles: |\n>     - groups:\n>       - system:bootstrappers\n>       - system:nodes\n" +
		">       rolearn: arn:aws:iam::111122223333:role/ng-old-NodeInstanceRole\n>       username: system:node:{{EC2PrivateDNSName}}\n" +
		"> kind: ConfigMap\n> metadata:\n>   name: aws-auth\n>   namespace: kube-system\n"
	for name, nested := range map[string]string{"> > ": "> > ", ">> ": ">> ", ">>": ">>"} {
		paste := "Hi team,\n\nThe node is still stuck, see below.\n\n" +
			"> On Mon, Nov 23, 2026 at 9:14 AM Priya <priya@example.com> wrote:\n" +
			nested + "Node ip-10-20-3-41 never shows up in kubectl get nodes.\n" +
			nested + "kubelet log:\n" +
			nested + rec("12") + "\n" + nested + rec("19") + "\n" + nested + rec("26") + "\n" +
			awsAuth + "\nThe new node group uses another role.\n"
		res := Read([]byte(paste), "stdin", Options{})
		ev := res.Evidence
		unauth := 0
		if ev.NodeLogs != nil {
			for _, h := range ev.NodeLogs.Hits {
				if h.Finding == "runtime.unauthorized" {
					unauth++
				}
			}
		}
		if unauth == 0 {
			t.Errorf("%q: the nested kubelet lines were not read as a log (segments %v)", name, labels(res.Segments))
		}
		if ev.AWSAuth == nil || len(ev.AWSAuth.Roles) != 1 || !strings.HasSuffix(ev.AWSAuth.Roles[0].RoleArn, "role/ng-old-NodeInstanceRole") {
			t.Errorf("%q: the quoted aws-auth was not read: %+v", name, ev.AWSAuth)
		}
		for _, s := range res.Segments {
			if s.Type == TypeAWSAuth && s.First <= 10 {
				t.Errorf("%q: aws-auth segment %d-%d (%s) takes in the kubelet lines 8-10", name, s.First, s.Last, s.Label())
			}
		}
	}
	got := unquote([]line{{text: "> > a"}, {text: ">> b"}, {text: "> c"}, {text: "> >   d: e"}, {text: "> >"}, {text: ">"}})
	want := []string{"a", "b", "c", "  d: e", "", ""}
	for i, w := range want {
		if got[i].text != w {
			t.Errorf("unquote line %d = %q, want %q", i, got[i].text, w)
		}
	}
}

func labels(segs []Segment) []string {
	var out []string
	for _, s := range segs {
		out = append(out, fmt.Sprintf("%d-%d %s", s.First, s.Last, s.Label()))
	}
	return out
}

// TestFragmentDoesNotSwallowQuotedLogLine: a lone quoted kubelet line (too few quoted lines for
// unquote to take as a quotation) above a mapRoles fragment is a log line still: the aws-auth
// fragment reader does not take it in, so the kubelet's 401 is read.
func TestFragmentDoesNotSwallowQuotedLogLine(t *testing.T) {
	paste := "> Nov 23 08:55:12 ip-10-20-3-41 kubelet[2874]: E1123 08:55:12.112233    2874 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-20-3-41.eu-west-1.compute.internal\"\n" +
		"    - rolearn: arn:aws:iam::111122223333:role/ng-old-NodeInstanceRole\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\n"
	res := Read([]byte(paste), "stdin", Options{})
	for _, s := range res.Segments {
		if s.Type == TypeAWSAuth && s.First == 1 {
			t.Errorf("aws-auth segment %d-%d (%s) takes in the quoted kubelet line", s.First, s.Last, s.Label())
		}
	}
	found := false
	if res.Evidence.NodeLogs != nil {
		for _, h := range res.Evidence.NodeLogs.Hits {
			found = found || h.Finding == "runtime.unauthorized"
		}
	}
	if !found {
		t.Errorf("the quoted kubelet line was not read (segments %v)", labels(res.Segments))
	}
}

// TestWholeJSONRecordsAreNotJoined: aws-node's container log, its entrypoint's plain lines
// followed by two IPAMD JSON records of about the same length (red team round 7, case03): each
// record is a whole JSON object, so neither is the wrapped piece of the other, and both count.
func TestWholeJSONRecordsAreNotJoined(t *testing.T) {
	rec := func(ts, id string) string {
		return `{"level":"error","ts":"2026-11-23T10:02:` + ts + `.123Z","caller":"ipamd/ipamd.go:846","msg":"Failed to increase pool size due to not able to allocate ENI AllocENI: error creating an eni: CreateNetworkInterface: operation error EC2: CreateNetworkInterface, https response error StatusCode: 400, RequestID: ` + id + `-aaaa-bbbb-cccc-0123456789ab, api error InsufficientFreeAddressesInSubnet: The specified subnet does not have enough free addresses to satisfy the request."}`
	}
	text := "Installed /host/opt/cni/bin/loopback\nInstalled /host/opt/cni/bin/portmap\nInstalled /host/opt/cni/bin/bandwidth\n" +
		"Installed /host/opt/cni/bin/host-local\nInstalled /host/opt/cni/bin/aws-cni-support.sh\n" +
		"Startup: Starting IPAM daemon in the background ... ok.\nChecking for IPAM connectivity ...\n" +
		rec("11", "7a6f1c2d") + "\n" + rec("16", "8a6f1c2d") + "\n"
	if got := string(unfold([]byte(text))); got != text {
		t.Errorf("whole JSON records joined:\n%s", got)
	}
	r := Read([]byte(text), "input.txt", Options{})
	if r.Evidence.NodeLogs == nil {
		t.Fatalf("no logs read from %+v", r.Segments)
	}
	for _, h := range r.Evidence.NodeLogs.Hits {
		if h.Signature == "ipamd-subnet-full" {
			if h.Count != 2 {
				t.Errorf("ipamd-subnet-full counted %d lines, the paste has 2", h.Count)
			}
			return
		}
	}
	t.Errorf("ipamd-subnet-full not matched: %+v", r.Evidence.NodeLogs.Hits)
}

// TestConfigMapListItemsReadEach: `kubectl get cm -n kube-system -o yaml` (or -o json) prints a
// List of every ConfigMap; the aws-auth and amazon-vpc-cni among them are read as when pasted
// alone, wherever they stand in the List (red team round 8b, finding 05: aws-auth after
// kube-root-ca.crt was lost, and aws-auth first was read as a ConfigMap of 0 mappings).
func TestConfigMapListItemsReadEach(t *testing.T) {
	root := "- apiVersion: v1\n  data:\n    ca.crt: |\n      -----BEGIN CERTIFICATE-----\n      MIIC/jCCAeagAwIBAgIBADANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl\n      -----END CERTIFICATE-----\n  kind: ConfigMap\n  metadata:\n    name: kube-root-ca.crt\n    namespace: kube-system\n"
	auth := "- apiVersion: v1\n  data:\n    mapRoles: |\n      - rolearn: arn:aws:iam::111122223333:role/eks/nodes/prod-node-role\n        username: system:node:{{EC2PrivateDNSName}}\n        groups:\n          - system:bootstrappers\n          - system:nodes\n  kind: ConfigMap\n  metadata:\n    name: aws-auth\n    namespace: kube-system\n"
	cni := "- apiVersion: v1\n  data:\n    enable-network-policy-controller: \"false\"\n  kind: ConfigMap\n  metadata:\n    name: amazon-vpc-cni\n    namespace: kube-system\n"
	for name, items := range map[string]string{"aws-auth second": root + auth + cni, "aws-auth first": auth + root + cni, "aws-auth last": cni + root + auth} {
		for form, text := range yamlAndJSON(t, "apiVersion: v1\nitems:\n"+items+"kind: List\nmetadata:\n  resourceVersion: \"\"\n") {
			res := Read([]byte(text), "cm.txt", Options{})
			ev := res.Evidence
			if ev.AWSAuth == nil || len(ev.AWSAuth.Roles) != 1 || ev.AWSAuth.Roles[0].RoleArn != "arn:aws:iam::111122223333:role/eks/nodes/prod-node-role" {
				t.Errorf("%s, %s: aws-auth not read from the List: %+v (segments %v)", name, form, ev.AWSAuth, labels(res.Segments))
			}
			if ev.VPCCNIConfig["enable-network-policy-controller"] != "false" {
				t.Errorf("%s, %s: amazon-vpc-cni not read from the List: %v (segments %v)", name, form, ev.VPCCNIConfig, labels(res.Segments))
			}
		}
	}
}

// TestTerminalCutsAreRejoinedWithoutSpace: a kubelet journal a terminal hard-wrapped at 100
// columns, the spaces at its cuts trimmed, has one cut inside a word ("Una|uthorized"); the
// records show where they start, so the piece at the width is joined as it was cut. A message
// folded once, its rest starting mid-word, is one line again; a line that only happens to be the
// longest, followed by a sentence of its own, is not joined to it.
func TestTerminalCutsAreRejoinedWithoutSpace(t *testing.T) {
	rec := func(stamp, msg string) string {
		return "Jun 04 " + stamp + " ip-192-168-38-68.eu-west-2.compute.internal kubelet[3787]: E0604 " + stamp + ".613885    3787 " + msg
	}
	var b strings.Builder
	for _, l := range []string{
		rec("20:27:13", `kubelet.go:2272] node "ip-192-168-38-68.eu-west-2.compute.internal" not found`),
		rec("20:27:14", `reflector.go:123] k8s.io/kubernetes/pkg/kubelet/kubelet.go:450: Failed to list *v1.Service: Unauthorized`),
		rec("20:27:14", `kubelet.go:2272] node "ip-192-168-38-68.eu-west-2.compute.internal" not found`),
	} {
		for len(l) > 100 {
			b.WriteString(strings.TrimRight(l[:100], " ") + "\n")
			l = l[100:]
		}
		b.WriteString(l + "\n")
	}
	if got := string(unfold([]byte(b.String()))); !strings.Contains(got, "Failed to list *v1.Service: Unauthorized\n") {
		t.Errorf("journal cut inside a word not rejoined as cut:\n%s", got)
	}
	once := "An error occurred (InvalidParameterException) when calling the CreateFargateProfile operation: Subne\nt subnet-0ab49c01946ecc462 provided in Fargate Profile is not a private subnet\n"
	if got, want := string(unfold([]byte(once))), "An error occurred (InvalidParameterException) when calling the CreateFargateProfile operation: Subnet subnet-0ab49c01946ecc462 provided in Fargate Profile is not a private subnet\n\n"; got != want {
		t.Errorf("message folded once:\n%q\nwant\n%q", got, want)
	}
	two := "Request: POST https://F4B054AE79A8CA3EE4.yl4.cn-north-1.eks.amazonaws.com.cn/api/v1/nodes?timeout=10s\nResponse: 401 Unauthorized\n"
	if got := string(unfold([]byte(two))); got != two {
		t.Errorf("two lines of their own joined:\n%q", got)
	}
}

// TestOneItemListReadAsItsObject: a List whose only item is the aws-auth (or amazon-vpc-cni)
// ConfigMap — `kubectl get cm aws-auth -l …`, or -o yaml of one name with a selector — is read
// as that ConfigMap, as the snapshot reads kube/aws-auth.yaml holding one (layout.KubeObject);
// it was read as a ConfigMap whose data are the List's own keys, an aws-auth of 0 mappings (red
// team round 11b, finding 1).
func TestOneItemListReadAsItsObject(t *testing.T) {
	auth := "- apiVersion: v1\n  data:\n    mapRoles: |\n      - rolearn: arn:aws:iam::111122223333:role/node-role\n        username: system:node:{{EC2PrivateDNSName}}\n        groups:\n          - system:bootstrappers\n          - system:nodes\n  kind: ConfigMap\n  metadata:\n    name: aws-auth\n    namespace: kube-system\n"
	cni := "- apiVersion: v1\n  data:\n    enable-network-policy-controller: \"false\"\n  kind: ConfigMap\n  metadata:\n    name: amazon-vpc-cni\n    namespace: kube-system\n"
	for name, items := range map[string]string{"aws-auth": auth, "amazon-vpc-cni": cni} {
		for form, text := range yamlAndJSON(t, "apiVersion: v1\nkind: List\nitems:\n"+items+"metadata:\n  resourceVersion: \"\"\n") {
			res := Read([]byte(text), "cm.txt", Options{})
			ev := res.Evidence
			switch name {
			case "aws-auth":
				if ev.AWSAuth == nil || len(ev.AWSAuth.Roles) != 1 || ev.AWSAuth.Roles[0].RoleArn != "arn:aws:iam::111122223333:role/node-role" {
					t.Errorf("%s, %s: aws-auth not read from the List: %+v (segments %v)", name, form, ev.AWSAuth, labels(res.Segments))
				}
			case "amazon-vpc-cni":
				if len(ev.VPCCNIConfig) != 1 || ev.VPCCNIConfig["enable-network-policy-controller"] != "false" {
					t.Errorf("%s, %s: amazon-vpc-cni not read from the List: %v (segments %v)", name, form, ev.VPCCNIConfig, labels(res.Segments))
				}
			}
		}
	}
}

// yamlAndJSON returns a YAML document and the same as indented JSON (kubectl -o yaml and -o
// json of one object), keyed by form.
func yamlAndJSON(t *testing.T, yamlText string) map[string]string {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(yamlText), &v); err != nil {
		t.Fatal(err)
	}
	j, _ := json.MarshalIndent(v, "", "    ")
	return map[string]string{"yaml": yamlText, "json": string(j)}
}
