package redact

import (
	"regexp"
	"strings"
)

// The secret classes of this file: credentials a command takes on its command line, tokens
// known by their prefix, keys of connection strings and the secret path of webhook URLs.

// argValue is one argument of a shell or PowerShell command: double-quoted with the quotes
// escaped by a log shipper (\"V\"), single-quoted, double-quoted or bare. Its four groups hold
// the text inside the quotes or the bare word.
const argValue = `(?:\\+"([^"\\\n]*)\\+"|'([^'\n]*)'|"([^"\n]*)"|([^\s"'|;&]+))`

// argQuoted is argValue without its bare word: its three groups hold the text inside the quotes.
const argQuoted = `(?:\\+"([^"\\\n]*)\\+"|'([^'\n]*)'|"([^"\n]*)")`

// userPassValue is a user:password argument; its three groups hold the password.
const userPassValue = `(?:'[^'\s:]*:([^'\n]*)'|"[^"\s:]*:([^"\n]*)"|[^\s"'|;&:]*:([^\s"'|;&]+))`

// loginOrSSHPass is sshpass -p V and a registry login's -p V (its group 1 ends before V).
var loginOrSSHPass = regexp.MustCompile(`(\b(?:sshpass|(?:docker|podman|nerdctl|buildah|skopeo|finch|oras|helm(?:[ \t]+registry)?)[ \t]+login)\b[^\n|;&]*?[ \t]-p(?:[ \t]+)?)` + argValue)

// cmdCred is a command whose command line holds a secret: re's group 1 ends just before the
// secret, and the first non-empty group after it is the secret.
type cmdCred struct {
	// triggers are lower-case words of which the text must hold every one for re to run (a
	// word every log line holds, "-p" of kube-proxy, would run re on every string of a report)
	triggers []string
	re       *regexp.Regexp
}

