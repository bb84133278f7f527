package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

const (
	proxyEndpoint = "C4E6A8B0D2F41357A9C1E3B5D7F9A2C4.yl4.eu-west-2.eks.amazonaws.com"
	x509Kubelet   = `Mar 30 13:06:08 ip-10-52-36-118.eu-west-2.compute.internal kubelet[4188]: E0330 13:06:08.930155    4188 kubelet_node_status.go:95] "Unable to register node with API server" err="Post \"https://` + proxyEndpoint + `/api/v1/nodes\": tls: failed to verify certificate: x509: certificate signed by unknown authority" node="ip-10-52-36-118.eu-west-2.compute.internal"`
	curlLivez     = "curling https://" + proxyEndpoint + " (1 of 5) 2026-03-30T13:57:32.630UTC\n*  SSL certificate verify ok.\n< HTTP/2 200\nlivez check passed\n"
	noCreds       = `Sep 17 08:13:28 ip-10-60-21-148 kubelet[3844]: could not get token: NoCredentialProviders: no valid providers in chain. Deprecated.`
)

// proxyLogs scans the kubelet's lines (repeated n times, a minute apart in the journal's
// clock is not needed: counts suffice) and the log collector's curl output.
func proxyLogs(t *testing.T, kubelet string, n int, curl string) *evidence.NodeLogs {
	t.Helper()
	s := logscan.MustDefault()
	if err := s.Scan(strings.NewReader(strings.Repeat(kubelet+"\n", n)), "kubelet/kubelet.log", "kubelet"); err != nil {
		t.Fatal(err)
	}
	if curl != "" {
		if err := s.Scan(strings.NewReader(curl), "networking/curl_api_server.txt", "curl"); err != nil {
			t.Fatal(err)
		}
	}
	return s.Result("eks-linux")
}

func kubeletEnv(vars ...string) []evidence.ProxyEnv {
	e := evidence.ProxyEnv{Component: "kubelet", Vars: map[string]evidence.ProxyVar{}}
	for i := 0; i+1 < len(vars); i += 2 {
		e.Vars[vars[i]] = evidence.ProxyVar{Value: vars[i+1], Source: "kubelet/kubelet_service.txt: /etc/systemd/system/kubelet.service.d/20-http-proxy.conf"}
	}
	return []evidence.ProxyEnv{e}
}

// TestCurlDoesNotResolveProxiedKubelet: the log collector's curl (--noproxy '*') reaching the
// endpoint says nothing of the kubelet's path when the kubelet's proxy environment sends the
// endpoint through a proxy; without a proxy, or with NO_PROXY excluding the endpoint, or when
// curl went through a proxy too, the curl success still shows the failure over.
func TestCurlDoesNotResolveProxiedKubelet(t *testing.T) {
	const noProxyCIDR = "localhost,127.0.0.1,169.254.169.254,10.52.0.0/16,.internal"
	for _, c := range []struct {
		name  string
		proxy []evidence.ProxyEnv
		route string
		want  testimonyState
	}{
		{"proxied, curl direct", kubeletEnv("HTTPS_PROXY", "http://proxy.corp:3128", "NO_PROXY", noProxyCIDR), evidence.CurlDirect, testimonyFailing},
		{"no proxy", nil, evidence.CurlDirect, testimonyResolved},
		{"endpoint excluded", kubeletEnv("HTTPS_PROXY", "http://proxy.corp:3128", "NO_PROXY", noProxyCIDR+",.eks.amazonaws.com"), evidence.CurlDirect, testimonyResolved},
		{"curl proxied too", kubeletEnv("HTTPS_PROXY", "http://proxy.corp:3128", "NO_PROXY", noProxyCIDR), evidence.CurlProxied, testimonyResolved},
		{"only HTTP_PROXY", kubeletEnv("HTTP_PROXY", "http://proxy.corp:3128"), evidence.CurlDirect, testimonyResolved},
	} {
		t.Run(c.name, func(t *testing.T) {
			logs := proxyLogs(t, x509Kubelet, 5, curlLivez)
			logs.Proxy, logs.CurlRoute = c.proxy, c.route
			tm := judgeTestimony(logs, "runtime.tls-untrusted")
			if tm.state != c.want {
				t.Fatalf("state = %v, want %v", tm.state, c.want)
			}
			if tm.state != testimonyFailing {
				return
			}
			fs := testimonyFindings("runtime.tls-untrusted", tm, logs, "node", "bundle:x")
			msg := fs[0].Message
			for _, want := range []string{"through the HTTP proxy http://proxy.corp:3128 (HTTPS_PROXY, from kubelet/kubelet_service.txt: /etc/systemd/system/kubelet.service.d/20-http-proxy.conf)",
				"Go matches a CIDR entry only against an IP address", "log collector's curl, which does not use the kubelet's proxy",
				"add " + proxyEndpoint + " (or .eks.amazonaws.com) to NO_PROXY"} {
				if fs[0].Status != StatusFail || !strings.Contains(msg, want) {
					t.Errorf("%s %q lacks %q", fs[0].Status, msg, want)
				}
			}
		})
	}
}

