// Package redact removes secrets from text before it leaves eksdoctor: the snapshot `collect`
// writes, and every report format. It is the one place that knows what a secret looks like.
//
// It replaces, with "REDACTED":
//   - AWS access key IDs (AKIA…, ASIA…);
//   - values of settings whose name says secret, password, passwd, token or API key, in every
//     spelling the node's tools use: NAME=V and NAME: V (shell, env files, YAML, INI), "Name":
//     "V" (JSON), --name V, --name=V and -Name V (CLI and PowerShell parameters), and
//     `aws configure set aws_secret_access_key V`;
//   - the password of user:password@ in URLs, Bearer tokens, EKS tokens (k8s-aws-v1.…), JWTs and
//     the body of PEM private keys.
//
// Secrets hidden in encodings are found too: base64 runs (inline, or a MIME part's wrapped
// lines) are decoded, gunzipped when they hold gzip, redacted, and re-encoded in place only when
// something was redacted, so CA bundles, MIME boundaries and every other byte stay as they were.
// Variable references ($SECRET, ${TOKEN}) are kept: they are not secrets and they matter to the
// diagnosis. Redaction is idempotent.
package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
)

// Marker replaces every secret.
const Marker = "REDACTED"

// maxDepth bounds nested encodings (base64 in gzip in base64 …).
const maxDepth = 4

// maxInflate bounds what one gzip stream may decompress to while looking for secrets.
const maxInflate = 4 << 20

// secretWord matches the part of a setting's name that makes its value a secret.
const secretWord = `(?:secret|passw(?:or)?d|pwd|token|api[_-]?key|apikey|private[_-]?key)`

var (
	accessKeyRe = regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)
	// aws configure set [profile.]aws_secret_access_key V
	configureRe = regexp.MustCompile(`(?i)(aws\s+configure\s+set\s+(?:--[\w-]+\s+\S+\s+)*[\w.-]*` + secretWord + `[\w.-]*\s+)(["']?)([^\s"']+)`)
	// --aws-secret-access-key V, --password=V, -SecretKey V (PowerShell)
	flagRe = regexp.MustCompile(`(?i)((?:^|[\s"'(=])--?[\w-]*?` + secretWord + `[\w-]*)(=|:|[ \t]+)(["']?)([^\s"']+)`)
	// NAME=V, name = 'V'
	assignRe = regexp.MustCompile(`(?i)((?:^|[^\w-])["']?[\w.]*` + secretWord + `[\w.]*["']?[ \t]*=[ \t]*)(["']?)([^\s"',;}]+)`)
	// NAME: V at the start of a line (YAML, headers)
	keyLineRe = regexp.MustCompile(`(?im)^([ \t-]*["']?[\w.]*` + secretWord + `[\w.]*["']?[ \t]*:[ \t]*)(["']?)([^\s"',;}]+)`)
	// "Name": "V" or name: V inside a line: prose ("failed to get token: exit status 1") is
	// told apart by the value, which must look like a secret
	keyInlineRe = regexp.MustCompile(`(?i)((?:^|[^\w-])["']?[\w.]*` + secretWord + `[\w.]*["']?[ \t]*:[ \t]*)(["']?)([^\s"',;}]+)`)
	urlPassRe   = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^/\s:@"']+:)([^\s@"']+)(@)`)
	bearerRe    = regexp.MustCompile(`(?i)(\bbearer[ \t]+)([A-Za-z0-9._~+/-]{8,}=*)`)
	eksToken    = regexp.MustCompile(`\bk8s-aws-v1\.[A-Za-z0-9_-]{8,}`)
	jwtRe       = regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)
	pemKeyRe    = regexp.MustCompile(`(-----BEGIN [A-Z ]*PRIVATE KEY-----)[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----)`)
	// inline base64 runs long enough to hide a secret
	b64Inline = regexp.MustCompile(`[A-Za-z0-9+/]{24,}={0,2}`)
)

// String returns s with every secret replaced by Marker.
func String(s string) string { return redact(s, 0) }

// Bytes returns b with every secret replaced by Marker (b itself when nothing was found).
func Bytes(b []byte) []byte {
	s := string(b)
	r := redact(s, 0)
	if r == s {
		return b
	}
	return []byte(r)
}

