package proxyenv

import (
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const unit = `# /etc/systemd/system/kubelet.service
[Service]
ExecStart=/usr/bin/kubelet $KUBELET_ARGS

# /etc/systemd/system/kubelet.service.d/10-kubelet-args.conf
[Service]
Environment='KUBELET_ARGS=--node-ip=10.0.0.1'

# /etc/systemd/system/kubelet.service.d/20-http-proxy.conf
[Service]
Environment="HTTP_PROXY=http://proxy.corp:3128"
Environment="HTTPS_PROXY=http://user:secret@proxy.corp:3128" "NO_PROXY=localhost,10.0.0.0/16,.internal"
EnvironmentFile=-/etc/environment
`

func TestParseUnit(t *testing.T) {
	u := ParseUnit([]byte(unit), "kubelet/kubelet_service.txt")
	if got := u.Vars["NO_PROXY"]; got.Value != "localhost,10.0.0.0/16,.internal" || got.Source != "kubelet/kubelet_service.txt: /etc/systemd/system/kubelet.service.d/20-http-proxy.conf" {
		t.Errorf("NO_PROXY = %+v", got)
	}
	if _, ok := u.Vars["KUBELET_ARGS"]; ok {
		t.Error("a variable other than the proxy's was kept")
	}
	if len(u.EnvironmentFiles) != 1 || u.EnvironmentFiles[0] != "/etc/environment" {
		t.Errorf("EnvironmentFiles = %v", u.EnvironmentFiles)
	}
	reset := ParseUnit([]byte(unit+"\n# /etc/systemd/system/kubelet.service.d/99-reset.conf\n[Service]\nEnvironment=\n"), "x")
	if len(reset.Vars) != 0 {
		t.Errorf("an empty Environment= did not reset: %v", reset.Vars)
	}
}

func TestTraceWrites(t *testing.T) {
	trace := "+ PROXY=http://p:3128\n+ NO_PROXY_LIST=a,b\n+ echo HTTPS_PROXY=http://p:3128\n+ echo 'NO_PROXY=10.0.0.0/16,.internal'\n++ echo no_proxy=x\n"
	w := TraceWrites([]byte(trace), "var_log/cloud-init-output.log")
	if w["HTTPS_PROXY"].Value != "http://p:3128" || w["NO_PROXY"].Value != "10.0.0.0/16,.internal" || w["no_proxy"].Value != "x" {
		t.Errorf("writes = %v", w)
	}
	if _, ok := w["NO_PROXY_LIST"]; ok || len(w) != 3 {
		t.Errorf("writes = %v", w)
	}
	if w["NO_PROXY"].Source != "var_log/cloud-init-output.log:4 (printed by the user data under bash -x)" {
		t.Errorf("source = %q", w["NO_PROXY"].Source)
	}
}

// TestThrough pins Go's NO_PROXY semantics (golang.org/x/net/http/httpproxy): CIDRs match IP
// literals only, ".name" and "name" match subdomains, "*" everything, a port narrows an
// entry, loopback never goes through a proxy, http:// URLs use HTTP_PROXY.
func TestThrough(t *testing.T) {
	env := func(vars ...string) evidence.ProxyEnv {
		e := evidence.ProxyEnv{Component: "kubelet", Vars: map[string]evidence.ProxyVar{}}
		for i := 0; i+1 < len(vars); i += 2 {
			e.Vars[vars[i]] = evidence.ProxyVar{Value: vars[i+1], Source: "test"}
		}
		return e
	}
	const ep = "https://ABC.yl4.eu-west-2.eks.amazonaws.com/api/v1/nodes"
	for _, c := range []struct {
		name string
		env  evidence.ProxyEnv
		url  string
		want bool
	}{
		{"cidr does not match a host name", env("HTTPS_PROXY", "http://p:3128", "NO_PROXY", "10.52.0.0/16"), ep, true},
		{"cidr matches an IP literal", env("HTTPS_PROXY", "http://p:3128", "NO_PROXY", "10.52.0.0/16"), "https://10.52.1.2/", false},
		{"leading dot suffix", env("HTTPS_PROXY", "http://p:3128", "NO_PROXY", ".eks.amazonaws.com"), ep, false},
		{"bare domain suffix", env("HTTPS_PROXY", "http://p:3128", "NO_PROXY", "amazonaws.com"), ep, false},
		{"star", env("HTTPS_PROXY", "http://p:3128", "NO_PROXY", "*"), ep, false},
		{"port narrows", env("HTTPS_PROXY", "http://p:3128", "NO_PROXY", ".eks.amazonaws.com:8443"), ep, true},
		{"lower case names", env("https_proxy", "http://p:3128", "no_proxy", ".eks.amazonaws.com"), ep, false},
		{"no HTTPS_PROXY", env("HTTP_PROXY", "http://p:3128"), ep, false},
		{"IMDS over http", env("HTTP_PROXY", "http://p:3128", "NO_PROXY", "localhost"), "http://169.254.169.254/latest/api/token", true},
		{"IMDS excluded", env("HTTP_PROXY", "http://p:3128", "NO_PROXY", "169.254.169.254"), "http://169.254.169.254/latest/api/token", false},
		{"loopback never", env("HTTP_PROXY", "http://p:3128"), "http://127.0.0.1:10248/healthz", false},
	} {
		r, got := Through(c.env, c.url)
		if got != c.want {
			t.Errorf("%s: through = %v (%+v)", c.name, got, r)
		}
	}
	r, _ := Through(env("HTTPS_PROXY", "http://user:secret@p:3128", "NO_PROXY", "x"), ep)
	if r.Proxy != "http://p:3128" || r.ProxyVar != "HTTPS_PROXY" || r.NoProxy.Value != "x" {
		t.Errorf("route = %+v (credentials must not be kept)", r)
	}
}

func TestHostOfAndExclusion(t *testing.T) {
	line := `err="Post \"https://ABC.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes\": Forbidden"`
	if h := HostOf(line); h != "ABC.gr7.us-east-1.eks.amazonaws.com" {
		t.Errorf("HostOf = %q", h)
	}
	if e := Exclusion("ABC.gr7.us-east-1.eks.amazonaws.com"); e != "ABC.gr7.us-east-1.eks.amazonaws.com (or .eks.amazonaws.com)" {
		t.Errorf("Exclusion = %q", e)
	}
	if e := Exclusion("api.example.com"); e != "api.example.com" {
		t.Errorf("Exclusion = %q", e)
	}
}
