package ingest

import "testing"

// TestBottlerocketTOMLTablesAcrossBlankLines: Bottlerocket user data is written with a blank line
// between its tables; pasted under the poster's words it is one document, not one "node
// configuration" per table of which the first is used (the table holding settings.kubernetes was
// set aside as a second configuration).
func TestBottlerocketTOMLTablesAcrossBlankLines(t *testing.T) {
	paste := "Our user data:\n\n" +
		"[settings.kubernetes.node-labels]\n\"workload\" = \"batch\"\n\n" +
		"[settings.kubernetes]\ncluster-name = \"prod\"\napi-server = \"https://ABC.gr7.eu-west-1.eks.amazonaws.com\"\n\n" +
		"[settings.host-containers.admin]\nenabled = true\n"
	r := Read([]byte(paste), "ticket.txt", Options{})
	var tomls int
	for _, s := range r.Segments {
		if s.Type == TypeUserData {
			tomls++
			if s.First != 3 || s.Last != 11 || s.Problem != "" {
				t.Errorf("user data read as lines %d-%d (%s), want 3-11", s.First, s.Last, s.Problem)
			}
		}
	}
	if tomls != 1 {
		t.Errorf("%d user data parts, want 1: %v", tomls, types(r.Segments))
	}
	if b := r.Evidence.Bootstrap; b == nil || b.ClusterName != "prod" {
		t.Errorf("cluster name not read from the second table: %+v", b)
	}
}
