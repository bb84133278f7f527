package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snapshotArchives packs fixtures/snapshots/NAME as a .tar.gz, a plain .tar and a .zip, each
// under a top folder, as `tar czf - snap` or `zip -r - snap` writes them to a pipe.
func snapshotArchives(t *testing.T, name string) map[string][]byte {
	t.Helper()
	src := filepath.Join(fixtures, "snapshots", name)
	out := map[string][]byte{}
	for _, form := range []string{"tar.gz", "tar", "zip"} {
		out[form] = packSnapshot(t, src, "snap/", form)
	}
	return out
}

// TestSnapshotArchiveOnStdin: a snapshot packed as .tar.gz, .tar or .zip and piped to `analyze -`
// (`aws s3 cp s3://…/snap.tar.gz - | eksdoctor analyze -`) is read as the same archive given by
// path: spooled to a temporary file, which is removed afterwards. It was refused (tar.gz), read
// as "not a node log bundle" (zip), or read as text (tar).
func TestSnapshotArchiveOnStdin(t *testing.T) {
	for kind, data := range snapshotArchives(t, "auth-role-path") {
		t.Run(kind, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			code, out, errOut := runStdin(bytes.NewReader(data), "analyze", "-", "-o", "json")
			var r struct {
				Source    string       `json:"source"`
				Instances []jsonReport `json:"instances"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("exit %d: %v\n%s", code, err, errOut)
			}
			if code != ExitFindings || len(r.Instances) != 1 || r.Instances[0].Diagnosis.MostLikelyCause == nil || *r.Instances[0].Diagnosis.MostLikelyCause != "auth.role-path" {
				t.Fatalf("exit %d, %d instances\n%s", code, len(r.Instances), errOut)
			}
			// the report names what the user gave, not the temporary copy
			if r.Source != "snapshot:stdin" || strings.Contains(out, "eksdoctor-stdin-") {
				t.Errorf("source %q", r.Source)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("left behind in TMPDIR: %v", left)
			}
		})
	}
}

// TestSnapshotArchiveOnStdinBounded: a snapshot archive on stdin larger than the spool bound is
// refused naming the bound and how to give it, and nothing is left in TMPDIR.
func TestSnapshotArchiveOnStdinBounded(t *testing.T) {
	data := snapshotArchives(t, "auth-role-path")["tar.gz"]
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	defer func(n int64) { maxStdinSpool = n }(maxStdinSpool)
	maxStdinSpool = int64(len(data)) - 1
	code, _, errOut := runStdin(bytes.NewReader(data), "analyze", "-")
	if code != ExitInput || !strings.Contains(errOut, "must be given as a file") {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind in TMPDIR: %v", left)
	}
}

// TestPlainTarBundleOnStdin: a node log bundle whose gzip layer was removed, piped to
// `analyze -`, is read as the bundle (it was read as text).
func TestPlainTarBundleOnStdin(t *testing.T) {
	f, err := os.Open(filepath.Join(fixtures, "bundles", "bottlerocket-unauthorized.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	code, out, errOut := runStdin(bytes.NewReader(plain), "analyze", "-", "-o", "json")
	if code != ExitFindings || !strings.Contains(out, `"runtime.unauthorized"`) {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
}
