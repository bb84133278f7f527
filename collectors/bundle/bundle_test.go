package bundle

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

type entry struct {
	name, body string
	typ        byte
	link       string
}

func tarGz(t testing.TB, entries ...entry) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Typeflag: typ, Size: int64(len(e.body)), Mode: 0o644, Linkname: e.link, ModTime: time.Date(2026, 7, 24, 16, 0, 0, 0, time.UTC)}
		if typ != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			_, _ = tw.Write([]byte(e.body))
		}
	}
	_ = tw.Close()
	_ = zw.Close()
	return buf.Bytes()
}

const unauthorized = `Jul 24 15:30:02.000001 h kubelet[1]: E0724 15:30:02.1 1 x.go:1] "Unable to register node with API server" err="Unauthorized"` + "\n"

func TestHostileMembersAreSkipped(t *testing.T) {
	data := tarGz(t,
		entry{name: "bottlerocket-logs/", typ: tar.TypeDir},
		entry{name: "bottlerocket-logs/journalctl.log", body: unauthorized},
		entry{name: "bottlerocket-logs/../../etc/passwd", body: "root:x:0:0"},
		entry{name: "/etc/shadow", body: "x"},
		entry{name: "bottlerocket-logs/settings.json", typ: tar.TypeSymlink, link: "/etc/shadow"},
		entry{name: "bottlerocket-logs/hard", typ: tar.TypeLink, link: "bottlerocket-logs/journalctl.log"},
		entry{name: "bottlerocket-logs/dev", typ: tar.TypeChar},
		entry{name: "bottlerocket-logs/fifo", typ: tar.TypeFifo},
	)
	b, err := ReadTarGz(bytes.NewReader(data), "hostile", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Problems) != 6 {
		t.Fatalf("want 6 skipped members, got %+v", b.Problems)
	}
	for _, f := range b.Files {
		if strings.Contains(f, "passwd") || strings.Contains(f, "shadow") {
			t.Errorf("hostile member read: %s", f)
		}
	}
	if len(b.Logs.Hits) != 1 || b.Logs.Hits[0].Finding != "runtime.unauthorized" {
		t.Errorf("hits %+v", b.Logs.Hits)
	}
	if b.Kind != KindBottlerocket {
		t.Errorf("kind %q", b.Kind)
	}
}

func TestGzipBombHitsLimit(t *testing.T) {
	big := strings.Repeat("\x00", 8<<20)
	data := tarGz(t, entry{name: "./kubelet/", typ: tar.TypeDir}, entry{name: "./kubelet/kubelet.log", body: big})
	if len(data) > 64<<10 {
		t.Fatalf("bomb not compressed: %d", len(data))
	}
	_, err := ReadTarGz(bytes.NewReader(data), "bomb", Limits{MaxBytes: 1 << 20})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "--max-bytes") {
		t.Fatalf("want a limit error naming --max-bytes, got %v", err)
	}
}

func TestMemberLimit(t *testing.T) {
	var es []entry
	for i := 0; i < 50; i++ {
		es = append(es, entry{name: "./var_log/f" + strings.Repeat("x", i%5) + string(rune('a'+i%26)), body: "x"})
	}
	_, err := ReadTarGz(bytes.NewReader(tarGz(t, es...)), "many", Limits{MaxMembers: 10})
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v", err)
	}
}

func TestTruncatedAndCorrupt(t *testing.T) {
	data := tarGz(t, entry{name: "./kubelet/", typ: tar.TypeDir}, entry{name: "./kubelet/kubelet.log", body: strings.Repeat(unauthorized, 2000)})
	// cut inside a member: what was read is kept, reported as damage (hostile_test.go)
	if b, err := ReadTarGz(bytes.NewReader(data[:len(data)/2]), "truncated", DefaultLimits); err != nil || !b.Damaged {
		t.Errorf("truncated: err=%v, want a damaged partial result", err)
	}
	for name, in := range map[string][]byte{
		"not gzip": []byte("\x1f\x8bgarbage that is not deflate"),
		"empty":    {},
	} {
		_, err := ReadTarGz(bytes.NewReader(in), name, DefaultLimits)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error does not name the input: %v", name, err)
		}
	}
	// a zip whose central directory is cut off
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create(`system\kubelet\kubelet-service.csv`)
	_, _ = w.Write([]byte(unauthorized))
	_ = zw.Close()
	bad := zb.Bytes()[:zb.Len()-10]
	if _, err := ReadZip(bytes.NewReader(bad), int64(len(bad)), "bad.zip", DefaultLimits); err == nil || !strings.Contains(err.Error(), "corrupt zip") {
		t.Fatalf("bad central directory: %v", err)
	}
}

