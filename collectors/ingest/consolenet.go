package ingest

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"
)

// Copies of the VPC console's route table and network ACL pages: the Details pane as labels and
// values on lines of their own ("Route table ID" / "rtb-…", "Main" / "No", "Explicit subnet
// associations" / "subnet-… / NAME"), then the tabs' tables as tab-separated rows under a header
// line ("Destination	Target	Status	Propagated"; "Rule number	Type	Protocol	Port range
// Source	Allow/Deny", whose last cell the console often puts on a line of its own) after a
// heading that counts them ("Routes (3)", "Inbound rules (5)", "Subnet associations (2)"). A
// page that names its resource (rtb-… / acl-… in its breadcrumb, title or ID label, all alike)
// and whose tables parse whole is read as the describe-route-tables / describe-network-acls
// output that gives the same fields, with the page's lines as origin; any other is left as text.
// A network ACL is read only with both its inbound and outbound rules, and a page that counts
// more associated subnets than it lists is not read: a rule or association not shown is not
// absent.

var (
	reConsoleCrumb   = regexp.MustCompile(`^\s*\S[^>\t]*\s>\s`)
	reRTBCrumb       = regexp.MustCompile(`^\s*VPC\s*>\s*Route tables\s*>\s*(rtb-[0-9a-f]{8,17})\b`)
	reACLCrumb       = regexp.MustCompile(`^\s*VPC\s*>\s*Network ACLs\s*>\s*(acl-[0-9a-f]{8,17})\b`)
	reRTBTitle       = regexp.MustCompile(`^\s*(rtb-[0-9a-f]{8,17})(?:\s*/\s*\S.*)?\s*$`)
	reACLTitle       = regexp.MustCompile(`^\s*(acl-[0-9a-f]{8,17})(?:\s*/\s*\S.*)?\s*$`)
	reConsoleVPC     = regexp.MustCompile(`^\s*(vpc-[0-9a-f]{8,17})(?:\s*[|/]\s*\S.*)?\s*$`)
	reConsoleSubnet  = regexp.MustCompile(`^\s*(subnet-[0-9a-f]{8,17})(?:\s*/\s*\S.*)?\s*$`)
	reConsoleHeading = regexp.MustCompile(`^\s*(Routes|Inbound rules|Outbound rules|Subnet associations|Explicit subnet associations|Subnets without explicit associations|Edge associations|Route propagation|Tags)\s*\((\d+)\)\s*$`)
	reNACLSubnets    = regexp.MustCompile(`^\s*(\d+)\s+Subnets?\s*$`)
	reProtoNumber    = regexp.MustCompile(`\((\d{1,3})\)\s*$`)
	rePortRange      = regexp.MustCompile(`^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$`)
)

// consoleNet finds the route table and network ACL pages copied into the text segments of segs
// (see above) and returns segs with each page read as its own segment, the text above and
// below it kept as it was.
func consoleNet(segs []Segment) []Segment {
	var out []Segment
	for _, s := range segs {
		out = append(out, splitConsoleNet(s)...)
	}
	return out
}

// splitConsoleNet splits one segment around the console pages it holds (consoleNet).
func splitConsoleNet(s Segment) []Segment {
	if (s.Type != TypeLog && s.Type != TypeProse && s.Type != typeUnknownText) || s.value != nil || s.console != nil ||
		s.inJSON || s.decodedFrom != "" || s.textFirst != 0 || s.compacted {
		return []Segment{s}
	}
	texts := strings.Split(strings.TrimSuffix(string(s.Text), "\n"), "\n")
	if len(texts) != s.Last-s.First+1 || !strings.Contains(string(s.Text), "\t") {
		return []Segment{s} // lines not one for one with the input's: no origin to give
	}
	lines := make([]line, len(texts))
	for i, t := range texts {
		lines[i] = line{n: s.First + i, text: strings.TrimRight(t, "\r")}
	}
	var out []Segment
	rest := 0
	for i := 0; i < len(lines); i++ {
		v, path, detail, end, ok := consolePage(lines, rest, i)
		if !ok {
			if end > i {
				i = end - 1 // a page not read whole is not tried again from a later line of it
			}
			continue
		}
		if before := trimBlank(lines[rest:i]); len(before) > 0 {
			b := s
			b.First, b.Last, b.Text = before[0].n, before[len(before)-1].n, joinLines(before)
			out = append(out, b)
		}
		p := seg(AWSType(path), detail, lines[i:end+1])
		p.value = v
		out = append(out, p)
		rest, i = end+1, end
	}
	if out == nil {
		return []Segment{s}
	}
	if after := trimBlank(lines[rest:]); len(after) > 0 {
		a := s
		a.First, a.Last, a.Text = after[0].n, after[len(after)-1].n, joinLines(after)
		out = append(out, a)
	}
	return out
}

