package checks

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/arn"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/userdata"
)

const (
	docAutoModeNodeClass = "https://docs.aws.amazon.com/eks/latest/userguide/create-node-class.html"
	docAutoModeTS        = "https://docs.aws.amazon.com/eks/latest/userguide/auto-troubleshoot.html"
	docAutoModeNodeRole  = "https://docs.aws.amazon.com/eks/latest/userguide/auto-create-node-role.html"
)

// Provisioner kinds a check judges (Meta.AppliesTo).
var (
	karpenterLike = []string{evidence.ProvisionerKarpenter, evidence.ProvisionerAutoMode}
	nodegroupLike = []string{evidence.ProvisionerManagedNodegroup, evidence.ProvisionerSelfManaged}
)

// structuredKarpenter gives the log-signature karpenter.* checks of provisionerChecks their
// judgement from Karpenter's own objects (NodeClaims, EC2NodeClasses): each then needs either
// the node logs or the structured kind, judges the structured evidence when present and adds a
// failing log testimony to it.
func structuredKarpenter(list []Check) []Check {
	type upgrade struct {
		kind        evidence.Kind
		eval        func(ev *evidence.Evidence) []Finding
		clusterWide bool
	}
	up := map[string]upgrade{
		"karpenter.nodeclaim-not-launched":   {evidence.KindNodeClaims, evalNodeClaimLaunched, true},
		"karpenter.nodeclaim-not-registered": {evidence.KindNodeClaims, evalNodeClaimRegistered, true},
		"karpenter.nodeclass-not-ready":      {evidence.KindEC2NodeClasses, evalNodeClassReady(false), true},
		"karpenter.userdata-format":          {evidence.KindEC2NodeClasses, evalNodeClassUserData, true},
		"karpenter.instance-profile":         {evidence.KindEC2NodeClasses, evalNodeClassInstanceProfile, true},
	}
	for i := range list {
		u, ok := up[list[i].Meta.ID]
		if !ok {
			continue
		}
		m := &list[i].Meta
		m.Needs, m.NeedsAny = nil, []evidence.Kind{evidence.KindNodeLogs, u.kind}
		m.ClusterWide = u.clusterWide
		m.AppliesTo = karpenterLike
		if u.kind == evidence.KindEC2NodeClasses {
			// EKS Auto Mode launches from its own NodeClasses (automode.* checks)
			m.AppliesTo = []string{evidence.ProvisionerKarpenter}
		}
		if m.ID == "karpenter.instance-profile" {
			// an unmapped node role launches nodes that never register
			m.Optional = append(m.Optional, evidence.KindAccessEntries, evidence.KindAWSAuth)
			m.Explains = append(append([]string(nil), m.Explains...), "karpenter.nodeclaim-not-registered")
		}
		if m.ID == "karpenter.userdata-format" {
			// Karpenter cannot merge user data of another format: the launch itself fails
			m.Explains = append(append([]string(nil), m.Explains...), "karpenter.nodeclaim-not-launched")
		}
		logs := list[i].Eval
		eval, kind := u.eval, u.kind
		list[i].Eval = func(ev *evidence.Evidence) []Finding {
			if !ev.Have(kind) {
				// without the object only Karpenter's log can tell; when it says nothing either,
				// for a node Karpenter launched the object is the evidence missing (Judge:
				// inconclusive, not "no cause"); for a node nothing shows Karpenter launched
				// (a log bundle alone), the check has nothing to judge
				out := logs(ev)
				launched := ev.Provisioner.Kind == evidence.ProvisionerKarpenter || ev.Provisioner.Kind == evidence.ProvisionerAutoMode
				for j, f := range out {
					switch {
					case f.Status != StatusSkipped || strings.HasPrefix(f.Message, "missing evidence") || strings.HasPrefix(f.Message, "not applicable"):
					case launched:
						out[j].Message = fmt.Sprintf("missing evidence: %s (%s), and %s", kind, ev.GapFor(kind).Reason, f.Message)
					default:
						out[j].Message = "not applicable: nothing in the evidence shows Karpenter launched this node (no karpenter.sh tag, NodeClaim or Karpenter log line)"
					}
				}
				return out
			}
			out := eval(ev)
			if ev.Have(evidence.KindNodeLogs) {
				for _, f := range logs(ev) {
					if f.Status == StatusFail {
						out = append(out, f)
					}
				}
			}
			return out
		}
	}
	return list
}

