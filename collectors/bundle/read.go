// Package bundle reads node log bundles — Bottlerocket logdog archives, EKS Linux log collector
// archives and EKS Windows log collector zips, or any of them extracted into a directory — as
// specified in docs/bundle-formats.md, and turns what they hold into Evidence.
//
// Reading streams: archives are never extracted to disk, log members are scanned block by block
// (collectors/logscan), and only small configuration members (settings.json, kubeconfig,
// kubelet config, nodeadm and cloud-init output up to Limits.MaxConfigBytes) are held in memory.
// Hostile members (names with "..", absolute names, links, devices, sparse files) are skipped
// and reported; the Limits bound total uncompressed bytes and member count, so a gzip bomb ends
// the read. A limit reached after a member was read whole keeps what was read (Bundle.Limit);
// one reached before is an error.
package bundle

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
	"github.com/eksdoctor/eksdoctor/collectors/packed"
	"github.com/eksdoctor/eksdoctor/collectors/textenc"
)

// Bundle kinds (docs/bundle-formats.md §1).
const (
	KindBottlerocket = "bottlerocket"
	KindEKSLinux     = "eks-linux"
	KindEKSWindows   = "eks-windows"
)

// Limits bound what a read may consume. Zero fields take the DefaultLimits value.
type Limits struct {
	// MaxBytes is the total uncompressed bytes read from all members (default 16 GiB).
	MaxBytes int64
	// MaxMembers is the number of archive members or files (default 200,000).
	MaxMembers int
	// MaxConfigBytes is the largest configuration member held in memory (default 16 MiB);
	// larger ones are still scanned as logs but not parsed.
	MaxConfigBytes int64
	// MaxLineBytes is the longest log line matched as one piece (default 1 MiB); longer lines
	// are matched in pieces of this size and counted in LogStream.LongLines. It is also the
	// scan buffer, so it bounds the scanner's memory.
	MaxLineBytes int
}

// DefaultLimits are the limits analyze uses unless flags raise them.
var DefaultLimits = Limits{MaxBytes: 16 << 30, MaxMembers: 200000, MaxConfigBytes: 16 << 20, MaxLineBytes: 1 << 20}

// ErrNotBundle is returned when the input is readable but is not a node log bundle.
var ErrNotBundle = errors.New("not a node log bundle")

// ErrLimit is wrapped by errors caused by a Limits bound.
var ErrLimit = errors.New("limit exceeded")

// Problem is one member that was skipped, or a non-fatal read problem.
type Problem struct {
	Path    string
	Problem string
}

// Bundle is what was read from one bundle.
type Bundle struct {
	// Kind is KindBottlerocket, KindEKSLinux or KindEKSWindows.
	Kind string
	// Name is the input path as given.
	Name string
	// Files lists the normalised member paths read (regular files only), sorted.
	Files []string
	// Configs holds the small configuration members by normalised path.
	Configs map[string][]byte
	// Logs is the signature scan of every log member.
	Logs *evidence.NodeLogs
	// Newest is the collection time: the time the EKS log collector wrote into the archive's
	// name (namedCollectionTime) when the name carries one, else the newest member modification
	// time, zero when unknown; times outside [minCollectionTime, maxCollectionTime) are not counted.
	Newest   time.Time
	Problems []Problem
	// Damaged is true when part of the bundle could not be read: a truncated or corrupt
	// archive (a bad tar header, a cut gzip stream, a bad CRC or size in a gzip trailer), a
	// truncated compressed log inside it, or members that failed to read. What was read
	// before the damage is kept; Problems name each member and offset. A damaged bundle is
	// a partial result, never a clean end.
	Damaged bool
	// Bytes is the total uncompressed size read.
	Bytes int64
	// KubeDNS is the ClusterIP of Service kube-system/kube-dns as kube-proxy's iptables rules on
	// the node name it (iptables-nat, networking/iptables-nat.txt or iptables-save.txt), "" when no
	// rule names it; KubeDNSSource is the member and line ("networking/iptables-nat.txt:42").
	KubeDNS, KubeDNSSource string
	// Limit, when not empty, says which limit (--max-bytes, --max-members) stopped the read or
	// made a member be skipped. What was read before is kept, the limit is among Problems and
	// Damaged is set: the part not read may hold the cause.
	Limit string
}

type member struct {
	name  string
	mtime time.Time
	size  int64
	open  func() (io.ReadCloser, error)
	r     io.Reader // set for streamed (tar) members instead of open
	// offset is where the member's data starts: in the uncompressed tar stream, or in the
	// zip file; -1 when unknown (directories).
	offset int64
}

