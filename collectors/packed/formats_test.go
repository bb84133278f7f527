package packed

import "testing"

// TestUnpack: the command names the file given (quoted when it needs to be) and decompresses to
// standard output, so a file named .tar.gz that is not gzip is unpacked all the same.
func TestUnpack(t *testing.T) {
	zstd, _ := Sniff([]byte{0x28, 0xB5, 0x2F, 0xFD, 1})
	rar, _ := Sniff([]byte("Rar!\x1A\x07\x00"))
	for _, c := range []struct {
		f          Format
		file, want string
	}{
		{zstd, "snap.tar.gz", "decompress it and X: zstd -dc snap.tar.gz > snap.tar"},
		{zstd, "snap.tgz", "decompress it and X: zstd -dc snap.tgz > snap.tar"},
		{zstd, "/tmp/my case/snap.tar.zst", "decompress it and X: zstd -dc '/tmp/my case/snap.tar.zst' > '/tmp/my case/snap.tar'"},
		{zstd, "it's", `decompress it and X: zstd -dc 'it'\''s' > 'it'\''s.out'`},
		{zstd, "", "decompress it and X: zstd -dc FILE > FILE.out"},
		{rar, "a.rar", "extract it and X (the directory it extracts to)"},
	} {
		if got := c.f.Unpack(c.file, "X"); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.f.What, c.file, got, c.want)
		}
	}
	if _, ok := Sniff([]byte{0x1f, 0x8b, 8}); ok {
		t.Error("gzip is read, not refused")
	}
}
