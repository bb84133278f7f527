package checks

import (
	"fmt"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/proxyenv"
)

// An HTTP proxy set for the kubelet (a systemd drop-in's HTTPS_PROXY, /etc/environment read
// through EnvironmentFile=, Bottlerocket's settings.network.https-proxy) changes how its lines
// read: the kubelet's requests to a host NO_PROXY does not exclude go through the proxy, whose
// refusals (a bare "Forbidden"), interception (x509 unknown authority) and failures are the
// kubelet's; the credential plugin it starts inherits the environment, so its IMDS requests go
// to the proxy too unless NO_PROXY lists 169.254.169.254.

// imdsTokenURL is the IMDSv2 token URL every AWS SDK's instance-profile provider calls first
// (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-retrieval.html).
const imdsTokenURL = "http://169.254.169.254/latest/api/token"

// curlResolvable are the findings the log collector's curl_api_server.txt can show over
// (livez-ok, curl-ssl-verify-ok): the kubelet's path to the endpoint, which curl only retraces
// when both go the same way.
var curlResolvable = map[string]bool{"runtime.apiserver-timeout": true, "runtime.tls-untrusted": true}

// imdsCredentialFindings are the findings whose lines (an AWS SDK's "no valid providers in
// chain") say a process found no instance-profile credentials: a process whose IMDS requests go
// to a proxy finds none whatever the instance profile.
var imdsCredentialFindings = map[string]bool{"iam.no-instance-profile": true}

// proxyEnvOf returns the proxy environment of component in the logs' node that it is known to
// run with (nil when none is).
func proxyEnvOf(logs *evidence.NodeLogs, component string) *evidence.ProxyEnv {
	if logs == nil {
		return nil
	}
	for i := range logs.Proxy {
		if logs.Proxy[i].Component == component && logs.Proxy[i].Unsure == "" {
			return &logs.Proxy[i]
		}
	}
	return nil
}

// unsureEnvOf returns the proxy environment component may run with (evidence.ProxyEnv.Unsure),
// nil when there is none or a sure one.
func unsureEnvOf(logs *evidence.NodeLogs, component string) *evidence.ProxyEnv {
	if logs == nil || proxyEnvOf(logs, component) != nil {
		return nil
	}
	for i := range logs.Proxy {
		if logs.Proxy[i].Component == component {
			return &logs.Proxy[i]
		}
	}
	return nil
}

// kubeletLine reports whether l is the kubelet's (or a process it starts, whose output it
// logs): a line of its own log, or a journal line tagged kubelet[PID].
func kubeletLine(logs *evidence.NodeLogs, l evidence.LogLine) bool {
	if strings.Contains(l.Text, " kubelet[") {
		return true
	}
	for _, s := range logs.Streams {
		if s.Path == l.Path {
			return s.Stream == "kubelet"
		}
	}
	return false
}

// kubeletProxied returns the host the failing kubelet lines call and the route the kubelet's
// proxy environment gives it, when every failing hit is the kubelet's, names an https URL, and
// each such host goes through the proxy; ok false otherwise.
func kubeletProxied(logs *evidence.NodeLogs, failing []evidence.SignatureHit) (host string, r proxyenv.Route, ok bool) {
	return proxiedWith(logs, proxyEnvOf(logs, "kubelet"), failing)
}

// proxiedWith is kubeletProxied under env (nil: not proxied).
func proxiedWith(logs *evidence.NodeLogs, env *evidence.ProxyEnv, failing []evidence.SignatureHit) (host string, r proxyenv.Route, ok bool) {
	if env == nil || len(failing) == 0 {
		return "", proxyenv.Route{}, false
	}
	for _, h := range failing {
		hh := proxyenv.HostOf(h.First.Text)
		if hh == "" || !kubeletLine(logs, h.First) {
			return "", proxyenv.Route{}, false
		}
		rr, through := proxyenv.Through(*env, "https://"+hh+"/")
		if !through {
			return "", proxyenv.Route{}, false
		}
		if host == "" {
			host, r = hh, rr
		}
	}
	return host, r, true
}

// curlBypassesProxy reports whether the log collector's curl went to the endpoint directly
// while the kubelet's failing calls to it go through its proxy: curl's success then says
// nothing of the kubelet's path.
func curlBypassesProxy(logs *evidence.NodeLogs, id string, failing []evidence.SignatureHit) bool {
	if !curlResolvable[id] || logs.CurlRoute != evidence.CurlDirect {
		return false
	}
	_, _, ok := kubeletProxied(logs, failing)
	return ok
}

// imdsProxied returns the route of the kubelet's (and so its credential plugin's) IMDS
// requests when its proxy environment sends them to a proxy.
func imdsProxied(logs *evidence.NodeLogs) (proxyenv.Route, bool) {
	env := proxyEnvOf(logs, "kubelet")
	if env == nil {
		return proxyenv.Route{}, false
	}
	return proxyenv.Through(*env, imdsTokenURL)
}

