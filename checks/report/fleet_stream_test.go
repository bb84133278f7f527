package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/eksdoctor/eksdoctor/checks"
)

// TestFleetJSONStreamsTheEncodersBytes: the fleet and scan documents written one instance at
// a time are byte for byte what json.Encoder with two-space indentation writes, for no
// instance, none listed (null), one and several, with characters the encoder escapes.
func TestFleetJSONStreamsTheEncodersBytes(t *testing.T) {
	rep := func(id string) *Report {
		return &Report{Kind: KindReport, Findings: []checks.Finding{{ID: "auth.role-not-mapped", Status: checks.StatusFail, Resource: id, Message: "<mapRoles> & \"quotes\" \u2028"}}}
	}
	fleets := []*Fleet{
		{Cluster: "c", Instances: nil},
		{Cluster: "c", Instances: []*Report{}},
		{Cluster: "c", Instances: []*Report{rep("i-1")}, Joined: []string{"i-9"}},
		{Cluster: "c<&>", Instances: []*Report{rep("i-1"), rep("i-2"), rep("i-3")}},
	}
	want := func(v any) []byte {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	for i, f := range fleets {
		f.Kind = KindFleet
		for _, v := range []any{f, &Scan{Kind: KindScan, Cluster: "c", Fleet: f}, &Scan{Kind: KindScan}} {
			exp := want(v)
			var got bytes.Buffer
			if err := FleetJSONAny(&got, v); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), exp) {
				t.Fatalf("case %d %T:\n%s\nwant\n%s", i, v, got.Bytes(), exp)
			}
		}
	}
}
