package logscan

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// healthyLine returns a typical journal line of a healthy node (no signature matches).
func healthyLine(i int) string {
	return fmt.Sprintf("Jul 24 15:%02d:%02d.%06d ip-10-0-1-23.eu-west-1.compute.internal kubelet[1711]: I0724 15:30:02.118732    1711 reconciler_common.go:%d] \"operationExecutor.VerifyControllerAttachedVolume started for volume\" volume=\"kube-api-access-%05d\" pod=\"kube-system/coredns-5d8f7b9c4-x%d\"\n", i/60%60, i%60, i%1000000, 200+i%50, i%99999, i%7)
}

func TestCatalogLoads(t *testing.T) {
	if _, _, err := LoadCatalog(catalogFS); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Catalog(), Components()); err != nil {
		t.Fatal(err)
	}
}

// TestCatalogValidation: each rule of LoadCatalog rejects a catalog that breaks it.
func TestCatalogValidation(t *testing.T) {
	const good = `component: c
presence: ['c-daemon[']
signatures:
  - name: c-fails
    finding: runtime.unauthorized
    anchor: 'it failed badly'
    pattern: 'role (?P<roleArn>arn:\S+)'
    meaning: 'c failed'
    source: 'https://example.com/c.go#L1'
    examples:
      match: ['it failed badly for role arn:aws:iam::1:role/r']
      nomatch: ['it failed badly for nobody']
`
	for name, tc := range map[string]struct{ file, content, want string }{
		"valid":                  {"catalog/c.yaml", good, ""},
		"component not the file": {"catalog/d.yaml", good, "must equal the file name"},
		"unknown field":          {"catalog/c.yaml", strings.Replace(good, "meaning:", "meanin:", 1), "unknown field"},
		"short anchor":           {"catalog/c.yaml", strings.Replace(good, "'it failed badly'", "'it'", 1), "shorter than"},
		"unknown fact":           {"catalog/c.yaml", strings.Replace(good, "?P<roleArn>", "?P<colour>", 1), "not a known fact"},
		"example does not match": {"catalog/c.yaml", strings.Replace(good, "for role arn", "for rolex arn", 1), "example does not match"},
		"near-miss matches":      {"catalog/c.yaml", strings.Replace(good, "for nobody", "for role arn:x", 1), "near-miss example matches"},
		"no source":              {"catalog/c.yaml", strings.Replace(good, "https://example.com/c.go#L1", "", 1), "source must be"},
		"no finding":             {"catalog/c.yaml", strings.Replace(good, "    finding: runtime.unauthorized\n", "", 1), "no finding"},
		"bad pattern":            {"catalog/c.yaml", strings.Replace(good, "(?P<roleArn>", "((?P<roleArn>", 1), "pattern"},
		"no example":             {"catalog/c.yaml", strings.Replace(strings.Replace(good, "      match: ['it failed badly for role arn:aws:iam::1:role/r']\n", "", 1), "      nomatch", "      match: []\n      nomatch", 1), "no example"},
	} {
		_, _, err := LoadCatalog(fstest.MapFS{tc.file: {Data: []byte(tc.content)}})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want an error containing %q", name, err, tc.want)
		}
	}
}

// TestExamplesScan: every example line of the catalog, scanned as a log, yields a hit of its
// own signature, and a signature's facts are captured.
func TestExamplesScan(t *testing.T) {
	for _, sg := range Catalog() {
		for _, ex := range sg.Examples.Match {
			s := MustDefault()
			if err := s.Scan(strings.NewReader(ex+"\n"), "x", "journal"); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, h := range s.Result("x").Hits {
				if h.Signature == sg.Name {
					found = true
				}
			}
			if !found {
				t.Errorf("%s/%s: example %q yields no hit of its signature", sg.Component, sg.Name, ex)
			}
		}
	}
	s, _ := New([]Signature{{Name: "x", Component: "c", Finding: "f", Anchor: "denied for", Pattern: `denied for (?P<roleArn>\S+)`, Meaning: "m"}}, nil)
	if err := s.Scan(strings.NewReader("denied for arn:a\ndenied for arn:b\ndenied for arn:a\n"), "x", "j"); err != nil {
		t.Fatal(err)
	}
	h := s.Result("x").Hits
	if len(h) != 1 || strings.Join(h[0].Facts["roleArn"], ",") != "arn:a,arn:b" || h[0].Count != 3 {
		t.Fatalf("facts %+v", h)
	}
}

