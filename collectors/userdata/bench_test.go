package userdata

import (
	"os"
	"testing"
)

func BenchmarkDecodeMIMENodeConfig(b *testing.B) {
	in, err := os.ReadFile("testdata/al2023-injected.txt")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for i := 0; i < b.N; i++ {
		Decode(in)
	}
}

func BenchmarkDecodeShell(b *testing.B) {
	in, err := os.ReadFile("testdata/al2-mime-vars.txt")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for i := 0; i < b.N; i++ {
		Decode(in)
	}
}
