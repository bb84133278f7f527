package checks

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// Diagnosis states the most likely reason the node does not join.
type Diagnosis struct {
	// MostLikelyCause is the ID of the top-ranked failing finding; empty when nothing fails.
	MostLikelyCause string `json:"mostLikelyCause"`
	// Resource is the resource of that finding.
	Resource string `json:"resource,omitempty"`
	// Summary is one sentence for humans.
	Summary string `json:"summary"`
	// Chain lists the failing findings the cause explains (its symptoms), by ID.
	Chain []string `json:"chain"`
	// Ranked lists every failing finding ID, most likely cause first.
	Ranked []string `json:"ranked"`
	// Verdict is the headline (Judge); Unchecked the join-path checks that could not run;
	// Node the target's Node when it joined.
	Verdict   Verdict     `json:"verdict"`
	Unchecked []Unchecked `json:"unchecked"`
	Node      *NodeState  `json:"node,omitempty"`
}

// Conclude ranks the failing findings (Diagnose) and decides the verdict (Judge) for ev.
func Conclude(findings []Finding, metas map[string]Meta, ev *evidence.Evidence) Diagnosis {
	d := Diagnose(findings, metas)
	d.Verdict, d.Unchecked, d.Node = Judge(findings, metas, ev)
	if d.Unchecked == nil {
		d.Unchecked = []Unchecked{}
	}
	switch d.Verdict {
	case VerdictJoined:
		state := "Ready"
		if !d.Node.Ready {
			state = "NotReady"
		}
		name := d.Node.Name
		if name == "" {
			name = "the node"
		}
		prefix := fmt.Sprintf("%s joined the cluster and is %s (%s)", name, state, d.Node.Evidence)
		if d.Node.Condition != "" {
			prefix = fmt.Sprintf("%s joined the cluster and is %s (%s; Ready condition %s)", name, state, d.Node.Evidence, d.Node.Condition)
		}
		if d.MostLikelyCause != "" && !d.Node.Ready {
			d.Summary = prefix + "; why it is not Ready: " + d.Summary
		} else if d.MostLikelyCause != "" {
			d.Summary = prefix + "; other problems remain: " + d.Summary
		} else if !d.Node.Ready && len(d.Unchecked) > 0 {
			d.Summary = prefix + fmt.Sprintf("; why it is not Ready could not be told: %d checks could not run, for want of evidence", len(d.Unchecked))
		} else if !d.Node.Ready {
			// every check ran and none names the cause: still no all-clear for a NotReady node
			d.Summary = prefix + "; why it is not Ready could not be told: no check failed"
		} else {
			d.Summary = prefix
		}
	case VerdictInconclusive:
		ids := make([]string, 0, len(d.Unchecked))
		for _, u := range d.Unchecked {
			ids = append(ids, u.ID)
		}
		unseen := ""
		if nodesUnread(ev) {
			// the outcome itself was not seen: the instance may have joined, or still be
			// failing for a cause only its own logs would show
			unseen = fmt.Sprintf("%s: %s, so whether the node registered is unknown", evidence.KindNodes, ev.GapFor(evidence.KindNodes).Reason)
		}
		switch {
		case d.MostLikelyCause == "" && len(ids) == 0 && unseen != "":
			d.Summary = "inconclusive: no check failed, but " + unseen
			unseen = ""
		case d.MostLikelyCause != "" && len(ids) == 0:
			d.Summary = fmt.Sprintf("inconclusive: only a symptom failed (%s); no other check names the cause", d.Summary)
		case d.MostLikelyCause != "":
			d.Summary = fmt.Sprintf("inconclusive: only a symptom failed (%s), and %d check%s that could name the cause could not run (%s)", d.Summary, len(ids), plural(int64(len(ids))), strings.Join(ids, ", "))
		case Unselected(d.Unchecked) > 0:
			n := Unselected(d.Unchecked)
			d.Summary = fmt.Sprintf("inconclusive: no check failed, but %d check%s of the join path did not run (%s): the --checks selection left %d out", len(ids), plural(int64(len(ids))), strings.Join(ids, ", "), n)
		default:
			d.Summary = fmt.Sprintf("inconclusive: no check failed, but %d check%s of the join path could not run (%s)", len(ids), plural(int64(len(ids))), strings.Join(ids, ", "))
		}
		if unseen != "" {
			d.Summary += "; " + unseen
		}
	case VerdictNoCauseFound:
		d.Summary = "no cause found: every check of the join path ran and none failed"
	}
	if stale := StaleNode(ev); stale != "" && d.Verdict != VerdictJoined {
		d.Summary += "; " + stale
	}
	return d
}

// Diagnose ranks failing findings: a finding explained by another failing finding (Meta.Explains,
// or the causes its log lines name: Finding.ExplainedBy) is a symptom and ranks after causes; then higher severity, then more corroboration (failing
// findings it explains), then earlier join stage, then ID. metas maps IDs to metadata.
func Diagnose(findings []Finding, metas map[string]Meta) Diagnosis {
	failing := map[string]Finding{}
	var ids []string
	// restates marks the IDs whose every failure only restates that nodes did not join
	// (Finding.Symptom): they rank after the failures that name a cause
	restates := map[string]bool{}
	for _, f := range findings {
		if f.Status != StatusFail {
			continue
		}
		if _, ok := failing[f.ID]; !ok {
			ids = append(ids, f.ID)
			failing[f.ID] = f
			restates[f.ID] = f.Symptom
		}
		restates[f.ID] = restates[f.ID] && f.Symptom
	}
	if len(ids) == 0 {
		return Diagnosis{Summary: "no check failed: nothing in the evidence explains a failed join", Chain: []string{}, Ranked: []string{}}
	}
	explains := func(cause, effect string) bool {
		if cause == effect {
			return false
		}
		for _, p := range metas[cause].Explains {
			if Matches(p, effect) {
				return true
			}
		}
		return slices.Contains(failing[effect].ExplainedBy, cause)
	}
	symptom := map[string]bool{}
	for id, r := range restates {
		symptom[id] = r
	}
	corroboration := map[string]int{}
	for _, a := range ids {
		for _, b := range ids {
			if explains(a, b) && !explains(b, a) {
				symptom[b] = true
				corroboration[a]++
			}
		}
	}
	sort.SliceStable(ids, func(i, j int) bool {
		a, b := ids[i], ids[j]
		if symptom[a] != symptom[b] {
			return !symptom[a]
		}
		if ra, rb := metas[a].Severity.Rank(), metas[b].Severity.Rank(); ra != rb {
			return ra > rb
		}
		if corroboration[a] != corroboration[b] {
			return corroboration[a] > corroboration[b]
		}
		if metas[a].Stage != metas[b].Stage {
			return metas[a].Stage < metas[b].Stage
		}
		return a < b
	})
	top := failing[ids[0]]
	var chain []string
	for _, id := range ids[1:] {
		if explains(ids[0], id) {
			chain = append(chain, id)
		}
	}
	if chain == nil {
		chain = []string{}
	}
	summary := fmt.Sprintf("%s: %s", metas[top.ID].Title, top.Message)
	if len(chain) > 0 {
		summary += fmt.Sprintf(" (this also explains %s)", strings.Join(chain, ", "))
	}
	if n := len(ids) - 1 - len(chain); n > 0 {
		summary += fmt.Sprintf("; %s follow", nOf(n, "other independent failure", "other independent failures"))
	}
	return Diagnosis{MostLikelyCause: top.ID, Resource: top.Resource, Summary: summary, Chain: chain, Ranked: ids}
}