var cmdCreds = []cmdCred{
	// curl -u user:pass, -sfu 'user:pass', --user=user:pass, --proxy-user / -U user:pass
	// (curl(1): "-u, --user <user:password>"; a user alone makes curl prompt and is kept)
	{[]string{"curl"}, regexp.MustCompile(`(\bcurl\b[^\n|;&]*?[ \t](?:-[A-Za-z]*[uU]|--user|--proxy-user)(?:[ \t]+|=)?)` + userPassValue)},
	// sshpass -p V and -pV (sshpass(1)); docker / podman / nerdctl / helm registry login -p V
	{[]string{" -p", "sshpass"}, loginOrSSHPass},
	{[]string{" -p", "login"}, loginOrSSHPass},
	// echo 'user:pass' | [sudo] chpasswd (chpasswd(8) reads user:password lines)
	{[]string{"chpasswd", "|"}, regexp.MustCompile(`(\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?)` + userPassValue + `[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd\b`)},
	// chpasswd <<< 'user:pass'
	{[]string{"chpasswd", "<<<"}, regexp.MustCompile(`(\bchpasswd\b[^\n|;&]*?<<<[ \t]*)` + userPassValue)},
	// echo 'pass' | [sudo] passwd --stdin user (passwd(1) of RHEL and Amazon Linux)
	{[]string{"passwd", "--stdin"}, regexp.MustCompile(`(\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?)` + argValue + `[ \t]*\|[ \t]*(?:sudo[ \t]+)?passwd[ \t]+--stdin\b`)},
	// ConvertTo-SecureString [-AsPlainText] [-Force] [-String] 'V' (PowerShell: named
	// parameters come in any order, so the switches may stand before the text)
	{[]string{"convertto-securestring"}, regexp.MustCompile(`(?i)(\bConvertTo-SecureString(?:[ \t]+-(?:AsPlainText|Force)(?::\$true)?\b)*[ \t]+(?:-String[ \t]+)?)` + argValue)},
	// 'V' | ConvertTo-SecureString -AsPlainText -Force (the text piped in)
	// (quoted only: a bare word before the pipe is a command or a path)
	{[]string{"convertto-securestring", "|"}, regexp.MustCompile(`(?i)((?:^|[\s(=])(?:(?:echo|Write-Output)[ \t]+)?)` + argQuoted + `[ \t]*\|[ \t]*ConvertTo-SecureString\b`)},
	// echo 'pass' | [sudo] docker|podman|nerdctl|helm … login … --password-stdin (the password
	// a login reads from its standard input; a variable, "$PASS", is kept)
	{[]string{"--password-stdin", "|"}, regexp.MustCompile(`(\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(?:(?:'%s'|"%s"|%s)[ \t]+)?)` + argValue + `[ \t]*\|[^\n|;&]*[ \t]--password-stdin\b`)},
	// ctr [-n NS] images pull --user|-u user:pass (ctr's "--user value, -u value: User[:password]
	// Registry user and password")
	{[]string{"ctr"}, regexp.MustCompile(`(\bctr\b[^\n|;&]*?[ \t](?:-u|--user)(?:[ \t]+|=))` + userPassValue)},
	// crictl pull --creds user:pass, skopeo --creds / --src-creds / --dest-creds user:pass
	// (crictl pull: "--creds value: Use USERNAME[:PASSWORD] for accessing the registry")
	{[]string{"creds"}, regexp.MustCompile(`((?:^|[ \t])--(?:src-|dest-|registry-)?creds(?:[ \t]+|=))` + userPassValue)},
	// crictl pull --auth AUTH_STRING (base64 of user:password)
	{[]string{"crictl", "--auth"}, regexp.MustCompile(`(\bcrictl\b[^\n|;&]*?[ \t]--auth(?:[ \t]+|=))` + argValue)},
	// htpasswd -b[c…] FILE USER PASS and htpasswd -bn USER PASS (htpasswd(1): -b takes the
	// password from the command line, -n prints instead of writing a file)
	{[]string{"htpasswd", "b"}, regexp.MustCompile(`(\bhtpasswd[ \t]+-[A-Za-z]*(?:b[A-Za-z]*n|n[A-Za-z]*b)[A-Za-z]*[ \t]+(?:"[^"\n]*"|'[^'\n]*'|[^\s"'|;&]+)[ \t]+)` + argValue)},
	{[]string{"htpasswd", "b"}, regexp.MustCompile(`(\bhtpasswd[ \t]+-[A-MO-Za-mo-z]*b[A-MO-Za-mo-z]*[ \t]+(?:"[^"\n]*"|'[^'\n]*'|[^\s"'|;&]+)[ \t]+(?:"[^"\n]*"|'[^'\n]*'|[^\s"'|;&]+)[ \t]+)` + argValue)},
	// redis-cli -a PASS / --pass PASS
	{[]string{"redis-cli"}, regexp.MustCompile(`(\bredis-cli\b[^\n|;&]*?[ \t](?:-a|--pass)(?:[ \t]+|=))` + argValue)},
	// openssl … -passin|-passout|-pass pass:PASS and openssl enc -k PASS (openssl-passphrase-options(1))
	{[]string{"openssl", "pass:"}, regexp.MustCompile(`(\bopenssl\b[^\n|;&]*?[ \t]-(?:passin|passout|pass|password)[ \t]+["']?pass:)([^\s"'|;&]+)`)},
	{[]string{"openssl", " -k"}, regexp.MustCompile(`(\bopenssl\b[^\n|;&]*?[ \t]-k[ \t]+)` + argValue)},
	// aws ssm put-parameter … --value V (a SecureString's plain text, or a String's)
	{[]string{"put-parameter", "--value"}, regexp.MustCompile(`(\bput-parameter\b[^\n|;&]*?[ \t]--value(?:[ \t]+|=))` + argValue)},
	// net user NAME PASS (Windows: sets the account's password; "*" prompts for it)
	{[]string{"net", "user"}, regexp.MustCompile(`(?i)(\bnet[ \t]+user[ \t]+(?:"[^"\n]*"|[^\s"'/]+)[ \t]+)` + argValue)},
	// net use [X:] \\server\share PASS (Windows "net use [devicename] [\\computer\share
	// [password | *]] [/user:…]"; "*" prompts, a /option is no password)
	{[]string{"net", "use", `\\`}, regexp.MustCompile(`(?i)(\bnet[ \t]+use[ \t]+(?:(?:[A-Za-z]:|\*)[ \t]+)?(?:"\\\\[^"\n]*"|\\\\[^\s"]+)[ \t]+)` + argValue)},
	// net use … /user:[DOMAIN\]NAME PASS (the password may follow the user)
	{[]string{"net", "use", "/u"}, regexp.MustCompile(`(?i)(\bnet[ \t]+use\b[^\n|;&]*?[ \t]/u(?:ser)?:(?:"[^"\n]*"|[^\s"]+)[ \t]+)` + argValue)},
}

