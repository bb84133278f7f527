package snapshot

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func init() {
	RegisterProviderAt(StageResources, (*Snapshot).loadNodegroups, evidence.KindNodegroups)
	RegisterProviderAt(StageResources, (*Snapshot).loadAccessEntries, evidence.KindAccessEntries)
}

// loadNodegroups reads the cluster's managed node groups: every describe-nodegroup file, and
// list-nodegroups (when present) saying the list itself was read.
func (s *Snapshot) loadNodegroups(ev *evidence.Evidence) {
	// A read list means a self-managed node in a cluster with node groups is still judged.
	files := s.dirFiles("eks/describe-nodegroup")
	listRes, listReason := s.decode("eks/list-nodegroups.json", func(json.RawMessage) error { return nil })
	// A list that is present but unreadable (an error, or not list-nodegroups output) leaves
	// the set of node groups unknown, whatever describe files there are.
	ok := listRes == readOK || len(files) > 0 && listRes != readGap
	for _, p := range files {
		res, reason := decodeInto(s, p, func(o *DescribeNodegroupOutput) {
			n := o.Nodegroup
			ng := evidence.Nodegroup{Name: n.NodegroupName, Status: n.Status, Version: n.Version, ReleaseVersion: n.ReleaseVersion,
				AmiType: n.AmiType, NodeRole: n.NodeRole, Subnets: n.Subnets, LaunchTemplateID: n.LaunchTemplate.ID, LaunchTemplateVersion: n.LaunchTemplate.Version}
			for _, a := range n.Resources.AutoScalingGroups {
				ng.AutoScalingGroups = append(ng.AutoScalingGroups, a.Name)
			}
			for _, i := range n.Health.Issues {
				ng.HealthIssues = append(ng.HealthIssues, evidence.HealthIssue{Code: i.Code, Message: i.Message, ResourceIDs: i.ResourceIDs})
			}
			ev.Nodegroups = append(ev.Nodegroups, ng)
		})
		if res != readOK && res != readNotFound {
			ok = false
			ev.AddGap(evidence.KindNodegroups, reason)
		}
	}
	if name := nodegroupTag(ev); ok && name != "" && !slices.ContainsFunc(ev.Nodegroups, func(ng evidence.Nodegroup) bool { return ng.Name == name }) {
		// the node's own group (its eks:nodegroup-name tag) was not described: what the
		// node group checks would judge for this node is not in the evidence
		if p := "eks/describe-nodegroup/" + name + ".json"; !slices.Contains(files, p) {
			ok = false
			ev.AddGap(evidence.KindNodegroups, "the node's managed node group "+name+" is not described: "+s.missing(p))
		}
	}
	switch {
	case ok && len(files) > 0:
		ev.Mark(evidence.KindNodegroups, s.src("eks/describe-nodegroup/"))
	case ok:
		ev.Mark(evidence.KindNodegroups, s.src("eks/list-nodegroups.json"))
	case len(files) == 0 || listRes == readGap:
		ev.AddGap(evidence.KindNodegroups, listReason)
	}
}

// nodegroupTag is the managed node group the target instance belongs to by its
// eks:nodegroup-name tag ("" without an instance or the tag).
func nodegroupTag(ev *evidence.Evidence) string {
	if ev.Instance == nil {
		return ""
	}
	return ev.Instance.Tags["eks:nodegroup-name"]
}

// loadAccessEntries reads the cluster's access entries (list-access-entries) and each entry's
// describe-access-entry file; an entry whose file is damaged or denied keeps that reason. Without
// the list, the described entries go to Evidence.DescribedAccessEntries (the set is unknown).
func (s *Snapshot) loadAccessEntries(ev *evidence.Evidence) {
	p := "eks/list-access-entries.json"
	var principals []string
	res, reason := decodeInto(s, p, func(o *ListAccessEntriesOutput) { principals = append(principals, o.AccessEntries...) })
	listed := res == readOK
	if !listed {
		ev.AddGap(evidence.KindAccessEntries, reason)
	}
	described := map[string]evidence.AccessEntry{}
	gaps := map[string]string{} // by file name (the role name)
	for _, f := range s.dirFiles("eks/describe-access-entry") {
		res, reason := decodeInto(s, f, func(o *DescribeAccessEntryOutput) {
			a := o.AccessEntry
			e := evidence.AccessEntry{PrincipalArn: a.PrincipalArn, Type: a.Type, Username: a.Username, KubernetesGroups: a.KubernetesGroups, Described: true}
			described[a.PrincipalArn] = e
			if !listed && a.PrincipalArn != "" {
				e.Source = s.src(f)
				ev.DescribedAccessEntries = append(ev.DescribedAccessEntries, e)
			}
		})
		if res == readGap {
			gaps[strings.TrimSuffix(path.Base(f), ".json")] = reason
		}
	}
	if !listed {
		return
	}
	for _, pa := range principals {
		if d, ok := described[pa]; ok {
			ev.AccessEntries = append(ev.AccessEntries, d)
		} else {
			ev.AccessEntries = append(ev.AccessEntries, evidence.AccessEntry{PrincipalArn: pa, DescribeGap: gaps[nameFromArn(pa)]})
		}
	}
	ev.Mark(evidence.KindAccessEntries, s.src(p))
}
