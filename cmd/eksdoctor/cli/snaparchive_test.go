package cli

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// packSnapshot packs the files of the snapshot fixture dir below prefix, as a zip, a plain
// tar or a tar.gz (form), and returns the archive's bytes.
func packSnapshot(t *testing.T, dir, prefix, form string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var add func(name string, b []byte)
	var done func()
	switch form {
	case "zip":
		zw := zip.NewWriter(&buf)
		add = func(name string, b []byte) {
			w, err := zw.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(b)
		}
		done = func() { zw.Close() }
	default:
		var zw *gzip.Writer
		var tw *tar.Writer
		if form == "tar.gz" {
			zw = gzip.NewWriter(&buf)
			tw = tar.NewWriter(zw)
		} else {
			tw = tar.NewWriter(&buf)
		}
		add = func(name string, b []byte) {
			if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
				t.Fatal(err)
			}
			tw.Write(b)
		}
		done = func() {
			tw.Close()
			if zw != nil {
				zw.Close()
			}
		}
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		add(prefix+filepath.ToSlash(rel), b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	done()
	return buf.Bytes()
}

// TestAnalyzeSnapshotArchiveShapes: a snapshot given to analyze as a zip, a plain tar, a
// tar.gz whose layout sits folders down, or a directory two folders above its layout is read
// as the snapshot (the cause is found), not refused as "not a node log bundle"; a snapshot
// tar.gz on standard input is refused with a message naming it as a snapshot and how to give
// it (red team 11b #20).
func TestAnalyzeSnapshotArchiveShapes(t *testing.T) {
	src := filepath.Join(fixtures, "snapshots", "auth-role-path")
	dir := t.TempDir()
	for name, b := range map[string][]byte{
		"snap.zip":    packSnapshot(t, src, "snapshot/", "zip"),
		"snap.tar":    packSnapshot(t, src, "./snapshot/", "tar"),
		"deep.tar.gz": packSnapshot(t, src, "home/bob/case-1234/snapshot/", "tar.gz"),
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) { analyzeRolePathSnapshot(t, p) })
	}
	t.Run("directory two down", func(t *testing.T) {
		top := t.TempDir()
		nested := filepath.Join(top, "case-1234", "snapshot")
		if err := os.CopyFS(nested, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		analyzeRolePathSnapshot(t, top)
	})
}
