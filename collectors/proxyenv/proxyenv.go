// Package proxyenv reads the HTTP proxy environment node components run with — systemd units'
// Environment= and EnvironmentFile= lines, /etc/environment as the user data's shell trace
// writes it, Bottlerocket's settings.network proxy settings — and decides which requests go
// through the proxy as Go's net/http does (golang.org/x/net/http/httpproxy: NO_PROXY entries
// are host names matching the host and its subdomains, ".name" subdomains only, "*" every
// host, IP addresses and CIDRs matching IP-literal hosts only, an optional ":port"; localhost
// and loopback addresses never go through a proxy).
package proxyenv

import (
	"bufio"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/shlex"
	"golang.org/x/net/http/httpproxy"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// proxyVars are the variables Go's net/http reads (httpproxy.FromEnvironment).
var proxyVars = map[string]bool{
	"HTTP_PROXY": true, "http_proxy": true, "HTTPS_PROXY": true, "https_proxy": true,
	"NO_PROXY": true, "no_proxy": true,
}

// IsProxyVar reports whether name is one of the variables Go's net/http reads for its proxy.
func IsProxyVar(name string) bool { return proxyVars[name] }

// Unit is what a unit's files (as `systemctl cat` prints them: each file after a
// "# /path/to/file" line) set for the proxy: the variables of its Environment= lines, later
// files overriding earlier ones as systemd applies drop-ins, and its EnvironmentFile= paths
// (without systemd's optional-file "-" prefix).
type Unit struct {
	Vars             map[string]evidence.ProxyVar
	EnvironmentFiles []string
}

// ParseUnit reads `systemctl cat` output of one unit (the EKS log collector's
// kubelet/kubelet_service.txt); source names the file in the places it records. An empty
// Environment= resets what earlier lines set, as systemd does.
func ParseUnit(text []byte, source string) Unit {
	u := Unit{Vars: map[string]evidence.ProxyVar{}}
	file := ""
	sc := bufio.NewScanner(strings.NewReader(string(text)))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "# /"); ok {
			file = "/" + strings.TrimSpace(rest)
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		where := source
		if file != "" {
			where += ": " + file
		}
		switch strings.TrimSpace(key) {
		case "Environment":
			if strings.TrimSpace(val) == "" {
				u.Vars = map[string]evidence.ProxyVar{}
				continue
			}
			for _, w := range unitWords(val) {
				if n, v, ok := strings.Cut(w, "="); ok && proxyVars[n] {
					u.Vars[n] = evidence.ProxyVar{Value: v, Source: where}
				}
			}
		case "EnvironmentFile":
			for _, w := range unitWords(val) {
				if w = strings.TrimPrefix(w, "-"); w != "" {
					u.EnvironmentFiles = append(u.EnvironmentFiles, w)
				}
			}
		}
	}
	return u
}

// unitWords splits a systemd assignment's value into words, honouring double and single quotes
// (systemd.syntax(7)) as a shell does (github.com/google/shlex); a value whose quote is never
// closed is split at blanks.
func unitWords(s string) []string {
	if w, err := shlex.Split(s); err == nil {
		return w
	}
	return strings.Fields(s)
}

// reTraceWrite is a bash -x trace line printing a proxy assignment (echo or printf): the user
// data writing it into a file such as /etc/environment (the trace does not show the
// redirection).
var reTraceWrite = regexp.MustCompile(`^\++ (?:echo(?: -e| -n)?|printf(?: '%s\\n')?) ['"]?(HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy)=([^'"\s]*)['"]?\s*$`)

// TraceWrites returns the proxy assignments a user data script printed under bash -x
// (cloud-init-output.log: "+ echo NO_PROXY=…"), the last of each name winning, each with its
// line; source names the file. What they were written to is not in the trace: they stand for
// the contents of an EnvironmentFile= no other evidence shows.
func TraceWrites(text []byte, source string) map[string]evidence.ProxyVar {
	out := map[string]evidence.ProxyVar{}
	sc := bufio.NewScanner(strings.NewReader(string(text)))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		if m := reTraceWrite.FindStringSubmatch(sc.Text()); m != nil {
			out[m[1]] = evidence.ProxyVar{Value: m[2], Source: source + ":" + strconv.Itoa(n) + " (printed by the user data under bash -x)"}
		}
	}
	return out
}

// Route is how a component's request to one URL goes under its proxy environment.
type Route struct {
	// Proxy is the proxy URL the request goes through, without user information ("" when it
	// goes directly); ProxyVar names the variable that set it and Proxied its place.
	Proxy, ProxyVar string
	Proxied         evidence.ProxyVar
	// NoProxy is the NO_PROXY value that did not exclude the host ("" when none is set), with
	// its place.
	NoProxy evidence.ProxyVar
}

// Through returns how a request to rawURL goes under env, deciding as Go's net/http does
// (httpproxy.Config.ProxyFunc); ok is false when it goes directly or rawURL does not parse.
func Through(env evidence.ProxyEnv, rawURL string) (Route, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return Route{}, false
	}
	var r Route
	cfg := httpproxy.Config{}
	names := []string{"HTTP_PROXY", "http_proxy"}
	if u.Scheme == "https" {
		names = []string{"HTTPS_PROXY", "https_proxy"}
	}
	v, ok := env.Lookup(names...)
	if !ok {
		return Route{}, false
	}
	if u.Scheme == "https" {
		cfg.HTTPSProxy = v.Value
	} else {
		cfg.HTTPProxy = v.Value
	}
	for _, n := range names {
		if w, ok := env.Vars[n]; ok && w.Value == v.Value && w.Source == v.Source {
			r.ProxyVar = n
			break
		}
	}
	if np, ok := env.Lookup("NO_PROXY", "no_proxy"); ok {
		if Redacted(np.Value) {
			return Route{}, false // what it excludes is not known
		}
		cfg.NoProxy = np.Value
		r.NoProxy = np
	}
	p, err := cfg.ProxyFunc()(u)
	if err != nil || p == nil {
		return Route{}, false
	}
	p.User = nil
	r.Proxy, r.Proxied = p.String(), v
	return r, true
}

// Redacted reports whether a proxy setting's value was replaced by a redaction marker before
// the input was written: Bottlerocket's logdog writes settings.network.https-proxy and
// no-proxy into a bundle's settings.json as "REDACTED" (alone, or as the host of a URL).
func Redacted(v string) bool {
	return strings.Contains(strings.ToUpper(v), "REDACTED")
}

// HostOf returns the host of the first http(s) URL in text (a log line quoting the request
// that failed), "" when there is none.
func HostOf(text string) string {
	if m := reURL.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

var reURL = regexp.MustCompile(`https://([A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9])(?::\d+)?[/"\\ ]`)

// Exclusion is the NO_PROXY entry to add for host: the EKS endpoints' common domain for an API
// endpoint (".eks.amazonaws.com", or its China partition's), else the host itself.
func Exclusion(host string) string {
	h := strings.ToLower(host)
	for _, d := range []string{".eks.amazonaws.com.cn", ".eks.amazonaws.com"} {
		if strings.HasSuffix(h, d) {
			return host + " (or " + d + ")"
		}
	}
	return host
}
