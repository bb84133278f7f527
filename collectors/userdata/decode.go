// Package userdata decodes EC2 user data into one normalised node bootstrap configuration
// (evidence.BootstrapConfig).
//
// It accepts what the consumers on a real node accept: base64 (as EC2 returns it), optional
// gzip, MIME multipart documents as cloud-init and nodeadm read them (any boundary, nested
// multipart, base64 transfer encoding), shell scripts calling /etc/eks/bootstrap.sh (AL2),
// eksctl's cloud-config with kubelet.env, AL2023 nodeadm NodeConfig YAML documents, Bottlerocket
// TOML settings and Windows PowerShell calling Start-EKSBootstrap.ps1. Whatever those consumers
// would reject or silently drop is reported as a ParseIssue with the part and line.
//
// The decoder never panics on hostile input; sizes are bounded by Limits.
package userdata

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/klauspost/compress/gzip"
)

// EC2UserDataLimit is the maximum size of user data in raw form, before base64 encoding:
// 16 KB (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-add-user-data.html).
const EC2UserDataLimit = 16 * 1024

// Limits bound the work done on one user data document.
type Limits struct {
	// MaxDecodedBytes caps the decoded (and decompressed) text that is parsed, in bytes.
	// Content beyond it is not parsed and an issue says so.
	MaxDecodedBytes int
	// MaxParts caps the number of MIME parts visited (nested parts included).
	MaxParts int
	// MaxExpansionBytes caps the text that shell parameter expansion may produce over the
	// whole user data, in bytes (every $VAR, ${VAR:-default} counted as it is substituted).
	// Zero means the default (1 MiB).
	MaxExpansionBytes int
	// MaxExpansionSteps caps the number of variable substitutions (defaults included) the
	// shell reader makes over the whole user data. Zero means the default (200,000).
	MaxExpansionSteps int
}

// DefaultLimits are generous for real user data (16 KB raw) and safe for hostile input.
var DefaultLimits = Limits{MaxDecodedBytes: 1 << 20, MaxParts: 256, MaxExpansionBytes: 1 << 20, MaxExpansionSteps: 200_000}

// MaxQuoteBytes is the longest piece of user data a parse issue quotes; longer values are cut
// and say how many bytes they had.
const MaxQuoteBytes = 200

// maxIssueBytes caps one parse issue message, quotes included.
const maxIssueBytes = 1024

// DecodeBase64 decodes user data as EC2 returns it (base64) and then parses it with Decode.
// An empty string yields a config with Format none. Input that is not base64 yields an error
// issue and nothing else.
func DecodeBase64(b64 string) *evidence.BootstrapConfig {
	clean := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, b64)
	if clean == "" {
		return Decode(nil)
	}
	raw, err := base64.StdEncoding.DecodeString(clean)
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(clean, "="))
	}
	if err != nil {
		cfg := &evidence.BootstrapConfig{Format: evidence.FormatNone, RawBytes: len(b64)}
		cfg.Issues = append(cfg.Issues, evidence.ParseIssue{Level: evidence.IssueError, Part: "user data",
			Message: fmt.Sprintf("user data is not valid base64 (%v); EC2 returns user data base64-encoded", err)})
		return cfg
	}
	return Decode(raw)
}

// Decode parses raw (already base64-decoded) user data with DefaultLimits.
func Decode(raw []byte) *evidence.BootstrapConfig { return DecodeWithLimits(raw, DefaultLimits) }

// DecodePasted parses user data a person pasted, which may be an excerpt: a script shown without
// its #! line or MIME header is read as the script it is, with a warning that the user data
// itself must have one, instead of the error Decode reports for user data that is whole (from
// EC2 or a launch template).
func DecodePasted(raw []byte) *evidence.BootstrapConfig {
	return decode(raw, DefaultLimits, true)
}

