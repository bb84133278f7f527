// Package snapshot reads an offline snapshot: a directory (or a .tar.gz, .tar or .zip of one) of plain AWS
// CLI v2 and kubectl outputs at fixed paths, as specified in docs/snapshot-format.md. It turns
// them into Evidence for one instance; it never judges.
//
// A missing file is "not in snapshot". A file holding an AWS CLI or kubectl error message
// ("An error occurred (AccessDenied) when calling the GetRole operation: ...",
// "Error from server (Forbidden): ...") becomes a gap with that reason, except NotFound /
// NoSuchEntity, which is a fact (the object does not exist). A file that does not parse is a
// gap naming the path and the parse error; the rest of the snapshot still loads.
package snapshot

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/layout"
	"github.com/eksdoctor/eksdoctor/collectors/packed"
	"github.com/eksdoctor/eksdoctor/collectors/textenc"
)

// Limits bound what Open reads.
type Limits struct {
	// MaxFileBytes caps one file (bytes); larger files are reported and skipped.
	MaxFileBytes int64
	// MaxTotalBytes caps all files read together (bytes, uncompressed).
	MaxTotalBytes int64
	// MaxFiles caps the number of archive members or directory entries visited.
	MaxFiles int
	// MaxYAMLBytes caps one file written as YAML (bytes; 0: DefaultLimits'): decoding YAML
	// (sigs.k8s.io/yaml, through go-yaml's node tree) takes about 23–25 times the file's size in
	// memory, against about 2 for JSON, so a larger YAML file is an input problem asking for JSON
	// instead of a run that exceeds its memory budget.
	MaxYAMLBytes int64
	// MaxHeldBytes caps the ec2/ files a run decodes whole and keeps decoded, together (bytes,
	// uncompressed; 0: DefaultLimits'): every file under ec2/ but describe-instances.json
	// (decoded as a stream) and an instance's own user data and console output (read once, not
	// kept). Decoding these lists into the values the checks use takes 4–5 times the file's size
	// in memory (red team 8b #07: four files of 24–56 MiB, each under MaxFileBytes, took
	// 560 MiB), so when they come to more, the largest are set aside first, each an input
	// problem naming the budget, until the rest fits. docs/collect-snapshot.sh narrows them to
	// the cluster's VPC, where AWS's default quotas (200 subnets, route tables and network ACLs
	// per VPC, 50 routes a table, 20 rules a direction an ACL; Amazon VPC quotas,
	// https://docs.aws.amazon.com/vpc/latest/userguide/amazon-vpc-limits.html) keep them at a
	// few MiB.
	MaxHeldBytes int64
}

// DefaultLimits fit snapshots of clusters with thousands of instances.
// A YAML file at MaxYAMLBytes (4 MiB, some 8,500 Nodes as kubectl -o yaml prints them) keeps a
// run within the large-snapshot budget of 200 MiB peak RSS (README, Performance): 150–175 MiB
// with kube/nodes.json and kube/csrs.json both at the limit (BenchmarkBinaryYAMLSnapshotAtLimit).
// MaxHeldBytes (24 MiB) keeps a run whose ec2/ lists are at the budget (the worst, route tables
// of 150 routes each) at about 167 MiB peak RSS (/usr/bin/time -v; TestHeldBytesBudget bounds
// what it allocates).
var DefaultLimits = Limits{MaxFileBytes: 64 << 20, MaxTotalBytes: 512 << 20, MaxFiles: 20000, MaxYAMLBytes: 4 << 20, MaxHeldBytes: 24 << 20}

// Manifest is the optional manifest.json.
type Manifest struct {
	Cluster     string   `json:"cluster"`
	Region      string   `json:"region"`
	InstanceIDs []string `json:"instanceIds"`
	CollectedAt Time     `json:"collectedAt"`
	Tool        string   `json:"tool"`
}

// FileProblem is a snapshot file that could not be used.
type FileProblem struct {
	Path string
	Err  string
}

// Snapshot is a loaded snapshot: the raw bytes of every file under a known top-level folder.
type Snapshot struct {
	// Origin names where the snapshot came from: "snapshot:<path given to Open>", or what FromFiles was given.
	Origin   string
	Manifest *Manifest
	files    map[string][]byte
	// maxYAML is Limits.MaxYAMLBytes of Open (0: the default)
	maxYAML int64
	// Problems lists files that were skipped or did not parse, sorted by path.
	Problems []FileProblem
	// Source names where the file at a snapshot path came from, for findings; nil means
	// "snapshot:<path>".
	Source func(path string) string

	// Selected names the paths whose documents hold only the fields a --query picked (AWS CLI
	// output pasted with `--query 'Reservations[].Instances[].[InstanceId,State.Name]'`): a
	// field absent from them was not asked for, so it is unknown rather than absent. The same
	// holds for kube/ files read back from `kubectl get … -o jsonpath=TEMPLATE` output: a Node's
	// Ready condition the template did not ask for is unknown (evidence.Node.ReadyUnknown), a
	// node class's spec beyond its printed fields too (evidence.NodeClass.StatusOnly). Nil for
	// snapshots, whose files are whole outputs.
	Selected map[string]bool
	// Narrowed holds, by path, what the pasted command line that printed a file says about it
	// (Narrowing): the filters and IDs that picked its resources. Nil for snapshots, whose
	// listings are whole (the VPC's).
	Narrowed map[string]Narrowing

	// lazy opens, on demand, files larger than lazyBytes: they are read (or re-read from the
	// archive) each time they are split or streamed, so their bytes are not held for the whole
	// run. A reader returns an error when the file passes the per-file limit.
	lazy map[string]func() (io.ReadCloser, error)
	// sizes holds the size (bytes) of each file of lazy, as the archive or directory gave it.
	sizes map[string]int64
	// errs are the typed errors a live source returned instead of a file (FromDocuments).
	errs map[string]*SourceError

	mu         sync.Mutex
	unparsed   map[string]bool // paths whose documents did not decode (Unparsed)
	rawDocs    map[string]*rawRead
	cache      map[string]*decoded
	sharedVals map[string]any

	instOnce sync.Once
	inst     *instanceIdx
	// paged holds, by snapshot path, why a list file is not whole: it stops at a page
	// (cutAtPage).
	paged map[string]string
}

// Narrowing is what an `aws ec2 describe-…` command line pasted above its output says of the
// output: the --filters it gave (Filters, by filter name: "association.subnet-id", "vpc-id",
// "association.main", each with its values) and the IDs it asked for (IDs: --route-table-ids,
// --nat-gateway-ids, --vpc-endpoint-ids …). Origin names the command line and where it was read,
// for messages. The EC2 filter names are those of the API reference (DescribeRouteTables:
// https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeRouteTables.html).
type Narrowing struct {
	Filters map[string][]string
	IDs     []string
	Origin  string
	// OneOf names the list inside each item that the command's --query cut to one element
	// (`RouteTables[].Routes[0]`: "Routes"), "" when none.
	OneOf string
}

// Subset reports whether the command picked only some of the VPC's resources: by IDs, or by a
// filter other than vpc-id (owner-id and the like narrow nothing a node reaches). It returns how,
// for messages; "" when the listing is whole.
func (n Narrowing) Subset() string {
	if len(n.IDs) > 0 {
		return n.Origin
	}
	for name := range n.Filters {
		if name != "vpc-id" && name != "owner-id" {
			return n.Origin
		}
	}
	return ""
}

// One returns the single value filter name was given; "" when it was not given or given several.
func (n Narrowing) One(name string) string {
	if v := n.Filters[name]; len(v) == 1 {
		return v[0]
	}
	return ""
}

func (s *Snapshot) src(p string) string {
	if s.Source != nil {
		return s.Source(p)
	}
	return "snapshot:" + p
}

// FileKind says in words what kind of file a mode that is not a regular file's is ("a
// directory", "a symlink", "a named pipe", "a character device", "a block device", "a socket"),
// for messages refusing such a path.
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "type " + m.Type().String()
}

