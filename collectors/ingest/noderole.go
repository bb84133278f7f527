package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/layout"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// A paste has no instance to name its node role: `aws iam get-role` or `aws iam
// list-attached-role-policies` output could be the node role, the cluster role, a Karpenter
// controller role or an IRSA role. pastedRole keeps what a pasted role says about what it is
// for, so the node role is chosen only when the paste itself points at one role.
type pastedRole struct {
	arn string
	// nodeUse: the role says it is a node role (AmazonEKSWorkerNodePolicy attached, or a trust
	// policy naming ec2.amazonaws.com); otherUse: it says it is not (the cluster policy, or a
	// trust policy for EKS Hybrid Nodes, Fargate or web identity only).
	nodeUse, otherUse bool
	// trustServices are the trust policy's service principals (nil when no get-role was pasted).
	trustServices []string
	// profile is the pasted get-instance-profile file that names the role, or "".
	profile string
}

// reNodeRoleName is how node role names read when the tool that made them named them:
// eksctl's NodeInstanceRole, terraform-aws-eks's "eks-node-group", Karpenter's KarpenterNodeRole,
// and the names people give ("eks-worker-role", "node-role").
var reNodeRoleName = regexp.MustCompile(`(?i)node|worker`)

// Services whose trust marks a role as not an EC2 node's: EKS Hybrid Nodes credentials (SSM,
// IAM Roles Anywhere) and Fargate pods.
var otherRoleServices = []string{"ssm.amazonaws.com", "rolesanywhere.amazonaws.com", "eks-fargate-pods.amazonaws.com"}

// notePastedRole records a pasted get-role or list-attached-role-policies document under the
// role's name, and the roles of a pasted get-instance-profile under theirs.
func (rd *reader) notePastedRole(path string, v any) {
	name := strings.TrimSuffix(path[strings.LastIndexByte(path, '/')+1:], ".json")
	if name == "" || name == "pasted" {
		return
	}
	if rd.roles == nil {
		rd.roles = map[string]*pastedRole{}
	}
	r := rd.roles[name]
	if r == nil {
		r = &pastedRole{}
		rd.roles[name] = r
	}
	switch {
	case strings.HasPrefix(path, "iam/get-role/"):
		r.arn = layout.Lookup(v, "Role.Arn")
		stmts, _ := layout.LookupAny(v, "Role.AssumeRolePolicyDocument.Statement").([]any)
		if st, ok := layout.LookupAny(v, "Role.AssumeRolePolicyDocument.Statement").(map[string]any); ok {
			stmts = []any{st}
		}
		r.trustServices = []string{}
		federated := false
		for _, st := range stmts {
			p := layout.LookupAny(st, "Principal")
			r.trustServices = append(r.trustServices, stringsOf(layout.LookupAny(p, "Service"))...)
			federated = federated || layout.LookupAny(p, "Federated") != nil
		}
		for _, svc := range r.trustServices {
			switch {
			case svc == "ec2.amazonaws.com":
				r.nodeUse = true
			case slices.Contains(otherRoleServices, svc):
				r.otherUse = true
			}
		}
		if len(r.trustServices) == 0 && federated {
			r.otherUse = true // IRSA or Pod Identity: a workload's role
		}
	case strings.HasPrefix(path, "iam/get-instance-profile/"):
		// the profile's role is what an instance launched with it runs as: an EC2 role (the
		// profile itself is recorded under its own name, which names no role)
		delete(rd.roles, name)
		roles, _ := layout.LookupAny(v, "InstanceProfile.Roles").([]any)
		for _, ro := range roles {
			rn := layout.Lookup(ro, "RoleName")
			if rn == "" {
				continue
			}
			pr := rd.roles[rn]
			if pr == nil {
				pr = &pastedRole{}
				rd.roles[rn] = pr
			}
			if a := layout.Lookup(ro, "Arn"); a != "" {
				pr.arn = a
			}
			pr.nodeUse = true
			pr.profile = path
		}
	case strings.HasPrefix(path, "iam/list-attached-role-policies/"):
		policies, _ := layout.LookupAny(v, "AttachedPolicies").([]any)
		for _, p := range policies {
			switch layout.Lookup(p, "PolicyName") {
			case "AmazonEKSWorkerNodePolicy", "AmazonEKSWorkerNodeMinimalPolicy":
				r.nodeUse = true
			case "AmazonEKSClusterPolicy", "AmazonEKSHybridNodesPolicy":
				r.otherUse = true
			}
		}
	}
}

