package checks

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

// Verdict is the headline of a diagnosis: what the evidence allows eksdoctor to say.
type Verdict string

// Verdicts.
const (
	// VerdictCauseFound: at least one check failed; the most likely cause is named.
	VerdictCauseFound Verdict = "cause-found"
	// VerdictNoCauseFound: every check of the join path ran and none failed.
	VerdictNoCauseFound Verdict = "no-cause-found"
	// VerdictInconclusive: nothing failed, but checks of the join path could not run, or an
	// instance's cluster Nodes were not read (whether it registered is unknown); or only
	// symptoms failed (Finding.Symptom): the nodes did not join, and no check names why.
	VerdictInconclusive Verdict = "inconclusive"
	// VerdictJoined: the node registered (a Node object exists, or its own log shows it).
	VerdictJoined Verdict = "joined"
)

// Unchecked is a check of the join path that could not judge, and why.
type Unchecked struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
	// Denied is true when the missing evidence was refused (a missing IAM or Kubernetes permission).
	Denied bool `json:"denied,omitempty"`
}

// NodeState says whether and how the target joined.
type NodeState struct {
	// Name is the Node's name ("" when only the node's log shows the registration).
	Name  string `json:"name,omitempty"`
	Ready bool   `json:"ready"`
	// Evidence names what shows it: "kube:nodes" or the log line of the registration.
	Evidence string `json:"evidence"`
	// Condition is a NotReady Node's Ready condition as the Node object states it, "REASON:
	// message" (kubernetes pkg/kubelet/nodestatus/setters.go ReadyCondition: KubeletNotReady and
	// the failing runtime state); "" when the node is Ready or the input shows no message.
	Condition string `json:"condition,omitempty"`
}

// JoinPath reports whether a check judges a cause that keeps a node from joining: critical and
// high checks of the stages up to certificates (a fail-closed webhook, the control plane's
// security group rule, a pending CSR block a join as surely as a missing role), judged from AWS,
// cluster or configuration evidence.
// Checks judged from testimony (node logs, recorded mapping changes, CloudTrail events) can find
// a cause, but their silence is no proof, so they do not make a run inconclusive; the exception
// is a check that also judges from a provisioner's own object (the Karpenter checks: a
// NodeClaim, an EC2NodeClass): for a node that provisioner launched, the object could have been
// read, and its absence is a gap.
func JoinPath(m Meta) bool {
	if m.Severity != SeverityCritical && m.Severity != SeverityHigh || m.Stage > StageCerts {
		return false
	}
	kinds := append(append([]evidence.Kind(nil), m.Needs...), m.NeedsAny...)
	for _, k := range kinds {
		switch k {
		case evidence.KindNodeClaims, evidence.KindEC2NodeClasses, evidence.KindNodeClasses:
			return true
		}
	}
	for _, k := range kinds {
		if k == evidence.KindNodeLogs || k == evidence.KindMappingChanges {
			return false // testimony: it can show a cause, its absence proves nothing
		}
	}
	return true
}

