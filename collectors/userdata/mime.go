package userdata

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/textproto"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// handleMIME parses a MIME document (headers, then a multipart body) the way cloud-init and
// nodeadm read it. Parts are dispatched to handle in order.
func (d *decoder) handleMIME(text []byte, part string, firstLine, depth int) {
	tp := textproto.NewReader(bufio.NewReader(bytes.NewReader(text)))
	hdr, err := tp.ReadMIMEHeader()
	if err != nil && !errors.Is(err, io.EOF) {
		d.issue(evidence.IssueError, part, firstLine, "MIME headers do not parse: %v", err)
		return
	}
	headerLen := headerLength(text)
	body := text[headerLen:]
	bodyLine := firstLine + strings.Count(string(text[:headerLen]), "\n")
	if firstLine == 0 {
		bodyLine = 1 + strings.Count(string(text[:headerLen]), "\n")
	}
	ctHeader := hdr.Get("Content-Type")
	mediaType, params, perr := mime.ParseMediaType(ctHeader)
	if perr != nil {
		// Python's email parser (cloud-init) is lenient about unquoted boundaries such as //.
		mediaType, params = lenientMediaType(ctHeader)
	}
	if !strings.HasPrefix(mediaType, "multipart/") {
		// A single-part MIME document: the body is the content.
		d.handle(decodeTransfer(body, hdr.Get("Content-Transfer-Encoding"), d, part, bodyLine), part, mediaType, bodyLine, depth+1)
		return
	}
	boundary := params["boundary"]
	if boundary == "" {
		d.issue(evidence.IssueError, part, firstLine, "Content-Type %q has no boundary parameter; the parts cannot be found", ctHeader)
		return
	}
	d.cfg.Parts = append(d.cfg.Parts, describe(part, mediaType))
	d.checkBoundaries(string(body), boundary, part, bodyLine)
	d.mimeNesting++
	defer func() { d.mimeNesting-- }()

	for i, p := range splitParts(string(body), boundary, bodyLine) {
		name := fmt.Sprintf("part %d", i+1)
		if part != "user data" {
			name = fmt.Sprintf("%s.%d", part, i+1)
		}
		if i >= d.lim.MaxParts {
			d.issue(evidence.IssueWarning, part, p.line, "more than %d parts; the rest were not parsed", d.lim.MaxParts)
			d.truncated(fmt.Sprintf("it has more than %d MIME parts", d.lim.MaxParts))
			break
		}
		if p.noSeparator && strings.Contains(string(body), "application/node.eks.aws") {
			// cloud-init (Python's email parser) accepts headers running straight into the body,
			// as EKS's own injected AL2 user data does; nodeadm (Go) rejects the whole document.
			d.issue(evidence.IssueError, name, p.bodyLine, "part headers are not followed by a blank line; nodeadm (Go's mime/multipart) rejects the whole document")
		} else if p.noSeparator && d.cfg.Fragment {
			// the parts not shown may be a NodeConfig (a managed node group adds one on AL2023)
			d.issue(evidence.IssueWarning, name, p.bodyLine, "part headers are not followed by a blank line; cloud-init accepts that, but on AL2023 nodeadm (Go's mime/multipart) rejects the whole document")
		}
		ptype := "text/plain"
		if pct := p.header.Get("Content-Type"); pct != "" {
			mt, _, err := mime.ParseMediaType(pct)
			if err != nil {
				mt, _ = lenientMediaType(pct)
			}
			if mt != "" {
				ptype = mt
			}
		}
		content := []byte(p.body)
		switch strings.ToLower(strings.TrimSpace(p.header.Get("Content-Transfer-Encoding"))) {
		case "quoted-printable":
			if b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(p.body))); err == nil {
				content = b
			} else {
				d.issue(evidence.IssueError, name, p.line, "quoted-printable part does not decode: %v", err)
			}
		case "base64":
			content = decodeTransfer(content, "base64", d, name, p.line)
		}
		content, ok := d.gunzipIfNeeded(content, name)
		if !ok {
			continue
		}
		if ptype != "application/node.eks.aws" && !strings.HasPrefix(ptype, "multipart/") && looksLikeNodeConfig(strings.TrimSpace(string(content))) {
			d.issue(evidence.IssueError, name, p.line, "part holds a NodeConfig but its Content-Type is %q; nodeadm reads NodeConfig only from parts of type application/node.eks.aws, so it is ignored", ptype)
			d.cfg.Parts = append(d.cfg.Parts, describe(name, ptype))
			continue
		}
		if ptype == "application/node.eks.aws" && d.mimeNesting > 1 {
			// nodeadm's ParseMultipart reads the parts of the top-level multipart document
			// only (amazon-eks-ami nodeadm/internal/configprovider/mime.go).
			d.issue(evidence.IssueError, name, p.line, "NodeConfig part is inside a nested multipart part; nodeadm reads only the parts of the top-level multipart document, so it never sees this NodeConfig")
			d.cfg.Parts = append(d.cfg.Parts, describe(name, ptype))
			continue
		}
		if strings.HasPrefix(ptype, "multipart/") {
			// A nested multipart body needs its Content-Type (boundary) to be split again.
			content = append([]byte("Content-Type: "+p.header.Get("Content-Type")+"\n\n"), content...)
			d.handle(content, name, ptype, p.bodyLine-2, depth+1)
			continue
		}
		d.handle(content, name, ptype, p.bodyLine, depth+1)
	}
}

// mimePart is one part of a multipart body.
type mimePart struct {
	header      textproto.MIMEHeader
	body        string
	line        int  // 1-based line of the part's first header line
	bodyLine    int  // 1-based line of the first body line
	noSeparator bool // headers ran straight into the body without a blank line
}

