package netpath

import (
	"net/netip"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestJudgeList: a list holds a peer when entries contain every peer prefix; an entry covering
// only part of one leaves it unknown; a list of private ranges holds no host on the internet;
// unknown entries judge nothing.
func TestJudgeList(t *testing.T) {
	pfx := func(ss ...string) []netip.Prefix {
		var out []netip.Prefix
		for _, s := range ss {
			out = append(out, netip.MustParsePrefix(s))
		}
		return out
	}
	list := func(known bool, entries ...string) *evidence.PrefixList {
		return &evidence.PrefixList{ID: "pl-1", Name: "corp", Described: true, Entries: entries, EntriesKnown: known}
	}
	for _, tc := range []struct {
		name string
		l    *evidence.PrefixList
		peer []netip.Prefix
		want ListHolding
		text string
	}{
		{"entry holds both subnets", list(true, "192.168.0.0/16", "10.0.0.0/16"), pfx("10.0.1.0/24", "10.0.2.0/24"), ListHolds, "10.0.0.0/16"},
		{"two entries hold one subnet each", list(true, "10.0.1.0/24", "10.0.2.0/24"), pfx("10.0.1.0/24", "10.0.2.0/24"), ListHolds, "10.0.1.0/24, 10.0.2.0/24"},
		{"no entry", list(true, "192.168.0.0/16"), pfx("10.0.1.0/24"), ListHoldsNot, "holds none of these addresses: its entries are 192.168.0.0/16"},
		{"empty list", list(true), pfx("10.0.1.0/24"), ListHoldsNot, "holds none of these addresses: its entries are none"},
		{"part of a subnet", list(true, "10.0.1.0/25"), pfx("10.0.1.0/24"), ListUnknown, ""},
		{"one subnet of two", list(true, "10.0.1.0/24"), pfx("10.0.1.0/24", "10.0.2.0/24"), ListUnknown, ""},
		{"entries unknown", list(false), pfx("10.0.1.0/24"), ListUnknown, ""},
		{"internet, private entries", list(true, "10.0.0.0/8"), pfx("0.0.0.0/0"), ListHoldsNot, "holds no public address: its entries are 10.0.0.0/8"},
		{"internet, a public range", list(true, "52.94.0.0/16"), pfx("0.0.0.0/0"), ListUnknown, ""},
		{"internet, everything", list(true, "0.0.0.0/0"), pfx("0.0.0.0/0"), ListHolds, "0.0.0.0/0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, text := JudgeList(tc.l, tc.peer)
			if got != tc.want || text != tc.text {
				t.Errorf("JudgeList = %v %q, want %v %q", got, text, tc.want, tc.text)
			}
		})
	}
}
