package ingest

import (
	"strings"
	"testing"
)

// TestBarePromptEndsTheOutput: text copied out of a terminal ends with the prompt the shell
// printed after the command's output, with nothing typed after it ("[ec2-user@ip-10-0-1-2 ~]$ ",
// "user@host:~$ ", "PS C:\> "): that line ends the output, it is not the document's last line
// (it made a correct aws-auth "not valid YAML" in the eval's terminal channel).
func TestBarePromptEndsTheOutput(t *testing.T) {
	awsAuth := "apiVersion: v1\ndata:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/prod-node\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\n"
	for _, prompt := range []string{"[ec2-user@ip-10-0-1-2 ~]$ ", "[root@ip-10-0-1-2 ~]#", "dana@laptop:~/eks$ ", "PS C:\\Users\\dana> ", "sh-4.2$ "} {
		for _, cmd := range []string{"kubectl -n kube-system get cm aws-auth -o yaml", "cat output.txt"} {
			paste := strings.TrimSpace(prompt) + " " + cmd + "\n" + awsAuth + prompt + "\n"
			r := Read([]byte(paste), "paste.txt", Options{})
			var auth *Segment
			for i := range r.Segments {
				if r.Segments[i].Type == TypeAWSAuth {
					auth = &r.Segments[i]
				}
			}
			if auth == nil || auth.Problem != "" || auth.Last != 13 || strings.Contains(string(auth.Text), strings.TrimSpace(prompt)) {
				t.Errorf("%q + %q: aws-auth not read whole without the prompt: %+v", prompt, cmd, r.Segments)
				continue
			}
			if r.Evidence.AWSAuth == nil || len(r.Evidence.AWSAuth.Roles) != 1 || len(r.Evidence.AWSAuth.Problems) > 0 {
				t.Errorf("%q + %q: aws-auth: %+v", prompt, cmd, r.Evidence.AWSAuth)
			}
		}
	}
	// a line that is only "$" or "#" inside a document is not a prompt that ends it
	for _, l := range []string{"#", "$", "# comment", "[settings]"} {
		if barePrompt(l) {
			t.Errorf("%q read as a bare prompt", l)
		}
	}
}

// TestIndentedOutputUnderAPrompt: a prompt at column 0 with the command's output indented under
// it as a whole (copied out of a web page or a ticket that indents what it quotes) is read as
// the command printed it: the indentation every output line shares goes, as for a paste
// indented as a whole (dedent).
func TestIndentedOutputUnderAPrompt(t *testing.T) {
	awsAuth := "apiVersion: v1\ndata:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/prod-node\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\n"
	describe := "Name:         default\nNamespace:    \nLabels:       <none>\nAPI Version:  karpenter.k8s.aws/v1\nKind:         EC2NodeClass\nMetadata:\n  Generation:        2\nSpec:\n  Ami Selector Terms:\n    Alias:           al2023@v20250715\n  Instance Profile:  arn:aws:iam::111122223333:instance-profile/prod-node\n  Subnet Selector Terms:\n    Tags:\n      karpenter.sh/discovery:  prod\nStatus:\n  Amis:\n    Id:    ami-0047d697dc3276f90\n"
	for name, tc := range map[string]struct {
		cmd, out string
		want     Type
	}{
		"aws-auth": {"kubectl -n kube-system get cm aws-auth -o yaml", awsAuth, TypeAWSAuth},
		"describe": {"cat output.txt", describe, "text:kubectl-describe-nodeclass"},
	} {
		for _, indent := range []string{"    ", "\t", "     "} {
			paste := "[ec2-user@ip-10-0-1-2 ~]$ " + tc.cmd + "\n" + string(prefixEach(tc.out, indent)) + "[ec2-user@ip-10-0-1-2 ~]$\n"
			segs := Segments([]byte(paste))
			if len(segs) != 1 || segs[0].Type != tc.want || segs[0].Problem != "" || segs[0].First != 2 {
				t.Errorf("%s indented %q: %v", name, indent, types(segs))
			}
		}
	}
}

// prefixEach puts p before every non-empty line of s.
func prefixEach(s, p string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" && l != "\n" {
			lines[i] = p + l
		}
	}
	return strings.Join(lines, "")
}
