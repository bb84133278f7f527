package bundle

import (
	"bytes"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestIPTablesKubeDNS: the kube-dns ClusterIP is read from kube-proxy's KUBE-SERVICES rule in
// both listings bundles hold (iptables -nvL -t nat and iptables-save), IPv4 and IPv6; another
// Service, the endpoint (KUBE-SEP) rule and a line too long for the buffer are not taken for it.
func TestIPTablesKubeDNS(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"nvL listing", "Chain KUBE-SERVICES (2 references)\n pkts bytes target     prot opt in     out     source               destination\n" +
			"    0     0 KUBE-SVC-NPX46M4PTMTKRN6Y  tcp  --  *      *       0.0.0.0/0            172.20.0.1           /* default/kubernetes:https cluster IP */ tcp dpt:443\n" +
			"    0     0 KUBE-SEP-78ECF08CA9503F71  all  --  *      *       0.0.0.0/0            0.0.0.0/0            /* kube-system/kube-dns:dns -> 192.168.91.40:53 */ statistic mode random probability 0.5\n" +
			"    0     0 KUBE-SVC-TCOU7JCQXEZGVUNU  udp  --  *      *       0.0.0.0/0            172.20.0.10          /* kube-system/kube-dns:dns cluster IP */ udp dpt:53\n", "172.20.0.10"},
		{"iptables-save", "*nat\n-A KUBE-SERVICES -d 10.100.0.1/32 -p tcp -m comment --comment \"default/kubernetes:https cluster IP\" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y\n" +
			"-A KUBE-SERVICES -d 10.100.0.10/32 -p udp -m comment --comment \"kube-system/kube-dns:dns cluster IP\" -m udp --dport 53 -j KUBE-SVC-TCOU7JCQXEZGVUNU\n", "10.100.0.10"},
		{"ip6tables-save", "-A KUBE-SERVICES -d fd4e:8a21:c3d0::a/128 -p udp -m comment --comment \"kube-system/kube-dns:dns cluster IP\" -m udp --dport 53 -j KUBE-SVC-X\n", "fd4e:8a21:c3d0::a"},
		{"no kube-dns", "-A KUBE-SERVICES -d 10.100.0.1/32 -p tcp -m comment --comment \"default/kubernetes:https cluster IP\" -j KUBE-SVC-N\n", ""},
		{"long line first", strings.Repeat("x", 200<<10) + "\n    0     0 KUBE-SVC-T  udp  --  *  *  0.0.0.0/0   172.20.0.10   /* kube-system/kube-dns:dns cluster IP */ udp dpt:53\n", "172.20.0.10"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, line, err := iptablesKubeDNS(strings.NewReader(c.text))
			if err != nil || got != c.want || c.want != "" && line == 0 {
				t.Errorf("got %q line %d err %v, want %q", got, line, err, c.want)
			}
		})
	}
}

// TestBundleKubeDNSFromIPTables: a logdog bundle's iptables-nat gives the evidence the kube-dns
// Service IP with the member and line as its source; a bundle without it has none.
func TestBundleKubeDNSFromIPTables(t *testing.T) {
	nat := "Chain KUBE-SERVICES (2 references)\n    0     0 KUBE-SVC-T  udp  --  *  *  0.0.0.0/0   172.20.0.10   /* kube-system/kube-dns:dns cluster IP */ udp dpt:53\n"
	data := tarGz(t,
		entry{name: "bottlerocket-logs/journalctl.log", body: unauthorized},
		entry{name: "bottlerocket-logs/settings.json", body: `{"settings":{"kubernetes":{"cluster-name":"prod","cluster-dns-ip":["10.100.0.10"]}}}`},
		entry{name: "bottlerocket-logs/iptables-nat", body: nat})
	b, err := ReadTarGz(bytes.NewReader(data), "bottlerocket-logs.tar.gz", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ev := b.Evidence()
	if !ev.Have(evidence.KindKubeDNS) || ev.KubeDNS == nil || ev.KubeDNS.ClusterIP != "172.20.0.10" || !strings.HasSuffix(ev.Source(evidence.KindKubeDNS), "iptables-nat:2") {
		t.Fatalf("kube-dns %+v from %q", ev.KubeDNS, ev.Source(evidence.KindKubeDNS))
	}
	b, err = ReadTarGz(bytes.NewReader(tarGz(t, entry{name: "bottlerocket-logs/journalctl.log", body: unauthorized})), "bottlerocket-logs.tar.gz", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if ev := b.Evidence(); ev.Have(evidence.KindKubeDNS) {
		t.Errorf("kube-dns from a bundle without iptables-nat: %+v", ev.KubeDNS)
	}
}
