package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoiseLinesBeforeOutput (red team 11b #13): warning, klog and --debug lines printed with
// 2>&1 before intact JSON or YAML are skipped, as an input problem naming the file and the
// lines, and the output after them is read: the cause stays the one of the clean snapshot.
func TestNoiseLinesBeforeOutput(t *testing.T) {
	const id = "i-0a1b2c3d4e5f60005"
	banners := map[string]string{
		"aws-warning": "[WARNING] Using profile prod-readonly in region eu-west-1\n",
		"kubectl":     "Warning: the kubeconfig uses the deprecated client.authentication.k8s.io/v1alpha1 exec API\n",
		"klog":        `E1124 11:59:58.123456   41234 memcache.go:265] couldn't get current server API group list: Get "https://x.eks.amazonaws.com/api?timeout=32s": net/http: TLS handshake timeout` + "\n",
		"python":      "/usr/local/lib/python3.7/site-packages/boto3/compat.py:82: PythonDeprecationWarning: Boto3 will no longer support Python 3.7\n  warnings.warn(warning, PythonDeprecationWarning)\n",
		"debug":       "2026-11-24 12:00:00,101 - MainThread - awscli.clidriver - DEBUG - CLI version: aws-cli/2.15.30 Python/3.11.8\n2026-11-24 12:00:00,102 - MainThread - awscli.clidriver - DEBUG - Arguments entered to CLI: ['ec2', 'describe-instances']\n",
	}
	for name, banner := range banners {
		for _, file := range []string{"ec2/describe-instances.json", "eks/describe-cluster.json", "kube/aws-auth.yaml"} {
			t.Run(name+"/"+file, func(t *testing.T) {
				snap := copyDir(t, "../../../fixtures/snapshots/auth-role-not-mapped")
				p := filepath.Join(snap, filepath.FromSlash(file))
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(p, append([]byte(banner), b...), 0o644)
				code, rep, out := diagnoseJSON(t, id, snap)
				d, _ := rep["diagnosis"].(map[string]any)
				if code != 1 || d == nil || d["mostLikelyCause"] != "auth.role-not-mapped" {
					t.Fatalf("exit %d, want 1 with auth.role-not-mapped: %.3000s", code, out)
				}
				if !strings.Contains(out, "not part of the output") || !strings.Contains(out, file) {
					t.Errorf("the skipped lines are not reported: %.3000s", out)
				}
			})
		}
	}
}
