package checks

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

// Testimony is what text the node or a tool wrote says about one finding: the log signature
// hits (collectors/logscan) naming it. Any check can be judged from testimony — the kubelet's own
// 401s for runtime.unauthorized, the authenticator's "ARN is not mapped" for auth.role-not-mapped,
// eksctl's "NodeCreationFailure" for nodegroup.health-issues — with the facts the lines carry.

// ConsequencePrefix starts the message of a skipped finding whose failure lines follow from other
// failing findings in the same input (not a cause); the causes' IDs follow, comma-separated.
const ConsequencePrefix = "not a cause: these lines follow from "

// ConsequenceCauses returns the finding IDs a skipped finding's message names as the causes its
// lines follow from; nil when the message is not a consequence message.
func ConsequenceCauses(message string) []string {
	rest, ok := strings.CutPrefix(message, ConsequencePrefix)
	if !ok {
		return nil
	}
	var out []string
	for _, id := range strings.Split(rest, ",") {
		if id = strings.TrimSpace(id); id != "" {
			out = append(out, id)
		}
	}
	return out
}

// testimonyState is the verdict of the logs on one finding.
type testimonyState int

const (
	// testimonyNone: no line names the finding.
	testimonyNone testimonyState = iota
	// testimonyFailing: failure lines that no later healthy-progress line resolves.
	testimonyFailing
	// testimonyResolved: failure lines, then a later healthy-progress line showing they were transient.
	testimonyResolved
	// testimonyConsequence: failure lines that follow from another failing finding.
	testimonyConsequence
	// testimonyEnded: failure lines only in kubelet events that stopped repeating before they
	// were listed (SignatureHit.Ended).
	testimonyEnded
	// testimonyAfterAgent: cloud-init's report that a user-data script failed, after the
	// bootstrap agent's own line that it finished (bootstrap.sh's "complete!"): a later step of
	// the user data failed, not the agent (see agentDoneBefore).
	testimonyAfterAgent
	// testimonyProxied: an SDK's "no credentials" lines only of the kubelet's credential plugin,
	// whose IMDS requests the kubelet's proxy environment sends to the proxy (splitIMDSProxied):
	// they say nothing of the instance profile.
	testimonyProxied
)

// testimony is the logs' account of one finding.
type testimony struct {
	state testimonyState
	// failing are the failure hits (most lines first); normal the healthy-progress hits that
	// resolve them; causes the failing findings they follow from (for testimonyConsequence).
	failing, normal []evidence.SignatureHit
	resolvedBy      *evidence.SignatureHit
	// superseded marks a testimonyResolved launch-time failure whose resolvedBy is a later boot
	// (see launchStageFindings).
	superseded bool
	// ended are the failure hits whose fault is over by their own evidence (testimonyEnded).
	ended  []evidence.SignatureHit
	causes []string
	// note, when set, ends the finding's message: what a clock step after the failure lines
	// showed (judgeClockStep); context are the hits it was judged by, quoted as evidence.
	note    string
	context []evidence.SignatureHit
}

// judgeTestimony reads the logs' account of finding id. Lines whose every ConsequenceOf cause
// is itself failing, or a consequence of failing causes (then the lines follow from those), are
// consequences; failure lines followed by a later
// resolving healthy-progress line are transient.
func judgeTestimony(logs *evidence.NodeLogs, id string) testimony {
	return judgeDepth(logs, id, 0)
}

