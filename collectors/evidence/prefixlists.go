package evidence

import "strings"

// KindPrefixLists are the managed prefix lists security group rules name (PrefixListIds): each
// list as ec2 describe-managed-prefix-lists describes it and, when read, its entries (ec2
// get-managed-prefix-list-entries, one file per list; docs/snapshot-format.md).
const KindPrefixLists Kind = "ec2:prefix-lists"

func init() { RegisterKind(KindPrefixLists) }

// PrefixList is one managed prefix list (https://docs.aws.amazon.com/vpc/latest/userguide/managed-prefix-lists.html):
// the fields of DescribeManagedPrefixLists' ManagedPrefixList
// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ManagedPrefixList.html) and the
// CIDRs of GetManagedPrefixListEntries' PrefixListEntry
// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_PrefixListEntry.html).
type PrefixList struct {
	// ID is PrefixListId ("pl-0f1e2d3c4b5a69788").
	ID string
	// Name is PrefixListName: "com.amazonaws.REGION.SERVICE" for the lists AWS manages, the
	// owner's choice for a customer-managed list; empty when the list was not described.
	Name string
	// OwnerID is OwnerId: "AWS" for an AWS-managed list, the account ID for a customer-managed
	// one; empty when the list was not described.
	OwnerID string
	// AddressFamily is "IPv4" or "IPv6"; empty when the list was not described.
	AddressFamily string
	// Described is true when describe-managed-prefix-lists returned the list.
	Described bool
	// Entries are the entries' CIDRs ("10.0.0.0/16"), in the order given; meaningful only when
	// EntriesKnown.
	Entries []string
	// EntriesKnown is true when get-managed-prefix-list-entries of the list was read (an empty
	// list then holds no address).
	EntriesKnown bool
	// EntriesGap says why the entries are not known, when their file was present but damaged or
	// denied; empty otherwise.
	EntriesGap string
	// Source is where the entries (else the description) were read ("snapshot:ec2/…", "paste:…").
	Source string
}

// AWSManaged reports whether the list is AWS-managed by its description: owned by "AWS" or
// named com.amazonaws.* (the lists of AWS services' public ranges,
// https://docs.aws.amazon.com/vpc/latest/userguide/working-with-aws-managed-prefix-lists.html).
// False for a list not described.
func (p PrefixList) AWSManaged() bool {
	return p.Described && (p.OwnerID == "AWS" || strings.HasPrefix(p.Name, "com.amazonaws."))
}

// Label names the list for messages: "pl-… (name)", or the ID alone without a name.
func (p PrefixList) Label() string {
	if p.Name == "" {
		return p.ID
	}
	return p.ID + " (" + p.Name + ")"
}

// PrefixLists is the value of KindPrefixLists (evidence.Get[PrefixLists]): the lists described or
// whose entries were read, by ID order of the files.
type PrefixLists []PrefixList

// ByID returns the list id, or nil.
func (l PrefixLists) ByID(id string) *PrefixList {
	for i := range l {
		if l[i].ID == id {
			return &l[i]
		}
	}
	return nil
}

// PrefixListsOf returns the prefix lists of e (nil when the kind was not collected).
func PrefixListsOf(e *Evidence) PrefixLists {
	if e == nil {
		return nil
	}
	l, _ := Get[PrefixLists](e, KindPrefixLists)
	return l
}
