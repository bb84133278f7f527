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

// ImageHostOf returns the registry host of the first image reference quoted in text (a pull
// failure: `PullImage \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.5\" failed`),
// else the host of its first https URL (HostOf); "" when there is neither. A reference whose
// first part has no dot (docker.io's "library/busybox") names no host and is passed over.
func ImageHostOf(text string) string {
	if m := reImageRef.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return HostOf(text)
}

var reImageRef = regexp.MustCompile(`\\?"((?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?/[^"\\\s]+\\?"`)

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

// reUnitPath is the unit a unit file's path belongs to, as `systemctl cat` heads each file:
// "/etc/systemd/system/kubelet.service", "/etc/systemd/system/kubelet.service.d/http-proxy.conf".
var reUnitPath = regexp.MustCompile(`(?:^|/)([\w@.-]+)\.service(?:\.d/[^/\s]+)?$`)

// UnitOfPath returns the service a systemd unit file or drop-in path configures ("kubelet" for
// /etc/systemd/system/kubelet.service.d/http-proxy.conf), "" when the path is no unit file.
func UnitOfPath(p string) string {
	if m := reUnitPath.FindStringSubmatch(strings.TrimSpace(p)); m != nil {
		return m[1]
	}
	return ""
}

// ParseUnits reads `systemctl cat` output of one or more units, each file after its
// "# /path" line, by the service each file configures (UnitOfPath); lines before any such
// line (`systemctl show UNIT -p Environment`, a drop-in printed by cat) belong to dflt, and are
// dropped when dflt is "". source names the text in the places recorded.
func ParseUnits(text []byte, source, dflt string) map[string]Unit {
	chunks := map[string][]byte{}
	var order []string
	cur := dflt
	for _, l := range strings.SplitAfter(string(text), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "# /"); ok {
			cur = UnitOfPath("/" + rest)
		}
		if cur == "" {
			continue
		}
		if _, ok := chunks[cur]; !ok {
			order = append(order, cur)
		}
		chunks[cur] = append(chunks[cur], l...)
	}
	out := map[string]Unit{}
	for _, c := range order {
		u := ParseUnit(chunks[c], source)
		if len(u.Vars) > 0 || len(u.EnvironmentFiles) > 0 {
			out[c] = u
		}
	}
	return out
}

// reEnvLine is a proxy assignment of an environment file (/etc/environment, which pam_env and
// systemd's EnvironmentFile= read as NAME=value lines) or of `env`/`printenv` output, with an
// optional "export " and quotes.
var reEnvLine = regexp.MustCompile(`^\s*(?:export\s+)?(HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy)=(?:"([^"]*)"|'([^']*)'|(\S*))\s*$`)

// ParseEnvFile returns the proxy assignments of an environment file or a shell's environment
// as printed by env (NAME=value lines), the last of each name winning; at names each place by
// its 0-based line index in text.
func ParseEnvFile(text []byte, at func(line int) string) map[string]evidence.ProxyVar {
	out := map[string]evidence.ProxyVar{}
	for i, l := range strings.Split(string(text), "\n") {
		if m := reEnvLine.FindStringSubmatch(strings.TrimSuffix(l, "\r")); m != nil {
			out[m[1]] = evidence.ProxyVar{Value: m[2] + m[3] + m[4], Source: at(i)}
		}
	}
	return out
}

// Facts are the proxy settings one input shows, before they are given to the components:
// units' Environment= and EnvironmentFile= lines by service, and environment files' proxy
// assignments by path.
type Facts struct {
	Units map[string]Unit
	Files map[string]map[string]evidence.ProxyVar
}

// AddUnits adds units read from one text; a unit already shown is extended, later variables
// overriding earlier ones.
func (f *Facts) AddUnits(us map[string]Unit) {
	if f.Units == nil {
		f.Units = map[string]Unit{}
	}
	for c, u := range us {
		old, ok := f.Units[c]
		if !ok {
			f.Units[c] = u
			continue
		}
		for n, v := range u.Vars {
			old.Vars[n] = v
		}
		old.EnvironmentFiles = append(old.EnvironmentFiles, u.EnvironmentFiles...)
		f.Units[c] = old
	}
}

// AddFile adds an environment file's proxy assignments.
func (f *Facts) AddFile(path string, vars map[string]evidence.ProxyVar) {
	if len(vars) == 0 {
		return
	}
	if f.Files == nil {
		f.Files = map[string]map[string]evidence.ProxyVar{}
	}
	if f.Files[path] == nil {
		f.Files[path] = map[string]evidence.ProxyVar{}
	}
	for n, v := range vars {
		f.Files[path][n] = v
	}
}

// Envs returns the proxy environment of the node components the facts show (kubelet,
// containerd), each unit's Environment= variables overridden by those of the files its
// EnvironmentFile= lines read, as systemd applies them. A component whose unit is not shown
// gets the variables of /etc/environment, when that file is, with Unsure saying that whether
// it reads the file is not known. Components are in a stable order; nil when none has a proxy.
func (f Facts) Envs() []evidence.ProxyEnv {
	var out []evidence.ProxyEnv
	for _, c := range []string{"kubelet", "containerd"} {
		u, ok := f.Units[c]
		if !ok {
			continue
		}
		vars := map[string]evidence.ProxyVar{}
		for n, v := range u.Vars {
			vars[n] = v
		}
		for _, p := range u.EnvironmentFiles {
			for n, v := range f.Files[p] {
				v.Source += ", read by the " + c + " through EnvironmentFile=" + p
				vars[n] = v
			}
		}
		if len(vars) > 0 {
			out = append(out, evidence.ProxyEnv{Component: c, Vars: vars})
		}
	}
	if env := f.Files[EtcEnvironment]; len(env) > 0 {
		for _, c := range []string{"kubelet", "containerd"} {
			if _, ok := f.Units[c]; ok {
				continue
			}
			out = append(out, evidence.ProxyEnv{Component: c, Vars: env,
				Unsure: "a service reads " + EtcEnvironment + " only through an EnvironmentFile= line of its unit, and the " + c + "'s unit is not in the input"})
		}
	}
	return out
}

// EtcEnvironment is the system-wide environment file the EKS proxy guides write and point the
// kubelet's and containerd's drop-ins at (EnvironmentFile=/etc/environment).
const EtcEnvironment = "/etc/environment"