func redact(s string, depth int) string {
	if depth > maxDepth || s == "" {
		return s
	}
	if hasB64Run(s) {
		s = decodedRuns(s, depth)
	}
	// each pattern runs only when its trigger is in the text: most report strings hold none
	if strings.Contains(s, "PRIVATE KEY-----") {
		s = pemKeyRe.ReplaceAllString(s, "${1}\n"+Marker+"\n${2}")
	}
	if strings.Contains(s, "AKIA") || strings.Contains(s, "ASIA") {
		s = accessKeyRe.ReplaceAllString(s, Marker)
	}
	if strings.Contains(s, "://") {
		s = urlPassRe.ReplaceAllString(s, "${1}"+Marker+"${3}")
	}
	if strings.Contains(s, "k8s-aws-v1.") {
		s = eksToken.ReplaceAllString(s, "k8s-aws-v1."+Marker)
	}
	if strings.Contains(s, "eyJ") {
		s = jwtRe.ReplaceAllString(s, Marker)
	}
	lower := strings.ToLower(s)
	if strings.Contains(lower, "bearer") {
		s = bearerRe.ReplaceAllString(s, "${1}"+Marker)
	}
	if !hasSecretWord(lower) {
		return s
	}
	s = configureRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(configureRe, m, 1, 2, 3) })
	s = flagRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(flagRe, m, 1, 3, 4, 2) })
	s = assignRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(assignRe, m, 1, 2, 3) })
	s = keyLineRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(keyLineRe, m, 1, 2, 3) })
	s = keyInlineRe.ReplaceAllStringFunc(s, func(m string) string {
		if g := keyInlineRe.FindStringSubmatch(m); g == nil || !secretLike(g[3]) {
			return m
		}
		return keepRefs(keyInlineRe, m, 1, 2, 3)
	})
	return s
}

// secretWords are the literal triggers of secretWord (lower case).
var secretWords = []string{"secret", "passw", "pwd", "token", "apikey", "api_key", "api-key", "private"}

func hasSecretWord(lower string) bool {
	for _, w := range secretWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// hasB64Run reports whether s holds 24 base64 characters in a row (the shortest run decoded).
func hasB64Run(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' {
			if n++; n >= 24 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

// keepRefs rebuilds a match with its value (the last group index) replaced, unless the value
// is a variable reference or already redacted. prefix, quote and sep are group indexes put back
// in front of the value (sep, when given, sits between prefix and quote).
func keepRefs(re *regexp.Regexp, m string, prefix, quote, value int, sep ...int) string {
	g := re.FindStringSubmatch(m)
	if g == nil {
		return m
	}
	v := g[value]
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || strings.HasPrefix(v, "-") || strings.HasPrefix(v, Marker) || isPlaceholder(v) {
		return m
	}
	out := g[prefix]
	for _, i := range sep {
		out += g[i]
	}
	return out + g[quote] + Marker
}

// isPlaceholder reports values that are not secrets: booleans, null, the values of settings
// such as IMDS HttpTokens, and references to where a secret is kept (a file path, an SSM or
// Secrets Manager ARN).
func isPlaceholder(v string) bool {
	switch strings.ToLower(strings.TrimRight(v, `"'`)) {
	case "true", "false", "null", "none", "yes", "no", "[]", "{}", "required", "optional", "enabled", "disabled", "auto", "":
		return true
	}
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "arn:")
}

// decodedRuns finds base64 in s — blocks of wrapped lines (a MIME part's body) and inline runs —
// and replaces each whose decoded content holds a secret by the re-encoded redacted content.
func decodedRuns(s string, depth int) string {
	if !strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
		return s
	}
	s = wrappedBlocks(s, depth)
	return b64Inline.ReplaceAllStringFunc(s, func(run string) string {
		if r, ok := redactEncoded(run, depth); ok {
			return r
		}
		return run
	})
}

// wrappedBlocks handles runs of two or more consecutive lines made only of base64 characters.
func wrappedBlocks(s string, depth int) string {
	lines := strings.SplitAfter(s, "\n")
	var out strings.Builder
	changed := false
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && isB64Line(lines[j]) {
			j++
		}
		if j-i < 2 {
			out.WriteString(lines[i])
			i++
			continue
		}
		block := lines[i:j]
		var joined strings.Builder
		for _, l := range block {
			joined.WriteString(strings.TrimRight(l, "\r\n"))
		}
		if r, ok := redactEncoded(joined.String(), depth); ok {
			width := len(strings.TrimRight(block[0], "\r\n"))
			eol := block[0][len(strings.TrimRight(block[0], "\r\n")):]
			last := block[len(block)-1]
			lastEOL := last[len(strings.TrimRight(last, "\r\n")):]
			for k := 0; k < len(r); k += width {
				end := min(len(r), k+width)
				out.WriteString(r[k:end])
				if end < len(r) {
					out.WriteString(eol)
				} else {
					out.WriteString(lastEOL)
				}
			}
			changed = true
		} else {
			for _, l := range block {
				out.WriteString(l)
			}
		}
		i = j
	}
	if !changed {
		return s
	}
	return out.String()
}