func judgeDepth(logs *evidence.NodeLogs, id string, depth int) testimony {
	var t testimony
	if logs == nil {
		return t
	}
	t.failing, t.normal = signatureHits(logs, id)
	for i, h := range t.failing {
		if h.Ended == "" {
			h.Ended = periodicEnded(logs, h)
			t.failing[i] = h
		}
		if h.Ended != "" {
			t.ended = append(t.ended, h)
		}
	}
	if len(t.ended) == len(t.failing) && len(t.ended) > 0 {
		t.state = testimonyEnded
		return t
	}
	if len(t.ended) > 0 {
		live := t.failing[:0:0]
		for _, h := range t.failing {
			if h.Ended == "" {
				live = append(live, h)
			}
		}
		t.failing = live
	}
	if len(t.failing) == 0 {
		return t
	}
	if rest, proxied := splitIMDSProxied(logs, id, t.failing); proxied {
		if len(rest) == 0 {
			t.state = testimonyProxied
			return t
		}
		t.failing = rest
	}
	if done := agentDoneBefore(logs, t.failing, t.normal); done != nil {
		t.state, t.resolvedBy = testimonyAfterAgent, done
		return t
	}
	last := t.failing[0].Last
	for _, h := range t.failing {
		if logscan.Later(h.Last, last) {
			last = h.Last
		}
	}
	if id == clockStepFinding {
		if v := judgeClockStep(logs, t.failing); v.step != nil {
			t.note = v.note()
			if v.refused != nil {
				t.state, t.context = testimonyFailing, []evidence.SignatureHit{*v.step, *v.refused}
				return t
			}
			t.state, t.resolvedBy = testimonyResolved, v.step
			if v.by != nil {
				t.resolvedBy = v.by
			}
			return t
		}
	}
	curlBypass := curlBypassesProxy(logs, id, t.failing)
	for i, n := range t.normal {
		if otherNodes(t.failing, n) || n.SameFact != "" {
			continue // another node's progress (two nodes' logs pasted together); keyed progress below
		}
		if curlBypass && n.Component == "eks-log-collector" {
			continue // the collector's curl went directly, the kubelet through its proxy
		}
		if logscan.Later(n.Last, last) || undatedAfterDated(last, n.Last) {
			t.state, t.resolvedBy = testimonyResolved, &t.normal[i]
			return t
		}
	}
	if launchStageFindings[id] {
		if b := bootAfter(logs, t.failing, last); b != nil {
			t.state, t.resolvedBy, t.superseded = testimonyResolved, b, true
			return t
		}
	}
	if n := resolvedPerFact(t.failing, t.normal); n != nil {
		t.state, t.resolvedBy = testimonyResolved, n
		return t
	}
	// consequences: every failing hit names a cause that is failing in the same logs
	if depth < 3 {
		causes := map[string]bool{}
		allConsequence := true
		for _, h := range t.failing {
			found := false
			for _, c := range h.ConsequenceOf {
				if c == id {
					continue
				}
				ct := judgeDepth(logs, c, depth+1)
				if !sameBoot(h, ct.failing) {
					continue
				}
				switch ct.state {
				case testimonyFailing:
					causes[c] = true
					found = true
				case testimonyConsequence:
					// the cause's own lines follow from others (the kubelet's CNI lines from
					// its Unauthorized, that from STS refusing the region): these lines follow
					// from those root causes too
					for _, r := range ct.causes {
						if r != id {
							causes[r] = true
							found = true
						}
					}
				}
			}
			if !found {
				allConsequence = false
			}
		}
		if allConsequence && len(causes) > 0 {
			t.state = testimonyConsequence
			for c := range causes {
				t.causes = append(t.causes, c)
			}
			sort.Strings(t.causes)
			return t
		}
	}
	t.state = testimonyFailing
	return t
}

// launchStageFindings are the findings whose log lines say an instance could not be launched at
// all: no EKS-optimized AMI for the Kubernetes version and AMI family (SSM ParameterNotFound, a
// tool's AMI lookup). Such a failure stops the launch it was part of, before any node exists; a
// node that boots after it (bootAfter) came from a later launch that found an AMI, so the lookup
// is superseded and no longer stops the node the logs show. With no later boot it stands.
var launchStageFindings = map[string]bool{"cluster.ami-family-unsupported": true}

// bootAfter returns a boot milestone (the kernel or cloud-init starting: "boot"; a bootstrap
// agent starting: "bootstrap-started") later than last — by the lines' own times, by their
// year-less clocks, else in the order they were read; a dated boot is also later than an
// undated failure (undatedAfterDated) — and not of another node than the failing lines'. Nil
// when none is.
func bootAfter(logs *evidence.NodeLogs, failing []evidence.SignatureHit, last evidence.LogLine) *evidence.SignatureHit {
	for i := range logs.Hits {
		b := &logs.Hits[i]
		if !b.Normal || (b.Milestone != "boot" && b.Milestone != "bootstrap-started") || otherNodes(failing, *b) {
			continue
		}
		if logscan.Later(b.Last, last) || undatedAfterDated(last, b.Last) {
			return b
		}
	}
	return nil
}