func TestScanCountsFirstLastAndLines(t *testing.T) {
	s := MustDefault()
	s.Ref = time.Date(2026, 7, 24, 16, 0, 0, 0, time.UTC)
	var b strings.Builder
	bad := `Jul 24 15:30:%02d host kubelet[1]: E0724 15:30:02.1 1 x.go:1] "Unable to register node with API server" err="Unauthorized"` + "\n"
	for i := 0; i < 10; i++ {
		b.WriteString(healthyLine(i))
		fmt.Fprintf(&b, bad, i)
	}
	if err := s.Scan(strings.NewReader(b.String()), "k.log", "kubelet"); err != nil {
		t.Fatal(err)
	}
	r := s.Result("artefact")
	if len(r.Streams) != 1 || r.Streams[0].Lines != 20 {
		t.Fatalf("streams %+v", r.Streams)
	}
	if len(r.Hits) != 1 {
		t.Fatalf("hits %+v", r.Hits)
	}
	h := r.Hits[0]
	if h.Count != 10 || h.First.Line != 2 || h.Last.Line != 20 || h.Last.Time != time.Date(2026, 7, 24, 15, 30, 9, 0, time.UTC) {
		t.Fatalf("hit %+v", h)
	}
}

// TestLineNumbersAcrossBlocks: matches in later blocks keep exact line numbers.
func TestLineNumbersAcrossBlocks(t *testing.T) {
	s := MustDefault()
	var b bytes.Buffer
	n := 0
	for b.Len() < 3*BlockSize {
		b.WriteString(healthyLine(n))
		n++
	}
	b.WriteString("x509: certificate signed by unknown authority\n")
	if err := s.Scan(&b, "j", "journal"); err != nil {
		t.Fatal(err)
	}
	h := s.Result("x").Hits
	if len(h) != 1 || h[0].First.Line != int64(n+1) {
		t.Fatalf("want line %d, got %+v", n+1, h)
	}
}

// endless is a reader of n bytes of 'a' (no newline) followed by tail.
type endless struct {
	n    int64
	tail io.Reader
}

var as = bytes.Repeat([]byte{'a'}, 1<<20)

func (e *endless) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return e.tail.Read(p)
	}
	k := int64(len(p))
	if k > e.n {
		k = e.n
	}
	n := copy(p[:k], as)
	e.n -= int64(n)
	return n, nil
}

// TestHugeSingleLine: a 2 GiB line is matched in pieces with bounded memory, without a hang.
func TestHugeSingleLine(t *testing.T) {
	if testing.Short() {
		t.Skip("2 GiB read")
	}
	s := MustDefault()
	r := &endless{n: 2 << 30, tail: strings.NewReader(" no space left on device\nnext line\n")}
	if err := s.Scan(r, "big", "journal"); err != nil {
		t.Fatal(err)
	}
	res := s.Result("x")
	if res.Streams[0].LongLines != 1 || res.Streams[0].Lines != 2 {
		t.Fatalf("stream %+v", res.Streams[0])
	}
	if len(res.Hits) != 1 || res.Hits[0].Finding != "runtime.disk-pressure" || len(res.Hits[0].First.Text) > 400 {
		t.Fatalf("hits %+v", res.Hits)
	}
}

