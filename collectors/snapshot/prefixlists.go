package snapshot

import (
	"path"
	"slices"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// Managed prefix list files (docs/snapshot-format.md): `aws ec2 describe-managed-prefix-lists
// --prefix-list-ids PL...` for the lists the node's security group rules name, and `aws ec2
// get-managed-prefix-list-entries --prefix-list-id PL` once per list, at
// ec2/get-managed-prefix-list-entries/<pl-id>.json (its output does not name the list).
const (
	prefixListsPath      = "ec2/describe-managed-prefix-lists.json"
	prefixListEntriesDir = "ec2/get-managed-prefix-list-entries"
)

// PrefixListEntriesPath is the snapshot path of the GetManagedPrefixListEntries output of list id.
func PrefixListEntriesPath(id string) string { return prefixListEntriesDir + "/" + id + ".json" }

// DescribeManagedPrefixListsOutput is the part of `aws ec2 describe-managed-prefix-lists` output
// read here (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeManagedPrefixLists.html).
type DescribeManagedPrefixListsOutput struct {
	PrefixLists []struct {
		PrefixListID   string `json:"PrefixListId"`
		PrefixListName string `json:"PrefixListName"`
		OwnerID        string `json:"OwnerId"`
		AddressFamily  string `json:"AddressFamily"`
	} `json:"PrefixLists"`
}

// GetManagedPrefixListEntriesOutput is `aws ec2 get-managed-prefix-list-entries` output
// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_GetManagedPrefixListEntries.html):
// the entries' CIDRs; it carries no list ID.
type GetManagedPrefixListEntriesOutput struct {
	Entries []struct {
		Cidr string `json:"Cidr"`
	} `json:"Entries"`
}

func init() {
	RegisterProvider(prefixLists, evidence.KindPrefixLists)
}

// prefixLists reads the described lists and every entries file into evidence.PrefixLists: the
// kind is collected when either was read; a list's entries file that is damaged or denied keeps
// that reason (EntriesGap).
func prefixLists(s *Snapshot, ev *evidence.Evidence) {
	var lists evidence.PrefixLists
	var read []string
	ok, _, reason := Decode(s, prefixListsPath, func(o *DescribeManagedPrefixListsOutput) {
		for _, p := range o.PrefixLists {
			if p.PrefixListID == "" || lists.ByID(p.PrefixListID) != nil {
				continue
			}
			lists = append(lists, evidence.PrefixList{ID: p.PrefixListID, Name: p.PrefixListName, OwnerID: p.OwnerID,
				AddressFamily: p.AddressFamily, Described: true, Source: s.Src(prefixListsPath)})
		}
	})
	if ok {
		read = append(read, s.Src(prefixListsPath))
	}
	for _, f := range s.dirFiles(prefixListEntriesDir) {
		id := strings.TrimSuffix(path.Base(f), ".json")
		var cidrs []string
		fok, _, why := Decode(s, f, func(o *GetManagedPrefixListEntriesOutput) {
			for _, e := range o.Entries {
				if e.Cidr != "" {
					cidrs = append(cidrs, e.Cidr)
				}
			}
		})
		l := lists.ByID(id)
		if l == nil {
			lists = append(lists, evidence.PrefixList{ID: id})
			l = &lists[len(lists)-1]
		}
		if !fok {
			l.EntriesGap = why
			continue
		}
		l.Entries, l.EntriesKnown, l.Source = cidrs, true, s.Src(f)
		read = append(read, s.Src(f))
	}
	if len(read) == 0 {
		if ev.Have(evidence.KindSecurityGroups) && len(namedPrefixLists(ev)) == 0 {
			// the groups name no list: there is nothing to read, and nothing missing
			evidence.Put(ev, evidence.KindPrefixLists, evidence.PrefixLists{})
			ev.Mark(evidence.KindPrefixLists, ev.Source(evidence.KindSecurityGroups))
			return
		}
		ev.AddGap(evidence.KindPrefixLists, reason)
		return
	}
	evidence.Put(ev, evidence.KindPrefixLists, lists)
	ev.Mark(evidence.KindPrefixLists, read[0])
}

// namedPrefixLists returns the prefix lists the rules of the instance's security groups name (of
// every group in the evidence when there is no instance, or when one of its groups is not there).
func namedPrefixLists(ev *evidence.Evidence) []string {
	groups := map[string]bool{}
	all := ev.Instance == nil
	if !all {
		for _, id := range ev.Instance.SecurityGroupIDs {
			groups[id] = true
		}
	}
	found := 0
	var out []string
	for _, g := range ev.SecurityGroups {
		if !all && !groups[g.ID] {
			continue
		}
		found++
		for _, r := range append(append([]evidence.SGRule{}, g.Ingress...), g.Egress...) {
			for _, pl := range r.PrefixListIDs {
				if !slices.Contains(out, pl) {
					out = append(out, pl)
				}
			}
		}
	}
	if !all && found < len(groups) {
		return namedPrefixLists(&evidence.Evidence{SecurityGroups: ev.SecurityGroups})
	}
	return out
}
