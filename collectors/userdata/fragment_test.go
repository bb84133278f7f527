package userdata

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestPartsFragment: parts pasted from their boundary line down are read under the header they
// were cut from; a part whose headers run into its body is flagged for nodeadm, as a warning
// because the parts not shown decide which parser reads it.
func TestPartsFragment(t *testing.T) {
	frag := "--//\nContent-Type: text/x-shellscript; charset=\"us-ascii\"\n#!/bin/bash\nset -ex\n\n--//--\n"
	cfg := DecodePasted([]byte(frag))
	if !cfg.Fragment {
		t.Fatalf("not read as a fragment: %+v", cfg)
	}
	var found bool
	for _, i := range cfg.Issues {
		if strings.Contains(i.Message, "not followed by a blank line") {
			found = true
			if i.Level != evidence.IssueWarning || i.Line != 3 {
				t.Errorf("issue %+v, want a warning at line 3", i)
			}
		}
	}
	if !found {
		t.Errorf("no issue for the missing blank line: %+v", cfg.Issues)
	}
	for _, notFrag := range []string{"---\napiVersion: node.eks.aws/v1alpha1\n", "--BOUNDARY\n#!/bin/bash\n", "-- comment\nContent-Type: text/plain\n"} {
		if PartsFragment([]byte(notFrag)) {
			t.Errorf("%q read as a parts fragment", notFrag)
		}
	}
	if whole := Decode([]byte(frag)); whole.Fragment {
		t.Errorf("user data from EC2 read as a fragment")
	}
}
