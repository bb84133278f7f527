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
//     the body of PEM private keys (to the end of the text when a quoted line cut the key short);
//   - the same settings as a log line quotes them: JSON whose quotes a log shipper escaped
//     ({\"SecretAccessKey\": \"V\"}) or whose key holds \u escapes, URL-encoded
//     (aws_secret_access_key%3DV), and the AWS credential names followed by a tab or spaces
//     (aws_secret_access_key<TAB>V);
//   - request signatures and secret query parameters and headers: a presigned URL's
//     X-Amz-Security-Token and X-Amz-Signature (containerd quotes the URL of a refused layer
//     pull; the access key ID of X-Amz-Credential goes as every access key ID does), SigV2
//     Signature=, X-…-Token, X-Api-Key and other X- headers naming a secret, and
//     Authorization: Basic/token credentials;
//   - the "auth" (base64 of user:password) of Docker and containerd registry configurations,
//     kubeconfig client keys (client-key-data, in any encoding), the password of mysql-style
//     -pPASSWORD arguments, GitHub (ghp_…, github_pat_…), GitLab (glpat-…) and Slack (xoxb-…)
//     tokens, and kubeadm bootstrap tokens (abcdef.0123456789abcdef: the token ID before the dot
//     is public and stays);
//   - credentials a command takes on its command line (classes.go): curl -u/--user/--proxy-user
//     user:PASSWORD, sshpass -p and registry login -p, user:PASSWORD piped or fed to chpasswd
//     or listed under cloud-config's chpasswd,
//     echo PASSWORD | passwd --stdin, PowerShell ConvertTo-SecureString 'PASSWORD' (quotes
//     escaped or not, switches first, or piped in) and Windows net user NAME PASSWORD and
//     net use \\server\share PASSWORD;
//   - tokens known by their prefix, which stays: Vault (hvs., hvb., hvr.), Stripe (sk_live_,
//     rk_test_ …), Google API keys (AIza…), SendGrid (SG.…), npm (npm_…), PyPI (pypi-…),
//     Anthropic (sk-ant-…) and OpenAI (sk-proj-…, sk-svcacct-…, sk-admin-…, legacy sk-…);
//   - the keys of Azure connection strings (AccountKey=, SharedAccessKey=,
//     SharedAccessSignature=), the password of a URL with no user (redis://:PASSWORD@),
//     the secret path part of Slack, Discord and Microsoft Teams incoming-webhook URLs and of
//     Telegram Bot API URLs (/bot<ID>:SECRET/), cookie values (Cookie:, Set-Cookie:) and the
//     decrypted "Value" of an SSM SecureString parameter.
//
// Secrets hidden in encodings are found too: base64 runs (inline, or a MIME part's wrapped
// lines) are decoded, gunzipped when they hold gzip, redacted, and re-encoded in place only when
// something was redacted, so CA bundles, MIME boundaries and every other byte stay as they were.
// A base64 run cut short by a quoted line is decoded as far as it goes, and one that decodes to
// a DER private key (PKCS#1, PKCS#8, SEC 1 or PKCS#12) is replaced whole. Certificates
// (certificate-authority-data, client-certificate-data) are public and kept.
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
const secretWord = `(?:secret|passw(?:or)?d|passphrase|pwd|token|api[_-]?key|apikey|private[_-]?key|client[_-]?key(?:[_-]?data)?)`

// Parts of the patterns below. A setting's name may be quoted, with the quotes escaped by a log
// shipper that wrote the JSON into a string (\"SecretAccessKey\"), and may hold JSON \u escapes
// (Secret\u0041ccessKey) and hyphens (Bottlerocket's bootstrap-token, YAML's client-secret); a
// value ends at white space or an unescaped quote.
const (
	nameQuote = `(?:\\*["'])?`
	nameChars = `[\w.\\-]*`
	valQuote  = `((?:\\*["'])?)`
)