func stringsOf(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// adoptNodeRole gives cluster-wide evidence built from a paste its node role, when the paste
// points at exactly one: the nodeRole of the pasted node groups, or a pasted role (or the
// principal of a pasted describe-access-entry) that reads as a node's (a node policy or EC2
// trust, an EC2 access entry type, or a node-like name with nothing saying otherwise) and is not
// the cluster's role. Nothing is chosen when the paste names two roles or none.
func (rd *reader) adoptNodeRole(ev *evidence.Evidence, snap *snapshot.Snapshot) {
	if ev.Have(evidence.KindNodeRole) || ev.Instance != nil {
		return
	}
	clusterRole := ""
	if ev.Cluster != nil {
		clusterRole = nameOfArn(ev.Cluster.RoleArn)
	}
	type cand struct{ arn, why string }
	cands := map[string]cand{}
	for _, ng := range ev.Nodegroups {
		if n := nameOfArn(ng.NodeRole); n != "" && n != clusterRole {
			cands[n] = cand{ng.NodeRole, ev.Source(evidence.KindNodegroups) + " (node group " + ng.Name + "'s nodeRole)"}
		}
	}
	acct := rd.clusterAccount(ev)
	for _, nc := range ev.NodeClasses {
		// the role a node class launches its nodes with (EC2NodeClass / Auto Mode NodeClass
		// spec.role, a role name): its ARN from the cluster's account when the paste shows it
		// (clusterAccount)
		if nc.Role == "" || nc.Role == clusterRole || strings.Contains(nc.Role, "/") {
			continue
		}
		arn, why := "", ev.Source(evidence.KindEC2NodeClasses)+" ("+classKindOf(nc)+" "+nc.Name+" spec.role)"
		if acct.id != "" {
			arn = "arn:" + acct.partition + ":iam::" + acct.id + ":role/" + nc.Role
			why += "; its account " + acct.id + " from " + acct.origin
		}
		// a pasted role of that name is the node class's role (list-attached-role-policies
		// --role-name names no ARN; get-role does)
		if pasted := rd.roles[nc.Role]; arn == "" && pasted != nil {
			arn = pasted.arn
		}
		// without an ARN the role is known by its name: the mapping checks judge it by name
		if _, named := cands[nc.Role]; !named {
			cands[nc.Role] = cand{arn, why}
		}
	}
	for _, e := range ev.DescribedAccessEntries {
		// a pasted describe-access-entry (the cluster's list not pasted) of a role that reads as a
		// node's: an EC2 type, or a node-like name
		n := nameOfArn(e.PrincipalArn)
		if !strings.Contains(e.PrincipalArn, ":role/") || n == "" || n == clusterRole {
			continue
		}
		if _, named := cands[n]; !named && (strings.HasPrefix(e.Type, "EC2") || reNodeRoleName.MatchString(n)) {
			cands[n] = cand{e.PrincipalArn, e.Source + " (the role's access entry)"}
		}
	}
	for name, r := range rd.roles {
		if name == clusterRole || r.otherUse {
			continue
		}
		if _, named := cands[name]; named || r.nodeUse || reNodeRoleName.MatchString(name) {
			if _, named := cands[name]; !named {
				why := ""
				if r.profile != "" {
					why = rd.fileOrigin[r.profile] + " (the role of instance profile " + strings.TrimSuffix(r.profile[strings.LastIndexByte(r.profile, '/')+1:], ".json") + ")"
				}
				cands[name] = cand{r.arn, why}
			}
		}
	}
	if len(cands) > 1 {
		// several roles read as a node's: the one the NodeClaim's node class launches its
		// instances with is the node's (the link is in the evidence, not a guess)
		if role, why := claimClassRole(ev); role != "" {
			if c, named := cands[role]; named {
				if strings.Contains(c.why, "spec.role") {
					c.why = why
				} else {
					c.why = why + "; " + c.why
				}
				cands = map[string]cand{role: c}
			}
		}
	}
	if len(cands) != 1 {
		return
	}
	name := slices.Sorted(maps.Keys(cands))[0]
	c := cands[name]
	if c.arn == "" && ev.AWSAuth != nil {
		// list-attached-role-policies names no ARN; the aws-auth entry for the role does
		for _, m := range ev.AWSAuth.Roles {
			if strings.EqualFold(nameOfArn(m.RoleArn), name) {
				c.arn, c.why = m.RoleArn, ev.Source(evidence.KindAWSAuth)+" (the role's mapRoles entry)"
			}
		}
	}
	if c.arn == "" {
		// and so does an access entry for it
		for _, e := range ev.AccessEntries {
			if strings.Contains(e.PrincipalArn, ":role/") && strings.EqualFold(nameOfArn(e.PrincipalArn), name) {
				c.arn, c.why = e.PrincipalArn, ev.Source(evidence.KindAccessEntries)+" (the role's access entry)"
			}
		}
	}
	if c.arn == "" {
		// or a pasted describe-access-entry of it
		for _, e := range ev.DescribedAccessEntries {
			if strings.Contains(e.PrincipalArn, ":role/") && strings.EqualFold(nameOfArn(e.PrincipalArn), name) {
				c.arn = e.PrincipalArn
			}
		}
	}
	var fallback *evidence.Role
	if c.arn != "" {
		fallback = &evidence.Role{Name: name, Arn: c.arn}
	} else {
		// known by name only (its policies were pasted): the policy and trust checks judge it by
		// name; no check that compares ARNs has evidence to compare it with
		fallback = &evidence.Role{Name: name}
		if c.why == "" {
			c.why = rd.fileOrigin["iam/list-attached-role-policies/"+name+".json"]
		}
	}
	if r := rd.roles[name]; r != nil && r.profile != "" {
		// a pasted get-instance-profile returned the role whole, trust policy included
		if pr := snap.ProfileRole(r.profile, name); pr != nil && pr.Arn != "" && (c.arn == "" || strings.EqualFold(pr.Arn, c.arn)) {
			fallback = pr
			c.why = rd.fileOrigin[r.profile] + " (the role of instance profile " + strings.TrimSuffix(r.profile[strings.LastIndexByte(r.profile, '/')+1:], ".json") + ")"
		}
	}
	snap.AdoptNodeRole(ev, name, fallback, c.why)
}

func nameOfArn(arn string) string {
	if i := strings.LastIndexByte(arn, '/'); i >= 0 {
		return arn[i+1:]
	}
	return ""
}

// classKindOf names a node class's kind as kubectl does.
func classKindOf(nc evidence.NodeClass) string {
	if nc.AutoMode {
		return "NodeClass"
	}
	return "EC2NodeClass"
}

// claimClassRole returns the role name of the node class the evidence's NodeClaims launch
// with — every NodeClaim not yet registered (all of them when each has) naming, by
// spec.nodeClassRef, the same node class, of the matching kind, that has spec.role — and why,
// quoting the class's source; "" when the claims name no class, several, or one with no role
// or a role given as an ARN of another form (a path), or name it without its kind (the NODECLASS
// column of kubectl get nodeclaims) while an EC2NodeClass and an Auto Mode NodeClass share the
// name.
func claimClassRole(ev *evidence.Evidence) (role, why string) {
	var claims []evidence.NodeClaim
	for _, c := range ev.NodeClaims {
		if r, ok := c.Condition("Registered"); !ok || r.Status != "True" {
			claims = append(claims, c)
		}
	}
	if len(claims) == 0 {
		claims = ev.NodeClaims
	}
	var ref evidence.NodeClassRef
	var names []string
	for _, c := range claims {
		if c.NodeClassRef.Name == "" {
			continue
		}
		if ref.Name != "" && c.NodeClassRef.Name != ref.Name {
			return "", ""
		}
		if ref.Group == "" {
			ref = c.NodeClassRef // a claim's own object, not a table's row, knows the kind
		}
		if !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	if ref.Name == "" {
		return "", ""
	}
	var match []evidence.NodeClass
	kinds := map[bool]bool{}
	for _, nc := range ev.NodeClasses {
		if nc.Name != ref.Name || ref.Group != "" && ref.AutoMode() != nc.AutoMode {
			continue
		}
		match = append(match, nc)
		kinds[nc.AutoMode] = true
	}
	if len(kinds) > 1 {
		return "", "" // named without its kind (a kubectl get table's NODECLASS), and both kinds have the name
	}
	for _, nc := range match {
		r := nc.Role
		if strings.HasPrefix(r, "arn:") {
			r = nameOfArn(r)
		}
		if r == "" || strings.Contains(r, "/") {
			return "", ""
		}
		kind := evidence.KindEC2NodeClasses
		if nc.AutoMode {
			kind = evidence.KindNodeClasses
		}
		return r, fmt.Sprintf("%s (%s %s spec.role, the node class NodeClaim %s names in spec.nodeClassRef)",
			ev.Source(kind), classKindOf(nc), nc.Name, strings.Join(names, ", "))
	}
	return "", ""
}

// account is an AWS account ID with its partition ("aws", "aws-cn", "aws-us-gov") and where the
// paste shows it.
type account struct{ partition, id, origin string }

// reEKSResourceArn is the ARN of an EKS resource: arn:PARTITION:eks:REGION:ACCOUNT:TYPE/CLUSTER…
// (cluster/NAME, nodegroup/CLUSTER/NAME/UUID, access-entry/CLUSTER/…, addon/CLUSTER/…,
// fargateprofile/CLUSTER/…, podidentityassociation/CLUSTER/…,
// https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonelastickubernetesservice.html).
var reEKSResourceArn = regexp.MustCompile(`arn:(aws[a-z-]*):eks:[a-z0-9-]+:(\d{12}):(cluster|nodegroup|access-entry|addon|fargateprofile|podidentityassociation)/([A-Za-z0-9][A-Za-z0-9_-]*)(?:/[A-Za-z0-9_.@+=,-]+)*`)

// nodeEntryTypes are the access entry types other than STANDARD: "If the type of the access
// entry is anything other than STANDARD …, the ARN must be in the same AWS account that your
// cluster is in" (https://docs.aws.amazon.com/eks/latest/userguide/creating-access-entries.html).
var nodeEntryTypes = []string{"EC2_LINUX", "EC2_WINDOWS", "EC2", "FARGATE_LINUX", "HYBRID_LINUX"}

// clusterAccount returns the account of the cluster the paste is about when the paste shows it
// reliably, and where; the zero account when it shows none, or two (then which one is the
// cluster's is not known). A node class's role (spec.role, a name) is a role of that account:
// Karpenter and Auto Mode launch the node in the cluster's account, an instance's profile and
// role are of the instance's account, and a node role's access entry (EC2_LINUX, EC2 …) must
// name a principal of the cluster's account. What shows the account:
//   - the ARN of one of the cluster's EKS resources (describe-cluster's arn, a node group's
//     nodegroupArn, an access entry's accessEntryArn, an add-on's addonArn …): its account field
//     is the account the cluster lives in, whatever principal an access entry names. An ARN
//     naming another cluster (when the cluster's name is known) is not this cluster's.
//   - the principal of a described access entry whose type is not STANDARD (nodeEntryTypes):
//     EKS refuses such an entry for a principal of another account. A STANDARD entry, and any
//     principal of list-access-entries (whose types it does not say), may be another account's
//     — cross-account administrators and CI roles are common — so they show nothing.
//   - the owner (Reservations[].OwnerId) of the instance a NodeClaim launched
//     (status.providerID): the instance's profile, and so the node class's role, are of the
//     instance's own account. Other instances of describe-instances show nothing.
//
// No sts get-caller-identity is used: it names whoever ran the CLI, often another account.
func (rd *reader) clusterAccount(ev *evidence.Evidence) account {
	cluster := ev.Target.Cluster
	if ev.Cluster != nil && ev.Cluster.Name != "" {
		cluster = ev.Cluster.Name
	}
	var found []account
	add := func(a account) {
		if a.id != "" {
			found = append(found, a)
		}
	}
	if ev.Cluster != nil {
		if m := reEKSResourceArn.FindStringSubmatch(ev.Cluster.Arn); m != nil {
			add(account{m[1], m[2], ev.Source(evidence.KindCluster) + " (the cluster's arn " + m[0] + ")"})
		}
	}
	for _, p := range slices.Sorted(maps.Keys(rd.files)) {
		if !strings.HasPrefix(p, "eks/") {
			continue
		}
		for _, m := range reEKSResourceArn.FindAllStringSubmatch(string(rd.files[p]), -1) {
			if cluster != "" && m[4] != cluster {
				continue // another cluster's resource
			}
			add(account{m[1], m[2], rd.fileOrigin[p] + " (" + m[0] + ", an ARN of the cluster's own EKS resources)"})
		}
	}
	for _, p := range slices.Sorted(maps.Keys(rd.files)) {
		if !strings.HasPrefix(p, "eks/describe-access-entry/") {
			continue
		}
		var doc any
		if json.Unmarshal(rd.files[p], &doc) != nil {
			continue
		}
		typ, principal := layout.Lookup(doc, "accessEntry.type"), layout.Lookup(doc, "accessEntry.principalArn")
		if c := layout.Lookup(doc, "accessEntry.clusterName"); !slices.Contains(nodeEntryTypes, typ) || cluster != "" && c != "" && c != cluster {
			continue
		}
		parts := strings.SplitN(principal, ":", 6)
		if len(parts) != 6 || parts[0] != "arn" || parts[2] != "iam" || len(parts[4]) != 12 {
			continue
		}
		add(account{parts[1], parts[4], rd.fileOrigin[p] + " (the " + typ + " access entry of " + principal + ": an access entry of a type other than STANDARD names a principal of the cluster's own account)"})
	}
	add(rd.claimInstanceOwner(ev))
	if len(found) == 0 {
		return account{}
	}
	for _, a := range found[1:] {
		if a.id != found[0].id || a.partition != found[0].partition {
			return account{} // two accounts: which is the cluster's is not known
		}
	}
	return found[0]
}

// claimInstanceOwner returns the account that owns the instance a NodeClaim names by its
// status.providerID (aws:///ZONE/i-…), from a pasted describe-instances (the reservation's
// OwnerId), with the partition of the zone's region; the zero account when no such instance
// was pasted or the claims name instances of two accounts.
func (rd *reader) claimInstanceOwner(ev *evidence.Evidence) account {
	b := rd.files["ec2/describe-instances.json"]
	if len(b) == 0 || len(ev.NodeClaims) == 0 {
		return account{}
	}
	zones := map[string]string{}
	for _, c := range ev.NodeClaims {
		if id := c.InstanceID(); id != "" {
			zone := strings.TrimPrefix(c.ProviderID, "aws:///")
			zones[id] = zone[:max(strings.IndexByte(zone, '/'), 0)]
		}
	}
	var out account
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var doc any
		if dec.Decode(&doc) != nil {
			break
		}
		res, _ := layout.LookupAny(doc, "Reservations").([]any)
		for _, r := range res {
			owner := layout.Lookup(r, "OwnerId")
			insts, _ := layout.LookupAny(r, "Instances").([]any)
			for _, in := range insts {
				id := layout.Lookup(in, "InstanceId")
				zone, claimed := zones[id]
				if !claimed || len(owner) != 12 {
					continue
				}
				if out.id != "" && out.id != owner {
					return account{}
				}
				out = account{partitionOfZone(zone), owner, rd.fileOrigin["ec2/describe-instances.json"] + " (the OwnerId of instance " + id + ", which a NodeClaim launched: an instance's profile and role are of its own account)"}
			}
		}
	}
	return out
}

// partitionOfZone returns the ARN partition of an availability zone's region: aws-cn for China
// (cn-…), aws-us-gov for GovCloud (us-gov-…), aws otherwise.
func partitionOfZone(zone string) string {
	switch {
	case strings.HasPrefix(zone, "cn-"):
		return "aws-cn"
	case strings.HasPrefix(zone, "us-gov-"):
		return "aws-us-gov"
	}
	return "aws"
}
