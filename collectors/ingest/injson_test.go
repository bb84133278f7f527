package ingest

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTextInsideJSONKeepsItsDetail: an artefact carried whole in a JSON string value
// ({"message": "…"}) is read as that artefact with its own Detail — a kubelet journal stays
// "journal", which picks how its lines are scanned (streamOf) — and its label says it came from
// inside JSON; "(inside JSON)" appended to Detail hid what it was.
func TestTextInsideJSONKeepsItsDetail(t *testing.T) {
	journal := "Nov 12 08:10:14 ip-10-9-3-14.eu-west-3.compute.internal kubelet[1722]: E1112 08:10:14.519611    1722 kubelet_node_status.go:95] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-9-3-14.eu-west-3.compute.internal\"\n" +
		"Nov 12 08:10:21 ip-10-9-3-14.eu-west-3.compute.internal kubelet[1722]: E1112 08:10:21.519611    1722 kubelet_node_status.go:95] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-9-3-14.eu-west-3.compute.internal\"\n"
	b, _ := json.Marshal(map[string]string{"message": journal})
	segs := Segments(append(b, '\n'))
	if len(segs) != 1 || segs[0].Type != TypeLog || segs[0].Detail != "journal" || streamOf(&segs[0]) != "journal" {
		t.Fatalf("segments %+v", segs)
	}
	if l := segs[0].Label(); !strings.Contains(l, "journal") || !strings.Contains(l, "inside JSON") {
		t.Errorf("label %q", l)
	}
}