func TestNotABundle(t *testing.T) {
	data := tarGz(t, entry{name: "README.md", body: "hello"})
	if _, err := ReadTarGz(bytes.NewReader(data), "x.tgz", DefaultLimits); !errors.Is(err, ErrNotBundle) {
		t.Fatalf("got %v", err)
	}
	p := filepath.Join(t.TempDir(), "plain.txt")
	_ = os.WriteFile(p, []byte("text"), 0o644)
	if _, err := Open(p, DefaultLimits); !errors.Is(err, ErrNotBundle) {
		t.Fatalf("got %v", err)
	}
}

// TestDirectoryNeverFollowsSymlinks: an extracted bundle with a symlink pointing outside.
func TestDirectoryNeverFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	_ = os.MkdirAll(filepath.Join(dir, "kubelet"), 0o755)
	_ = os.WriteFile(filepath.Join(dir, "kubelet", "kubelet.log"), []byte(unauthorized), 0o644)
	secret := filepath.Join(t.TempDir(), "secret.log")
	_ = os.WriteFile(secret, []byte("x509: certificate signed by unknown authority\n"), 0o644)
	if err := os.Symlink(secret, filepath.Join(dir, "kubelet", "other.log")); err != nil {
		t.Skip(err)
	}
	_ = os.Symlink(secret, filepath.Join(dir, "var_log"))
	b, err := Open(dir, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range b.Logs.Hits {
		if h.Finding == "runtime.tls-untrusted" {
			t.Fatal("followed a symlink")
		}
	}
	if len(b.Problems) != 2 {
		t.Errorf("problems %+v", b.Problems)
	}
}

// TestWindowsZipBackslashes: PowerShell 5.1 entry names with backslashes, UTF-16 files.
func TestWindowsZipBackslashes(t *testing.T) {
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for name, body := range map[string]string{
		`system\sysinfo`:                     "\xff\xfeH\x00i\x00",
		`system\kubelet\kubelet-service.csv`: "#TYPE x\r\n\"Message\"\r\n\"" + strings.ReplaceAll(strings.TrimSpace(unauthorized), `"`, `""`) + "\"\r\n",
		`system\kubelet\kubeconfig`:          "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://X.gr7.eu-west-1.eks.amazonaws.com\n  name: k\nusers:\n- name: kubelet\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws-iam-authenticator\n      args: [token, -i, prod, --region, eu-west-1]\n",
		`system\kubelet\kubelet-config.json`: "\ufeff{\"clusterDNS\":[\"172.20.0.10\"],\"maxPods\":17}",
	} {
		w, _ := zw.Create(name)
		_, _ = w.Write([]byte(body))
	}
	_ = zw.Close()
	b, err := ReadZip(bytes.NewReader(zb.Bytes()), int64(zb.Len()), "eks_i-0abc123_20260724T1602400000Z.zip", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if b.Kind != KindEKSWindows {
		t.Fatalf("kind %s", b.Kind)
	}
	ev := b.Evidence()
	if ev.Target.InstanceID != "i-0abc123" || ev.Target.Region != "eu-west-1" || ev.Bootstrap.ClusterName != "prod" || *ev.Bootstrap.MaxPods != 17 {
		t.Fatalf("target %+v bootstrap %+v", ev.Target, ev.Bootstrap)
	}
	if len(b.Logs.Hits) != 1 || b.Logs.Hits[0].Finding != "runtime.unauthorized" {
		t.Fatalf("hits %+v", b.Logs.Hits)
	}
}

// TestUTF16ConfigAndColouredLog: a log held in memory as configuration (cloud-init output) is
// decoded from UTF-16 like the streamed logs, and a log written with terminal colours is
// matched as the terminal shows it, even where a colour code splits a message.
func TestUTF16ConfigAndColouredLog(t *testing.T) {
	utf16le := func(s string) string {
		var b strings.Builder
		b.WriteString("\xff\xfe")
		for _, r := range s {
			b.WriteByte(byte(r))
			b.WriteByte(0)
		}
		return b.String()
	}
	for _, tc := range []struct{ name, member, body string }{
		{"utf-16 cloud-init output", "./var_log/cloud-init-output.log", utf16le("+ /etc/eks/bootstrap.sh prod\r\nExited with error on line 410\r\n")},
		{"coloured kubelet log", "./kubelet/kubelet.log", "\x1b[0;1;31mE0724 16:00:00.000000 1 kubelet_node_status.go:92] \"Unable to register node with API server\" err=\"\x1b[01;31m\x1b[KUnauth\x1b[m\x1b[Korized\" node=\"ip-10-0-1-2.ec2.internal\"\x1b[0m\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := tarGz(t, entry{name: "./system/instance-id.txt", body: "i-0123456789abcdef0\n"}, entry{name: tc.member, body: tc.body})
			b, err := ReadTarGz(bytes.NewReader(data), "eks_i-0123456789abcdef0.tar.gz", DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Logs.Hits) == 0 {
				t.Fatalf("no hits in %s; streams %+v", tc.member, b.Logs.Streams)
			}
			for _, h := range b.Logs.Hits {
				if h.Finding != "runtime.bootstrap-failed" && h.Finding != "runtime.unauthorized" {
					t.Errorf("hit %s %s", h.Signature, h.Finding)
				}
			}
		})
	}
}