// userDataRunner is the component whose lines report a user-data script as a whole (cloud-init:
// "Failed running …/scripts/part-001", "Failed to run module scripts-user"): the script's first
// failing command may be the bootstrap agent or any step after it.
const userDataRunner = "cloud-init"

// agentDoneBefore returns the bootstrap agent's own "finished" line (a bootstrap-done milestone
// of a component other than the user-data runner that resolves the finding, such as
// bootstrap.sh's "[eks-bootstrap] INFO: complete!", printed after it started the kubelet) when
// every failing hit is the user-data runner's report and starts after that line, with no new
// start of the agent in between: a later user-data step failed, not the agent. Nil otherwise
// (any failure line of the agent itself, or a failure the agent's completion does not precede).
func agentDoneBefore(logs *evidence.NodeLogs, failing, normal []evidence.SignatureHit) *evidence.SignatureHit {
	for _, h := range failing {
		if h.Component != userDataRunner {
			return nil
		}
	}
	for i, n := range normal {
		if n.Milestone != "bootstrap-done" || n.Component == userDataRunner || otherNodes(failing, n) {
			continue
		}
		after := true
		for _, h := range failing {
			if !logscan.Later(h.First, n.Last) {
				after = false
			}
		}
		for _, st := range logs.Hits {
			if st.Milestone == "bootstrap-started" && st.Component == n.Component && logscan.Later(st.Last, n.Last) {
				after = false // the agent started again after it finished: another boot
			}
		}
		if after {
			return &normal[i]
		}
	}
	return nil
}

// resolvedPerFact returns a keyed healthy-progress hit (SignatureHit.SameFact) that resolves
// every failing hit value by value, or nil: each failing hit carries the key fact (all its
// values kept), and each value has a later line of a keyed hit with the same value (images
// compared as sameImage says). A failure that names no value, or a value no later progress line
// names, stands: one image's pull does not show another's went through.
func resolvedPerFact(failing, normal []evidence.SignatureHit) *evidence.SignatureHit {
	var first *evidence.SignatureHit
	for _, f := range failing {
		covered := false
		for i := range normal {
			n := &normal[i]
			if n.SameFact == "" || otherNodes(failing, *n) {
				continue
			}
			key := n.SameFact
			vals := f.Facts[key]
			if len(vals) == 0 || slices.Contains(f.FactsCapped, key) || len(f.FactLast[key]) != len(vals) {
				return nil
			}
			covered = true
			for vi, v := range vals {
				if !laterSameValue(key, v, f.FactLast[key][vi], normal) {
					return nil
				}
			}
			if first == nil {
				first = n
			}
			break
		}
		if !covered {
			return nil
		}
	}
	return first
}

// laterSameValue reports whether a keyed normal hit of fact key carries value v (sameValue) on
// a line later than failed.
func laterSameValue(key, v string, failed evidence.LogLine, normal []evidence.SignatureHit) bool {
	for _, n := range normal {
		if n.SameFact != key {
			continue
		}
		for i, w := range n.Facts[key] {
			if i < len(n.FactLast[key]) && sameValue(key, v, w) {
				if l := n.FactLast[key][i]; logscan.Later(l, failed) || undatedAfterDated(failed, l) {
					return true
				}
			}
		}
	}
	return false
}

// sameValue reports whether two values of fact key name the same thing: images by their
// repository and tag or digest (sameImage), other facts exactly.
func sameValue(key, a, b string) bool {
	if key == "image" {
		return sameImage(a, b)
	}
	return a == b
}

// sameImage reports whether two image references captured from different lines name one image:
// "602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/pause:3.5", "eks/pause:3.5" and the
// registry's manifest path "eks/pause/manifests/3.5" do. Without a registry on one side only
// the repository path and tag are compared.
func sameImage(a, b string) bool {
	ka, kb := imageKey(a), imageKey(b)
	return ka != "" && ka == kb
}

