package ingest

import (
	"strings"
	"testing"
)

// TestChatHeadersEndDocuments: a ticket copied out of a chat client (Teams "[14:36] Name",
// Slack "Name  2:31 PM" or "Name  [2:31 PM]") puts the next speaker's header right under a
// pasted document: the header ends the document, so an aws-auth pasted in one message and the
// authenticator's lines in the next are each read whole (blind set pastes12, case 02: the header
// was read into the aws-auth, which then did not parse).
func TestChatHeadersEndDocuments(t *testing.T) {
	awsAuth := "apiVersion: v1\ndata:\n  mapRoles: |\n    - groups:\n      - system:bootstrappers\n      - system:nodes\n      rolearn: arn:aws:iam::111122223333:role/eks/nodes/prod-node\n      username: system:node:{{EC2PrivateDNSName}}\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\n"
	log := "Nov 24 10:00:01 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:00:01.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.ec2.internal\"\n"
	for _, header := range []string{"[14:36] Tomasz Nowak", "[2:36 PM] Tomasz Nowak:", "Tomasz Nowak  2:36 PM", "Tomasz Nowak  [2:36 PM]"} {
		t.Run(header, func(t *testing.T) {
			paste := "[14:34] Dana Whitfield\n$ kubectl -n kube-system get cm aws-auth -o yaml\n" + awsAuth + header + "\nok, and the kubelet?\n" + log
			r := Read([]byte(paste), "paste.txt", Options{})
			var auth *Segment
			for i := range r.Segments {
				if r.Segments[i].Type == TypeAWSAuth {
					auth = &r.Segments[i]
				}
			}
			if auth == nil || auth.Problem != "" || strings.Contains(string(auth.Text), "Tomasz") {
				t.Fatalf("aws-auth not read whole: %+v", r.Segments)
			}
			if r.Evidence.AWSAuth == nil || len(r.Evidence.AWSAuth.Roles) != 1 || len(r.Evidence.AWSAuth.Problems) > 0 {
				t.Errorf("aws-auth: %+v", r.Evidence.AWSAuth)
			}
			if r.Evidence.NodeLogs == nil || len(r.Evidence.NodeLogs.Hits) == 0 {
				t.Errorf("the kubelet line under the next header was not read: %v", types(r.Segments))
			}
		})
	}
	// a log line that starts with a bracketed time is no chat header
	for _, l := range []string{"[14:36:02] INFO starting kubelet", "[14:36] ERROR kubelet failed", "[2:36 PM] Tomasz Nowak: the node is NotReady"} {
		if chatHeader(l) {
			t.Errorf("%q read as a chat header", l)
		}
	}
}

// TestSentenceBeforeAPromptEndsTheDocument: a document, a blank line, the poster's sentence
// introducing what follows ("And here is another node that works fine:") and then a prompt with
// its output: the sentence is not the document's last line (it made Bottlerocket TOML settings
// "unparseable" in the eval's mixed channel).
func TestSentenceBeforeAPromptEndsTheDocument(t *testing.T) {
	toml := "[settings.kubernetes]\napi-server = 'https://ABC.gr7.us-west-2.eks.amazonaws.com'\ncluster-name = 'prod'\ncluster-dns-ip = '169.254.20.11'\n"
	awsAuth := "apiVersion: v1\ndata:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/prod-node\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\n"
	paste := toml + "\n\nAnd here is another node that works fine:\n\n$ kubectl get configmaps -n kube-system aws-auth -o yaml\n" + awsAuth
	segs := Segments([]byte(paste))
	if len(segs) < 3 || segs[0].Type != TypeUserData || segs[0].Last != 4 || segs[0].Problem != "" || segs[1].First != 7 || segs[2].Type != TypeAWSAuth {
		for _, s := range segs {
			t.Logf("%s %d-%d", s.Type, s.First, s.Last)
		}
		t.Fatalf("want user data 1-4, the sentence, aws-auth")
	}
}

