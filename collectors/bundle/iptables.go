package bundle

import (
	"bufio"
	"io"
	"net/netip"
	"regexp"
	"strings"
)

// kubeDNSRule matches the rule kube-proxy writes for the DNS port of Service kube-system/kube-dns
// in its KUBE-SERVICES chain, in the two forms node log bundles hold: `iptables -nvL -t nat`
// (the destination column before the comment: `0.0.0.0/0  172.20.0.10  /* kube-system/kube-dns:dns
// cluster IP */`) and iptables-save (`-d 172.20.0.10/32 … --comment "kube-system/kube-dns:dns
// cluster IP"`). kube-proxy's comment is "NAMESPACE/NAME:PORT cluster IP"
// (kubernetes pkg/proxy/iptables/proxier.go, svcPortNameString + " cluster IP").
var kubeDNSRule = regexp.MustCompile(`(?:\s(\S+)\s+/\* kube-system/kube-dns:dns(?:-tcp)? cluster IP \*/|-d (\S+?)(?:/\d+)? .*--comment "?kube-system/kube-dns:dns(?:-tcp)? cluster IP)`)

// iptablesKubeDNS reads an iptables nat listing or dump line by line (never held whole) and
// returns the kube-dns ClusterIP its first kube-dns rule names and that rule's line number; ""
// when none does. Lines longer than 64 KiB are skipped. Errors are the reader's.
func iptablesKubeDNS(r io.Reader) (ip string, line int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	n := 0
	for {
		l, rerr := br.ReadSlice('\n')
		if rerr == bufio.ErrBufferFull {
			for rerr == bufio.ErrBufferFull {
				_, rerr = br.ReadSlice('\n')
			}
			n++
			continue
		}
		n++
		if len(l) > 0 && strings.Contains(string(l), "kube-system/kube-dns:dns") {
			if m := kubeDNSRule.FindStringSubmatch(string(l)); m != nil {
				cand := strings.TrimSuffix(m[1]+m[2], "/32")
				cand = strings.TrimSuffix(cand, "/128")
				if a, perr := netip.ParseAddr(cand); perr == nil && !a.IsUnspecified() {
					// drain the rest so the member counts as read
					_, cerr := io.Copy(io.Discard, br)
					return a.String(), n, cerr
				}
			}
		}
		if rerr == io.EOF {
			return "", 0, nil
		}
		if rerr != nil {
			return "", 0, rerr
		}
	}
}