// imageKey is an image reference without its registry host, quotes or escapes, with a
// registry API manifest path read as repository:tag (or @digest); "" when nothing is left.
func imageKey(s string) string {
	s = strings.Trim(s, `\"' `)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "http://")
	if i := strings.IndexByte(s, '/'); i > 0 {
		if host := s[:i]; strings.ContainsAny(host, ".:") || host == "localhost" {
			s = s[i+1:]
		}
	}
	s = strings.TrimPrefix(s, "v2/")
	if repo, ref, ok := strings.Cut(s, "/manifests/"); ok {
		if strings.HasPrefix(ref, "sha256:") {
			return repo + "@" + ref
		}
		return repo + ":" + ref
	}
	return s
}

// undatedAfterDated reports whether the failure's last line carries no time while the healthy
// line that would resolve it does: where the failure stands in time is unknown (a poster's
// retelling of the message, a line copied without its header), so it cannot be shown to come
// after the dated progress — the log's own times judge, not the order the paste put them in.
func undatedAfterDated(failure, normal evidence.LogLine) bool {
	return failure.Time.IsZero() && !normal.Time.IsZero()
}

// sameBootWindow is how far apart (by the lines' own timestamps) a cause's lines and the lines
// that follow from it may be: one node's failed join repeats within hours, while artefacts
// pasted together from different nodes or days are not one another's consequence.
const sameBootWindow = 12 * time.Hour

// sameBoot reports whether the consequence hit h and the cause's failing hits can belong to one
// node's attempt to join: true unless both sides carry timestamps and the nearest lines of the
// two are more than sameBootWindow apart.
func sameBoot(h evidence.SignatureHit, cause []evidence.SignatureHit) bool {
	lo, hi := hitSpan(h)
	if lo.IsZero() {
		return true
	}
	dated := false
	for _, c := range cause {
		clo, chi := hitSpan(c)
		if clo.IsZero() {
			continue
		}
		dated = true
		if !clo.After(hi.Add(sameBootWindow)) && !chi.Before(lo.Add(-sameBootWindow)) {
			return true
		}
	}
	return !dated
}

// hitSpan is the time span of a hit's first and last lines (zero when neither is dated).
func hitSpan(h evidence.SignatureHit) (lo, hi time.Time) {
	lo, hi = h.First.Time, h.Last.Time
	switch {
	case lo.IsZero():
		lo = hi
	case hi.IsZero():
		hi = lo
	}
	if hi.Before(lo) {
		lo, hi = hi, lo
	}
	return lo, hi
}

// signatureHits returns the failure hits for id (most lines first) and the healthy-progress hits
// that can resolve it.
func signatureHits(logs *evidence.NodeLogs, id string) (failing, normal []evidence.SignatureHit) {
	for _, h := range logs.Hits {
		switch {
		case h.Finding == id && logs.Failing(h):
			failing = append(failing, h)
		case h.Normal:
			for _, r := range h.Resolves {
				if r == id {
					normal = append(normal, h)
				}
			}
		}
	}
	sort.SliceStable(failing, func(i, j int) bool { return failing[i].Count > failing[j].Count })
	return failing, normal
}

// resourceFacts are the facts naming the resource a testimony finding is about, in preference order.
var resourceFacts = []string{"roleArn", "nodeclaim", "nodegroup", "instanceProfile", "nodeclass", "nodepool", "node", "username", "instanceId", "subnetId", "securityGroupId", "cluster"}

