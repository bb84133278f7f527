package snapshot

import "github.com/eksdoctor/eksdoctor/collectors/evidence"

// A Provider decodes the snapshot files of one evidence kind into the Evidence, and never
// judges (docs/design.md, "Adding an AWS evidence kind"). It runs after the built-in readers
// for every instance's evidence and for the cluster's (ClusterEvidence; ev.Instance is nil
// there), reads its files with the snapshot's decoders (so damaged files, CLI error text and
// typed live errors become the same gaps and problems as everywhere), and marks its kind
// collected (ev.Mark) or records its gap (ev.AddGap).
type Provider func(s *Snapshot, ev *evidence.Evidence)

var providers []Provider

// RegisterProvider adds p; call it from an init function of the kind's own file.
func RegisterProvider(p Provider) { providers = append(providers, p) }

// runProviders runs the registered providers on ev.
func (s *Snapshot) runProviders(ev *evidence.Evidence) {
	for _, p := range providers {
		p(s, ev)
	}
}

// Decode decodes every document of the file at snapshot path p into a T (cached per path and
// type; each must not modify it) and reports the outcome: ok when the file was read, notFound
// when it holds the source's answer that the object does not exist, and otherwise the gap
// reason ("missing permission ec2:DescribeVolumes (UnauthorizedOperation)", "not in
// snapshot (…)", a parse error). For providers outside this package.
func Decode[T any](s *Snapshot, p string, each func(*T)) (ok, notFound bool, reason string) {
	res, why := decodeInto(s, p, each)
	return res == readOK, res == readNotFound, why
}

// Src is the origin findings quote for the file at snapshot path p ("snapshot:ec2/x.json",
// "aws:ec2:DescribeVolumes").
func (s *Snapshot) Src(p string) string { return s.src(p) }