// DecodeShownInPart parses pasted user data that the command printing it showed only in part
// (`head`, `tail`): lines are missing, so what the shown text lacks (a closing tag or boundary,
// the bootstrap step) is not judged absent, as for an excerpt with an elision mark; endCut says
// the text's end was not shown (head), so a tag or block left open is not judged unclosed. The
// result is Truncated with why (which should name the command) as TruncatedWhy; RawBytes counts
// the bytes shown. It never returns nil.
func DecodeShownInPart(raw []byte, why string, endCut bool) *evidence.BootstrapConfig {
	return decodeText(raw, DefaultLimits, true, why, endCut)
}

// DecodeWithLimits parses raw user data. It never returns nil.
func DecodeWithLimits(raw []byte, lim Limits) *evidence.BootstrapConfig {
	return decode(raw, lim, false)
}

func decode(raw []byte, lim Limits, excerpt bool) *evidence.BootstrapConfig {
	return decodeText(raw, lim, excerpt, "", false)
}

// decodeText parses user data; cut, when not "", says why lines of the pasted text are missing,
// and endCut that its end is among them.
func decodeText(raw []byte, lim Limits, excerpt bool, cut string, endCut bool) *evidence.BootstrapConfig {
	if lim.MaxExpansionBytes <= 0 {
		lim.MaxExpansionBytes = DefaultLimits.MaxExpansionBytes
	}
	if lim.MaxExpansionSteps <= 0 {
		lim.MaxExpansionSteps = DefaultLimits.MaxExpansionSteps
	}
	d := &decoder{cfg: &evidence.BootstrapConfig{RawBytes: len(raw)}, lim: lim, env: map[string]string{}, excerpt: excerpt}
	d.sh = &expander{env: d.env, maxBytes: lim.MaxExpansionBytes, maxSteps: lim.MaxExpansionSteps}
	if len(bytes.TrimSpace(raw)) == 0 {
		d.cfg.Format = evidence.FormatNone
		return d.cfg
	}
	text, ok := d.gunzipIfNeeded(raw, "user data")
	if !ok {
		d.finish()
		return d.cfg
	}
	if cut != "" {
		d.elided, d.endCut = true, endCut
		d.truncated(cut)
	}
	if excerpt {
		if mark, line := elisionLine(text); line > 0 {
			// a poster cut lines out where the mark stands: what they held is unknown
			d.elided = true
			d.truncated(fmt.Sprintf("the poster elided lines (%q on line %d)", mark, line))
		}
	}
	if b, ok := partsFragment(text); ok && excerpt {
		// parts cut out of a multipart document: read them under the header they were cut from
		d.cfg.Fragment = true
		text = append([]byte("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\""+b+"\"\n\n"), text...)
		d.handle(text, "user data", "", -2, 0) // the body starts at the fragment's line 1
		d.finish()
		return d.cfg
	}
	d.handle(text, "user data", "", 0, 0)
	d.finish()
	return d.cfg
}

// elisionLine returns the first line of pasted user data that is an elision mark on its own —
// "...", "…", "[...]", "[…]" or "...." between blanks — and its 1-based number, or ("", 0). No
// consumer on the node accepts such a line where it stands (a shell runs it as a command, YAML
// ends the document, a MIME body carries it as text), so in a paste it marks lines the poster
// cut out; in user data read from EC2 it is judged as written.
func elisionLine(text []byte) (string, int) {
	for i, l := range strings.Split(string(text), "\n") {
		switch t := strings.TrimSpace(l); t {
		case "...", "…", "[...]", "[…]", "....":
			return t, i + 1
		}
	}
	return "", 0
}

// PartsFragment reports whether pasted text is parts cut out of a multipart user data
// document (see partsFragment).
func PartsFragment(text []byte) bool {
	_, ok := partsFragment(text)
	return ok
}