// minCollectionTime and maxCollectionTime bound a member modification time taken as the
// bundle's collection time: an EKS node's logs are newer than 2000, and a time past 2199 is as
// absurd as the snapshot format's bound (collectors/snapshot).
var (
	minCollectionTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	maxCollectionTime = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

type reader struct {
	// named is the collection time the archive's name gives (namedCollectionTime), zero when
	// it gives none, and namedPrec its precision; member times do not change the year
	// year-less log lines take then
	named     time.Time
	namedPrec time.Duration
	lim       Limits
	b         *Bundle
	sc        *logscan.Scanner
	members   int
	total     int64
	seenBR    bool
	seenAll   bool // every member is under bottlerocket-logs/
	// besideBR are the first path components not under bottlerocket-logs/ (at most
	// maxBesideBR), listed when the bundle is read as Bottlerocket all the same.
	besideBR []string
	// nestedDir is the first wrapper folder found with a bundle's folder right under it
	// ("eks_i-…/" holding kubelet/), and nestedArchive the first archive at the top: named when
	// no bundle is found at the top (the bundle is one level down).
	nestedDir, nestedArchive string
	// topArchives counts the archives at the top (outside any folder); one, in an archive that
	// holds no bundle, is read as the bundle (Open, ReadZip).
	topArchives int
	// wrap is the one folder the whole bundle sits in ("eks_i-…/" holding kubelet/, "case-123/"
	// holding bottlerocket-logs/: an extracted bundle packed again), stripped from every name
	// (unwrap); wrapDecided is set once it is settled (confirmed, or none).
	wrap        string
	wrapDecided bool
	firsts      map[string]bool
	// seen are the cleaned names of the regular members read, to set a repeated one aside
	seen map[string]bool
	// prefix is put before every name read from a directory ("bottlerocket-logs/" when the
	// directory given is an extracted logdog folder itself).
	prefix string
	// read and failed count the members whose content was read, and those that failed.
	read, failed int
	// dir is set when reading an extracted directory (its bytes are not a gzip bomb).
	dir bool
	// current is the member being read, named with the limit that stops in it.
	current string
	// limitErr is the first limit reached (it wraps ErrLimit).
	limitErr error
}

// errStop ends the reading of an archive after damage that leaves the rest unreadable; what
// was read is kept (Bundle.Damaged).
var errStop = errors.New("reading stopped at damage")

// damage records a read problem that loses data and marks the bundle damaged.
func (rd *reader) damage(p, msg string) {
	rd.b.Damaged = true
	rd.problem(p, msg)
}

func (lim Limits) withDefaults() Limits {
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = DefaultLimits.MaxBytes
	}
	if lim.MaxMembers <= 0 {
		lim.MaxMembers = DefaultLimits.MaxMembers
	}
	if lim.MaxConfigBytes <= 0 {
		lim.MaxConfigBytes = DefaultLimits.MaxConfigBytes
	}
	if lim.MaxLineBytes <= 0 {
		lim.MaxLineBytes = DefaultLimits.MaxLineBytes
	}
	return lim
}

func newReader(name string, lim Limits) *reader {
	sc := logscan.MustDefault()
	lim = lim.withDefaults()
	sc.Block = lim.MaxLineBytes
	rd := &reader{lim: lim, b: &Bundle{Name: name, Configs: map[string][]byte{}}, sc: sc, seenAll: true, firsts: map[string]bool{}, seen: map[string]bool{}}
	if t, prec, ok := namedCollectionTime(name); ok {
		rd.named, rd.namedPrec = t, prec
		sc.Ref = t
	}
	return rd
}

// reCollectorName is the time the EKS log collector writes into its archive's name: the Linux
// script's eks_INSTANCE_2006-01-02_1504-UTC_VERSION.tar.gz (date --utc +%Y-%m-%d_%H%M-%Z) and
// the Windows script's eks_INSTANCE_20060102T1504050000Z.zip (Get-Date -Format
// FileDateTimeUniversal); awslabs/amazon-eks-ami log-collector-script/linux/eks-log-collector.sh
// (CURRENT_TIME) and windows/eks-log-collector.ps1 ($curtime).
var reCollectorName = regexp.MustCompile(`^eks_i-[0-9a-f]+_(?:(\d{4}-\d\d-\d\d_\d{4})-UTC|(\d{8}T\d{6})\d*Z)`)

// namedCollectionTime returns the collection time an EKS log collector archive's name carries
// (UTC) and its precision (a minute on Linux, a second on Windows); ok is false when the base
// name of p has none or it is outside [minCollectionTime, maxCollectionTime). The name is the
// collector's own record of when it ran: member times change when a bundle is extracted and
// packed again.
func namedCollectionTime(p string) (t time.Time, prec time.Duration, ok bool) {
	m := reCollectorName.FindStringSubmatch(filepath.Base(p))
	if m == nil {
		return time.Time{}, 0, false
	}
	var err error
	if m[1] != "" {
		t, err = time.Parse("2006-01-02_1504", m[1])
		prec = time.Minute
	} else {
		t, err = time.Parse("20060102T150405", m[2])
		prec = time.Second
	}
	if err != nil || t.Before(minCollectionTime) || !t.Before(maxCollectionTime) {
		return time.Time{}, 0, false
	}
	return t, prec, true
}

// namedSlack is how much later than the time in its name a collector's archive may have been
// written: the collector copies the logs, then packs them.
const namedSlack = 10 * time.Minute

// collectionTime settles Newest when the archive's name carries the collection time: member
// times that agree with it (from the named time to namedSlack after) are kept, being more
// precise; others (a bundle extracted and packed again) give way to the end of the named
// minute or second.
func (rd *reader) collectionTime() {
	if rd.named.IsZero() {
		return
	}
	end := rd.named.Add(rd.namedPrec - time.Second)
	if n := rd.b.Newest; n.Before(rd.named) || n.After(end.Add(namedSlack)) {
		rd.b.Newest = end
	}
}

// Magic numbers.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zipMagic  = []byte("PK\x03\x04")
)

