package ingest

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestUTF16OfBinaryIsRefused: bytes behind a UTF-16 byte-order mark that do not decode to text
// (a binary file that happens to start with FF FE, random data) are refused as binary, naming
// what they looked like; they were decoded into unrecognised "text" and the run ended as if the
// input held nothing eksdoctor knows. UTF-16 text, in any script, is still decoded.
func TestUTF16OfBinaryIsRefused(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	junk := make([]byte, 4096)
	rnd.Read(junk)
	for name, in := range map[string][]byte{
		"LE BOM": append([]byte{0xFF, 0xFE}, junk...),
		"BE BOM": append([]byte{0xFE, 0xFF}, junk...),
	} {
		_, p := Text(in)
		if p == nil || !strings.Contains(p.Message, "binary") || !strings.Contains(p.Message, "UTF-16") {
			t.Errorf("%s: %v, want a binary-data problem naming UTF-16", name, p)
		}
	}
	enc := func(s string) []byte {
		b := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	for s, want := range map[string]string{
		"Nov 24 10:00:01 ip-10-0-1-23 kubelet[2345]: E1124 10:00:01.223456 x \"Unauthorized\"\r\n": `kubelet[2345]: E1124 10:00:01.223456 x "Unauthorized"`,
		"节点无法加入集群。日志如下：\r\n节点 ip-10-0-1-23 未就绪 😀\r\n":                                              "节点 ip-10-0-1-23 未就绪 😀\n节点无法",
	} {
		if out, p := Text(enc(strings.Repeat(s, 20))); p != nil || !strings.Contains(string(out), want) {
			t.Errorf("UTF-16 text %q: %v", s, p)
		}
	}
}

// TestOnlyNULs: a file that holds nothing but NUL bytes (and line breaks) — a log whose blocks a
// crash left unwritten — is refused saying so, not as "binary data" nor as an empty input.
func TestOnlyNULs(t *testing.T) {
	for name, in := range map[string][]byte{
		"zeros":            make([]byte, 100000),
		"zeros and breaks": []byte("\x00\x00\n\x00\x00\x00\n\x00"),
	} {
		_, p := Text(in)
		if p == nil || !strings.Contains(p.Message, "only NUL bytes") {
			t.Errorf("%s: %v", name, p)
		}
	}
}