func FuzzReadTarGz(f *testing.F) {
	f.Add(tarGz(f, entry{name: "bottlerocket-logs/settings.json", body: `{"settings":{"kubernetes":{"max-pods":1}}}`}))
	f.Add(tarGz(f, entry{name: "./nodeadm/nodeadm-config.log", body: "x Loaded configuration {\"config\":{\"spec\":{}}}\n"}, entry{name: "./kubelet/kubelet.log", body: unauthorized}))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadTarGz(bytes.NewReader(data), "fuzz", Limits{MaxBytes: 4 << 20, MaxMembers: 100})
		if err == nil {
			_ = b.Evidence()
		}
	})
}

func FuzzReadZip(f *testing.F) {
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create(`system\kubelet\kubeconfig`)
	_, _ = w.Write([]byte("server: https://x\n"))
	_ = zw.Close()
	f.Add(zb.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadZip(bytes.NewReader(data), int64(len(data)), "fuzz.zip", Limits{MaxBytes: 4 << 20, MaxMembers: 100})
		if err == nil {
			_ = b.Evidence()
		}
	})
}

// BenchmarkReadEKSLinuxBundle reads a 64 MiB-uncompressed EKS Linux bundle of healthy journal
// lines end to end (gunzip, tar, signature scan, evidence); b.SetBytes reports uncompressed MB/s.
func BenchmarkReadEKSLinuxBundle(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 64<<20; i++ {
		sb.WriteString("Jul 24 15:30:02 ip-10-0-1-23.eu-west-1.compute.internal kubelet[2841]: I0724 15:30:02.118732    2841 reconciler_common.go:245] \"operationExecutor.VerifyControllerAttachedVolume started for volume\" volume=\"kube-api-access-x\"\n")
	}
	data := tarGz(b, entry{name: "./kubelet/", typ: tar.TypeDir}, entry{name: "./kubelet/kubelet.log", body: sb.String() + unauthorized})
	b.SetBytes(int64(sb.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bd, err := ReadTarGz(bytes.NewReader(data), "bench", DefaultLimits)
		if err != nil || len(bd.Logs.Hits) != 1 {
			b.Fatal(err)
		}
	}
}

// TestZipDeclaredMembers: a zip's declared member count is read from its end records (the
// ZIP64 one past 65,535 members) and a count over --max-members is refused before archive/zip
// holds the central directory.
func TestZipDeclaredMembers(t *testing.T) {
	for _, n := range []int{20, 70000} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i := 0; i < n; i++ {
			if _, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("f%d", i), Method: zip.Store}); err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		if got, ok := zipEntries(bytes.NewReader(data), int64(len(data))); !ok || got != uint64(n) {
			t.Fatalf("%d members: zipEntries = %d, %v", n, got, ok)
		}
		_, err := ReadZip(bytes.NewReader(data), int64(len(data)), "many.zip", Limits{MaxMembers: n - 1})
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), fmt.Sprintf("declares %d members", n)) {
			t.Fatalf("%d members, limit %d: %v", n, n-1, err)
		}
	}
	if _, ok := zipEntries(bytes.NewReader([]byte("not a zip at all")), 16); ok {
		t.Fatal("a text file has an end of central directory record")
	}
}