// Open reads the bundle at p: a .tar.gz or .zip file (detected by content, not name) or a
// directory holding an extracted bundle. It returns ErrNotBundle (wrapped) when p is readable but
// holds no bundle layout, an error wrapping ErrLimit when a limit was hit, and other errors for
// unreadable or corrupt input; each names p.
func Open(p string, lim Limits) (*Bundle, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	rd := newReader(p, lim)
	if st.IsDir() {
		root, rerr := filepath.EvalSymlinks(p) // a symlink to the bundle directory is followed
		if rerr != nil {
			return nil, rerr
		}
		if isLogdogDir(root) {
			rd.prefix = "bottlerocket-logs/"
		}
		rd.dir = true
		err = rd.readDir(root)
	} else {
		f, ferr := os.Open(p)
		if ferr != nil {
			return nil, ferr
		}
		defer f.Close()
		head := make([]byte, 262)
		n, _ := io.ReadFull(f, head)
		head = head[:n]
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		isZip := bytes.HasPrefix(head, zipMagic)
		switch {
		case isZip:
			err = rd.readZip(f, st.Size())
		case bytes.HasPrefix(head, gzipMagic):
			err = rd.readTarGz(f)
		case IsTar(head):
			err = rd.readTar(bufio.NewReaderSize(f, 1<<20))
		default:
			return nil, fmt.Errorf("%s: %w (neither a tar, gzip-compressed or not, nor a zip)", p, ErrNotBundle)
		}
		if err == nil {
			if b, ok, derr := rd.inner(f, st.Size(), isZip); ok || derr != nil {
				return b, derr
			}
		}
	}
	if err = rd.keepAtLimit(err); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if err := rd.finish(); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return rd.b, nil
}

// inner reads the one archive an archive without a bundle holds at its top as the bundle
// (descend). ok is false, with no error, when the outer archive is a bundle itself, or holds
// no such archive, or one that cannot be read in place: the outer reading stands.
func (rd *reader) inner(ra io.ReaderAt, size int64, isZip bool) (*Bundle, bool, error) {
	if rd.kindFound() {
		return nil, false, nil
	}
	b, err := descend(rd, ra, size, isZip)
	if errors.Is(err, errNotStreamable) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", nestedName(rd.b.Name, rd.nestedArchive), err)
	}
	return b, true, nil
}