// valueGroup returns the bounds of the first non-empty group after group 1 of a match's
// submatch indexes m (the secret of argValue's alternatives), or -1, -1.
func valueGroup(m []int) (int, int) {
	for g := 2; 2*g+1 < len(m); g++ {
		if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
			return m[2*g], m[2*g+1]
		}
	}
	return -1, -1
}

// commandCredentials redacts the secrets cmdCreds find. Variable references, option names
// (-…), paths and the "*" of a prompt are kept.
func commandCredentials(s, lower string) string {
	for _, c := range cmdCreds {
		if !containsAll(lower, c.triggers) {
			continue
		}
		idx := c.re.FindAllStringSubmatchIndex(s, -1)
		if idx == nil {
			continue
		}
		var spans []span
		for _, m := range idx {
			vs, ve := valueGroup(m)
			if vs < 0 {
				continue
			}
			v := s[vs:ve]
			if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "-") || strings.HasPrefix(v, "%") || v == "*" || strings.HasPrefix(v, Marker) || isPlaceholder(v) {
				continue
			}
			spans = append(spans, span{vs, ve, Marker})
		}
		s = splice(s, spans)
	}
	return s
}

// span is a part of a string, [from, to), and the text that replaces it.
type span struct {
	from, to int
	with     string
}

// splice returns s with each of spans (in order, not overlapping) replaced by its text; s itself
// when there is none.
func splice(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.from])
		b.WriteString(sp.with)
		last = sp.to
	}
	b.WriteString(s[last:])
	return b.String()
}

// prefixTokenRe matches tokens known by their prefix, which is group 1 and stays to say what
// leaked: HashiCorp Vault service, batch and recovery tokens (hvs., hvb., hvr. — Vault 1.10
// token formats), Stripe secret and restricted keys (sk_live_, rk_test_ …), Google API keys
// (AIza and 35 characters), SendGrid keys (SG.<22>.<43>), npm (npm_ and 36 characters), PyPI
// (pypi-AgE…), Anthropic (sk-ant-) and OpenAI tokens (project, service-account and admin keys
// sk-proj-, sk-svcacct-, sk-admin-, and the older sk- keys, which hold "T3BlbkFJ", base64 of
// "OpenAI", at their middle), Tailscale keys (tskey-auth-, tskey-api- …: the node's
// `tailscale up --authkey`) and age identities (AGE-SECRET-KEY-1…).
var prefixTokenRe = regexp.MustCompile(`\b(sk-(?:proj|svcacct|admin)-)[A-Za-z0-9_-]{20,}|\b(sk-)[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b|\b(hv[sbr]\.)[A-Za-z0-9_-]{20,}|\b([sr]k_(?:live|test)_)[A-Za-z0-9]{10,}|\b(AIza)[A-Za-z0-9_-]{35}\b|\b(SG\.)[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b|\b(npm_)[A-Za-z0-9]{36}\b|\b(pypi-)AgE[A-Za-z0-9_-]{40,}|\b(sk-ant-)[A-Za-z0-9_-]{20,}|\b(tskey-[a-z]+-)[A-Za-z0-9_-]{10,}|\b(AGE-SECRET-KEY-1)[0-9A-Z]{20,}`)

// prefixTriggers are literal parts of prefixTokenRe: it runs only when one is in the text.
var prefixTriggers = []string{"hvs.", "hvb.", "hvr.", "k_live_", "k_test_", "AIza", "SG.", "npm_", "pypi-", "sk-ant-", "sk-proj-", "sk-svcacct-", "sk-admin-", "T3BlbkFJ", "tskey-", "AGE-SECRET-KEY-1"}

// prefixTokens redacts what prefixTokenRe finds, keeping the prefix.
func prefixTokens(s string) string {
	found := false
	for _, p := range prefixTriggers {
		if strings.Contains(s, p) {
			found = true
			break
		}
	}
	if !found {
		return s
	}
	return prefixTokenRe.ReplaceAllStringFunc(s, func(m string) string {
		g := prefixTokenRe.FindStringSubmatch(m)
		for _, p := range g[1:] {
			if p != "" {
				return p + Marker
			}
		}
		return Marker
	})
}

