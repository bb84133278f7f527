package bundle

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
)

// A support ticket's attachment is often an archive holding the bundle archive (logs.zip
// holding eks_i-0abc…_2026-11-24_1000-UTC_0.7.8.tar.gz). When an archive holds no bundle and
// exactly one archive at its top, that archive is read as the bundle, streamed from inside the
// outer one (never extracted to disk): a gzip-compressed or plain tar from a zip or tar member,
// a zip only when the outer archive is a zip that stores it uncompressed (a zip needs random
// access). Its collection time comes from its own name (namedCollectionTime). One level only.

// errNotStreamable says the archive inside cannot be read in place; the hint stands.
var errNotStreamable = errors.New("the archive inside cannot be read in place")

// nestedName is the name a bundle read from inside an archive goes by: outer/inner.
func nestedName(outer, inner string) string { return outer + "/" + inner }

// descend reads the one archive at the top of the outer archive, whose reading (rd) found no
// bundle, as the bundle. outerZip says the outer archive is a zip; ra and size give it (a tar
// or tar.gz is read again from its start). It returns errNotStreamable when the inner archive
// cannot be read in place, and the inner reading's error otherwise.
func descend(rd *reader, ra io.ReaderAt, size int64, outerZip bool) (*Bundle, error) {
	if rd.topArchives != 1 || rd.nestedArchive == "" || rd.nestedDir != "" {
		return nil, errNotStreamable
	}
	inner := rd.nestedArchive
	in := newReader(nestedName(rd.b.Name, inner), rd.lim)
	var err error
	if outerZip {
		err = descendZip(in, ra, size, inner)
	} else {
		err = descendTar(in, io.NewSectionReader(ra, 0, size), inner)
	}
	if err != nil {
		return nil, err
	}
	if err := in.finish(); err != nil {
		return nil, err
	}
	return in.b, nil
}

// descendZip reads the zip member named inner as the bundle.
func descendZip(in *reader, ra io.ReaderAt, size int64, inner string) error {
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return errNotStreamable
	}
	for _, f := range zr.File {
		if c, ok := clean(f.Name); !ok || c != inner {
			continue
		}
		if f.Method == zip.Store {
			if off, err := f.DataOffset(); err == nil {
				sr := io.NewSectionReader(ra, off, int64(f.CompressedSize64))
				head := make([]byte, 4)
				if n, _ := sr.ReadAt(head, 0); n == 4 && bytes.Equal(head, zipMagic) {
					return in.keepAtLimit(in.readZip(sr, int64(f.CompressedSize64)))
				}
			}
		}
		rc, err := f.Open()
		if err != nil {
			return errNotStreamable
		}
		defer rc.Close()
		return streamInner(in, rc)
	}
	return errNotStreamable
}

// descendTar reads the tar (gzip-compressed or not) from its start to the member named inner,
// and reads that member as the bundle.
func descendTar(in *reader, r io.Reader, inner string) error {
	br := bufio.NewReaderSize(r, 1<<20)
	head, _ := br.Peek(2)
	var src io.Reader = br
	if bytes.HasPrefix(head, gzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return errNotStreamable
		}
		defer zr.Close()
		src = zr
	}
	tr := tar.NewReader(src)
	for {
		h, err := tr.Next()
		if err != nil {
			return errNotStreamable
		}
		if c, ok := clean(h.Name); ok && c == inner && h.Typeflag == tar.TypeReg {
			return streamInner(in, tr)
		}
	}
}

// streamInner reads an archive streamed from inside another: a gzip-compressed or plain tar.
// A zip cannot be (it needs random access): errNotStreamable.
func streamInner(in *reader, r io.Reader) error {
	br := bufio.NewReaderSize(r, 1<<20)
	head, _ := br.Peek(512)
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		return in.keepAtLimit(in.readTarGz(br))
	case IsTar(head):
		return in.keepAtLimit(in.readTar(br))
	}
	return errNotStreamable
}
