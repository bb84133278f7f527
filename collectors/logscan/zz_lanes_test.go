package logscan

import "testing"

func BenchmarkZZLanesSmall(b *testing.B) {
	data := healthyText(32 << 20)
	full := MustDefault()
	var anchors [][]byte
	for i := 0; i < len(full.mt.lens) && len(anchors) < 40; i += 20 {
		_ = i
	}
	anchors = [][]byte{[]byte("failed to"), []byte("Unauthorized"), []byte("x509:"), []byte("NetworkPluginNotReady"), []byte("error")}
	mt := newMulti(anchors, len(anchors))
	b.Logf("stride %d states %d", mt.stride, len(mt.trans)/int(mt.stride))
	var out [lanes][]hit
	tally := make([]int64, 10)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mt.lanes(data, 0, &out, tally)
	}
}
