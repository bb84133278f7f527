package snapshot

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// maxSniff bounds the entries LooksLikeSnapshot looks at (directory entries or archive
// members, headers only).
const maxSniff = 4096

// bundleFolders are the folders of a node log bundle (the EKS log collector's, Bottlerocket's
// logdog) at the top or below one folder: a tree holding one is a bundle, not a snapshot.
var bundleFolders = map[string]bool{"bottlerocket-logs": true, "kubelet": true, "system": true, "var_log": true, "ipamd": true}

// InLayout reports whether an entry named name (slash-separated, relative to the top of a
// directory or archive) is a file of a snapshot's layout (docs/snapshot-format.md), at the top or
// below at most maxNesting folders. A file under logs/ alone does not count: node log bundles
// have logs folders of their own.
func InLayout(name string) bool {
	name = strings.TrimPrefix(name, "./")
	pre, ok := layoutPrefix(name)
	return ok && !strings.HasPrefix(strings.TrimPrefix(name, pre), "logs/")
}

// inBundle reports whether the entry name sits in a node log bundle's folder at the top or
// below one folder.
func inBundle(name string) bool {
	parts := strings.SplitN(strings.TrimPrefix(name, "./"), "/", 3)
	return len(parts) > 1 && bundleFolders[parts[0]] || len(parts) > 2 && bundleFolders[parts[1]]
}

// LooksLikeSnapshot reports whether the directory, gzip-compressed tar, plain tar or zip at p
// holds a snapshot's layout (InLayout) among its first maxSniff entries, and no node log
// bundle's folder before it. It reads names only (tar headers, a zip's central directory).
func LooksLikeSnapshot(p string) bool {
	st, err := os.Stat(p)
	if err != nil {
		return false
	}
	if st.IsDir() {
		n, found := 0, false
		fs.WalkDir(os.DirFS(p), ".", func(rel string, d fs.DirEntry, err error) error {
			n++
			if err != nil || n > maxSniff || found {
				return fs.SkipAll
			}
			if d.IsDir() {
				if rel != "." && strings.Count(rel, "/") > maxNesting {
					return fs.SkipDir
				}
				return nil
			}
			if inBundle(rel) {
				return fs.SkipAll
			}
			found = InLayout(rel)
			return nil
		})
		return found
	}
	if !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		zr, err := zip.NewReader(f, st.Size())
		if err != nil {
			return false
		}
		for i, zf := range zr.File {
			if i >= maxSniff || inBundle(zf.Name) {
				return false
			}
			if InLayout(zf.Name) {
				return true
			}
		}
		return false
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false
	}
	var r io.Reader = f
	if bytes.HasPrefix(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return false
		}
		defer zr.Close()
		r = zr
	} else if len(head) < 262 || string(head[257:262]) != "ustar" {
		return false
	}
	return TarHoldsSnapshot(r)
}

// TarHoldsSnapshot reports whether the tar read from r (uncompressed) holds a snapshot's
// layout (InLayout) among its first maxSniff members, and no node log bundle's folder before
// it. r may be cut short (the first bytes of a stream): the members read before the cut count.
func TarHoldsSnapshot(r io.Reader) bool {
	tr := tar.NewReader(r)
	for i := 0; i < maxSniff; i++ {
		h, err := tr.Next()
		if err != nil {
			return false
		}
		if h.Typeflag == tar.TypeDir {
			continue
		}
		if inBundle(h.Name) {
			return false
		}
		if InLayout(h.Name) {
			return true
		}
	}
	return false
}