// TestIMDSThroughKubeletProxy: an SDK's "no valid providers in chain" from the kubelet's
// credential plugin, whose IMDS requests the kubelet's proxy environment sends to the proxy,
// is not an instance without a profile: iam.no-instance-profile is not a cause, and
// runtime.exec-credential-failed fails naming the proxy and 169.254.169.254.
func TestIMDSThroughKubeletProxy(t *testing.T) {
	const execFailed = `Sep 17 08:13:28 ip-10-60-21-148 kubelet[3844]: E0917 08:13:28.100000    3844 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \"https://A3F0.yl4.eu-central-1.eks.amazonaws.com/api/v1/nodes\": getting credentials: exec: executable /usr/bin/aws-iam-authenticator failed with exit code 1" node="ip-10-60-21-148.eu-central-1.compute.internal"`
	for _, c := range []struct {
		name    string
		proxy   []evidence.ProxyEnv
		profile testimonyState
	}{
		{"IMDS through the proxy", kubeletEnv("HTTP_PROXY", "http://egress:3128", "HTTPS_PROXY", "http://egress:3128", "NO_PROXY", "10.60.0.0/16,localhost,.internal"), testimonyProxied},
		{"IMDS excluded", kubeletEnv("HTTP_PROXY", "http://egress:3128", "NO_PROXY", "169.254.169.254"), testimonyFailing},
		{"no proxy", nil, testimonyFailing},
	} {
		t.Run(c.name, func(t *testing.T) {
			logs := proxyLogs(t, noCreds+"\n"+execFailed, 5, "")
			logs.Proxy = c.proxy
			if got := judgeTestimony(logs, "iam.no-instance-profile").state; got != c.profile {
				t.Fatalf("iam.no-instance-profile: state %v, want %v", got, c.profile)
			}
			exec := judgeTestimony(logs, "runtime.exec-credential-failed")
			if c.profile != testimonyProxied {
				return
			}
			fs := testimonyFindings("iam.no-instance-profile", judgeTestimony(logs, "iam.no-instance-profile"), logs, "node", "bundle:x")
			if fs[0].Status != StatusSkipped || !strings.Contains(fs[0].Message, "not a cause") || !strings.Contains(fs[0].Message, "runtime.exec-credential-failed") {
				t.Errorf("iam.no-instance-profile: %s %q", fs[0].Status, fs[0].Message)
			}
			if exec.state != testimonyFailing {
				t.Fatalf("runtime.exec-credential-failed: state %v", exec.state)
			}
			fs = testimonyFindings("runtime.exec-credential-failed", exec, logs, "node", "bundle:x")
			if !strings.Contains(fs[0].Message, "IMDS requests (169.254.169.254) go through the HTTP proxy http://egress:3128 (HTTP_PROXY") ||
				!strings.Contains(fs[0].Message, "add 169.254.169.254 to NO_PROXY") {
				t.Errorf("runtime.exec-credential-failed: %q", fs[0].Message)
			}
		})
	}
}

