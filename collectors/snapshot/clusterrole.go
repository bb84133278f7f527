package snapshot

import (
	"fmt"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func init() {
	RegisterProviderAt(StageResources, (*Snapshot).loadClusterRole, evidence.KindClusterRole, evidence.KindClusterRolePolicies)
}

// loadClusterRole reads the role named by the cluster's roleArn and its attached managed
// policies from the same iam/ files as the node role (iam/get-role/<name>.json,
// iam/list-attached-role-policies/<name>.json). A NoSuchEntity answer is a fact: the role was
// deleted. It needs ev.Cluster; without it both kinds get the cluster's gap.
func (s *Snapshot) loadClusterRole(ev *evidence.Evidence) {
	if !ev.Have(evidence.KindCluster) {
		why := "the cluster was not collected (" + ev.GapFor(evidence.KindCluster).Reason + ")"
		ev.AddGap(evidence.KindClusterRole, why)
		ev.AddGap(evidence.KindClusterRolePolicies, why)
		return
	}
	arn := ev.Cluster.RoleArn
	if arn == "" {
		ev.AddGap(evidence.KindClusterRole, "describe-cluster names no roleArn")
		ev.AddGap(evidence.KindClusterRolePolicies, "describe-cluster names no roleArn")
		return
	}
	name := nameFromArn(arn)
	p := "iam/get-role/" + name + ".json"
	res, reason := decodeInto(s, p, func(o *GetRoleOutput) {
		ev.ClusterRole = &evidence.ClusterRole{Role: convertRole(o.Role)}
	})
	switch res {
	case readOK:
		ev.Mark(evidence.KindClusterRole, s.src(p))
	case readNotFound:
		ev.ClusterRole = &evidence.ClusterRole{Role: evidence.Role{Name: name, Arn: arn}, Missing: true}
		ev.Mark(evidence.KindClusterRole, s.src(p)+" ("+reason+")")
	default:
		ev.AddGap(evidence.KindClusterRole, reason)
	}
	if ev.ClusterRole != nil && ev.ClusterRole.Missing {
		ev.AddGap(evidence.KindClusterRolePolicies, fmt.Sprintf("the cluster role %s does not exist", name))
		return
	}
	p = "iam/list-attached-role-policies/" + name + ".json"
	res, reason = decodeInto(s, p, func(o *ListAttachedRolePoliciesOutput) {
		ev.ClusterRolePolicies = []evidence.AttachedPolicy{}
		for _, ap := range o.AttachedPolicies {
			ev.ClusterRolePolicies = append(ev.ClusterRolePolicies, evidence.AttachedPolicy{Name: ap.PolicyName, Arn: ap.PolicyArn})
		}
	})
	s.markFound(ev, evidence.KindClusterRolePolicies, res, reason, p, true, "")
}