// ErrNotSnapshot is returned when the path holds none of the snapshot's folders.
// Errors that wrap it name the input and what was found instead.
var ErrNotSnapshot = errors.New("not a snapshot")

// notSnapshot is ErrNotSnapshot for input p, naming the layout expected.
func notSnapshot(p string) error {
	return fmt.Errorf("%s: %w: no eks/, ec2/, iam/, autoscaling/ or kube/ folder found, at the top or below at most %d folders (docs/snapshot-format.md)", p, ErrNotSnapshot, maxNesting)
}

// maxNesting bounds the folders a snapshot's layout may sit below inside a directory or
// archive (home/bob/case-1234/snapshot/eks/…: 4).
const maxNesting = 8

var topFolders = map[string]bool{"eks": true, "ec2": true, "iam": true, "autoscaling": true, "kube": true, "logs": true}

// Open loads a snapshot directory, or a gzip-compressed tar, a plain tar or a zip of one (told
// apart by their first bytes, not their names). The layout may sit below folders, at most
// maxNesting deep, as long as it sits below one only (snap/eks/..., home/bob/case/snapshot/eks/...). Links, devices, absolute paths and paths with ..
// are skipped and recorded as problems; nothing is written to disk. Errors: the path cannot be
// read, is neither a directory nor a regular file (a named pipe or a device is refused before
// it is opened, so it never blocks), the archive is corrupt or truncated, a limit is exceeded,
// or ErrNotSnapshot.
func Open(p string, lim Limits) (*Snapshot, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is neither a directory nor a regular file (%s): a snapshot is a directory, or a .tar.gz, .tar or .zip of one", p, FileKind(st.Mode()))
	}
	s := &Snapshot{Origin: "snapshot:" + p, files: map[string][]byte{}, maxYAML: lim.MaxYAMLBytes}
	if st.IsDir() {
		err = s.readDir(os.DirFS(p), p, lim)
	} else {
		err = s.readArchive(p, lim)
	}
	if err != nil {
		return nil, err
	}
	if err := s.stripCommonPrefix(p); err != nil {
		return nil, err
	}
	if len(s.files) == 0 {
		return nil, notSnapshot(p)
	}
	s.holdWithin(cmp.Or(lim.MaxHeldBytes, DefaultLimits.MaxHeldBytes))
	s.readManifest()
	sort.Slice(s.Problems, func(i, j int) bool { return s.Problems[i].Path < s.Problems[j].Path })
	return s, nil
}

// FromFiles builds a snapshot from in-memory files keyed by snapshot path (what the live
// collector fetched). origin names the source in findings ("aws:eu-west-1").
func FromFiles(origin string, files map[string][]byte) *Snapshot {
	return FromDocuments(origin, files, nil)
}

// FromDocuments is FromFiles with the typed errors a live source returned at snapshot paths
// instead of documents: they are judged as the same error text in a file would be, without
// being written as text and parsed again. A path may be in files (the text `collect` writes)
// and in errs; errs wins.
func FromDocuments(origin string, files map[string][]byte, errs map[string]*SourceError) *Snapshot {
	s := &Snapshot{Origin: origin, files: files, errs: errs}
	s.readManifest()
	return s
}

// readManifest reads manifest.json when present. One that is not a JSON object or holds an
// absurd collectedAt is a problem, and the snapshot's time is then estimated from its files.
func (s *Snapshot) readManifest() {
	b, ok, err := s.content("manifest.json")
	if !ok {
		return
	}
	if err != nil {
		s.problem("manifest.json", "cannot be read: "+unwrapPathErr(err)+"; the collection time is estimated from the newest timestamp in the snapshot")
		return
	}
	var m Manifest
	err = json.Unmarshal(b, &m)
	if err == nil && !bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")) {
		err = fmt.Errorf("expected a JSON object, got %s", describeJSON(b))
	}
	if err != nil {
		s.problem("manifest.json", err.Error()+"; the manifest is ignored and the collection time is estimated from the newest timestamp in the snapshot")
		return
	}
	s.Manifest = &m
}

// problem records a file that could not be used; the same problem is recorded once.
func (s *Snapshot) problem(p, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range s.Problems {
		if x.Path == p && x.Err == msg {
			return
		}
	}
	s.Problems = append(s.Problems, FileProblem{p, msg})
}

// notParsed records that the document at snapshot path p did not decode: nothing of it is read.
func (s *Snapshot) notParsed(p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unparsed == nil {
		s.unparsed = map[string]bool{}
	}
	s.unparsed[p] = true
}

// Unparsed reports whether the file at snapshot path p was read and did not decode (JSON or
// YAML that does not parse, a field of another type or a number it cannot hold), so nothing
// of it is evidence; its problem is among Problems. A file read with only a note (a list cut
// at a page) is not unparsed. Valid once the evidence was taken (Evidence, ClusterEvidence).
func (s *Snapshot) Unparsed(p string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unparsed[p]
}

// readDir reads a snapshot directory through fsys (os.DirFS of the path given, so a symlink
// to the directory is followed). A file or folder that cannot be read is a problem naming it;
// the rest still loads. Errors: the root cannot be read, or a limit is exceeded.
func (s *Snapshot) readDir(fsys fs.FS, root string, lim Limits) error {
	var total int64
	n := 0
	return fs.WalkDir(fsys, ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			if rel == "." {
				return err
			}
			s.problem(rel, "cannot be read: "+unwrapPathErr(err)+"; skipped")
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		n++
		if n > lim.MaxFiles {
			return fmt.Errorf("more than %d entries under %s", lim.MaxFiles, root)
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			s.problem(rel, "not a regular file (link or device); skipped")
			return nil
		}
		info, err := d.Info()
		if err != nil {
			s.problem(rel, "cannot be read: "+unwrapPathErr(err)+"; skipped")
			return nil
		}
		if info.Size() > lim.MaxFileBytes {
			s.problem(rel, fmt.Sprintf("%d bytes is over the %d-byte limit; skipped", info.Size(), lim.MaxFileBytes))
			return nil
		}
		total += info.Size()
		if total > lim.MaxTotalBytes {
			return fmt.Errorf("snapshot is larger than %d bytes", lim.MaxTotalBytes)
		}
		if info.Size() > lazyBytes {
			s.files[rel] = nil
			s.setLazy(rel, info.Size(), func() (io.ReadCloser, error) { return openLimited(fsys, rel, lim.MaxFileBytes) })
			return nil
		}
		b, err := readAllLimited(fsys, rel, lim.MaxFileBytes)
		if err != nil {
			s.problem(rel, "cannot be read: "+unwrapPathErr(err)+"; skipped")
			return nil
		}
		s.files[rel] = b
		return nil
	})
}

// lazyBytes is the size (bytes) above which a snapshot file is not kept in memory but read
// when it is decoded: a run over a snapshot at its limits (docs/design.md, Input safety) then
// holds the decoded values, not the files.
const lazyBytes = 1 << 20

func (s *Snapshot) setLazy(p string, size int64, open func() (io.ReadCloser, error)) {
	if s.lazy == nil {
		s.lazy = map[string]func() (io.ReadCloser, error){}
		s.sizes = map[string]int64{}
	}
	s.lazy[p] = open
	s.sizes[p] = size
}

// content returns the bytes of the file at snapshot path p, reading a large file now.
func (s *Snapshot) content(p string) ([]byte, bool, error) {
	b, ok := s.files[p]
	if !ok {
		_, ok = s.errs[p]
		return nil, ok, nil
	}
	if open := s.lazy[p]; open != nil {
		r, err := open()
		if err != nil {
			return nil, true, err
		}
		defer r.Close()
		b, err := readSized(r)
		return s.skipNoise(p, textenc.Bytes(b)), true, err
	}
	// a file saved on Windows (PowerShell 5.1's `aws … > file` is UTF-16) reads as UTF-8
	return s.skipNoise(p, textenc.Bytes(b)), true, nil
}