// Judge decides the verdict of findings (Run's output) on ev: joined when the target's Node
// exists or its log shows the registration; cause-found when a check failed — inconclusive
// instead when every failure is a Symptom, with the checks that could have named the cause
// but could not run (the node's own logs among them); otherwise
// no-cause-found when every join-path check judged (and at least one check judged anything), and
// inconclusive with the checks that could not (skipped for missing evidence, not for not
// applying; every skipped check when none judged anything) or that the --checks selection left
// out (reason NotSelected: metas holds every registered check, findings only the selected ones').
func Judge(findings []Finding, metas map[string]Meta, ev *evidence.Evidence) (Verdict, []Unchecked, *NodeState) {
	node := JoinedNode(ev)
	failing, causes := false, false
	for _, f := range findings {
		if f.Status == StatusFail {
			failing = true
			causes = causes || !f.Symptom
		}
	}
	symptomsOnly := failing && !causes
	if failing && causes && notRegistered(ev) {
		// every failing check judges a node after it registered and does not keep it from
		// working (max-pods, the DNS IP): with the cluster's whole Node list showing none for
		// this instance, none of them is why it did not join. Critical ones (the CNI, IPAMD,
		// Windows IPAM) stay causes: a node they break is not a working member either.
		postJoin := true
		for _, f := range findings {
			if f.Status == StatusFail && !f.Symptom && (metas[f.ID].Stage != StagePostJoin || metas[f.ID].Severity == SeverityCritical) {
				postJoin = false
			}
		}
		symptomsOnly = postJoin
	}
	var unchecked []Unchecked
	seen := map[string]bool{}
	for _, f := range findings {
		if f.Status != StatusSkipped || seen[f.ID] || strings.HasPrefix(f.Message, "not applicable") || strings.HasPrefix(f.Message, "not a cause") {
			continue
		}
		if m := metas[f.ID]; !JoinPath(m) && !unreadTestimony(m, ev, f.Message) && !(symptomsOnly && strings.HasPrefix(f.Message, "missing evidence") && m.Stage <= StageCerts && (m.Severity == SeverityCritical || m.Severity == SeverityHigh)) {
			// with only a symptom failing, the testimony that was not read (the node's own
			// logs) is what could name the cause: it is listed too
			continue
		}
		seen[f.ID] = true
		u := Unchecked{ID: f.ID, Reason: strings.TrimPrefix(f.Message, "missing evidence: ")}
		u.Denied = strings.Contains(f.Message, "missing permission")
		unchecked = append(unchecked, u)
	}
	judged := false
	for _, f := range findings {
		judged = judged || f.Status == StatusPass || f.Status == StatusWarn || f.Status == StatusFail
	}
	if !judged && len(unchecked) == 0 {
		// not one check judged anything (a --checks selection of log checks over input without
		// logs): "every check ran and none failed" would be false; every skipped check is unchecked
		for _, f := range findings {
			if f.Status == StatusSkipped && !seen[f.ID] {
				seen[f.ID] = true
				unchecked = append(unchecked, Unchecked{ID: f.ID, Reason: strings.TrimPrefix(f.Message, "missing evidence: "), Denied: strings.Contains(f.Message, "missing permission")})
			}
		}
	}
	if node == nil && !failing {
		// a --checks selection that leaves join-path checks out: their silence is not a pass
		// (red team 8b #20), so they are unchecked too
		unchecked = append(unchecked, unselected(findings, metas, seen)...)
	}
	sort.Slice(unchecked, func(i, j int) bool { return unchecked[i].ID < unchecked[j].ID })
	switch {
	case node != nil:
		return VerdictJoined, unchecked, node
	case symptomsOnly:
		// only symptoms failed: EKS's NodeCreationFailure says the nodes did not join, not why
		return VerdictInconclusive, unchecked, nil
	case failing:
		return VerdictCauseFound, unchecked, nil
	case len(unchecked) == 0 && judged && !nodesUnread(ev):
		return VerdictNoCauseFound, nil, nil
	}
	return VerdictInconclusive, unchecked, nil
}

// notRegistered reports whether the evidence shows the instance has no Node: the cluster's
// complete Node list (not a describe or a named get) was read and none of its Nodes is the
// instance's.
func notRegistered(ev *evidence.Evidence) bool {
	if ev.Instance == nil || !ev.Have(evidence.KindNodes) || ev.NodesPartial {
		return false
	}
	for _, n := range ev.Nodes {
		if ownNode(n, ev) {
			return false
		}
	}
	return true
}

// unreadTestimony reports whether a check of the join path's stages (critical or high, up to
// certificates) that reads testimony was skipped (message) for want of testimony that was given
// but could not be read (evidence.Evidence.MarkUnreadable: a console output saved in a form not
// read): its silence then hides what the file holds, so it is unchecked, never a pass
// (red team 11b #9).
func unreadTestimony(m Meta, ev *evidence.Evidence, message string) bool {
	if ev == nil || !strings.HasPrefix(message, "missing evidence") || m.Stage > StageCerts || m.Severity != SeverityCritical && m.Severity != SeverityHigh {
		return false
	}
	for _, k := range append(append([]evidence.Kind(nil), m.Needs...), m.NeedsAny...) {
		if ev.Unreadable(k) {
			return true
		}
	}
	return false
}