// testimonyFindings turns the logs' account of id into findings: one fail per distinct resource
// the failing lines name (or one for the target), a pass or skip otherwise. target is the default
// resource; src the logs' source.
func testimonyFindings(id string, t testimony, logs *evidence.NodeLogs, target, src string) []Finding {
	switch t.state {
	case testimonyNone:
		return nil
	case testimonyConsequence:
		return one(Finding{Status: StatusSkipped, Resource: target,
			Message:  ConsequencePrefix + strings.Join(t.causes, ", "),
			Evidence: []EvidenceItem{item(src, "see %s", strings.Join(t.causes, ", "))}})
	case testimonyProxied:
		r, _ := imdsProxied(logs)
		return one(Finding{Status: StatusSkipped, Resource: target,
			Message: fmt.Sprintf("not a cause: %s (%d lines) came from the kubelet's credential plugin, whose IMDS requests (169.254.169.254) go through %s, so they say nothing of the instance profile (see runtime.exec-credential-failed)",
				t.failing[0].Meaning, evidence.DistinctLines(t.failing), routeText(r)),
			Evidence: []EvidenceItem{hitItem(src, t.failing[0])}})
	case testimonyEnded:
		items := make([]EvidenceItem, 0, len(t.ended))
		total := evidence.DistinctLines(t.ended)
		for _, h := range t.ended {
			items = append(items, hitItem(src, h))
		}
		return one(pass(target, fmt.Sprintf("%d line%s matched (%s) but %s: over", total, plural(total), t.ended[0].Meaning, t.ended[0].Ended), items...))
	}
	items := make([]EvidenceItem, 0, len(t.failing)+1)
	total := evidence.DistinctLines(t.failing) // a line several signatures match counts once
	last := t.failing[0].Last
	for _, h := range t.failing {
		if logscan.Later(h.Last, last) {
			last = h.Last
		}
		items = append(items, hitItem(src, h))
	}
	if t.state == testimonyAfterAgent {
		items = append([]EvidenceItem{hitItem(src, *t.resolvedBy)}, items...)
		return one(warn(target, fmt.Sprintf("%d line%s matched (%s) after the bootstrap agent finished (%q, at %s): a later user-data step failed, not the agent, which had started the kubelet; the join goes on, but fix that step (the lines above the failure show it)",
			total, plural(total), t.failing[0].Meaning, t.resolvedBy.Meaning, where(t.resolvedBy.Last)), items...))
	}
	if t.state == testimonyResolved && t.superseded {
		items = append(items, hitItem(src, *t.resolvedBy))
		return one(pass(target, fmt.Sprintf("%d line%s matched (%s) but a node booted after %s (%q, at %s): superseded — a later launch found an AMI, so this launch-time failure does not stop the node shown",
			total, plural(total), t.failing[0].Meaning, pick(total == 1, "it", "them"), t.resolvedBy.Meaning, where(t.resolvedBy.Last)), items...))
	}
	if t.state == testimonyResolved {
		items = append(items, hitItem(src, *t.resolvedBy))
		if t.note != "" {
			return one(pass(target, fmt.Sprintf("%d line%s matched (%s) but %s: transient", total, plural(total), t.failing[0].Meaning, t.note), items...))
		}
		return one(pass(target, fmt.Sprintf("%d line%s matched (%s) but the log later shows %q: transient", total, plural(total), t.failing[0].Meaning, t.resolvedBy.Meaning), items...))
	}
	resource := target
	for _, name := range resourceFacts {
		if v := factValues(t.failing, name); len(v) > 0 {
			resource = strings.Join(v, ", ")
			for _, h := range t.failing {
				if slices.Contains(h.FactsCapped, name) {
					resource += ", …" // a sample: more values than were kept
					break
				}
			}
			break
		}
	}
	msg := fmt.Sprintf("%s (%d line%s, last at %s)", t.failing[0].Meaning, total, plural(total), where(last))
	if facts := factSummary(t.failing); facts != "" {
		msg += "; " + facts
	}
	msg += proxyNote(logs, id, t)
	if t.note != "" {
		msg += "; " + t.note
	}
	for _, h := range t.context {
		items = append(items, hitItem(src, h))
	}
	f := fail(resource, msg, items...)
	f.Symptom = true
	for _, h := range t.failing {
		f.Symptom = f.Symptom && symptomHit(h)
	}
	f.ExplainedBy = sharedCauses(t.failing)
	return one(f)
}

