package bundle

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLimitKeepsWhatWasRead: a limit reached after a member was read whole keeps what was
// read (the failing finding of the first member) instead of ending with an error: the limit is
// listed at the member it stopped in and the bundle is damaged.
func TestLimitKeepsWhatWasRead(t *testing.T) {
	data := tarGz(t,
		entry{name: "./kubelet/kubelet.log", body: unauthorized},
		entry{name: "./var_log/messages", body: strings.Repeat("\n", 2<<20)},
		entry{name: "./var_log/cloud-init.log", body: "x\n"},
	)
	b, err := ReadTarGz(bytes.NewReader(data), "limited", Limits{MaxBytes: 1 << 20})
	if err != nil {
		t.Fatalf("--max-bytes after evidence: %v, want what was read kept", err)
	}
	if !b.Damaged || !strings.Contains(b.Limit, "--max-bytes") || !strings.Contains(problemFor(b, "var_log/messages"), "reading stopped here") {
		t.Errorf("limit not listed: damaged=%v limit=%q problems=%+v", b.Damaged, b.Limit, b.Problems)
	}
	if len(b.Logs.Hits) != 1 || b.Logs.Hits[0].Finding != "runtime.unauthorized" {
		t.Errorf("the finding read before the limit is lost: %+v", b.Logs.Hits)
	}

	// --max-members: the same
	b, err = ReadTarGz(bytes.NewReader(data), "members", Limits{MaxMembers: 2})
	if err != nil || !strings.Contains(b.Limit, "--max-members") || len(b.Logs.Hits) != 1 {
		t.Fatalf("--max-members after evidence: err=%v b=%+v", err, b)
	}
	if p := problemFor(b, "./var_log/cloud-init.log"); !strings.Contains(p, "more than 2 members") {
		t.Errorf("member limit listed at %+v", b.Problems)
	}
}

// TestDirectoryMemberOverLimitSkipped: a file of an extracted directory larger than what is
// left of --max-bytes (a sparse 20 GiB messages) is skipped at once and listed without calling
// it a gzip bomb; the files after it are still read.
func TestDirectoryMemberOverLimitSkipped(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "kubelet"), 0o755); err != nil {
		t.Fatal(err)
	}
	// journalctl.log sorts before kubelet/: the skip must not end the walk
	big := filepath.Join(dir, "journalctl.log")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64 << 30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(dir, "kubelet", "kubelet.log"), []byte(unauthorized), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	b, err := Open(dir, Limits{MaxBytes: 1 << 30})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("a sparse file over the limit took %v", took)
	}
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	p := problemFor(b, "journalctl.log")
	if !strings.Contains(p, "skipped") || !strings.Contains(p, "--max-bytes") || strings.Contains(p, "gzip bomb") {
		t.Errorf("journalctl.log: %q", p)
	}
	if !b.Damaged || b.Limit == "" || len(b.Logs.Hits) != 1 || b.Logs.Hits[0].Finding != "runtime.unauthorized" {
		t.Errorf("damaged=%v limit=%q hits=%+v", b.Damaged, b.Limit, b.Logs.Hits)
	}
}

// sparsePAX1T is GNU tar -S --format=pax -czf of kubelet/kubelet.log (two Unauthorized lines)
// and var_log/messages truncated to 1 TiB: 591 bytes that archive/tar would expand to 1 TiB.
const sparsePAX1T = "H4sIAAAAAAAAA+2XS2/iMBDHOedTWNwxHj8DEoce9tE9rCqtelpVyC0WzW5IkGO61X76NWijBCjloTSwW/8OJPI48gz2f2aM+zf6" +
	"+bPRE2OL/s/FvUmN6zQM8UjOV0/P5pMAox0QjADlTAo/DiC57KDnph15iUXhtPWutLHWBcIImrlkZkagBkKQGJjEsaBMEYhl5K36" +
	"VevDbuu5IwscAi5F33+7NZYaV0Ls1P/yfV3/VHLWQeLtXKoo9W/z/NXEt8++Gdw/QrX/23UAp/m0iTWOz/+cSAj5vw1ezv9efgpi" +
	"dlL+L789d2SBQ6j037Doa+zRPwCFTf0rxTuoFU2+8/z/ZZEiyhGIISNDAiiZ94D0SA96lGHzQHGSOWMznaK/5+M7IxTuhuiaqNp3" +
	"GCjjQiLP0l5OHmf5xIz9P+wWBZ7mQ0XvUPfKOTObuySbIpcja6ZJ4ZdAy6nd1e+ou9OLbnSywx/WHaYHOTzg3uHbTN+nZstZ9Ctx" +
	"j+jq5hoVxj4Z20XG2tFy9sI95jb5bSZHxxOfGE98MfGc+0AHjgLX+74nbcfNp//T7v889H9tEPq/9w0uRX9p938I9/82qPa/Vgdm" +
	"pij01BQNrbEv/7Ot/t+3Mizk/zagFH36eouLubaFwTP9I7cjiDZGk8yPkojF9dFM+8xfHZ/yzERM1WdZo9PCt44jIIOB8IWdKqVW" +
	"pePoslOzhrLTFNUG+k37ttqzj0lqMJVC0oYSwb77/3b+V1yE+38rQLQuTBIEFAgEAoFAIBAI/Lf8AZ0uWc8AKAAA"

// TestPAXSparseMemberSkipped: a PAX-format sparse member is skipped and listed as a sparse
// file, as a GNU-format one is, never expanded.
func TestPAXSparseMemberSkipped(t *testing.T) {
	data, err := base64.StdEncoding.DecodeString(sparsePAX1T)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	b, err := ReadTarGz(bytes.NewReader(data), "sparse_pax_1t.tar.gz", Limits{MaxBytes: 256 << 20})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("a 591-byte archive took %v", took)
	}
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if p := problemFor(b, "./var_log/messages"); !strings.Contains(p, "sparse") || !strings.Contains(p, "1099511627776 bytes declared") {
		t.Errorf("sparse member: %q (problems %+v)", p, b.Problems)
	}
	if b.Damaged || b.Bytes > 1<<20 {
		t.Errorf("damaged=%v bytes=%d", b.Damaged, b.Bytes)
	}
	if !hasFinding(b, "runtime.unauthorized") {
		t.Errorf("hits %+v", b.Logs.Hits)
	}
}

func hasFinding(b *Bundle, id string) bool {
	for _, h := range b.Logs.Hits {
		if h.Finding == id {
			return true
		}
	}
	return false
}

// TestIgnoredMemberCountsAgainstMaxBytes: a tar member eksdoctor does not read is decompressed
// all the same to reach the next header, so its declared size counts against --max-bytes (a
// few MiB of gzip holding an ignored terabyte member decompressed without bound); what was read
// before it is kept and the stop is listed.
func TestIgnoredMemberCountsAgainstMaxBytes(t *testing.T) {
	for _, name := range []string{"./storage/junk.img", "./kubelet/kubelet.log"} { // ignored, then a duplicate
		data := tarGz(t,
			entry{name: "./kubelet/kubelet.log", body: unauthorized},
			entry{name: name, body: strings.Repeat("\x00", 2<<20)},
		)
		b, err := ReadTarGz(bytes.NewReader(data), "ignored", Limits{MaxBytes: 1 << 20})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !b.Damaged || !strings.Contains(b.Limit, "declares 2097152 bytes") || len(b.Logs.Hits) != 1 {
			t.Errorf("%s: damaged=%v limit=%q hits=%d problems=%+v", name, b.Damaged, b.Limit, len(b.Logs.Hits), b.Problems)
		}
	}
}