var (
	accessKeyRe = regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)
	// aws configure set [profile.]aws_secret_access_key V
	configureRe = regexp.MustCompile(`(?i)(aws\s+configure\s+set\s+(?:--[\w-]+\s+\S+\s+)*[\w.-]*` + secretWord + `[\w.-]*\s+)(["']?)([^\s"']+)`)
	// --aws-secret-access-key V, --password=V, -SecretKey V (PowerShell)
	flagRe = regexp.MustCompile(`(?i)((?:^|[\s"'(=])--?[\w-]*?` + secretWord + `[\w-]*)(=|:|[ \t]+)` + valQuote + `((?:[^\s"'\\]|\\[^\s"'])+)`)
	// NAME=V, name = 'V'
	assignRe = regexp.MustCompile(`(?i)((?:^|[^\w-])` + nameQuote + nameChars + secretWord + nameChars + nameQuote + `[ \t]*=[ \t]*)` + valQuote + `((?:[^\s"',;}\\]|\\[^\s"'])+)`)
	// NAME: V at the start of a line (YAML, headers)
	keyLineRe = regexp.MustCompile(`(?im)^([ \t-]*` + nameQuote + nameChars + secretWord + nameChars + nameQuote + `[ \t]*:[ \t]*)` + valQuote + `((?:[^\s"',;}\\]|\\[^\s"'])+)`)
	// "Name": "V" or name: V inside a line: prose ("failed to get token: exit status 1") is
	// told apart by the value, which must look like a secret
	keyInlineRe = regexp.MustCompile(`(?i)((?:^|[^\w-])` + nameQuote + nameChars + secretWord + nameChars + nameQuote + `[ \t]*:[ \t]*)` + valQuote + `((?:[^\s"',;}\\]|\\[^\s"'])+)`)
	urlPassRe   = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^/\s:@"']*:)([^\s@"']+)(@)`)
	bearerRe    = regexp.MustCompile(`(?i)(\bbearer[ \t]+)([A-Za-z0-9._~+/-]{8,}=*)`)
	eksToken    = regexp.MustCompile(`\bk8s-aws-v1\.[A-Za-z0-9_-]{8,}`)
	jwtRe       = regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)
	// the body of a PEM private key (or of an armored PGP one, "PRIVATE KEY BLOCK"), to its END line or, when a quoted line cut it short, to the end
	pemKeyRe = regexp.MustCompile(`(-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----)(?:[\s\S]*?(-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----)|[\s\S]+)`)
	// aws_secret_access_key<TAB>V, aws_session_token   V: the AWS credential names, which need
	// no = or : before their value (INI with a tab, `aws configure list`-like tables)
	awsNameSpaceRe = regexp.MustCompile(`(?i)(\b(?:aws_secret_access_key|aws_secret_key|aws_session_token|aws_security_token|secret_access_key)[ \t]+)(["']?)([^\s"']+)`)
	// aws_secret_access_key%3DV and %22password%22%3A%22V%22: URL-encoded settings
	urlEncRe = regexp.MustCompile(`(?i)((?:^|[^\w-]|%[0-9a-f]{2})[\w.]*` + secretWord + `[\w.]*(?:%2[27])?%3[ad](?:%2[27])?)()((?:[\w.~/+-]|%2[bf]|%3d)+)`)
	// ?X-Amz-Security-Token=V&X-Amz-Signature=V, ?Signature=V, ?sig=V, ?access_token=V
	queryRe = regexp.MustCompile(`(?i)([?&;](?:[\w.-]*(?:signature|token|secret|passw(?:or)?d|api[_-]?key|apikey)|sig)=)()([^&\s"'#<>:]+)`)
	// X-Amz-Security-Token: V, X-Api-Key: V, X-Amz-Signature=V (hyphenated names, which the
	// setting patterns above do not take), and Signature= of an AWS4-HMAC-SHA256 Authorization
	headerRe = regexp.MustCompile(`(?i)((?:^|[^\w-])(?:X-[A-Za-z0-9-]*?(?:token|api-?key|apikey|secret|signature|passw(?:or)?d)|private-token|signature)["']?[ \t]*[:=][ \t]*)(["']?)([^\s"',;&]+)`)
	// Authorization: Basic V / Authorization: token V (Bearer is bearerRe)
	authRe = regexp.MustCompile(`(?i)(\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:basic|token)[ \t]+)()([A-Za-z0-9._~+/-]{4,}=*)`)
	// "auth": "base64 of user:password" of a Docker / containerd registry configuration
	dockerAuthRe = regexp.MustCompile(`((?:^|[^\w-])\\*"auth\\*"[ \t]*:[ \t]*\\*")()([A-Za-z0-9+/]{4,}={0,2})`)
	// mysql -uroot -pV: the password attached to -p of the MySQL tools and sshpass
	dashPRe = regexp.MustCompile(`(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump|sshpass)\b[^\n|;&]*?[ \t]-p)(["']?)([^\s"']+)`)
	// GitHub, GitLab and Slack tokens: the prefix, which says what leaked, stays
	vendorTokenRe = regexp.MustCompile(`\b(gh[pousr]_|github_pat_|glpat-|xox[abprs]-|xapp-)[A-Za-z0-9_-]{10,}`)
	// kubeadm bootstrap tokens: a six-character public token ID, a dot, the secret
	bootstrapTokenRe = regexp.MustCompile(`\b([a-z0-9]{6})\.([A-Za-z0-9]{16,})\b`)
	// auth = "base64 of user:password": the same setting as containerd's TOML registry
	// configuration (registry.configs."HOST".auth) and a logfmt log line write it
	tomlAuthRe = regexp.MustCompile(`((?:^|[^\w-])auth[ \t]*=[ \t]*\\*")()([A-Za-z0-9+/]{4,}={0,2})`)
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
	if strings.Contains(s, "PRIVATE KEY-----") || strings.Contains(s, "PRIVATE KEY BLOCK-----") {
		s = pemKeyRe.ReplaceAllString(s, "${1}\n"+Marker+"\n${2}")
	}
	if strings.Contains(s, "-p") && (strings.Contains(s, "mysql") || strings.Contains(s, "mariadb") || strings.Contains(s, "sshpass")) {
		s = dashPRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(dashPRe, m, 1, 2, 3) })
	}
	if hasVendorPrefix(s) {
		s = vendorTokenRe.ReplaceAllStringFunc(s, vendorToken)
	}
	s = prefixTokens(s)
	low := strings.ToLower(s)
	if t := commandCredentials(s, low); t != s {
		s, low = t, strings.ToLower(t)
	}
	s = chpasswdList(s)
	s = connectionAndWebhooks(s, low)
	s = cookiesBotsAndParameters(s, low)
	if maybeBootstrapToken(s) {
		s = bootstrapTokens(s)
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
	if strings.Contains(s, `auth\"`) || strings.Contains(s, `auth"`) {
		s = dockerAuthRe.ReplaceAllStringFunc(s, func(m string) string {
			g := dockerAuthRe.FindStringSubmatch(m)
			if raw, err := base64.StdEncoding.DecodeString(g[3]); err != nil || !bytes.Contains(raw, []byte(":")) {
				return m
			}
			return g[1] + Marker
		})
	}
	if strings.Contains(s, "auth") && strings.Contains(s, "=") {
		s = tomlAuthRe.ReplaceAllStringFunc(s, func(m string) string {
			g := tomlAuthRe.FindStringSubmatch(m)
			if raw, err := base64.StdEncoding.DecodeString(g[3]); err != nil || !bytes.Contains(raw, []byte(":")) {
				return m
			}
			return g[1] + Marker
		})
	}
	if strings.Contains(lower, "authorization") {
		s = authRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(authRe, m, 1, 2, 3) })
	}
	if strings.Contains(lower, "sig") {
		s = queryRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(queryRe, m, 1, 2, 3) })
		s = headerRe.ReplaceAllStringFunc(s, header)
	}
	if !hasSecretWord(lower) {
		return s
	}
	if strings.Contains(s, "?") || strings.Contains(s, "&") {
		s = queryRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(queryRe, m, 1, 2, 3) })
	}
	if strings.Contains(lower, "x-") || strings.Contains(lower, "private-token") {
		s = headerRe.ReplaceAllStringFunc(s, header)
	}
	if strings.Contains(lower, "%3d") || strings.Contains(lower, "%3a") {
		s = urlEncRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(urlEncRe, m, 1, 2, 3) })
	}
	if strings.Contains(lower, "aws_s") || strings.Contains(lower, "secret_access_key") {
		s = awsNameSpaceRe.ReplaceAllStringFunc(s, func(m string) string {
			if g := awsNameSpaceRe.FindStringSubmatch(m); g == nil || !secretLike(g[3]) {
				return m
			}
			return keepRefs(awsNameSpaceRe, m, 1, 2, 3)
		})
	}
	s = configureRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(configureRe, m, 1, 2, 3) })
	s = flagRe.ReplaceAllStringFunc(s, func(m string) string {
		// --password-stdin takes no value: the word after it is the next argument (docker
		// login's registry)
		if g := flagRe.FindStringSubmatch(m); g != nil && strings.HasSuffix(strings.ToLower(g[1]), "-stdin") && g[2] != "=" {
			return m
		}
		return keepRefs(flagRe, m, 1, 3, 4, 2)
	})
	if strings.Contains(s, "=") {
		s = assignRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(assignRe, m, 1, 2, 3) })
	}
	if !strings.Contains(s, ":") {
		return s
	}
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
var secretWords = []string{"secret", "passw", "passphrase", "pwd", "token", "apikey", "api_key", "api-key", "private", "clientkey", "client_key", "client-key"}

