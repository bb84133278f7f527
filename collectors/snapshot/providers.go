package snapshot

import (
	"sort"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// A Provider decodes the snapshot files of one evidence kind (or of a few kinds read together)
// into the Evidence, and never judges (docs/design.md, "Adding an AWS evidence kind"). It runs
// for every instance's evidence and for the cluster's (ClusterEvidence; ev.Instance is nil
// there, and a provider of instance-only kinds returns without touching them), reads its files
// with the snapshot's decoders (so damaged files, CLI error text and typed live errors become
// the same gaps and problems as everywhere), and marks its kinds collected (ev.Mark) or records
// their gaps (ev.AddGap).
type Provider func(s *Snapshot, ev *evidence.Evidence)

// Stage orders the providers: every provider of a stage runs after every provider of the
// stages before it, so a provider may read what an earlier stage put in the Evidence. The
// providers of one stage must not depend on each other (they run in registration order).
type Stage int

const (
	// StageInstance describes the target instance (ec2/describe-instances.json).
	StageInstance Stage = iota
	// StageBoot reads what the instance booted with: its user data, launch template version and
	// the bootstrap configuration decoded from them.
	StageBoot
	// StageCluster names the target's cluster (flag, instance tags, user data, manifest,
	// describe-cluster) and describes it.
	StageCluster
	// StageResources reads the AWS resources and Kubernetes objects around the target: each
	// needs at most the instance and the cluster.
	StageResources
	// StageDerived reads kinds that take other providers' evidence as input (the control-plane
	// logs keep only lines naming the node roles found earlier). RegisterProvider's stage.
	StageDerived
)

// registration is one registered provider with its stage and the kinds it produces.
type registration struct {
	stage Stage
	p     Provider
	kinds []evidence.Kind
}

// providers are the registered providers, sorted by stage (stable: registration order within one).
var providers []registration

// RegisterProvider adds p at StageDerived (after every built-in provider), producing kinds (the
// kinds it marks collected or records gaps for; TestEveryKindHasAProvider checks the list).
// Call it from an init function of the kind's own file.
func RegisterProvider(p Provider, kinds ...evidence.Kind) {
	RegisterProviderAt(StageDerived, p, kinds...)
}

// RegisterProviderAt adds p at stage, producing kinds. Call it from an init function.
func RegisterProviderAt(stage Stage, p Provider, kinds ...evidence.Kind) {
	providers = append(providers, registration{stage: stage, p: p, kinds: kinds})
	sort.SliceStable(providers, func(i, j int) bool { return providers[i].stage < providers[j].stage })
}

// ProvidedKinds lists the kinds the registered providers produce, each once, in registration order.
func ProvidedKinds() []evidence.Kind {
	var out []evidence.Kind
	seen := map[evidence.Kind]bool{}
	for _, r := range providers {
		for _, k := range r.kinds {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// runProviders runs the registered providers on ev, stage by stage.
func (s *Snapshot) runProviders(ev *evidence.Evidence) {
	for _, r := range providers {
		r.p(s, ev)
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
