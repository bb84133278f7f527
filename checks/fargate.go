package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docFargatePodRole = "https://docs.aws.amazon.com/eks/latest/userguide/pod-execution-role.html"
	docFargateProfile = "https://docs.aws.amazon.com/eks/latest/userguide/fargate-profile.html"
)

func init() { registerChecks(fargateChecks) }

// fargateOnly: an EC2 instance's diagnosis does not judge the Fargate profiles (they are not on
// its join path); the cluster's evaluation (scan, no provisioner) does.
var fargateOnly = []string{evidence.ProvisionerFargate}

// fargateChecks judge the cluster's Fargate profiles: a Fargate pod's node joins the cluster
// with the profile's pod execution role, in the profile's (private) subnets, for the pods its
// selectors match. They are cluster-wide: scan reports them for the cluster.
func fargateChecks() []Check {
	profiles := []evidence.Kind{evidence.KindFargateProfiles}
	return []Check{
		{Meta: Meta{ID: "fargate.pod-execution-role", Title: "A Fargate profile's pod execution role cannot join its nodes", Severity: SeverityCritical,
			Needs: profiles, Optional: []evidence.Kind{evidence.KindAccessEntries, evidence.KindAWSAuth}, Stage: StageAuth, ClusterWide: true, AppliesTo: fargateOnly,
			Why:         "Every Fargate pod runs on its own node whose kubelet authenticates with the profile's pod execution role: the role must trust eks-fargate-pods.amazonaws.com, carry AmazonEKSFargatePodExecutionRolePolicy (to pull images) and be mapped — an access entry of type FARGATE_LINUX, or an aws-auth mapRoles entry with system:bootstrappers, system:nodes and system:node-proxier. Otherwise the pod stays Pending and no Fargate node registers.",
			Remediation: "aws eks create-access-entry --cluster-name CLUSTER --principal-arn ROLE_ARN --type FARGATE_LINUX (or restore its aws-auth entry with username system:node:{{SessionName}} and groups system:bootstrappers, system:nodes, system:node-proxier); let eks-fargate-pods.amazonaws.com assume the role and attach arn:aws:iam::aws:policy/AmazonEKSFargatePodExecutionRolePolicy.",
			Docs:        []string{docFargatePodRole, docAccessEntries, docAWSAuth}}, Eval: evalFargateRole,
			// a pasted aws-auth alone shows a Fargate profile's ARN mapped in place of its role
			Partial: fargateProfileArnMapped},
		{Meta: Meta{ID: "fargate.profile-public-subnet", Title: "A Fargate profile uses a public subnet", Severity: SeverityHigh,
			Needs: []evidence.Kind{evidence.KindFargateProfiles}, Optional: []evidence.Kind{evidence.KindRouteTables}, Stage: StageNetwork, ClusterWide: true, AppliesTo: fargateOnly,
			Why:         "Fargate pods get no public IP address: a profile may only name private subnets (a default route through a NAT gateway, not an internet gateway). EKS refuses to create such a profile, and one whose subnet's routes were changed to an internet gateway leaves its pods without a path to the API server, ECR and STS.",
			Remediation: "Create the profile again with private subnets only (aws eks create-fargate-profile --cluster-name CLUSTER --subnets PRIVATE_SUBNETS …), or route the subnet's 0.0.0.0/0 through a NAT gateway.",
			Docs:        []string{docFargateProfile}}, Eval: evalFargateSubnets},
		{Meta: Meta{ID: "fargate.no-matching-profile", Title: "A Pending pod meant for Fargate matches no Fargate profile", Severity: SeverityHigh,
			Needs: []evidence.Kind{evidence.KindFargateProfiles, evidence.KindPendingPods}, Stage: StageCluster, ClusterWide: true, AppliesTo: fargateOnly,
			Why:         "EKS schedules a pod on Fargate only when a profile's selector matches its namespace and every label the selector names; the fargate-scheduler leaves any other pod Pending, and no node is ever created for it.",
			Remediation: "Add a selector for the pod's namespace (and labels) to a Fargate profile — profiles cannot be edited: aws eks create-fargate-profile --cluster-name CLUSTER --fargate-profile-name NAME --pod-execution-role-arn ROLE_ARN --subnets … --selectors namespace=NAMESPACE — or remove the pod's schedulerName fargate-scheduler so EC2 nodes can run it.",
			Docs:        []string{docFargateProfile}}, Eval: evalFargatePods},
	}
}

func noFargate(ev *evidence.Evidence) []Finding {
	return one(notApplicable("", "the cluster has no Fargate profile"))
}