// connKeyRe matches the keys of Azure connection strings (AccountKey= of a storage account,
// SharedAccessKey= of Service Bus and Event Hubs, SharedAccessSignature=); a value ends at ";".
var connKeyRe = regexp.MustCompile(`(?i)((?:^|[;\s"'])(?:AccountKey|SharedAccessKey|SharedAccessSignature)=)()([^;\s"']+)`)

// webhookRe matches incoming-webhook URLs, whose last path part is the secret (group 2): Slack
// (hooks.slack.com/services|workflows|triggers/…), Discord (/api/webhooks/ID/TOKEN) and
// Microsoft Teams (…webhook.office.com/webhookb2/…/IncomingWebhook/SECRET/…). A Slack secret
// is the last part of the path: a workflow's numeric ID before it stays.
var webhookRe = regexp.MustCompile(`(https?://hooks\.slack(?:-gov)?\.com/(?:services|workflows|triggers)/(?:[A-Za-z0-9]+/)+)([A-Za-z0-9]{16,})(?:$|[^A-Za-z0-9/])|(https?://(?:[\w-]+\.)?discord(?:app)?\.com/api/webhooks/\d+/)([\w-]{20,})|(https?://[\w.-]*(?:webhook|outlook)\.office\.com/webhook(?:b2)?/[^\s/"']+/IncomingWebhook/)([0-9a-fA-F]{32})`)

// connectionAndWebhooks redacts connection-string keys and webhook secrets.
func connectionAndWebhooks(s, lower string) string {
	if strings.Contains(lower, "accountkey") || strings.Contains(lower, "sharedaccess") {
		s = connKeyRe.ReplaceAllStringFunc(s, func(m string) string { return keepRefs(connKeyRe, m, 1, 2, 3) })
	}
	if strings.Contains(lower, "hooks.slack") || strings.Contains(lower, "discord") || strings.Contains(lower, "incomingwebhook") {
		s = webhookRe.ReplaceAllStringFunc(s, func(m string) string {
			g := webhookRe.FindStringSubmatch(m)
			for i := 1; i+1 < len(g); i += 2 {
				if g[i] != "" {
					return g[i] + Marker + m[len(g[i])+len(g[i+1]):]
				}
			}
			return m
		})
	}
	return s
}

// cookieHeaderRe matches a Cookie: or Set-Cookie: header (RFC 6265) up to the end of its line or
// the quote around it; group 2 is the list of name=value pairs.
var cookieHeaderRe = regexp.MustCompile(`(?i)((?:^|[^\w-])(?:set-)?cookie\\*["']?[ \t]*:[ \t]*)([^\n"'\\]+)`)

// cookiePairRe is one name=value pair of a cookie header; group 2 is the value.
var cookiePairRe = regexp.MustCompile(`((?:^|;)[ \t]*([^=;\s]+)=)([^;\s]*)`)

// cookieAttributes are the Set-Cookie attributes (RFC 6265 section 4.1), which are no secret.
var cookieAttributes = map[string]bool{"path": true, "domain": true, "expires": true, "max-age": true, "samesite": true, "priority": true}

// telegramBotRe matches a Telegram bot token in a Bot API URL (/bot<ID>:<SECRET>/method, "Making
// requests", core.telegram.org/bots/api); group 2 is the secret after the bot's public ID.
var telegramBotRe = regexp.MustCompile(`(/(?:file/)?bot\d{5,}:)([A-Za-z0-9_-]{30,})`)

// ssmValueRe matches the "Value" and "Type" members of an SSM parameter as JSON
// (GetParameter's Parameter object), with the quotes escaped or not; a value is a JSON string.
var ssmValueRe = regexp.MustCompile(`(\\*"Value\\*"[ \t]*:[ \t]*\\*")((?:[^"\\]|\\[^"])*)(\\*")|\\*"Type\\*"[ \t]*:[ \t]*\\*"(SecureString|String|StringList)\\*"`)