// karpenterChecks are the Auto Mode checks judged from structured evidence only.
func karpenterChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "automode.nodeclass-not-ready", ClusterWide: true, AppliesTo: []string{evidence.ProvisionerAutoMode},
			Title: "An EKS Auto Mode NodeClass is not Ready", Severity: SeverityCritical,
			// an Auto Mode NodeClass has Karpenter's condition types (SecurityGroupsReady …): the
			// same False condition read as a line fails karpenter.nodeclass-not-ready too
			Needs: []evidence.Kind{evidence.KindNodeClasses}, Stage: StageCluster, Explains: explains("karpenter.nodeclaim-not-launched", "karpenter.nodeclass-not-ready"),
			Why:         "EKS Auto Mode launches nodes only from a NodeClass whose subnets, security groups and instance profile resolved; a NodeClass that is not Ready launches nothing, so its NodePools stay empty.",
			Remediation: "kubectl describe nodeclass.eks.amazonaws.com NAME names the False condition: fix spec.subnetSelectorTerms / spec.securityGroupSelectorTerms so they match resources in the cluster VPC, and make spec.role an IAM role with an EC2 access entry (aws eks create-access-entry --cluster-name CLUSTER --principal-arn ROLE_ARN --type EC2), AmazonEKSWorkerNodeMinimalPolicy and AmazonEC2ContainerRegistryPullOnly attached and a trust policy for ec2.amazonaws.com.",
			Docs:        []string{docAutoModeNodeClass, docAutoModeNodeRole, docAutoModeTS}},
			Eval: evalNodeClassReady(true)},
		{Meta: Meta{ID: "karpenter.nodeclass-network", ClusterWide: true, AppliesTo: karpenterLike,
			Title: "A node class selects subnets outside the cluster VPC or no security group the control plane can reach", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCluster, evidence.KindSubnets}, NeedsAny: []evidence.Kind{evidence.KindEC2NodeClasses, evidence.KindNodeClasses},
			Optional: []evidence.Kind{evidence.KindSecurityGroups}, Stage: StageCluster,
			// CreateFleet's refusal of a subnet and a security group of different VPCs is also a
			// launch error the node group signatures read
			Explains:    explains("karpenter.nodeclaim-not-registered", "karpenter.nodeclaim-not-launched", "nodegroup.launch-errors", "net.*", "runtime.apiserver-timeout"),
			Why:         "Karpenter launches nodes into whatever subnets and security groups the node class's selector terms resolve to. A subnet of another VPC (a discovery tag shared with another cluster) gives nodes no route to this cluster's private endpoint, and security groups that are neither the cluster security group nor admitted by it keep the control plane and the kubelet apart, so the node never registers.",
			Remediation: "Make spec.subnetSelectorTerms match only subnets of the cluster VPC (tag them karpenter.sh/discovery: CLUSTER, or list their IDs) and spec.securityGroupSelectorTerms select the cluster security group CLUSTER_SG (or a group the cluster security group admits); then kubectl get ec2nodeclass NAME -o yaml shows the resolved status.subnets and status.securityGroups.",
			Docs:        []string{docKarpenterNodeCls, docKarpenterTS}},
			Eval: evalNodeClassNetwork},
		{Meta: Meta{ID: "automode.node-role", ClusterWide: true, AppliesTo: []string{evidence.ProvisionerAutoMode},
			Title: "An EKS Auto Mode node role has no access entry of type EC2", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCluster, evidence.KindAccessEntries}, Optional: []evidence.Kind{evidence.KindNodeClasses},
			Stage: StageCluster, Explains: explains("automode.nodeclass-not-ready", "karpenter.nodeclaim-not-launched", "karpenter.nodeclaim-not-registered", "auth.*"),
			Why:         "EKS Auto Mode admits a node only when its role (computeConfig nodeRoleArn for the built-in NodePools, spec.role of a custom NodeClass) has an access entry of type EC2, which maps it to the node identity with the policy AmazonEKSAutoNodePolicy; without it the NodeClass cannot use the role and no node joins.",
			Remediation: "aws eks create-access-entry --cluster-name CLUSTER --principal-arn ROLE_ARN --type EC2, then aws eks associate-access-policy --cluster-name CLUSTER --principal-arn ROLE_ARN --policy-arn arn:aws:eks::aws:cluster-access-policy/AmazonEKSAutoNodePolicy --access-scope type=cluster (an entry of another type must be deleted and created again: its type cannot change). The role needs AmazonEKSWorkerNodeMinimalPolicy and AmazonEC2ContainerRegistryPullOnly and a trust policy for ec2.amazonaws.com.",
			Docs:        []string{docAutoModeNodeRole, docAccessEntries, docAutoModeTS}},
			Eval: evalAutoModeNodeRole, Partial: partialAutoModeNodeRole},
	}
}

// autoModeRoles returns the Auto Mode node roles of the cluster (ARN → where it is named):
// computeConfig nodeRoleArn and the spec.role of each Auto Mode NodeClass (a role name is
// completed with the cluster's account).
func autoModeRoles(ev *evidence.Evidence) (arns []string, from map[string]string) {
	from = map[string]string{}
	add := func(arn, why string) {
		if arn == "" {
			return
		}
		if _, ok := from[arn]; !ok {
			arns = append(arns, arn)
			from[arn] = why
		}
	}
	if cc := ev.Cluster.ComputeConfig; cc != nil {
		add(cc.NodeRoleArn, "computeConfig nodeRoleArn")
	}
	account := ""
	if parts := strings.Split(ev.Cluster.Arn, ":"); len(parts) > 4 {
		account = parts[4]
	}
	if account == "" {
		account = entriesAccount(ev.AccessEntries)
	}
	classes, _ := classesInScope(ev, true)
	for _, nc := range classes {
		arn := nc.Role
		if !strings.HasPrefix(arn, "arn:") && arn != "" && account != "" {
			arn = "arn:aws:iam::" + account + ":role/" + arn
		}
		if strings.HasPrefix(arn, "arn:") {
			add(arn, "NodeClass "+nc.Name+" spec.role")
		}
	}
	return arns, from
}

// autoModeOn reports whether EKS Auto Mode is enabled on the cluster: its computeConfig says so,
// or, when the cluster's output does not show computeConfig (describe-cluster narrowed by
// --query), the cluster has Auto Mode NodeClasses (nodeclasses.eks.amazonaws.com exists only on
// clusters with Auto Mode; https://docs.aws.amazon.com/eks/latest/userguide/create-node-class.html).
func autoModeOn(ev *evidence.Evidence) bool {
	if cc := ev.Cluster.ComputeConfig; cc != nil {
		return cc.Enabled
	}
	return slices.ContainsFunc(ev.NodeClasses, func(nc evidence.NodeClass) bool { return nc.AutoMode })
}