// partsFragment reports whether text starts at a MIME boundary line ("--BOUNDARY") followed
// by a part's Content-Type header: parts cut out of a multipart document, without the
// document's own headers. It returns the boundary.
func partsFragment(text []byte) (string, bool) {
	lines := strings.SplitN(strings.TrimLeft(string(text), " \t\r\n"), "\n", 4)
	if len(lines) < 2 {
		return "", false
	}
	first := strings.TrimSpace(lines[0])
	if !strings.HasPrefix(first, "--") || strings.HasPrefix(first, "---") || strings.ContainsAny(first, " \t") || len(first) < 3 {
		return "", false
	}
	for _, l := range lines[1:min(len(lines), 3)] {
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(l)), "content-type:") {
			return strings.TrimSuffix(first[2:], "--"), true
		}
	}
	return "", false
}

type decoder struct {
	cfg   *evidence.BootstrapConfig
	lim   Limits
	parts int
	// env holds shell variables assigned so far (scripts run in order, eksctl kubelet.env).
	env map[string]string
	// nodeConfigs collects NodeConfig documents in order; merged in finish.
	nodeConfigs       []nodeConfigDoc
	sawNodeConfigPart bool
	// mimeNesting counts the multipart documents being read around the current part (1 for the
	// parts of the top-level document).
	mimeNesting int
	// eksctlEnv is true when an eksctl kubelet.env file was found.
	eksctlEnv bool
	// sh expands shell words against env within the expansion budget.
	sh *expander
	// bootstrapShCalls counts the bootstrap.sh calls read, so a part can tell whether it made one.
	bootstrapShCalls int
	// sideScriptIssues are the indices in cfg.Issues of errors saying a script part does not run
	// (or stops early) when that part makes no bootstrap.sh call: beside a NodeConfig they are
	// warnings (see finish).
	sideScriptIssues []int
	// budgetReported is set once the exhausted expansion budget has been reported.
	budgetReported bool
	// excerpt is set for pasted user data, which may lack the lines above what was copied.
	excerpt bool
	// elided is set for pasted user data holding an elision mark (see elisionLine), or shown
	// only in part by the command that printed it (DecodeShownInPart): lines were
	// cut out, so what the text lacks (a closing boundary) may be in them.
	elided bool
	// endCut is set for pasted user data whose end was not shown (`head`): a block it opens may
	// close in the lines not shown.
	endCut bool
}

// issue records a parse issue. Strings quoted from the user data are cut to MaxQuoteBytes and
// the message to maxIssueBytes, so a 1 MB token costs a few hundred bytes in every report.
func (d *decoder) issue(level evidence.IssueLevel, part string, line int, format string, args ...any) {
	for i, a := range args {
		switch v := a.(type) {
		case string:
			args[i] = clip(v, MaxQuoteBytes)
		case []string:
			c := make([]string, 0, min(len(v), 8))
			for k, x := range v {
				if k == 8 {
					c = append(c, fmt.Sprintf("… %d more", len(v)-8))
					break
				}
				c = append(c, clip(x, MaxQuoteBytes))
			}
			args[i] = c
		}
	}
	d.cfg.Issues = append(d.cfg.Issues, evidence.ParseIssue{Level: level, Part: clip(part, MaxQuoteBytes), Line: line, Message: clip(fmt.Sprintf(format, args...), maxIssueBytes)})
}

// rejected records an error that is Bottlerocket's settings model refusing a value's type or
// format (evidence.ParseIssue.ModelRejects).
func (d *decoder) rejected(part string, line int, format string, args ...any) {
	d.issue(evidence.IssueError, part, line, format, args...)
	d.cfg.Issues[len(d.cfg.Issues)-1].ModelRejects = true
}

// truncated records that part of the user data was not parsed, and the first reason why
// (evidence.BootstrapConfig.Truncated).
func (d *decoder) truncated(why string) {
	if !d.cfg.Truncated {
		d.cfg.Truncated, d.cfg.TruncatedWhy = true, why
	}
}

// clip cuts s to at most n bytes (at a UTF-8 boundary) and says how long it was.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…[%d bytes]", s[:cut], len(s))
}

