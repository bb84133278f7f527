package packed

import (
	"bytes"
	"strings"
)

// Format is a compressed or archive file format, told by its first bytes, that eksdoctor does
// not read itself: a file of it is refused naming the format and how to unpack it (Unpack).
type Format struct {
	// What names the format for a message: "a zstd-compressed file", "a 7-Zip archive".
	What string
	// tool decompresses a file to standard output ("zstd -dc"); "" for an archive, which is
	// extracted to a directory instead.
	tool string
}

// formats are told by their magic numbers: xz (FD 37 7A 58 5A 00), bzip2 ("BZh"), zstd
// (28 B5 2F FD, RFC 8878 §3.1.1), lz4 frames (04 22 4D 18), lzip ("LZIP"), 7-Zip and RAR.
var formats = []struct {
	prefix []byte
	f      Format
}{
	{[]byte{0xFD, '7', 'z', 'X', 'Z', 0x00}, Format{"an xz-compressed file", "xz -dc"}},
	{[]byte("BZh"), Format{"a bzip2-compressed file", "bzip2 -dc"}},
	{[]byte{0x28, 0xB5, 0x2F, 0xFD}, Format{"a zstd-compressed file", "zstd -dc"}},
	{[]byte{0x04, 0x22, 0x4D, 0x18}, Format{"an lz4-compressed file", "lz4 -dc"}},
	{[]byte("LZIP"), Format{"an lzip-compressed file", "lzip -dc"}},
	{[]byte{'7', 'z', 0xBC, 0xAF, 0x27, 0x1C}, Format{"a 7-Zip archive", ""}},
	{[]byte("Rar!\x1A\x07"), Format{"a RAR archive", ""}},
}

// Sniff tells, from a file's first bytes, a compressed or archive format eksdoctor does not
// read (gzip, tar and zip are read, so they are not among them); ok is false for any other.
func Sniff(head []byte) (f Format, ok bool) {
	for _, m := range formats {
		if bytes.HasPrefix(head, m.prefix) {
			return m.f, true
		}
	}
	return Format{}, false
}

// Unpack says how to unpack a file of the format and what to do next: for a compressed file
// "decompress it and THEN: zstd -dc FILE > OUT" (the -dc form works whatever the file is
// named, even .tar.gz, where `xz -d` refuses an unknown suffix), for an archive "extract it
// and THEN". file is the file's path ("" when unknown: FILE stands for it), quoted for a
// POSIX shell when it needs to be; OUT is file without its compression suffix (a .tar for
// .tgz, .txz, .tbz2, .tzst and for a .tar.gz that is not gzip), else file.out.
func (f Format) Unpack(file, then string) string {
	if f.tool == "" {
		return "extract it and " + then + " (the directory it extracts to)"
	}
	in, out := "FILE", "FILE.out"
	if file != "" {
		in, out = shellQuote(file), shellQuote(unpackedName(file))
	}
	return "decompress it and " + then + ": " + f.tool + " " + in + " > " + out
}

// unpackedName is the name a decompressed copy of file takes: its compression suffix dropped.
func unpackedName(file string) string {
	lower := strings.ToLower(file)
	for _, s := range []string{".tgz", ".txz", ".tbz2", ".tbz", ".tzst"} {
		if strings.HasSuffix(lower, s) {
			return file[:len(file)-len(s)] + ".tar"
		}
	}
	for _, s := range []string{".gz", ".xz", ".bz2", ".zst", ".zstd", ".lz4", ".lz"} {
		if strings.HasSuffix(lower, s) && len(file) > len(s) {
			return file[:len(file)-len(s)]
		}
	}
	return file + ".out"
}

// shellQuote quotes s for a POSIX shell unless it is only letters, digits and ./_-+:@,=.
func shellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("./_-+:@,=", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
