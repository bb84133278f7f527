package ingest

import (
	"fmt"
	"strings"
	"testing"
)

// catPasteFiles are snapshot files as `cat` or `head` would put them together: JSON documents
// pretty-printed by the AWS CLI and kubectl, and one YAML manifest between them.
var catPasteFiles = []struct{ name, text string }{
	{"eks/describe-cluster.json", `{
    "cluster": {
        "name": "prod",
        "arn": "arn:aws:eks:eu-west-1:111122223333:cluster/prod",
        "version": "1.30",
        "endpoint": "https://ABCDEF.gr7.eu-west-1.eks.amazonaws.com",
        "status": "ACTIVE"
    }
}
`},
	{"eks/list-access-entries.json", `{
    "accessEntries": [
        "arn:aws:iam::111122223333:role/admin"
    ]
}
`},
	{"iam/get-instance-profile/node-profile.json", `{
    "InstanceProfile": {
        "InstanceProfileName": "node-profile",
        "Arn": "arn:aws:iam::111122223333:instance-profile/node-profile",
        "Roles": [
            {
                "RoleName": "node-role",
                "Arn": "arn:aws:iam::111122223333:role/node-role"
            }
        ]
    }
}
`},
	{"kube/aws-auth.yaml", `apiVersion: v1
kind: ConfigMap
metadata:
  name: aws-auth
  namespace: kube-system
data:
  mapRoles: |
    - rolearn: arn:aws:iam::111122223333:role/admin
      username: admin
      groups:
        - system:masters
`},
	{"kube/nodes.json", `{
    "apiVersion": "v1",
    "kind": "List",
    "items": [
        {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "name": "ip-10-0-1-10.eu-west-1.compute.internal"
            }
        }
    ]
}
`},
}

// segTypes lists the types of segs other than prose and unrecognised text, in order.
func segTypes(segs []Segment) []string {
	var out []string
	for _, s := range segs {
		if s.Type == TypeProse || s.Type == TypeLog {
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s)", s.Type, s.Detail))
	}
	return out
}

// TestCatAndHeadPastes: snapshot files put together with `cat f1 f2 …` (documents back to back,
// "}" then "{" or "apiVersion:" on the next line) or with `head f1 f2 …` ("==> f <==" above
// each) are read document by document, as the same files in Markdown fences are — not as one
// "aws-auth mapRoles fragment" that hides every other file (red team 11b #11).
func TestCatAndHeadPastes(t *testing.T) {
	var fenced, cat, head strings.Builder
	for i, f := range catPasteFiles {
		fmt.Fprintf(&fenced, "%s:\n```\n%s```\n\n", f.name, f.text)
		cat.WriteString(f.text)
		if i > 0 {
			head.WriteString("\n")
		}
		fmt.Fprintf(&head, "==> %s <==\n%s", f.name, f.text)
	}
	want := segTypes(Segments([]byte(fenced.String())))
	if len(want) != len(catPasteFiles) {
		t.Fatalf("fenced paste: %d documents, want %d: %q", len(want), len(catPasteFiles), want)
	}
	for name, text := range map[string]string{"cat": cat.String(), "head": head.String()} {
		got := segTypes(Segments([]byte(text)))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s paste read as\n  %s\nwant, as the fenced paste,\n  %s", name, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
		for _, s := range Segments([]byte(text)) {
			if s.Problem != "" {
				t.Errorf("%s paste: lines %d-%d %s: %s", name, s.First, s.Last, s.Type, s.Problem)
			}
		}
	}
}
