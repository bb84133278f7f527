package bundle

import (
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/proxyenv"
)

// kubeletUnit is the EKS log collector's `systemctl cat kubelet` (the unit and its drop-ins).
const kubeletUnit = "kubelet/kubelet_service.txt"

// proxyEnvs returns the HTTP proxy environment of the node's components the bundle shows:
// the kubelet's unit's Environment= lines, and for its EnvironmentFile= (whose contents the
// bundle does not hold, /etc/environment most often) the proxy assignments the user data
// printed under bash -x in cloud-init-output.log. Nil when no proxy is set. (Bottlerocket's
// are BottlerocketProxy's.)
func (b *Bundle) proxyEnvs() []evidence.ProxyEnv {
	raw, ok := b.Configs[kubeletUnit]
	if !ok {
		return nil
	}
	u := proxyenv.ParseUnit(raw, kubeletUnit)
	vars := u.Vars
	if len(u.EnvironmentFiles) > 0 {
		// systemd: variables of EnvironmentFile= override those of Environment=
		for n, v := range proxyenv.TraceWrites(b.Configs["var_log/cloud-init-output.log"], "var_log/cloud-init-output.log") {
			v.Source += ", read by the kubelet through EnvironmentFile=" + strings.Join(u.EnvironmentFiles, ", ")
			vars[n] = v
		}
	}
	if len(vars) == 0 {
		return nil
	}
	return []evidence.ProxyEnv{{Component: "kubelet", Vars: vars}}
}

// BottlerocketProxy is the proxy environment Bottlerocket's proxy-env template gives the
// kubelet and containerd (bottlerocket-os/bottlerocket packages/os/proxy-env): HTTPS_PROXY from
// settings.network.https-proxy (no HTTP_PROXY), NO_PROXY from settings.network.no-proxy followed
// by localhost, 127.0.0.1, the host of settings.kubernetes.api-server and
// "."+settings.kubernetes.cluster-domain. settings is the settings object (settings.json's
// "settings", `apiclient get settings…`'s); src names it in the places recorded ("settings.json").
// Nil when no https-proxy is set.
func BottlerocketProxy(settings map[string]any, src string) []evidence.ProxyEnv {
	network, _ := settings["network"].(map[string]any)
	proxy, _ := network["https-proxy"].(string)
	if proxy == "" {
		return nil
	}
	var no []string
	if l, ok := network["no-proxy"].([]any); ok {
		for _, e := range l {
			if s, ok := e.(string); ok && s != "" {
				no = append(no, s)
			}
		}
	}
	no = append(no, "localhost", "127.0.0.1")
	k8s, _ := settings["kubernetes"].(map[string]any)
	if api, _ := k8s["api-server"].(string); api != "" {
		host := strings.TrimPrefix(strings.TrimPrefix(api, "https://"), "http://")
		host, _, _ = strings.Cut(host, "/")
		no = append(no, host)
	}
	if d, _ := k8s["cluster-domain"].(string); d != "" {
		no = append(no, "."+d)
	}
	vars := map[string]evidence.ProxyVar{
		"HTTPS_PROXY": {Value: proxy, Source: src + ": settings.network.https-proxy"},
		"NO_PROXY":    {Value: strings.Join(no, ","), Source: src + ": settings.network.no-proxy, with the entries Bottlerocket adds"},
	}
	return []evidence.ProxyEnv{{Component: "kubelet", Vars: vars}, {Component: "containerd", Vars: vars}}
}

// curlRoute reads how the log collector's curl to the API endpoint went: through a proxy when
// curl's verbose output says so ("Uses proxy env variable", "Establish HTTP proxy tunnel"),
// directly otherwise; "" when the file is not in the bundle or empty.
func (b *Bundle) curlRoute() string {
	raw := string(b.Configs["networking/curl_api_server.txt"])
	switch {
	case strings.TrimSpace(raw) == "":
		return ""
	case strings.Contains(raw, "Uses proxy env variable"), strings.Contains(raw, "Establish HTTP proxy tunnel"),
		strings.Contains(raw, "Proxy-Connection:"), strings.Contains(raw, "Proxy replied"):
		return evidence.CurlProxied
	}
	return evidence.CurlDirect
}