func TestParseTime(t *testing.T) {
	ref := time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC)
	for line, want := range map[string]time.Time{
		"Dec 31 23:59:58 host kubelet[1]: x":                     time.Date(2026, 12, 31, 23, 59, 58, 0, time.UTC), // rollover
		"Jan 01 00:00:01.500000 host kubelet[1]: x":              time.Date(2027, 1, 1, 0, 0, 1, 500000000, time.UTC),
		"2026-07-24T15:30:01.004512377Z stdout F x":              time.Date(2026, 7, 24, 15, 30, 1, 4512377, time.UTC),
		"2026-07-24T15:29:40+0000 [eks-bootstrap] INFO: x":       time.Date(2026, 7, 24, 15, 29, 40, 0, time.UTC),
		`{"level":"info","ts":"2026-07-24T15:30:04.203Z","x":1}`: time.Date(2026, 7, 24, 15, 30, 4, 203000000, time.UTC),
		"no time here": {},
		// Karpenter v1 and other zap/slog JSON loggers name the field "time"
		`{"level":"ERROR","time":"2026-02-26T09:41:04.902Z","logger":"controller"}`: time.Date(2026, 2, 26, 9, 41, 4, 902000000, time.UTC),
		`{"timestamp":"2026-02-26T09:41:05Z","msg":"x"}`:                            time.Date(2026, 2, 26, 9, 41, 5, 0, time.UTC),
		// cloud-init.log (Python logging, no zone: UTC on EC2) and Go's log package
		"2026-06-02 22:05:56,903 - __init__.py[WARNING]: Unhandled non-multipart": time.Date(2026, 6, 2, 22, 5, 56, 903000000, time.UTC),
		"2026/06/02 22:05:57 Error: x":                                            time.Date(2026, 6, 2, 22, 5, 57, 0, time.UTC),
		// a row of the EC2 console's Auto Scaling activity table: its start time column, else the
		// time its cause names
		"Successful\tLaunching a new EC2 instance: i-0b6e2d94f7a13c580\tAt 2025-04-29T08:14:21Z an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 1 to 2.\t2025 April 29, 10:14:23 AM +02:00\t2025 April 29, 10:14:55 AM +02:00": time.Date(2025, 4, 29, 8, 14, 23, 0, time.UTC),
		"Failed | Launching a new EC2 instance. | At 2025-04-29T08:13:41Z an instance was started in response to a difference":                                                                                                                                                                       time.Date(2025, 4, 29, 8, 13, 41, 0, time.UTC),
		"CREATE_FAILED  April 29, 2025, 10:14:23 (UTC+02:00)  NodeGroup": time.Date(2025, 4, 29, 8, 14, 23, 0, time.UTC),
		"2026-06-02 22:05:5 not a time":                                  {},
		// cloud-init's stage banners on the console (after the kernel's uptime) carry their time
		"[   12.402118] cloud-init[2011]: Cloud-init v. 22.2.2 finished at Thu, 20 Nov 2026 09:31:50 +0000. Datasource DataSourceEc2.  Up 12.38 seconds": time.Date(2026, 11, 20, 9, 31, 50, 0, time.UTC),
		"Cloud-init v. 19.3-45.amzn2 running 'modules:final' at Thu, 08 Sep 2022 18:30:04 +0200. Up 28.51 seconds.":                                      time.Date(2022, 9, 8, 16, 30, 4, 0, time.UTC),
		// a kernel banner's build time is not the line's
		"[    0.000000] Linux version 5.10.244-240.965.amzn2.x86_64 (mockbuild@ip-10-0-46-181) #1 SMP Tue Oct 14 17:21:40 UTC 2025": {},
		// a row of the Windows collector's kubelet-service.csv: the klog header after the
		// field's opening quote
		`"I1118 06:41:52.790655    5120 kubelet_node_status.go:78] ""Successfully registered node""","0"`: time.Date(2026, 11, 18, 6, 41, 52, 790655000, time.UTC),
	} {
		if got := ParseTime(line, ref); !got.Equal(want) {
			t.Errorf("%q: got %v want %v", line, got, want)
		}
	}
}

