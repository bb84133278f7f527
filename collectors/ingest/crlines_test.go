package ingest

import (
	"strings"
	"testing"
)

// TestCROnlyLineEnds: text whose lines end in a lone CR (classic Mac OS, some terminal
// clipboards) and that has no LF is read with a line per CR: an aws-auth is judged as the
// ConfigMap it is, and a kubelet log's hits cite lines that exist. Text with LF line ends keeps
// a CR inside a line (a progress bar's redraw) as it is.
func TestCROnlyLineEnds(t *testing.T) {
	awsAuth := "apiVersion: v1\rkind: ConfigMap\rmetadata:\r  name: aws-auth\r  namespace: kube-system\rdata:\r  mapRoles: |\r    - rolearn: arn:aws:iam::111122223333:role/NodeRole\r      username: system:node:{{EC2PrivateDNSName}}\r      groups:\r        - system:bootstrappers\r        - system:nodes\r"
	text, p := Text([]byte(awsAuth))
	if p != nil {
		t.Fatal(p)
	}
	if want := strings.ReplaceAll(awsAuth, "\r", "\n"); string(text) != want {
		t.Fatalf("Text = %q, want %q", text, want)
	}
	r := Read(text, "awsauth_cr.yaml", Options{})
	if got := types(r.Segments); len(got) != 1 || got[0] != TypeAWSAuth {
		t.Fatalf("CR-only aws-auth read as %v", got)
	}
	if r.Evidence.AWSAuth == nil || len(r.Evidence.AWSAuth.Roles) != 1 {
		t.Errorf("mapRoles not read: %+v", r.Evidence.AWSAuth)
	}
	log := "I1124 10:00:01.123456    2345 kubelet_node_status.go:73] \"Attempting to register node\" node=\"ip-10-0-1-23.ec2.internal\"\r" +
		"E1124 10:00:08.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.ec2.internal\"\r"
	text, _ = Text([]byte(log))
	r = Read(text, "cr.txt", Options{})
	if !hasSignature(r.Evidence.NodeLogs, "kubelet-register-unauthorized") {
		t.Fatalf("CR-only kubelet log: Unauthorized not matched (%v)", types(r.Segments))
	}
	for _, h := range r.Evidence.NodeLogs.Hits {
		if h.Signature == "kubelet-register-unauthorized" && (h.Last.Line != 2 || strings.Contains(h.Last.Text, "Attempting")) {
			t.Errorf("hit cites line %d %q, want line 2 alone", h.Last.Line, h.Last.Text)
		}
	}
	mixed := "a\rb\nc\r\n"
	if text, _ := Text([]byte(mixed)); string(text) != "a\rb\nc\n" {
		t.Errorf("Text(%q) = %q: a CR inside LF-ended text is kept", mixed, text)
	}
}