// header redacts the value of a header or parameter headerRe found. A bare "signature" (not an
// X- header) is a setting only when its value looks like one: "signature: invalid" is prose.
func header(m string) string {
	g := headerRe.FindStringSubmatch(m)
	if g == nil {
		return m
	}
	name := strings.ToLower(strings.TrimLeft(g[1], " \t\"'(=,;{[&?"))
	if !strings.HasPrefix(name, "x-") && !strings.HasPrefix(name, "private-token") && !secretLike(g[3]) {
		return m
	}
	return keepRefs(headerRe, m, 1, 2, 3)
}

// hasVendorPrefix reports whether s holds the prefix of a GitHub, GitLab or Slack token.
func hasVendorPrefix(s string) bool {
	for _, p := range []string{"gh", "github_pat_", "glpat-", "xox", "xapp-"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// maybeBootstrapToken reports whether s may hold a kubeadm bootstrap token: a dot with six
// lower-case letters or digits before it and sixteen letters or digits after it.
func maybeBootstrapToken(s string) bool {
	for i := strings.IndexByte(s, '.'); i >= 0; {
		if i >= 6 && i+16 < len(s) {
			ok := true
			for k := i - 6; k < i && ok; k++ {
				ok = s[k] >= 'a' && s[k] <= 'z' || s[k] >= '0' && s[k] <= '9'
			}
			for k := i + 1; k <= i+16 && ok; k++ {
				ok = isAlnum(s[k])
			}
			if ok {
				return true
			}
		}
		j := strings.IndexByte(s[i+1:], '.')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// vendorToken redacts a GitHub, GitLab or Slack token, keeping its prefix.
func vendorToken(m string) string {
	g := vendorTokenRe.FindStringSubmatch(m)
	if len(m)-len(g[1]) < 16 && !strings.ContainsAny(m[len(g[1]):], "0123456789") {
		return m // a word such as xoxb-REDACTED, not a token
	}
	return g[1] + Marker
}

// bootstrapTokens redacts the secret of kubeadm bootstrap tokens (abcdef.0123456789abcdef).
// A dotted name is told apart by the secret, which holds a digit, and by its place: a token is
// not one label of a longer dotted or hyphenated name (a host name, a Go identifier).
func bootstrapTokens(s string) string {
	idx := bootstrapTokenRe.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var spans []span
	for _, m := range idx {
		start, end, secStart := m[0], m[1], m[4]
		secret := s[secStart:end]
		if !strings.ContainsAny(secret, "0123456789") || secret == Marker ||
			start > 0 && strings.IndexByte(".-/", s[start-1]) >= 0 ||
			end < len(s) && (s[end] == '-' || s[end] == '.' && end+1 < len(s) && isAlnum(s[end+1])) {
			continue
		}
		spans = append(spans, span{secStart, end, Marker})
	}
	return splice(s, spans)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

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
	// a message's separator after the value ("open x_password=V: no such file") is not part of
	// the secret: the colons ending it are kept
	v := strings.TrimRight(g[value], ":")
	tail := g[value][len(v):]
	if v == "" || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || strings.HasPrefix(v, "-") || strings.HasPrefix(v, Marker) || isPlaceholder(v) {
		return m
	}
	out := g[prefix]
	for _, i := range sep {
		out += g[i]
	}
	return out + g[quote] + Marker + tail
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
		trimmed := strings.TrimRight(run, "=")
		if raw, err = enc.DecodeString(trimmed); err != nil {
			// a run cut short by a quoted line: decode as far as whole bytes go (the one
			// character left over is dropped when the run is re-encoded)
			if len(trimmed)%4 != 1 {
				return "", false
			}
			if raw, err = enc.DecodeString(trimmed[:len(trimmed)-1]); err != nil {
				return "", false
			}
		}
	}
	if derPrivateKey(raw) {
		return Marker, true
	}
	out, ok := redactDocument(raw, depth+1)
	if !ok {
		return "", false
	}
	return enc.EncodeToString(out), true
}

// derPrivateKey reports whether b starts like a DER private key: a SEQUENCE whose first element
// is the version INTEGER 0 followed by the modulus (PKCS#1) or the algorithm (PKCS#8), version 1
// followed by the key OCTET STRING (SEC 1, EC keys), or version 3 followed by the content
// (PKCS#12). Certificates start with a SEQUENCE in a SEQUENCE and are not taken.
func derPrivateKey(b []byte) bool {
	if len(b) < 8 || b[0] != 0x30 {
		return false
	}
	h := 2
	if b[1]&0x80 != 0 {
		n := int(b[1] & 0x7f)
		if n < 1 || n > 4 {
			return false
		}
		h += n
	}
	if len(b) < h+4 || b[h] != 0x02 || b[h+1] != 0x01 {
		return false
	}
	switch next := b[h+3]; b[h+2] {
	case 0:
		return next == 0x02 || next == 0x30
	case 1:
		return next == 0x04
	case 3:
		return next == 0x30
	}
	return false
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
// ("SecretAccessKey", "Password") is replaced whole, and so is the "Value" of an object whose
// "Type" is "SecureString" (an SSM parameter read with decryption).
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
		// an SSM parameter read with decryption: a SecureString's Value is the secret
		if typ, _ := t["Type"].(string); typ == "SecureString" {
			if v, ok := t["Value"].(string); ok && v != "" && v != Marker {
				t["Value"] = Marker
				*changed = true
			}
		}
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