func isB64Line(l string) bool {
	l = strings.TrimRight(l, "\r\n")
	if len(l) < 4 {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// redactEncoded decodes one base64 run and returns it re-encoded with its secrets redacted; ok is
// false when it is not base64 of text or gzip, or holds no secret.
func redactEncoded(run string, depth int) (string, bool) {
	enc := base64.StdEncoding
	raw, err := enc.DecodeString(run)
	if err != nil {
		enc = base64.RawStdEncoding
		if raw, err = enc.DecodeString(strings.TrimRight(run, "=")); err != nil {
			return "", false
		}
	}
	out, ok := redactDocument(raw, depth+1)
	if !ok {
		return "", false
	}
	return enc.EncodeToString(out), true
}

// redactDocument redacts decoded bytes: gzip is inflated, redacted and deflated again; text is
// redacted. ok is false when nothing changed or the bytes are neither.
func redactDocument(raw []byte, depth int) ([]byte, bool) {
	if len(raw) >= 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, false
		}
		inner, err := io.ReadAll(io.LimitReader(zr, maxInflate))
		if err != nil && len(inner) == 0 {
			return nil, false
		}
		red, ok := redactDocument(inner, depth)
		if !ok {
			return nil, false
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(red)
		zw.Close()
		return buf.Bytes(), true
	}
	if !looksLikeText(raw) {
		return nil, false
	}
	s := string(raw)
	r := redact(s, depth)
	if r == s {
		return nil, false
	}
	return []byte(r), true
}

// secretLike reports whether a value found after "token:" in running text looks like a secret
// rather than a word: eight characters or more with a digit or a symbol, or twenty or more.
func secretLike(v string) bool {
	if len(v) >= 20 {
		return true
	}
	if len(v) < 8 {
		return false
	}
	return strings.ContainsAny(v, "0123456789+/=_-!@#%^&*~.")
}

func looksLikeText(b []byte) bool {
	if len(b) == 0 || !utf8.Valid(b) {
		return false
	}
	bad := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			bad++
		}
	}
	return bad*20 < len(b)
}

// Files redacts the files of a snapshot in place (docs/snapshot-format.md): JSON files string
// by string (user data values, console output, every other string), other files as text. A file
// is rewritten only when something was redacted.
func Files(files map[string][]byte) {
	for p, b := range files {
		if strings.HasSuffix(p, ".json") {
			if out, ok := jsonFile(b); ok {
				files[p] = out
				continue
			}
		}
		files[p] = Bytes(b)
	}
}

// jsonFile redacts every string of a JSON document (several concatenated documents included);
// ok is false when b is not JSON. Numbers are kept as written.
func jsonFile(b []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var docs []any
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return nil, false
		}
		docs = append(docs, v)
	}
	changed := false
	for i := range docs {
		docs[i] = walk(docs[i], &changed)
	}
	if !changed {
		return b, true
	}
	var out bytes.Buffer
	for _, d := range docs {
		enc := json.NewEncoder(&out)
		enc.SetIndent("", "    ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(d); err != nil {
			return nil, false
		}
	}
	return out.Bytes(), true
}

// walk redacts the strings of a decoded JSON value. A string under a key naming a secret
// ("SecretAccessKey", "Password") is replaced whole.
func walk(v any, changed *bool) any {
	switch t := v.(type) {
	case string:
		r := String(t)
		if r != t {
			*changed = true
		}
		return r
	case []any:
		for i := range t {
			t[i] = walk(t[i], changed)
		}
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok && secretKey.MatchString(k) && s != "" && s != Marker && !strings.HasPrefix(s, "$") && !isPlaceholder(s) {
				t[k] = Marker
				*changed = true
				continue
			}
			t[k] = walk(x, changed)
		}
	}
	return v
}

var secretKey = regexp.MustCompile(`(?i)^[\w.-]*` + secretWord + `[\w.-]*$`)