// TestUndatedLineIsNotLast: a signature's undated line read after its dated ones (a poster's
// retelling of the message, a copy without the log's header) does not become the hit's last
// line, so what resolves the failure is judged by the log's own times; with no dated line the
// read order still decides.
func TestUndatedLineIsNotLast(t *testing.T) {
	dated := `{"level":"ERROR","time":"2026-02-26T09:41:04.902Z","message":"failed launching nodeclaim","error":"creating instance, insufficient capacity, with fleet error(s), InsufficientInstanceCapacity: We currently do not have sufficient g6.2xlarge capacity"}`
	undated := "The first NodeClaim hit InsufficientInstanceCapacity in us-east-1b, Karpenter retried in us-east-1a."
	s := MustDefault()
	if err := s.Scan(strings.NewReader(dated+"\n"+undated+"\n"), "p", "text"); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, h := range s.Result("p").Hits {
		if h.Signature != "ec2-insufficient-capacity" {
			continue
		}
		n++
		if h.Count != 2 || h.Last.Line != 1 || h.Last.Time.IsZero() {
			t.Errorf("hit ×%d, last line %d at %v; want ×2, last the dated line 1", h.Count, h.Last.Line, h.Last.Time)
		}
	}
	if n != 1 {
		t.Fatalf("ec2-insufficient-capacity hits: %d", n)
	}
	s = MustDefault()
	if err := s.Scan(strings.NewReader(undated+"\n"+undated+"\n"), "p", "text"); err != nil {
		t.Fatal(err)
	}
	for _, h := range s.Result("p").Hits {
		if h.Signature == "ec2-insufficient-capacity" && h.Last.Line != 2 {
			t.Errorf("undated lines only: last line %d, want 2", h.Last.Line)
		}
	}
}

// TestNewestDated: the newest line carrying a year gives the reference time; year-less
// journal and klog prefixes, and times past the first datedPrefix bytes, do not count.
func TestNewestDated(t *testing.T) {
	text := "Oct 29 21:05:12 ip-10-0-0-1 kubelet[1]: I1029 21:05:12.5 x\n" +
		`{"level":"info","ts":"2025-10-29T21:05:02.202Z","msg":"Starting L-IPAMD"}` + "\n" +
		"2025-10-29T21:05:05.156Z stdout F y\n" +
		strings.Repeat("z", datedPrefix) + ` "ts":"2027-01-01T00:00:00Z"` + "\n" +
		"I1029 21:09:00.000000 1 x.go:1] later but year-less\n"
	if got, want := NewestDated([]byte(text)), time.Date(2025, 10, 29, 21, 5, 5, 156000000, time.UTC); !got.Equal(want) {
		t.Errorf("NewestDated = %v, want %v", got, want)
	}
	if got := NewestDated([]byte("Oct 29 21:05:12 host kubelet[1]: x\n")); !got.IsZero() {
		t.Errorf("year-less only: %v", got)
	}
}

func FuzzScan(f *testing.F) {
	f.Add([]byte(healthyLine(1)))
	f.Add([]byte("Jul 24 15:30:02 h kubelet[1]: err=\"Unauthorized\"\n\n\r\n"))
	f.Add([]byte{0xff, 0xfe, 0, '\n'})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := MustDefault()
		s.Ref = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		if err := s.Scan(bytes.NewReader(data), "f", "journal"); err != nil {
			t.Fatal(err)
		}
		r := s.Result("f")
		for _, h := range r.Hits {
			if h.Count < 1 || h.First.Line < 1 || h.First.Line > h.Last.Line && h.First.Seq <= h.Last.Seq {
				t.Fatalf("bad hit %+v", h)
			}
		}
	})
}

// BenchmarkScanHealthyJournal measures the signature scan over a healthy journal (the common
// case: no line matches); b.SetBytes reports MB/s.
func BenchmarkScanHealthyJournal(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; buf.Len() < 32<<20; i++ {
		buf.WriteString(healthyLine(i))
	}
	benchScan(b, buf.Bytes(), "j", "journal")
}

