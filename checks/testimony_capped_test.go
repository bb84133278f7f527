package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

// TestFactsPastTheCapAreSaidToBeASample (red team round 2, F8): a log naming more distinct nodes
// than the scanner keeps reports the kept ones as a sample ("… and others not counted"), never as
// an exact count ("5 more" for 97 more).
func TestFactsPastTheCapAreSaidToBeASample(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "E0724 15:30:01.118732    2841 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-%d-1\"\n", i)
	}
	sc := logscan.MustDefault()
	if err := sc.Scan(strings.NewReader(b.String()), "k.log", "kubelet"); err != nil {
		t.Fatal(err)
	}
	logs := sc.Result("bundle")
	fs := testimonyFindings("runtime.unauthorized", judgeTestimony(logs, "runtime.unauthorized"), logs, "i-1", "bundle")
	if len(fs) != 1 || fs[0].Status != StatusFail || !strings.HasSuffix(fs[0].Resource, ", …") || !strings.Contains(fs[0].Message, "5 more and others not counted") {
		t.Fatalf("%+v", fs)
	}
	// at most the cap: exact
	sc = logscan.MustDefault()
	_ = sc.Scan(strings.NewReader(strings.Join(strings.Split(b.String(), "\n")[:5], "\n")+"\n"), "k.log", "kubelet")
	logs = sc.Result("bundle")
	fs = testimonyFindings("runtime.unauthorized", judgeTestimony(logs, "runtime.unauthorized"), logs, "i-1", "bundle")
	if len(fs) != 1 || strings.Contains(fs[0].Resource, "…") || !strings.Contains(fs[0].Message, "2 more") || strings.Contains(fs[0].Message, "not counted") {
		t.Fatalf("five nodes: %+v", fs)
	}
}