func (d *decoder) addFormat(f evidence.BootstrapFormat) {
	for _, x := range d.cfg.Formats {
		if x == f {
			return
		}
	}
	d.cfg.Formats = append(d.cfg.Formats, f)
}

// gunzipIfNeeded returns data decompressed when it starts with the gzip magic, bounded by
// MaxDecodedBytes; otherwise data itself (truncated to the limit).
func (d *decoder) gunzipIfNeeded(data []byte, part string) ([]byte, bool) {
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		d.cfg.Gzipped = true
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			d.issue(evidence.IssueError, part, 0, "gzip header is corrupt: %v", err)
			return nil, false
		}
		out, err := io.ReadAll(io.LimitReader(zr, int64(d.lim.MaxDecodedBytes)+1))
		if err != nil {
			d.issue(evidence.IssueError, part, 0, "gzip stream is corrupt or truncated: %v", err)
			if len(out) == 0 {
				return nil, false
			}
		}
		if len(out) > d.lim.MaxDecodedBytes {
			d.issue(evidence.IssueWarning, part, 0, "decompressed user data exceeds %d bytes; only the first %d bytes were parsed", d.lim.MaxDecodedBytes, d.lim.MaxDecodedBytes)
			d.truncated(fmt.Sprintf("decompressed, it is over the %d-byte parse limit", d.lim.MaxDecodedBytes))
			out = out[:d.lim.MaxDecodedBytes]
		}
		return out, true
	}
	if len(data) > d.lim.MaxDecodedBytes {
		d.issue(evidence.IssueWarning, part, 0, "user data exceeds %d bytes; only the first %d bytes were parsed", d.lim.MaxDecodedBytes, d.lim.MaxDecodedBytes)
		d.truncated(fmt.Sprintf("it is over the %d-byte parse limit", d.lim.MaxDecodedBytes))
		data = data[:d.lim.MaxDecodedBytes]
	}
	return data, true
}

