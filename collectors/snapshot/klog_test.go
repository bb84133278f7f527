package snapshot

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// klogThenUnreachable is what collect-snapshot.sh's save writes into kube/nodes.json when the API
// server cannot be reached: kubectl's stderr, whose client-go discovery cache logs klog lines
// ("E1124 14:09:58.123456 12345 memcache.go:265] …") before kubectl's own error.
const klogThenUnreachable = `E1124 14:09:58.123456   12345 memcache.go:265] couldn't get current server API group list: Get "https://0A1B.gr7.eu-west-1.eks.amazonaws.com/api?timeout=32s": dial tcp 10.0.1.200:443: i/o timeout
E1124 14:09:59.123456   12345 memcache.go:265] couldn't get current server API group list: Get "https://0A1B.gr7.eu-west-1.eks.amazonaws.com/api?timeout=32s": dial tcp 10.0.1.200:443: i/o timeout
Unable to connect to the server: dial tcp 10.0.1.200:443: i/o timeout
`

// TestParseCLIErrorAfterKlogLines (red team 8a, finding 10, case79): kubectl's error preceded by
// klog lines read as "parse error … invalid character 'E'"; the error kubectl printed after
// them is recognised as it is alone, and klog lines with no error after them are kubectl's error
// too (the last one's message), never a parse error.
func TestParseCLIErrorAfterKlogLines(t *testing.T) {
	for _, tc := range []struct {
		text, code, perm, msg string
	}{
		{klogThenUnreachable, "", "", "Unable to connect to the server: dial tcp 10.0.1.200:443: i/o timeout"},
		{"W1124 14:09:58.1 1 loader.go:222] Config not found\nError from server (Forbidden): nodes is forbidden: User \"x\" cannot list resource \"nodes\" in API group \"\" at the cluster scope\n", "Forbidden", "kubernetes:nodes/list", ""},
		{"E1124 14:09:58.123456   12345 memcache.go:265] couldn't get current server API group list: the server has asked for the client to provide credentials\nerror: You must be logged in to the server (the server has asked for the client to provide credentials)\n", "", "", "kubectl: error: You must be logged in to the server (the server has asked for the client to provide credentials)"},
		{"E1124 14:09:58.123456   12345 memcache.go:265] couldn't get current server API group list: dial tcp 10.0.1.200:443: i/o timeout\n", "", "", "kubectl: couldn't get current server API group list: dial tcp 10.0.1.200:443: i/o timeout"},
	} {
		e := ParseCLIError([]byte(tc.text))
		if e == nil {
			t.Errorf("%q: not recognised", tc.text)
			continue
		}
		if e.Code != tc.code || e.Permission != tc.perm || tc.msg != "" && e.Message != tc.msg {
			t.Errorf("%q: %+v", tc.text, e)
		}
	}
	// a JSON document and text with no kubectl form are not errors of this kind
	for _, text := range []string{`{"items":[]}`, "hello\n"} {
		if e := ParseCLIError([]byte(text)); e != nil {
			t.Errorf("%q read as an error: %+v", text, e)
		}
	}

	files := fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
	files["kube/nodes.json"] = []byte(klogThenUnreachable)
	s := FromFiles("test", files)
	ev, err := s.Evidence(s.InstanceIDs()[0], "")
	if err != nil {
		t.Fatal(err)
	}
	if g := ev.GapFor(evidence.KindNodes).Reason; g != "Unable to connect to the server: dial tcp 10.0.1.200:443: i/o timeout (kube/nodes.json)" {
		t.Errorf("nodes gap = %q", g)
	}
	for _, p := range s.Problems {
		if p.Path == "kube/nodes.json" && strings.Contains(p.Err, "parse error") {
			t.Errorf("problem %+v", p)
		}
	}
}

// TestOldCLIInvalidChoiceIsAnError: an AWS CLI whose models predate an operation (aws eks
// list-access-entries before botocore 1.34.2) prints its usage and "Invalid choice" instead of
// JSON; the file is unreadable for that reason, named as such, not a YAML parse error (red team
// round 11b, finding 6).
func TestOldCLIInvalidChoiceIsAnError(t *testing.T) {
	text := "usage: aws [options] <command> <subcommand> [<subcommand> ...] [parameters]\nTo see help text, you can run:\n\n  aws help\n  aws <command> help\n  aws <command> <subcommand> help\n\naws: error: argument operation: Invalid choice, valid choices are:\n\ncreate-addon                             | create-cluster\n"
	e := ParseCLIError([]byte(text))
	if e == nil {
		t.Fatal("not recognised as the AWS CLI's error")
	}
	if r := e.reason(); !strings.Contains(r, "Invalid choice") || !strings.Contains(r, "current AWS CLI") {
		t.Errorf("reason %q, want one naming the Invalid choice and asking for a current AWS CLI", r)
	}
}