// entriesAccount returns the account every access entry's principal belongs to, or "" when the
// entries name none or several (the cluster's own ARN was not in its output).
func entriesAccount(entries []evidence.AccessEntry) string {
	account := ""
	for _, e := range entries {
		a, err := arn.Parse(e.PrincipalArn)
		if err != nil || account != "" && a.AccountID != account {
			return ""
		}
		account = a.AccountID
	}
	return account
}

// partialAutoModeNodeRole judges the Auto Mode node roles whose access entry was described
// without the cluster's list (a pasted describe-access-entry): its type is known; a role with no
// described entry stays unjudged, since the list alone could show it has none.
func partialAutoModeNodeRole(ev *evidence.Evidence) []Finding {
	if !ev.Have(evidence.KindCluster) || ev.Have(evidence.KindAccessEntries) || len(ev.DescribedAccessEntries) == 0 {
		return nil
	}
	if !autoModeOn(ev) {
		return nil
	}
	arns, from := autoModeRoles(ev)
	var out []Finding
	judged := false
	for _, arn := range arns {
		e := describedAccessEntry(ev, arn)
		if e == nil {
			out = append(out, Finding{Status: StatusSkipped, Resource: arn, Message: "missing evidence: no access entry of " + arn + " was described, and " + missingReasons(ev, evidence.KindAccessEntries)})
			continue
		}
		judged = true
		out = append(out, judgeAutoModeEntry(ev, arn, from[arn], e, e.Source))
	}
	if !judged {
		return nil
	}
	return out
}

// judgeAutoModeEntry judges the described access entry e (read from src) of the Auto Mode node
// role arn (named by from): type EC2 passes, any other type fails.
func judgeAutoModeEntry(ev *evidence.Evidence, arn, from string, e *evidence.AccessEntry, src string) Finding {
	it := item(ev.Source(evidence.KindCluster), "%s: %s", from, arn)
	if e.Type != "EC2" {
		return fail(arn, fmt.Sprintf("Auto Mode node role %s has an access entry of type %s; Auto Mode needs type EC2", arn, e.Type), it,
			item(src, "access entry %s type %s", e.PrincipalArn, e.Type))
	}
	return pass(arn, "Auto Mode node role "+arn+" has an access entry of type EC2", it)
}

func evalAutoModeNodeRole(ev *evidence.Evidence) []Finding {
	if !autoModeOn(ev) {
		return one(notApplicable(ev.Cluster.Name, "EKS Auto Mode is not enabled on the cluster (computeConfig)"))
	}
	arns, from := autoModeRoles(ev)
	if len(arns) == 0 {
		return one(notApplicable(ev.Cluster.Name, "computeConfig names no node role and no Auto Mode NodeClass sets spec.role"))
	}
	var out []Finding
	for _, arn := range arns {
		it := item(ev.Source(evidence.KindCluster), "%s: %s", from[arn], arn)
		e := nodeAccessEntry(ev, arn)
		switch {
		case e == nil:
			out = append(out, fail(arn, fmt.Sprintf("Auto Mode node role %s (%s) has no access entry", arn, from[arn]), it,
				item(ev.Source(evidence.KindAccessEntries), "%d access entries, none for this role", len(ev.AccessEntries))))
		case !e.Described:
			out = append(out, Finding{Status: StatusSkipped, Resource: arn, Message: "missing evidence: the access entry of " + arn + " was not described " + e.DescribeGap})
		default:
			out = append(out, judgeAutoModeEntry(ev, arn, from[arn], e, ev.Source(evidence.KindAccessEntries)))
		}
	}
	return out
}

