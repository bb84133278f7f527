package ingest

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestPastedPrefixLists: describe-managed-prefix-lists output is read by its PrefixLists key;
// get-managed-prefix-list-entries output, which names no list, is placed by the --prefix-list-id
// of the command line above it, and without one is not read (an input problem naming the option)
// rather than given to a guessed list. Another service's top-level Entries is not taken for it.
func TestPastedPrefixLists(t *testing.T) {
	const describe = "$ aws ec2 describe-managed-prefix-lists --prefix-list-ids pl-0f1e2d3c4b5a69788\n" +
		`{"PrefixLists": [{"PrefixListId": "pl-0f1e2d3c4b5a69788", "AddressFamily": "IPv4", "PrefixListName": "internal-vpc-ranges", "OwnerId": "111122223333"}]}` + "\n\n"
	const entries = `{"Entries": [{"Cidr": "10.0.0.0/16", "Description": "prod VPC"}, {"Cidr": "192.168.0.0/16"}]}` + "\n"
	for _, tc := range []struct {
		name, paste string
		want        evidence.PrefixList
		problem     string
	}{
		{"entries under their command", describe + "$ aws ec2 get-managed-prefix-list-entries --prefix-list-id pl-0f1e2d3c4b5a69788 --region eu-west-1\n" + entries,
			evidence.PrefixList{ID: "pl-0f1e2d3c4b5a69788", Name: "internal-vpc-ranges", OwnerID: "111122223333", AddressFamily: "IPv4", Described: true,
				Entries: []string{"10.0.0.0/16", "192.168.0.0/16"}, EntriesKnown: true}, ""},
		{"entries under a command with opt=value", "$ aws ec2 get-managed-prefix-list-entries --prefix-list-id=pl-0aa\n" + entries,
			evidence.PrefixList{ID: "pl-0aa", Entries: []string{"10.0.0.0/16", "192.168.0.0/16"}, EntriesKnown: true}, ""},
		{"entries without a command", describe + "```\n" + entries + "```\n",
			evidence.PrefixList{ID: "pl-0f1e2d3c4b5a69788", Name: "internal-vpc-ranges", OwnerID: "111122223333", AddressFamily: "IPv4", Described: true},
			"not read: aws ec2 get-managed-prefix-list-entries output does not say which pl-id it is of, and no command line with --prefix-list-id is shown above it"},
		{"entries under a command naming a path", "$ aws ec2 get-managed-prefix-list-entries --prefix-list-id ../../x\n" + entries,
			evidence.PrefixList{}, "no command line with --prefix-list-id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Read([]byte(tc.paste), "paste", Options{})
			var problems []string
			for _, s := range res.Segments {
				if s.Problem != "" {
					problems = append(problems, s.Problem)
				}
			}
			if got := strings.Join(problems, "\n"); (tc.problem == "") != (got == "") || !strings.Contains(got, tc.problem) {
				t.Errorf("problems %q, want %q", got, tc.problem)
			}
			lists := evidence.PrefixListsOf(res.Evidence)
			if tc.want.ID == "" {
				if len(lists) != 0 {
					t.Errorf("lists %+v, want none", lists)
				}
				return
			}
			if len(lists) != 1 {
				t.Fatalf("lists %+v", lists)
			}
			got := lists[0]
			got.Source = ""
			if got.ID != tc.want.ID || got.Name != tc.want.Name || got.OwnerID != tc.want.OwnerID || got.Described != tc.want.Described ||
				got.EntriesKnown != tc.want.EntriesKnown || strings.Join(got.Entries, ",") != strings.Join(tc.want.Entries, ",") {
				t.Errorf("list %+v, want %+v", got, tc.want)
			}
		})
	}
	res := Read([]byte(`{"FailedEntryCount": 0, "Entries": [{"EventId": "11710aed-b79e-4468-a20b-bb3c0c3b4860"}]}`+"\n"), "paste", Options{})
	for _, s := range res.Segments {
		if s.Problem != "" || strings.Contains(s.Label(), "prefix") {
			t.Errorf("EventBridge put-events output read as %s: %s", s.Label(), s.Problem)
		}
	}
}