// consolePage reads the page that starts at lines[i] (its breadcrumb, or its title or ID label
// when no breadcrumb was copied): the decoded CLI output, its snapshot path, the segment's
// detail and the index of the page's last line read; ok is false when no page starts there or
// it is not read whole (end is then where the page it started stops, i when none started).
// Every ID the page gives from its breadcrumb (or from lines[rest], where
// the text not yet read begins) to the next page's must be the same.
func consolePage(lines []line, rest, i int) (v any, path, detail string, end int, ok bool) {
	t := lines[i].text
	rtb := reRTBCrumb.FindStringSubmatch(t)
	acl := reACLCrumb.FindStringSubmatch(t)
	if rtb == nil && acl == nil {
		switch {
		case strings.TrimSpace(t) == "Route table ID" && i+1 < len(lines):
			rtb = reRTBTitle.FindStringSubmatch(lines[i+1].text)
		case strings.TrimSpace(t) == "Network ACL ID" && i+1 < len(lines):
			acl = reACLTitle.FindStringSubmatch(lines[i+1].text)
		default:
			rtb, acl = reRTBTitle.FindStringSubmatch(t), reACLTitle.FindStringSubmatch(t)
		}
	}
	if rtb == nil && acl == nil {
		return nil, "", "", i, false
	}
	// the page runs to the next page's breadcrumb
	stop := len(lines)
	for j := i + 1; j < len(lines); j++ {
		if reConsoleCrumb.MatchString(lines[j].text) && !strings.Contains(lines[j].text, "\t") {
			stop = j
			break
		}
	}
	from := i
	for from > rest && !reConsoleCrumb.MatchString(lines[from].text) {
		from--
	}
	switch {
	case rtb != nil:
		if !pageIDs(lines[from:stop], rtb[1], "Route table ID", reRTBCrumb, reRTBTitle) {
			return nil, "", "", stop, false
		}
		v, end, ok = routeTablePage(lines[i:stop], rtb[1])
		path, detail = "ec2/describe-route-tables.json", "route table "+rtb[1]+" copied from the VPC console (read as aws ec2 describe-route-tables output)"
	case acl != nil:
		if !pageIDs(lines[from:stop], acl[1], "Network ACL ID", reACLCrumb, reACLTitle) {
			return nil, "", "", stop, false
		}
		v, end, ok = naclPage(lines[i:stop], acl[1])
		path, detail = "ec2/describe-network-acls.json", "network ACL "+acl[1]+" copied from the VPC console (read as aws ec2 describe-network-acls output)"
	}
	if !ok {
		return nil, "", "", stop, false
	}
	return v, path, detail, i + end, true
}

// consoleCells splits a tab-separated row into its trimmed cells.
func consoleCells(t string) []string {
	c := strings.Split(t, "\t")
	for i := range c {
		c[i] = strings.TrimSpace(c[i])
	}
	return c
}