// cookiesBotsAndParameters redacts cookie values, Telegram bot tokens in URLs and the decrypted
// value of an SSM SecureString parameter (`aws ssm get-parameter --with-decryption`): a "Value"
// whose object says "Type": "SecureString", before or after it.
func cookiesBotsAndParameters(s, lower string) string {
	if strings.Contains(lower, "cookie") {
		s = cookieHeaderRe.ReplaceAllStringFunc(s, func(m string) string {
			g := cookieHeaderRe.FindStringSubmatch(m)
			v := cookiePairRe.ReplaceAllStringFunc(g[2], func(p string) string {
				q := cookiePairRe.FindStringSubmatch(p)
				if cookieAttributes[strings.ToLower(q[2])] || q[3] == "" || q[3] == Marker || strings.HasPrefix(q[3], "$") {
					return p
				}
				return q[1] + Marker
			})
			return g[1] + v
		})
	}
	if strings.Contains(s, "/bot") || strings.Contains(s, "/file/bot") {
		s = telegramBotRe.ReplaceAllString(s, "${1}"+Marker)
	}
	if strings.Contains(s, "SecureString") {
		if strings.Contains(s, "Value") {
			s = ssmSecureValues(s)
			s = ssmSecureBlocks(s)
		}
		if strings.Contains(s, "\tSecureString\t") {
			s = ssmTextRe.ReplaceAllString(s, "${1}"+Marker)
		}
	}
	if strings.Contains(lower, "curl") {
		s = curlCookies(s)
	}
	return s
}

// curlCookieRe is curl's cookie option (curl(1): "-b, --cookie <data|filename>"), alone, last of
// a bundle of short options (-sSb) or as --cookie=; group 2 is its argument (argValue's groups).
var curlCookieRe = regexp.MustCompile(`(\bcurl\b[^\n|;&]*?[ \t](?:-[A-Za-z]*b|--cookie)(?:[ \t]+|=))` + argValue)

// curlCookies redacts the values of the NAME=VALUE pairs given to curl's cookie option. An
// argument without "=" is the name of a cookie file (curl(1)) and stays.
func curlCookies(s string) string {
	idx := curlCookieRe.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var spans []span
	for _, m := range idx {
		vs, ve := valueGroup(m)
		if vs < 0 || !strings.Contains(s[vs:ve], "=") {
			continue
		}
		v := cookiePairRe.ReplaceAllStringFunc(s[vs:ve], func(p string) string {
			q := cookiePairRe.FindStringSubmatch(p)
			if q[3] == "" || q[3] == Marker || strings.HasPrefix(q[3], "$") {
				return p
			}
			return q[1] + Marker
		})
		spans = append(spans, span{vs, ve, v})
	}
	return splice(s, spans)
}

// ssmTextRe is the decrypted value in `aws ssm get-parameter(s) --with-decryption --output text`:
// the CLI prints a parameter's members tab-separated in key order (…, Name, Type, Value,
// Version), so the field after "SecureString" is its value (group 1 ends before it).
var ssmTextRe = regexp.MustCompile(`(\tSecureString\t)[^\t\n]+`)

// ssmKeyRe is one "KEY: value" line of the CLI's YAML output or "|| KEY | value ||" row of its
// table output; group 1 ends before the value, group 2 is the key, group 3 the value.
var ssmKeyRe = regexp.MustCompile(`^([ \t|-]*(\w+)[ \t]*(?::|\|)[ \t]*)(.*?)[ \t|]*$`)