// benchScan times scanning data with a fresh default Scanner per iteration (building it is
// part of every run), reporting bytes per second and allocations.
func benchScan(b *testing.B, data []byte, path, stream string) {
	b.Helper()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := MustDefault()
		if err := s.Scan(bytes.NewReader(data), path, stream); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSameSignatureTwiceOnALine: a line holding one signature's anchor twice, with another
// signature's anchor between them, is one matching line of each, and presence literals are
// counted once per occurrence whatever the order the matcher reports them in.
func TestSameSignatureTwiceOnALine(t *testing.T) {
	sigs := []Signature{
		{Name: "a", Component: "c", Anchor: "foo-bar", Meaning: "a"},
		{Name: "b", Component: "c", Anchor: "baz-qux", Meaning: "b"},
		{Name: "c", Component: "c", Anchor: "oo-bar baz", Meaning: "overlaps a and b"},
	}
	s, err := New(sigs, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := "first line\nfoo-bar baz-qux foo-bar\nfoo-bar\n"
	if err := s.Scan(strings.NewReader(in), "f", "journal"); err != nil {
		t.Fatal(err)
	}
	got := map[string][2]int64{}
	for _, h := range s.Result("f").Hits {
		got[h.Signature] = [2]int64{h.Count, h.First.Line}
	}
	want := map[string][2]int64{"a": {2, 2}, "b": {1, 2}, "c": {1, 2}}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("signature %s: count, first line = %v, want %v", k, got[k], w)
		}
	}
}

// TestLanesAgreeWithOnePass: the six-lane, two-goroutine scan of a large block reports
// exactly the occurrences, in exactly the order, of the plain one-lane pass — at lane and
// goroutine boundaries too (lines of catalog anchors packed close together, some lines longer
// than a lane).
func TestLanesAgreeWithOnePass(t *testing.T) {
	mt := MustDefault().mt
	cat := Catalog()
	var b strings.Builder
	for i := 0; b.Len() < 3*parallelMin; i++ {
		b.WriteString(healthyLine(i))
		if i%3 == 0 {
			b.WriteString("x " + cat[i%len(cat)].Anchor + " " + cat[(i*7)%len(cat)].Anchor + "\n")
		}
		if i%500 == 0 {
			b.WriteString(strings.Repeat(cat[i%len(cat)].Anchor+" ", 4000) + "\n")
		}
	}
	text := []byte(b.String())
	for k, size := range []int{laneMin - 1, laneMin + 17, parallelMin + 3, len(text), parallelMin + 3, len(text)} {
		var want, got [][2]int
		wantTally, gotTally := make([]int64, len(MustDefault().presence)), make([]int64, len(MustDefault().presence))
		mt.one(text[:size], 0, wantTally, func(ai, at int) { want = append(want, [2]int{ai, at}) })
		// the last two: a block large enough to split kept on one goroutine (scratch.alone)
		sc := scratch{alone: k >= 4}
		mt.each(text[:size], &sc, gotTally, func(ai, at int) { got = append(got, [2]int{ai, at}) })
		if fmt.Sprint(gotTally) != fmt.Sprint(wantTally) {
			t.Fatalf("size %d: presence tallies %v, one pass counts %v", size, gotTally, wantTally)
		}
		if len(want) < 100 {
			t.Fatalf("size %d: only %d occurrences: the test text is wrong", size, len(want))
		}
		if len(got) != len(want) {
			t.Fatalf("size %d: %d occurrences, one pass finds %d", size, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("size %d: occurrence %d is %v, one pass says %v", size, i, got[i], want[i])
			}
		}
	}
}