// consoleTable reads the rows under the header at page[h]: each non-blank line holding a tab up
// to a blank line or a line without one, with width cells (trailing empty cells may be cut);
// a row whose last cell is empty takes it from the next line when that line is one of
// lastOnOwn (the console's "Allow"/"Deny"). It returns the rows and the index of the last line
// read; ok is false when a row has another number of cells.
func consoleTable(page []line, h, width int, lastOnOwn ...string) (rows [][]string, last int, ok bool) {
	last = h
	for j := h + 1; j < len(page); j++ {
		t := page[j].text
		if strings.TrimSpace(t) == "" || !strings.Contains(t, "\t") {
			break
		}
		c := consoleCells(t)
		for len(c) > width && c[len(c)-1] == "" {
			c = c[:len(c)-1]
		}
		if len(c) == width-1 || (len(c) == width && c[width-1] == "") {
			if len(lastOnOwn) > 0 && j+1 < len(page) && contains(lastOnOwn, strings.TrimSpace(page[j+1].text)) {
				c = append(c[:width-1], strings.TrimSpace(page[j+1].text))
				j++
			}
		}
		if len(c) != width {
			return nil, last, false
		}
		rows = append(rows, c)
		last = j
	}
	return rows, last, len(rows) > 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// consoleColumns maps a header line's cell names to their indexes; nil unless every name in
// need is among them.
func consoleColumns(t string, need ...string) map[string]int {
	cols := map[string]int{}
	for i, c := range consoleCells(t) {
		cols[c] = i
	}
	for _, n := range need {
		if _, ok := cols[n]; !ok {
			return nil
		}
	}
	return cols
}

// pageIDs reports whether every rtb-…/acl-… ID the page's breadcrumb, title and ID label give
// is id.
func pageIDs(page []line, id, label string, crumb, title *regexp.Regexp) bool {
	for j, l := range page {
		for _, re := range []*regexp.Regexp{crumb, title} {
			if m := re.FindStringSubmatch(l.text); m != nil && m[1] != id {
				return false
			}
		}
		if strings.TrimSpace(l.text) == label && j+1 < len(page) {
			if m := title.FindStringSubmatch(page[j+1].text); m == nil || m[1] != id {
				return false
			}
		}
	}
	return true
}

// associationTable reads the "Subnet ID" column of the association table under page[j]'s
// heading: the subnet IDs and the index of the last line read; ok is false when the header or
// a row does not parse.
func associationTable(page []line, j int) (subnets []string, last int, ok bool) {
	k := j + 1
	for k < len(page) && strings.TrimSpace(page[k].text) == "" {
		k++
	}
	if k >= len(page) {
		return nil, j, false
	}
	cols := consoleColumns(page[k].text, "Subnet ID")
	if cols == nil {
		return nil, j, false
	}
	rows, last, ok := consoleTable(page, k, len(consoleCells(page[k].text)))
	if !ok {
		return nil, j, false
	}
	for _, r := range rows {
		m := reConsoleSubnet.FindStringSubmatch(r[cols["Subnet ID"]])
		if m == nil {
			return nil, j, false
		}
		subnets = append(subnets, m[1])
	}
	return subnets, last, true
}

// routeTablePage reads a route table's console page (consolePage) as describe-route-tables
// output: its routes (destination, target, Active/Blackhole status), VPC, Main and explicit
// subnet associations.
func routeTablePage(page []line, id string) (v any, end int, ok bool) {
	var routes []any
	var subnets []string
	vpc, main, routesRead, counted := "", false, false, -1
	subnetsCount, listed := -1, false
	for j := 0; j < len(page); j++ {
		t, next := pageLine(page, j)
		if h := reConsoleHeading.FindStringSubmatch(t); h != nil {
			n, _ := strconv.Atoi(h[2])
			switch h[1] {
			case "Routes":
				counted = n
			case "Explicit subnet associations":
				ids, last, ok := associationTable(page, j)
				if n > 0 && (!ok || len(ids) != n) {
					return nil, 0, false
				}
				subnets, listed, subnetsCount = mergeIDs(subnets, ids), true, n
				if ok {
					end, j = max(end, last), last
				}
			}
			continue
		}
		switch {
		case t == "Main" && (next == "Yes" || next == "No"):
			main = next == "Yes"
			j++
		case t == "VPC" && reConsoleVPC.MatchString(next):
			vpc = reConsoleVPC.FindStringSubmatch(next)[1]
			j++
		case t == "Explicit subnet associations":
			k := j + 1
			for ; k < len(page) && reConsoleSubnet.MatchString(page[k].text); k++ {
				subnets = mergeIDs(subnets, []string{reConsoleSubnet.FindStringSubmatch(page[k].text)[1]})
				listed = true
			}
			if k < len(page) && (strings.TrimSpace(page[k].text) == "–" || strings.TrimSpace(page[k].text) == "-") {
				listed = true // none
				k++
			}
			j = k - 1
		case strings.Contains(page[j].text, "\t"):
			cols := consoleColumns(page[j].text, "Destination", "Target", "Status")
			if cols == nil || routesRead {
				continue
			}
			rows, last, ok := consoleTable(page, j, len(consoleCells(page[j].text)))
			if !ok || (counted >= 0 && len(rows) != counted) {
				return nil, 0, false
			}
			for _, r := range rows {
				route, ok := consoleRoute(r[cols["Destination"]], r[cols["Target"]], r[cols["Status"]])
				if !ok {
					return nil, 0, false
				}
				routes = append(routes, route)
			}
			routesRead, end, j = true, max(end, last), last
		}
	}
	if !routesRead || (!listed && !main) || (subnetsCount > 0 && len(subnets) < subnetsCount) {
		// without its associations which subnets the table routes is not known
		return nil, 0, false
	}
	var assoc []any
	if main {
		assoc = append(assoc, map[string]any{"Main": true, "RouteTableId": id})
	}
	for _, sn := range subnets {
		assoc = append(assoc, map[string]any{"Main": false, "SubnetId": sn, "RouteTableId": id})
	}
	rt := map[string]any{"RouteTableId": id, "Routes": routes, "Associations": assoc}
	if vpc != "" {
		rt["VpcId"] = vpc
	}
	return map[string]any{"RouteTables": []any{rt}}, end, true
}

// mergeIDs appends the IDs of add not in ids yet.
func mergeIDs(ids, add []string) []string {
	for _, a := range add {
		if !contains(ids, a) {
			ids = append(ids, a)
		}
	}
	return ids
}

// consoleRoute reads one row of the Routes tab as an EC2 Route: the destination (IPv4 or IPv6
// CIDR, or a prefix list), the target in the member EC2 names by its ID's prefix, and the
// status (Active → active, Blackhole → blackhole).
func consoleRoute(dest, target, status string) (map[string]any, bool) {
	r := map[string]any{}
	switch {
	case strings.HasPrefix(dest, "pl-"):
		r["DestinationPrefixListId"] = dest
	default:
		p, err := netip.ParsePrefix(dest)
		if err != nil {
			return nil, false
		}
		if p.Addr().Is4() {
			r["DestinationCidrBlock"] = dest
		} else {
			r["DestinationIpv6CidrBlock"] = dest
		}
	}
	member := ""
	if target == "local" {
		member = "GatewayId"
	}
	for _, t := range routeTargetMembers {
		if member == "" && strings.HasPrefix(target, t.prefix) {
			member = t.member
		}
	}
	if member == "" {
		return nil, false
	}
	if strings.ContainsAny(target, " \t") {
		return nil, false
	}
	r[member] = target
	switch status {
	case "Active":
		r["State"] = "active"
	case "Blackhole":
		r["State"] = "blackhole"
	default:
		return nil, false
	}
	return r, true
}

// naclPage reads a network ACL's console page (consolePage) as describe-network-acls output:
// its inbound and outbound rules, VPC, Default and subnet associations.
func naclPage(page []line, id string) (v any, end int, ok bool) {
	var entries []any
	var subnets []string
	vpc, def, defSeen := "", false, false
	heading, counted := "", -1
	read := map[string]bool{}
	associated, listed := -1, false
	for j := 0; j < len(page); j++ {
		t, next := pageLine(page, j)
		if h := reConsoleHeading.FindStringSubmatch(t); h != nil {
			heading = h[1]
			counted, _ = strconv.Atoi(h[2])
			if heading == "Subnet associations" {
				ids, last, ok := associationTable(page, j)
				if counted > 0 && (!ok || len(ids) != counted) {
					return nil, 0, false
				}
				subnets, listed = mergeIDs(subnets, ids), true
				if ok {
					end, j = max(end, last), last
				}
			}
			continue
		}
		switch {
		case t == "Default" && (next == "Yes" || next == "No"):
			def, defSeen = next == "Yes", true
			j++
		case (t == "VPC ID" || t == "VPC") && reConsoleVPC.MatchString(next):
			vpc = reConsoleVPC.FindStringSubmatch(next)[1]
			j++
		case t == "Associated with" && reNACLSubnets.MatchString(next):
			associated, _ = strconv.Atoi(reNACLSubnets.FindStringSubmatch(next)[1])
			j++
		case strings.Contains(page[j].text, "\t"):
			cols := consoleColumns(page[j].text, "Rule number", "Protocol", "Port range", "Allow/Deny")
			if cols == nil {
				continue
			}
			egress := false
			peer, in := cols["Source"]
			if d, out := cols["Destination"]; out {
				peer, egress = d, true
			}
			dir := map[bool]string{false: "Inbound rules", true: "Outbound rules"}[egress]
			if in == egress || heading != dir || read[dir] {
				return nil, 0, false // which way the rules go is not said, or said twice
			}
			rows, last, ok := consoleTable(page, j, len(consoleCells(page[j].text)), "Allow", "Deny")
			if !ok || len(rows) != counted {
				return nil, 0, false
			}
			for _, r := range rows {
				e, ok := consoleNACLEntry(r[cols["Rule number"]], r[cols["Protocol"]], r[cols["Port range"]], r[peer], r[cols["Allow/Deny"]], egress)
				if !ok {
					return nil, 0, false
				}
				entries = append(entries, e)
			}
			read[dir], end, j = true, max(end, last), last
		}
	}
	if !read["Inbound rules"] || !read["Outbound rules"] || !defSeen ||
		(associated >= 0 && len(subnets) != associated) || (associated < 0 && !listed) {
		return nil, 0, false
	}
	var assoc []any
	for _, sn := range subnets {
		assoc = append(assoc, map[string]any{"NetworkAclId": id, "SubnetId": sn})
	}
	acl := map[string]any{"NetworkAclId": id, "IsDefault": def, "Entries": entries, "Associations": assoc}
	if vpc != "" {
		acl["VpcId"] = vpc
	}
	return map[string]any{"NetworkAcls": []any{acl}}, end, true
}

// consoleNACLEntry reads one rule row as an EC2 NetworkAclEntry. The console prints the
// default rule's number as "*" (RuleNumber 32767 in the API), protocols as "TCP (6)" or "All"
// (-1), and port ranges as "443", "1024 - 65535", "All" or "N/A".
func consoleNACLEntry(num, proto, ports, cidr, action string, egress bool) (map[string]any, bool) {
	n := 32767
	if num != "*" {
		var err error
		if n, err = strconv.Atoi(num); err != nil || n < 1 || n > 32766 {
			return nil, false
		}
	}
	e := map[string]any{"RuleNumber": float64(n), "Egress": egress}
	switch {
	case proto == "All" || proto == "-1":
		e["Protocol"] = "-1"
		if ports != "All" {
			return nil, false
		}
	case reProtoNumber.MatchString(proto):
		e["Protocol"] = reProtoNumber.FindStringSubmatch(proto)[1]
	default:
		return nil, false
	}
	if e["Protocol"] == "6" || e["Protocol"] == "17" {
		from, to := 0, 65535
		if ports != "All" {
			m := rePortRange.FindStringSubmatch(ports)
			if m == nil {
				return nil, false
			}
			from, _ = strconv.Atoi(m[1])
			to = from
			if m[2] != "" {
				to, _ = strconv.Atoi(m[2])
			}
			if from > to || to > 65535 {
				return nil, false
			}
		}
		e["PortRange"] = map[string]any{"From": float64(from), "To": float64(to)}
	} else if e["Protocol"] != "-1" && ports != "All" && ports != "N/A" {
		return nil, false
	}
	p, err := netip.ParsePrefix(cidr)
	if err != nil {
		return nil, false
	}
	if p.Addr().Is4() {
		e["CidrBlock"] = cidr
	} else {
		e["Ipv6CidrBlock"] = cidr
	}
	switch action {
	case "Allow":
		e["RuleAction"] = "allow"
	case "Deny":
		e["RuleAction"] = "deny"
	default:
		return nil, false
	}
	return e, true
}

// routeTargetMembers names the member of a DescribeRouteTables route that holds a target by its
// ID's prefix (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_Route.html); the
// internet, virtual private and endpoint gateways all go in GatewayId, as "local" does.
var routeTargetMembers = []struct{ prefix, member string }{
	{"igw-", "GatewayId"}, {"vgw-", "GatewayId"}, {"vpce-", "GatewayId"},
	{"nat-", "NatGatewayId"}, {"tgw-", "TransitGatewayId"}, {"pcx-", "VpcPeeringConnectionId"},
	{"eni-", "NetworkInterfaceId"}, {"i-", "InstanceId"}, {"lgw-", "LocalGatewayId"},
	{"cagw-", "CarrierGatewayId"}, {"eigw-", "EgressOnlyInternetGatewayId"}, {"arn:aws", "CoreNetworkArn"},
}

// pageLine returns line j of a console page and the line after it (""), trimmed.
func pageLine(page []line, j int) (t, next string) {
	t = strings.TrimSpace(page[j].text)
	if j+1 < len(page) {
		next = strings.TrimSpace(page[j+1].text)
	}
	return t, next
}
