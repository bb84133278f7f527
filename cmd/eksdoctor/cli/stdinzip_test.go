package cli

import (
	"archive/zip"
	"bytes"
	"io"
	"math/rand"
	"runtime"
	"strings"
	"testing"
)

// TestStdinZipNotHeldInMemory: a zip read from standard input (`aws s3 cp s3://…/eks_i-….zip - |
// eksdoctor analyze -`) is spooled to a temporary file, not held in memory, and is read as the
// same zip given by path is. Red team 8b #14: a 300 MB zip on stdin took 849 MB of RSS, the
// same file by path 59 MB.
func TestStdinZipNotHeldInMemory(t *testing.T) {
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create(`system\kubelet\kubelet-service.csv`)
	io.WriteString(w, "#TYPE x\r\n\"Message\"\r\n\""+`Jul 24 15:30:02.000001 h kubelet[1]: E0724 15:30:02.1 1 x.go:1] ""Unable to register node with API server"" err=""Unauthorized""`+"\"\r\n")
	w, _ = zw.CreateHeader(&zip.FileHeader{Name: `system\sysinfo-blob.bin`, Method: zip.Store})
	blob := make([]byte, 16<<20) // incompressible, stored: the zip is about 16 MiB
	rand.New(rand.NewSource(1)).Read(blob)
	w.Write(blob)
	zw.Close()
	data := zb.Bytes()
	runStdin(bytes.NewReader(data), "analyze", "-", "-o", "json") // tables built once
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code, out, errOut := runStdin(io.MultiReader(bytes.NewReader(data)), "analyze", "-", "-o", "json")
	runtime.ReadMemStats(&after)
	if code != ExitFindings || !strings.Contains(out, "runtime.unauthorized") {
		t.Fatalf("exit %d, want %d with runtime.unauthorized; stderr:\n%s", code, ExitFindings, errOut)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d MiB allocated for a %d MiB zip on stdin", alloc>>20, len(data)>>20)
	if alloc > uint64(len(data))/2 {
		t.Errorf("%d MiB allocated for a %d MiB zip on stdin: it is held in memory", alloc>>20, len(data)>>20)
	}
}