// ssmSecureBlocks redacts the Value line of every parameter whose Type line says SecureString in
// the CLI's YAML and table outputs (`--output yaml|table`): the sibling lines of the Type line,
// those with their key at the same column, up to a line less indented, a blank line or the next
// list item. A block scalar value (Value: |) goes with the lines under it.
func ssmSecureBlocks(s string) string {
	lines := strings.SplitAfter(s, "\n")
	keyAt := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t|-")) }
	changed := false
	for i, l := range lines {
		m := ssmKeyRe.FindStringSubmatch(strings.TrimRight(l, "\r\n"))
		if m == nil || m[2] != "Type" || m[3] != "SecureString" {
			continue
		}
		at := keyAt(l)
		sibling := func(j int) bool {
			t := strings.TrimSpace(lines[j])
			return t != "" && keyAt(lines[j]) == at
		}
		// the block: up while siblings (a "- " item start is the block's first line), down
		// while siblings that start no new item
		from := i
		for from > 0 && sibling(from-1) && !strings.HasPrefix(strings.TrimLeft(lines[from], " \t"), "- ") {
			from--
		}
		to := i
		for to+1 < len(lines) && sibling(to+1) && !strings.HasPrefix(strings.TrimLeft(lines[to+1], " \t"), "- ") {
			to++
		}
		for j := from; j <= to; j++ {
			body := strings.TrimRight(lines[j], "\r\n")
			v := ssmKeyRe.FindStringSubmatchIndex(body)
			if v == nil || body[v[4]:v[5]] != "Value" || v[7] <= v[6] {
				continue
			}
			val := body[v[6]:v[7]]
			if val == Marker || strings.HasPrefix(val, "$") {
				continue
			}
			if val == "|" || val == ">" || val == "|-" || val == ">-" {
				for k := j + 1; k < len(lines) && strings.TrimSpace(lines[k]) != "" && keyAt(lines[k]) > at; k++ {
					ind := len(lines[k]) - len(strings.TrimLeft(lines[k], " \t"))
					body := strings.TrimRight(lines[k], "\r\n")
					lines[k] = lines[k][:ind] + Marker + lines[k][len(body):]
					changed = true
				}
				continue
			}
			lines[j] = body[:v[6]] + Marker + body[v[7]:] + lines[j][len(body):]
			changed = true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(lines, "")
}

// ssmSecureValues redacts the "Value" of every JSON object whose "Type" is "SecureString". The
// two members belong to one object when no brace stands between them outside the value.
func ssmSecureValues(s string) string {
	idx := ssmValueRe.FindAllStringSubmatchIndex(s, -1)
	secure := make([]bool, len(idx))
	for i, m := range idx {
		if m[8] < 0 || s[m[8]:m[9]] != "SecureString" {
			continue
		}
		// the nearest Value before and after this Type, in the same object
		for _, j := range []int{i - 1, i + 1} {
			if j < 0 || j >= len(idx) || idx[j][2] < 0 {
				continue
			}
			from, to := idx[j][1], m[0]
			if j > i {
				from, to = m[1], idx[j][0]
			}
			if !strings.ContainsAny(s[from:to], "{}") {
				secure[j] = true
			}
		}
	}
	var spans []span
	for i, m := range idx {
		if !secure[i] {
			continue
		}
		v := s[m[4]:m[5]]
		if v == "" || v == Marker || strings.HasPrefix(v, "$") {
			continue
		}
		spans = append(spans, span{m[4], m[5], Marker})
	}
	return splice(s, spans)
}

// chpasswdEntryRe is one user:password entry of cloud-config's chpasswd list, as a line of a
// block or a YAML list item (cloud-init cc_set_passwords: "list: | user:password lines");
// group 1 is the password. A key: value line has a space after its colon and is not taken.
var chpasswdEntryRe = regexp.MustCompile(`^(?:-[ \t]*)?["']?[\w.@-]+:([^\s"':][^\s"']*(?::[^\s"']*)*)["']?[ \t]*$`)

// chpasswdList redacts the passwords of a cloud-config chpasswd list: the lines indented under
// a "chpasswd:" key. RANDOM (and R), which make cloud-init generate a password, stay.
func chpasswdList(s string) string {
	if !strings.Contains(s, "chpasswd:") {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	in, indent, changed := false, 0, false
	for i, l := range lines {
		body := strings.TrimRight(strings.TrimLeft(l, " \t"), "\r\n")
		ind := len(l) - len(strings.TrimLeft(l, " \t"))
		if body == "" {
			continue
		}
		if in && ind <= indent {
			in = false
		}
		if strings.HasPrefix(body, "chpasswd:") {
			in, indent = true, ind
			continue
		}
		if !in {
			continue
		}
		m := chpasswdEntryRe.FindStringSubmatchIndex(body)
		if m == nil {
			continue
		}
		v := body[m[2]:m[3]]
		if v == Marker || v == "RANDOM" || v == "R" || strings.HasPrefix(v, "$") {
			continue
		}
		lines[i] = l[:ind+m[2]] + Marker + l[ind+m[3]:]
		changed = true
	}
	if !changed {
		return s
	}
	return strings.Join(lines, "")
}

// containsAll reports whether s holds every one of words.
func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}
