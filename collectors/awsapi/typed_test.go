package awsapi

import (
	"context"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/awsapi/awsfake"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// TestDeniedCallIsATypedError: a call AWS denies is recorded as a typed error (code,
// permission) at its snapshot path, and the diagnosis judges that value: with the error text
// written for `collect` replaced by garbage, the gap still names the missing permission.
func TestDeniedCallIsATypedError(t *testing.T) {
	clients, _ := fakeClients(t, "healthy-al2023", func(f *awsfake.Server) { f.Deny["iam:ListAttachedRolePolicies"] = true })
	res, err := Collect(context.Background(), clients, []string{hostileInstance}, Options{Region: "eu-west-1"})
	if err != nil {
		t.Fatal(err)
	}
	var path string
	for p := range res.Errors {
		if strings.HasPrefix(p, "iam/list-attached-role-policies/") {
			path = p
		}
	}
	if path == "" {
		t.Fatalf("no typed error for iam/list-attached-role-policies/: %v", res.Errors)
	}
	e := res.Errors[path]
	if e.Permission != "iam:ListAttachedRolePolicies" || e.Operation != "ListAttachedRolePolicies" || e.NotFound || e.Code == "" {
		t.Fatalf("typed error = %+v", e)
	}
	res.Files[path] = []byte("\x00 not the CLI's text \x00")
	snap := snapshot.FromDocuments("aws:eu-west-1", res.Files, res.Errors)
	ev, err := snap.Evidence(hostileInstance, "")
	if err != nil {
		t.Fatal(err)
	}
	g := ev.GapFor(evidence.KindNodeRolePolicies)
	if !strings.HasPrefix(g.Reason, "missing permission iam:ListAttachedRolePolicies (") {
		t.Fatalf("node role policies gap = %+v", g)
	}
}