// FuzzLanesAgreeWithOnePass: on any text, lanes (called directly, whatever the size) reports
// the occurrences of the one-lane pass, lane by lane in order: the unchecked loads of step6 stay
// within the lanes whatever the line lengths (empty lanes, lanes shorter than others, no
// newline at all, a newline as the last byte).
func FuzzLanesAgreeWithOnePass(f *testing.F) {
	cat := Catalog()
	f.Add([]byte("x " + cat[0].Anchor + "\n\n" + cat[1].Anchor + cat[2].Anchor + "\nabc\n" + cat[3].Anchor))
	f.Add([]byte("\n\n\n\n\n\n\n" + cat[5].Anchor))
	f.Add([]byte(cat[7].Anchor))
	f.Add([]byte{})
	mt := MustDefault().mt
	f.Fuzz(func(t *testing.T, text []byte) {
		var want, got [][2]int
		wantTally, gotTally := make([]int64, len(MustDefault().presence)), make([]int64, len(MustDefault().presence))
		mt.one(text, 0, wantTally, func(ai, at int) { want = append(want, [2]int{ai, at}) })
		var out [lanes][]hit
		mt.lanes(text, 0, &out, gotTally)
		if fmt.Sprint(gotTally) != fmt.Sprint(wantTally) {
			t.Fatalf("presence tallies %v, one pass counts %v", gotTally, wantTally)
		}
		for k := range out {
			for _, h := range out[k] {
				got = append(got, [2]int{int(h.ai), int(h.at)})
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d occurrences, one pass finds %d", len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("occurrence %d is %v, one pass says %v", i, got[i], want[i])
			}
		}
	})
}

// BenchmarkLanes and BenchmarkOnePass measure the automaton alone on one goroutine over healthy
// journal lines (b.SetBytes: MB/s): the multi-lane loop against the plain single-lane one.
func BenchmarkLanes(b *testing.B) {
	data, mt := healthyText(32<<20), MustDefault().mt
	var out [lanes][]hit
	tally := make([]int64, len(MustDefault().presence))
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mt.lanes(data, 0, &out, tally)
	}
}

func BenchmarkOnePass(b *testing.B) {
	data, mt := healthyText(32<<20), MustDefault().mt
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mt.one(data, 0, make([]int64, len(MustDefault().presence)), func(int, int) {})
	}
}

func healthyText(size int) []byte {
	var buf bytes.Buffer
	for i := 0; buf.Len() < size; i++ {
		buf.WriteString(healthyLine(i))
	}
	return buf.Bytes()
}

