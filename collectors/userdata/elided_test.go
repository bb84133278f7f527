package userdata

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// elidedMIME is user data as a poster shows it with lines cut out: "..." where the rest of the
// generated NodeConfig and the closing boundary were.
const elidedMIME = "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"//\"\n\n--//\nContent-Type: application/node.eks.aws\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  featureGates:\n    FastImagePull: true\n\n--//\nContent-Type: application/node.eks.aws\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n...\n"

// TestPastedElisionReadInPart: pasted user data holding a poster's elision mark ("...", "…",
// "[...]" on a line of its own) was read only in part, so nothing is concluded from what it
// lacks (a closing boundary, NodeConfig fields); the same text from EC2 is judged whole.
func TestPastedElisionReadInPart(t *testing.T) {
	for _, mark := range []string{"...", "…", "[...]", "  [...]  "} {
		raw := strings.Replace(elidedMIME, "\n...\n", "\n"+mark+"\n", 1)
		c := DecodePasted([]byte(raw))
		if !c.Truncated || !strings.Contains(c.TruncatedWhy, "elided") || !strings.Contains(c.TruncatedWhy, "line 20") {
			t.Errorf("mark %q: Truncated=%v why=%q, want read in part because lines were elided at line 20", mark, c.Truncated, c.TruncatedWhy)
		}
		for _, i := range c.Issues {
			if strings.Contains(i.Message, "no closing boundary") {
				t.Errorf("mark %q: missing closing boundary reported on elided user data: %+v", mark, i)
			}
		}
	}
	whole := Decode([]byte(elidedMIME))
	if whole.Truncated {
		t.Errorf("user data from EC2 read as elided: %q", whole.TruncatedWhy)
	}
	var closing bool
	for _, i := range whole.Issues {
		closing = closing || (strings.Contains(i.Message, "no closing boundary") && i.Level == evidence.IssueError)
	}
	if !closing {
		t.Errorf("user data from EC2 without a closing boundary not reported: %+v", whole.Issues)
	}
	// an elision inside a line (a shortened CA) or a YAML document start is not a cut
	for _, raw := range []string{
		strings.Replace(elidedMIME, "\n...\n", "\n    certificateAuthority: LS0t...==\n--//--\n", 1),
		strings.Replace(elidedMIME, "\n...\n", "\n    name: c\n---\n--//--\n", 1),
	} {
		if c := DecodePasted([]byte(raw)); c.Truncated {
			t.Errorf("read as elided (%q):\n%s", c.TruncatedWhy, raw)
		}
	}
}
