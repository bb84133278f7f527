package ingest

import (
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// classifyLines are lines of the kinds that cut a block, and of those around them, for
// random blocks.
var classifyLines = []string{
	"", "", "", "   ", "\u00a0",
	"Some prose sentence number 3 here.",
	"Here is what I see on the node:",
	"And here is another node that works fine:",
	"The node never joins the cluster and I do not know why.",
	"One or more Amazon EC2 Subnets of the cluster does not exist: see the guide",
	`Jul 24 15:30:01 ip-10-0-12-34 kubelet[2841]: E0724 15:30:01.118732    2841 kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-12-34"`,
	`E0724 15:30:01.118732    2841 kubelet.go:2397] "Container runtime network not ready" err="cni plugin not initialized"`,
	"apiVersion: v1", "kind: ConfigMap", "metadata:", "  name: aws-auth", "data:", "  mapRoles: |",
	"    - rolearn: arn:aws:iam::111122223333:role/node", "      username: system:node:{{EC2PrivateDNSName}}",
	"key: value", "- item", "---", "{", "}", `{"a": 1}`, "[1, 2", "and",
	`+ user_data = <<-EOT`, `  user_data = <<EOT`, `~ mapRoles = <<-EOT`, `+ foo`, "EOT", "  EOT", "EOF",
	`user_data = <<EOF`, "#!/bin/bash", "set -ex",
	"/etc/eks/bootstrap.sh my-cluster --kubelet-extra-args '--node-labels=a=b'",
	"sudo", "nodeadm", "init", "  /etc/eks/bootstrap.sh prod",
	"/etc/eks/bootstrap.sh: line 56: $2: unbound variable",
	"NAME                          STATUS     ROLES    AGE   VERSION",
	"ip-10-0-1-2.ec2.internal      NotReady   <none>   5m    v1.29.0",
	"Name:               ip-10-0-1-2.ec2.internal", "Roles:              <none>",
	"MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="//"`, "--//", "--//--",
	"$ kubectl get nodes", "```", "```yaml",
}

// randomPaste returns n lines drawn from classifyLines.
func randomPaste(r *rand.Rand, n int) []line {
	out := make([]line, n)
	for i := range out {
		out[i] = line{n: i + 1, text: classifyLines[r.Intn(len(classifyLines))]}
	}
	return out
}

// TestClassifyAsBefore checks that classify, which looks the places to cut a block up in its
// index, cuts random blocks of those lines where classifyRef, which searched every part
// again, cut them.
func TestClassifyAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	commands := []string{"", "", "", "kubectl get nodes", "aws eks describe-cluster --name x", "aws eks list-nodegroups --cluster-name x --output text"}
	for k := 0; k < 4000; k++ {
		lines := randomPaste(r, 1+r.Intn(40))
		fenced := r.Intn(4) == 0
		command := commands[r.Intn(len(commands))]
		got, want := classify(lines, fenced, command), classifyRef(lines, fenced, command)
		if !reflect.DeepEqual(got, want) {
			var b strings.Builder
			for _, l := range lines {
				fmt.Fprintf(&b, "%q\n", l.text)
			}
			t.Fatalf("case %d (fenced %v, command %q):\n%s\ngot  %s\nwant %s", k, fenced, command, b.String(), describe(got), describe(want))
		}
	}
}

func describe(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		fmt.Fprintf(&b, "[%s %q %d-%d %q] ", s.Type, s.Detail, s.First, s.Last, s.Problem)
	}
	return b.String()
}

// proseLogPairs is n pairs of a one-line paragraph of prose and a one-line paragraph of a
// kubelet log: an issue that quotes the node's log between the poster's sentences.
func proseLogPairs(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "Some prose sentence number %d here.\n\n%s\n\n", i, classifyLines[10])
	}
	return []byte(b.String())
}

// TestSegmentsLinearInParagraphs checks that cutting a paste of paragraphs apart looks at each
// line a bounded number of times: four times the paragraphs, four times the lines indexed.
// Searching every remaining part again for the next place to cut made it sixteen.
func TestSegmentsLinearInParagraphs(t *testing.T) {
	scans := func(n int) int64 {
		before := splitScans.Load()
		segs := Segments(proseLogPairs(n))
		if len(segs) != 2*n {
			t.Fatalf("%d pairs: %d segments, want %d", n, len(segs), 2*n)
		}
		return splitScans.Load() - before
	}
	small, large := scans(100), scans(400)
	if large > 5*small {
		t.Errorf("lines indexed: %d for 100 pairs, %d for 400: more than linear", small, large)
	}
}

