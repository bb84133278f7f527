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

// TestNumberedListItemsEndTheOutput: a ticket answering a numbered request puts "1." alone on the
// line above the output it sends, or "3. aws ec2 describe-nat-gateways …" as the item's text: the
// marker ends what came before (a "1." read into a JSON document made it "lines of JSON that
// does not parse", and a command after "3." was read into the journal above it) and an item
// that is a command is that command.
func TestNumberedListItemsEndTheOutput(t *testing.T) {
	cluster := "{\n    \"cluster\": {\n        \"name\": \"c\",\n        \"endpoint\": \"https://ABC.gr7.eu-west-1.eks.amazonaws.com\",\n        \"resourcesVpcConfig\": {\n            \"endpointPublicAccess\": true,\n            \"endpointPrivateAccess\": false\n        },\n        \"status\": \"ACTIVE\"\n    }\n}\n"
	journal := "Nov 12 08:10:14 ip-10-80-141-37.eu-west-1.compute.internal kubelet[1722]: E1112 08:10:14.519611    1722 kubelet_node_status.go:95] \"Unable to register node with API server\" err=\"Post \\\"https://ABC.gr7.eu-west-1.eks.amazonaws.com/api/v1/nodes\\\": dial tcp 52.49.206.113:443: i/o timeout\" node=\"ip-10-80-141-37.eu-west-1.compute.internal\"\n"
	nat := "{\n    \"NatGateways\": [\n        {\n            \"NatGatewayAddresses\": [{\"PublicIp\": \"34.248.19.201\"}],\n            \"NatGatewayId\": \"nat-0f3b5d7a9c1e24681\",\n            \"State\": \"available\",\n            \"SubnetId\": \"subnet-1\"\n        }\n    ]\n}\n"
	for _, m := range []string{"1.", "1)", "(1)"} {
		two := strings.Replace(m, "1", "2", 1)
		three := strings.Replace(m, "1", "3", 1)
		paste := m + "\n" + cluster + "\n" + two + "\n" + journal + "\n" + three + " aws ec2 describe-nat-gateways --filter Name=vpc-id,Values=vpc-1\n" + nat
		r := Read([]byte(paste), "ticket.txt", Options{})
		if r.Evidence.Cluster == nil || !r.Evidence.Cluster.EndpointPublicAccess {
			t.Errorf("%q: describe-cluster not read: %v", m, types(r.Segments))
		}
		if len(r.Evidence.NATGateways) != 1 || r.Evidence.NATGateways[0].ID != "nat-0f3b5d7a9c1e24681" {
			t.Errorf("%q: NAT gateway not read: %v %+v %v", m, types(r.Segments), r.Evidence.NATGateways, r.Evidence.Gaps())
		}
	}
}