// TestChatPrefixOnEveryLine: a paste copied out of a chat client that puts the time and the
// speaker before every line (IRC, Matrix or a Slack export: "[10:42] alice: ", "[2:36 PM] Dana
// Whitfield: ", "[10:42:01] <alice> ") reads as the lines the speaker pasted: the aws-auth keeps
// its indentation, the kubelet line its journal prefix, and the quotes findings show hold no
// chat prefix (the eval's chat channel: 57 findings lost and 3 false alarms).
func TestChatPrefixOnEveryLine(t *testing.T) {
	awsAuth := "apiVersion: v1\ndata:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/prod-node\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system\n"
	log := "Nov 24 10:00:01 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:00:01.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.ec2.internal\"\n"
	for _, prefix := range []string{"[10:42] alice: ", "[2:36 PM] Dana Whitfield: ", "[10:42:01] <alice> "} {
		t.Run(prefix, func(t *testing.T) {
			var b strings.Builder
			for _, l := range strings.SplitAfter(awsAuth+"\n"+log, "\n") {
				if l != "" {
					b.WriteString(prefix + l)
				}
			}
			r := Read([]byte(b.String()), "paste.txt", Options{})
			if r.Evidence.AWSAuth == nil || len(r.Evidence.AWSAuth.Roles) != 1 || len(r.Evidence.AWSAuth.Problems) > 0 {
				t.Errorf("aws-auth: %+v (segments %v)", r.Evidence.AWSAuth, types(r.Segments))
			}
			if r.Evidence.NodeLogs == nil || len(r.Evidence.NodeLogs.Hits) == 0 {
				t.Fatalf("the kubelet line was not read: %v", types(r.Segments))
			}
			for _, h := range r.Evidence.NodeLogs.Hits {
				if strings.Contains(h.First.Text, "alice") || strings.Contains(h.First.Text, "Dana") {
					t.Errorf("the quote keeps the chat prefix: %q", h.First.Text)
				}
			}
		})
	}
	// lines a log starts with a bracketed time, a level or a component and a colon are no chat
	for _, l := range [][]string{
		{"[14:36] ERROR kubelet failed: x", "[14:37] ERROR kubelet failed: y", "[14:38] WARN retrying: z"},
		{"[14:36] kubelet: starting", "[14:37] containerd: started", "[14:38] nodeadm: done", "[14:39] sandbox: up"},
	} {
		in := make([]line, len(l))
		for i, t := range l {
			in[i] = line{text: t, n: i + 1}
		}
		if out := unchat(in); out[0].text != l[0] {
			t.Errorf("%q read as chat: %q", l, out[0].text)
		}
	}
}

// TestChatMessagesAreDocuments: in a conversation copied out of a chat client with the time and
// speaker on every line, each message (a change of speaker or of time) ends what the message
// before it pasted: the poster's sentence, the aws-auth pasted under it a minute later, the
// colleague's question and the kubelet lines are read apart, the aws-auth whole.
func TestChatMessagesAreDocuments(t *testing.T) {
	awsAuth := "apiVersion: v1\ndata:\n  mapRoles: |\n    - rolearn: arn:aws:iam::111122223333:role/prod-node\n      username: system:node:{{EC2PrivateDNSName}}\n      groups:\n        - system:bootstrappers\n        - system:nodes\nkind: ConfigMap\nmetadata:\n  name: aws-auth\n  namespace: kube-system"
	log := "Nov 24 10:00:01 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:00:01.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.ec2.internal\""
	var b strings.Builder
	b.WriteString("[10:40] alice: here is our aws-auth\n")
	for _, l := range strings.Split(awsAuth, "\n") {
		b.WriteString("[10:41] alice: " + l + "\n")
	}
	b.WriteString("[10:42] bob: thanks, and what does the kubelet say?\n")
	for range 3 {
		b.WriteString("[10:43] alice: " + log + "\n")
	}
	r := Read([]byte(b.String()), "chat.txt", Options{})
	if r.Evidence.AWSAuth == nil || len(r.Evidence.AWSAuth.Roles) != 1 || len(r.Evidence.AWSAuth.Problems) > 0 {
		t.Errorf("aws-auth not read whole: %+v (segments %v)", r.Evidence.AWSAuth, types(r.Segments))
	}
	if r.Evidence.NodeLogs == nil || len(r.Evidence.NodeLogs.Hits) == 0 {
		t.Errorf("the kubelet lines were not read: %v", types(r.Segments))
	}
	for _, s := range r.Segments {
		if s.Type == TypeAWSAuth && (s.First != 2 || s.Last != 13) {
			t.Errorf("aws-auth at lines %d-%d, want 2-13", s.First, s.Last)
		}
	}
}