// splitParts splits a multipart body at delimiter lines (--boundary), stopping at the first
// closing delimiter (--boundary--). Headers end at a blank line or, as Python's email parser
// accepts, at the first line that is not a header.
func splitParts(body, boundary string, bodyLine int) []mimePart {
	delim := "--" + boundary
	lines := strings.Split(body, "\n")
	var parts []mimePart
	cur := -1
	var buf []string
	flush := func() {
		if cur < 0 {
			return
		}
		p := mimePart{header: textproto.MIMEHeader{}, line: bodyLine + cur + 1}
		k := 0
		var last string
		for ; k < len(buf); k++ {
			l := strings.TrimRight(buf[k], "\r")
			if l == "" {
				k++
				break
			}
			if (l[0] == ' ' || l[0] == '\t') && last != "" {
				vals := p.header[last]
				vals[len(vals)-1] += " " + strings.TrimSpace(l)
				continue
			}
			name, val, ok := strings.Cut(l, ":")
			if !ok || name == "" || strings.ContainsAny(name, " \t") {
				p.noSeparator = true
				break
			}
			last = textproto.CanonicalMIMEHeaderKey(name)
			p.header.Add(last, strings.TrimSpace(val))
		}
		p.bodyLine = p.line + k
		content := strings.Join(buf[k:], "\n")
		// The line break before the next delimiter belongs to the delimiter (RFC 2046).
		content = strings.TrimSuffix(strings.TrimSuffix(content, "\n"), "\r")
		p.body = content
		parts = append(parts, p)
	}
	for i, l := range lines {
		t := strings.TrimRight(l, " \t\r")
		if t == delim+"--" {
			break
		}
		if t == delim {
			flush()
			cur = i
			buf = buf[:0]
			continue
		}
		if cur >= 0 {
			buf = append(buf, l)
		}
	}
	flush()
	return parts
}

// checkBoundaries reports a missing closing boundary and content after an early closing
// boundary: cloud-init and nodeadm both stop at the first closing delimiter, so parts after it
// are silently dropped on the node.
func (d *decoder) checkBoundaries(body, boundary, part string, bodyLine int) {
	delim := "--" + boundary
	lines := strings.Split(body, "\n")
	closeAt := -1
	for i, l := range lines {
		if strings.TrimRight(l, " \t\r") == delim+"--" {
			closeAt = i
			break
		}
	}
	if closeAt < 0 {
		if d.elided {
			// the poster cut lines out of the paste; the closing boundary may be among them
			return
		}
		// nodeadm (Go mime/multipart) fails on an unterminated document; cloud-init (Python
		// email) accepts it with a defect. Which one matters depends on the parts.
		level := evidence.IssueWarning
		consumer := "cloud-init tolerates this, but nodeadm rejects it"
		if strings.Contains(body, "application/node.eks.aws") {
			level = evidence.IssueError
			consumer = "nodeadm rejects the document (unexpected EOF), so the NodeConfig is never applied"
		}
		d.issue(level, part, bodyLine+len(lines)-1, "MIME document has no closing boundary %s--; %s", delim, consumer)
		return
	}
	rest := lines[closeAt+1:]
	var dropped []string
	firstExtra := 0
	for j, l := range rest {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if firstExtra == 0 {
			firstExtra = bodyLine + closeAt + 1 + j
		}
		lt := strings.ToLower(t)
		if strings.HasPrefix(lt, "content-type:") {
			dropped = append(dropped, strings.TrimSpace(t[len("content-type:"):]))
		}
		if strings.HasPrefix(t, delim) && len(dropped) == 0 {
			dropped = append(dropped, "another part")
		}
	}
	if len(dropped) > 0 {
		d.issue(evidence.IssueError, part, bodyLine+closeAt,
			"closing boundary %s-- on line %d ends the MIME document, but more content follows it (from line %d: %s); cloud-init and nodeadm ignore everything after the closing boundary, so that part is never applied — use %s (without the trailing --) between parts",
			delim, bodyLine+closeAt, firstExtra, strings.Join(dropped, ", "), delim)
	}
}

// headerLength returns the byte length of the header block including the blank line.
func headerLength(text []byte) int {
	s := string(text)
	for _, sep := range []string{"\r\n\r\n", "\n\n"} {
		if i := strings.Index(s, sep); i >= 0 {
			return i + len(sep)
		}
	}
	return len(s)
}

// lenientMediaType extracts the media type and boundary from a Content-Type header that
// mime.ParseMediaType rejects (e.g. an unquoted boundary=//), as Python's email parser does.
func lenientMediaType(v string) (string, map[string]string) {
	params := map[string]string{}
	fields := strings.Split(v, ";")
	mt := strings.ToLower(strings.TrimSpace(fields[0]))
	for _, f := range fields[1:] {
		k, val, ok := strings.Cut(strings.TrimSpace(f), "=")
		if !ok {
			continue
		}
		params[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(val), `"`)
	}
	return mt, params
}

// decodeTransfer undoes a base64 Content-Transfer-Encoding (quoted-printable is undone by
// mime/multipart itself).
func decodeTransfer(b []byte, enc string, d *decoder, part string, line int) []byte {
	if !strings.EqualFold(strings.TrimSpace(enc), "base64") {
		return b
	}
	clean := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, string(b))
	out, err := base64.StdEncoding.DecodeString(clean)
	if err != nil {
		d.issue(evidence.IssueError, part, line, "part declares Content-Transfer-Encoding base64 but is not valid base64: %v", err)
		return nil
	}
	return out
}
