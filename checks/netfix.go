package checks

import (
	"fmt"
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks/netpath"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// nOf returns "1 peer" or "3 peers".
func nOf(n int, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return strconv.Itoa(n) + " " + plural
}

// netFix writes the remediation of a failing network finding from the hops that block it, with
// the resources they name: the ACL rule to add (numbered below the deny), the endpoints to create
// or repair. For the endpoint checks it also names the service and the endpoint in the resource
// and message rather than the route table the flow fell back to.
func netFix(id string, ev *evidence.Evidence, hops []netpath.Hop, flows []string, f *Finding) {
	switch id {
	case netpath.CheckNACL:
		if fix := naclFix(ev, hops); fix != "" {
			f.Remediation = fix
		}
	case netpath.CheckEndpointsMissing:
		endpointsMissingFix(ev, flows, f)
	case netpath.CheckEndpointPrivateDNS:
		privateDNSFix(ev, flows, f)
	}
}

// naclDetailRe parses a blocking NACL hop's detail (netpath.naclCheck).
var naclDetailRe = regexp.MustCompile(`^(\S+) (?:rule (\d+)|the final \* rule .*?\)) denies (\S+) (\d+)(?:-(\d+))? (.*)$`)

var cidrRe = regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}/\d{1,2}\b`)
var subnetIDRe = regexp.MustCompile(`\bsubnet-[0-9a-f]+\b`)

// naclFix proposes one allow entry per blocked direction and port range, numbered below the
// rule that denies it (the first matching rule wins, so an allow must come first) and using a
// number the ACL does not use yet in that direction.
func naclFix(ev *evidence.Evidence, hops []netpath.Hop) string {
	type entry struct {
		acl          string
		egress       bool
		proto        string
		from, to     int
		deny         int // 0 for the final * rule
		cidrs        map[string]bool
		destinations []string
	}
	var order []string
	entries := map[string]*entry{}
	for _, h := range hops {
		m := naclDetailRe.FindStringSubmatch(h.Detail)
		if m == nil {
			continue
		}
		deny, _ := strconv.Atoi(m[2])
		from, _ := strconv.Atoi(m[4])
		to := from
		if m[5] != "" {
			to, _ = strconv.Atoi(m[5])
		}
		e := &entry{acl: m[1], egress: h.Name == "nacl egress", proto: m[3], from: from, to: to, deny: deny, cidrs: map[string]bool{}}
		key := fmt.Sprintf("%s|%v|%s|%d|%d|%d", e.acl, e.egress, e.proto, from, to, deny)
		if old, ok := entries[key]; ok {
			e = old
		} else {
			entries[key] = e
			order = append(order, key)
		}
		// the peer: an explicit CIDR, else the CIDR of the subnet named
		peer := m[6]
		if i := strings.LastIndex(peer, " from "); i >= 0 {
			peer = peer[i+len(" from "):]
		} else if i := strings.LastIndex(peer, " to "); i >= 0 {
			peer = peer[i+len(" to "):]
		}
		switch c := cidrRe.FindString(peer); {
		case c != "":
			e.cidrs[c] = true
		case subnetIDRe.MatchString(peer):
			if sn := findSubnet(ev, subnetIDRe.FindString(peer)); sn != nil && sn.CIDR != "" {
				e.cidrs[sn.CIDR] = true
			} else {
				e.cidrs["0.0.0.0/0"] = true
			}
		default:
			e.cidrs["0.0.0.0/0"] = true
		}
	}
	if len(order) == 0 {
		return ""
	}
	taken := map[string]map[int]bool{} // acl|direction → rule numbers in use or proposed
	for _, a := range ev.NetworkACLs {
		for _, r := range a.Entries {
			k := fmt.Sprintf("%s|%v", a.ID, r.Egress)
			if taken[k] == nil {
				taken[k] = map[int]bool{}
			}
			taken[k][r.RuleNumber] = true
		}
	}
	var cmds []string
	for _, k := range order {
		e := entries[k]
		tk := fmt.Sprintf("%s|%v", e.acl, e.egress)
		if taken[tk] == nil {
			taken[tk] = map[int]bool{}
		}
		n := freeRuleBelow(taken[tk], e.deny)
		if n == 0 {
			return "" // no free number below the deny: the generic advice stands
		}
		taken[tk][n] = true
		cidr := peerCIDR(ev, e.cidrs)
		proto := map[string]string{"tcp": "6", "udp": "17"}[e.proto]
		if proto == "" {
			proto = "-1"
		}
		dir := "--ingress"
		if e.egress {
			dir = "--egress"
		}
		denyText := "the final * rule"
		if e.deny > 0 {
			denyText = fmt.Sprintf("deny rule %d", e.deny)
		}
		cmds = append(cmds, fmt.Sprintf("aws ec2 create-network-acl-entry --network-acl-id %s %s --rule-number %d --protocol %s --port-range From=%d,To=%d --cidr-block %s --rule-action allow (before %s)",
			e.acl, dir, n, proto, e.from, e.to, cidr, denyText))
	}
	return "Add an allow rule numbered below the deny (the lowest-numbered matching rule wins): " + strings.Join(cmds, "; ") + "."
}

// freeRuleBelow returns the highest rule number below deny that is not taken (deny 0 = the
// final * rule: the first free multiple of 10 above the numbered rules), or 0 when none is free.
func freeRuleBelow(taken map[int]bool, deny int) int {
	if deny == 0 {
		max := 0
		for n := range taken {
			if n > max && n < 32767 {
				max = n
			}
		}
		for n := (max/10 + 1) * 10; n <= 32766; n += 10 {
			if !taken[n] {
				return n
			}
		}
		return 0
	}
	for n := deny - 1; n >= 1; n-- {
		if !taken[n] {
			return n
		}
	}
	return 0
}

// peerCIDR returns the one CIDR of cidrs, else a CIDR of the node's VPC holding them all, else
// 0.0.0.0/0.
func peerCIDR(ev *evidence.Evidence, cidrs map[string]bool) string {
	if len(cidrs) == 1 {
		for c := range cidrs {
			return c
		}
	}
	if ev.Instance == nil || cidrs["0.0.0.0/0"] {
		return "0.0.0.0/0"
	}
	for _, v := range ev.VPCs {
		if v.ID != ev.Instance.VpcID {
			continue
		}
		for _, vc := range v.CIDRs {
			outer, err := netip.ParsePrefix(vc)
			if err != nil {
				continue
			}
			all := true
			for c := range cidrs {
				p, err := netip.ParsePrefix(c)
				all = all && err == nil && outer.Bits() <= p.Bits() && outer.Contains(p.Addr())
			}
			if all {
				return vc
			}
		}
	}
	return "0.0.0.0/0"
}

func findSubnet(ev *evidence.Evidence, id string) *evidence.Subnet {
	for i := range ev.Subnets {
		if ev.Subnets[i].ID == id {
			return &ev.Subnets[i]
		}
	}
	return nil
}

// awsServices keeps the flows that are AWS services (not api-server or kubelet).
func awsServices(flows []string) []string {
	var out []string
	for _, f := range flows {
		if f != "api-server" && f != "kubelet" {
			out = append(out, f)
		}
	}
	return out
}

// endpointsMissingFix names the missing endpoint services (com.amazonaws.<region>.<svc>) and
// the create-vpc-endpoint command for each, in the node's VPC, reusing the subnets and security
// groups of the VPC's existing interface endpoints when there are some.
func endpointsMissingFix(ev *evidence.Evidence, flows []string, f *Finding) {
	svcs := awsServices(flows)
	region := ev.Target.Region
	if len(svcs) == 0 || region == "" || ev.Instance == nil {
		return
	}
	vpc := ev.Instance.VpcID
	subnets, sgs := []string{ev.Instance.SubnetID}, ev.Instance.SecurityGroupIDs
	for _, e := range ev.VPCEndpoints {
		if e.Type == "Interface" && e.VpcID == vpc && len(e.SubnetIDs) > 0 {
			subnets, sgs = e.SubnetIDs, e.SecurityGroupIDs
			break
		}
	}
	var names, cmds []string
	for _, s := range svcs {
		name := netpath.ServiceName(region, s)
		names = append(names, name)
		if s == "s3" {
			rt := subnetRouteTable(ev, ev.Instance.SubnetID, vpc)
			cmds = append(cmds, fmt.Sprintf("aws ec2 create-vpc-endpoint --vpc-id %s --vpc-endpoint-type Gateway --service-name %s --route-table-ids %s", vpc, name, orDefault(rt, "RTB")))
			continue
		}
		cmd := fmt.Sprintf("aws ec2 create-vpc-endpoint --vpc-id %s --vpc-endpoint-type Interface --service-name %s --subnet-ids %s", vpc, name, strings.Join(subnets, " "))
		if len(sgs) > 0 {
			cmd += " --security-group-ids " + strings.Join(sgs, " ")
		}
		cmds = append(cmds, cmd+" --private-dns-enabled")
	}
	f.Resource = strings.Join(names, ",")
	f.Message = fmt.Sprintf("no VPC endpoint for %s in %s, and the node has no other way out: %s", strings.Join(names, ", "), vpc, f.Message)
	f.Remediation = "Create the missing endpoints (their security groups must admit TCP 443 from the node): " + strings.Join(cmds, "; ") + "."
}

// privateDNSFix names the interface endpoints with private DNS disabled that the blocked flows
// would use, and the command enabling it on each.
func privateDNSFix(ev *evidence.Evidence, flows []string, f *Finding) {
	region := ev.Target.Region
	var ids, descs, cmds []string
	for _, s := range awsServices(flows) {
		name := netpath.ServiceName(region, s)
		for _, e := range ev.VPCEndpoints {
			if e.Type == "Interface" && !e.PrivateDNSEnabled && e.ServiceName == name && (ev.Instance == nil || e.VpcID == ev.Instance.VpcID) {
				ids = append(ids, e.ID)
				descs = append(descs, e.ID+" ("+name+")")
				cmds = append(cmds, "aws ec2 modify-vpc-endpoint --vpc-endpoint-id "+e.ID+" --private-dns-enabled")
			}
		}
	}
	if len(ids) == 0 {
		return
	}
	sort.Strings(ids)
	f.Resource = strings.Join(ids, ",")
	f.Message = fmt.Sprintf("interface endpoint %s has private DNS disabled, so the node resolves the public service and cannot reach it: %s", strings.Join(descs, ", "), f.Message)
	f.Remediation = strings.Join(cmds, "; ") + " (the VPC needs enableDnsSupport and enableDnsHostnames)."
}

// containsHop reports whether hs holds a hop with h's name, resource and detail.
func containsHop(hs []netpath.Hop, h netpath.Hop) bool {
	for _, x := range hs {
		if x.Name == h.Name && x.Resource == h.Resource && x.Detail == h.Detail {
			return true
		}
	}
	return false
}