// TestRedactedProxy: Bottlerocket's logdog writes settings.network.https-proxy as "REDACTED"
// in a bundle's settings.json; the message says the proxy's address is redacted instead of
// naming "http://REDACTED" as if it were the proxy.
func TestRedactedProxy(t *testing.T) {
	logs := proxyLogs(t, x509Kubelet, 5, curlLivez)
	logs.CurlRoute = evidence.CurlDirect
	logs.Proxy = []evidence.ProxyEnv{{Component: "kubelet", Vars: map[string]evidence.ProxyVar{
		"HTTPS_PROXY": {Value: "REDACTED", Source: "settings.json: settings.network.https-proxy"},
		"NO_PROXY":    {Value: "localhost,127.0.0.1,169.254.169.254,.internal", Source: "settings.json: settings.network.no-proxy"},
	}}}
	tm := judgeTestimony(logs, "runtime.tls-untrusted")
	if tm.state != testimonyFailing {
		t.Fatalf("state = %v", tm.state)
	}
	msg := testimonyFindings("runtime.tls-untrusted", tm, logs, "node", "bundle:x")[0].Message
	if strings.Contains(msg, "REDACTED") || !strings.Contains(msg, "the HTTP proxy whose address the input redacts (HTTPS_PROXY, from settings.json: settings.network.https-proxy)") {
		t.Errorf("message %q", msg)
	}
}

// TestPullThroughContainerdProxy: containerd pulls every image, so runtime.image-pull's message
// names the proxy containerd's drop-in sends the registry through, found by the image
// reference's host when the quoted line is cut before its URL.
func TestPullThroughContainerdProxy(t *testing.T) {
	const pull = `Jun 24 07:12:41 ip-10-88-3-201.us-west-2.compute.internal containerd[1822]: time="2026-06-24T07:12:41.634104683Z" level=error msg="PullImage \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.5\" failed" error="failed to pull and unpack image \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.5\": failed to resolve reference \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.5\": failed to do request: Head \"https://602401143452.dkr.ecr.us-west-2.amazonaws.com/v2/eks/pause/manifests/3.5\": proxyconnect tcp: dial tcp 10.88.0.9:3128: i/o timeout"`
	logs := proxyLogs(t, pull, 3, "")
	env := kubeletEnv("HTTPS_PROXY", "http://10.88.0.9:3128", "NO_PROXY", "localhost,169.254.169.254,.internal")
	env[0].Component = "containerd"
	logs.Proxy = env
	tm := judgeTestimony(logs, "runtime.image-pull")
	if tm.state != testimonyFailing {
		t.Fatalf("state = %v", tm.state)
	}
	msg := testimonyFindings("runtime.image-pull", tm, logs, "node", "bundle:x")[0].Message
	if !strings.Contains(msg, "containerd's pulls from 602401143452.dkr.ecr.us-west-2.amazonaws.com go through the HTTP proxy http://10.88.0.9:3128 (HTTPS_PROXY") {
		t.Errorf("message %q", msg)
	}
	logs.Proxy[0].Vars["NO_PROXY"] = evidence.ProxyVar{Value: ".amazonaws.com", Source: "x"}
	if msg := testimonyFindings("runtime.image-pull", judgeTestimony(logs, "runtime.image-pull"), logs, "node", "bundle:x")[0].Message; strings.Contains(msg, "proxy") && strings.Contains(msg, "containerd's pulls") {
		t.Errorf("an excluded registry is said to go through the proxy: %q", msg)
	}
}

// TestUnsureKubeletProxy: a proxy environment the kubelet may not run with (/etc/environment
// without the unit that would read it) is named with its doubt, and changes no conclusion: the
// log collector's curl still shows the kubelet's x509 over.
func TestUnsureKubeletProxy(t *testing.T) {
	env := kubeletEnv("HTTPS_PROXY", "http://proxy.corp:3128", "NO_PROXY", "localhost")
	env[0].Unsure = "the kubelet's unit is not in the input"
	logs := proxyLogs(t, x509Kubelet, 5, "")
	logs.Proxy = env
	tm := judgeTestimony(logs, "runtime.tls-untrusted")
	msg := testimonyFindings("runtime.tls-untrusted", tm, logs, "node", "bundle:x")[0].Message
	if !strings.Contains(msg, "would go through the HTTP proxy http://proxy.corp:3128") || !strings.Contains(msg, "if the kubelet runs with it (not known: the kubelet's unit is not in the input)") {
		t.Errorf("message %q", msg)
	}
	logs = proxyLogs(t, x509Kubelet, 5, curlLivez)
	logs.Proxy, logs.CurlRoute = env, evidence.CurlDirect
	if got := judgeTestimony(logs, "runtime.tls-untrusted").state; got != testimonyResolved {
		t.Errorf("an unsure proxy changed the judgement: %v", got)
	}
}
