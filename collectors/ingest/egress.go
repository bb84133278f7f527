package ingest

import (
	"fmt"
	"net/netip"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// reEchoService is an address echo service: a web service that answers with the public address
// the request came from (checkip.amazonaws.com, ifconfig.me, api.ipify.org, icanhazip.com,
// ipinfo.io/ip, ident.me, ipecho.net/plain, checkip.dyndns.org). Asked from the node, its
// answer is the address the node's traffic to the internet leaves from: the NAT gateway's
// Elastic IP, or the instance's own public address.
var reEchoService = regexp.MustCompile(`(?i)^(?:https?://)?(?:checkip\.amazonaws\.com|(?:www\.)?ifconfig\.(?:me|co)|api6?4?\.ipify\.org|(?:ipv4\.)?icanhazip\.com|ipinfo\.io/ip|(?:v4\.)?ident\.me|ipecho\.net/plain|checkip\.dyndns\.(?:org|com))/?$`)

// reEchoAnswer is an echo service's answer: the address alone, or checkip.dyndns.org's HTML
// ("Current IP Address: 35.74.148.20").
var reEchoAnswer = regexp.MustCompile(`^\s*(?:<html>.*Current IP Address:\s*)?([0-9a-fA-F:.]+)\s*(?:</body></html>)?\s*$`)

// echoServiceCommand reports whether command (a curl or wget typed at a prompt) asks an address
// echo service (reEchoService) for the caller's address and prints only the answer: `curl -s
// https://checkip.amazonaws.com`, `wget -qO- ifconfig.me`. A verbose curl (-v) prints more, and is
// read only when its answer is the one line the segment holds.
func echoServiceCommand(command string) bool {
	f, ok := parseCommandLine(command)
	if !ok || len(f.Stmts) != 1 {
		return false
	}
	stages := pipeStages(f.Stmts[0])
	if len(stages) == 0 {
		return false
	}
	for i, st := range stages {
		if _, redirected := stdoutRedirect(st); redirected {
			return false
		}
		if i > 0 {
			return false // piped into another program: its output is shown
		}
	}
	call := stages[0].Cmd.(*syntax.CallExpr)
	name, at := callName(call)
	if name != "curl" && name != "wget" {
		return false
	}
	for _, w := range call.Args[at+1:] {
		if reEchoService.MatchString(strings.Trim(command[w.Pos().Offset():w.End().Offset()], `'"`)) {
			return true
		}
	}
	return false
}

// egress reads the node's public egress address from an address echo service's answer printed
// under a command typed in a shell on the node (echoServiceCommand): the segment's one
// non-blank line is a public address. An answer printed on a workstation, or where no prompt
// names the host, is the poster's address, not the node's: it is not read, and the segment
// says so. The addresses become the node logs' Egress when the paste holds node logs.
func (rd *reader) egress(segs []Segment) {
	var seen []evidence.ObservedAddress
	var read []*Segment
	for i := range segs {
		s := &segs[i]
		if s.shell == "" || !echoServiceCommand(s.shell) {
			continue
		}
		var answer string
		n := 0
		for _, l := range strings.Split(string(s.Text), "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			n++
			if m := reEchoAnswer.FindStringSubmatch(l); m != nil {
				answer = m[1]
			}
		}
		addr, err := netip.ParseAddr(answer)
		if n != 1 || err != nil || !addr.IsGlobalUnicast() || addr.IsPrivate() || netip.MustParsePrefix("100.64.0.0/10").Contains(addr) {
			continue
		}
		if notNodeShell(s, "the public address", "egress address") {
			continue
		}
		seen = append(seen, evidence.ObservedAddress{Addr: addr.String(), Source: fmt.Sprintf("paste:%s:%d (`%s` on the node)", rd.name, s.First, s.shell)})
		read = append(read, s)
	}
	if len(seen) == 0 || rd.ev.NodeLogs == nil || len(rd.ev.NodeLogs.Egress) > 0 {
		return
	}
	for _, s := range read {
		s.Type, s.Detail = TypeEgressAddress, "as "+echoHost(s.shell)+" saw a request typed on the node"
	}
	logs := *rd.ev.NodeLogs
	logs.Egress = seen
	rd.ev.NodeLogs = &logs
}

// echoHost returns the echo service a command asks (its first word reEchoService matches).
func echoHost(command string) string {
	for _, w := range strings.Fields(command) {
		if w = strings.Trim(w, `'"`); reEchoService.MatchString(w) {
			return w
		}
	}
	return "an address echo service"
}

// notNodeShell reports whether s was printed by a shell that is not the node's (a workstation's
// prompt, or no prompt naming the host) and, if so, says in its Detail that what (its subject:
// "the public address") is not read as the node's as (its reading: "egress address").
func notNodeShell(s *Segment, what, as string) bool {
	if s.shellHost == hostNode {
		return false
	}
	where := "where no prompt names the host"
	if s.shellHost == hostWorkstation {
		where = "on a workstation (its prompt names no node)"
	}
	s.Detail = strings.TrimSpace(s.Detail + "; " + what + " of a shell " + where + ", not the node's: not read as the node's " + as)
	return true
}
