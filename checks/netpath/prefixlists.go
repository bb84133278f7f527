package netpath

import (
	"net/netip"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// ListHolding is what a managed prefix list's entries say of a peer.
type ListHolding int

// ListHolding values.
const (
	// ListUnknown: the entries are not known, or an entry covers only part of a peer prefix
	// (which of its addresses the connection goes to is not known).
	ListUnknown ListHolding = iota
	// ListHolds: every peer prefix lies inside an entry.
	ListHolds
	// ListHoldsNot: no entry covers any address of the peer (or, for a peer on the internet, every
	// entry is private address space).
	ListHoldsNot
)

// JudgeList says whether list l holds the peer addresses prefixes (a peer of 0.0.0.0/0 is a host
// on the internet, as in EvalNACLPublic) from its entries, and the message text: for a list that
// holds it, the entries that admit ("10.0.0.0/16"); otherwise why not ("holds none of these
// addresses: its entries are 192.168.0.0/16"). A security group rule naming a prefix list allows
// exactly the list's CIDR entries
// (https://docs.aws.amazon.com/vpc/latest/userguide/managed-prefix-lists.html).
func JudgeList(l *evidence.PrefixList, prefixes []netip.Prefix) (ListHolding, string) {
	if l == nil || !l.EntriesKnown || len(prefixes) == 0 {
		return ListUnknown, ""
	}
	entries := make([]netip.Prefix, 0, len(l.Entries))
	for _, c := range l.Entries {
		if p, err := netip.ParsePrefix(c); err == nil {
			entries = append(entries, p.Masked())
		}
	}
	listed := strings.Join(l.Entries, ", ")
	if len(l.Entries) == 0 {
		listed = "none"
	}
	if len(prefixes) == 1 && prefixes[0] == anyIPv4 {
		for _, e := range entries {
			if e == anyIPv4 {
				return ListHolds, e.String()
			}
		}
		for _, c := range l.Entries {
			if e, err := netip.ParsePrefix(c); err == nil && e.Addr().Is4() && !insidePrivate(c) {
				return ListUnknown, "" // some public ranges: whether the service's address is one is not known
			}
		}
		return ListHoldsNot, "holds no public address: its entries are " + listed
	}
	var admit []string
	all, partial := true, false
	for _, p := range prefixes {
		held := false
		for _, e := range entries {
			switch prefixCoverage(e.String(), p) {
			case covFull:
				if !held && !containsString(admit, e.String()) {
					admit = append(admit, e.String())
				}
				held = true
			case covPartial:
				partial = true
			}
		}
		all = all && held
	}
	switch {
	case all:
		return ListHolds, strings.Join(admit, ", ")
	case partial || len(admit) > 0:
		return ListUnknown, ""
	}
	return ListHoldsNot, "holds none of these addresses: its entries are " + listed
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// JudgeLists fills peer's PrefixLists, ListNames and ListNotes for the lists ids (those the
// rules being judged name) whose entries lists knows: held or not by JudgeList; a list with
// unknown holding gets its name only, so a message can say which list's entries are missing,
// and a note when its entries file was there but could not be read (denied, damaged).
func JudgeLists(lists evidence.PrefixLists, ids []string, peer *Peer) {
	for _, id := range ids {
		l := lists.ByID(id)
		if l == nil {
			continue
		}
		if peer.ListNames == nil {
			peer.ListNames = map[string]string{}
		}
		peer.ListNames[id] = l.Label()
		if _, set := peer.PrefixLists[id]; set {
			continue // already known (a gateway endpoint's list)
		}
		h, text := JudgeList(l, peer.Prefixes)
		if !l.EntriesKnown && l.EntriesGap != "" {
			if peer.ListNotes == nil {
				peer.ListNotes = map[string]string{}
			}
			peer.ListNotes[id] = "the entries of prefix list " + l.Label() + " could not be read: " + l.EntriesGap
		}
		switch h {
		case ListHolds:
			if l.Name != "" {
				peer.ListNames[id] = l.ID + " (" + l.Name + ", entry " + text + ")"
			} else {
				peer.ListNames[id] = l.ID + " (entry " + text + ")"
			}
			setList(peer, id, true)
		case ListHoldsNot:
			setList(peer, id, false)
			if peer.ListNotes == nil {
				peer.ListNotes = map[string]string{}
			}
			peer.ListNotes[id] = "prefix list " + l.Label() + " " + text
		}
	}
}

func setList(peer *Peer, id string, holds bool) {
	if peer.PrefixLists == nil {
		peer.PrefixLists = map[string]bool{}
	}
	peer.PrefixLists[id] = holds
}

// RuleLists returns the prefix lists the rules of groups name (egress or ingress), each once, in
// rule order.
func RuleLists(groups []*evidence.SecurityGroup, egress bool) []string {
	var out []string
	eachRule(groups, egress, func(r evidence.SGRule) {
		for _, pl := range r.PrefixListIDs {
			if !containsString(out, pl) {
				out = append(out, pl)
			}
		}
	})
	return out
}

// eachRule calls fn with every egress (or ingress) rule of groups, in order.
func eachRule(groups []*evidence.SecurityGroup, egress bool, fn func(evidence.SGRule)) {
	for _, g := range groups {
		rules := g.Ingress
		if egress {
			rules = g.Egress
		}
		for _, r := range rules {
			fn(r)
		}
	}
}

// listNotes returns "; "-joined notes of peer for the lists the rules of groups name that could
// carry proto/port, in rule order ("" when none).
func listNotes(groups []*evidence.SecurityGroup, egress bool, proto, port int, peer Peer) string {
	if len(peer.ListNotes) == 0 {
		return ""
	}
	var notes []string
	eachRule(groups, egress, func(r evidence.SGRule) {
		if !ruleProtoPorts(r, proto, port) {
			return
		}
		for _, pl := range r.PrefixListIDs {
			if n := peer.ListNotes[pl]; n != "" && !containsString(notes, n) {
				notes = append(notes, n)
			}
		}
	})
	if len(notes) == 0 {
		return ""
	}
	return "; " + strings.Join(notes, "; ")
}

// listName names list id for messages: with its name (and the admitting entry) when peer knows
// them, else the ID.
func listName(peer Peer, id string) string {
	if n := peer.ListNames[id]; n != "" {
		return n
	}
	return id
}