// splitIMDSProxied returns the failing hits of an instance-profile finding that are not the
// kubelet's lines sent through its proxy (the rest stand), and whether any was.
func splitIMDSProxied(logs *evidence.NodeLogs, id string, failing []evidence.SignatureHit) ([]evidence.SignatureHit, bool) {
	if !imdsCredentialFindings[id] {
		return failing, false
	}
	if _, ok := imdsProxied(logs); !ok {
		return failing, false
	}
	var rest []evidence.SignatureHit
	for _, h := range failing {
		if !kubeletLine(logs, h.First) || !kubeletLine(logs, h.Last) {
			rest = append(rest, h)
		}
	}
	return rest, len(rest) < len(failing)
}

// routeText says how a request goes through the proxy: the proxy, the variable and where it is
// set, and the NO_PROXY that does not exclude the host (or that none is set).
func routeText(r proxyenv.Route) string {
	proxy := r.Proxy
	if proxyenv.Redacted(r.Proxied.Value) {
		// Bottlerocket's logdog: "http://REDACTED" is no proxy's address
		proxy = "whose address the input redacts"
	}
	s := fmt.Sprintf("the HTTP proxy %s (%s, from %s)", proxy, r.ProxyVar, r.Proxied.Source)
	if r.NoProxy.Value == "" {
		return s + " with no NO_PROXY set"
	}
	return s + fmt.Sprintf(", NO_PROXY %q (from %s) not excluding it", r.NoProxy.Value, r.NoProxy.Source)
}

// proxyNote is what the message of finding id adds when the kubelet's proxy explains its
// failing lines: the proxy its calls to the endpoint go through and the NO_PROXY entry to add,
// or, for its credential plugin, 169.254.169.254. "" when the proxy plays no part.
func proxyNote(logs *evidence.NodeLogs, id string, t testimony) string {
	if logs == nil {
		return ""
	}
	if curlResolvable[id] {
		host, r, ok := kubeletProxied(logs, t.failing)
		if !ok {
			if env := unsureEnvOf(logs, "kubelet"); env != nil {
				if host, r, ok := proxiedWith(logs, env, t.failing); ok {
					return fmt.Sprintf("; the kubelet's requests to %s would go through %s, if the kubelet runs with it (not known: %s): then add %s to NO_PROXY",
						host, routeText(r), env.Unsure, proxyenv.Exclusion(host))
				}
			}
			return ""
		}
		s := fmt.Sprintf("; the kubelet's requests to %s go through %s", host, routeText(r))
		if hasCIDR(r.NoProxy.Value) {
			s += " (Go matches a CIDR entry only against an IP address, never a host name)"
		}
		if logs.CurlRoute == evidence.CurlDirect && len(t.normal) > 0 {
			s += ", while the log collector's curl, which does not use the kubelet's proxy, reached the endpoint directly"
		}
		return s + fmt.Sprintf(": add %s to NO_PROXY", proxyenv.Exclusion(host))
	}
	if id == "runtime.image-pull" {
		return pullNote(logs, t.failing)
	}
	if id == "runtime.exec-credential-failed" {
		r, ok := imdsProxied(logs)
		if !ok {
			return ""
		}
		return fmt.Sprintf("; the credential plugin inherits the kubelet's environment, so its IMDS requests (169.254.169.254) go through %s, and it finds no instance-profile credentials: add 169.254.169.254 to NO_PROXY", routeText(r))
	}
	return ""
}

// hasCIDR reports whether a NO_PROXY value holds a CIDR entry ("10.0.0.0/16").
func hasCIDR(noProxy string) bool {
	for _, e := range strings.Split(noProxy, ",") {
		if strings.Contains(e, "/") {
			return true
		}
	}
	return false
}

// pullNote is what runtime.image-pull's message adds when containerd, which pulls every image
// the kubelet asks for (and the sandbox image), sends the failing pulls' registry through its
// HTTP proxy: the proxy and the NO_PROXY that does not exclude the registry. "" when the
// failing lines name no https URL or one containerd reaches directly.
func pullNote(logs *evidence.NodeLogs, failing []evidence.SignatureHit) string {
	env, unsure := proxyEnvOf(logs, "containerd"), ""
	if env == nil {
		if env = unsureEnvOf(logs, "containerd"); env == nil {
			return ""
		}
		unsure = env.Unsure
	}
	host := ""
	var r proxyenv.Route
	for _, h := range failing {
		hh := proxyenv.ImageHostOf(h.First.Text)
		if hh == "" {
			return ""
		}
		rr, through := proxyenv.Through(*env, "https://"+hh+"/")
		if !through {
			return ""
		}
		if host == "" {
			host, r = hh, rr
		}
	}
	if host == "" {
		return ""
	}
	if unsure != "" {
		return fmt.Sprintf("; containerd's pulls from %s would go through %s, if containerd runs with it (not known: %s)", host, routeText(r), unsure)
	}
	return fmt.Sprintf("; containerd's pulls from %s go through %s: the proxy must allow %s, or add it to NO_PROXY where a VPC endpoint or NAT reaches it", host, routeText(r), host)
}