func evalFargateRole(ev *evidence.Evidence) []Finding {
	if len(ev.Fargate.Profiles) == 0 {
		return noFargate(ev)
	}
	src := ev.Source(evidence.KindFargateProfiles)
	var out []Finding
	for _, p := range ev.Fargate.Profiles {
		arn := p.PodExecutionRoleArn
		it := item(src, "profile %s: pod execution role %s", p.Name, arn)
		mapped, entryUnknown := false, false
		// authenticationMode CONFIG_MAP reads aws-auth alone: EKS consults no access entry and
		// ListAccessEntries refuses ("must be set to one of [API, API_AND_CONFIG_MAP]"),
		// https://docs.aws.amazon.com/eks/latest/userguide/grant-k8s-access.html
		configMapOnly := ev.Cluster != nil && ev.Cluster.AuthenticationMode == "CONFIG_MAP"
		entries := ev.AccessEntries
		if configMapOnly {
			entries = nil
		}
		for _, a := range entries {
			if sameRoleArn(a.PrincipalArn, arn) {
				mapped = mapped || a.Type == "FARGATE_LINUX"
				entryUnknown = entryUnknown || !a.Described
			}
		}
		for _, m := range roleMatches(ev.AWSAuth, arn) {
			for _, g := range m.Groups {
				mapped = mapped || g == "system:node-proxier"
			}
		}
		// unmapped only when every source that could map the role was read: the access entries
		// (the role's own described), and aws-auth unless the cluster ignores it (API mode)
		apiOnly := ev.Cluster != nil && ev.Cluster.AuthenticationMode == "API"
		known := ev.Have(evidence.KindAccessEntries) && !entryUnknown && (apiOnly || ev.Have(evidence.KindAWSAuth))
		switch {
		case !mapped && configMapOnly && ev.Have(evidence.KindAWSAuth):
			out = append(out, fail(arn, "Fargate profile "+p.Name+": pod execution role "+arn+" has no aws-auth entry with system:node-proxier (authenticationMode CONFIG_MAP reads no access entry)", it,
				item(ev.Source(evidence.KindAWSAuth), "no mapRoles entry for %s with group system:node-proxier", arn)))
		case !mapped && known:
			out = append(out, fail(arn, "Fargate profile "+p.Name+": pod execution role "+arn+" has no FARGATE_LINUX access entry and no aws-auth entry with system:node-proxier", it))
		case !mapped && (ev.Have(evidence.KindAccessEntries) || ev.Have(evidence.KindAWSAuth)):
			out = append(out, Finding{Status: StatusSkipped, Resource: arn, Message: "Fargate profile " + p.Name + ": whether pod execution role " + arn + " is mapped is unknown: " +
				strings.TrimPrefix(missingReasons(ev, evidence.KindAccessEntries, evidence.KindAWSAuth)+unknownEntry(entryUnknown, arn), "; ")})
		case p.RoleRead && p.Role != nil && !trustsService(p.Role, "eks-fargate-pods.amazonaws.com"):
			out = append(out, fail(arn, "Fargate profile "+p.Name+": pod execution role "+p.Role.Name+" does not let eks-fargate-pods.amazonaws.com assume it", it))
		case p.RoleRead && !hasPolicyNamed(p.RolePolicies, "AmazonEKSFargatePodExecutionRolePolicy"):
			out = append(out, warn(arn, "Fargate profile "+p.Name+": pod execution role has no AmazonEKSFargatePodExecutionRolePolicy attached (a customer-managed policy may grant the same)", it))
		case !mapped:
			out = append(out, Finding{Status: StatusSkipped, Resource: arn, Message: "neither access entries nor aws-auth were read"})
		default:
			out = append(out, pass(arn, "Fargate profile "+p.Name+": pod execution role is mapped", it))
		}
	}
	return out
}

// unknownEntry says that the role's access entry was listed but not described.
func unknownEntry(unknown bool, arn string) string {
	if !unknown {
		return ""
	}
	return "; the access entry of " + arn + " was listed but not described (type unknown)"
}

func trustsService(r *evidence.Role, svc string) bool {
	if r.TrustPolicy == nil {
		return true // not returned: not judged here
	}
	for _, st := range r.TrustPolicy.Statement {
		if st.Effect == "Allow" && actionMatches(st.Action, "sts:AssumeRole") && principalHasService(st.Principal, svc) {
			return true
		}
	}
	return false
}

func hasPolicyNamed(ps []evidence.AttachedPolicy, name string) bool {
	for _, p := range ps {
		if p.Name == name || strings.HasSuffix(p.Arn, "/"+name) {
			return true
		}
	}
	return false
}

func sameRoleArn(a, b string) bool {
	x, _ := canonicalRoleArn(a)
	y, _ := canonicalRoleArn(b)
	return x != "" && x == y
}