// BenchmarkSegmentsProseLogPairs reads pastes of prose and log paragraphs; ns/pair stays the
// same at 1,000 and 8,000 pairs.
func BenchmarkSegmentsProseLogPairs(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		text := proseLogPairs(n)
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Segments(text)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/pair")
		})
	}
}

// joinedPieces are pieces of log records and the text between them, for random long lines.
var joinedPieces = []string{
	"Jul 24 15:30:01 ip-10-0-12-34 kubelet[2841]: ",
	"E0724 15:30:01.118732    2841 kubelet_node_status.go:96] ",
	"2024-05-01T10:00:00.123Z ", "2024-05-01 10:00:00,123 ", "[   12.345678] ",
	`{"level":"error","msg":"x"} `, "kubelet.go:2397] ", "$ kubectl logs x ", "user@host:~$ ",
	`"Unable to register node with API server" err="Unauthorized" `, "Unauthorized ",
	"15:30:01 ", "12:00 ", ": ", "] ", ":", "words of the poster ", " ", "x", `{"`, ".go:",
}

// TestUnjoinAsBefore checks that joinedRecords, which counts each shape's marks before it looks
// for its records and finds them once, cuts random long lines where joinedRecordsRef cut them.
func TestUnjoinAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for k := 0; k < 5000; k++ {
		var b strings.Builder
		for n := 20 + r.Intn(60); n > 0; n-- {
			b.WriteString(joinedPieces[r.Intn(len(joinedPieces))])
		}
		text := b.String()
		if got, want := joinedRecords(text), joinedRecordsRef(text); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\ngot  %v\nwant %v", text, got, want)
		}
	}
}

// TestAnchoredAsBefore checks that rePrompt and reYAMLish, anchored once outside their
// alternatives, and bareCommand, which looks at a line's first word before rewriting its
// quotes, read lines as the expressions they replace.
func TestAnchoredAsBefore(t *testing.T) {
	oldPrompt := regexp.MustCompile(`^\s*(?:(?:\[[^\]\n]{1,80}\]|[\w.@-]+(?:@[\w.-]+)?(?::[^\s$#]*)?)?\s*[$#%]|(?:\([\w.-]+\)\s+)?[➜❯]\s+(?:[^\s$#%]+\s+)?(?:git:\([^)\s]*\)\s+)?(?:✗\s*)?)\s+(?:sudo\s+)?(kubectl|aws|eksctl|journalctl|systemctl|cat|tail|head|less|grep|egrep|terraform|helm|nodeadm|apiclient|crictl|ctr|docker|curl|dmesg|sheltie|logdog|base64|echo|k|kc)\b(.*)$|^\s*PS [A-Z]:\\[^>]*>\s+(.*)$`)
	oldYAMLish := regexp.MustCompile(`^\s*(?:- )?[A-Za-z0-9_./"-]+:(?:\s|$)|^\s*- `)
	lines := append(append([]string{
		"$ kubectl get nodes -o wide", "[root@ip-10-0-1-2 ~]# journalctl -u kubelet", "user@host:~$ aws eks describe-cluster --name x",
		`PS C:\> Get-EKSNode`, "(base) ➜  repo git:(main) ✗ kubectl logs x", "# cat /etc/eks/bootstrap.sh", "% k get no",
		"kubectl get nodes", "  kubectl describe node x", `aws ec2 describe-subnets --filters Name=vpc-id,Values=vpc-1 --query 'Subnets[].{id:SubnetId,az:AvailabilityZone}'`,
		"eksctl get nodegroup --cluster prod", "aws eks describe-nodegroup, then this.", `'kubectl' get nodes`, "awsome: yes", "- name: x", " - a", "-x",
	}, classifyLines...), joinedPieces...)
	for _, l := range lines {
		for _, s := range []string{l, "  " + l, l + " tail", "\t" + l} {
			if got, want := rePrompt.FindStringSubmatch(s), oldPrompt.FindStringSubmatch(s); !reflect.DeepEqual(got, want) {
				t.Errorf("rePrompt %q: %q, want %q", s, got, want)
			}
			if got, want := reYAMLish.MatchString(s), oldYAMLish.MatchString(s); got != want {
				t.Errorf("reYAMLish %q: %v, want %v", s, got, want)
			}
			if got, want := bareCommand(s), reBareCommand.MatchString(reQuotedArg.ReplaceAllString(s, "Q")); got != want {
				t.Errorf("bareCommand %q: %v, want %v", s, got, want)
			}
		}
	}
}