// TestBottlerocketBesideOtherEntries (red team round 8b, finding 03): a bottlerocket-logs/ folder
// is recognised when macOS metadata (__MACOSX/, AppleDouble ._ files, .DS_Store) or the tarball
// it came from sits beside it — `tar xzf bottlerocket-logs.tar.gz` leaves both — and with other
// files beside it too, which are listed; the metadata is not read.
func TestBottlerocketBesideOtherEntries(t *testing.T) {
	journal := `Jul 24 15:30:02 localhost kubelet[1]: E0724 15:30:02.1 1 x.go:1] "Unable to register node with API server" err="Unauthorized"` + "\n"
	br := []entry{{name: "bottlerocket-logs/", typ: tar.TypeDir}, {name: "bottlerocket-logs/os-release", body: "NAME=Bottlerocket\nVARIANT_ID=aws-k8s-1.29\n"}, {name: "bottlerocket-logs/journalctl.log", body: journal}}
	for name, extra := range map[string][]entry{
		"AppleDouble":       {{name: "._bottlerocket-logs", body: "\x00\x05\x16\x07junk"}, {name: "bottlerocket-logs/._journalctl.log", body: "\x00\x05\x16\x07junk"}},
		"__MACOSX":          {{name: "__MACOSX/", typ: tar.TypeDir}, {name: "__MACOSX/bottlerocket-logs/._journalctl.log", body: "\x00\x05\x16\x07junk"}, {name: ".DS_Store", body: "Bud1"}},
		"tarball beside it": {{name: "bottlerocket-logs.tar.gz", body: "\x1f\x8b\x08\x00"}},
		"notes beside it":   {{name: "notes.txt", body: "node i-0abc never joined"}},
	} {
		b, err := ReadTarGz(bytes.NewReader(tarGz(t, append(append([]entry{}, extra...), br...)...)), "br.tar.gz", DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.Kind != KindBottlerocket {
			t.Errorf("%s: kind %s", name, b.Kind)
		}
		if len(b.Logs.Hits) != 1 || b.Logs.Hits[0].Finding != "runtime.unauthorized" {
			t.Errorf("%s: hits %+v", name, b.Logs.Hits)
		}
		for _, f := range b.Files {
			if strings.Contains(f, "__MACOSX") || strings.HasPrefix(filepath.Base(f), "._") || f == ".DS_Store" {
				t.Errorf("%s: macOS metadata %s read as a member", name, f)
			}
		}
		if name == "notes beside it" {
			found := false
			for _, p := range b.Problems {
				found = found || p.Path == "notes.txt" && strings.Contains(p.Problem, "beside bottlerocket-logs/")
			}
			if !found {
				t.Errorf("%s: the entry beside the folder is not listed: %+v", name, b.Problems)
			}
		}
	}
	// an EKS Linux bundle that holds a bottlerocket-logs/ folder stays an EKS Linux bundle
	b, err := ReadTarGz(bytes.NewReader(tarGz(t, append([]entry{{name: "kubelet/kubelet.log", body: unauthorized}}, br...)...)), "eks.tar.gz", DefaultLimits)
	if err != nil || b.Kind != KindEKSLinux {
		t.Fatalf("EKS Linux with a bottlerocket-logs/ folder: %v %v", b, err)
	}
}

// TestBundleOneLevelDownIsRead: a bundle under one wrapper folder (an extracted bundle packed
// again: eks_i-0abc/kubelet/…, support/bottlerocket-logs/…) is read as the bundle, and a member
// outside that folder is listed, not read; an archive holding one bundle archive at its top (a
// ticket's logs.zip holding eks_i-….tar.gz) is read through it when given as a file or a zip,
// its collection time from the inner name. A tar.gz on standard input cannot be read twice: the
// error still names the archive and how to give it, as it does for two archives (which one?).
// (Red team round 8b, finding 11, named these; they are now read.)
func TestBundleOneLevelDownIsRead(t *testing.T) {
	for name, c := range map[string]struct {
		entries []entry
		kind    string
		beside  string
	}{
		"wrapper folder": {[]entry{{name: "eks_i-0abc/", typ: tar.TypeDir}, {name: "eks_i-0abc/cni/", typ: tar.TypeDir}, {name: "eks_i-0abc/kubelet/kubelet.log", body: unauthorized}, {name: "eks_i-0abc/var_log/messages", body: "x\n"}}, KindEKSLinux, ""},
		"bottlerocket":   {[]entry{{name: "support/bottlerocket-logs/os-release", body: "NAME=Bottlerocket\n"}, {name: "support/bottlerocket-logs/journalctl.log", body: unauthorized}}, KindBottlerocket, ""},
		"file beside":    {[]entry{{name: "eks_i-0abc/kubelet/kubelet.log", body: unauthorized}, {name: "notes.txt", body: "hi\n"}}, KindEKSLinux, "notes.txt"},
	} {
		b, err := ReadTarGz(bytes.NewReader(tarGz(t, c.entries...)), "outer.tar.gz", DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.Kind != c.kind || !hasFinding(b, "runtime.unauthorized") {
			t.Errorf("%s: kind %s, files %v; want %s with the kubelet's 401", name, b.Kind, b.Files, c.kind)
		}
		if c.beside != "" && !strings.Contains(problemFor(b, c.beside), "beside the bundle's folder eks_i-0abc/") {
			t.Errorf("%s: problems %+v; want %s listed beside the bundle", name, b.Problems, c.beside)
		}
	}
	const innerName = "eks_i-0abc_2026-11-24_1000-UTC_0.7.8.tar.gz"
	inner := tarGz(t, entry{name: "./kubelet/kubelet.log", body: unauthorized}, entry{name: "./var_log/messages", body: "x\n"})
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create(innerName)
	_, _ = w.Write(inner)
	_ = zw.Close()
	dir := t.TempDir()
	for name, data := range map[string][]byte{"logs.zip": zb.Bytes(), "logs.tgz": tarGz(t, entry{name: innerName, body: string(inner)})} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		b, err := Open(p, DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.Kind != KindEKSLinux || b.Name != p+"/"+innerName || !hasFinding(b, "runtime.unauthorized") {
			t.Errorf("%s: kind %s name %s files %v; want the inner bundle read", name, b.Kind, b.Name, b.Files)
		}
		if want := time.Date(2026, 11, 24, 10, 0, 59, 0, time.UTC); !b.Newest.Equal(want) {
			t.Errorf("%s: collected %v, want %v (the inner archive's name)", name, b.Newest, want)
		}
	}
	if b, err := ReadZip(bytes.NewReader(zb.Bytes()), int64(zb.Len()), "stdin", DefaultLimits); err != nil || b.Kind != KindEKSLinux {
		t.Errorf("zip on stdin: %v", err)
	}
	for name, entries := range map[string][]entry{
		"tar.gz on stdin": {{name: innerName, body: string(inner)}},
		"two archives":    {{name: innerName, body: string(inner)}, {name: "eks_i-0def.tar.gz", body: string(inner)}},
	} {
		_, err := ReadTarGz(bytes.NewReader(tarGz(t, entries...)), "outer.tar.gz", DefaultLimits)
		if name == "two archives" {
			p := filepath.Join(dir, "two.tgz")
			_ = os.WriteFile(p, tarGz(t, entries...), 0o600)
			_, err = Open(p, DefaultLimits)
		}
		if !errors.Is(err, ErrNotBundle) || !strings.Contains(Hint(err), innerName) || !strings.Contains(Hint(err), "extract it") {
			t.Errorf("%s: %v (hint %q)", name, err, Hint(err))
		}
	}
	if _, err := ReadTarGz(bytes.NewReader(tarGz(t, entry{name: "README.md", body: "hello"})), "x.tgz", DefaultLimits); Hint(err) != "" || strings.Contains(err.Error(), "level down") {
		t.Errorf("no bundle inside, yet a hint: %v", err)
	}
}