// NotSelected is the Unchecked reason of a join-path check the --checks selection left out.
const NotSelected = "not selected (--checks)"

// unselected returns the join-path checks of metas (JoinPath) with no finding in findings and
// not in seen: Run gives every check it runs at least one finding, so these are the checks the
// --checks selection left out, with reason NotSelected, sorted by ID.
func unselected(findings []Finding, metas map[string]Meta, seen map[string]bool) []Unchecked {
	ran := make(map[string]bool, len(findings))
	for _, f := range findings {
		ran[f.ID] = true
	}
	var out []Unchecked
	for id, m := range metas {
		if !ran[id] && !seen[id] && JoinPath(m) {
			out = append(out, Unchecked{ID: id, Reason: NotSelected})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Unselected counts the entries of us whose reason is NotSelected.
func Unselected(us []Unchecked) int {
	n := 0
	for _, u := range us {
		if u.Reason == NotSelected {
			n++
		}
	}
	return n
}

// nodesUnread reports whether ev is an instance's whose cluster Nodes were not read (kube/nodes.json
// absent, not collected, denied, or holding kubectl's error): nothing then shows whether it
// registered, so nothing failing is inconclusive, not "no cause found" (red team 8a, findings 7
// and 10).
func nodesUnread(ev *evidence.Evidence) bool {
	return ev != nil && ev.Instance != nil && !ev.Have(evidence.KindNodes)
}

// JoinedNode returns the target's Node when it exists: by the instance's private DNS name or
// provider ID in the cluster's nodes, else by the node's own log of a successful registration,
// else the one NotReady Node of a pasted node list (pastedNotReady).
func JoinedNode(ev *evidence.Evidence) *NodeState {
	if st := joinedNode(ev); st != nil {
		return st
	}
	return pastedNotReady(ev)
}

// pastedNotReady returns the one NotReady Node of a node list pasted without an instance (a
// `kubectl get nodes` in a ticket, red team round 7, finding 7): a ticket about a node that does
// not work, whose list shows exactly one node NotReady, is about that node, which registered.
// Nil when the list is not a paste's, shows no or several NotReady nodes, or the logs' failing
// lines name another node.
func pastedNotReady(ev *evidence.Evidence) *NodeState {
	if ev.Instance != nil || !ev.Have(evidence.KindNodes) || !strings.HasPrefix(ev.Source(evidence.KindNodes), "paste:") {
		return nil
	}
	var nr *evidence.Node
	for i := range ev.Nodes {
		if ev.Nodes[i].ReadyUnknown {
			// a list that does not show readiness (a jsonpath template or custom columns
			// without the Ready condition) does not tell which node is NotReady
			return nil
		}
		if !ev.Nodes[i].Ready {
			if ev.Nodes[i].Unregistered {
				// a Node its kubelet never reported on (Karpenter before v0.28 created it)
				// did not join
				return nil
			}
			if nr != nil {
				return nil
			}
			nr = &ev.Nodes[i]
		}
	}
	if nr == nil || ev.NodeLogs != nil && otherNodeFails(ev.NodeLogs, nr.Name) {
		return nil
	}
	evd := fmt.Sprintf("%s: Node %s is NotReady", ev.Source(evidence.KindNodes), nr.Name)
	if nr.Age > 0 {
		evd += fmt.Sprintf(", created %s before the list was taken (AGE)", kubectlDuration(nr.Age))
	}
	return &NodeState{Name: nr.Name, Evidence: evd}
}

// kubectlDuration writes d as kubectl's AGE column does, to its two largest units ("47m",
// "5h12m", "6d").
func kubectlDuration(d time.Duration) string {
	days, h, m := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0 && h > 0:
		return fmt.Sprintf("%dd%dh", days, h)
	case days > 0:
		return fmt.Sprintf("%dd", days)
	case h > 0 && m > 0:
		return fmt.Sprintf("%dh%dm", h, m)
	case h > 0:
		return fmt.Sprintf("%dh", h)
	case m > 0:
		return fmt.Sprintf("%dm", m)
	}
	return d.Round(time.Second).String()
}

// otherInstance returns the instance ID a Node's providerID ("aws:///ZONE/i-…") names when it is
// not id, else "": a Node named after an instance's private DNS name but registered by another
// instance is a stale Node of the address's earlier owner (red team 8b #17), not this instance's.
func otherInstance(providerID, id string) string {
	i := strings.LastIndex(providerID, "/")
	if i < 0 || !strings.HasPrefix(providerID[i+1:], "i-") || providerID[i+1:] == id {
		return ""
	}
	return providerID[i+1:]
}

// ownNode reports whether n is the Node of ev's instance: its providerID names the instance, or
// it has the instance's private DNS name and its providerID names no other instance.
func ownNode(n evidence.Node, ev *evidence.Evidence) bool {
	return ev.Instance.NamesNode(n.Name) && otherInstance(n.ProviderID, ev.Instance.ID) == "" || strings.HasSuffix(n.ProviderID, "/"+ev.Instance.ID)
}

// StaleNode returns a sentence on the Node of ev that has the instance's private DNS name but
// whose providerID names another instance (and is therefore not taken as this instance's), or
// "" when there is none.
func StaleNode(ev *evidence.Evidence) string {
	if ev.Instance == nil || !ev.Have(evidence.KindNodes) {
		return ""
	}
	for _, n := range ev.Nodes {
		if n.Name == ev.Instance.PrivateDNSName {
			if other := otherInstance(n.ProviderID, ev.Instance.ID); other != "" {
				return fmt.Sprintf("Node %s has this instance's name but its providerID names %s: a stale Node of another instance, not this instance's", n.Name, other)
			}
		}
	}
	return ""
}

// joinedNode is JoinedNode without the pasted node list's NotReady node.
func joinedNode(ev *evidence.Evidence) *NodeState {
	if ev.Have(evidence.KindNodes) && ev.Instance != nil {
		for _, n := range ev.Nodes {
			if ownNode(n, ev) && !n.Unregistered {
				st := &NodeState{Name: n.Name, Ready: n.Ready, Evidence: ev.Source(evidence.KindNodes)}
				if !n.Ready && n.ReadyMessage != "" {
					st.Condition = strings.TrimPrefix(n.ReadyReason+": "+n.ReadyMessage, ": ")
				}
				return st
			}
		}
		return nil
	}
	if st := registeredClaim(ev); st != nil {
		return st
	}
	if ev.Instance == nil && ev.Have(evidence.KindNodes) && len(ev.Nodes) == 1 && ev.NodesPartial && !ev.Nodes[0].Unregistered && (ev.NodeLogs == nil || !registeredHit(ev.NodeLogs) && !otherNodeFails(ev.NodeLogs, ev.Nodes[0].Name)) {
		// a pasted `kubectl describe node` of the node the ticket is about: it registered —
		// unless the logs pasted with it fail for another node (an old healthy node described
		// beside the new node's journal: red team round 8b, finding 10)
		n := ev.Nodes[0]
		return &NodeState{Name: n.Name, Ready: n.Ready, Evidence: ev.Source(evidence.KindNodes) + ": Node " + n.Name + map[bool]string{true: " is Ready", false: " is NotReady"}[n.Ready]}
	}
	if ev.NodeLogs == nil {
		return csrRequestorListed(ev)
	}
	var reg, ready, renewal *evidence.SignatureHit
	for i, h := range ev.NodeLogs.Hits {
		switch {
		case h.Milestone == "registered" && renewalSignatures[h.Signature]:
			renewal = &ev.NodeLogs.Hits[i]
		case h.Milestone == "registered":
			reg = &ev.NodeLogs.Hits[i]
		case h.Milestone == "ready":
			ready = &ev.NodeLogs.Hits[i]
		}
	}
	if reg == nil && ready == nil {
		if st := renewedListed(ev, renewal); st != nil {
			return st
		}
		if st := loggedListed(ev); st != nil {
			return st
		}
		return csrRequestorListed(ev)
	}
	h := reg
	if h == nil {
		h = ready
	}
	st := &NodeState{Ready: ready != nil, Evidence: fmt.Sprintf("%s: %s", where(h.Last), strings.TrimSpace(h.Last.Text))}
	if v := h.Facts["node"]; len(v) > 0 {
		st.Name = v[0]
	}
	if i := ev.Instance; i != nil && i.PrivateDNSName != "" && st.Name != "" {
		if !sameNode(st.Name, i.PrivateDNSName) {
			return nil // another node registered, not the instance asked about
		}
	} else if st.Name != "" && otherNodeFails(ev.NodeLogs, st.Name) {
		// the registration is another node's (a second node pasted beside it, the AMI build
		// host's journal left in the image): the node the failures are about did not join
		return nil
	}
	if st.Ready && cutOffAfter(ev.NodeLogs, ready.Last, st.Name) {
		// Ready once, then refused or cut off from the API server: its lease expires and the
		// node controller marks it NotReady (Unknown) within the grace period
		st.Ready = false
	}
	if n := listedNode(ev, st.Name); n != nil && n.Ready && !st.Ready {
		// the node list given with the logs (kubectl get nodes, often a watch) shows it Ready
		st.Ready, st.Evidence = true, fmt.Sprintf("%s: Node %s is Ready", ev.Source(evidence.KindNodes), n.Name)
	}
	return st
}

// renewalSignatures are the "registered" signatures of a kubelet renewing its Node's lease or
// status: the Node registered before the line, but the line says nothing of whether it is Ready.
var renewalSignatures = map[string]bool{"kubelet-lease-update-failed": true, "kubelet-node-status-update-failed": true}

// renewedListed returns the Node whose lease or status the kubelet renews (hit, a renewal
// signature's lines naming it) when the node list given with the logs shows it, with the list's
// Ready state; nil without such a hit, a named node, or its Node in the list (the lines alone do
// not tell Ready from NotReady). Renewals of another node than the one the failures are about
// are nil too.
func renewedListed(ev *evidence.Evidence, hit *evidence.SignatureHit) *NodeState {
	if hit == nil || ev.Instance != nil {
		return nil
	}
	names := hit.Facts["node"]
	if len(names) != 1 || otherNodeFails(ev.NodeLogs, names[0]) {
		return nil
	}
	n := listedNode(ev, names[0])
	if n == nil {
		return nil
	}
	return &NodeState{Name: n.Name, Ready: n.Ready, Evidence: fmt.Sprintf("%s: Node %s is %s; %s: %s", ev.Source(evidence.KindNodes), n.Name,
		map[bool]string{true: "Ready", false: "NotReady"}[n.Ready], where(hit.Last), strings.TrimSpace(hit.Last.Text))}
}

// loggedListed returns the Node of an input with no instance whose log lines all name one node
// (hitNodes: the kubelet's node facts, the journal's host) when the node list given with them
// shows that node registered, with the list's Ready state: the kubelet whose lines were quoted
// (an "Error getting node … not found" in its first seconds, a NetworkPluginNotReady before the
// CNI started) is the Node's own, so that Node joined since. nil when the lines name no node or
// several, or the list does not show it.
func loggedListed(ev *evidence.Evidence) *NodeState {
	if ev.Instance != nil || !ev.Have(evidence.KindNodes) || ev.NodeLogs == nil {
		return nil
	}
	var named []string
	for _, h := range ev.NodeLogs.Hits {
		for _, n := range hitNodes(h) {
			if !slices.ContainsFunc(named, func(m string) bool { return sameNode(m, n) }) {
				named = append(named, n)
			}
		}
	}
	if len(named) != 1 {
		return nil
	}
	var n *evidence.Node
	for i := range ev.Nodes {
		if sameNode(ev.Nodes[i].Name, named[0]) {
			if n != nil {
				return nil // two listed nodes share the first label: which one is unknown
			}
			n = &ev.Nodes[i]
		}
	}
	if n == nil || n.Unregistered {
		return nil
	}
	return &NodeState{Name: n.Name, Ready: n.Ready, Evidence: fmt.Sprintf("%s: Node %s, whose kubelet's lines were given, is %s", ev.Source(evidence.KindNodes), n.Name,
		map[bool]string{true: "Ready", false: "NotReady"}[n.Ready])}
}

// csrRequestorListed returns the Node that requested the Pending kubelet CSRs of an input with
// no instance (a pasted kubectl get csr) when they all name one node (requestor
// system:node:NAME) and the node list given with them shows it, with the list's Ready state: a
// kubelet asking for a certificate as system:node:NAME is the Node's own, so that Node joined
// (a Pending kubernetes.io/kubelet-serving CSR breaks kubectl logs/exec, not registration:
// https://kubernetes.io/docs/reference/access-authn-authz/kubelet-tls-bootstrapping/#certificate-rotation).
// nil when the CSRs name no node or more than one, the list does not show it, or the node's
// logs hold the failures of another node.
func csrRequestorListed(ev *evidence.Evidence) *NodeState {
	if ev.Instance != nil || !ev.Have(evidence.KindCSRs) || !ev.Have(evidence.KindNodes) {
		return nil
	}
	name, csr := "", ""
	for _, c := range ev.CSRs {
		if c.State != "Pending" || !strings.HasPrefix(c.Username, "system:node:") {
			continue
		}
		n := strings.TrimPrefix(c.Username, "system:node:")
		if name != "" && n != name {
			return nil // the CSRs of several nodes: which one the input is about is unknown
		}
		name, csr = n, c.Name
	}
	n := listedNode(ev, name)
	if n == nil || ev.NodeLogs != nil && otherNodeFails(ev.NodeLogs, n.Name) {
		return nil
	}
	return &NodeState{Name: n.Name, Ready: n.Ready, Evidence: fmt.Sprintf("%s: Node %s is %s; %s: CSR %s Pending, requested by system:node:%s", ev.Source(evidence.KindNodes), n.Name,
		map[bool]string{true: "Ready", false: "NotReady"}[n.Ready], ev.Source(evidence.KindCSRs), csr, n.Name)}
}

// registeredClaim returns the Node of the target's Karpenter NodeClaim when its Registered
// condition is True and status.nodeName names it: Karpenter sets both only once it found the
// Node (kubernetes-sigs/karpenter pkg/controllers/nodeclaim/lifecycle/registration.go). The
// claim is the instance's (by provider ID) or, with no instance, the input's only NodeClaim.
// Ready is the node list's state when the list shows the Node, else the claim's Initialized
// condition: True, or Unknown for a reason Karpenter checks after the Node's Ready condition
// (StartupTaintsExist, …), is Ready; Unknown with NodeNotReady, or absent, is NotReady
// (lifecycle/initialization.go). nil otherwise, and when the node's logs hold another node's
// failures.
func registeredClaim(ev *evidence.Evidence) *NodeState {
	if !ev.Have(evidence.KindNodeClaims) {
		return nil
	}
	var nc *evidence.NodeClaim
	for i := range ev.NodeClaims {
		c := &ev.NodeClaims[i]
		switch {
		case ev.Instance != nil && c.InstanceID() == ev.Instance.ID:
			nc = c
		case ev.Instance == nil && len(ev.NodeClaims) == 1:
			nc = c
		}
	}
	if nc == nil || nc.NodeName == "" {
		return nil
	}
	if c, ok := nc.Condition("Registered"); !ok || c.Status != "True" {
		return nil
	}
	if ev.NodeLogs != nil && otherNodeFails(ev.NodeLogs, nc.NodeName) {
		return nil
	}
	src := ev.Source(evidence.KindNodeClaims)
	if n := listedNode(ev, nc.NodeName); n != nil {
		return &NodeState{Name: n.Name, Ready: n.Ready, Evidence: fmt.Sprintf("%s: Node %s is %s; %s: NodeClaim %s Registered=True", ev.Source(evidence.KindNodes), n.Name,
			map[bool]string{true: "Ready", false: "NotReady"}[n.Ready], src, nc.Name)}
	}
	ic, ok := nc.Condition("Initialized")
	ready := ok && (ic.Status == "True" || ic.Status == "Unknown" && ic.Reason != "NodeNotReady" && ic.Reason != "NodeNotFound" && ic.Reason != "")
	what := "Initialized absent"
	if ok {
		what = fmt.Sprintf("Initialized=%s (%s)", ic.Status, ic.Reason)
	}
	return &NodeState{Name: nc.NodeName, Ready: ready, Evidence: fmt.Sprintf("%s: NodeClaim %s Registered=True, nodeName %s, %s", src, nc.Name, nc.NodeName, what)}
}

// listedNode returns the Node named name in the cluster's node list, or nil (no list, no name).
func listedNode(ev *evidence.Evidence, name string) *evidence.Node {
	if name == "" || !ev.Have(evidence.KindNodes) {
		return nil
	}
	for i := range ev.Nodes {
		if ev.Nodes[i].Name == name {
			return &ev.Nodes[i]
		}
	}
	return nil
}

// ListedReady returns the name of the node whose failing line h a node list pasted with the
// logs (not the node's own log) ends by showing it Ready: a Node the logs registered (by name,
// the registered and ready lines' node facts) that the list shows Ready and that h names (its
// node facts), or any such Node when h names none; without a registration line, the one node all
// the lines name when the list shows it Ready (loggedListed). In one ticket the list is what the poster saw
// after the logs they quote. Lines naming only other nodes are not ended ("", false): with two
// nodes' logs pasted together, one node's readiness says nothing of the other's failure (red team
// round 7, finding 3). Runs about an instance (a snapshot and a bundle, collected apart) are left
// to the logs' own order.
func ListedReady(ev *evidence.Evidence, h evidence.SignatureHit) (string, bool) {
	if !ev.Have(evidence.KindNodes) || ev.Instance != nil || ev.NodeLogs == nil {
		return "", false
	}
	named := h.Facts["node"]
	for _, r := range ev.NodeLogs.Hits {
		if r.Milestone != "registered" && r.Milestone != "ready" {
			continue
		}
		for _, name := range r.Facts["node"] {
			if len(named) > 0 && !slices.ContainsFunc(named, func(n string) bool { return sameNode(n, name) }) {
				continue
			}
			if n := listedNode(ev, name); n != nil && n.Ready {
				return n.Name, true
			}
		}
	}
	// no registration line: the one node every line names, which the list shows Ready
	if st := loggedListed(ev); st != nil && st.Ready && (len(named) == 0 || slices.ContainsFunc(named, func(n string) bool { return sameNode(n, st.Name) })) {
		return st.Name, true
	}
	return "", false
}

// cutOff are the failures that stop a registered kubelet from renewing its lease and status:
// while they last, the Node goes NotReady.
var cutOff = []string{"runtime.unauthorized", "runtime.apiserver-timeout", "runtime.tls-untrusted", "runtime.exec-credential-failed", "runtime.kubelet-crashloop", "runtime.cni-not-ready"}

// cutOffAfter reports whether the logs show a cutOff failure still failing whose last line
// comes after line ready, of node name (lines naming only other nodes do not count).
func cutOffAfter(logs *evidence.NodeLogs, ready evidence.LogLine, name string) bool {
	for _, id := range cutOff {
		t := judgeTestimony(logs, id)
		if t.state != testimonyFailing {
			continue
		}
		for _, h := range t.failing {
			if nodes := h.Facts["node"]; name != "" && len(nodes) > 0 && !slices.ContainsFunc(nodes, func(n string) bool { return sameNode(n, name) }) {
				continue
			}
			if logscan.Later(h.Last, ready) {
				return true
			}
		}
	}
	return false
}

// otherNodeFails reports whether a cutOff failure still failing names nodes (its lines' node
// facts and journal hosts, hitNodes) of which name is none: the logs' failures are another node's.
func otherNodeFails(logs *evidence.NodeLogs, name string) bool {
	for _, id := range cutOff {
		t := judgeTestimony(logs, id)
		if t.state != testimonyFailing {
			continue
		}
		if disjointNodes(hitsNodes(t.failing), []string{name}) {
			return true
		}
	}
	return false
}

// sameNode reports whether two node names are one node's: equal, or equal in their first label
// (ip-10-0-12-34 and ip-10-0-12-34.ec2.internal: a journal's host and the kubelet's node name).
func sameNode(a, b string) bool {
	a, _, _ = strings.Cut(a, ".")
	b, _, _ = strings.Cut(b, ".")
	return a != "" && strings.EqualFold(a, b)
}

// otherNodes reports whether hits a and b both name nodes (hitNodes: node facts and journal
// hosts) and none in common: one node's healthy progress says nothing of another's failure.
func otherNodes(a []evidence.SignatureHit, b evidence.SignatureHit) bool {
	return disjointNodes(hitsNodes(a), hitNodes(b))
}

// disjointNodes reports whether both lists name a node and none in common (sameNode).
func disjointNodes(an, bn []string) bool {
	if len(an) == 0 || len(bn) == 0 {
		return false
	}
	for _, x := range an {
		for _, y := range bn {
			if sameNode(x, y) {
				return false
			}
		}
	}
	return true
}

// hitNodes returns the nodes hit h's lines are about: its node facts (node="…" of a kubelet
// line) and the journal hosts of its first and last lines ("Nov 24 10:00:01 HOST kubelet[…]:"),
// the host the line was logged on. A line such as "Fast updating node status as it just became
// ready" names no node but its host: two nodes' journals pasted together are told apart by it
// (red team round 8b, finding 02). Nil when the lines name neither.
func hitNodes(h evidence.SignatureHit) []string {
	out := slices.Clone(h.Facts["node"])
	for _, l := range []evidence.LogLine{h.First, h.Last} {
		if host := JournalHost(l.Text); host != "" && !slices.ContainsFunc(out, func(n string) bool { return sameNode(n, host) }) {
			out = append(out, host)
		}
	}
	return out
}

// hitsNodes returns hitNodes of every hit, each node once.
func hitsNodes(hits []evidence.SignatureHit) []string {
	var out []string
	for _, h := range hits {
		for _, n := range hitNodes(h) {
			if !slices.ContainsFunc(out, func(m string) bool { return sameNode(m, n) }) {
				out = append(out, n)
			}
		}
	}
	return out
}

// journalHostRe finds the host of a syslog-style journal line ("Nov 23 10:11:52 HOST unit[pid]:",
// journalctl's default short output: https://www.freedesktop.org/software/systemd/man/latest/journalctl.html).
var journalHostRe = regexp.MustCompile(`^[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2}(?:\.\d+)? (\S+) \S+?(?:\[\d+\])?: `)

// journalISOHostRe finds the host of a journal line in journalctl's short-iso or
// short-iso-precise output ("2026-11-24T10:01:01+0000 HOST kubelet[2345]:"), the form a
// shipped journald record is read as ("… HOST kubelet.service:", collectors/ingest): the
// identifier must carry a PID or be a unit's name, so an ISO-dated line of another log
// ("2026-11-24T10:01:01Z info controller: …") names no host.
var journalISOHostRe = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d) ([\w.-]+) (?:[\w.@/-]+\[\d+\]|[\w@-]+\.(?:service|scope)): `)

// JournalHost returns the host of a syslog-style journal line (journalctl's short output:
// "Nov 23 10:11:52 ip-10-0-1-23.ec2.internal kubelet[2990]: …", or its short-iso outputs:
// "2026-11-24T10:01:01+0000 ip-10-0-1-23 kubelet[2990]: …"), or "" for any other line.
func JournalHost(line string) string {
	line = strings.TrimSpace(line)
	if m := journalHostRe.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	if m := journalISOHostRe.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	return ""
}

// registeredHit reports whether the logs show a Node registering or becoming Ready.
func registeredHit(logs *evidence.NodeLogs) bool {
	for _, h := range logs.Hits {
		if h.Milestone == "registered" || h.Milestone == "ready" {
			return true
		}
	}
	return false
}
