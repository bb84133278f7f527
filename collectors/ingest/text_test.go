package ingest

import (
	"strings"
	"testing"
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
