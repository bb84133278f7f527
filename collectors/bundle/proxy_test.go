package bundle

import (
	"archive/tar"
	"bytes"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestProxyEnvironment: the kubelet's unit and drop-ins (kubelet_service.txt) give its proxy
// environment with the drop-in that sets each variable; an EnvironmentFile= takes the proxy
// assignments the user data printed under bash -x; Bottlerocket's settings.network proxy
// settings reach the kubelet and containerd with the NO_PROXY entries Bottlerocket adds; the
// log collector's curl is direct unless its output shows a proxy.
func TestProxyEnvironment(t *testing.T) {
	const service = "# /etc/systemd/system/kubelet.service\n[Service]\nExecStart=/usr/bin/kubelet\n\n# /etc/systemd/system/kubelet.service.d/20-http-proxy.conf\n[Service]\nEnvironment=\"HTTPS_PROXY=http://proxy.corp:3128\"\nEnvironment=\"NO_PROXY=10.0.0.0/16\"\n"
	read := func(t *testing.T, entries ...entry) *evidence.NodeLogs {
		t.Helper()
		b, err := ReadTarGz(bytes.NewReader(tarGz(t, append([]entry{{name: "kubelet/kubelet.log", body: unauthorized}}, entries...)...)), "eks.tar.gz", DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		return b.Evidence().NodeLogs
	}
	logs := read(t, entry{name: "kubelet/kubelet_service.txt", body: service},
		entry{name: "networking/curl_api_server.txt", body: "curling https://X.eks.amazonaws.com (1 of 5)\n*  SSL certificate verify ok.\n"})
	if len(logs.Proxy) != 1 || logs.Proxy[0].Component != "kubelet" {
		t.Fatalf("proxy = %+v", logs.Proxy)
	}
	if v := logs.Proxy[0].Vars["HTTPS_PROXY"]; v.Value != "http://proxy.corp:3128" || v.Source != "kubelet/kubelet_service.txt: /etc/systemd/system/kubelet.service.d/20-http-proxy.conf" {
		t.Errorf("HTTPS_PROXY = %+v", v)
	}
	if logs.CurlRoute != evidence.CurlDirect {
		t.Errorf("curl route = %q", logs.CurlRoute)
	}

	envFile := "# /etc/systemd/system/kubelet.service.d/http-proxy.conf\n[Service]\nEnvironmentFile=/etc/environment\n"
	trace := "+ echo HTTP_PROXY=http://egress:3128\n+ echo NO_PROXY=10.60.0.0/16,localhost\n"
	logs = read(t, entry{name: "kubelet/kubelet_service.txt", body: envFile}, entry{name: "var_log/cloud-init-output.log", body: trace},
		entry{name: "networking/curl_api_server.txt", body: "* Uses proxy env variable https_proxy == 'http://egress:3128'\n* Establish HTTP proxy tunnel to X:443\n"})
	if len(logs.Proxy) != 1 {
		t.Fatalf("proxy = %+v", logs.Proxy)
	}
	if v := logs.Proxy[0].Vars["HTTP_PROXY"]; v.Value != "http://egress:3128" || !strings.Contains(v.Source, "var_log/cloud-init-output.log:1") || !strings.Contains(v.Source, "EnvironmentFile=/etc/environment") {
		t.Errorf("HTTP_PROXY = %+v", v)
	}
	if logs.CurlRoute != evidence.CurlProxied {
		t.Errorf("curl route = %q", logs.CurlRoute)
	}

	// the trace's assignments stand for an EnvironmentFile= only: without one they are the
	// user data's own shell variables
	logs = read(t, entry{name: "kubelet/kubelet_service.txt", body: "# /etc/systemd/system/kubelet.service\n[Service]\nExecStart=/usr/bin/kubelet\n"}, entry{name: "var_log/cloud-init-output.log", body: trace})
	if len(logs.Proxy) != 0 || logs.CurlRoute != "" {
		t.Errorf("proxy = %+v, curl %q", logs.Proxy, logs.CurlRoute)
	}

	settings := `{"settings":{"network":{"https-proxy":"http://proxy.corp:3128","no-proxy":["10.0.0.0/16"]},"kubernetes":{"api-server":"https://ABC.gr7.us-west-2.eks.amazonaws.com","cluster-domain":"cluster.local"}}}`
	b, err := ReadTarGz(bytes.NewReader(tarGz(t, entry{name: "bottlerocket-logs/", typ: tar.TypeDir}, entry{name: "bottlerocket-logs/os-release", body: "VARIANT_ID=aws-k8s-1.29\n"},
		entry{name: "bottlerocket-logs/settings.json", body: settings}, entry{name: "bottlerocket-logs/journalctl.log", body: unauthorized})), "br.tar.gz", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	logs = b.Evidence().NodeLogs
	if len(logs.Proxy) != 2 || logs.Proxy[1].Component != "containerd" {
		t.Fatalf("bottlerocket proxy = %+v", logs.Proxy)
	}
	if v := logs.Proxy[0].Vars["NO_PROXY"]; v.Value != "10.0.0.0/16,localhost,127.0.0.1,ABC.gr7.us-west-2.eks.amazonaws.com,.cluster.local" {
		t.Errorf("bottlerocket NO_PROXY = %+v", v)
	}
}
