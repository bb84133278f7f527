package redact

import (
	"regexp"
	"strings"
)

// The secret classes of this file: credentials a command takes on its command line, tokens
// known by their prefix, keys of connection strings and the secret path of webhook URLs.

// argValue is one argument of a shell or PowerShell command: single-quoted, double-quoted or
// bare. Its three groups hold the text inside the quotes or the bare word.
const argValue = `(?:'([^'\n]*)'|"([^"\n]*)"|([^\s"'|;&]+))`

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
	// ConvertTo-SecureString [-String] 'V' -AsPlainText (PowerShell)
	{[]string{"convertto-securestring"}, regexp.MustCompile(`(?i)(\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?)` + argValue)},
	// net user NAME PASS (Windows: sets the account's password; "*" prompts for it)
	{[]string{"net", "user"}, regexp.MustCompile(`(?i)(\bnet[ \t]+user[ \t]+(?:"[^"\n]*"|[^\s"'/]+)[ \t]+)` + argValue)},
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
		var b strings.Builder
		last := 0
		for _, m := range idx {
			vs, ve := -1, -1
			for g := 2; 2*g+1 < len(m); g++ {
				if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
					vs, ve = m[2*g], m[2*g+1]
					break
				}
			}
			if vs < 0 {
				continue
			}
			v := s[vs:ve]
			if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "-") || strings.HasPrefix(v, "%") || v == "*" || strings.HasPrefix(v, Marker) || isPlaceholder(v) {
				continue
			}
			b.WriteString(s[last:vs])
			b.WriteString(Marker)
			last = ve
		}
		if last == 0 {
			continue
		}
		b.WriteString(s[last:])
		s = b.String()
	}
	return s
}

// prefixTokenRe matches tokens known by their prefix, which is group 1 and stays to say what
// leaked: HashiCorp Vault service, batch and recovery tokens (hvs., hvb., hvr. — Vault 1.10
// token formats), Stripe secret and restricted keys (sk_live_, rk_test_ …), Google API keys
// (AIza and 35 characters), SendGrid keys (SG.<22>.<43>), npm (npm_ and 36 characters), PyPI
// (pypi-AgE…) and Anthropic (sk-ant-) tokens.
var prefixTokenRe = regexp.MustCompile(`\b(hv[sbr]\.)[A-Za-z0-9_-]{20,}|\b([sr]k_(?:live|test)_)[A-Za-z0-9]{10,}|\b(AIza)[A-Za-z0-9_-]{35}\b|\b(SG\.)[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b|\b(npm_)[A-Za-z0-9]{36}\b|\b(pypi-)AgE[A-Za-z0-9_-]{40,}|\b(sk-ant-)[A-Za-z0-9_-]{20,}`)

// prefixTriggers are literal parts of prefixTokenRe: it runs only when one is in the text.
var prefixTriggers = []string{"hvs.", "hvb.", "hvr.", "k_live_", "k_test_", "AIza", "SG.", "npm_", "pypi-", "sk-ant-"}

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