func evalFargateSubnets(ev *evidence.Evidence) []Finding {
	if len(ev.Fargate.Profiles) == 0 {
		return noFargate(ev)
	}
	if !ev.Have(evidence.KindRouteTables) {
		// the routes decide whether a subnet is public; without them nothing is judged
		return one(Finding{Status: StatusSkipped, Message: "missing evidence: " + missingReasons(ev, evidence.KindRouteTables)})
	}
	var out []Finding
	for _, p := range ev.Fargate.Profiles {
		var public []string
		for _, sn := range p.Subnets {
			vpc := ""
			for _, s := range ev.Subnets {
				if s.ID == sn {
					vpc = s.VpcID
				}
			}
			rtID := subnetRouteTable(ev, sn, vpc)
			for _, rt := range ev.RouteTables {
				if rt.ID != rtID {
					continue
				}
				for _, r := range rt.Routes {
					if r.DestinationCIDR == "0.0.0.0/0" && strings.HasPrefix(r.Target, "igw-") && r.State != "blackhole" {
						public = append(public, sn+" ("+rtID+": 0.0.0.0/0 → "+r.Target+")")
					}
				}
			}
		}
		it := item(ev.Source(evidence.KindFargateProfiles), "profile %s subnets %s", p.Name, strings.Join(p.Subnets, ", "))
		if len(public) > 0 {
			out = append(out, fail(p.Name, "Fargate profile "+p.Name+" uses public subnets: "+strings.Join(public, "; "), it))
		} else {
			out = append(out, pass(p.Name, "Fargate profile "+p.Name+" uses private subnets only", it))
		}
	}
	return out
}

func evalFargatePods(ev *evidence.Evidence) []Finding {
	if len(ev.Fargate.Profiles) == 0 {
		return noFargate(ev)
	}
	namespaces := map[string]bool{}
	for _, p := range ev.Fargate.Profiles {
		for _, s := range p.Selectors {
			namespaces[s.Namespace] = true
		}
	}
	var unmatched []string
	for _, pod := range ev.Fargate.PendingPods {
		// pods meant for Fargate: the fargate-scheduler's, or those of a namespace a profile names
		if pod.SchedulerName != "fargate-scheduler" && !namespaces[pod.Namespace] {
			continue
		}
		if !fargateSelects(ev.Fargate.Profiles, pod) {
			unmatched = append(unmatched, pod.Namespace+"/"+pod.Name)
		}
	}
	sort.Strings(unmatched)
	it := item(ev.Source(evidence.KindPendingPods), "%d Pending pods", len(ev.Fargate.PendingPods))
	if len(unmatched) > 0 {
		return one(fail(unmatched[0], "Pending pods meant for Fargate match no profile's selectors: "+strings.Join(unmatched, ", "), it))
	}
	return one(pass("", "every Pending pod meant for Fargate matches a profile", it))
}

func fargateSelects(ps []evidence.FargateProfile, pod evidence.PendingPod) bool {
	for _, p := range ps {
		for _, s := range p.Selectors {
			if s.Namespace != pod.Namespace {
				continue
			}
			all := true
			for k, v := range s.Labels {
				all = all && pod.Labels[k] == v
			}
			if all {
				return true
			}
		}
	}
	return false
}

// isFargateProfileArn reports whether arn is an EKS Fargate profile's ARN,
// arn:PARTITION:eks:REGION:ACCOUNT:fargateprofile/CLUSTER/PROFILE/UUID (the fargateprofile
// resource type of
// https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonelastickubernetesservice.html#amazonelastickubernetesservice-resources-for-iam-policies).
// Placeholders in its fields (<region>) are accepted: only the service and the resource type
// are read.
func isFargateProfileArn(arn string) bool {
	f := strings.SplitN(strings.ToLower(strings.TrimSpace(arn)), ":", 6)
	return len(f) == 6 && f[0] == "arn" && f[2] == "eks" && strings.HasPrefix(f[5], "fargateprofile/")
}

// fargateProfileArnMapped is fargate.pod-execution-role's judgement of aws-auth alone: a
// mapRoles entry whose rolearn is a Fargate profile's ARN maps no principal. A Fargate pod's
// kubelet authenticates as the profile's pod execution role, an IAM role
// (https://docs.aws.amazon.com/eks/latest/userguide/pod-execution-role.html); the authenticator
// compares the caller's role ARN with each rolearn, so the profile's ARN never matches and the
// role it stands for stays unmapped. No such entry, or aws-auth not read, judges nothing.
func fargateProfileArnMapped(ev *evidence.Evidence) []Finding {
	if !ev.Have(evidence.KindAWSAuth) || ev.AWSAuth == nil {
		return nil
	}
	var out []Finding
	for _, m := range ev.AWSAuth.Roles {
		if !isFargateProfileArn(m.RoleArn) {
			continue
		}
		out = append(out, fail(m.RoleArn, fmt.Sprintf("mapRoles entry %d maps the Fargate profile ARN %s, not a role: Fargate's kubelets authenticate as the profile's pod execution role (arn:aws:iam::ACCOUNT:role/NAME), which this entry therefore does not map", m.Index+1, m.RoleArn),
			item(ev.Source(evidence.KindAWSAuth), "mapRoles entry %d rolearn: %s", m.Index+1, m.RoleArn)))
	}
	return out
}
