package evidence

// ProxyEnv is the HTTP proxy environment one node component runs with, as the node's
// configuration sets it: a systemd unit's Environment= and EnvironmentFile= lines (the EKS log
// collector's kubelet/kubelet_service.txt), /etc/environment as the user data's shell trace
// writes it, or Bottlerocket's settings.network.https-proxy and no-proxy. Processes the
// component starts inherit it: the kubelet's exec credential plugin (aws-iam-authenticator,
// aws eks get-token) sends its IMDS and STS requests as the kubelet's environment says.
type ProxyEnv struct {
	// Component is the process: "kubelet" or "containerd".
	Component string `json:"component"`
	// Vars are the proxy variables set (HTTP_PROXY, HTTPS_PROXY, NO_PROXY and their lower-case
	// forms, as written), each with where it was read.
	Vars map[string]ProxyVar `json:"vars"`
	// Unsure, when set, says why it is not known that the component runs with Vars (the
	// node's /etc/environment shown without the unit that would read it): such an environment
	// is named in messages with this reason, and never changes what a finding concludes.
	Unsure string `json:"unsure,omitempty"`
}

// ProxyVar is one proxy variable's value and the place that sets it.
type ProxyVar struct {
	Value string `json:"value"`
	// Source names the file and the unit file or line within it, e.g.
	// "kubelet/kubelet_service.txt: /etc/systemd/system/kubelet.service.d/20-http-proxy.conf".
	Source string `json:"source"`
}

// Lookup returns the first of names that is set (Go's net/http reads HTTPS_PROXY before
// https_proxy, golang.org/x/net/http/httpproxy FromEnvironment) and its place; ok is false
// when none is.
func (p ProxyEnv) Lookup(names ...string) (ProxyVar, bool) {
	for _, n := range names {
		if v, ok := p.Vars[n]; ok && v.Value != "" {
			return v, true
		}
	}
	return ProxyVar{}, false
}

// Curl routes of the EKS log collector's networking/curl_api_server.txt (NodeLogs.CurlRoute).
const (
	// CurlDirect: curl's verbose output shows no proxy (the collector runs curl with
	// --noproxy '*' since 2024, and its shell has none of the kubelet's drop-in variables).
	CurlDirect = "direct"
	// CurlProxied: curl's verbose output shows it used a proxy.
	CurlProxied = "proxy"
)