// BenchmarkNewScanner measures what a process pays once before its first scan: compiling the
// catalog's anchors and presence literals into the automaton (the digest load is
// BenchmarkLoadDigest).
func BenchmarkNewScanner(b *testing.B) {
	sigs, comps := Catalog(), Components()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := New(sigs, comps); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRowReciprocal checks that the scan loop's division-free row lookup gives state / stride
// for every state of the default automaton and for strides of every class count.
func TestRowReciprocal(t *testing.T) {
	mt := MustDefault().mt
	for s := uint32(0); s < uint32(len(mt.trans)); s += mt.stride {
		if got := mt.row(s); got != s/mt.stride {
			t.Fatalf("row(%d) = %d, want %d (stride %d)", s, got, s/mt.stride, mt.stride)
		}
	}
	for stride := uint32(1); stride <= 257; stride++ {
		m := &multi{stride: stride, recip: (1<<32 + uint64(stride) - 1) / uint64(stride)}
		for k := uint32(0); k < 1<<20; k += 997 {
			if got := m.row(k * stride); got != k {
				t.Fatalf("stride %d: row(%d) = %d, want %d", stride, k*stride, got, k)
			}
		}
	}
}

// TestConsoleRowTime: a copied Auto Scaling activity row carries its time in a column after a
// message longer than the text a hit keeps; the hit is dated all the same, so the later
// successful launch above it (the console lists the newest first) resolves the failure.
func TestConsoleRowTime(t *testing.T) {
	s := MustDefault()
	rows := "Status\tDescription\tCause\tStart time\tEnd time\n" +
		"Successful\tLaunching a new EC2 instance: i-0b6e2d94f7a13c580\tAt 2025-04-29T08:14:21Z an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 1 to 2.\t2025 April 29, 10:14:23 AM +02:00\t2025 April 29, 10:14:55 AM +02:00\n" +
		"Failed\tLaunching a new EC2 instance. Status Reason: We currently do not have sufficient c7i.2xlarge capacity in the Availability Zone you requested (eu-central-1b). Our system will be working on provisioning additional capacity. You can currently get c7i.2xlarge capacity by not specifying an Availability Zone in your request or choosing eu-central-1a, eu-central-1c. Launching EC2 instance failed.\tAt 2025-04-29T08:13:41Z an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 1 to 2.\t2025 April 29, 10:13:43 AM +02:00\t2025 April 29, 10:13:43 AM +02:00\n"
	if err := s.Scan(strings.NewReader(rows), "paste", "text"); err != nil {
		t.Fatal(err)
	}
	var failed, ok *evidence.SignatureHit
	res := s.Result("x")
	for i, h := range res.Hits {
		switch h.Signature {
		case "asg-launch-failed":
			failed = &res.Hits[i]
		case "asg-launch-succeeded":
			ok = &res.Hits[i]
		}
	}
	if failed == nil || ok == nil {
		t.Fatalf("hits %+v", res.Hits)
	}
	if want := time.Date(2025, 4, 29, 8, 13, 43, 0, time.UTC); !failed.First.Time.Equal(want) {
		t.Errorf("failed row dated %v, want %v", failed.First.Time, want)
	}
	if !Later(ok.Last, failed.Last) {
		t.Errorf("the successful launch (%v) is not later than the failure (%v)", ok.Last.Time, failed.Last.Time)
	}
}

// TestComponentLinesCountLines (red team round 3, F12): a component's count is of lines, not of
// occurrences: a kubelet line carrying two of its presence literals ("kubelet[" and
// "kubelet_node_status.go") and matching a signature counts once. The red team's healthy
// 8-line log (7 kubelet lines, one systemd line) was "19 lines of kubelet read". In blocks of
// every size, so lines are counted once across block ends too.
func TestComponentLinesCountLines(t *testing.T) {
	const log = `Jul 24 15:29:50 ip-10-0-12-34 systemd[1]: Started kubelet.service - Kubernetes Kubelet.
Jul 24 15:29:51 ip-10-0-12-34 kubelet[2841]: I0724 15:29:51.000000    2841 kubelet_node_status.go:75] "Attempting to register node" node="ip-10-0-12-34.ec2.internal"
Jul 24 15:29:51 ip-10-0-12-34 kubelet[2841]: E0724 15:29:51.100000    2841 kubelet.go:2412] "Error getting node" err="node \"ip-10-0-12-34.ec2.internal\" not found"
Jul 24 15:29:52 ip-10-0-12-34 kubelet[2841]: E0724 15:29:52.000000    2841 kubelet.go:2877] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"
Jul 24 15:29:53 ip-10-0-12-34 kubelet[2841]: E0724 15:29:53.000000    2841 eviction_manager.go:282] "Eviction manager: failed to get summary stats" err="failed to get node info: node \"ip-10-0-12-34.ec2.internal\" not found"
Jul 24 15:30:05 ip-10-0-12-34 kubelet[2841]: I0724 15:30:05.000000    2841 kubelet_node_status.go:78] "Successfully registered node" node="ip-10-0-12-34.ec2.internal"
Jul 24 15:30:20 ip-10-0-12-34 kubelet[2841]: I0724 15:30:20.000000    2841 kubelet_node_status.go:538] "Fast updating node status as it just became ready"
Jul 24 15:30:21 ip-10-0-12-34 kubelet[2841]: I0724 15:30:21.000000    2841 kubelet_node_status.go:493] "Recording event message for node" node="ip-10-0-12-34.ec2.internal" event="NodeReady"
`
	for _, block := range []int{0, 64, 97, 4096} {
		s := MustDefault()
		if block > 0 {
			s.Block = block
		}
		s.Ref = time.Date(2026, 7, 24, 16, 0, 0, 0, time.UTC)
		if err := s.Scan(strings.NewReader(strings.Repeat(log, 3)), "k.log", "journal"); err != nil {
			t.Fatal(err)
		}
		r := s.Result("artefact")
		if got := r.ComponentLines()["kubelet"]; got != 21 {
			t.Errorf("block %d: %d lines of kubelet counted in 24 lines (21 of the kubelet)", block, got)
		}
	}
}
