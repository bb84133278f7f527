// Package packed reads and recognises packed files for the collectors that take archives (a
// snapshot, a node log bundle, a paste): a gzip stream with bytes after its end (Gzip), and
// the compressed and archive formats eksdoctor does not read, told by their first bytes and
// named with the command that unpacks them (Sniff).
package packed

import (
	"bufio"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
)

// MaxTrailing is how many bytes after the end of a gzip stream Gzip counts (reads and
// discards) before it stops counting: a stream followed by endless bytes (a pipe) ends.
const MaxTrailing = 64 << 20

// Gzip reads a gzip stream of one or more members (gzip -c a b, pigz, files concatenated) as
// gzip(1) does: bytes after the end of a member that do not start another member (the two
// magic bytes 1f 8b) end the stream without an error, and Trailing then says how many there
// were. A member that starts and does not read (a bad header, a cut or corrupt deflate
// stream, a CRC-32 or size in its trailer that does not match) is an error as ever.
type Gzip struct {
	br       *bufio.Reader
	zr       *gzip.Reader
	trailing int64
	zeros    bool // every trailing byte was 0 (padding to a block size)
	more     bool // the count stopped at MaxTrailing
	err      error
}

// NewGzip starts reading the gzip stream of r (a *bufio.Reader is used as it is; anything else
// is buffered). The error is gzip's for a first member whose header does not read.
func NewGzip(r io.Reader) (*Gzip, error) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	return &Gzip{br: br, zr: zr}, nil
}

// Read reads the decompressed bytes of every member in turn; io.EOF at the end of the last
// one, whatever follows it.
func (g *Gzip) Read(p []byte) (int, error) {
	for {
		if g.err != nil {
			return 0, g.err
		}
		n, err := g.zr.Read(p)
		if err == io.EOF {
			g.memberEnd()
			err = nil
		}
		if n > 0 || err != nil {
			return n, err
		}
	}
}

// memberEnd decides, at the end of a member, between the next member, the end of the stream
// and trailing bytes (counted, up to MaxTrailing).
func (g *Gzip) memberEnd() {
	head, err := g.br.Peek(2)
	switch {
	case len(head) == 0 && err == io.EOF:
		g.err = io.EOF
	case len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b:
		if err := g.zr.Reset(g.br); err != nil {
			g.err = fmt.Errorf("the gzip member after the first does not start well: %w", err)
			return
		}
		g.zr.Multistream(false)
	case err != nil && err != io.EOF:
		g.err = err
	default:
		g.zeros = true
		buf := make([]byte, 32<<10)
		for g.trailing < MaxTrailing {
			n, err := g.br.Read(buf)
			for _, c := range buf[:n] {
				if c != 0 {
					g.zeros = false
					break
				}
			}
			g.trailing += int64(n)
			if err == io.EOF {
				g.err = io.EOF
				return
			}
			if err != nil {
				g.err = err
				return
			}
		}
		g.more = true
		g.err = io.EOF
	}
}

// Trailing is how many bytes followed the end of the gzip stream (0 when none; at most
// MaxTrailing), known once Read has returned io.EOF.
func (g *Gzip) Trailing() int64 { return g.trailing }

// TrailingNote says, for an input problem, what followed the end of the gzip stream: "" when
// nothing did, else "N bytes after the end of the gzip stream were ignored" and what they
// are (all zero, or not). The members before them were read whole (CRC-32 and size checked).
func (g *Gzip) TrailingNote() string {
	if g.trailing == 0 {
		return ""
	}
	n, were := fmt.Sprintf("%d bytes", g.trailing), "were"
	switch {
	case g.more:
		n = fmt.Sprintf("more than %d bytes", g.trailing)
	case g.trailing == 1:
		n, were = "1 byte", "was"
	}
	what := "not the start of a gzip member: something was appended to the file after it was compressed"
	if g.zeros {
		what = "all zero: padding, as a tape or block copy adds"
	}
	return fmt.Sprintf("%s after the end of the gzip stream %s ignored (%s); everything before was read intact, its CRC-32 and size checked", n, were, what)
}

// Close closes the decompressor (not the reader under it).
func (g *Gzip) Close() error { return g.zr.Close() }