// evalNodeClassNetwork judges the subnets and security groups a node class resolved
// (status.subnets, status.securityGroups) against the cluster's VPC and security group.
// ec2/describe-subnets.json lists the subnets of the cluster VPC, so a resolved subnet it does
// not list is outside that VPC (or deleted).
func evalNodeClassNetwork(ev *evidence.Evidence) []Finding {
	var classes []evidence.NodeClass
	applies := false
	for _, auto := range []bool{false, true} {
		cs, a := classesInScope(ev, auto)
		classes, applies = append(classes, cs...), applies || a
	}
	if !applies {
		return one(notApplicable(targetName(ev), "the target was not launched from a node class"))
	}
	if len(classes) == 0 {
		return one(notApplicable("cluster", "no EC2NodeClass or Auto Mode NodeClass in the cluster"))
	}
	vpc := ev.Cluster.VpcID
	subnets := map[string]evidence.Subnet{}
	for _, sn := range ev.Subnets {
		subnets[sn.ID] = sn
	}
	sgs := map[string]evidence.SecurityGroup{}
	for _, g := range ev.SecurityGroups {
		sgs[g.ID] = g
	}
	var out []Finding
	for _, nc := range classes {
		kind := evidence.KindEC2NodeClasses
		if nc.AutoMode {
			kind = evidence.KindNodeClasses
		}
		res := strings.ToLower(classKind(nc.AutoMode)) + "/" + nc.Name
		src := ev.Source(kind)
		var problems []string
		items := []EvidenceItem{item(src, "%s %s status.subnets %s, status.securityGroups %s", classKind(nc.AutoMode), nc.Name, quoteList(nc.StatusSubnets), quoteList(nc.StatusSecurityGroups))}
		for _, id := range nc.StatusSubnets {
			sn, ok := subnets[id]
			switch {
			case !ok:
				problems = append(problems, fmt.Sprintf("subnet %s is not a subnet of the cluster VPC %s", id, vpc))
			case sn.VpcID != "" && sn.VpcID != vpc:
				problems = append(problems, fmt.Sprintf("subnet %s is in %s, not in the cluster VPC %s", id, sn.VpcID, vpc))
			}
		}
		if len(nc.StatusSubnets) > 0 {
			items = append(items, item(ev.Source(evidence.KindSubnets), "the cluster VPC %s has %d subnets", vpc, len(ev.Subnets)))
		}
		csg := ev.Cluster.ClusterSecurityGroup
		if csg != "" && len(nc.StatusSecurityGroups) > 0 && !containsString(nc.StatusSecurityGroups, csg) && ev.Have(evidence.KindSecurityGroups) {
			// the control plane's network interfaces carry the cluster security group and the
			// cluster's additional security groups (resourcesVpcConfig.securityGroupIds): a node
			// group admitted both ways by either reaches it and is reached (the terraform-aws-eks
			// node and cluster security groups); groups not in the evidence cannot be judged
			known, admitted := true, false
			for _, peer := range append([]string{csg}, ev.Cluster.SecurityGroupIDs...) {
				for _, id := range nc.StatusSecurityGroups {
					_, okPeer := sgs[peer]
					_, okNode := sgs[id]
					known = known && okNode && (okPeer || peer != csg)
					admitted = admitted || sgAdmitsGroup(sgs[peer], id) && sgAdmitsGroup(sgs[id], peer)
				}
			}
			if known && !admitted {
				problems = append(problems, fmt.Sprintf("none of the resolved security groups %s is the cluster security group %s or admitted by it (or by the cluster's additional security groups) both ways", strings.Join(nc.StatusSecurityGroups, ", "), csg))
				items = append(items, item(ev.Source(evidence.KindSecurityGroups), "cluster security group %s", csg))
			}
		}
		if len(problems) > 0 {
			out = append(out, fail(res, fmt.Sprintf("%s %s: %s", classKind(nc.AutoMode), nc.Name, strings.Join(problems, "; ")), items...))
			continue
		}
		if len(nc.StatusSubnets) == 0 {
			out = append(out, Finding{Status: StatusSkipped, Resource: res, Message: classKind(nc.AutoMode) + " " + nc.Name + " resolved no subnet yet (karpenter.nodeclass-not-ready judges that)"})
			continue
		}
		out = append(out, pass(res, fmt.Sprintf("%s %s resolves subnets of the cluster VPC %s", classKind(nc.AutoMode), nc.Name, vpc), items...))
	}
	return out
}