// handle classifies one document or part and dispatches it. contentType is the MIME type
// declared for a part ("" for the top level); firstLine is the 1-based line of text within
// the whole user data (for issue positions).
func (d *decoder) handle(text []byte, part, contentType string, firstLine, depth int) {
	d.parts++
	if d.parts > d.lim.MaxParts {
		if d.parts == d.lim.MaxParts+1 {
			d.issue(evidence.IssueWarning, part, firstLine, "more than %d parts; the rest were not parsed", d.lim.MaxParts)
			d.truncated(fmt.Sprintf("it has more than %d MIME parts", d.lim.MaxParts))
		}
		return
	}
	if depth > 8 {
		d.issue(evidence.IssueError, part, firstLine, "MIME parts nested more than 8 deep")
		d.truncated("its MIME parts nest more than 8 deep")
		return
	}
	s := string(text)
	trimmed := strings.TrimLeft(s, " \t\r\n")
	ct := strings.ToLower(contentType)
	switch {
	case strings.HasPrefix(ct, "multipart/") || (ct == "" && looksLikeMIME(trimmed)):
		d.handleMIME(text, part, firstLine, depth)
	case ct == "application/node.eks.aws":
		d.sawNodeConfigPart = true
		d.handleNodeConfig(s, part, firstLine)
	case ct == "text/cloud-config" || ct == "text/cloud-config-archive" || strings.HasPrefix(trimmed, "#cloud-config"):
		d.cfg.Parts = append(d.cfg.Parts, describe(part, "cloud-config"))
		d.handleCloudConfig(s, part, firstLine)
	case ct == "text/x-shellscript" || ct == "text/x-shellscript-per-boot" || ct == "text/x-shellscript-per-instance" ||
		ct == "text/x-shellscript-per-once" || ct == "text/cloud-boothook" ||
		strings.HasPrefix(trimmed, "#!") || strings.HasPrefix(trimmed, "#cloud-boothook"):
		d.cfg.Parts = append(d.cfg.Parts, describe(part, "shell script"))
		if !strings.HasPrefix(trimmed, "#!") && !strings.HasPrefix(trimmed, "#cloud-boothook") && ct != "text/cloud-boothook" {
			d.issue(evidence.IssueWarning, part, firstLine, "shell script has no #! line; cloud-init executes the part directly and it may fail with 'Exec format error' (start it with #!/bin/bash)")
		}
		called := d.cfg.CallsBootstrap
		calls := d.bootstrapShCalls
		d.handleShell(s, part, firstLine)
		if interp, arg, ok := crShebang(trimmed); ok && !d.excerpt {
			if d.bootstrapShCalls == calls {
				d.sideScriptIssues = append(d.sideScriptIssues, len(d.cfg.Issues))
			}
			what := fmt.Sprintf("the kernel looks for the interpreter %q, which does not exist ('bad interpreter')", interp)
			if arg != "" {
				what = fmt.Sprintf("the kernel passes %s the argument %q, which it refuses", interp, arg)
			}
			d.issue(evidence.IssueError, part, firstLine, "the #! line ends with a carriage return (CRLF line ends): cloud-init executes the part and %s, so nothing in the part runs; convert the user data to LF line ends (dos2unix) and roll the launch template", what)
			d.cfg.CallsBootstrap = called
		}
	case strings.HasPrefix(strings.ToLower(trimmed), "<powershell>") || strings.HasPrefix(strings.ToLower(trimmed), "<script>"):
		d.cfg.Parts = append(d.cfg.Parts, describe(part, "powershell"))
		d.handleWindows(s, part, firstLine)
	case ct == "" && looksLikeEC2LaunchV2(trimmed):
		d.handleEC2LaunchV2(s, part, firstLine)
	case looksLikeNodeConfig(trimmed):
		d.sawNodeConfigPart = true
		d.handleNodeConfig(s, part, firstLine)
	case ct == "" && looksLikeTOML(trimmed):
		d.cfg.Parts = append(d.cfg.Parts, describe(part, "bottlerocket TOML"))
		d.handleBottlerocket(s, part, firstLine)
	case ct == "" && d.mimeNesting == 0 && callsWindowsBootstrap(s):
		d.handleWindowsText(s, part, firstLine)
	case ct == "" && strings.Contains(s, "bootstrap.sh") && d.excerpt && d.mimeNesting == 0:
		// pasted lines of a script: the #! line may be above what was copied
		d.cfg.Parts = append(d.cfg.Parts, describe(part, "shell script"))
		d.issue(evidence.IssueWarning, part, firstLine, "the pasted script has no #! line or MIME header (it may be an excerpt); if the user data itself lacks them, cloud-init does not run it")
		d.handleShell(s, part, firstLine)
	case ct == "" && strings.Contains(s, "bootstrap.sh"):
		// A bare script with no #!: cloud-init treats it as unknown text and does not run it.
		d.cfg.Parts = append(d.cfg.Parts, describe(part, "text"))
		d.issue(evidence.IssueError, part, firstLine, "user data calls bootstrap.sh but is neither a MIME document nor a script starting with #!; cloud-init does not run it")
		d.handleShell(s, part, firstLine)
		d.cfg.CallsBootstrap = false
	case ct == "text/plain" || ct == "":
		d.cfg.Parts = append(d.cfg.Parts, describe(part, "text"))
		if ct == "" {
			d.issue(evidence.IssueWarning, part, firstLine, "user data is not a format cloud-init, nodeadm or Bottlerocket recognises; it is ignored")
		}
	default:
		d.cfg.Parts = append(d.cfg.Parts, describe(part, contentType))
		d.issue(evidence.IssueWarning, part, firstLine, "content type %q is not handled by cloud-init or nodeadm; the part is ignored", contentType)
	}
}

