package ingest

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	proxyX509 = `Apr 22 13:19:31 ip-10-0-12-34.ec2.internal kubelet[1987]: E0422 13:19:31.324937    1987 kubelet_node_status.go:107] "Unable to register node with API server" err="Post \"https://8D1F0C2A5B3E4F67.gr7.us-east-1.eks.amazonaws.com/api/v1/nodes\": tls: failed to verify certificate: x509: certificate signed by unknown authority" node="ip-10-0-12-34.ec2.internal"`
	// systemctl cat prints each file of the unit under a "# /path" line
	proxyUnit = "# /etc/systemd/system/kubelet.service\n[Service]\nExecStart=/usr/bin/kubelet $KUBELET_ARGS\n\n" +
		"# /etc/systemd/system/kubelet.service.d/http-proxy.conf\n[Service]\nEnvironment=\"HTTPS_PROXY=http://proxy.corp.example:3128\"\nEnvironment=\"NO_PROXY=localhost,127.0.0.1,169.254.169.254,10.0.0.0/16,.internal\"\n"
	etcEnvironment = "HTTPS_PROXY=http://10.20.0.5:3128\nHTTP_PROXY=http://10.20.0.5:3128\nNO_PROXY=10.0.0.0/16,localhost,127.0.0.1,.internal\n"
)

func proxyOf(t *testing.T, paste string) (*Result, map[string]evidence.ProxyEnv) {
	t.Helper()
	r := Read([]byte(paste), "t", Options{})
	out := map[string]evidence.ProxyEnv{}
	if r.Evidence.NodeLogs == nil {
		t.Fatalf("no node logs read")
	}
	for _, e := range r.Evidence.NodeLogs.Proxy {
		out[e.Component] = e
	}
	return r, out
}

// TestPastedProxy: the node's proxy environment is read from what an operator pastes — a
// unit's drop-ins as systemctl cat prints them, /etc/environment read through EnvironmentFile=,
// a containerd drop-in printed by cat, a shell's env on the node, Bottlerocket's settings.network
// — each variable with the part of the paste that sets it; a workstation's env is not the node's.
func TestPastedProxy(t *testing.T) {
	t.Run("systemctl cat", func(t *testing.T) {
		_, p := proxyOf(t, "```\n[root@ip-10-0-12-34 ~]# systemctl cat kubelet\n"+proxyUnit+"```\n```\n"+proxyX509+"\n```\n")
		if v := p["kubelet"].Vars["HTTPS_PROXY"]; v.Value != "http://proxy.corp.example:3128" || v.Source != "paste:t:3-10: /etc/systemd/system/kubelet.service.d/http-proxy.conf" || p["kubelet"].Unsure != "" {
			t.Errorf("kubelet = %+v", p["kubelet"])
		}
	})
	t.Run("EnvironmentFile", func(t *testing.T) {
		_, p := proxyOf(t, "```\n[root@ip-10-0-12-34 ~]# systemctl cat kubelet\n# /etc/systemd/system/kubelet.service.d/proxy.conf\n[Service]\nEnvironmentFile=/etc/environment\n"+
			"[root@ip-10-0-12-34 ~]# cat /etc/environment\n"+etcEnvironment+"[root@ip-10-0-12-34 ~]# journalctl -u kubelet\n"+proxyX509+"\n```\n")
		if v := p["kubelet"].Vars["NO_PROXY"]; v.Value != "10.0.0.0/16,localhost,127.0.0.1,.internal" || v.Source != "paste:t:9 (/etc/environment), read by the kubelet through EnvironmentFile=/etc/environment" {
			t.Errorf("kubelet = %+v", p["kubelet"])
		}
		if _, ok := p["containerd"]; !ok || p["containerd"].Unsure == "" {
			t.Errorf("containerd, whose unit is not shown, = %+v", p["containerd"])
		}
	})
	t.Run("containerd drop-in", func(t *testing.T) {
		_, p := proxyOf(t, "```\n$ sudo cat /etc/systemd/system/containerd.service.d/http-proxy.conf\n[Service]\nEnvironment=\"HTTPS_PROXY=http://10.88.0.9:3128\"\n```\n```\n"+proxyX509+"\n```\n")
		if v := p["containerd"].Vars["HTTPS_PROXY"]; v.Value != "http://10.88.0.9:3128" || !strings.HasSuffix(v.Source, ": /etc/systemd/system/containerd.service.d/http-proxy.conf") {
			t.Errorf("containerd = %+v", p)
		}
		if _, ok := p["kubelet"]; ok {
			t.Errorf("containerd's drop-in given to the kubelet: %+v", p)
		}
	})
	t.Run("env on the node", func(t *testing.T) {
		_, p := proxyOf(t, "```\nsh-5.2$ env | grep -i proxy\n"+etcEnvironment+"```\n```\n"+proxyX509+"\n```\n")
		k := p["kubelet"]
		if k.Vars["HTTPS_PROXY"].Value != "http://10.20.0.5:3128" || !strings.Contains(k.Vars["HTTPS_PROXY"].Source, "in a shell on the node, standing in for /etc/environment") || !strings.Contains(k.Unsure, "EnvironmentFile=") {
			t.Errorf("kubelet = %+v", k)
		}
	})
	t.Run("env on a workstation", func(t *testing.T) {
		r, p := proxyOf(t, "```\n"+proxyX509+"\n```\n```\ndana@laptop:~/eks$ env | grep -i proxy\n"+etcEnvironment+"```\n")
		if len(p) != 0 {
			t.Errorf("a workstation's env read as the node's: %+v", p)
		}
		if s := r.Segments[len(r.Segments)-1]; !strings.Contains(s.Label(), "not the node's") {
			t.Errorf("segment %q does not say whose environment it is", s.Label())
		}
	})
	t.Run("apiclient settings.network", func(t *testing.T) {
		_, p := proxyOf(t, "```\n[ssm-user@control]$ apiclient get settings.network\n{\"settings\": {\"network\": {\"https-proxy\": \"http://proxy.corp.example:3128\", \"no-proxy\": [\"localhost\", \".internal\"]}}}\n```\n```\n"+proxyX509+"\n```\n")
		np := p["kubelet"].Vars["NO_PROXY"]
		if !strings.HasSuffix(np.Value, ",.eks.amazonaws.com") || !strings.Contains(np.Source, "is not in the paste: .eks.amazonaws.com stands for it") || strings.Count(np.Source, "stands for it") != 1 {
			t.Errorf("NO_PROXY = %+v", np)
		}
	})
}

// TestEnvCommentIsNoPrompt: "# env …" in a script is a comment, not a root prompt running env.
func TestEnvCommentIsNoPrompt(t *testing.T) {
	for _, l := range []string{"# env vars for the proxy", "# env settings below"} {
		if got := splitPrompts([]line{{1, "#!/bin/bash"}, {2, l}, {3, "export HTTPS_PROXY=http://p:3128"}}); len(got) != 1 || got[0].command != "" {
			t.Errorf("%q split the script: %+v", l, got)
		}
	}
	if got := splitPrompts([]line{{1, "[root@ip-10-0-1-2 ~]# env | grep -i proxy"}, {2, "HTTPS_PROXY=http://p:3128"}}); len(got) != 1 || got[0].command != "env | grep -i proxy" || got[0].host != hostNode {
		t.Errorf("env on the node: %+v", got)
	}
}