// sgAdmitsGroup reports whether g has an ingress rule naming group peer.
func sgAdmitsGroup(g evidence.SecurityGroup, peer string) bool {
	for _, r := range g.Ingress {
		if containsString(r.GroupIDs, peer) {
			return true
		}
	}
	return false
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// claimsInScope returns the NodeClaims a finding is about: the target's own NodeClaim, or every
// NodeClaim when the cluster as a whole is judged; applies is false for an instance no
// NodeClaim launched.
func claimsInScope(ev *evidence.Evidence) (claims []evidence.NodeClaim, applies bool) {
	if ev.NodeClaim != nil {
		return []evidence.NodeClaim{*ev.NodeClaim}, true
	}
	if ev.Instance != nil {
		return nil, false
	}
	return ev.NodeClaims, true
}

func nodeClaimSource(ev *evidence.Evidence) string { return ev.Source(evidence.KindNodeClaims) }

func quoteCondition(c evidence.Condition) string {
	s := fmt.Sprintf("%s=%s", c.Type, c.Status)
	if c.Reason != "" {
		s += " reason " + c.Reason
	}
	if c.Message != "" {
		s += fmt.Sprintf(": %q", c.Message)
	}
	return s
}

// profileRefused returns the condition of nc that says its instance profile is wrong: not True,
// and of type InstanceProfileReady or with an InstanceProfile… reason (InstanceProfileNotFound
// on ValidationSucceeded, aws/karpenter-provider-aws pull 9390).
func profileRefused(nc evidence.NodeClass) (evidence.Condition, bool) {
	for _, c := range nc.Conditions {
		if c.Status == "False" && (c.Type == "InstanceProfileReady" || strings.HasPrefix(c.Reason, "InstanceProfile")) {
			return c, true
		}
	}
	return evidence.Condition{}, false
}

// age renders how long before the evidence was collected t happened ("" when unknown).
func age(ev *evidence.Evidence, t time.Time) string {
	if t.IsZero() || ev.CollectedAt.IsZero() || ev.CollectedAt.Before(t) {
		return ""
	}
	return " " + ev.CollectedAt.Sub(t).Round(time.Second).String() + " before collection"
}

// judgedClaims returns the NodeClaims a NodeClaim check judges for ev, or the not-applicable
// finding when there are none (the instance has no NodeClaim, or the cluster none at all).
func judgedClaims(ev *evidence.Evidence) ([]evidence.NodeClaim, []Finding) {
	claims, applies := claimsInScope(ev)
	if !applies {
		return nil, one(notApplicable(targetName(ev), "no NodeClaim names this instance in status.providerID"))
	}
	if len(claims) == 0 {
		return nil, one(notApplicable("cluster", "no NodeClaim in the cluster"))
	}
	return claims, nil
}

func evalNodeClaimLaunched(ev *evidence.Evidence) []Finding {
	claims, na := judgedClaims(ev)
	if na != nil {
		return na
	}
	var out []Finding
	for _, nc := range claims {
		res := "nodeclaim/" + nc.Name
		c, ok := nc.Condition("Launched")
		switch {
		case ok && c.Status == "False":
			out = append(out, fail(res, fmt.Sprintf("NodeClaim %s was not launched: %s", nc.Name, quoteCondition(c)),
				item(nodeClaimSource(ev), "NodeClaim %s (NodePool %s, node class %s) created%s: %s", nc.Name, orUnknown(nc.NodePool), nc.NodeClassRef.Name, age(ev, nc.Created), quoteCondition(c))))
		case ok && c.Status == "True":
			out = append(out, pass(res, "NodeClaim "+nc.Name+" launched "+orUnknown(nc.ProviderID), item(nodeClaimSource(ev), "%s", quoteCondition(c))))
		default:
			out = append(out, Finding{Status: StatusSkipped, Resource: res, Message: "NodeClaim " + nc.Name + " has no Launched verdict yet"})
		}
	}
	return out
}

func evalNodeClaimRegistered(ev *evidence.Evidence) []Finding {
	claims, na := judgedClaims(ev)
	if na != nil {
		return na
	}
	var out []Finding
	for _, nc := range claims {
		res := "nodeclaim/" + nc.Name
		if l, ok := nc.Condition("Launched"); !ok || l.Status != "True" {
			out = append(out, notApplicable(res, "NodeClaim "+nc.Name+" has not launched"))
			continue
		}
		c, ok := nc.Condition("Registered")
		if ok && c.Status == "True" {
			out = append(out, pass(res, "NodeClaim "+nc.Name+" registered as node "+orUnknown(nc.NodeName), item(nodeClaimSource(ev), "%s", quoteCondition(c))))
			continue
		}
		if !ok {
			c = evidence.Condition{Type: "Registered", Status: "absent"}
		}
		launched := nc.Created
		if l, _ := nc.Condition("Launched"); !l.LastTransition.IsZero() {
			launched = l.LastTransition
		}
		if !launched.IsZero() && !ev.CollectedAt.IsZero() {
			// judged at the evidence's own time: a claim is not late before Karpenter's
			// registration TTL has passed, and one launched after the collection cannot be aged
			switch since := ev.CollectedAt.Sub(launched); {
			case since < 0:
				out = append(out, Finding{Status: StatusSkipped, Resource: res, Message: fmt.Sprintf("not a cause: NodeClaim %s launched at %s, after the collection time %s; its age cannot be judged", nc.Name, launched.UTC().Format(time.RFC3339), ev.CollectedAt.UTC().Format(time.RFC3339))})
				continue
			case since < evidence.KarpenterRegistrationTTL:
				out = append(out, Finding{Status: StatusSkipped, Resource: res, Message: fmt.Sprintf("not a cause yet: NodeClaim %s launched %s before collection, within Karpenter's %d-minute registration timeout; its node may still be booting (%s)", nc.Name, since.Round(time.Second), int(evidence.KarpenterRegistrationTTL.Minutes()), quoteCondition(c))})
				continue
			}
		}
		if launched.IsZero() && nc.ListedAge > 0 && nc.ListedAge < evidence.KarpenterRegistrationTTL {
			// known from a kubectl get table only: its AGE is the one time it shows
			out = append(out, Finding{Status: StatusSkipped, Resource: res, Message: fmt.Sprintf("not a cause yet: NodeClaim %s was %s old when listed (kubectl get's AGE), within Karpenter's %d-minute registration timeout; its node may still be booting (%s)", nc.Name, nc.ListedAge, int(evidence.KarpenterRegistrationTTL.Minutes()), quoteCondition(c))})
			continue
		}
		when := "condition set" + age(ev, c.LastTransition)
		if c.LastTransition.IsZero() {
			when = "NodeClaim created" + age(ev, nc.Created)
		}
		inst := nc.InstanceID()
		if inst == "" {
			inst = "an instance" // kubectl get's table without -o wide shows no provider ID
		}
		f := fail(res, fmt.Sprintf("NodeClaim %s launched %s but its node never registered: %s", nc.Name, inst, quoteCondition(c)),
			item(nodeClaimSource(ev), "NodeClaim %s providerID %s; %s (%s)", nc.Name, orUnknown(nc.ProviderID), quoteCondition(c), when))
		f.Symptom = true
		out = append(out, f)
	}
	return out
}

// classesInScope returns the node classes (Auto Mode or EC2NodeClasses) a finding is about:
// the class of the target's NodeClaim (or of the NodePool its instance was tagged with), or
// every class when the cluster is judged; applies is false when the target uses none.
func classesInScope(ev *evidence.Evidence, autoMode bool) (out []evidence.NodeClass, applies bool) {
	var ref *evidence.NodeClassRef
	switch {
	case ev.NodeClaim != nil:
		r := ev.NodeClaim.NodeClassRef
		ref = &r
	case ev.Instance != nil && ev.Instance.Tags["karpenter.sh/nodepool"] != "":
		for _, p := range ev.NodePools {
			if p.Name == ev.Instance.Tags["karpenter.sh/nodepool"] {
				r := p.NodeClassRef
				ref = &r
			}
		}
		if ref == nil {
			return nil, false
		}
	case ev.Instance != nil:
		return nil, false
	}
	for _, nc := range ev.NodeClasses {
		if nc.AutoMode != autoMode {
			continue
		}
		if ref == nil || (ref.Name == nc.Name && ref.AutoMode() == autoMode) {
			out = append(out, nc)
		}
	}
	return out, ref == nil || len(out) > 0
}

func classKind(autoMode bool) string {
	if autoMode {
		return "NodeClass"
	}
	return "EC2NodeClass"
}

// judgedClasses returns the node classes of one kind a check judges for ev (classesInScope),
// or, when there are none to judge, the one not-applicable finding to report instead.
func judgedClasses(ev *evidence.Evidence, autoMode bool) ([]evidence.NodeClass, []Finding) {
	article := map[bool]string{false: "an ", true: "a "}[autoMode]
	classes, applies := classesInScope(ev, autoMode)
	if !applies {
		return nil, one(notApplicable(targetName(ev), "the target was not launched from "+article+classKind(autoMode)))
	}
	if len(classes) == 0 {
		return nil, one(notApplicable("cluster", "no "+classKind(autoMode)+" in the cluster"))
	}
	return classes, nil
}

func evalNodeClassReady(autoMode bool) func(ev *evidence.Evidence) []Finding {
	kind := evidence.KindEC2NodeClasses
	if autoMode {
		kind = evidence.KindNodeClasses
	}
	return func(ev *evidence.Evidence) []Finding {
		classes, na := judgedClasses(ev, autoMode)
		if na != nil {
			return na
		}
		var out []Finding
		for _, nc := range classes {
			res := strings.ToLower(classKind(autoMode)) + "/" + nc.Name
			if nc.SpecOnly {
				out = append(out, notApplicable(res, classKind(autoMode)+" "+nc.Name+" was given without its status (a manifest), which alone shows readiness"))
				continue
			}
			if len(nc.Conditions) == 0 {
				// v1beta1 EC2NodeClasses (Karpenter before v0.37) have no conditions at all, and a
				// pasted status may be cut before them: absent is not False
				out = append(out, notApplicable(res, classKind(autoMode)+" "+nc.Name+" is shown without status conditions (a v1beta1 EC2NodeClass has none; output cut before them), which alone show readiness"))
				continue
			}
			ready, ok := nc.Condition("Ready")
			if ok && ready.Status == "True" {
				out = append(out, pass(res, classKind(autoMode)+" "+nc.Name+" is Ready", item(ev.Source(kind), "%s", quoteCondition(ready))))
				continue
			}
			var bad []string
			var items []EvidenceItem
			for _, c := range nc.Conditions {
				if c.Type != "Ready" && c.Status == "False" {
					bad = append(bad, quoteCondition(c))
					items = append(items, item(ev.Source(kind), "%s %s: %s", classKind(autoMode), nc.Name, quoteCondition(c)))
				}
			}
			if !ok {
				ready = evidence.Condition{Type: "Ready", Status: "absent"}
			}
			items = append(items, item(ev.Source(kind), "%s %s: %s", classKind(autoMode), nc.Name, quoteCondition(ready)))
			msg := fmt.Sprintf("%s %s is not Ready (%s)", classKind(autoMode), nc.Name, quoteCondition(ready))
			if len(bad) > 0 {
				sort.Strings(bad)
				msg = fmt.Sprintf("%s %s is not Ready: %s", classKind(autoMode), nc.Name, strings.Join(bad, "; "))
			}
			out = append(out, fail(res, msg, items...))
		}
		return out
	}
}

// statusOnly says why a node class known only from kubectl get's table is not judged on its spec.
func statusOnly(nc evidence.NodeClass) string {
	return classKind(nc.AutoMode) + " " + nc.Name + " is known only from kubectl's printed output (get's table, or describe), which does not show its spec in full"
}

// evalNodeClassUserData judges spec.userData against the AMI family: Karpenter merges it with
// the bootstrap it generates, so it must be in the family's own format.
func evalNodeClassUserData(ev *evidence.Evidence) []Finding {
	classes, na := judgedClasses(ev, false)
	if na != nil {
		return na
	}
	src := ev.Source(evidence.KindEC2NodeClasses)
	var out []Finding
	for _, nc := range classes {
		res := "ec2nodeclass/" + nc.Name
		if nc.StatusOnly {
			out = append(out, notApplicable(res, statusOnly(nc)))
			continue
		}
		fam := nc.Family()
		if name, other := familyMismatch(nc.AMIFamily, nc.AMINames); name != "" {
			// Karpenter writes the user data of spec.amiFamily; the image selected boots another
			out = append(out, fail(res, fmt.Sprintf("EC2NodeClass %s has amiFamily %s but its amiSelectorTerms select %s, an EKS-optimized %s AMI: Karpenter generates %s user data, which that image does not read, so the node never bootstraps", nc.Name, nc.AMIFamily, name, other, nc.AMIFamily),
				item(src, "EC2NodeClass %s amiFamily: %s; amiSelectorTerms name: %s", nc.Name, nc.AMIFamily, name)))
			continue
		}
		if !nc.HasUserData || strings.TrimSpace(nc.UserData) == "" {
			if fam == "Custom" {
				// Karpenter generates no bootstrap for amiFamily Custom: the user data is the only
				// one (https://karpenter.sh/docs/concepts/nodeclasses/#specamifamily, Custom)
				out = append(out, fail(res, fmt.Sprintf("EC2NodeClass %s has amiFamily Custom and no spec.userData: Karpenter generates no bootstrap for a Custom AMI family, so nothing tells the node which cluster to join", nc.Name),
					item(src, "EC2NodeClass %s amiFamily: Custom; spec.userData not set", nc.Name)))
				continue
			}
			out = append(out, notApplicable(res, "EC2NodeClass "+nc.Name+" sets no spec.userData"))
			continue
		}
		if fam == "" || fam == "Custom" || strings.HasPrefix(fam, "Windows") {
			out = append(out, notApplicable(res, "EC2NodeClass "+nc.Name+" has AMI family "+orUnknown(fam)+", whose user data Karpenter passes as it is"))
			continue
		}
		cfg := userdata.Decode([]byte(nc.UserData))
		has := func(f evidence.BootstrapFormat) bool {
			for _, x := range cfg.Formats {
				if x == f {
					return true
				}
			}
			return cfg.Format == f
		}
		trim := strings.TrimSpace(nc.UserData)
		script := strings.HasPrefix(trim, "#!") || strings.Contains(strings.ToLower(trim), "mime-version:")
		var wrong, lost string
		switch fam {
		case "AL2023":
			// Karpenter wraps userData that is neither MIME nor a YAML map as a text/x-shellscript
			// part and appends the NodeConfig it generates (karpenter-provider-aws
			// pkg/providers/amifamily/bootstrap/nodeadm.go Script, parseUserData): nodeadm joins
			// the node with that NodeConfig, only the custom part's own work is lost
			joins := ": Karpenter adds it as a shell script part beside the NodeConfig it generates, which joins the node; "
			if has(evidence.FormatBootstrapSh) {
				lost = "an AL2 bootstrap.sh script" + joins + "/etc/eks/bootstrap.sh on AL2023 is a stub that prints an error and exits 1 (amazon-eks-ami templates/al2023/runtime/rootfs/etc/eks/bootstrap.sh), so the call and its kubelet arguments have no effect: move them into a NodeConfig part"
			} else if has(evidence.FormatBottlerocket) {
				lost = "Bottlerocket TOML settings" + joins + "cloud-init cannot run the TOML, so its settings have no effect: write them as a NodeConfig part"
			}
		case "Bottlerocket":
			switch {
			case has(evidence.FormatNodeConfig):
				wrong = "an AL2023 NodeConfig; Bottlerocket expects TOML settings"
			case has(evidence.FormatBootstrapSh) || script:
				wrong = "a shell script or MIME document; Bottlerocket expects TOML settings"
			default:
				for _, is := range cfg.Issues {
					if is.Level == evidence.IssueError && has(evidence.FormatBottlerocket) {
						// Karpenter merges the TOML with the settings it generates: it must parse
						wrong = "TOML that Karpenter cannot merge: " + is.Message
						break
					}
				}
			}
		case "AL2":
			// Karpenter puts the custom userData (as a shell part unless it is MIME) before the
			// bootstrap.sh script it generates (eksbootstrap.go Script, mimeify): that script
			// joins the node, and AL2's cloud-init ignores or fails only the custom part
			joins := ": Karpenter adds it as a part beside the bootstrap.sh script it generates, which joins the node; "
			if has(evidence.FormatNodeConfig) {
				lost = "an AL2023 NodeConfig" + joins + "AL2 does not read NodeConfig, so its settings have no effect: pass them in a shell script part"
			} else if has(evidence.FormatBottlerocket) {
				lost = "Bottlerocket TOML settings" + joins + "cloud-init cannot run the TOML, so its settings have no effect: pass them in a shell script part"
			}
		}
		it := item(src, "EC2NodeClass %s amiFamily/alias %s; spec.userData is %s", nc.Name, fam, describeFormats(cfg))
		if wrong != "" {
			out = append(out, fail(res, fmt.Sprintf("EC2NodeClass %s (AMI family %s) has spec.userData in the wrong format: %s", nc.Name, fam, wrong), it))
			continue
		}
		if lost != "" {
			out = append(out, warn(res, fmt.Sprintf("EC2NodeClass %s (AMI family %s) has spec.userData in another family's format, %s", nc.Name, fam, lost), it))
			continue
		}
		out = append(out, pass(res, fmt.Sprintf("EC2NodeClass %s user data fits AMI family %s", nc.Name, fam), it))
	}
	return out
}

func describeFormats(cfg *evidence.BootstrapConfig) string {
	var fs []string
	for _, f := range cfg.Formats {
		fs = append(fs, string(f))
	}
	if len(fs) == 0 {
		fs = append(fs, string(cfg.Format))
	}
	return strings.Join(fs, ", ")
}

// autoModeNodeRoleArn is the node role of EKS Auto Mode's built-in NodePools (computeConfig
// nodeRoleArn) when the target is an Auto Mode NodeClaim; "" otherwise.
func autoModeNodeRoleArn(ev *evidence.Evidence) string {
	c := ev.Cluster
	if c == nil || c.ComputeConfig == nil || !c.ComputeConfig.Enabled || ev.NodeClaim == nil || !ev.NodeClaim.NodeClassRef.AutoMode() {
		return ""
	}
	return c.ComputeConfig.NodeRoleArn
}

// evalNodeClassInstanceProfile judges how an EC2NodeClass names its nodes' identity: spec.role
// (Karpenter then creates the instance profile, status.instanceProfile) or spec.instanceProfile,
// and whether the role is mapped in the cluster (an access entry, or aws-auth mapRoles).
func evalNodeClassInstanceProfile(ev *evidence.Evidence) []Finding {
	classes, na := judgedClasses(ev, false)
	if na != nil {
		return na
	}
	src := ev.Source(evidence.KindEC2NodeClasses)
	account := ""
	if ev.Cluster != nil {
		if parts := strings.Split(ev.Cluster.Arn, ":"); len(parts) > 4 {
			account = parts[4]
		}
	}
	var out []Finding
	for _, nc := range classes {
		res := "ec2nodeclass/" + nc.Name
		it := item(src, "EC2NodeClass %s spec.role %s, spec.instanceProfile %s, status.instanceProfile %s", nc.Name, orUnknown(nc.Role), orUnknown(nc.InstanceProfile), orUnknown(nc.StatusInstanceProfile))
		if strings.HasPrefix(nc.InstanceProfile, "arn:") {
			// Karpenter puts spec.instanceProfile in the launch template as the profile's name
			// (pkg/providers/launchtemplate/types.go#L113 at 1d927085: IamInstanceProfile.Name),
			// and an ARN is no name, so every launch fails while the class may still say Ready
			name := nc.InstanceProfile[strings.LastIndex(nc.InstanceProfile, "/")+1:]
			out = append(out, fail(res, "EC2NodeClass "+nc.Name+" spec.instanceProfile is an ARN ("+nc.InstanceProfile+"): Karpenter passes it to EC2 as the instance profile's name, so every launch fails; set the name ("+name+")", it))
			continue
		}
		if c, ok := profileRefused(nc); ok && nc.InstanceProfile != "" {
			// Karpenter validates a named profile before it launches (ValidationSucceeded, or
			// InstanceProfileReady on older releases): a refusal there is the profile itself
			out = append(out, fail(res, "EC2NodeClass "+nc.Name+" spec.instanceProfile "+nc.InstanceProfile+" is refused: "+quoteCondition(c)+"; name an instance profile that exists in the account (aws iam get-instance-profile --instance-profile-name NAME) or set spec.role instead", it))
			continue
		}
		if nc.StatusOnly {
			out = append(out, notApplicable(res, statusOnly(nc)))
			continue
		}
		if nc.Role == "" && nc.InstanceProfile == "" && nc.Template {
			out = append(out, notApplicable(res, "AWSNodeTemplate "+nc.Name+" sets no spec.instanceProfile: its nodes get the Karpenter controller's aws.defaultInstanceProfile setting, which the input does not show"))
			continue
		}
		if nc.Role == "" && nc.InstanceProfile == "" {
			// the CRD refuses such a class ("must specify exactly one of ['role',
			// 'instanceProfile']", pkg/apis/v1/ec2nodeclass.go in aws/karpenter-provider-aws), so
			// one shown without either is an excerpt: what it names is not in the input
			out = append(out, notApplicable(res, "EC2NodeClass "+nc.Name+" is shown without spec.role or spec.instanceProfile, which the API server requires one of, so the input left its identity out"))
			continue
		}
		if nc.Role != "" && nc.SpecOnly {
			out = append(out, notApplicable(res, "EC2NodeClass "+nc.Name+" was given without its status (a manifest), which alone names the instance profile Karpenter created"))
			continue
		}
		if nc.Role != "" && nc.StatusInstanceProfile == "" && len(nc.Conditions) == 0 {
			out = append(out, notApplicable(res, "EC2NodeClass "+nc.Name+" shows no status.instanceProfile and no conditions (a v1beta1 class, or a status cut short), so whether Karpenter created the instance profile of role "+nc.Role+" is not shown"))
			continue
		}
		if nc.Role != "" && nc.StatusInstanceProfile == "" {
			msg := "Karpenter has not created the instance profile of role " + nc.Role + " for EC2NodeClass " + nc.Name
			if c, ok := nc.Condition("InstanceProfileReady"); ok {
				msg += ": " + quoteCondition(c)
			}
			out = append(out, fail(res, msg, it))
			continue
		}
		if nc.Role == "" {
			out = append(out, pass(res, "EC2NodeClass "+nc.Name+" uses instance profile "+nc.InstanceProfile+" (its role is judged per instance by iam.* and auth.*)", it))
			continue
		}
		arn := nc.Role
		if !strings.HasPrefix(arn, "arn:") && account != "" {
			arn = "arn:aws:iam::" + account + ":role/" + arn
		}
		// a CONFIG_MAP cluster reads only aws-auth: access entries do not exist there
		// (https://docs.aws.amazon.com/eks/latest/userguide/grant-k8s-access.html#set-cam)
		configMapOnly := ev.Cluster != nil && ev.Cluster.AuthenticationMode == "CONFIG_MAP" && ev.Have(evidence.KindAWSAuth) && ev.AWSAuth != nil
		if (!ev.Have(evidence.KindAccessEntries) && !configMapOnly) || !strings.HasPrefix(arn, "arn:") {
			out = append(out, pass(res, "EC2NodeClass "+nc.Name+" has instance profile "+nc.StatusInstanceProfile+" for role "+nc.Role+" (its mapping was not judged: "+missingReasons(ev, evidence.KindAccessEntries)+")", it))
			continue
		}
		useAuth := ev.Have(evidence.KindAWSAuth) && (ev.Cluster == nil || ev.Cluster.AuthenticationMode != "API")
		var e *evidence.AccessEntry
		if !configMapOnly {
			e = nodeAccessEntry(ev, arn)
		}
		switch {
		case e != nil:
			out = append(out, pass(res, fmt.Sprintf("EC2NodeClass %s role %s has an access entry (type %s)", nc.Name, nc.Role, orUnknown(e.Type)), it))
		case useAuth && len(roleMatches(ev.AWSAuth, arn)) > 0:
			out = append(out, pass(res, fmt.Sprintf("EC2NodeClass %s role %s is mapped in aws-auth", nc.Name, nc.Role), it))
		default:
			via, seen := "no access entry", item(ev.Source(evidence.KindAccessEntries), "%d access entries, none for %s", len(ev.AccessEntries), arn)
			switch {
			case configMapOnly:
				via = "no aws-auth mapRoles entry, and authenticationMode CONFIG_MAP reads nothing else"
				seen = item(ev.Source(evidence.KindAWSAuth), "aws-auth mapRoles: %d entries, none for %s", len(ev.AWSAuth.Roles), arn)
			case useAuth:
				via += " and no aws-auth mapRoles entry"
			}
			out = append(out, fail(res, fmt.Sprintf("EC2NodeClass %s role %s is not mapped in the cluster (%s): its nodes launch but cannot register", nc.Name, arn, via), it, seen))
		}
	}
	return out
}
