package bundle

// Adversarial and damaged bundles generated at test time (issue 12): truncated and corrupt
// gzip streams inside and around the archive, unreadable zip members, bad tar headers, damaged
// settings.json, a bundle without nodeadm's configuration, extracted and symlinked folders.

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const fixtureDir = "../../fixtures/bundles/"

// fixtureEntries reads a fixture .tar.gz bundle into entries (regular files and directories).
func fixtureEntries(t testing.TB, file string) []entry {
	t.Helper()
	f, err := os.Open(fixtureDir + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var out []entry
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		out = append(out, entry{name: h.Name, body: string(b), typ: h.Typeflag})
	}
}

func gz(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

func problemFor(b *Bundle, p string) string {
	for _, x := range b.Problems {
		if x.Path == p {
			return x.Problem
		}
	}
	return ""
}

func findingOf(fs []checks.Finding, id string) *checks.Finding {
	for i := range fs {
		if fs[i].ID == id {
			return &fs[i]
		}
	}
	return nil
}

const ipamdErr = `{"level":"error","ts":"2026-07-24T15:30:02.000Z","caller":"ipamd/ipamd.go:1","msg":"Failed to increase pool size due to not able to allocate ENI AllocENI: error attaching ENI: attachENI: failed to attach ENI:AttachmentLimitExceeded"}` + "\n"

func TestHostileTruncatedRotatedGzMember(t *testing.T) {
	rotated := gz(strings.Repeat(unauthorized, 200))
	es := []entry{
		{name: "./kubelet/", typ: tar.TypeDir},
		{name: "./kubelet/kubelet.log", body: "Jul 24 15:29:00.000001 h kubelet[1]: I0724 15:29:00.1 1 x.go:1] starting\n"},
		{name: "./var_log/aws-routed-eni/ipamd.log.2026-07-24-15.gz", body: rotated[:len(rotated)/2]},
		{name: "./var_log/messages", body: unauthorized},
	}
	b, err := ReadTarGz(bytes.NewReader(tarGz(t, es...)), "cut.tar.gz", DefaultLimits)
	if err != nil {
		t.Fatalf("a truncated compressed log inside an intact archive is a member problem, not a failed read: %v", err)
	}
	msg := problemFor(b, "var_log/aws-routed-eni/ipamd.log.2026-07-24-15.gz")
	if !b.Damaged || !strings.Contains(msg, "truncated") || !strings.Contains(msg, "uncompressed bytes") || !strings.Contains(msg, "byte ") {
		t.Fatalf("damaged=%v problem=%q; want the member and the offset", b.Damaged, msg)
	}
	if !contains(b.Files, "var_log/messages") {
		t.Errorf("reading stopped at the damaged member: files %v", b.Files)
	}
}

func TestHostileCorruptGzipTrailer(t *testing.T) {
	good := tarGz(t, entry{name: "./kubelet/", typ: tar.TypeDir}, entry{name: "./kubelet/kubelet.log", body: strings.Repeat(unauthorized, 50)})
	flip := func(i int) []byte { c := bytes.Clone(good); c[i] ^= 0x55; return c }
	for name, in := range map[string][]byte{
		"bad CRC":      flip(len(good) - 7),
		"bad ISIZE":    flip(len(good) - 3),
		"cut in CRC":   good[:len(good)-5],
		"cut in ISIZE": good[:len(good)-1],
	} {
		b, err := ReadTarGz(bytes.NewReader(in), name, DefaultLimits)
		if err != nil {
			t.Errorf("%s: %v (what was read is kept)", name, err)
			continue
		}
		if !b.Damaged || !strings.Contains(fmt.Sprint(b.Problems), "gzip stream is damaged after the last member, at byte") {
			t.Errorf("%s: damaged=%v problems=%+v; the trailer must be verified", name, b.Damaged, b.Problems)
		}
	}
	if b, err := ReadTarGz(bytes.NewReader(good), "good", DefaultLimits); err != nil || b.Damaged {
		t.Errorf("intact: %v %+v", err, b.Problems)
	}
}

func TestHostileBadTarHeaderMidArchive(t *testing.T) {
	// uncompressed tar: kubelet.log (with the cause), then a member whose header checksum is broken
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	for _, e := range []entry{{name: "./kubelet/kubelet.log", body: unauthorized}, {name: "./var_log/messages", body: "x\n"}} {
		tw.WriteHeader(&tar.Header{Name: e.name, Typeflag: tar.TypeReg, Size: int64(len(e.body)), Mode: 0o644})
		tw.Write([]byte(e.body))
	}
	tw.Close()
	tb := raw.Bytes()
	second := 512 + (len(unauthorized)+511)/512*512
	copy(tb[second+148:], "9999999\x00") // the header checksum
	b, err := ReadTarGz(bytes.NewReader([]byte(gz(string(tb)))), "badheader.tgz", DefaultLimits)
	if err != nil {
		t.Fatalf("what was read before the bad header is a partial result: %v", err)
	}
	msg := problemFor(b, "./kubelet/kubelet.log")
	if !b.Damaged || !strings.Contains(msg, "damaged after this member") || !strings.Contains(msg, fmt.Sprintf("at byte %d of the uncompressed archive", second)) {
		t.Errorf("problem = %q; want the member before the bad header and the offset %d", msg, second)
	}
	if len(b.Logs.Hits) == 0 || b.Logs.Hits[0].Finding != "runtime.unauthorized" {
		t.Errorf("the lines read before the damage are lost: %+v", b.Logs.Hits)
	}
}

// zipWith builds a zip of the named files.
func zipWith(t *testing.T, files map[string]string) []byte {
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, n := range []string{`system\kubelet\kubelet-service.csv`, `system\sysinfo`, `system\kubelet\kubeconfig`} {
		if body, ok := files[n]; ok {
			w, _ := zw.Create(n)
			w.Write([]byte(body))
		}
	}
	zw.Close()
	return zb.Bytes()
}

func TestHostileZipMembersUnreadable(t *testing.T) {
	data := zipWith(t, map[string]string{`system\kubelet\kubelet-service.csv`: unauthorized, `system\sysinfo`: "Windows\n"})
	// lower the central directory offset by one: Go's reader then assumes one byte of
	// prepended data and every local header it looks for is off by one
	bad := bytes.Clone(data)
	eocd := bytes.LastIndex(bad, []byte("PK\x05\x06"))
	off := binary.LittleEndian.Uint32(bad[eocd+16:])
	binary.LittleEndian.PutUint32(bad[eocd+16:], off-1)
	_, err := ReadZip(bytes.NewReader(bad), int64(len(bad)), "allbad.zip", DefaultLimits)
	if err == nil || !strings.Contains(err.Error(), "none of its 2 members could be read") {
		t.Fatalf("err = %v; a zip whose members all fail is an input problem, not a clean read", err)
	}
	// one member's data corrupted: CRC-32 mismatch, the other member still read
	c := bytes.Clone(data)
	i := bytes.Index(c, []byte("Unable")) // the data is deflated: corrupt inside the first member.s data
	if i < 0 {
		i = 30 + len(`system\kubelet\kubelet-service.csv`) + 5
	}
	c[i] ^= 0xff
	b, err := ReadZip(bytes.NewReader(c), int64(len(c)), "onebad.zip", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if msg := problemFor(b, "system/kubelet/kubelet-service.csv"); !b.Damaged || !strings.Contains(msg, "corrupt") || !strings.Contains(msg, "member data at byte") {
		t.Errorf("damaged=%v problem=%q", b.Damaged, msg)
	}
}

func TestHostileExtractedLogdogFolder(t *testing.T) {
	for _, name := range []string{"bottlerocket-logs", "renamed-by-user"} {
		dir := filepath.Join(t.TempDir(), name)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "journalctl.log"), []byte(unauthorized), 0o644)
		os.WriteFile(filepath.Join(dir, "logdog.errors"), nil, 0o644)
		b, err := Open(dir, DefaultLimits)
		if err != nil {
			t.Fatalf("%s: the extracted logdog folder itself: %v", name, err)
		}
		if b.Kind != KindBottlerocket || len(b.Logs.Hits) != 1 {
			t.Errorf("%s: kind %q hits %+v", name, b.Kind, b.Logs.Hits)
		}
		link := filepath.Join(t.TempDir(), "link")
		if os.Symlink(filepath.Dir(dir), link) == nil {
			// a symlink to the folder that holds bottlerocket-logs/
			if b, err := Open(link, DefaultLimits); name == "bottlerocket-logs" && (err != nil || b.Kind != KindBottlerocket) {
				t.Errorf("symlinked bundle directory: %v", err)
			}
		}
	}
}

