package bundle

import (
	"archive/zip"
	"bytes"
	"fmt"
	"runtime"
	"testing"
)

// TestManyMembersAllocatePerMember: a bundle of many tiny members allocates a bounded few
// kilobytes per member, in a tar.gz as in a zip, and still finds the cause in its one real log.
// Red team 8b #12: 190,000 one-line members of a 3.5 MB tar.gz took 18 s and a 199,000-member
// zip 48 s, time growing faster than the count: each member got its own 64 KiB read buffer
// (12 GB allocated for the tar.gz), and the garbage collector, held under the soft memory
// limit, ran ever more often.
func TestManyMembersAllocatePerMember(t *testing.T) {
	const n = 5000
	line := "Jul 24 15:30:01 h kubelet[1]: I0724 15:30:01.000000 1 reflector.go:1] \"noise\"\n"
	es := []entry{{name: "./kubelet/kubelet.log", body: unauthorized}}
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create(`system\kubelet\kubelet-service.csv`)
	fmt.Fprintf(w, "#TYPE x\r\n\"Message\"\r\n\"%s\"\r\n", bytes.ReplaceAll(bytes.TrimSpace([]byte(unauthorized)), []byte(`"`), []byte(`""`)))
	for i := range n {
		es = append(es, entry{name: fmt.Sprintf("./var_log/kube-system_pod%d/c/0.log", i), body: line})
		w, _ := zw.Create(fmt.Sprintf(`system\eks\log%d.log`, i))
		w.Write([]byte(line))
	}
	zw.Close()
	tgz := tarGz(t, es...)
	measure := func(name string, read func() (*Bundle, error)) {
		read() // tables built once
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b, err := read()
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(b.Logs.Hits) == 0 || b.Logs.Hits[0].Finding != "runtime.unauthorized" {
			t.Errorf("%s: hits %+v, want runtime.unauthorized", name, b.Logs.Hits)
		}
		per := (after.TotalAlloc - before.TotalAlloc) / n
		t.Logf("%s: %d bytes allocated per member", name, per)
		if per > 16<<10 {
			t.Errorf("%s: %d bytes allocated per member, want at most 16 KiB", name, per)
		}
	}
	measure("tar.gz", func() (*Bundle, error) { return ReadTarGz(bytes.NewReader(tgz), "many.tar.gz", DefaultLimits) })
	measure("zip", func() (*Bundle, error) {
		return ReadZip(bytes.NewReader(zb.Bytes()), int64(zb.Len()), "eks_i-0abc123_20260724T1602400000Z.zip", DefaultLimits)
	})
}
