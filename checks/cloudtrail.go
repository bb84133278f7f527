package checks

import (
	"fmt"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// launchMargin reaches back from the earliest pending launch for the failed attempts just
// before it: an Auto Scaling group or Karpenter retries within minutes, and the instance that
// finally launched comes after its failed siblings.
const launchMargin = 15 * time.Minute

// withCloudTrail gives nodegroup.launch-errors and auth.mapping-removed their judgement from
// CloudTrail (KindLaunchEvents, KindAccessEntryEvents): each then needs either its former
// evidence or the CloudTrail kind, judges both when present (failures first), and is cluster-wide
// — an EC2 launch error or a deleted node access entry concerns every node of the group or role,
// so `scan` reports it for the cluster and `why-not-joining` for the NodeClaim or node it affects.
func withCloudTrail(list []Check) []Check {
	for i := range list {
		m := &list[i].Meta
		former := list[i].Eval
		switch m.ID {
		case "nodegroup.launch-errors":
			m.NeedsAny = appendKinds(append(m.Needs, m.NeedsAny...), evidence.KindLaunchEvents)
			m.Needs, m.ClusterWide = nil, true
			list[i].Eval = func(ev *evidence.Evidence) []Finding {
				trail := ev.Have(evidence.KindLaunchEvents) && (ev.Instance == nil || !ev.Have(evidence.KindNodeLogs))
				if !trail {
					return former(ev)
				}
				out := evalLaunchEvents(ev)
				if ev.Have(evidence.KindNodeLogs) {
					out = merge(out, former(ev))
				}
				return out
			}
		case "auth.mapping-removed":
			m.NeedsAny = appendKinds(append(m.Needs, m.NeedsAny...), evidence.KindAccessEntryEvents)
			m.Needs, m.ClusterWide = nil, true
			m.Optional = appendKinds(m.Optional, evidence.KindAccessEntries, evidence.KindAWSAuth, evidence.KindCluster, evidence.KindNodegroups)
			list[i].Eval = func(ev *evidence.Evidence) []Finding {
				var out []Finding
				if ev.Have(evidence.KindMappingChanges) {
					out = former(ev)
				}
				if ev.Have(evidence.KindAccessEntryEvents) {
					out = merge(out, evalAccessEntryEvents(ev))
				}
				return out
			}
		}
	}
	return list
}

func appendKinds(l []evidence.Kind, ks ...evidence.Kind) []evidence.Kind {
	out := append([]evidence.Kind(nil), l...)
	for _, k := range ks {
		if !hasKindIn(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func hasKindIn(l []evidence.Kind, k evidence.Kind) bool {
	for _, x := range l {
		if x == k {
			return true
		}
	}
	return false
}

// merge joins two judgements of one check: the failures (and warnings) of both when there are
// any, else everything both said.
func merge(a, b []Finding) []Finding {
	var bad, all []Finding
	for _, f := range append(append([]Finding(nil), a...), b...) {
		all = append(all, f)
		if f.Status == StatusFail || f.Status == StatusWarn || f.Status == StatusError {
			bad = append(bad, f)
		}
	}
	if len(bad) > 0 {
		return bad
	}
	var judged []Finding
	for _, f := range all {
		if f.Status != StatusSkipped {
			judged = append(judged, f)
		}
	}
	if len(judged) > 0 {
		return judged
	}
	return all
}

// launchWindow returns the earliest time a launch error can concern the target: the earliest
// pending launch (the NodeClaim's creation, the instances' LaunchTime, the unregistered
// NodeClaims' creation for the cluster) minus launchMargin; zero when nothing dates it (the
// events file itself starts there).
func launchWindow(ev *evidence.Evidence) time.Time {
	var t time.Time
	earliest := func(x time.Time) {
		if !x.IsZero() && (t.IsZero() || x.Before(t)) {
			t = x
		}
	}
	if ev.NodeClaim != nil && ev.Instance == nil {
		earliest(ev.NodeClaim.Created)
	} else {
		le, _ := evidence.Get[evidence.LaunchEvents](ev, evidence.KindLaunchEvents)
		earliest(le.EarliestLaunch)
		if ev.Instance == nil {
			for _, nc := range ev.NodeClaims {
				if c, ok := nc.Condition("Registered"); !ok || c.Status != "True" {
					earliest(nc.Created)
				}
			}
		}
	}
	if t.IsZero() {
		return t
	}
	return t.Add(-launchMargin)
}

// launchGroup names what asked for a launch: its Auto Scaling group, Karpenter NodePool or
// NodeClaim, else the calling role.
func launchGroup(e evidence.TrailEvent) string {
	switch {
	case e.AutoScalingGroup != "":
		return "Auto Scaling group " + e.AutoScalingGroup
	case e.NodePool != "":
		return "Karpenter NodePool " + e.NodePool
	case e.NodeClaim != "":
		return "Karpenter NodeClaim " + e.NodeClaim
	case e.CallerRole != "":
		return "role " + e.CallerRole[strings.LastIndexByte(e.CallerRole, '/')+1:]
	}
	return "caller " + e.Caller
}

// callerOf describes who called: the Auto Scaling service-linked role, Karpenter's controller
// role, or the identity CloudTrail names.
func callerOf(e evidence.TrailEvent) string {
	who := e.Caller
	if who == "" {
		who = e.User
	}
	switch {
	case e.InvokedBy == "autoscaling.amazonaws.com" || strings.Contains(e.CallerRole, "AWSServiceRoleForAutoScaling"):
		return "the Auto Scaling service-linked role (" + who + ")"
	case e.NodeClaim != "" || e.NodePool != "":
		return "the Karpenter controller role (" + who + ")"
	}
	return who
}

func trailTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// evalLaunchEvents judges RunInstances / CreateFleet events from the launch window on: a group
// whose last launch in the window failed (no later launch of the group made an instance) fails,
// quoting the event's time, name, error code and message and the caller. A NodeClaim's diagnosis
// judges only the requests tagged with its name; an instance's diagnosis judges nothing here
// (the instance was launched).
func evalLaunchEvents(ev *evidence.Evidence) []Finding {
	if ev.Instance != nil {
		return one(notApplicable(ev.Target.InstanceID, fmt.Sprintf("instance %s was launched; EC2 launch errors concern launches that made no instance (eksdoctor scan reports them for the cluster)", ev.Instance.ID)))
	}
	since := launchWindow(ev)
	claim := ""
	if ev.NodeClaim != nil {
		claim = ev.NodeClaim.Name
	}
	type group struct {
		failed  []evidence.TrailEvent
		success *evidence.TrailEvent
	}
	groups := map[string]*group{}
	var order []string
	n := 0
	le, _ := evidence.Get[evidence.LaunchEvents](ev, evidence.KindLaunchEvents)
	for _, e := range le.Events {
		if (!since.IsZero() && e.Time.Before(since)) || (!ev.CollectedAt.IsZero() && e.Time.After(ev.CollectedAt)) {
			continue
		}
		if claim != "" && e.NodeClaim != claim {
			continue
		}
		n++
		k := launchGroup(e)
		g := groups[k]
		if g == nil {
			g = &group{}
			groups[k] = g
			order = append(order, k)
		}
		switch {
		case e.Failed():
			if g.success != nil && !g.success.Time.Before(e.Time) {
				continue
			}
			g.failed, g.success = append(g.failed, e), nil
		case e.ErrorCode == "" && len(e.Instances) > 0:
			ok := e
			g.success, g.failed = &ok, nil // a later launch made an instance: the group recovered
		}
	}
	from := "the events read"
	if !since.IsZero() {
		from = "events since " + trailTime(since)
	}
	resourceOf := func(k string) string {
		if claim != "" {
			return claim
		}
		return k
	}
	var out []Finding
	for _, k := range order {
		g := groups[k]
		if len(g.failed) == 0 {
			continue
		}
		last := g.failed[len(g.failed)-1]
		code, msg := last.Err()
		times := ""
		if len(g.failed) > 1 {
			times = fmt.Sprintf(" (%d failed requests from %s)", len(g.failed), trailTime(g.failed[0].Time))
		}
		var its []EvidenceItem
		seen := map[string]bool{}
		for i := len(g.failed) - 1; i >= 0 && len(its) < 3; i-- {
			e := g.failed[i]
			c, m := e.Err()
			if seen[c+m] {
				continue
			}
			seen[c+m] = true
			what := ""
			if e.InstanceType != "" {
				what = " " + e.InstanceType
			}
			its = append(its, item(e.Source, "%s %s%s by %s: %s: %s", trailTime(e.Time), e.Name, what, callerOf(e), c, m))
		}
		f := fail(resourceOf(k), fmt.Sprintf("EC2 refused the launch of %s: %s %s at %s by %s: %s: %s%s",
			k, last.Name, "failed", trailTime(last.Time), callerOf(last), code, msg, times), its...)
		f.Remediation = archMismatchFix(ev, msg)
		out = append(out, f)
	}
	if len(out) > 0 {
		return out
	}
	src := ev.Source(evidence.KindLaunchEvents)
	target := "the cluster"
	if claim != "" {
		target = "NodeClaim " + claim
	}
	return one(pass(resourceOf(target), fmt.Sprintf("%s: %d RunInstances / CreateFleet event%s for %s, none left a launch failed", from, n, plural(int64(n)), target),
		item(src, "%d launch event%s read", len(le.Events), plural(int64(len(le.Events))))))
}

// nodePrincipals are the role ARNs (or names) whose access entry nodes of the target need: the
// instance's node role, else every node role the cluster's evidence names (node groups, Karpenter
// and Auto Mode node classes, aws-auth node mappings, node-type access entries, Fargate pod
// execution roles).
func nodePrincipals(ev *evidence.Evidence) []string {
	if r := nodeRoleArn(ev); r != "" {
		return []string{r}
	}
	var out []string
	for _, ng := range ev.Nodegroups {
		out = append(out, ng.NodeRole)
	}
	for _, nc := range ev.NodeClasses {
		out = append(out, nc.Role)
	}
	if ev.AWSAuth != nil {
		for _, m := range ev.AWSAuth.Roles {
			if isNodeMapping(m) {
				out = append(out, m.RoleArn)
			}
		}
	}
	for _, a := range ev.AccessEntries {
		if isNodeEntryType(a.Type) || a.Type == "FARGATE_LINUX" {
			out = append(out, a.PrincipalArn)
		}
	}
	for _, p := range ev.Fargate.Profiles {
		out = append(out, p.PodExecutionRoleArn)
	}
	return out
}

func isNodeEntryType(t string) bool {
	return t == "EC2_LINUX" || t == "EC2_WINDOWS" || t == "EC2" || t == "HYBRID_LINUX"
}

// roleName returns the role name of a role ARN (without path) or a bare name, lower-cased.
func roleName(arnOrName string) string {
	s := strings.ToLower(strings.TrimSpace(arnOrName))
	return s[strings.LastIndexByte(s, '/')+1:]
}

// isNodePrincipal reports whether principal is one of the node roles (matched by role name, as
// the authenticator ignores paths); it returns the node role it matched.
func isNodePrincipal(principal string, roles []string) (string, bool) {
	if !strings.Contains(principal, ":role/") {
		return "", false
	}
	for _, r := range roles {
		if r != "" && roleName(r) == roleName(principal) {
			return r, true
		}
	}
	return "", false
}

// evalAccessEntryEvents judges DeleteAccessEntry / UpdateAccessEntry events of this cluster that
// succeeded (every role's when the evidence names no node role, as for a pasted event list):
// deleting a node role's access entry fails unless the role is mapped again now (an
// access entry re-created since, or aws-auth read by the cluster's authentication mode); an
// update of a node role's entry fails when it sets Kubernetes groups without system:nodes or a
// username that is not a node's.
func evalAccessEntryEvents(ev *evidence.Evidence) []Finding {
	src := ev.Source(evidence.KindAccessEntryEvents)
	roles := nodePrincipals(ev)
	cluster := ev.Target.Cluster
	what := "node role"
	if len(roles) == 0 {
		what = "role (no node role is known here)"
	}
	var out []Finding
	n := 0
	changes, _ := evidence.Get[evidence.AccessEntryEvents](ev, evidence.KindAccessEntryEvents)
	for _, e := range changes {
		if e.ErrorCode != "" || (cluster != "" && e.Cluster != "" && e.Cluster != cluster) {
			continue // a failed call changed nothing; another cluster's entry is not this one's
		}
		if !ev.CollectedAt.IsZero() && e.Time.After(ev.CollectedAt) {
			continue
		}
		n++
		if _, ok := isNodePrincipal(e.PrincipalArn, roles); !ok && !(len(roles) == 0 && strings.Contains(e.PrincipalArn, ":role/")) {
			continue // with no node role known (a pasted event list), every role's entry counts
		}
		who := e.Caller
		if who == "" {
			who = e.User
		}
		it := item(e.Source, "%s %s of %s (cluster %s) by %s", trailTime(e.Time), e.Name, e.PrincipalArn, e.Cluster, who)
		switch e.Name {
		case "DeleteAccessEntry":
			if a := nodeAccessEntry(ev, e.PrincipalArn); a != nil && isNodeEntryType(a.Type) {
				continue // re-created since: mapped again
			}
			if m := roleMatches(ev.AWSAuth, e.PrincipalArn); len(m) > 0 && isNodeMapping(m[len(m)-1]) && authMode(ev) != "API" {
				continue // aws-auth still maps it and the cluster reads aws-auth
			}
			now := ""
			if ev.Have(evidence.KindAccessEntries) {
				now = "; the cluster has no access entry for it now"
			}
			out = append(out, fail(e.PrincipalArn, fmt.Sprintf("%s deleted the access entry of %s %s at %s (DeleteAccessEntry on cluster %s)%s",
				who, what, e.PrincipalArn, trailTime(e.Time), e.Cluster, now), it))
		case "UpdateAccessEntry":
			var why []string
			if e.GroupsSet && !hasString(e.EntryGroups, "system:nodes") {
				why = append(why, "Kubernetes groups ["+strings.Join(e.EntryGroups, ", ")+"] without system:nodes")
			}
			if e.EntryUsername != "" && !strings.HasPrefix(e.EntryUsername, "system:node:") {
				why = append(why, "username "+e.EntryUsername+", not system:node:…")
			}
			if len(why) == 0 {
				continue
			}
			out = append(out, fail(e.PrincipalArn, fmt.Sprintf("%s changed the access entry of %s %s at %s (UpdateAccessEntry on cluster %s): %s",
				who, what, e.PrincipalArn, trailTime(e.Time), e.Cluster, strings.Join(why, "; ")), it))
		}
	}
	if len(out) > 0 {
		return out
	}
	return one(pass("access entries", fmt.Sprintf("%d access-entry change%s of this cluster, none unmaps a node role", n, plural(int64(n))),
		item(src, "%d DeleteAccessEntry / UpdateAccessEntry event%s read", len(changes), plural(int64(len(changes))))))
}