func TestHostileBottlerocketSettingsDamaged(t *testing.T) {
	base := fixtureEntries(t, "bottlerocket-unauthorized.tar.gz")
	for _, doc := range []string{"", "{not json", "[1,2]", "null", `"settings"`} {
		es := append([]entry(nil), base...)
		for i := range es {
			if strings.HasSuffix(es[i].name, "settings.json") {
				es[i].body = doc
			}
		}
		b, err := ReadTarGz(bytes.NewReader(tarGz(t, es...)), "br.tgz", DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		ev := b.Evidence()
		if msg := problemFor(b, "settings.json"); !strings.Contains(msg, "settings.json is") {
			t.Errorf("%q: the bundle file is not reported: %+v", doc, b.Problems)
		}
		if ev.Have(evidence.KindBootstrap) || !strings.Contains(ev.GapFor(evidence.KindBootstrap).Reason, "settings.json") {
			t.Errorf("%q: bootstrap = %+v gap %q", doc, ev.Bootstrap, ev.GapFor(evidence.KindBootstrap).Reason)
		}
		fs := checks.Run(checks.All(), ev)
		for _, id := range []string{"bootstrap.userdata-unparseable", "bootstrap.no-bootstrap"} {
			if f := findingOf(fs, id); f == nil || f.Status == checks.StatusFail {
				t.Errorf("%q: %s blames the user data for the bundle's settings.json: %+v", doc, id, f)
			}
		}
		if f := findingOf(fs, "runtime.unauthorized"); f == nil || f.Status != checks.StatusFail {
			t.Errorf("%q: the log finding is lost: %+v", doc, f)
		}
	}
}

func TestHostileAL2023WithoutNodeadmConfigLog(t *testing.T) {
	var es []entry
	for _, e := range fixtureEntries(t, "eks_i-0a1b2c3d4e5f60001_2026-07-24_1602-UTC_0.7.9-al2023-tls-untrusted.tar.gz") {
		if !strings.HasSuffix(e.name, "nodeadm/nodeadm-config.log") {
			es = append(es, e)
		}
	}
	b, err := ReadTarGz(bytes.NewReader(tarGz(t, es...)), "al2023.tgz", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ev := b.Evidence()
	if ev.Have(evidence.KindBootstrap) || !strings.Contains(ev.GapFor(evidence.KindBootstrap).Reason, "nodeadm-config.log") {
		t.Errorf("bootstrap gap = %q", ev.GapFor(evidence.KindBootstrap).Reason)
	}
	reg := checks.Default()
	fs := checks.Run(reg.All(), ev)
	if f := findingOf(fs, "bootstrap.no-bootstrap"); f == nil || f.Status == checks.StatusFail {
		t.Errorf("bootstrap.no-bootstrap fails for a log that is simply not in the bundle: %+v", f)
	}
	d := checks.Conclude(fs, reg.Metas(), ev)
	if d.MostLikelyCause != "runtime.tls-untrusted" {
		t.Errorf("most likely cause = %v, want runtime.tls-untrusted", d.MostLikelyCause)
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// FuzzSettingsJSON feeds arbitrary bytes to the Bottlerocket settings.json readers: the logdog
// bundle's (through Evidence) and a pasted one's (SettingsBootstrap). A damaged file is the
// bundle's input problem, never a crash, never blamed on user data.
func FuzzSettingsJSON(f *testing.F) {
	f.Add([]byte(`{"os":{"variant_id":"aws-k8s-1.31"},"settings":{"aws":{"region":"eu-west-1"},"kubernetes":{"cluster-name":"prod","api-server":"https://x","max-pods":29,"node-labels":{"a":"b"},"provider-id":"aws:///eu-west-1a/i-1"}}}`))
	f.Add([]byte(`{"kubernetes":{"cluster-dns-ip":["10.100.0.10"],"max-pods":"x"}}`))
	f.Add([]byte(`[1]`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := &Bundle{Kind: KindBottlerocket, Name: "fuzz", Configs: map[string][]byte{"settings.json": data}, Logs: &evidence.NodeLogs{}}
		ev := b.Evidence()
		if ev.Have(evidence.KindBootstrap) == (problemFor(b, "settings.json") != "") {
			t.Fatalf("settings.json is either read or reported: bootstrap=%v problems=%+v", ev.Have(evidence.KindBootstrap), b.Problems)
		}
		if cfg := SettingsBootstrap(data); cfg == nil {
			t.Fatal("nil config")
		}
	})
}

// FuzzKubeconfig feeds arbitrary bytes to the kubelet kubeconfig readers (client-go's
// clientcmd for the exec plugin's cluster name, the server regexp, KubeconfigBootstrap) of Linux
// and Windows bundles.
func FuzzKubeconfig(f *testing.F) {
	f.Add([]byte("apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://x.gr7.eu-west-1.eks.amazonaws.com\n  name: kubernetes\nusers:\n- name: kubelet\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: [eks, get-token, --cluster-name, prod, --region, eu-west-1]\n"))
	f.Add([]byte("users:\n- name: u\n  user:\n    exec: {args: [-i]}\n"))
	f.Add([]byte("\ufeffserver: https://x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range []*Bundle{
			{Kind: KindEKSWindows, Name: "eks_i-0123456789abcdef0_x.zip", Configs: map[string][]byte{"system/kubelet/kubeconfig": data}, Logs: &evidence.NodeLogs{}},
			{Kind: KindEKSLinux, Name: "fuzz", Configs: map[string][]byte{"kubelet/kubeconfig.yaml": data, "var_log/cloud-init-output.log": []byte("[eks-bootstrap] INFO: --b64-cluster-ca='x'\n")}, Logs: &evidence.NodeLogs{}},
			{Kind: KindEKSLinux, Name: "fuzz", Configs: map[string][]byte{"kubelet/kubeconfig.yaml": data}, Logs: &evidence.NodeLogs{}}, // the kubeconfig alone
		} {
			_ = b.Evidence()
		}
		execCluster(data)
		if cfg := KubeconfigBootstrap(data); cfg == nil || !cfg.KubeconfigOnly {
			t.Fatalf("KubeconfigBootstrap: %+v", cfg)
		}
	})
}

// TestHostileAppendedArchive: a second tar appended after the first's end-of-archive marker (cat
// a.tar b.tar | gzip) is read too, and the report says so; its members are not lost unsaid.
func TestHostileAppendedArchive(t *testing.T) {
	tarOf := func(e entry) []byte {
		var raw bytes.Buffer
		tw := tar.NewWriter(&raw)
		tw.WriteHeader(&tar.Header{Name: e.name, Typeflag: tar.TypeReg, Size: int64(len(e.body)), Mode: 0o644})
		tw.Write([]byte(e.body))
		tw.Close()
		return raw.Bytes()
	}
	a := tarOf(entry{name: "./system/instance-id.txt", body: "i-0123456789abcdef0\n"})
	b := tarOf(entry{name: "./kubelet/kubelet.log", body: strings.Repeat(unauthorized, 5)})
	got, err := ReadTarGz(bytes.NewReader([]byte(gz(string(a)+string(b)))), "appended.tgz", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if got.Damaged || !strings.Contains(fmt.Sprint(got.Problems), "another tar archive follows the end-of-archive marker") {
		t.Errorf("damaged=%v problems=%+v; want the appended archive noted", got.Damaged, got.Problems)
	}
	if len(got.Logs.Hits) == 0 || got.Logs.Hits[0].Finding != "runtime.unauthorized" {
		t.Errorf("the appended archive's log was not read: %+v", got.Logs.Hits)
	}
	// the end marker's zero padding alone is no second archive
	if one, err := ReadTarGz(bytes.NewReader([]byte(gz(string(b)))), "one.tgz", DefaultLimits); err != nil || len(one.Problems) > 0 {
		t.Errorf("one archive: %v %+v", err, one.Problems)
	}
}

// TestHostileDuplicateMember: a member the archive holds twice is read once, the first copy, and
// the second is listed as skipped; a healthy copy after a failing one does not merge into it.
func TestHostileDuplicateMember(t *testing.T) {
	healthy := "Jul 24 15:31:00 ip-10-0-1-2 kubelet[2841]: I0724 15:31:00.000000    2841 kubelet_node_status.go:78] \"Successfully registered node\" node=\"ip-10-0-1-2\"\n"
	in := tarGz(t, entry{name: "./kubelet/", typ: tar.TypeDir}, entry{name: "./kubelet/kubelet.log", body: strings.Repeat(unauthorized, 5)},
		entry{name: "./kubelet/kubelet.log", body: healthy})
	b, err := ReadTarGz(bytes.NewReader(in), "dup.tgz", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if msg := problemFor(b, "./kubelet/kubelet.log"); !strings.Contains(msg, "more than once") {
		t.Errorf("problems %+v; want the second copy listed", b.Problems)
	}
	for _, h := range b.Logs.Hits {
		if h.Milestone == "registered" {
			t.Errorf("the second copy was read: %+v", h)
		}
	}
}

// TestUncompressedTarBundle: a bundle someone un-gzipped (a plain tar, "ustar" at offset 257) is
// read like the .tar.gz it came from.
func TestUncompressedTarBundle(t *testing.T) {
	gzipped := tarGz(t, entry{name: "./kubelet/", typ: tar.TypeDir}, entry{name: "./kubelet/kubelet.log", body: strings.Repeat(unauthorized, 5)})
	zr, err := gzip.NewReader(bytes.NewReader(gzipped))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !IsTar(plain[:262]) {
		t.Fatal("IsTar: no")
	}
	p := filepath.Join(t.TempDir(), "eks_i-0123456789abcdef0.tar")
	if err := os.WriteFile(p, plain, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Open(p, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if b.Damaged || len(b.Logs.Hits) == 0 || b.Logs.Hits[0].Finding != "runtime.unauthorized" {
		t.Errorf("damaged=%v problems=%+v hits=%+v", b.Damaged, b.Problems, b.Logs.Hits)
	}
}

// TestImplausibleMtimeIsNotTheCollectionTime (red team round 2, F9): a member time of 0 (a
// reproducible archive), a negative or a far-future one is not the bundle's collection time,
// and year-less journal lines do not take their year from it (1969, 1810, 5138); a plausible
// member time among them still counts.
func TestImplausibleMtimeIsNotTheCollectionTime(t *testing.T) {
	for _, mt := range []time.Time{time.Unix(0, 0), time.Unix(-5e9, 0), time.Unix(1e11, 0)} {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		tw := tar.NewWriter(zw)
		add := func(name, body string, when time.Time) {
			if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Size: int64(len(body)), Mode: 0o644, ModTime: when, Format: tar.FormatPAX}); err != nil {
				t.Fatal(err)
			}
			_, _ = tw.Write([]byte(body))
		}
		add("bottlerocket-logs/journalctl.log", unauthorized, mt)
		_ = tw.Close()
		_ = zw.Close()
		b, err := ReadTarGz(bytes.NewReader(buf.Bytes()), "mt", DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if !b.Newest.IsZero() {
			t.Errorf("mtime %v: collection time %v", mt, b.Newest)
		}
		for _, h := range b.Logs.Hits {
			if !h.First.Time.IsZero() {
				t.Errorf("mtime %v: a year-less line dated %v", mt, h.First.Time)
			}
		}
	}
}

// TestNestedArchiveIsListed: a bundle packed inside another (eks_nested.tar.gz holding
// kubelet/inner.tar.gz) is not opened, and is listed as an input problem so that the report
// does not look as if the bundle held nothing more; a rotated log's .gz is still read.
func TestNestedArchiveIsListed(t *testing.T) {
	inner := tarGz(t, entry{name: "./kubelet/kubelet.log", body: unauthorized})
	in := tarGz(t, entry{name: "./system/uname.txt", body: "x\n"}, entry{name: "./kubelet/inner.tar.gz", body: string(inner)},
		entry{name: "./var_log/other.ZIP", body: "PK"}, entry{name: "./var_log/aws-routed-eni/ipamd.log.1.gz", body: gz("ipamd\n")},
		entry{name: "./kernel/uname.txt", body: "Linux\n"})
	b, err := ReadTarGz(bytes.NewReader(in), "nested.tgz", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"./kubelet/inner.tar.gz", "./var_log/other.ZIP"} {
		if msg := problemFor(b, name); msg != NestedArchiveProblem {
			t.Errorf("%s: problem %q; want %q (all: %+v)", name, msg, NestedArchiveProblem, b.Problems)
		}
	}
	if !strings.Contains(NestedArchiveProblem, "archive inside the bundle") || !strings.Contains(NestedArchiveProblem, "analyze it on its own") {
		t.Errorf("message %q", NestedArchiveProblem)
	}
	if len(b.Problems) != 2 {
		t.Errorf("problems %+v; want the two archives only", b.Problems)
	}
	if b.Damaged {
		t.Error("a nested archive is listed, not damage")
	}
	if len(b.Logs.Hits) != 0 {
		t.Errorf("the inner archive was read: %+v", b.Logs.Hits)
	}
	var streams []string
	for _, s := range b.Logs.Streams {
		streams = append(streams, s.Path)
	}
	if fmt.Sprint(streams) != "[var_log/aws-routed-eni/ipamd.log.1.gz]" {
		t.Errorf("streams %v; want the rotated log only", streams)
	}
}
