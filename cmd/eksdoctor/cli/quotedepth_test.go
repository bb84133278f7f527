package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyzeMixedQuoteDepths: an e-mail thread whose reply quotes aws-auth with "> " and, one
// level deeper ("> > "), the kubelet lines of the message before it: the 401s are read as the
// node's log and found (exit 1, runtime.unauthorized failing), and stderr names the kubelet lines
// a log and the aws-auth lines aws-auth, not the whole thread one mapRoles fragment.
func TestAnalyzeMixedQuoteDepths(t *testing.T) {
	rec := func(ts string) string {
		return "> > Nov 23 08:55:" + ts + " ip-10-20-3-41 kubelet[2874]: E1123 08:55:" + ts + ".112233    2874 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-20-3-41.eu-west-1.compute.internal\"\n"
	}
	paste := "Hi team,\n\nThe node is still stuck, see below.\n\n" +
		"> On Mon, Nov 23, 2026 at 9:14 AM Priya <priya@example.com> wrote:\n" +
		"> > kubelet log:\n" + rec("12") + rec("19") + rec("26") +
		">\n> aws-auth:\n> apiVersion: v1\n> data:\n>   mapRoles: |\n>     - groups:\n>       - system:bootstrappers\n>       - system:nodes\n" +
		">       rolearn: arn:aws:iam::111122223333:role/ng-old-NodeInstanceRole\n>       username: system:node:{{EC2PrivateDNSName}}\n" +
		"> kind: ConfigMap\n> metadata:\n>   name: aws-auth\n>   namespace: kube-system\n"
	path := filepath.Join(t.TempDir(), "thread.txt")
	if err := os.WriteFile(path, []byte(paste), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run("analyze", path, "-o", "json")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a cause found); stderr:\n%s", code, errOut)
	}
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	failed := false
	for _, f := range rep.Findings {
		failed = failed || (f.ID == "runtime.unauthorized" && f.Status == "fail")
	}
	if !failed {
		t.Errorf("runtime.unauthorized does not fail: %+v", rep.Findings)
	}
	if strings.Contains(errOut, "mapRoles fragment") {
		t.Errorf("the thread was read as a mapRoles fragment:\n%s", errOut)
	}
	if !strings.Contains(errOut, "lines 5-9: log") || !strings.Contains(errOut, ": aws-auth") {
		t.Errorf("stderr does not name the log and the aws-auth apart:\n%s", errOut)
	}
}