// crShebang reports whether a script's #! line ends with a carriage return (the script was saved
// with CRLF line ends), with the interpreter and argument the kernel then reads: the CR ends the
// argument when there is one ("#!/bin/bash -xe\r": "/bin/bash", "-xe\r"), the interpreter path
// when not ("#!/bin/bash\r": "/bin/bash\r", ""). cloud-init runs a shell script part by executing
// the file (cloudinit/subp.py runparts for scripts-user), and the kernel takes the #! line up to
// the newline as interpreter and argument. Only a part's own #! line counts: the CRLF between the
// parts of a MIME document is the format's.
func crShebang(script string) (interp, arg string, ok bool) {
	if !strings.HasPrefix(script, "#!") {
		return "", "", false
	}
	line, _, _ := strings.Cut(script[2:], "\n")
	if !strings.HasSuffix(line, "\r") {
		return "", "", false
	}
	rest := strings.TrimLeft(line, " \t")
	if i := strings.IndexAny(rest, " \t"); i >= 0 {
		interp, arg = rest[:i], strings.TrimLeft(rest[i:], " \t")
		return interp, arg, true // "#!/bin/bash \r": the CR alone is the argument
	}
	return rest, "", rest != "\r"
}

func describe(part, kind string) string {
	if part == "user data" {
		return kind
	}
	return part + " (" + kind + ")"
}

func looksLikeMIME(s string) bool {
	head := strings.ToLower(s)
	if len(head) > 512 {
		head = head[:512]
	}
	return strings.HasPrefix(head, "mime-version:") || strings.HasPrefix(head, "content-type:")
}

func looksLikeNodeConfig(s string) bool {
	head := s
	if len(head) > 2048 {
		head = head[:2048]
	}
	return strings.Contains(head, "node.eks.aws/") && strings.Contains(head, "NodeConfig")
}

func looksLikeTOML(s string) bool {
	for _, line := range strings.SplitN(s, "\n", 64) {
		l := strings.TrimSpace(line)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		return strings.HasPrefix(l, "[settings") || strings.HasPrefix(l, "settings.") || strings.HasPrefix(l, "[ settings")
	}
	return false
}

// lineOf returns the 1-based line number of byte offset off in s.
func lineOf(s string, off int) int {
	if off > len(s) {
		off = len(s)
	}
	return strings.Count(s[:off], "\n") + 1
}

// finish merges NodeConfig documents and settles the primary format.
func (d *decoder) finish() {
	d.mergeNodeConfigs()
	c := d.cfg
	has := func(f evidence.BootstrapFormat) bool {
		for _, x := range c.Formats {
			if x == f {
				return true
			}
		}
		return false
	}
	switch {
	case len(d.nodeConfigs) > 0 || has(evidence.FormatNodeConfig):
		c.Format = evidence.FormatNodeConfig
	case has(evidence.FormatBootstrapSh) && c.CallsBootstrap:
		c.Format = evidence.FormatBootstrapSh
	case has(evidence.FormatBottlerocket):
		c.Format = evidence.FormatBottlerocket
	case has(evidence.FormatWindows):
		c.Format = evidence.FormatWindows
	case has(evidence.FormatBootstrapSh):
		c.Format = evidence.FormatBootstrapSh
	default:
		c.Format = evidence.FormatNone
	}
	if c.Format == evidence.FormatNodeConfig && len(d.nodeConfigs) > 0 {
		// nodeadm reads only the NodeConfig parts (amazon-eks-ami nodeadm/internal/configprovider
		// mime.go ParseMultipart skips the others) before cloud-init starts, and nodeadm-run is
		// ordered only After=cloud-final: a script part that does not run, and that is not a
		// bootstrap.sh call, loses its own work, not the join
		for _, i := range d.sideScriptIssues {
			if i < len(c.Issues) && c.Issues[i].Level == evidence.IssueError {
				c.Issues[i].Level = evidence.IssueWarning
				c.Issues[i].Message += "; nodeadm reads only the NodeConfig parts and joins the node regardless, so only what this script does is lost"
			}
		}
	}
}
