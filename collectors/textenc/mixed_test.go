package textenc

import (
	"bytes"
	"testing"
	"unicode/utf16"
)

// utf16LE encodes s as UTF-16LE, with a byte-order mark when bom is set.
func utf16LE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = []byte{0xFF, 0xFE}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// TestMixedUTF16AndUTF8: Windows PowerShell 5.1 writes `>` as UTF-16LE with a byte-order mark
// and Add-Content appends UTF-8 (or the other way round); each part is decoded as what it is.
// Text in one encoding, and UTF-8 with NUL holes, are not Mixed.
func TestMixedUTF16AndUTF8(t *testing.T) {
	yaml := "apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: aws-auth\r\n"
	log := "Nov 24 10:00:01 ip-10-0-1-23 kubelet[2345]: E1124 10:00:01.223456 x é\r\n"
	for name, tc := range map[string]struct {
		in   []byte
		want string
	}{
		"utf-16 then utf-8":          {append(utf16LE(yaml, true), log...), yaml + log},
		"utf-16 then utf-8 no eol":   {append(utf16LE(yaml, true), ("\r\n" + log)...), yaml + "\r\n" + log},
		"utf-8 then utf-16 with bom": {append([]byte(log), utf16LE(yaml, true)...), log + yaml},
		"utf-8 then utf-16":          {append([]byte(log), utf16LE(yaml, false)...), log + yaml},
		"utf-16, utf-8, utf-16":      {append(append(utf16LE(yaml, true), log...), utf16LE(yaml, false)...), yaml + log + yaml},
	} {
		got, ok := Mixed(tc.in)
		if !ok || string(got) != tc.want {
			t.Errorf("%s: Mixed = %q, %v; want %q", name, got, ok, tc.want)
		}
		if got := Bytes(tc.in); string(got) != tc.want && tc.in[0] == 0xFF {
			t.Errorf("%s: Bytes = %q, want %q", name, got, tc.want)
		}
	}
	for name, in := range map[string][]byte{
		"utf-16 only":   utf16LE(yaml+log, true),
		"utf-8 only":    []byte(yaml + log),
		"utf-8 holes":   append(append([]byte(log), bytes.Repeat([]byte{0}, 64)...), log...),
		"empty":         nil,
		"utf-16 no bom": utf16LE(yaml, false),
	} {
		if got, ok := Mixed(in); ok {
			t.Errorf("%s: Mixed = %q, true; want false", name, got)
		}
	}
}