// skipNoise returns b without the lines a tool printed to stderr before its output when the
// file was saved with 2>&1 (noisePrefix), recording them as an input problem of p naming the
// first; b itself when it starts with none.
func (s *Snapshot) skipNoise(p string, b []byte) []byte {
	n, lines, first := noisePrefix(b)
	if n == 0 {
		return b
	}
	s.noiseProblem(p, lines, first)
	return b[n:]
}

// noiseProblem records that p starts with lines (the first of them first) a tool printed to
// stderr, skipped (noisePrefix).
func (s *Snapshot) noiseProblem(p string, lines int, first string) {
	are := "lines that are"
	if lines == 1 {
		are = "line that is"
	}
	s.problem(p, fmt.Sprintf("starts with %d %s not part of the output (%q: a warning, log or --debug line saved with 2>&1); skipped, the output after it read", lines, are, first))
}

// noiseLine matches, one per pattern, the lines the AWS CLI and kubectl print to stderr that
// end up before the output when it is saved with 2>&1: the AWS CLI's "[WARNING] …" and
// --debug lines ("2026-11-24 12:00:00,101 - MainThread - awscli.clidriver - DEBUG - …"),
// Python's warnings ("…/compat.py:82: PythonDeprecationWarning: …"), kubectl's "Warning: …"
// and client-go's klog lines ("E1124 11:59:58.123456   41234 memcache.go:265] …",
// k8s.io/klog's header Lmmdd hh:mm:ss.uuuuuu threadid file:line]).
var noiseLine = []*regexp.Regexp{
	regexp.MustCompile(`^\[(?:WARNING|WARN|INFO|DEBUG|ERROR|NOTICE)\] `),
	regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - \S+ - \S+ - [A-Z]+ - `),
	regexp.MustCompile(`^\S+\.py:\d+: \w*Warning: `),
	regexp.MustCompile(`^Warning: `),
	regexp.MustCompile(`^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w./-]+:\d+\] `),
}

// noisePrefix measures the lines at the start of b that a tool printed to stderr (noiseLine;
// a Python warning's indented source line with it), within its first 64 KiB: n bytes, lines
// lines, the first of them (at most 120 bytes). n is 0 when b starts otherwise, or when
// nothing but such lines and blanks follows (then they are the file, not a prefix).
func noisePrefix(b []byte) (n, lines int, first string) {
	head := b[:min(len(b), 64<<10)]
	pos, py := 0, false
	for pos < len(head) {
		end := bytes.IndexByte(head[pos:], '\n')
		if end < 0 {
			return 0, 0, "" // the noise runs past what is looked at, or is all there is
		}
		line := bytes.TrimRight(head[pos:pos+end], "\r")
		matched := false
		for _, re := range noiseLine {
			if re.Match(line) {
				matched = true
				break
			}
		}
		if !matched && !(py && len(line) > 0 && (line[0] == ' ' || line[0] == '\t')) {
			break
		}
		py = matched && noiseLine[2].Match(line) || !matched && py
		if lines == 0 {
			first = string(line[:min(len(line), 120)])
		}
		lines++
		pos += end + 1
	}
	if lines == 0 || len(bytes.TrimSpace(b[pos:])) == 0 {
		return 0, 0, ""
	}
	return pos, lines, first
}

// stream returns a reader of the file at snapshot path p without reading a large file whole
// (ok false when the snapshot holds no such file, or only a source's typed error for it).
func (s *Snapshot) stream(p string) (r io.ReadCloser, ok bool, err error) {
	b, ok := s.files[p]
	if !ok || s.errs[p] != nil {
		return nil, false, nil
	}
	if open := s.lazy[p]; open != nil {
		r, err := open()
		if err != nil {
			return nil, true, err
		}
		br := bufio.NewReaderSize(textenc.Reader(r), 64<<10)
		head, _ := br.Peek(64 << 10)
		if n, lines, first := noisePrefix(head); n > 0 {
			br.Discard(n)
			s.noiseProblem(p, lines, first)
		}
		return struct {
			io.Reader
			io.Closer
		}{br, r}, true, nil
	}
	return io.NopCloser(bytes.NewReader(s.skipNoise(p, textenc.Bytes(b)))), true, nil
}

// tarMember opens member number n (counting every header, as readTar does) of the tar at p
// (gzip-compressed when gz), at most max bytes.
func tarMember(p string, gz bool, n int, max int64) (io.ReadCloser, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	var r io.Reader = f
	if gz {
		zr, err := packed.NewGzip(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		r = zr
	}
	tr := tar.NewReader(r)
	for i := 0; ; i++ {
		h, err := tr.Next()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("member %d: %w", n, err)
		}
		if i == n {
			if h.Size > max {
				f.Close()
				return nil, fmt.Errorf("%d bytes is over the %d-byte limit", h.Size, max)
			}
			return &readCloser{io.LimitReader(tr, h.Size), f, h.Size}, nil
		}
	}
}

// readCloser reads from one reader and closes another (the file under a decompressor); size
// is what the file says it holds (bytes), -1 when unknown.
type readCloser struct {
	io.Reader
	io.Closer
	size int64
}

// openLimited opens one file of fsys for reading at most max bytes: a file that grows past
// max while it is read gives an error, not its first max bytes.
func openLimited(fsys fs.FS, name string, max int64) (io.ReadCloser, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() <= max {
		size = fi.Size()
	}
	return &readCloser{&limitedReader{r: f, left: max, max: max}, f, size}, nil
}

// limitedReader reads at most left bytes and fails, naming the limit, on the byte after.
type limitedReader struct {
	r    io.Reader
	left int64
	max  int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, fmt.Errorf("grew past the %d-byte limit while being read", l.max)
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, fmt.Errorf("grew past the %d-byte limit while being read", l.max)
	}
	return n, err
}

// readAllLimited reads one file of fsys, at most max bytes (a file that grows while it is
// read is cut, not trusted).
func readAllLimited(fsys fs.FS, name string, max int64) ([]byte, error) {
	r, err := openLimited(fsys, name, max)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readSized(r)
}

// readSized reads r to its end in one allocation of the size its file says (plus one byte to
// see growth) instead of ReadAll's doublings: a 64 MiB file costs 64 MiB, not 120.
func readSized(r io.Reader) ([]byte, error) {
	size := int64(512)
	if rc, ok := r.(*readCloser); ok && rc.size >= 0 {
		size = rc.size + 1
	}
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grows only when the file was larger than it said
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// unwrapPathErr drops the path from an *fs.PathError (the problem already names the file).
func unwrapPathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// readArchive reads the archive file at p by its first bytes: a gzip-compressed tar, a zip or
// a plain tar; any other file is refused with an error naming p and the forms read.
func (s *Snapshot) readArchive(p string, lim Limits) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	f.Close()
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return s.readTar(p, true, lim)
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return s.readZip(p, lim)
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return s.readTar(p, false, lim)
	}
	if f, ok := packed.Sniff(head); ok {
		return fmt.Errorf("%s is %s, which is not read as a snapshot (a directory, or a .tar.gz, .tar or .zip of one): %s (docs/snapshot-format.md)", p, f.What, f.Unpack(p, "give the result to --snapshot"))
	}
	return fmt.Errorf("%s is not a snapshot archive: a snapshot is a directory, or a .tar.gz, .tar or .zip of one (docs/snapshot-format.md)", p)
}

// readTar reads the members of the tar at p (gzip-compressed when gz) as readDir reads files;
// members over lazyBytes are read again from the archive when decoded.
func (s *Snapshot) readTar(p string, gz bool, lim Limits) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	var zr *packed.Gzip
	if gz {
		if zr, err = packed.NewGzip(f); err != nil {
			return fmt.Errorf("%s is not a gzip-compressed tar: %w", p, err)
		}
		r = zr
	}
	tr := tar.NewReader(r)
	var total int64
	for n := 0; ; n++ {
		if n >= lim.MaxFiles {
			return fmt.Errorf("%s has more than %d members", p, lim.MaxFiles)
		}
		h, err := tr.Next()
		if err == io.EOF {
			// The tar end marker is not the end of the gzip stream: read on to the gzip
			// trailer so a bad CRC, a wrong size or a cut inside it is not taken for a clean
			// end. Bytes after the stream's end (appended, padding) are ignored, as gzip(1)
			// ignores them, and said: every member before them was read intact.
			if !gz {
				return nil
			}
			if _, err := io.Copy(io.Discard, io.LimitReader(zr, 1<<20)); err != nil {
				return fmt.Errorf("%s: the gzip stream after the last member is damaged: %w", p, err)
			}
			if note := zr.TrailingNote(); note != "" {
				s.problem(p, note)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s is corrupt or truncated: %w", p, err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		if h.Typeflag == tar.TypeDir {
			continue
		}
		clean := path.Clean(name)
		if path.IsAbs(name) || hasDotDot(name) || strings.Contains(name, "\\") {
			// other/../snapshot/ec2/x.json stays inside the archive but would silently
			// stand in for snapshot/ec2/x.json: no member name with .. is trusted.
			s.problem(name, "member path is absolute or has a .. element (it leaves the archive or stands in for another member); skipped")
			continue
		}
		if h.Typeflag != tar.TypeReg && h.Typeflag != tar.TypeRegA {
			s.problem(name, "member is not a regular file (link or device); skipped")
			continue
		}
		if h.Size > lim.MaxFileBytes {
			s.problem(name, fmt.Sprintf("%d bytes is over the %d-byte limit; skipped", h.Size, lim.MaxFileBytes))
			continue
		}
		total += h.Size
		if total > lim.MaxTotalBytes {
			return fmt.Errorf("%s holds more than %d uncompressed bytes", p, lim.MaxTotalBytes)
		}
		if _, dup := s.files[clean]; dup {
			if _, err := io.Copy(io.Discard, tr); err != nil {
				return fmt.Errorf("%s is corrupt or truncated at member %s: %w", p, name, err)
			}
			s.problem(clean, "the archive holds this file more than once; the first copy is used, the later ones are ignored")
			continue
		}
		if h.Size > lazyBytes {
			// Read through now (the archive is verified whole), re-read when decoded.
			if _, err := io.Copy(io.Discard, io.LimitReader(tr, h.Size)); err != nil {
				return fmt.Errorf("%s is corrupt or truncated at member %s: %w", p, name, err)
			}
			s.files[clean] = nil
			member, max := n, lim.MaxFileBytes
			s.setLazy(clean, h.Size, func() (io.ReadCloser, error) { return tarMember(p, gz, member, max) })
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, h.Size))
		if err != nil {
			return fmt.Errorf("%s is corrupt or truncated at member %s: %w", p, name, err)
		}
		s.files[clean] = b
	}
}

// holdWithin sets aside, largest first (ties by path), the ec2/ files decoded whole and kept
// (Limits.MaxHeldBytes) until those left come to at most max bytes: each is an input problem
// naming its size and the budget, so its evidence is a gap saying why (missing).
func (s *Snapshot) holdWithin(max int64) {
	type file struct {
		path string
		size int64
	}
	var held []file
	var total int64
	for p, b := range s.files {
		if !strings.HasPrefix(p, "ec2/") || p == instancesPath || perInstance(p) {
			continue
		}
		size := int64(len(b))
		if s.lazy[p] != nil {
			size = s.sizes[p]
		}
		held = append(held, file{p, size})
		total += size
	}
	if total <= max {
		return
	}
	sort.Slice(held, func(i, j int) bool {
		if held[i].size != held[j].size {
			return held[i].size > held[j].size
		}
		return held[i].path < held[j].path
	})
	all := total
	for _, f := range held {
		if total <= max {
			break
		}
		total -= f.size
		delete(s.files, f.path)
		delete(s.lazy, f.path)
		s.problem(f.path, fmt.Sprintf("%d bytes set aside: the ec2/ files decoded whole (all but describe-instances and each instance's own) come to %d bytes, over the %d-byte budget (decoding takes 4–5 times a file's size); the largest are skipped first: collect it again narrowed (the AWS CLI's --filters Name=vpc-id,Values=…)", f.size, all, max))
	}
}

// hasDotDot reports whether a slash-separated member name has a ".." element.
func hasDotDot(name string) bool {
	for _, el := range strings.Split(name, "/") {
		if el == ".." {
			return true
		}
	}
	return false
}

// readZip reads the members of the zip at p as readTar reads a tar's. The zip's central
// directory is read first (its entries are counted against MaxFiles); members over lazyBytes
// are inflated again when decoded, so memory stays bounded as for a tar.
func (s *Snapshot) readZip(p string, lim Limits) error {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return fmt.Errorf("%s is not a readable zip: %w", p, err)
	}
	defer zr.Close()
	if len(zr.File) > lim.MaxFiles {
		return fmt.Errorf("%s has more than %d members", p, lim.MaxFiles)
	}
	var total int64
	for i, zf := range zr.File {
		name := strings.TrimPrefix(zf.Name, "./")
		if strings.HasSuffix(name, "/") {
			continue
		}
		clean := path.Clean(name)
		if path.IsAbs(name) || hasDotDot(name) || strings.Contains(name, "\\") {
			s.problem(name, "member path is absolute or has a .. element (it leaves the archive or stands in for another member); skipped")
			continue
		}
		if !zf.Mode().IsRegular() {
			s.problem(name, "member is not a regular file (link or device); skipped")
			continue
		}
		size := int64(zf.UncompressedSize64)
		if size < 0 || size > lim.MaxFileBytes {
			s.problem(name, fmt.Sprintf("%d bytes is over the %d-byte limit; skipped", zf.UncompressedSize64, lim.MaxFileBytes))
			continue
		}
		total += size
		if total > lim.MaxTotalBytes {
			return fmt.Errorf("%s holds more than %d uncompressed bytes", p, lim.MaxTotalBytes)
		}
		if _, dup := s.files[clean]; dup {
			s.problem(clean, "the archive holds this file more than once; the first copy is used, the later ones are ignored")
			continue
		}
		if size > lazyBytes {
			s.files[clean] = nil
			member := i
			s.setLazy(clean, size, func() (io.ReadCloser, error) { return zipMember(p, member, size) })
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return fmt.Errorf("%s is corrupt at member %s: %w", p, name, err)
		}
		// archive/zip fails a member that inflates past its declared size or fails its CRC
		b, err := io.ReadAll(io.LimitReader(rc, size+1))
		rc.Close()
		if err != nil || int64(len(b)) != size {
			return fmt.Errorf("%s is corrupt or truncated at member %s: %v", p, name, cmp.Or(err, errors.New("its size is not the one declared")))
		}
		s.files[clean] = b
	}
	return nil
}

// zipMember opens member number n of the zip at p, which declares size bytes.
func zipMember(p string, n int, size int64) (io.ReadCloser, error) {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, err
	}
	if n >= len(zr.File) {
		zr.Close()
		return nil, fmt.Errorf("member %d: the archive changed since it was read", n)
	}
	rc, err := zr.File[n].Open()
	if err != nil {
		zr.Close()
		return nil, err
	}
	return &readCloser{io.LimitReader(rc, size), closers{rc, zr}, size}, nil
}

// closers closes each of its closers in turn, returning the first error.
type closers []io.Closer

// Close closes every closer.
func (c closers) Close() error {
	var first error
	for _, x := range c {
		if err := x.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// layoutPrefix returns the folders a file at path p sits below inside the snapshot's layout
// ("home/bob/case/snapshot/" for home/bob/case/snapshot/eks/describe-cluster.json, "" at the
// top): the path up to its first element that is a layout folder (with a file under it) or
// manifest.json (a file), at most maxNesting folders down. ok is false when p is in no layout,
// or is macOS metadata (under __MACOSX/, an AppleDouble "._NAME" file, .DS_Store).
func layoutPrefix(p string) (prefix string, ok bool) {
	parts := strings.Split(p, "/")
	if base := parts[len(parts)-1]; parts[0] == "__MACOSX" || strings.HasPrefix(base, "._") || base == ".DS_Store" {
		// macOS metadata: a Finder zip's __MACOSX/ copy of the tree, AppleDouble files
		return "", false
	}
	for i := 0; i < len(parts) && i <= maxNesting; i++ {
		if topFolders[parts[i]] && i+1 < len(parts) || parts[i] == "manifest.json" && i == len(parts)-1 {
			if i == 0 {
				return "", true
			}
			return strings.Join(parts[:i], "/") + "/", true
		}
	}
	return "", false
}

// stripCommonPrefix handles directories and archives whose layout sits below folders
// (snap/eks/..., home/bob/case-1234/snapshot/eks/...): the files below that one folder are
// kept, under their layout paths. A layout at the top is kept as it is. Layouts below two
// folders or more are an error naming them (wrapping ErrNotSnapshot): which is meant is unknown.
func (s *Snapshot) stripCommonPrefix(origin string) error {
	prefixes := map[string]bool{}
	for p := range s.files {
		if pre, ok := layoutPrefix(p); ok {
			if pre == "" {
				return nil
			}
			prefixes[pre] = true
		}
	}
	switch len(prefixes) {
	case 0:
		s.files = map[string][]byte{}
		return nil
	case 1:
	default:
		var names []string
		for k := range prefixes {
			names = append(names, k)
		}
		sort.Strings(names)
		return fmt.Errorf("%s: %w: it holds a snapshot's folders below %d folders (%s), and which is meant is unknown; give one of them", origin, ErrNotSnapshot, len(names), strings.Join(names, ", "))
	}
	var prefix string
	for k := range prefixes {
		prefix = k
	}
	out := map[string][]byte{}
	lazy := map[string]func() (io.ReadCloser, error){}
	sizes := map[string]int64{}
	for p, b := range s.files {
		if strings.HasPrefix(p, prefix) {
			out[strings.TrimPrefix(p, prefix)] = b
			if load := s.lazy[p]; load != nil {
				lazy[strings.TrimPrefix(p, prefix)] = load
				sizes[strings.TrimPrefix(p, prefix)] = s.sizes[p]
			}
		}
	}
	s.files, s.lazy, s.sizes = out, lazy, sizes
	return nil
}

// Files lists the loaded file paths, sorted.
func (s *Snapshot) Files() []string {
	out := make([]string, 0, len(s.files))
	for p := range s.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// readResult says what reading one file gave.
type readResult int

const (
	readOK       readResult = iota
	readMissing             // file absent
	readNotFound            // file holds a NotFound / NoSuchEntity error: the object does not exist
	readGap                 // file holds another error, or does not parse; reason set
)

// OperationService maps the AWS operations whose CLI error text may appear in a snapshot to
// their IAM service prefix, so a denial names the missing permission ("ec2:DescribeSubnets");
// derived from the layout's AWS operations.
var OperationService = func() map[string]string {
	m := map[string]string{}
	for _, e := range layout.Entries {
		if svc, op, ok := e.AWS(); ok {
			m[op] = svc
		}
	}
	return m
}()

var deniedCodes = map[string]bool{"AccessDenied": true, "AccessDeniedException": true, "UnauthorizedOperation": true,
	"Client.UnauthorizedOperation": true, "UnauthorizedAccess": true}

// klogRe matches one klog line (k8s.io/klog: "Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg",
// L one of I, W, E, F) and captures its message.
var klogRe = regexp.MustCompile(`^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+ [^\s\]]+:\d+\] ?(.*)$`)

var forbiddenRe = regexp.MustCompile(`cannot (\w+) resource "([\w.-]+)"`)

// SourceError is an error a source returned instead of a file's document: an AWS API error
// (live, or the AWS CLI's "An error occurred (CODE) when calling the OP operation: MSG" in a
// snapshot file) or a Kubernetes API error (kubectl's "Error from server (REASON): MSG").
// Text is parsed into it once, where the text is read (ParseCLIError); live collectors build it
// from the SDK's error value and never render it as text to be parsed again.
type SourceError struct {
	// Code is the AWS error code ("AccessDenied", "NoSuchEntity") or the Kubernetes reason
	// ("Forbidden", "NotFound"); "" when the text named none.
	Code string
	// Operation is the AWS operation ("GetRole") or, for Kubernetes, "VERB RESOURCE" ("list nodes").
	Operation string
	// Permission is the IAM action ("iam:GetRole") or Kubernetes permission
	// ("kubernetes:nodes/list") that was denied; "" when the error is not a denial.
	Permission string
	// NotFound marks an answer that the object does not exist: a fact, not a gap.
	NotFound bool
	// Message is the source's message; for a kubectl error without a recognised permission,
	// "kubectl: REASON: message"; the whole text when it had no recognised form.
	Message string
}

// reason is the gap reason of a file that holds the error (docs/design.md: a denial's reason
// starts "missing permission ACTION", see evidence.Evidence.AddGap).
func (e *SourceError) reason() string {
	switch {
	case e.NotFound:
		return e.Code
	case e.Code == "Unreachable":
		// a live collection's kube reads, none answered (kube.Collect): the input problem says
		// which server and why, once
		return "the API server could not be reached"
	case e.Permission != "":
		return fmt.Sprintf("missing permission %s (%s)", e.Permission, e.Code)
	case e.Operation == "" && strings.HasPrefix(e.Message, "kubectl: "):
		return e.Message
	case e.Code != "" && e.Operation != "":
		return fmt.Sprintf("%s on %s", e.Code, e.Operation)
	case e.Code != "":
		return e.Code
	}
	return e.Message
}

// AWSError builds the SourceError of AWS operation op (a key of OperationService, or any
// operation name) that failed with code and message.
func AWSError(op, code, msg string) *SourceError {
	e := &SourceError{Code: code, Operation: op, Message: msg}
	switch {
	case code == "NoSuchEntity" || code == "ResourceNotFoundException" || strings.HasSuffix(code, ".NotFound"):
		e.NotFound = true
	case deniedCodes[code] && op != "":
		e.Permission = op
		if svc := OperationService[op]; svc != "" {
			e.Permission = svc + ":" + op
		}
	}
	return e
}

// KubeError builds the SourceError of a Kubernetes API error from its status reason
// ("Forbidden", "NotFound"; metav1.StatusReason) and the API server's message. A Forbidden
// message names the verb and resource refused ("cannot list resource \"nodes\""), which
// becomes the permission "kubernetes:nodes/list".
func KubeError(reason, msg string) *SourceError {
	switch reason {
	case "NotFound":
		return &SourceError{Code: "NotFound", NotFound: true, Message: msg}
	case "Forbidden":
		if m := forbiddenRe.FindStringSubmatch(msg); m != nil {
			return &SourceError{Code: "Forbidden", Operation: m[1] + " " + m[2], Permission: "kubernetes:" + m[2] + "/" + m[1], Message: msg}
		}
		return &SourceError{Code: "Forbidden", Message: "kubectl: Forbidden"}
	}
	if msg != "" {
		msg = ": " + msg
	}
	return &SourceError{Code: reason, Message: "kubectl: " + reason + msg}
}

// ParseCLIError recognises error text the AWS CLI or kubectl printed instead of JSON; nil when
// b is not such text (JSON documents are never copied to be looked at).
func ParseCLIError(b []byte) *SourceError {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] == '{' || b[0] == '[' {
		return nil
	}
	// Error text is a few lines; a long file that starts like one is judged on its head.
	t := string(b[:min(len(b), 64<<10)])
	// kubectl's client-go logs klog lines ("E1124 14:09:58.123456   12345 memcache.go:265]
	// couldn't get current server API group list: …") to stderr before kubectl's own error; the
	// error is what follows them, or the last of them when nothing does
	lastKlog := ""
	for {
		line, rest, _ := strings.Cut(t, "\n")
		m := klogRe.FindStringSubmatch(line)
		if m == nil {
			break
		}
		lastKlog, t = strings.TrimSpace(m[1]), strings.TrimSpace(rest)
	}
	if t == "" && lastKlog != "" {
		return &SourceError{Message: "kubectl: " + lastKlog}
	}
	switch {
	case strings.HasPrefix(t, "usage: aws ") && strings.Contains(t, "Invalid choice"):
		// an AWS CLI whose models predate the command (aws eks list-access-entries before
		// botocore 1.34.2) prints its usage instead of calling anything
		return &SourceError{Message: "the AWS CLI that wrote it did not know the command (aws: error: argument operation: Invalid choice): its models are older than the operation, so collect it again with a current AWS CLI"}
	case strings.HasPrefix(t, "An error occurred ("):
		code := t[len("An error occurred ("):]
		code = code[:max(0, strings.IndexByte(code, ')'))]
		op, msg := "", ""
		if i := strings.Index(t, "when calling the "); i >= 0 {
			rest := t[i+len("when calling the "):]
			if f := strings.Fields(rest); len(f) > 0 {
				op = f[0]
			}
			if k := strings.Index(rest, ": "); k >= 0 {
				msg = strings.TrimSpace(rest[k+2:])
			}
		}
		return AWSError(op, code, msg)
	case strings.HasPrefix(t, "Error from server ("):
		reason, msg, _ := strings.Cut(t[len("Error from server ("):], ")")
		return KubeError(reason, strings.TrimPrefix(msg, ": "))
	case strings.HasPrefix(t, "error: the server doesn't have a resource type"):
		// kubectl's answer when the CRD is not installed (Karpenter, Auto Mode)
		return &SourceError{Code: "NoResourceType", Message: "kubectl: " + strings.TrimSpace(strings.TrimPrefix(t, "error: "))}
	case strings.HasPrefix(t, "Unable to connect to the server"):
		return &SourceError{Message: t}
	case strings.HasPrefix(t, "error: "):
		// kubectl's other errors ("error: You must be logged in to the server (Unauthorized)")
		return &SourceError{Message: "kubectl: " + t}
	}
	return nil
}

// decode reads p (JSON, possibly several concatenated pages, or YAML for .yaml/.yml) calling
// each for every document. It returns the outcome and, for gaps, the reason.
// judgeDoc hands one JSON document of file p to each once it has the shape its command writes
// (shaped, which also says whether the output names a next page) and is the object the file is
// named for (otherObject: an errOtherObject otherwise). It returns the next page's token and
// the first error.
func judgeDoc(p string, doc json.RawMessage, each func(json.RawMessage) error) (next string, err error) {
	doc, next, err = shaped(p, doc)
	if err == nil {
		err = otherObject(p, doc)
	}
	if err == nil {
		err = each(doc)
	}
	return next, err
}

func (s *Snapshot) decode(p string, each func(json.RawMessage) error) (readResult, string) {
	s.mu.Lock()
	r, ok := s.rawDocs[p]
	s.mu.Unlock()
	if !ok && (s.lazy[p] != nil || perInstance(p)) {
		// A large file, or one instance's own: split and used now, its bytes not kept.
		return s.split(p, each)
	}
	if !ok {
		r = &rawRead{}
		r.res, r.reason = s.split(p, func(raw json.RawMessage) error {
			r.docs = append(r.docs, raw)
			return nil
		})
		s.mu.Lock()
		if s.rawDocs == nil {
			s.rawDocs = map[string]*rawRead{}
		}
		s.rawDocs[p] = r
		s.mu.Unlock()
	}
	if r.res != readOK {
		return r.res, r.reason
	}
	for _, raw := range r.docs {
		if err := each(raw); err != nil {
			err = typeMessage(p, err)
			s.problem(p, err.Error())
			s.notParsed(p)
			if errors.As(err, new(notTheObject)) {
				return readGap, fmt.Sprintf("%s holds %v", p, err)
			}
			return readGap, fmt.Sprintf("parse error in %s: %v", p, err)
		}
	}
	return readOK, ""
}

// notTheObject is the error of a document that parses but is not the object its path names (a
// kubectl List without it): the gap says what the file holds, not "parse error".
type notTheObject struct{ error }

// rawRead is the outcome of splitting one file into shape-checked JSON documents, kept so
// that building the evidence of many instances splits and checks each file once.
type rawRead struct {
	res    readResult
	reason string
	docs   []json.RawMessage
}

// split reads p (JSON, possibly several concatenated pages, or YAML for .yaml/.yml) calling
// each for every document whose shape fits the path. It returns the outcome and, for gaps,
// the reason.
func (s *Snapshot) split(p string, each func(json.RawMessage) error) (readResult, string) {
	b, ok, err := s.content(p)
	if !ok {
		return readMissing, s.missing(p)
	}
	if err != nil {
		s.problem(p, "cannot be read: "+unwrapPathErr(err)+"; skipped")
		return readGap, "cannot read " + p + ": " + unwrapPathErr(err)
	}
	e := s.errs[p]
	if e == nil {
		e = ParseCLIError(b)
	}
	if e != nil {
		if e.NotFound {
			return readNotFound, e.reason()
		}
		return readGap, e.reason() + " (" + p + ")"
	}
	if strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || !json.Valid(b) && cliYAML(b) {
		// a .json file the AWS CLI wrote with `--output yaml` (or output = yaml in its
		// config), or kubectl with -o yaml, holds the same document
		if limit := cmp.Or(s.maxYAML, DefaultLimits.MaxYAMLBytes); int64(len(b)) > limit {
			msg := fmt.Sprintf("%d bytes of YAML is over the %d-byte limit for YAML (decoding YAML takes about 25 times its size in memory); skipped: collect it again as JSON (kubectl -o json, the AWS CLI's --output json)", len(b), limit)
			s.problem(p, msg)
			return readGap, msg + " (" + p + ")"
		}
		docs := splitYAML(b)
		if len(docs) == 0 {
			s.problem(p, "empty file")
			return readGap, "empty file " + p
		}
		next := ""
		pages := 0
		for _, doc := range docs {
			if pr := yamlDuplicateKeys(doc); pr != "" {
				s.problem(p, pr)
			}
			js, err := yaml.YAMLToJSON(doc)
			// --output yaml-stream: a list of whole outputs, one per page
			stream, isStream := streamPages(p, js)
			if err != nil || !isStream {
				stream = []json.RawMessage{js}
			}
			for _, js := range stream {
				if err == nil {
					next, err = judgeDoc(p, js, each)
				}
				if oo, ok := err.(errOtherObject); ok {
					return s.setAside(p, oo)
				}
				if err != nil {
					err = typeMessage(p, err)
					s.problem(p, err.Error())
					s.notParsed(p)
					return readGap, fmt.Sprintf("parse error in %s: %v", p, err)
				}
				pages++
			}
		}
		s.cutAtPage(p, next, pages)
		return readOK, ""
	}
	if json.Valid(b) {
		// One document (the usual case): judged in place, without the decoder's copy.
		next, err := judgeDoc(p, b, each)
		if oo, ok := err.(errOtherObject); ok {
			return s.setAside(p, oo)
		}
		if err != nil {
			err = typeMessage(p, err)
			s.problem(p, err.Error())
			s.notParsed(p)
			return readGap, fmt.Sprintf("parse error in %s: %v", p, err)
		}
		s.cutAtPage(p, next, 1)
		s.duplicateKeys(p, b)
		return readOK, ""
	}
	// Several concatenated pages (or damage: the decoder names where).
	dec := json.NewDecoder(bytes.NewReader(b))
	docs := 0
	next := ""
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			break
		}
		if err == nil {
			next, err = judgeDoc(p, raw, each)
		}
		if oo, ok := err.(errOtherObject); ok {
			return s.setAside(p, oo)
		}
		if err != nil {
			if hint := cliOutputFormat(b); hint != "" {
				err = fmt.Errorf("%s, not JSON: collect it again with --output json", hint)
			} else if what := notStructured(p, b, docs, err); what != "" {
				err = errors.New(what)
			} else {
				err = typeMessage(p, err)
			}
			s.problem(p, err.Error())
			s.notParsed(p)
			return readGap, fmt.Sprintf("parse error in %s: %v", p, err)
		}
		docs++
	}
	if docs == 0 {
		s.problem(p, "empty file")
		return readGap, "empty file " + p
	}
	s.cutAtPage(p, next, docs)
	s.duplicateKeys(p, b)
	return readOK, ""
}

// yamlDuplicateKeys names the keys a mapping of the YAML document doc holds more than once
// (two `--output yaml` pages appended with >>, an object saved twice without ---), which
// sigs.k8s.io/yaml resolves silently, the last copy winning; "" for none or a document that
// does not parse (its reader names that). At most 3 are named.
func yamlDuplicateKeys(doc []byte) string {
	var root yaml3.Node
	if yaml3.Unmarshal(doc, &root) != nil {
		return ""
	}
	var parts []string
	n := 0
	var walk func(*yaml3.Node)
	walk = func(nd *yaml3.Node) {
		if nd.Kind == yaml3.MappingNode {
			seen := map[string]bool{}
			for i := 0; i+1 < len(nd.Content); i += 2 {
				k := nd.Content[i]
				if k.Kind == yaml3.ScalarNode && k.Value != "<<" {
					if seen[k.Value] {
						n++
						if len(parts) < 3 {
							parts = append(parts, fmt.Sprintf("key %q twice in one mapping (line %d)", k.Value, k.Line))
						}
					}
					seen[k.Value] = true
				}
			}
		}
		for _, c := range nd.Content {
			walk(c)
		}
	}
	walk(&root)
	if n == 0 {
		return ""
	}
	more := ""
	if n > len(parts) {
		more = fmt.Sprintf(" and %d more", n-len(parts))
	}
	return "holds " + strings.Join(parts, ", ") + more + ": the later copy is used, the earlier one ignored; a YAML mapping should hold each key once, so which is meant is unknown (pages appended with >>, or one object saved twice?)"
}

// duplicateKeys records, as an input problem of p, the keys an object of its JSON b holds more
// than once (dupKeys).
func (s *Snapshot) duplicateKeys(p string, b []byte) {
	d := newDupKeys()
	defer d.release()
	d.Write(b)
	if pr := d.problem(); pr != "" {
		s.problem(p, pr)
	}
}

// cutAtPage records that the list at p stops at a page when its last document (of docs) still
// carries the next-page token named next (the pages before it may: concatenated raw pages end
// with one that carries none): an input problem naming the file and the token, and the reason
// every kind read from it becomes a gap (cutKinds). Nothing when next is "".
func (s *Snapshot) cutAtPage(p, next string, docs int) {
	if next == "" {
		return
	}
	pages := "the first page"
	if docs > 1 {
		pages = fmt.Sprintf("the first %d pages", docs)
	}
	why := fmt.Sprintf("lists only %s (%s present)", pages, next)
	s.problem(p, why+": what is not on it is unknown; save the whole list (the AWS CLI without --max-items or --no-paginate, kubectl get without --chunk-size)")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.paged == nil {
		s.paged = map[string]string{}
	}
	s.paged[p] = p + " " + why + ": what is not on it is unknown"
}

// pagedReason is why the list at p is not whole ("ec2/describe-instances.json lists only the
// first page (NextToken present): …"), "" when it is.
func (s *Snapshot) pagedReason(p string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paged[p]
}

// cutKinds turns every kind of ev collected from a list cut at a page (cutAtPage) into a gap
// with that reason: a conclusion from an absence in the list (a role in no access entry, an
// instance without its Node) would not stand. The target instance's own record in
// ec2/describe-instances.json is whole and stays; an instance not on its page is refused
// with the reason (newInstanceEvidence).
func (s *Snapshot) cutKinds(ev *evidence.Evidence) {
	s.mu.Lock()
	paths := make([]string, 0, len(s.paged))
	for p := range s.paged {
		if p != instancesPath {
			paths = append(paths, p)
		}
	}
	s.mu.Unlock()
	sort.Strings(paths)
	for _, k := range ev.CollectedKinds() {
		for _, p := range paths {
			if readFrom(ev.Source(k), s.src(p)) {
				ev.AddGapForce(k, s.pagedReason(p))
				break
			}
		}
	}
}

// readFrom reports whether a kind's source (one origin, or several joined by ", ", each
// possibly followed by a note: "snapshot:kube/nodes.json (NotFound)") names the origin of file.
func readFrom(source, file string) bool {
	for _, part := range strings.Split(source, ", ") {
		if part == file || strings.HasPrefix(part, file+" ") {
			return true
		}
	}
	return false
}

// reYAMLTop is the first line of a YAML document as the AWS CLI (`--output yaml`) or kubectl
// (-o yaml) prints one: a top-level key ("Reservations:", "apiVersion: v1") or a list item.
var reYAMLTop = regexp.MustCompile(`^(?:[A-Za-z][\w.-]*:(?:\s|$)|- |---\s*$)`)

// cliYAML reports whether b, which is not JSON, starts as a YAML document does (after blank
// and comment lines).
func cliYAML(b []byte) bool {
	for _, l := range bytes.Split(b[:min(len(b), 4096)], []byte("\n")) {
		l = bytes.TrimRight(l, "\r")
		if t := bytes.TrimSpace(l); len(t) == 0 || t[0] == '#' {
			continue
		}
		return reYAMLTop.Match(l)
	}
	return false
}

// cliOutputFormat names the AWS CLI's other output formats by their first line — `--output
// table` (a rule of dashes, then "|  DescribeInstances  |") and `--output text` (upper-case
// record names and tab-separated values: "RESERVATIONS\t111122223333…") — and returns "" for
// anything else.
func cliOutputFormat(b []byte) string {
	first, _, _ := bytes.Cut(bytes.TrimLeft(b[:min(len(b), 4096)], " \t\r\n"), []byte("\n"))
	first = bytes.TrimRight(first, "\r")
	switch {
	case len(first) > 4 && len(bytes.Trim(first, "-+")) == 0:
		return "the AWS CLI's table output (--output table)"
	case bytes.IndexByte(first, '\t') > 0 && reTextRecord.Match(first):
		return "the AWS CLI's text output (--output text)"
	}
	return ""
}