// ReadTarGz reads a gzip-compressed tar bundle from r (for example standard input).
func ReadTarGz(r io.Reader, name string, lim Limits) (*Bundle, error) {
	rd := newReader(name, lim)
	if err := rd.keepAtLimit(rd.readTarGz(r)); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := rd.finish(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return rd.b, nil
}

// ReadTar reads an uncompressed tar bundle from r (for example standard input: a bundle whose
// gzip layer was removed, `gunzip -c eks_i-….tar.gz |`). Errors are those of Open, naming name.
func ReadTar(r io.Reader, name string, lim Limits) (*Bundle, error) {
	rd := newReader(name, lim)
	if err := rd.keepAtLimit(rd.readTar(bufio.NewReaderSize(r, 1<<20))); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := rd.finish(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return rd.b, nil
}

// ReadZip reads a zip bundle from ra of the given size.
func ReadZip(ra io.ReaderAt, size int64, name string, lim Limits) (*Bundle, error) {
	rd := newReader(name, lim)
	err := rd.readZip(ra, size)
	if err == nil {
		if b, ok, derr := rd.inner(ra, size, true); ok || derr != nil {
			return b, derr
		}
	}
	if err := rd.keepAtLimit(err); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := rd.finish(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return rd.b, nil
}

// readTarGz reads a gzip-compressed tar. Damage after the first member (a bad header, a
// stream cut inside a member, a bad gzip trailer) is recorded with the member and the offset
// in the uncompressed archive, and the members read before it are kept; damage before any
// member is an error.
func (rd *reader) readTarGz(r io.Reader) error {
	zr, err := packed.NewGzip(bufio.NewReaderSize(r, 1<<20))
	if err != nil {
		return fmt.Errorf("not gzip: %v", err)
	}
	defer zr.Close()
	// no read-ahead here: the signature scanner reads each log member ahead on its own
	// goroutine into the buffers it matches (logscan.Scanner.ScanFrom), so decompression and
	// matching overlap on two cores without a second copy of every byte
	if err := rd.readTar(zr); err != nil {
		return err
	}
	if note := zr.TrailingNote(); note != "" {
		// bytes after the stream's end (appended, padding), ignored as gzip(1) ignores them:
		// the members before them were read intact, so the bundle is not damaged
		rd.problem(orArchive(rd.b.Name), note)
	}
	return nil
}

// readTar reads a tar stream (decompressed, or a bundle someone un-gzipped): the members, the
// archives appended after an end marker, and the rest of the stream to its end.
func (rd *reader) readTar(src io.Reader) error {
	pos := &posReader{r: src}
	tr := tar.NewReader(pos)
	last := ""
	var nextHeader int64 // where the header after the last member starts
	for {
		h, err := tr.Next()
		if err == io.EOF {
			// An archive appended after this one's end marker (cat a.tar b.tar | gzip, read by
			// tar -i) holds members too: read them rather than lose them unsaid.
			at := pos.n
			next, err := afterEndMarker(&countingReader{r: pos, rd: rd})
			switch {
			case errors.Is(err, ErrLimit):
				return err
			case err != nil:
				rd.damage(orArchive(last), fmt.Sprintf("the gzip stream is damaged after the last member, at byte %d of the uncompressed archive: %v (the CRC-32 or size in the gzip trailer does not match, or the file is cut inside it)", pos.n, err))
				return nil
			case next != nil:
				rd.problem(orArchive(last), fmt.Sprintf("another tar archive follows the end-of-archive marker (at byte %d of the uncompressed archive); its members are read too", at))
				tr = tar.NewReader(io.MultiReader(next, pos))
				continue
			}
			// The tar end marker is not the end of the gzip stream: read on to the trailer so
			// a bad CRC, a wrong size or a cut inside the last 8 bytes is not taken for a
			// clean end (the padding after the marker counts against --max-bytes).
			if _, err := io.Copy(io.Discard, &countingReader{r: pos, rd: rd}); err != nil {
				if errors.Is(err, ErrLimit) {
					return err
				}
				rd.damage(orArchive(last), fmt.Sprintf("the gzip stream is damaged after the last member, at byte %d of the uncompressed archive: %v (the CRC-32 or size in the gzip trailer does not match, or the file is cut inside it)", pos.n, err))
			}
			return nil
		}
		if err != nil {
			if last == "" {
				return fmt.Errorf("corrupt or truncated archive at byte %d (before the first member): %v", pos.n, err)
			}
			rd.damage(last, fmt.Sprintf("the archive is damaged after this member: the next header, at byte %d of the uncompressed archive, does not read (%v); the members before it were read, the rest is lost", nextHeader, err))
			return nil
		}
		last = h.Name
		nextHeader = pos.n + (h.Size+511)/512*512
		rd.current = h.Name
		if err := rd.countMember(); err != nil {
			return err
		}
		if h.Typeflag == tar.TypeGNUSparse || paxSparse(h) {
			// a sparse member's holes are expanded as zeros by archive/tar: a 600-byte archive
			// may declare a 1 TiB file, so it is never read (GNU and PAX formats alike)
			rd.problem(h.Name, fmt.Sprintf("skipped: a sparse file (%d bytes declared; sparse members are never expanded)", h.Size))
			continue
		}
		switch h.Typeflag {
		case tar.TypeDir:
			rd.noteName(h.Name, true)
			continue
		case tar.TypeReg:
		case tar.TypeSymlink, tar.TypeLink:
			rd.problem(h.Name, "skipped: link to "+h.Linkname+" (links are never followed)")
			continue
		case tar.TypeXGlobalHeader:
			continue
		default:
			rd.problem(h.Name, fmt.Sprintf("skipped: not a regular file (type %q)", string(h.Typeflag)))
			continue
		}
		err = rd.handle(member{name: h.Name, mtime: h.ModTime, size: h.Size, r: tr, offset: pos.n})
		if err == errStop {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// paxSparse reports whether a tar header is a sparse file of the PAX format (GNU tar -S
// --format=pax: GNU.sparse.* records, formats 0.0 to 1.0), which archive/tar presents as a
// regular file whose holes it fills in.
func paxSparse(h *tar.Header) bool {
	for k := range h.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

// afterEndMarker reads the zero blocks after a tar's end-of-archive marker. It returns the
// first block that is not zero (the header of an appended archive) to read on from, or nil at
// the end of the stream (the caller then checks the gzip trailer).
func afterEndMarker(r io.Reader) (io.Reader, error) {
	block := make([]byte, 512)
	for {
		n, err := io.ReadFull(r, block)
		if n == 512 && !allZero(block) {
			return bytes.NewReader(block), nil
		}
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, err // a tar is whole blocks: a part of one is a cut stream
		}
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func orArchive(name string) string {
	if name == "" {
		return "(archive)"
	}
	return name
}

// posReader counts the bytes read through it (the offset in the uncompressed archive).
type posReader struct {
	r io.Reader
	n int64
}

func (p *posReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.n += int64(n)
	return n, err
}

// errReader remembers the first error other than io.EOF its reader returned, so a read
// failure can be told apart as the archive's (outer) or a compressed member's own (inner).
type errReader struct {
	r   io.Reader
	n   int64
	err error
}

func (e *errReader) Read(b []byte) (int, error) {
	n, err := e.r.Read(b)
	e.n += int64(n)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

func (rd *reader) readZip(ra io.ReaderAt, size int64) error {
	// archive/zip holds every central-directory record before the first member can be
	// counted (about 700 bytes each: a 200,000-member zip of empty files took 150 MiB), so the
	// count the archive declares is checked first
	if n, ok := zipEntries(ra, size); ok && n > uint64(rd.lim.MaxMembers) {
		return fmt.Errorf("%w: the zip declares %d members, more than %d (raise --max-members)", ErrLimit, n, rd.lim.MaxMembers)
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return fmt.Errorf("corrupt zip: %v", err)
	}
	for _, f := range zr.File {
		name := strings.ReplaceAll(f.Name, `\`, "/")
		rd.current = name
		if err := rd.countMember(); err != nil {
			return err
		}
		if f.FileInfo().IsDir() || strings.HasSuffix(name, "/") {
			rd.noteName(name, true)
			continue
		}
		if !f.Mode().IsRegular() {
			rd.problem(name, "skipped: not a regular file ("+f.Mode().Type().String()+")")
			continue
		}
		f := f
		if err := rd.handle(member{name: name, mtime: f.Modified, size: int64(f.UncompressedSize64), open: f.Open, offset: dataOffset(f)}); err != nil {
			return err
		}
	}
	return nil
}

// zipEntries returns the number of central-directory records a zip declares in its end of
// central directory record (APPNOTE.TXT 4.3.16; the ZIP64 record of 4.3.14, found through its
// locator, 4.3.15, when the 16-bit count is 0xFFFF), and false when no such record is found in
// the last 64 KiB + 22 bytes (archive/zip then reports the file as corrupt).
func zipEntries(ra io.ReaderAt, size int64) (uint64, bool) {
	const eocdLen, locLen = 22, 20
	tail := min(size, 65535+eocdLen)
	buf := make([]byte, tail)
	if _, err := ra.ReadAt(buf, size-tail); err != nil && err != io.EOF {
		return 0, false
	}
	at := -1
	for i := len(buf) - eocdLen; i >= 0; i-- {
		if buf[i] == 'P' && buf[i+1] == 'K' && buf[i+2] == 5 && buf[i+3] == 6 {
			at = i
			break
		}
	}
	if at < 0 {
		return 0, false
	}
	n := uint64(binary.LittleEndian.Uint16(buf[at+10:]))
	if n != 0xFFFF || at < locLen {
		return n, true
	}
	loc := buf[at-locLen:]
	if !bytes.HasPrefix(loc, []byte("PK\x06\x07")) {
		return n, true
	}
	off := int64(binary.LittleEndian.Uint64(loc[8:]))
	rec := make([]byte, 56)
	if off < 0 || off > size-56 {
		return n, true
	}
	if _, err := ra.ReadAt(rec, off); err != nil || !bytes.HasPrefix(rec, []byte("PK\x06\x06")) {
		return n, true
	}
	return binary.LittleEndian.Uint64(rec[32:]), true
}

// dataOffset is where a zip member's data starts in the file (-1 when unknown).
func dataOffset(f *zip.File) int64 {
	off, err := f.DataOffset()
	if err != nil {
		return -1
	}
	return off
}

// firstDamage describes the first damaged member.
func (rd *reader) firstDamage() string {
	for _, p := range rd.b.Problems {
		return p.Path + ": " + p.Problem
	}
	return "no detail"
}

// isLogdogDir reports whether dir is an extracted bottlerocket-logs/ folder itself (its name,
// or logdog's own error list at its top).
func isLogdogDir(dir string) bool {
	if filepath.Base(dir) == "bottlerocket-logs" {
		return true
	}
	if _, err := os.Stat(filepath.Join(dir, "bottlerocket-logs")); err == nil {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, "logdog.errors"))
	return err == nil
}

func (rd *reader) readDir(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			if rel == "." {
				return err
			}
			rd.failed++
			rd.damage(rd.prefix+rel, "cannot be read: "+err.Error())
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if rel == "." {
			return nil
		}
		rel = rd.prefix + rel
		rd.current = rel
		if err := rd.countMember(); err != nil {
			return err
		}
		if d.IsDir() {
			if c, ok := clean(rel); ok && macMetadata(c) {
				return fs.SkipDir
			}
			rd.noteName(rel, true)
			return nil
		}
		if !d.Type().IsRegular() {
			rd.problem(rel, "skipped: not a regular file ("+d.Type().String()+"; links are never followed)")
			return nil
		}
		info, err := d.Info()
		if err != nil {
			rd.failed++
			rd.damage(rel, "cannot be read: "+err.Error())
			return nil
		}
		return rd.handle(member{name: rel, mtime: info.ModTime(), size: info.Size(), open: func() (io.ReadCloser, error) { return os.Open(p) }})
	})
}

func (rd *reader) countMember() error {
	rd.members++
	if rd.members > rd.lim.MaxMembers {
		return rd.limit(fmt.Errorf("%w: more than %d members (raise --max-members)", ErrLimit, rd.lim.MaxMembers))
	}
	return nil
}

// limit remembers the first limit reached and returns it.
func (rd *reader) limit(err error) error {
	if rd.limitErr == nil {
		rd.limitErr = err
	}
	return err
}

// keepAtLimit judges the error that ended a read. A limit reached after at least one member was
// read whole keeps what was read: the limit is listed at the member it stopped in, the bundle
// is damaged (the rest may hold the cause) and nil is returned. A limit reached before, or any
// other error, is returned as it is.
func (rd *reader) keepAtLimit(err error) error {
	if err == nil || !errors.Is(err, ErrLimit) || rd.read == 0 {
		return err
	}
	lim := rd.limitErr
	if lim == nil {
		lim = err
	}
	rd.damage(orArchive(rd.current), "reading stopped here: "+lim.Error()+"; the members before were read (this one in part at most), the rest of the bundle was not")
	if rd.b.Limit == "" {
		rd.b.Limit = lim.Error()
	}
	return nil
}

// bomb is the hint the byte limit gives: archives may be gzip bombs, a directory's files not.
func (rd *reader) bomb() string {
	if rd.dir {
		return "raise --max-bytes"
	}
	return "a gzip bomb, or raise --max-bytes"
}

func (rd *reader) problem(p, msg string) {
	rd.b.Problems = append(rd.b.Problems, Problem{Path: p, Problem: msg})
}

// clean normalises a member name; ok is false for hostile names (absolute, "..").
func clean(name string) (string, bool) {
	name = strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(name, "/") || (len(name) > 1 && name[1] == ':') {
		return "", false
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return "", false
		}
	}
	c := path.Clean("/" + name)[1:]
	return c, c != ""
}

// macMetadata reports whether a cleaned member name is macOS Finder metadata, never evidence:
// the __MACOSX/ tree of a Finder "Compress" zip, AppleDouble "._NAME" files (a tar made on macOS
// carries one per file) and .DS_Store.
func macMetadata(c string) bool {
	if c == "__MACOSX" || strings.HasPrefix(c, "__MACOSX/") {
		return true
	}
	base := path.Base(c)
	return strings.HasPrefix(base, "._") || base == ".DS_Store"
}

// maxBesideBR bounds the entries beside bottlerocket-logs/ that are listed.
const maxBesideBR = 8

// unwrap settles and strips the wrapper folder (reader.wrap) from a cleaned name. The first
// entry below a top-level folder that is no bundle folder makes that folder the wrapper,
// tentatively ("eks_i-0abc/…": an extracted bundle packed again); a bundle folder right under it
// confirms it, and an entry outside it before that cancels it (the names read meanwhile stay
// as stripped). An entry at the top — a bundle folder, a file — means no wrapper. Once
// confirmed, a name outside the wrapper is listed as beside the bundle and not read (keep
// false); the wrapper's own folder entry is not recorded.
func (rd *reader) unwrap(c string, dir bool) (string, bool) {
	first, _, deeper := strings.Cut(c, "/")
	if !rd.wrapDecided && rd.wrap == "" {
		switch {
		case !deeper && dir && !collectorFolders[first]:
			return c, false // the wrapper's own entry, or a folder that will be seen again below
		case !deeper || collectorFolders[first]:
			rd.wrapDecided = true
			return c, true
		}
		rd.wrap = first + "/"
	}
	if rd.wrap == "" {
		return c, true
	}
	if inner, ok := strings.CutPrefix(c, rd.wrap); ok || c+"/" == rd.wrap {
		if !rd.wrapDecided {
			if top, _, _ := strings.Cut(inner, "/"); bundleFolders[top] {
				rd.wrapDecided = true
			}
		}
		return inner, inner != ""
	}
	if !rd.wrapDecided {
		// not one folder after all: names are read as they are from here on
		rd.wrap, rd.wrapDecided = "", true
		return c, true
	}
	if !dir {
		rd.problem(c, "beside the bundle's folder "+rd.wrap+": not part of the bundle, not read")
	}
	return c, false
}

// noteName records the first path component of a folder entry (or a file's name, through
// handle) for kind detection, after the wrapper folder is stripped (unwrap).
func (rd *reader) noteName(name string, dir bool) {
	c, ok := clean(name)
	if !ok || macMetadata(c) {
		return
	}
	if c, ok = rd.unwrap(c, dir); ok {
		rd.noteUnwrapped(c, dir)
	}
}

// noteUnwrapped records the first path component for kind detection. macOS metadata is not
// counted, nor an archive at the top (the bottlerocket-logs.tar.gz that `tar xzf` leaves
// beside the folder it made, listed when read as an archive inside the bundle).
func (rd *reader) noteUnwrapped(c string, dir bool) {
	first, rest, _ := strings.Cut(c, "/")
	if second, _, _ := strings.Cut(rest, "/"); rd.nestedDir == "" && bundleFolders[second] {
		rd.nestedDir = first + "/"
	}
	if !dir && first == c && isArchive(c) && rd.nestedArchive == "" {
		rd.nestedArchive = c
	}
	switch {
	case first == "bottlerocket-logs":
		rd.seenBR = true
	case !dir && first == c && isArchive(c):
	default:
		rd.seenAll = false
		if !rd.firsts[first] && len(rd.besideBR) < maxBesideBR {
			rd.besideBR = append(rd.besideBR, first)
		}
	}
	rd.firsts[first] = true
}

// countingReader enforces Limits.MaxBytes across all members.
type countingReader struct {
	r  io.Reader
	rd *reader
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.rd.total += int64(n)
	if c.rd.total > c.rd.lim.MaxBytes {
		return n, c.rd.limit(fmt.Errorf("%w: more than %d uncompressed bytes (%s)", ErrLimit, c.rd.lim.MaxBytes, c.rd.bomb()))
	}
	return n, err
}

// skipStreamed charges a streamed tar member that is passed over against Limits.MaxBytes: the
// gzip stream is decompressed through it all the same to reach the next header, so an ignored
// member of a few KiB compressed and terabytes uncompressed must stop at the limit like a read
// one. A member of a directory or a zip costs nothing to pass over.
func (rd *reader) skipStreamed(m member, what string) error {
	if m.r == nil {
		return nil
	}
	if left := rd.lim.MaxBytes - rd.total; m.size > left {
		return rd.limit(fmt.Errorf("%w: more than %d uncompressed bytes: %s %s declares %d bytes and %d are left (%s)", ErrLimit, rd.lim.MaxBytes, what, m.name, m.size, max(left, 0), rd.bomb()))
	}
	rd.total += m.size
	return nil
}

func (rd *reader) handle(m member) error {
	c, ok := clean(m.name)
	if !ok {
		rd.problem(m.name, "skipped: unsafe member name (absolute or containing ..)")
		return rd.skipStreamed(m, "the skipped member")
	}
	if macMetadata(c) {
		return rd.skipStreamed(m, "macOS metadata")
	}
	if c, ok = rd.unwrap(c, false); !ok {
		return rd.skipStreamed(m, "a member beside the bundle's folder")
	}
	rd.noteUnwrapped(c, false)
	if rd.seen[c] {
		// as for a snapshot: the first copy is used, and the report says the others were not
		rd.problem(m.name, "the archive holds this member more than once; the first copy is used, this one is skipped")
		return rd.skipStreamed(m, "the skipped member")
	}
	rd.seen[c] = true
	rel := strings.TrimPrefix(c, "bottlerocket-logs/")
	if !strings.Contains(c, "/") && isArchive(c) {
		rd.topArchives++
	}
	switch {
	case m.mtime.Before(minCollectionTime) || !m.mtime.Before(maxCollectionTime):
		// a reproducible archive's 0, a zip's DOS epoch, a negative or far-future time: not
		// when the logs were collected, and a year-less log line must not take its year from it
	case m.mtime.After(rd.b.Newest):
		rd.b.Newest = m.mtime
		if rd.named.IsZero() {
			rd.sc.Ref = m.mtime
		}
	}
	rd.b.Files = append(rd.b.Files, rel)
	if isArchive(rel) {
		// an archive inside the bundle (a bundle packed into another, a collector's output
		// saved in it) is never opened: listing it says that what it holds was not read
		rd.problem(m.name, NestedArchiveProblem)
		return nil
	}
	role, stream := classify(rel)
	if role == roleIgnore {
		return rd.skipStreamed(m, "the member eksdoctor does not read")
	}
	rd.current = rel
	if left := rd.lim.MaxBytes - rd.total; m.size > left {
		// the size is known before reading: a member that cannot fit is not read up to the
		// limit first (a 20 GiB sparse file in a directory took a minute to reach it)
		msg := fmt.Sprintf("more than %d uncompressed bytes: the member declares %d bytes and %d are left (%s)", rd.lim.MaxBytes, m.size, max(left, 0), rd.bomb())
		if m.r != nil {
			// a streamed tar member would be decompressed all the same to skip it
			return rd.limit(fmt.Errorf("%w: %s", ErrLimit, msg))
		}
		// a file of a directory or a zip member is passed over at no cost: the rest is read
		rd.damage(rel, "skipped: "+msg)
		if rd.b.Limit == "" {
			rd.b.Limit = "limit exceeded: " + msg
		}
		return nil
	}
	r := m.r
	if r == nil {
		rc, err := m.open()
		if err != nil {
			rd.failed++
			rd.damage(rel, "cannot read: "+err.Error())
			return nil
		}
		defer rc.Close()
		r = rc
	}
	outer := &errReader{r: r}
	cr := &countingReader{r: outer, rd: rd}
	var in io.Reader = cr
	var inner *errReader
	if strings.HasSuffix(rel, ".gz") {
		zr, err := packed.NewGzip(cr)
		if err != nil {
			if outer.err != nil {
				return rd.memberErr(m, rel, outer, nil, err)
			}
			rd.problem(rel, "not gzip: "+err.Error())
			return nil
		}
		defer zr.Close()
		defer func() {
			// bytes after the end of a rotated log's gzip stream are ignored, as zcat ignores
			// them; the log before them was read whole
			if note := zr.TrailingNote(); note != "" {
				rd.problem(rel, note)
			}
		}()
		// a nested stream counts against the same budget
		inner = &errReader{r: zr}
		in = &countingReader{r: inner, rd: rd}
	}
	if role == roleKubeDNS {
		ip, line, err := iptablesKubeDNS(textenc.Reader(in))
		if err != nil {
			return rd.memberErr(m, rel, outer, inner, err)
		}
		if ip != "" && rd.b.KubeDNS == "" {
			rd.b.KubeDNS, rd.b.KubeDNSSource = ip, fmt.Sprintf("%s:%d", rel, line)
		}
		rd.read++
		return nil
	}
	if role == roleConfig || role == roleBoth {
		if m.size <= rd.lim.MaxConfigBytes {
			// a configuration or log saved by PowerShell is UTF-16 like the logs (textenc.Reader)
			data, err := io.ReadAll(io.LimitReader(textenc.Reader(in), rd.lim.MaxConfigBytes+1))
			if err != nil {
				return rd.memberErr(m, rel, outer, inner, err)
			}
			if int64(len(data)) <= rd.lim.MaxConfigBytes {
				rd.b.Configs[rel] = data
			}
			rd.read++
			if role == roleBoth {
				rd.scan(bytes.NewReader(data), rel, stream)
			}
			return nil
		}
		if role == roleConfig {
			rd.problem(rel, fmt.Sprintf("not parsed: %d bytes is over the configuration limit", m.size))
			return nil
		}
	}
	if err := rd.scan(textenc.Reader(in), rel, stream); err != nil {
		return rd.memberErr(m, rel, outer, inner, err)
	}
	rd.read++
	return nil
}

func (rd *reader) scan(r io.Reader, rel, stream string) error {
	rd.sc.CSVQuoted = strings.HasSuffix(strings.ToLower(rel), ".csv")
	return rd.sc.Scan(r, rel, stream)
}

// memberErr judges a failed read of one member. A limit ends the read (exit 4). Damage of the
// archive itself inside a streamed (tar) member stops reading there, keeping what was read;
// damage of a zip or directory member, or of a compressed log inside the archive (a rotated
// .gz cut short or with a bad CRC), loses that member's rest and reading goes on. Each is
// recorded with the member and the offset.
func (rd *reader) memberErr(m member, rel string, outer, inner *errReader, err error) error {
	if errors.Is(err, ErrLimit) {
		return err
	}
	at := ""
	if m.offset >= 0 {
		at = fmt.Sprintf(", member data at byte %d of the %s", m.offset, map[bool]string{true: "uncompressed archive", false: "file"}[m.r != nil])
	}
	switch {
	case outer.err != nil && m.r != nil:
		rd.damage(rel, fmt.Sprintf("the archive is truncated or corrupt inside this member: %v after %d of its %d bytes%s; the lines before were scanned, the rest of the archive is lost", err, outer.n, m.size, at))
		return errStop
	case outer.err != nil:
		rd.failed++
		rd.damage(rel, fmt.Sprintf("the member is corrupt: %v after %d of its %d bytes%s; the lines before were scanned", err, outer.n, m.size, at))
	case inner != nil:
		rd.damage(rel, fmt.Sprintf("the compressed log is truncated or corrupt: %v after %d uncompressed bytes (%d of its %d compressed bytes read%s); the lines before were scanned", err, inner.n, outer.n, m.size, at))
	default:
		rd.damage(rel, "read error: "+err.Error())
	}
	return nil
}

// kindFound reports whether what was read is a bundle of a kind finish recognises.
func (rd *reader) kindFound() bool {
	return rd.seenBR || rd.firsts["system"] || rd.firsts["kubelet"] || rd.firsts["ipamd"] || rd.firsts["var_log"]
}

func (rd *reader) finish() error {
	if rd.failed > 0 && rd.read == 0 {
		return fmt.Errorf("corrupt input: none of its %d members could be read (the first: %s)", rd.failed, rd.firstDamage())
	}
	switch {
	case rd.seenBR && rd.seenAll:
		rd.b.Kind = KindBottlerocket
	case rd.firsts["system"] && len(rd.b.Files) > 0 && isWindows(rd.b.Files):
		rd.b.Kind = KindEKSWindows
	case rd.firsts["kubelet"] || rd.firsts["ipamd"] || rd.firsts["var_log"] || (rd.firsts["system"] && rd.firsts["kernel"]):
		rd.b.Kind = KindEKSLinux
	case rd.seenBR:
		// logdog's folder with something beside it (notes, another download): the folder is
		// the bundle, and what sits beside it is listed
		rd.b.Kind = KindBottlerocket
		for _, f := range rd.besideBR {
			rd.problem(f, "beside bottlerocket-logs/: not part of the logdog bundle")
		}
	default:
		err := fmt.Errorf("%w: no bottlerocket-logs/ folder, no EKS log collector directories (kubelet/, ipamd/, system/, var_log/)", ErrNotBundle)
		if h := rd.nestedHint(); h != "" {
			return &notBundleError{err: err, hint: h}
		}
		return err
	}
	sort.Strings(rd.b.Files)
	rd.b.Bytes = rd.total
	rd.collectionTime()
	rd.sc.Ref = rd.b.Newest
	rd.b.Logs = rd.sc.Result(rd.b.Kind)
	return nil
}

// collectorFolders are the folders a bundle has at its top: the EKS Linux log collector's
// COMMON_DIRECTORIES (awslabs/amazon-eks-ami log-collector-script/linux/eks-log-collector.sh)
// and logdog's bottlerocket-logs; none of them is ever a wrapper folder.
var collectorFolders = map[string]bool{"kernel": true, "modinfo": true, "system": true, "docker": true, "containerd": true,
	"storage": true, "var_log": true, "networking": true, "sandbox-image": true, "ipamd": true, "sysctls": true, "kubelet": true,
	"nodeadm": true, "cni": true, "gpu": true, "bottlerocket-logs": true}

// bundleFolders are the folders that make a bundle at the top of an archive or directory.
var bundleFolders = map[string]bool{"bottlerocket-logs": true, "kubelet": true, "ipamd": true, "var_log": true, "system": true}

// nestedHint names the bundle found one level down, and how to give it; "" when none was.
func (rd *reader) nestedHint() string {
	switch {
	case rd.nestedDir != "" && rd.dir:
		return fmt.Sprintf("the bundle is one level down, in %s: run analyze %s", rd.nestedDir, filepath.Join(rd.b.Name, rd.nestedDir)+string(filepath.Separator))
	case rd.nestedDir != "":
		return fmt.Sprintf("the bundle is one level down, in %s: extract the archive and run analyze %s", rd.nestedDir, rd.nestedDir)
	case rd.nestedArchive != "":
		return fmt.Sprintf("it holds the archive %s, which is never opened: extract it and run analyze on %s", rd.nestedArchive, rd.nestedArchive)
	}
	return ""
}

// notBundleError is ErrNotBundle with a hint naming the bundle found one level down.
type notBundleError struct {
	err  error
	hint string
}

func (e *notBundleError) Error() string { return e.err.Error() + "; " + e.hint }
func (e *notBundleError) Unwrap() error { return e.err }

// Hint returns what an ErrNotBundle error found one level down and how to give it ("the bundle
// is one level down, in eks_i-…/: …", "it holds the archive eks_i-….tar.gz …: extract it …"),
// or "" when it found none (or err is another error).
func Hint(err error) string {
	var nb *notBundleError
	if errors.As(err, &nb) {
		return nb.hint
	}
	return ""
}

func isWindows(files []string) bool {
	for _, f := range files {
		if !strings.HasPrefix(strings.ToLower(f), "system/") {
			return false
		}
	}
	for _, f := range files {
		lf := strings.ToLower(f)
		if strings.HasPrefix(lf, "system/kubelet/kubelet-service.csv") || lf == "system/sysinfo" || strings.HasSuffix(lf, ".evtx") || strings.HasSuffix(lf, "eventlogs.csv") {
			return true
		}
	}
	return false
}

// IsTar reports whether head, the first bytes of a file (262 or more), is an uncompressed tar
// archive: the POSIX "ustar" magic at offset 257 of its first header.
func IsTar(head []byte) bool {
	return len(head) >= 262 && string(head[257:262]) == "ustar"
}
