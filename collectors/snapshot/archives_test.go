package snapshot

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plainTar is a tar (no compression) of files, keyed by member name.
func plainTar(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	return buf.Bytes()
}

// zipOf is a zip (deflated) of files, keyed by member name.
func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	zw.Close()
	return buf.Bytes()
}

// TestOpenArchiveShapes: a snapshot packed as a zip (Windows' "Send to > Compressed folder", a
// ticket attachment), a plain .tar, or a .tar.gz or directory whose layout sits folders down
// (home/bob/case-1234/snapshot/ec2/…) is read as the snapshot it holds; they were refused with
// "neither a directory nor a gzip-compressed tar" or "not a snapshot" (red team 11b #20).
func TestOpenArchiveShapes(t *testing.T) {
	files := func(prefix string) map[string]string {
		return map[string]string{
			prefix + "ec2/describe-instances.json": instances,
			prefix + "README.txt":                  "case notes",
		}
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var tgz []tar.Header
	var bodies []string
	for name, body := range files("home/bob/case-1234/snapshot/") {
		tgz = append(tgz, tar.Header{Name: name, Typeflag: tar.TypeReg})
		bodies = append(bodies, body)
	}
	finder := files("snap/")
	finder["__MACOSX/snap/ec2/._describe-instances.json"] = "\x00\x05\x16\x07AppleDouble"
	finder["snap/.DS_Store"] = "Bud1"
	inputs := map[string]string{
		"Finder zip":            write("finder.zip", zipOf(t, finder)),
		"zip":                   write("s.zip", zipOf(t, files("snapshot/"))),
		"zip at the top":        write("top.zip", zipOf(t, files(""))),
		"plain tar":             write("s.tar", plainTar(t, files("./snap/"))),
		"tar.gz two folders in": write("deep.tar.gz", tarGz(t, tgz, bodies)),
		"directory two down":    writeSnap(t, files("case-1234/snapshot/")),
	}
	for name, p := range inputs {
		t.Run(name, func(t *testing.T) {
			s, err := Open(p, DefaultLimits)
			if err != nil {
				t.Fatalf("Open(%s): %v", name, err)
			}
			if got := strings.Join(s.InstanceIDs(), ","); got != "i-1" {
				t.Errorf("instances = %q, want i-1", got)
			}
			if got := strings.Join(s.Files(), ","); !strings.Contains(got, "ec2/describe-instances.json") || strings.Contains(got, "snapshot/") {
				t.Errorf("files = %s, want the layout's paths", got)
			}
		})
	}

	t.Run("not an archive", func(t *testing.T) {
		p := write("notes.pdf", []byte("%PDF-1.7\nnot a snapshot"))
		_, err := Open(p, DefaultLimits)
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), ".tar.gz, .tar or .zip") {
			t.Errorf("err = %v, want one naming %s and the archive forms read", err, p)
		}
	})
	t.Run("two snapshots", func(t *testing.T) {
		two := files("a/snapshot/")
		for k, v := range files("b/snapshot/") {
			two[k] = v
		}
		p := write("two.zip", zipOf(t, two))
		_, err := Open(p, DefaultLimits)
		if !errors.Is(err, ErrNotSnapshot) || !strings.Contains(err.Error(), "a/snapshot/") || !strings.Contains(err.Error(), "b/snapshot/") {
			t.Errorf("err = %v, want ErrNotSnapshot naming both folders", err)
		}
	})
	t.Run("no layout", func(t *testing.T) {
		p := write("other.zip", zipOf(t, map[string]string{"docs/readme.md": "hi"}))
		_, err := Open(p, DefaultLimits)
		if !errors.Is(err, ErrNotSnapshot) || !strings.Contains(err.Error(), p) {
			t.Errorf("err = %v, want ErrNotSnapshot naming %s", err, p)
		}
	})
}
