package ingest

import (
	"strings"
	"testing"
)

// TestPasteKeyNeedsItsValueShape: a JSON object is AWS CLI output only when the key that names the
// output holds what that output holds there — an object or a list. The snapshot's own manifest.json ({"cluster": "prod", "region": …}) pasted
// above the real describe-cluster was read as describe-cluster, and the real one was then dropped
// as a second copy (red team 11b #12).
func TestPasteKeyNeedsItsValueShape(t *testing.T) {
	manifest := "{\n  \"cluster\": \"prod\",\n  \"region\": \"eu-west-1\",\n  \"instanceIds\": [\"i-0a1b2c3d4e5f60001\"],\n  \"collectedAt\": \"2026-11-24T12:00:00Z\",\n  \"tool\": \"collect-snapshot.sh\"\n}\n"
	cluster := AWSType("eks/describe-cluster.json")
	for name, in := range map[string]string{
		"snapshot manifest":      manifest,
		"cluster as a string":    "{\"cluster\": \"prod\"}\n",
		"Role as an ARN string":  "{\"Role\": \"arn:aws:iam::111122223333:role/node-role\"}\n",
		"nodegroups as a number": "{\"nodegroups\": 3}\n",
	} {
		for _, s := range Segments([]byte(in)) {
			if strings.HasPrefix(string(s.Type), "aws:") {
				t.Errorf("%s: read as %s (%s)", name, s.Type, s.Label())
			}
		}
	}
	if segs := Segments([]byte(manifest)); len(segs) != 1 || !strings.Contains(segs[0].Label(), "manifest") {
		t.Errorf("manifest not named as the snapshot's manifest: %v", segs)
	}
	desc := "{\n  \"cluster\": {\n    \"name\": \"prod\",\n    \"arn\": \"arn:aws:eks:eu-west-1:111122223333:cluster/prod\",\n    \"version\": \"1.31\",\n" +
		"    \"endpoint\": \"https://ABCDEF0123456789.gr7.eu-west-1.eks.amazonaws.com\",\n    \"status\": \"ACTIVE\"\n  }\n}\n"
	paste := "manifest.json:\n```\n" + manifest + "```\n\neks/describe-cluster.json:\n```\n" + desc + "```\n"
	r := Read([]byte(paste), "paste", Options{})
	n := 0
	for _, s := range r.Segments {
		if s.Type == cluster {
			n++
			if s.Problem != "" || !strings.Contains(string(s.Text), "ABCDEF0123456789") {
				t.Errorf("describe-cluster segment: %s, problem %q", s.Label(), s.Problem)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d describe-cluster segments, want the real one: %v", n, types(r.Segments))
	}
}