// notStructured names, for a file p whose first document (docs 0) fails to decode with a
// syntax error (err) because it starts with neither JSON nor YAML, what it starts with and the
// output expected there (layout.Match: the command that writes it, with --output json or
// kubectl's -o json); "" otherwise, for the decoder's own error.
func notStructured(p string, b []byte, docs int, err error) string {
	var syn *json.SyntaxError
	if docs > 0 || !errors.As(err, &syn) {
		return ""
	}
	lead := bytes.TrimLeft(b, " \t\r\n")
	first, _, _ := bytes.Cut(lead, []byte("\n"))
	first = bytes.TrimRight(first, "\r")
	what := fmt.Sprintf("neither JSON nor YAML (it starts %q)", first[:min(len(first), 60)])
	switch {
	case bytes.IndexByte(lead[:min(len(lead), 512)], 0) >= 0:
		what = "neither JSON nor YAML in UTF-8: it holds NUL bytes (UTF-16 without a byte-order mark? save it as UTF-8)"
	case len(lead) == 0 || lead[0] == '{' || lead[0] == '[' || lead[0] == '"':
		return ""
	}
	e, ok := layout.Match(p)
	if !ok {
		return what
	}
	if strings.HasPrefix(e.Command, "kubectl") {
		return fmt.Sprintf("%s: expected the output of `%s` (a table, -o wide, -o name or kubectl describe is not read)", what, e.Command)
	}
	return fmt.Sprintf("%s: expected the output of `%s` saved with --output json", what, e.Command)
}