// sharedCauses returns the causes every hit names in its ConsequenceOf (sorted), nil when any
// hit names none.
func sharedCauses(hits []evidence.SignatureHit) []string {
	var shared []string
	for i, h := range hits {
		if i == 0 {
			shared = slices.Clone(h.ConsequenceOf)
			continue
		}
		shared = slices.DeleteFunc(shared, func(c string) bool { return !slices.Contains(h.ConsequenceOf, c) })
	}
	slices.Sort(shared)
	return slices.Compact(shared)
}

// symptomHit reports whether a hit only says nodes did not join: its signature is a symptom, or
// every health code it carries is NodeCreationFailure (a health-code line of any code).
func symptomHit(h evidence.SignatureHit) bool {
	codes := h.Facts["code"]
	if len(codes) == 0 || slices.Contains(h.FactsCapped, "code") {
		return h.Symptom
	}
	for _, c := range codes {
		if c != "NodeCreationFailure" {
			return false
		}
	}
	return true
}

// factValues returns the distinct values of fact name over hits.
func factValues(hits []evidence.SignatureHit, name string) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range hits {
		for _, v := range h.Facts[name] {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// factLabels are how facts read in a message.
var factLabels = map[string]string{"roleArn": "role", "username": "user", "node": "node", "cluster": "cluster",
	"kubernetesVersion": "Kubernetes", "amiType": "AMI type", "code": "code", "instanceId": "instance",
	"instanceProfile": "instance profile", "subnetId": "subnet", "securityGroupId": "security group", "image": "image",
	"endpoint": "endpoint", "address": "API server address", "flag": "flag", "setting": "setting", "nodegroup": "node group", "nodeclaim": "NodeClaim",
	"nodepool": "NodePool", "nodeclass": "node class", "unit": "unit", "service": "service", "detail": "detail"}

// factSummary lists the facts the hits carry ("role arn:…; code NodeCreationFailure"), sorted by name.
func factSummary(hits []evidence.SignatureHit) string {
	names := map[string]bool{}
	for _, h := range hits {
		for n := range h.Facts {
			names[n] = true
		}
	}
	var keys []string
	for n := range names {
		keys = append(keys, n)
	}
	sort.Strings(keys)
	var parts []string
	for _, n := range keys {
		v := factValues(hits, n)
		capped := false
		for _, h := range hits {
			capped = capped || slices.Contains(h.FactsCapped, n)
		}
		switch {
		case len(v) > 3 && capped:
			v = append(v[:3], fmt.Sprintf("%d more and others not counted (over %d distinct values)", len(v)-3, len(v)))
		case len(v) > 3:
			v = append(v[:3], fmt.Sprintf("%d more", len(v)-3))
		case capped:
			v = append(v, "and others not counted")
		}
		label := factLabels[n]
		if label == "" {
			label = n
		}
		parts = append(parts, label+" "+strings.Join(v, ", "))
	}
	return strings.Join(parts, "; ")
}

func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

var (
	findingComponentsOnce sync.Once
	findingComponents     map[string][]string
)

// notWitness are findings whose failure only another party's log can show: the kubelet's
// registration ends an authenticator's denial of the node role (the role is mapped now), but
// lines of the kubelet never show whether the authenticator denied anything, so they are not
// lines that "could show" it (componentsOf).
var notWitness = map[string]bool{"auth.authenticator-denied": true}

// componentsOf returns the catalog components whose lines can show finding id (those of its
// failure signatures and of the healthy-progress signatures resolving it), sorted.
func componentsOf(id string) []string {
	findingComponentsOnce.Do(func() {
		set := map[string]map[string]bool{}
		add := func(f, c string) {
			if set[f] == nil {
				set[f] = map[string]bool{}
			}
			set[f][c] = true
		}
		for _, sg := range logscan.Catalog() {
			if sg.Finding != "" {
				add(sg.Finding, sg.Component)
			}
			for _, r := range sg.Resolves {
				if !notWitness[r] || sg.Finding == r {
					add(r, sg.Component)
				}
			}
		}
		findingComponents = map[string][]string{}
		for f, cs := range set {
			for c := range cs {
				findingComponents[f] = append(findingComponents[f], c)
			}
			sort.Strings(findingComponents[f])
		}
	})
	return findingComponents[id]
}

// TestifiedFindings returns the IDs that signatures of the catalog can testify to, sorted.
func TestifiedFindings() []string {
	componentsOf("")
	out := make([]string, 0, len(findingComponents))
	for f := range findingComponents {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func where(l evidence.LogLine) string {
	s := fmt.Sprintf("%s:%d", l.Path, l.Line)
	if !l.Time.IsZero() {
		s += " (" + l.Time.UTC().Format("2006-01-02T15:04:05Z") + ")"
	}
	return s
}

func hitItem(src string, h evidence.SignatureHit) EvidenceItem {
	text := fmt.Sprintf("%s: %d line%s; first %s: %s", h.Signature, h.Count, plural(h.Count), where(h.First), strings.TrimSpace(h.First.Text))
	if h.Count > 1 {
		text += fmt.Sprintf("; last %s: %s", where(h.Last), strings.TrimSpace(h.Last.Text))
	}
	return item(src, "%s", text)
}

// otherNodesLines reports whether the failing lines of t all name nodes (their node facts)
// other than the target instance's private DNS name while other lines of the logs name the
// instance's (two nodes' logs pasted together, the node beside the one asked about), and one of
// those names. False without an instance, when a line names no node, or when no line names the
// instance's node (a log of one node, whatever its name says).
func otherNodesLines(ev *evidence.Evidence, t testimony) (string, bool) {
	if t.state != testimonyFailing || ev.Instance == nil || ev.Instance.PrivateDNSName == "" || ev.NodeLogs == nil {
		return "", false
	}
	named := false
	for _, h := range ev.NodeLogs.Hits {
		named = named || slices.ContainsFunc(h.Facts["node"], func(n string) bool { return sameNode(n, ev.Instance.PrivateDNSName) })
	}
	if !named {
		return "", false
	}
	for _, h := range t.failing {
		nodes := h.Facts["node"]
		if len(nodes) == 0 || slices.Contains(h.FactsCapped, "node") {
			return "", false
		}
		for _, n := range nodes {
			if sameNode(n, ev.Instance.PrivateDNSName) {
				return "", false
			}
		}
	}
	return t.failing[0].Facts["node"][0], true
}

// contradictedSignatures lists, per check, the log signatures whose claim a pass of the check's
// own evidence contradicts: "ARN is not mapped" says the role is mapped nowhere, while the
// collected aws-auth and access entries (auth.role-not-mapped passes) map it. Lines that claim
// something the configuration does not show (ARN does not match User ID: the mapping exists but
// names a recreated role) are not listed.
var contradictedSignatures = map[string][]string{
	"auth.role-not-mapped": {"authenticator-arn-not-mapped"},
}

// weighTestimony weighs the failing testimony tf of check id against its own findings res. When
// the check passed for a role on the evidence collected at ev.CollectedAt, and every failing line
// is a signature that evidence contradicts naming that same role (or its session), the lines
// describe an earlier state: a line before the collection (or undated) becomes a warning saying
// it predates the evidence that maps the role; a line after the collection stays a failure and
// says the evidence collected before it mapped the role. Other testimony is returned unchanged.
func weighTestimony(id string, res []Finding, t testimony, ev *evidence.Evidence, tf []Finding) []Finding {
	sigs := contradictedSignatures[id]
	if len(sigs) == 0 || len(tf) != 1 || tf[0].Status != StatusFail {
		return tf
	}
	var passed string
	for _, f := range res {
		switch f.Status {
		case StatusPass:
			passed = f.Resource
		case StatusFail, StatusWarn:
			return tf // the check's own evidence already finds a problem
		}
	}
	want, ok := canonicalRoleArn(passed)
	if !ok {
		return tf
	}
	later := false
	for _, h := range t.failing {
		if !slices.Contains(sigs, h.Signature) {
			return tf
		}
		for _, a := range h.Facts["roleArn"] {
			if got, ok := canonicalRoleArn(sessionRole(a)); !ok || got != want {
				return tf // another principal: the pass says nothing of it
			}
		}
		if !ev.CollectedAt.IsZero() && h.Last.Time.After(ev.CollectedAt) {
			later = true
		}
	}
	f := tf[0]
	at := "an unknown time"
	if !ev.CollectedAt.IsZero() {
		at = ev.CollectedAt.UTC().Format(time.RFC3339)
	}
	if later {
		f.Message += fmt.Sprintf(" — although the evidence collected at %s, before this line, maps the role: the mapping was removed or changed since, or the authenticator had not loaded it", at)
		return one(f)
	}
	f.Status = StatusWarn
	f.Message += fmt.Sprintf(" — this line predates the evidence collected at %s, which maps the role: the mapping was added or changed after the denial (it no longer applies), or the denied identity was another principal or an authenticator cache not yet refreshed", at)
	return one(f)
}

// sessionRole turns an assumed-role session ARN (arn:aws:sts::ACCOUNT:assumed-role/NAME/SESSION)
// into its role's ARN (arn:aws:iam::ACCOUNT:role/NAME); other ARNs are returned as they are.
func sessionRole(arn string) string {
	a := strings.TrimSpace(arn)
	i := strings.Index(a, ":assumed-role/")
	if i < 0 || !strings.HasPrefix(a, "arn:") {
		return a
	}
	parts := strings.SplitN(a[:i], ":", 5) // arn, partition, sts, region, account
	if len(parts) != 5 {
		return a
	}
	name, _, _ := strings.Cut(a[i+len(":assumed-role/"):], "/")
	return "arn:" + parts[1] + ":iam::" + parts[4] + ":role/" + name
}

// lineWhen names when line l was written: its timestamp, or where it is when its timestamp has
// no year (a pasted journal excerpt).
func lineWhen(l evidence.LogLine) string {
	if !l.Time.IsZero() {
		return l.Time.UTC().Format(time.RFC3339)
	}
	return where(l)
}

// periodicEnded says why the fault of failure hit h is over when its line is one the component
// writes every h.RepeatEvery while the fault lasts and the logs show the kubelet, or h's own
// component, still logging for h.QuietAfter() after h's last line without it — or the log
// holding that line going on, dated, that long — ("" otherwise, and when h's last line has
// neither a timestamp nor a year-less clock). Lines of another node do not count.
func periodicEnded(logs *evidence.NodeLogs, h evidence.SignatureHit) string {
	if h.RepeatEvery <= 0 || h.Last.Time.IsZero() && h.Last.Clock == 0 {
		return ""
	}
	quiet := h.QuietAfter()
	for _, x := range logs.Hits {
		if x.Component != "kubelet" && x.Component != h.Component || otherNodes([]evidence.SignatureHit{h}, x) {
			continue
		}
		if gap, ok := logscan.Gap(x.Last, h.Last); ok && gap >= quiet {
			return fmt.Sprintf("written every %s while the fault lasts, it stopped at %s while the %s logged on until %s (%s)",
				h.RepeatEvery, lineWhen(h.Last), x.Component, lineWhen(x.Last), where(x.Last))
		}
	}
	// the log holding h's last line goes on, dated, for the quiet time without it (lines no
	// signature knows: the kubelet's routine ones), unless lines of another node share that
	// log, whose last line may be theirs
	for _, st := range logs.Streams {
		if st.Path != h.Last.Path || h.Last.Line < st.FirstLine || h.Last.Line > st.LastLine {
			continue
		}
		gap, ok := logscan.StreamGap(st, h.Last)
		if !ok || gap < quiet {
			continue
		}
		shared := slices.ContainsFunc(logs.Hits, func(x evidence.SignatureHit) bool {
			return x.Last.Path == st.Path && x.Last.Line >= st.FirstLine && x.Last.Line <= st.LastLine && otherNodes([]evidence.SignatureHit{h}, x)
		})
		if !shared {
			return fmt.Sprintf("written every %s while the fault lasts, it stopped at %s while its log goes on for %s after it",
				h.RepeatEvery, lineWhen(h.Last), gap.Round(time.Second))
		}
	}
	return ""
}