// reTextRecord is the start of a line of `--output text`: an upper-case record name and a tab.
var reTextRecord = regexp.MustCompile(`^[A-Z][A-Z0-9_]*\t`)

func splitYAML(b []byte) [][]byte {
	var out [][]byte
	parts := bytes.Split(b, []byte("\n---"))
	for i, d := range parts {
		if i < len(parts)-1 {
			// the line break before "---" ends this document's last line: a block scalar
			// (mapRoles: |) keeps its final newline as in a file holding the document alone
			d = append(d[:len(d):len(d)], '\n')
		}
		if len(bytes.TrimSpace(d)) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// decoded caches the documents of one file decoded as one type, so building the evidence of
// many instances parses each shared file once.
type decoded struct {
	res    readResult
	reason string
	docs   []any
}

// shared computes, once per snapshot, a value that does not depend on the instance (the
// cluster's nodes, CSRs, webhooks), so evidence for many instances reuses it.
func (s *Snapshot) shared(key string, compute func() any) any {
	s.mu.Lock()
	if v, ok := s.sharedVals[key]; ok {
		s.mu.Unlock()
		return v
	}
	s.mu.Unlock()
	v := compute()
	s.mu.Lock()
	if s.sharedVals == nil {
		s.sharedVals = map[string]any{}
	}
	s.sharedVals[key] = v
	s.mu.Unlock()
	return v
}

// decodeInto decodes every document of p into a T and passes it to each. Decoded documents
// are cached per path and type; each must not modify them.
func decodeInto[T any](s *Snapshot, p string, each func(*T)) (readResult, string) {
	return decodeIntoFrom(s, p, "", nil, each)
}

// decodeKubeObject is decodeInto for a kube/ file that holds one object, the kind and name in
// kube-system (the aws-auth ConfigMap, the aws-node DaemonSet): a kubectl List there is read as
// its item of that kind and name (layout.KubeObject, as analyze reads a pasted List), and a
// List without exactly one such item is a gap naming the file, never an empty object. A file
// holding the object more than once (YAML documents split by ---, JSON outputs appended) passes
// it once when the copies are the same; copies that differ are an input problem naming the file
// and a gap, none of them used (which one is current is unknown; the last is no likelier).
func decodeKubeObject[T any](s *Snapshot, p, kind, name string, each func(*T)) (readResult, string) {
	var copies []*T
	res, reason := decodeKubeCopies(s, p, kind, name, func(v *T) { copies = append(copies, v) })
	if res != readOK || len(copies) == 0 {
		return res, reason
	}
	for _, c := range copies[1:] {
		if !reflect.DeepEqual(c, copies[0]) {
			msg := fmt.Sprintf("holds %d copies of %s %s that differ (YAML documents split by ---, or outputs appended with >>); which is current is unknown, so none is used: save it once (kubectl get %s -n kube-system %s -o yaml)",
				len(copies), kind, name, strings.ToLower(kind), name)
			s.problem(p, msg)
			return readGap, fmt.Sprintf("%s holds %d copies of %s %s that differ, so which is current is unknown", p, len(copies), kind, name)
		}
	}
	each(copies[0])
	return res, reason
}

// decodeKubeCopies decodes every copy of the one object of kube/ file p (decodeKubeObject).
func decodeKubeCopies[T any](s *Snapshot, p, kind, name string, each func(*T)) (readResult, string) {
	return decodeIntoFrom(s, p, kind+"/"+name, func(raw json.RawMessage) (json.RawMessage, error) {
		var peek struct {
			Kind  string          `json:"kind"`
			Items json.RawMessage `json:"items"`
		}
		if json.Unmarshal(raw, &peek) != nil || !strings.HasSuffix(peek.Kind, "List") && (peek.Kind != "" || peek.Items == nil) {
			return raw, nil
		}
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, err
		}
		obj, err := layout.KubeObject(doc, kind, name, "kube-system")
		if err != nil {
			return nil, notTheObject{err}
		}
		return json.Marshal(obj)
	}, each)
}

// decodeIntoFrom is decodeInto with pick, when not nil, choosing the part of each document that
// is decoded (cached under sel).
func decodeIntoFrom[T any](s *Snapshot, p, sel string, pick func(json.RawMessage) (json.RawMessage, error), each func(*T)) (readResult, string) {
	unmarshal := func(raw json.RawMessage) (*T, error) {
		if pick != nil {
			var err error
			if raw, err = pick(raw); err != nil {
				return nil, err
			}
		}
		v := new(T)
		return v, json.Unmarshal(raw, v)
	}
	if perInstance(p) {
		// Read by that instance's evidence only, once: caching it would only grow with the fleet.
		return s.decode(p, func(raw json.RawMessage) error {
			v, err := unmarshal(raw)
			if err != nil {
				return err
			}
			each(v)
			return nil
		})
	}
	key := fmt.Sprintf("%s|%T|%s", p, (*T)(nil), sel)
	s.mu.Lock()
	c, ok := s.cache[key]
	s.mu.Unlock()
	if !ok {
		c = &decoded{}
		c.res, c.reason = s.decode(p, func(raw json.RawMessage) error {
			v, err := unmarshal(raw)
			if err != nil {
				return err
			}
			c.docs = append(c.docs, v)
			return nil
		})
		s.mu.Lock()
		if s.cache == nil {
			s.cache = map[string]*decoded{}
		}
		s.cache[key] = c
		s.mu.Unlock()
	}
	if c.res == readOK {
		for _, d := range c.docs {
			each(d.(*T))
		}
	}
	return c.res, c.reason
}

// perInstance reports whether p is a file of one instance (its user data, its console
// output), which only that instance's evidence reads, once.
func perInstance(p string) bool {
	return strings.HasPrefix(p, "ec2/instance-user-data/") || strings.HasPrefix(p, "ec2/get-console-output/")
}

// kubePath returns the path of a kube/ file, trying .json then .yaml then .yml. When the
// snapshot holds none of them it returns the name the layout documents (docs/snapshot-format.md:
// kube/aws-auth.yaml, kube/amazon-vpc-cni.yaml, else .json), so a gap names the file a user
// following the layout saves.
func (s *Snapshot) kubePath(base string) string {
	for _, ext := range []string{".json", ".yaml", ".yml"} {
		if _, ok := s.files["kube/"+base+ext]; ok {
			return "kube/" + base + ext
		}
	}
	if e, ok := layout.Match("kube/" + base + ".json"); ok && strings.HasSuffix(e.Path, ".yaml") {
		return "kube/" + base + ".yaml"
	}
	return "kube/" + base + ".json"
}

// dirFiles lists files directly under dir (e.g. "eks/describe-nodegroup"), sorted.
func (s *Snapshot) dirFiles(dir string) []string {
	var out []string
	for p := range s.files {
		if path.Dir(p) == dir {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// CollectedAt returns the manifest's collectedAt, or the zero time.
func (s *Snapshot) CollectedAt() time.Time {
	if s.Manifest != nil {
		return s.Manifest.CollectedAt.Time
	}
	return time.Time{}
}

// missing is the gap reason for a file the source does not hold, in the source's terms: a
// snapshot lacks it, a live collection did not fetch it, a paste did not show it; a file the
// snapshot holds but set aside when it was opened (over the size limit) is unreadable, and why.
func (s *Snapshot) missing(p string) string {
	s.mu.Lock()
	for _, x := range s.Problems {
		if x.Path == p || strings.HasSuffix(x.Path, "/"+p) {
			// held but set aside when read (over the size limit, a link): say why, not "not in"
			s.mu.Unlock()
			return "unreadable: " + x.Path + ": " + x.Err
		}
	}
	s.mu.Unlock()
	switch {
	case strings.HasPrefix(s.Origin, "paste:"):
		return "not in the input given (" + p + ")"
	case strings.HasPrefix(s.Origin, "aws:"):
		return "not collected (" + p + ")"
	}
	return "not in snapshot (" + p + ")"
}

// IsMissing reports whether a gap reason is one missing made: the source simply does not hold
// the file (as opposed to a denied, damaged or not-found answer).
func IsMissing(reason string) bool {
	for _, p := range []string{"not in snapshot (", "not collected (", "not in the input given ("} {
		if strings.HasPrefix(reason, p) {
			return true
		}
	}
	return false
}
