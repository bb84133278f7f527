package checks

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docAWSAuth           = "https://docs.aws.amazon.com/eks/latest/userguide/auth-configmap.html"
	docAccessEntries     = "https://docs.aws.amazon.com/eks/latest/userguide/access-entries.html"
	docSetAuthMode       = "https://docs.aws.amazon.com/eks/latest/userguide/setting-up-access-entries.html"
	docCreateAccessEntry = "https://docs.aws.amazon.com/eks/latest/userguide/creating-access-entries.html"
)

// NodeUsername is the username a node's mapping must carry: the authenticator replaces the
// template with the instance's private DNS name, which is the node name the kubelet registers.
const NodeUsername = "system:node:{{EC2PrivateDNSName}}"

// authMode returns the cluster's authentication mode, "" when unknown. DescribeCluster returns
// accessConfig for every cluster since access entries launched (clusters created before are
// CONFIG_MAP, and say so), so a describe-cluster without it was written by an AWS CLI whose
// models predate the field (botocore 1.34.2, 2023-12-18: AWS CLI v1 1.32.2) or narrowed by a
// --query: the mode is unknown, not CONFIG_MAP.
func authMode(ev *evidence.Evidence) string {
	if ev.Cluster == nil {
		return ""
	}
	return ev.Cluster.AuthenticationMode
}

// unknownAuthMode is the reason an absent authenticationMode gives.
const unknownAuthMode = "the cluster's authenticationMode: describe-cluster has no accessConfig (an AWS CLI older than v1 1.32.2 / botocore 1.34.2 drops it, as does a --query): collect it again with a current AWS CLI"

// missingAll returns a skipped finding when none of kinds was collected.
func missingAll(ev *evidence.Evidence, resource string, kinds ...evidence.Kind) (Finding, bool) {
	var reasons []string
	for _, k := range kinds {
		if ev.Have(k) {
			return Finding{}, false
		}
		reasons = append(reasons, fmt.Sprintf("%s: %s", k, ev.GapFor(k).Reason))
	}
	return Finding{Status: StatusSkipped, Resource: resource, Message: "missing evidence: " + strings.Join(reasons, "; ")}, true
}

func authChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "auth.role-not-mapped", Title: "Node role is not mapped to a Kubernetes identity", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindNodeRole}, Optional: []evidence.Kind{evidence.KindAWSAuth, evidence.KindAccessEntries, evidence.KindCluster},
			Stage: StageAuth, Explains: explains("runtime.unauthorized", "windows.kube-proxy-group", "auth.wrong-username", "auth.missing-groups", "auth.authenticator-denied", "runtime.cni-not-ready", "karpenter.instance-profile"),
			Why:         "EKS turns the node's IAM role into the Kubernetes user system:node:<private DNS name> only through an aws-auth mapRoles entry or an EC2_LINUX / EC2_WINDOWS access entry; without one the kubelet gets 401 Unauthorized and the node never registers.",
			Remediation: "Create an access entry: aws eks create-access-entry --cluster-name CLUSTER --principal-arn ROLE_ARN --type EC2_LINUX (EC2_WINDOWS for Windows), or add to aws-auth mapRoles: '- rolearn: ROLE_ARN_WITHOUT_PATH / username: system:node:{{EC2PrivateDNSName}} / groups: [system:bootstrappers, system:nodes]' (kubectl edit -n kube-system configmap/aws-auth).",
			Docs:        []string{docAWSAuth, docAccessEntries, docCreateAccessEntry}},
			Eval: func(ev *evidence.Evidence) []Finding {
				roleArn := nodeRoleArn(ev)
				if name := nodeRoleNameOnly(ev); name != "" {
					roleArn = name
				}
				if f, skip := missingAll(ev, roleArn, evidence.KindAWSAuth, evidence.KindAccessEntries); skip {
					return one(f)
				}
				if name := nodeRoleNameOnly(ev); name != "" {
					return roleMappedByName(ev, name)
				}
				var its []EvidenceItem
				mapped := false
				if ev.Have(evidence.KindAWSAuth) {
					if m := exactRoleMapping(ev.AWSAuth, roleArn); m != nil {
						mapped = true
						its = append(its, item(ev.Source(evidence.KindAWSAuth), "mapRoles entry %d: rolearn %s", m.Index+1, m.RoleArn))
					} else if !ev.AWSAuth.Present {
						its = append(its, item(ev.Source(evidence.KindAWSAuth), "ConfigMap kube-system/aws-auth does not exist"))
					} else {
						its = append(its, item(ev.Source(evidence.KindAWSAuth), "no mapRoles entry has rolearn %s", canonicalArnForDisplay(roleArn)))
					}
				}
				if ev.Have(evidence.KindAccessEntries) {
					if e := nodeAccessEntry(ev, roleArn); e != nil {
						mapped = true
						its = append(its, item(ev.Source(evidence.KindAccessEntries), "access entry for %s (type %s)", e.PrincipalArn, orUnknown(e.Type)))
					} else {
						its = append(its, item(ev.Source(evidence.KindAccessEntries), "no access entry for %s among %s", roleArn, nOf(len(ev.AccessEntries), "entry", "entries")))
					}
				}
				if mapped {
					return one(pass(roleArn, "node role is mapped", its...))
				}
				var near []string
				if len(roleMatches(ev.AWSAuth, roleArn)) > 0 {
					near = append(near, "aws-auth maps the role with an IAM path (see auth.role-path)")
				}
				if ev.Instance != nil && ev.AWSAuth != nil && instanceProfileMapping(ev.AWSAuth, ev.Instance.InstanceProfileArn) != nil {
					near = append(near, "aws-auth maps the instance profile ARN instead of the role (see auth.instance-profile-arn)")
				}
				typo := misspeltNodeMapping(ev.AWSAuth, roleArn)
				if typo != nil {
					near = append(near, fmt.Sprintf("mapRoles entry %d maps %s as a node, the node role's name with one character added, dropped or swapped: that entry was meant for the node role and names another role", typo.Index+1, typo.RoleArn))
					its = append(its, item(ev.Source(evidence.KindAWSAuth), "mapRoles entry %d: rolearn %s, username %s", typo.Index+1, typo.RoleArn, typo.Username))
				}
				msg := fmt.Sprintf("node role %s is in neither aws-auth mapRoles nor an access entry", roleArn)
				if len(near) > 0 {
					msg += ": " + strings.Join(near, "; ")
				}
				if typo != nil {
					// the node role's mapping is the misspelt aws-auth entry: whatever the
					// uncollected source holds, the mapping meant for it does not map it
					return one(fail(roleArn, msg, its...))
				}
				return one(unmapped(ev, roleArn, msg, its))
			}},
		{Meta: Meta{ID: "auth.role-path", Title: "aws-auth maps the role ARN with its IAM path", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindAWSAuth}, Optional: []evidence.Kind{evidence.KindNodeRole, evidence.KindAccessEntries, evidence.KindCluster}, Stage: StageAuth,
			Explains:    explains("auth.role-not-mapped", "runtime.unauthorized"),
			Why:         "The authenticator compares the caller's role ARN as STS reports it, which never contains the IAM path; a mapRoles rolearn such as arn:aws:iam::111122223333:role/eks/NodeRole therefore never matches and the kubelet is Unauthorized.",
			Remediation: "Edit aws-auth (kubectl edit -n kube-system configmap/aws-auth) and write the rolearn without the path: arn:aws:iam::ACCOUNT:role/ROLE_NAME.",
			Docs:        []string{docAWSAuth, docMigrateAccessEntries}},
			Eval: accessEntryPrecedes(func(ev *evidence.Evidence) []Finding {
				roleArn := nodeRoleArn(ev)
				if roleArn == "" {
					// the node role is unknown: every entry with a path is one the authenticator never
					// matches, unless another entry maps the same role without its path
					stripped := map[string]bool{}
					for _, m := range ev.AWSAuth.Roles {
						if c, ok := canonicalRoleArn(m.RoleArn); ok && !roleArnHasPath(m.RoleArn) {
							stripped[c] = true
						}
					}
					var out []Finding
					for _, m := range ev.AWSAuth.Roles {
						if c, _ := canonicalRoleArn(m.RoleArn); roleArnHasPath(m.RoleArn) && !stripped[c] {
							out = append(out, fail(m.RoleArn, fmt.Sprintf("mapRoles entry %d maps %s; the authenticator compares ARNs without the IAM path, so it only matches %s", m.Index+1, m.RoleArn, canonicalArnForDisplay(m.RoleArn)),
								item(ev.Source(evidence.KindAWSAuth), "rolearn: %s", m.RoleArn)))
						}
					}
					if len(out) > 0 {
						return out
					}
					return one(pass("kube-system/aws-auth", fmt.Sprintf("no mapRoles entry carries an IAM path (%d entr%s)", len(ev.AWSAuth.Roles), ies(len(ev.AWSAuth.Roles))),
						item(ev.Source(evidence.KindAWSAuth), "%d mapRoles entr%s", len(ev.AWSAuth.Roles), ies(len(ev.AWSAuth.Roles)))))
				}
				exact := exactRoleMapping(ev.AWSAuth, roleArn)
				for _, m := range roleMatches(ev.AWSAuth, roleArn) {
					if roleArnHasPath(m.RoleArn) && exact == nil {
						want, _ := canonicalRoleArn(roleArn)
						return one(fail(roleArn, fmt.Sprintf("mapRoles entry %d maps %s; the authenticator only matches %s (no path)", m.Index+1, m.RoleArn, canonicalArnForDisplay(roleArn)),
							item(ev.Source(evidence.KindAWSAuth), "rolearn: %s (compared as %s)", m.RoleArn, want)))
					}
				}
				return one(pass(roleArn, "no aws-auth mapping of the node role carries an IAM path", item(ev.Source(evidence.KindAWSAuth), "%d mapRoles entries", len(ev.AWSAuth.Roles))))
			})},
		{Meta: Meta{ID: "auth.instance-profile-arn", Title: "aws-auth maps the instance profile ARN instead of the role", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindAWSAuth}, Optional: []evidence.Kind{evidence.KindInstance, evidence.KindAccessEntries, evidence.KindCluster}, Stage: StageAuth,
			Explains:    explains("auth.role-not-mapped", "runtime.unauthorized"),
			Why:         "Nodes authenticate as their role, not as their instance profile; a mapRoles entry with an arn:aws:iam::…:instance-profile/… ARN never matches.",
			Remediation: "Replace the instance-profile ARN in aws-auth mapRoles with the ARN of the role inside it (aws iam get-instance-profile --instance-profile-name PROFILE --query 'InstanceProfile.Roles[0].Arn').",
			Docs:        []string{docAWSAuth, docInstanceProfile, docMigrateAccessEntries}},
			Eval: accessEntryPrecedes(func(ev *evidence.Evidence) []Finding {
				profile, resource := "", "kube-system/aws-auth"
				if ev.Instance != nil {
					profile, resource = ev.Instance.InstanceProfileArn, ev.Instance.InstanceProfileArn
				}
				if m := instanceProfileMapping(ev.AWSAuth, profile); m != nil {
					return one(fail(m.RoleArn, fmt.Sprintf("mapRoles entry %d maps instance profile %s instead of its role", m.Index+1, m.RoleArn),
						item(ev.Source(evidence.KindAWSAuth), "rolearn: %s", m.RoleArn)))
				}
				return one(pass(resource, "no aws-auth entry maps an instance profile ARN", item(ev.Source(evidence.KindAWSAuth), "%d mapRoles entr%s", len(ev.AWSAuth.Roles), ies(len(ev.AWSAuth.Roles)))))
			})},
		{Meta: Meta{ID: "auth.wrong-username", Title: "Node mapping has the wrong username", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindAWSAuth}, Optional: []evidence.Kind{evidence.KindNodeRole, evidence.KindAccessEntries, evidence.KindCluster}, Stage: StageAuth, Explains: explains("runtime.unauthorized", "runtime.node-name-not-found"),
			Why:         "The Node authorizer lets a kubelet create and update only the Node named after its user; the username must be system:node:{{EC2PrivateDNSName}} so it equals the node name the kubelet registers, or system:node:{{SessionName}} for a node that names itself after its instance ID (nodeadm featureGates.InstanceIdNodeName, Bottlerocket hostname-override-source instance-id).",
			Remediation: "Set the entry's username to system:node:{{EC2PrivateDNSName}} in aws-auth (kubectl edit -n kube-system configmap/aws-auth), or replace the mapping with an EC2_LINUX access entry, which sets it for you.",
			Docs:        []string{docAWSAuth, "https://kubernetes.io/docs/reference/access-authn-authz/node/", "https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/doc/examples.md#using-instance-id-as-node-name", docMigrateAccessEntries}},
			Eval: accessEntryPrecedes(func(ev *evidence.Evidence) []Finding {
				roleArn := nodeRoleArn(ev)
				if roleArn == "" {
					// no node role picks the entry, but the node's configuration may say how it names
					// its Node: when no node mapping has the username that naming needs, none can
					// admit this node, whichever role it has
					want, naming := nodeNamingUsername(ev)
					fits := want == "" || anyNodeMappingHas(ev.AWSAuth, want)
					fs := judgeNodeMappings(ev, "a node username", func(m evidence.RoleMapping) string {
						u := strings.TrimSpace(m.Username)
						if m.Cut && u == "" {
							return "" // a pasted fragment cut above the entry's username
						}
						if !nodeUsernames[u] {
							return fmt.Sprintf("mapRoles entry %d maps node role %s to username %q, not %s", m.Index+1, m.RoleArn, m.Username, NodeUsername)
						}
						if !fits && u != want {
							return fmt.Sprintf("mapRoles entry %d maps node role %s to username %q, but the node names its Node %s and no node mapping has username %s: the Node authorizer refuses a kubelet whose user does not name its Node", m.Index+1, m.RoleArn, m.Username, naming, want)
						}
						return ""
					})
					if !fits {
						for i := range fs {
							if fs[i].Status == StatusFail && strings.Contains(fs[i].Message, "the node names its Node") {
								fs[i].Evidence = append(fs[i].Evidence, item(ev.Source(evidence.KindBootstrap), "the node names its Node %s", naming))
							}
						}
					}
					return fs
				}
				m := exactRoleMapping(ev.AWSAuth, roleArn)
				if m == nil {
					return one(notApplicable(roleArn, "aws-auth has no entry for the node role"))
				}
				it := item(ev.Source(evidence.KindAWSAuth), "mapRoles entry %d username: %q", m.Index+1, m.Username)
				u := strings.TrimSpace(m.Username)
				named, how := instanceIDNodeName(ev)
				switch {
				case named == nameByInstanceID && u == SessionNodeUsername:
					return one(pass(roleArn, fmt.Sprintf("username is %s, and the node names its Node after its instance ID (%s)", SessionNodeUsername, how), it))
				case named == nameByInstanceID:
					return one(fail(roleArn, fmt.Sprintf("the node names its Node after its instance ID (%s), but mapRoles entry %d maps the node role to username %q: the Node authorizer refuses a kubelet whose user does not name its Node; use %s", how, m.Index+1, m.Username, SessionNodeUsername), it))
				case u == SessionNodeUsername && named == nameUnknown:
					return one(warn(roleArn, fmt.Sprintf("mapRoles entry %d maps the node role to username %s, which fits only a node that names its Node after its instance ID (nodeadm featureGates.InstanceIdNodeName, Bottlerocket hostname-override-source instance-id); %s, so whether this node does cannot be told — otherwise the username must be %s", m.Index+1, SessionNodeUsername, how, NodeUsername), it))
				case u != NodeUsername:
					return one(fail(roleArn, fmt.Sprintf("mapRoles entry %d maps the node role to username %q, not %s", m.Index+1, m.Username, NodeUsername), it))
				}
				return one(pass(roleArn, "username is "+NodeUsername, it))
			})},
		{Meta: Meta{ID: "auth.missing-groups", Title: "Node mapping lacks system:bootstrappers or system:nodes", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindAWSAuth}, Optional: []evidence.Kind{evidence.KindNodeRole, evidence.KindAccessEntries, evidence.KindCluster}, Stage: StageAuth, Explains: explains("runtime.unauthorized"),
			Why:         "system:nodes lets the Node authorizer admit the kubelet and system:bootstrappers lets it create its certificate signing requests; without both the kubelet is Forbidden from registering or never gets a serving certificate.",
			Remediation: "Give the node role's aws-auth entry groups: [system:bootstrappers, system:nodes] (kubectl edit -n kube-system configmap/aws-auth).",
			Docs:        []string{docAWSAuth, "https://kubernetes.io/docs/reference/access-authn-authz/kubelet-tls-bootstrapping/", docMigrateAccessEntries}},
			Eval: accessEntryPrecedes(func(ev *evidence.Evidence) []Finding {
				roleArn := nodeRoleArn(ev)
				if roleArn == "" {
					return judgeNodeMappings(ev, "both node groups", func(m evidence.RoleMapping) string {
						if missing := missingNodeGroups(m); len(missing) > 0 {
							return fmt.Sprintf("mapRoles entry %d maps %s as a node (username %s) but lacks group%s %s", m.Index+1, m.RoleArn, m.Username, plural(int64(len(missing))), strings.Join(missing, ", "))
						}
						return ""
					})
				}
				m := exactRoleMapping(ev.AWSAuth, roleArn)
				if m == nil {
					return one(notApplicable(roleArn, "aws-auth has no entry for the node role"))
				}
				missing := missingNodeGroups(*m)
				it := item(ev.Source(evidence.KindAWSAuth), "mapRoles entry %d groups: %s", m.Index+1, quoteList(m.Groups))
				if len(missing) > 0 {
					return one(fail(roleArn, fmt.Sprintf("mapRoles entry %d lacks %s %s", m.Index+1, map[bool]string{true: "group", false: "groups"}[len(missing) == 1], strings.Join(missing, ", ")), it))
				}
				return one(pass(roleArn, "mapping has system:bootstrappers and system:nodes", it))
			})},
		{Meta: Meta{ID: "auth.aws-auth-malformed", ClusterWide: true, Title: "aws-auth ConfigMap does not parse", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindAWSAuth}, Stage: StageAuth,
			Explains:    explains("auth.role-not-mapped", "auth.wrong-username", "auth.missing-groups", "runtime.unauthorized", "windows.kube-proxy-group"),
			Why:         "The authenticator loads nothing from a mapRoles/mapUsers value that is not valid YAML and silently ignores misspelled fields, so every node and user mapped there loses access at once.",
			Remediation: "Fix the YAML shown (kubectl edit -n kube-system configmap/aws-auth), keeping each entry as '- rolearn: … / username: … / groups: [...]'; or move node mappings to access entries (aws eks create-access-entry --type EC2_LINUX).",
			Docs:        []string{docAWSAuth}},
			Eval: func(ev *evidence.Evidence) []Finding {
				a := ev.AWSAuth
				src := ev.Source(evidence.KindAWSAuth)
				if !a.Present {
					return one(notApplicable("kube-system/aws-auth", "the ConfigMap does not exist"))
				}
				// a placeholder the authenticator does not know, in a username, is a wrong username
				// (auth.wrong-username judges it), not a ConfigMap that fails to parse
				var problems []evidence.AuthProblem
				for _, p := range a.Problems {
					if !p.Username {
						problems = append(problems, p)
					}
				}
				if len(problems) == 0 {
					return one(pass("kube-system/aws-auth", fmt.Sprintf("aws-auth parses: %d role and %d user mappings", len(a.Roles), len(a.Users)), item(src, "mapRoles, mapUsers and mapAccounts parse")))
				}
				var its []EvidenceItem
				for _, p := range problems {
					where := p.Key
					if p.Line > 0 {
						where += fmt.Sprintf(" line %d", p.Line)
					}
					its = append(its, item(src, "%s: %s", where, p.Message))
				}
				return one(fail("kube-system/aws-auth", fmt.Sprintf("aws-auth has %s: %s", nOf(len(problems), "problem", "problems"), problems[0].Message), its...))
			}},
		{Meta: Meta{ID: "auth.mapping-removed", Title: "A change removes a node role's mapping", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindMappingChanges}, Optional: []evidence.Kind{evidence.KindNodeRole}, Stage: StageAuth,
			Explains:    explains("auth.role-not-mapped", "runtime.unauthorized"),
			Why:         "Nodes stay in the cluster only while their role is mapped; a change that drops the node role's aws-auth entry or deletes its access entry (a Terraform apply that rewrites aws-auth, a module upgrade, a hand edit) makes every node of that role Unauthorized at its next token refresh and stops new nodes from joining.",
			Remediation: "Keep the node role's entry (rolearn without path, username system:node:{{EC2PrivateDNSName}}, groups system:bootstrappers and system:nodes) in the aws-auth your tool manages before applying, or give the role an EC2_LINUX access entry (aws eks create-access-entry --cluster-name CLUSTER --principal-arn ROLE_ARN --type EC2_LINUX), which aws-auth edits cannot remove.",
			Docs:        []string{docAWSAuth, docAccessEntries}},
			Eval: func(ev *evidence.Evidence) []Finding {
				src := ev.Source(evidence.KindMappingChanges)
				roleArn := nodeRoleArn(ev)
				var out []Finding
				for _, c := range ev.MappingChanges {
					m := evidence.RoleMapping{RoleArn: c.RoleArn, Username: c.Username, Groups: c.Groups}
					mine := roleArn != "" && len(roleMatches(&evidence.AWSAuth{Roles: []evidence.RoleMapping{m}}, roleArn)) > 0
					if c.Action != "removed" && c.Action != "left-out" || !(mine || roleArn == "" && isNodeMapping(m)) {
						continue
					}
					if e := nodeAccessEntry(ev, c.RoleArn); mine && e != nil && (e.Type == "EC2_LINUX" || e.Type == "EC2_WINDOWS" || e.Type == "EC2" || e.Type == "HYBRID_LINUX") {
						continue // an access entry still maps the role: the aws-auth edit does not unmap it
					}
					where := c.Via
					if c.Line > 0 {
						where += fmt.Sprintf(" (line %d)", c.Line)
					}
					what := fmt.Sprintf(" (username %s, groups %s)", c.Username, strings.Join(c.Groups, ", "))
					switch {
					case c.Username == "" && len(c.Groups) == 0:
						what = "" // the change shows only the content it left (an audited write)
					case c.Username == "":
						what = fmt.Sprintf(" (groups %s)", strings.Join(c.Groups, ", "))
					}
					if c.Action == "left-out" {
						out = append(out, fail(c.RoleArn, fmt.Sprintf("%s leaves the node role %s out of mapRoles, and no EC2 access entry maps it (the log does not show aws-auth before this write, so the role may never have been mapped)", c.Via, c.RoleArn),
							item(src, "%s: mapRoles without rolearn %s", where, c.RoleArn)))
						continue
					}
					if c.RoleArn == "" {
						// the paste ends inside the removed entry, above its rolearn
						out = append(out, fail("kube-system/aws-auth", fmt.Sprintf("%s removes a node mapping%s; its rolearn is cut off in the paste", c.Via, what),
							item(src, "%s: a removed mapRoles entry with groups %s", where, strings.Join(c.Groups, ", "))))
						continue
					}
					out = append(out, fail(c.RoleArn, fmt.Sprintf("%s removes the node mapping of %s%s and adds it nowhere else", c.Via, c.RoleArn, what),
						item(src, "%s: - rolearn %s", where, c.RoleArn)))
				}
				if len(out) > 0 {
					return out
				}
				return one(pass("aws-auth", fmt.Sprintf("%d mapping change%s, none removes a node mapping", len(ev.MappingChanges), plural(int64(len(ev.MappingChanges)))),
					item(src, "%d change%s", len(ev.MappingChanges), plural(int64(len(ev.MappingChanges))))))
			}},
		{Meta: Meta{ID: "auth.access-mode", Title: "Authentication mode ignores the mapping that exists", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCluster}, Optional: []evidence.Kind{evidence.KindNodeRole, evidence.KindAWSAuth, evidence.KindAccessEntries},
			Stage: StageAuth, Explains: explains("auth.role-not-mapped", "runtime.unauthorized"),
			Why:         "With authenticationMode CONFIG_MAP EKS ignores access entries, and with API it ignores aws-auth; a node mapped only in the ignored source is Unauthorized.",
			Remediation: "Create the mapping in the source the mode reads. Under API: aws eks create-access-entry --cluster-name CLUSTER --principal-arn ROLE_ARN --type EC2_LINUX (EC2_WINDOWS for Windows); a mode cannot move back from API. Under CONFIG_MAP: add the role to aws-auth mapRoles, or read both sources with aws eks update-cluster-config --name CLUSTER --access-config authenticationMode=API_AND_CONFIG_MAP (modes only move towards API).",
			Docs:        []string{docSetAuthMode, docAccessEntries}},
			Eval: func(ev *evidence.Evidence) []Finding {
				roleArn := nodeRoleArn(ev)
				if f, skip := missingAll(ev, roleArn, evidence.KindAWSAuth, evidence.KindAccessEntries); skip {
					return one(f)
				}
				if roleArn == "" && ev.Instance == nil {
					return ignoredNodeMappings(ev)
				}
				if !ev.Have(evidence.KindNodeRole) && roleArn == "" {
					return one(Finding{Status: StatusSkipped, Message: "missing evidence: " + missingReasons(ev, evidence.KindNodeRole)})
				}
				mode := authMode(ev)
				if mode == "" {
					return one(Finding{Status: StatusSkipped, Resource: roleArn, Message: "missing evidence: " + unknownAuthMode})
				}
				it := item(ev.Source(evidence.KindCluster), "accessConfig.authenticationMode %s", mode)
				inCM := ev.Have(evidence.KindAWSAuth) && exactRoleMapping(ev.AWSAuth, roleArn) != nil
				inAPI := ev.Have(evidence.KindAccessEntries) && nodeAccessEntry(ev, roleArn) != nil
				switch {
				case mode == "CONFIG_MAP" && inAPI && !inCM && ev.Have(evidence.KindAWSAuth):
					return one(fail(roleArn, "the node role has an access entry, but authenticationMode CONFIG_MAP reads only aws-auth", it))
				case mode == "API" && inCM && !inAPI && ev.Have(evidence.KindAccessEntries):
					return one(fail(roleArn, "the node role is mapped in aws-auth, but authenticationMode API ignores aws-auth", it))
				case !inCM && !inAPI && (!ev.Have(evidence.KindAWSAuth) || !ev.Have(evidence.KindAccessEntries)):
					// the mapping may sit in the source that was not collected
					return one(Finding{Status: StatusSkipped, Resource: roleArn, Message: "missing evidence: " + missingReasons(ev, evidence.KindAWSAuth, evidence.KindAccessEntries)})
				case !inCM && !inAPI:
					return one(notApplicable(roleArn, "the node role is mapped nowhere (see auth.role-not-mapped)"))
				}
				return one(pass(roleArn, fmt.Sprintf("authenticationMode %s admits the node role's mapping", mode), it))
			}},
		{Meta: Meta{ID: "auth.access-entry-type", Title: "Node role's access entry has the wrong type", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindAccessEntries, evidence.KindNodeRole}, Optional: []evidence.Kind{evidence.KindInstance, evidence.KindImage},
			Stage: StageAuth, Explains: explains("auth.role-not-mapped", "runtime.unauthorized", "windows.kube-proxy-group", "runtime.cni-not-ready"),
			Why:         "Only EC2_LINUX and EC2_WINDOWS access entries make EKS map the role of an EC2 node to system:node:{{EC2PrivateDNSName}} with the node groups (type EC2 maps it to system:node:{{SessionName}}, for EKS Auto Mode node roles and for nodes that name themselves after their instance ID with nodeadm's InstanceIdNodeName feature gate — which in turn need it; HYBRID_LINUX is for hybrid nodes); a STANDARD entry cannot hold system:nodes, and a Windows node also needs the eks:kube-proxy-windows group that only EC2_WINDOWS adds.",
			Remediation: "The type of an access entry cannot be changed: aws eks delete-access-entry --cluster-name CLUSTER --principal-arn ROLE_ARN, then aws eks create-access-entry --cluster-name CLUSTER --principal-arn ROLE_ARN --type EC2_LINUX (or EC2_WINDOWS).",
			Docs:        []string{docAccessEntries, docCreateAccessEntry, "https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/doc/examples.md#using-instance-id-as-node-name"}},
			Eval: func(ev *evidence.Evidence) []Finding {
				roleArn := nodeRoleArn(ev)
				e := nodeAccessEntry(ev, roleArn)
				if e == nil {
					return one(notApplicable(roleArn, "the node role has no access entry"))
				}
				if !e.Described {
					why := "eks:DescribeAccessEntry for " + e.PrincipalArn + " was not collected"
					if e.DescribeGap != "" {
						why += ": " + e.DescribeGap
					}
					return one(Finding{Status: StatusSkipped, Resource: roleArn, Message: "missing evidence: " + why})
				}
				return judgeNodeEntryType(ev, roleArn, e, ev.Source(evidence.KindAccessEntries))
			},
			// a pasted describe-access-entry of the node role says its type without the list
			Partial: func(ev *evidence.Evidence) []Finding {
				if !ev.Have(evidence.KindNodeRole) {
					return nil
				}
				roleArn := nodeRoleArn(ev)
				if e := describedAccessEntry(ev, roleArn); e != nil {
					return judgeNodeEntryType(ev, roleArn, e, e.Source)
				}
				return nil
			}},
	}
}

// unmapped is auth.role-not-mapped's finding for a node role (resource) that no collected
// mapping source maps: a failure, or a warning when a source the cluster's authenticationMode
// reads (or may read: the mode unknown) was not collected.
func unmapped(ev *evidence.Evidence, resource, msg string, its []EvidenceItem) Finding {
	if !ev.Have(evidence.KindAWSAuth) || !ev.Have(evidence.KindAccessEntries) {
		mode := authMode(ev)
		otherAdmitted := (!ev.Have(evidence.KindAWSAuth) && mode != "API") || (!ev.Have(evidence.KindAccessEntries) && mode != "CONFIG_MAP")
		if otherAdmitted || !ev.Have(evidence.KindCluster) {
			return warn(resource, msg+" (the other mapping source was not collected, so it may be mapped there)", its...)
		}
	}
	return fail(resource, msg, its...)
}

// roleMappedByName judges auth.role-not-mapped for a node role known only by its name (see
// nodeRoleNameOnly): its ARN would need the cluster's account, which the input does not show.
// What can still be told soundly is told:
//   - an access entry's principal and an aws-auth rolearn name a role by ARN, whose last path
//     segment is the role's name; the node's credentials are the role's, so a mapping of the node
//     role has that name whatever its account and path. No mapping whose role has the name
//     (any account; an access entry under any path) means the node role is mapped nowhere: it
//     fails as a role known by ARN does (a warning when a source the mode reads was not
//     collected).
//   - a mapping of a role of that name is the node role's when its account is the cluster's
//     (node roles are in the cluster's account: an EC2 access entry must name a principal of
//     it, https://docs.aws.amazon.com/eks/latest/userguide/creating-access-entries.html), which
//     cannot be checked here: it passes, saying so.
//   - an aws-auth rolearn with an IAM path never matches (the authenticator compares ARNs
//     without the path; auth.role-path judges it), so it counts as no mapping, as for an ARN.
//
// The message and evidence say the role is known by name, and from where.
func roleMappedByName(ev *evidence.Evidence, name string) []Finding {
	from := ev.Source(evidence.KindNodeRole)
	its := []EvidenceItem{item(from, "node role %s, known by name only (its ARN needs the cluster's account, which the input does not show)", name)}
	var mappedAs []string
	var pathed []evidence.RoleMapping
	if ev.Have(evidence.KindAWSAuth) {
		found := false
		for _, m := range ev.AWSAuth.Roles {
			switch {
			case !roleNamed(m.RoleArn, name):
			case roleArnHasPath(m.RoleArn):
				pathed = append(pathed, m)
			default:
				found = true
				mappedAs = append(mappedAs, fmt.Sprintf("mapRoles entry %d (%s)", m.Index+1, m.RoleArn))
				its = append(its, item(ev.Source(evidence.KindAWSAuth), "mapRoles entry %d: rolearn %s", m.Index+1, m.RoleArn))
			}
		}
		switch {
		case found:
		case !ev.AWSAuth.Present:
			its = append(its, item(ev.Source(evidence.KindAWSAuth), "ConfigMap kube-system/aws-auth does not exist"))
		default:
			its = append(its, item(ev.Source(evidence.KindAWSAuth), "no mapRoles entry maps a role named %s (any account) among %s", name, nOf(len(ev.AWSAuth.Roles), "entry", "entries")))
		}
	}
	if ev.Have(evidence.KindAccessEntries) {
		found := false
		for _, e := range ev.AccessEntries {
			if roleNamed(e.PrincipalArn, name) {
				found = true
				mappedAs = append(mappedAs, "an access entry for "+e.PrincipalArn)
				its = append(its, item(ev.Source(evidence.KindAccessEntries), "access entry for %s (type %s)", e.PrincipalArn, orUnknown(e.Type)))
			}
		}
		if !found {
			its = append(its, item(ev.Source(evidence.KindAccessEntries), "no access entry's principal is a role named %s (any account, any path) among %s", name, nOf(len(ev.AccessEntries), "entry", "entries")))
		}
	}
	if len(mappedAs) > 0 {
		var accounts []string
		for _, a := range mappedAs {
			if acct := accountOfArn(strings.TrimSuffix(a[strings.LastIndex(a, "arn:"):], ")")); acct != "" && !slices.Contains(accounts, acct) {
				accounts = append(accounts, acct)
			}
		}
		return one(pass(name, fmt.Sprintf("node role %s (known by name from %s) is mapped by %s: the node role's mapping if account %s is the cluster's account, which the input does not show",
			name, from, strings.Join(mappedAs, ", "), strings.Join(accounts, " or ")), its...))
	}
	msg := fmt.Sprintf("node role %s (known by name from %s) is in neither aws-auth mapRoles nor an access entry: no access entry or mapRoles entry maps a role of that name in any account", name, from)
	if ev.Have(evidence.KindAccessEntries) && !ev.Have(evidence.KindAWSAuth) {
		msg = fmt.Sprintf("node role %s (known by name from %s) is in neither aws-auth mapRoles nor an access entry: no access entry names a role of that name in any account", name, from)
	}
	if len(pathed) > 0 {
		msg += fmt.Sprintf(": aws-auth maps %s with an IAM path, which never matches (see auth.role-path)", pathed[0].RoleArn)
	}
	return one(unmapped(ev, name, msg, its))
}

// docMigrateAccessEntries says which mapping EKS uses when a role is in both sources.
const docMigrateAccessEntries = "https://docs.aws.amazon.com/eks/latest/userguide/migrating-access-entries.html"

// accessEntryPrecedes wraps the Eval of a check that judges a role's aws-auth mapping. Under
// authenticationMode API_AND_CONFIG_MAP, "access entries take precedence over ConfigMap entries
// for the same IAM principal" (docMigrateAccessEntries): a role with an access entry, whatever its
// type, is authenticated by that entry and its aws-auth mapping is not used. So a failing or
// warning finding about such a role (the node role, or the finding's resource when the node role
// is not known) becomes not applicable, keeping what was found; auth.access-entry-type judges the
// entry. Both the mode and the access entry list must be in the evidence; passes are kept.
func accessEntryPrecedes(eval func(*evidence.Evidence) []Finding) func(*evidence.Evidence) []Finding {
	return func(ev *evidence.Evidence) []Finding {
		fs := eval(ev)
		if !ev.Have(evidence.KindCluster) || ev.Cluster == nil || ev.Cluster.AuthenticationMode != "API_AND_CONFIG_MAP" || !ev.Have(evidence.KindAccessEntries) {
			return fs
		}
		node := nodeRoleArn(ev)
		for i, f := range fs {
			if f.Status != StatusFail && f.Status != StatusWarn {
				continue
			}
			role, whose := node, "the node role's"
			if role == "" {
				if _, ok := canonicalRoleArn(f.Resource); !ok {
					continue
				}
				role, whose = f.Resource, "role "+f.Resource+"'s"
			}
			e := nodeAccessEntry(ev, role)
			if e == nil {
				continue
			}
			n := notApplicable(f.Resource, fmt.Sprintf("under authenticationMode API_AND_CONFIG_MAP %s access entry (type %s) takes precedence over its aws-auth mapping, so this is not used: %s", whose, orUnknown(e.Type), f.Message))
			n.Evidence = append(f.Evidence, item(ev.Source(evidence.KindAccessEntries), "access entry for %s (type %s)", e.PrincipalArn, orUnknown(e.Type)))
			fs[i] = n
		}
		return fs
	}
}

// judgeNodeEntryType judges the type of the node role's described access entry e (read from
// src): EC2_LINUX or EC2_WINDOWS for EC2 nodes (EC2_WINDOWS for Windows), EC2 for Auto Mode,
// HYBRID_LINUX for hybrid nodes, and for them alone
// (https://docs.aws.amazon.com/eks/latest/userguide/creating-access-entries.html).
func judgeNodeEntryType(ev *evidence.Evidence, roleArn string, e *evidence.AccessEntry, src string) []Finding {
	it := item(src, "access entry %s type %s", e.PrincipalArn, e.Type)
	win := isWindows(ev)
	prov := ev.Provisioner.Kind
	named, how := instanceIDNodeName(ev)
	switch {
	case e.Type == "EC2" && prov == evidence.ProvisionerAutoMode, e.Type == "HYBRID_LINUX" && prov == evidence.ProvisionerHybrid:
		// Auto Mode node roles take type EC2; hybrid nodes HYBRID_LINUX
	case (e.Type == "EC2_LINUX" || e.Type == "EC2_WINDOWS") && prov == evidence.ProvisionerAutoMode:
		// Auto Mode names a Node after its instance ID and registers it as system:node:{{SessionName}}
		// (https://docs.aws.amazon.com/eks/latest/userguide/create-node-role.html, "Auto Mode node IAM role")
		return one(fail(roleArn, fmt.Sprintf("this is an EKS Auto Mode node (%s), but its role's access entry has type %s, whose user %s does not name the Node Auto Mode registers (its instance ID): an Auto Mode node role needs an access entry of type EC2 (username %s) with the AmazonEKSAutoNodePolicy", ev.Provisioner.Because, e.Type, NodeUsername, SessionNodeUsername), it))
	case prov == evidence.ProvisionerHybrid:
		// EKS maps a HYBRID_LINUX entry's role to system:node:{{SessionName}} with the node
		// groups; an EC2 node's type maps it to a name the hybrid node does not have
		// (https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-creds.html)
		whose := "an EC2 or EKS Auto Mode node's type"
		if !strings.HasPrefix(e.Type, "EC2") {
			whose = "which cannot hold the system:nodes group"
		}
		return one(fail(roleArn, fmt.Sprintf("the hybrid node's role has an access entry of type %s, %s; a hybrid node's role needs HYBRID_LINUX (username %s)", e.Type, whose, SessionNodeUsername), it))
	case e.Type == "EC2" && named == nameByInstanceID:
		return one(pass(roleArn, "access entry type EC2 (username "+SessionNodeUsername+") fits a node that names its Node after its instance ID ("+how+")", it))
	case (e.Type == "EC2_LINUX" || e.Type == "EC2_WINDOWS") && named == nameByInstanceID:
		return one(fail(roleArn, fmt.Sprintf("the node names its Node after its instance ID (%s), but the node role's %s access entry makes its user %s: the Node authorizer refuses a kubelet whose user does not name its Node; such a node role needs an access entry of type EC2 (username %s)", how, e.Type, NodeUsername, SessionNodeUsername), it))
	case e.Type == "EC2" && named == nameUnknown:
		return one(warn(roleArn, "access entry for the node role has type EC2 (username "+SessionNodeUsername+"), which fits only a node that names its Node after its instance ID (nodeadm featureGates.InstanceIdNodeName) or an EKS Auto Mode node; "+how+", so whether this node does cannot be told — otherwise it needs EC2_LINUX or EC2_WINDOWS", it))
	case e.Type == "EC2":
		return one(fail(roleArn, "access entry for the node role has type EC2; type EC2 is for EKS Auto Mode node roles, and this node was provisioned by "+orUnknown(prov)+": it needs EC2_LINUX or EC2_WINDOWS", it))
	case e.Type == "HYBRID_LINUX":
		return one(fail(roleArn, "access entry for the node role has type HYBRID_LINUX, which is for EKS hybrid nodes; an EC2 node needs EC2_LINUX or EC2_WINDOWS", it))
	case e.Type != "EC2_LINUX" && e.Type != "EC2_WINDOWS":
		return one(fail(roleArn, fmt.Sprintf("access entry for the node role has type %s; nodes need EC2_LINUX or EC2_WINDOWS", e.Type), it))
	case win && e.Type == "EC2_LINUX":
		return one(fail(roleArn, "Windows node's role has an EC2_LINUX access entry; Windows nodes need EC2_WINDOWS (adds eks:kube-proxy-windows)", it))
	}
	return one(pass(roleArn, "access entry type "+e.Type, it))
}

// missingReasons lists the gaps of the kinds that were not collected.
// ignoredNodeMappings judges auth.access-mode when no one node role is known (a pasted
// describe-cluster, access entries and aws-auth; a cluster-wide run): under authenticationMode
// API, each aws-auth mapping of a node role (groups system:nodes, or a system:node: username)
// that has no access entry is ignored, so every node of that role is Unauthorized; under
// CONFIG_MAP, each described EC2_LINUX / EC2_WINDOWS access entry whose role aws-auth does not
// map is ignored. Both sources must have been read and the mode must be stated
// (https://docs.aws.amazon.com/eks/latest/userguide/setting-up-access-entries.html).
func ignoredNodeMappings(ev *evidence.Evidence) []Finding {
	if !ev.Have(evidence.KindAWSAuth) || !ev.Have(evidence.KindAccessEntries) {
		return one(Finding{Status: StatusSkipped, Message: "missing evidence: " + missingReasons(ev, evidence.KindNodeRole, evidence.KindAWSAuth, evidence.KindAccessEntries)})
	}
	if ev.Cluster == nil || ev.Cluster.AuthenticationMode == "" {
		return one(notApplicable(ev.Target.Cluster, "the node role is unknown and the cluster's authenticationMode is not in the evidence"))
	}
	mode := ev.Cluster.AuthenticationMode
	it := item(ev.Source(evidence.KindCluster), "accessConfig.authenticationMode %s", mode)
	var out []Finding
	judged := 0
	switch mode {
	case "API":
		for _, m := range ev.AWSAuth.Roles {
			if !nodeLike(m) {
				continue
			}
			judged++
			if nodeAccessEntry(ev, m.RoleArn) == nil {
				out = append(out, fail(m.RoleArn, "node role "+m.RoleArn+" is mapped only in aws-auth, which authenticationMode API ignores: its nodes are Unauthorized", it,
					item(ev.Source(evidence.KindAWSAuth), "mapRoles entry %d: rolearn %s, groups %s", m.Index+1, m.RoleArn, quoteList(m.Groups)),
					item(ev.Source(evidence.KindAccessEntries), "no access entry for %s", m.RoleArn)))
			}
		}
	case "CONFIG_MAP":
		for _, e := range ev.AccessEntries {
			if e.Type != "EC2_LINUX" && e.Type != "EC2_WINDOWS" {
				continue
			}
			judged++
			if exactRoleMapping(ev.AWSAuth, e.PrincipalArn) == nil {
				out = append(out, fail(e.PrincipalArn, "node role "+e.PrincipalArn+" has only an "+e.Type+" access entry, which authenticationMode CONFIG_MAP ignores: its nodes are Unauthorized", it,
					item(ev.Source(evidence.KindAccessEntries), "access entry %s type %s", e.PrincipalArn, e.Type)))
			}
		}
	default:
		return one(notApplicable(ev.Target.Cluster, "authenticationMode "+mode+" reads both aws-auth and access entries"))
	}
	if judged == 0 {
		return one(notApplicable(ev.Target.Cluster, "the node role is unknown and no mapping in the source authenticationMode "+mode+" ignores is a node's"))
	}
	if len(out) == 0 {
		out = append(out, pass(ev.Target.Cluster, fmt.Sprintf("authenticationMode %s admits the %d node mapping%s found", mode, judged, plural(int64(judged))), it))
	}
	return out
}

// nodeLike reports whether an aws-auth mapping is a node role's: it grants system:nodes or maps
// to a system:node: username.
func nodeLike(m evidence.RoleMapping) bool {
	for _, g := range m.Groups {
		if strings.TrimSpace(g) == "system:nodes" {
			return true
		}
	}
	return strings.HasPrefix(strings.TrimSpace(m.Username), "system:node:")
}

func missingReasons(ev *evidence.Evidence, kinds ...evidence.Kind) string {
	var out []string
	for _, k := range kinds {
		if !ev.Have(k) {
			out = append(out, fmt.Sprintf("%s: %s", k, ev.GapFor(k).Reason))
		}
	}
	return strings.Join(out, "; ")
}

func orUnknown(s string) string {
	if s == "" {
		return "not described"
	}
	return s
}

// canonicalArnForDisplay shows the role ARN as aws-auth must spell it (path removed, case kept).
func canonicalArnForDisplay(arn string) string {
	i := strings.Index(arn, ":role/")
	if i < 0 {
		return arn
	}
	name := arn[i+len(":role/"):]
	if j := strings.LastIndexByte(name, '/'); j >= 0 {
		name = name[j+1:]
	}
	return arn[:i] + ":role/" + name
}

// instanceProfileMapping returns a mapRoles entry that maps an instance profile ARN (the given
// one, compared case-insensitively and path-insensitively, or any when profileArn is empty).
func instanceProfileMapping(a *evidence.AWSAuth, profileArn string) *evidence.RoleMapping {
	if a == nil {
		return nil
	}
	want := strings.ToLower(profileArn)
	if i := strings.LastIndexByte(want, '/'); i >= 0 {
		want = want[i+1:]
	}
	for i := range a.Roles {
		r := strings.ToLower(a.Roles[i].RoleArn)
		if !strings.Contains(r, ":instance-profile/") {
			continue
		}
		name := r[strings.LastIndexByte(r, '/')+1:]
		if want == "" || name == want {
			return &a.Roles[i]
		}
	}
	return nil
}

// SessionNodeUsername is the username of a node that names its Node after its EC2 instance ID:
// an instance profile's role session name is the instance ID
// (amazon-eks-ami nodeadm/doc/examples.md "Using instance ID as node name").
const SessionNodeUsername = "system:node:{{SessionName}}"

// nodeNaming says how the evidence shows the node names its Node object.
type nodeNaming int

const (
	// nameUnknown: the node's bootstrap configuration is not in the evidence, or only in part.
	nameUnknown nodeNaming = iota
	// nameByPrivateDNS: the configuration is known and names the Node after the private DNS name.
	nameByPrivateDNS
	// nameByInstanceID: nodeadm InstanceIdNodeName or Bottlerocket's instance-id hostname source.
	nameByInstanceID
)

// instanceIDNodeName reads from the bootstrap configuration whether the node names its Node after
// its instance ID, with a phrase saying how it is known (for nameByInstanceID the setting, for
// nameUnknown why it cannot be told). A configuration cut short (truncated, a fragment, only the
// kubelet's kubeconfig) that does not set the gate cannot tell.
func instanceIDNodeName(ev *evidence.Evidence) (nodeNaming, string) {
	b := ev.Bootstrap
	switch {
	case b != nil && b.InstanceIDNodeName && b.Format == evidence.FormatBottlerocket:
		return nameByInstanceID, "Bottlerocket settings.kubernetes.hostname-override-source instance-id"
	case b != nil && b.InstanceIDNodeName:
		return nameByInstanceID, "nodeadm InstanceIdNodeName"
	case b == nil:
		return nameUnknown, "the node's bootstrap configuration is not in the evidence"
	case b.Truncated || b.Fragment || b.KubeconfigOnly || b.Format == evidence.FormatNone || b.Format == "":
		return nameUnknown, "the node's bootstrap configuration is shown only in part"
	}
	return nameByPrivateDNS, ""
}

// nodeNamingUsername returns the aws-auth username a node mapping needs for the node the
// evidence's bootstrap configuration describes, and how that node names its Node: {{SessionName}}
// for a node named after its instance ID (nodeadm featureGates.InstanceIdNodeName, Bottlerocket
// hostname-override-source instance-id; the instance ID is the STS session name), else
// {{EC2PrivateDNSName}}. It returns "" when the configuration is not in the evidence or is
// shown only in part.
func nodeNamingUsername(ev *evidence.Evidence) (username, naming string) {
	named, how := instanceIDNodeName(ev)
	switch named {
	case nameByInstanceID:
		return SessionNodeUsername, "after its instance ID (" + how + ")"
	case nameByPrivateDNS:
		switch ev.Bootstrap.Format {
		case evidence.FormatNodeConfig:
			how = " (its NodeConfig does not set featureGates.InstanceIdNodeName)"
		case evidence.FormatBottlerocket:
			how = " (its settings do not set hostname-override-source instance-id)"
		default:
			how = ""
		}
		return NodeUsername, "after its private DNS name" + how
	}
	return "", ""
}

// anyNodeMappingHas reports whether an effective node mapping of a (the last entry for its role
// ARN, as the authenticator keeps) has username, or was cut above its username.
func anyNodeMappingHas(a *evidence.AWSAuth, username string) bool {
	last := map[string]evidence.RoleMapping{}
	for _, m := range a.Roles {
		last[strings.ToLower(strings.TrimSpace(m.RoleArn))] = m
	}
	for _, m := range last {
		u := strings.TrimSpace(m.Username)
		if isNodeMapping(m) && (u == username || m.Cut && u == "") {
			return true
		}
	}
	return false
}

// nodeUsernames are the usernames a node mapping may carry: EC2 nodes get their private DNS name;
// Fargate pods, hybrid nodes and nodes named after their instance ID authenticate with their
// session name.
var nodeUsernames = map[string]bool{NodeUsername: true, SessionNodeUsername: true}

// missingNodeGroups returns the node groups (system:bootstrappers, system:nodes) a mapping
// lacks. A mapping in system:masters lacks none: RBAC admits that group to everything, so the
// kubelet is not refused for want of the node groups (its username is then what decides). A
// pasted fragment's first entry cut above its groups key lacks none that can be seen.
func missingNodeGroups(m evidence.RoleMapping) []string {
	if hasString(m.Groups, "system:masters") || m.Cut && len(m.Groups) == 0 {
		return nil
	}
	var missing []string
	for _, g := range []string{"system:bootstrappers", "system:nodes"} {
		if !hasString(m.Groups, g) {
			missing = append(missing, g)
		}
	}
	return missing
}

// isNodeMapping reports whether a mapRoles entry is meant to map nodes: a group or the username
// names system:nodes, system:bootstrappers or system:node:, even spelled wrongly (a template's
// placeholder brackets kept, "<system:nodes>"; other case) — those are the entries whose
// username and groups the node checks judge.
func isNodeMapping(m evidence.RoleMapping) bool {
	nodeish := func(s string) bool {
		s = strings.ToLower(s)
		return strings.Contains(s, "system:node") || strings.Contains(s, "system:bootstrappers")
	}
	for _, g := range m.Groups {
		if nodeish(g) {
			return true
		}
	}
	return nodeish(m.Username)
}

// judgeNodeMappings judges every effective node mapping of aws-auth when the node role is not
// known (a pasted ConfigMap): problem returns what is wrong with one entry, or "".
// mappingSteps counts the mapRoles entries judgeNodeMappings looked at. Tests read it to see
// that judging is linear in the entries (red team 8b #21: an aws-auth of 22,872 mapRoles entries
// ran for more than a minute, each node mapping searched for in every entry).
var mappingSteps atomic.Int64

func judgeNodeMappings(ev *evidence.Evidence, what string, problem func(evidence.RoleMapping) string) []Finding {
	src := ev.Source(evidence.KindAWSAuth)
	var out []Finding
	n := 0
	judged := map[string]bool{}
	// the authenticator keeps the last entry for an ARN: that one decides. One pass finds it for
	// every ARN, so judging is linear in the entries.
	last := make(map[string]int, len(ev.AWSAuth.Roles))
	for i, x := range ev.AWSAuth.Roles {
		mappingSteps.Add(1)
		last[strings.ToLower(strings.TrimSpace(x.RoleArn))] = i
	}
	for _, m := range ev.AWSAuth.Roles {
		mappingSteps.Add(1)
		key := strings.ToLower(strings.TrimSpace(m.RoleArn))
		if !isNodeMapping(m) || judged[key] {
			continue
		}
		judged[key] = true
		eff := ev.AWSAuth.Roles[last[key]]
		n++
		if msg := problem(eff); msg != "" {
			if eff.Index != m.Index {
				msg += fmt.Sprintf(" (entry %d also maps it as a node, but the authenticator keeps the last entry for an ARN)", m.Index+1)
			}
			out = append(out, fail(eff.RoleArn, msg, item(src, "mapRoles entry %d: rolearn %s username %q groups %s", eff.Index+1, eff.RoleArn, eff.Username, quoteList(eff.Groups))))
		}
	}
	switch {
	case len(out) > 0:
		return out
	case n == 0:
		return one(notApplicable("kube-system/aws-auth", "no mapRoles entry maps nodes, and the node role is not known"))
	}
	return one(pass("kube-system/aws-auth", fmt.Sprintf("every node mapping (%d) has %s", n, what), item(src, "%d node mapping%s in mapRoles", n, plural(int64(n)))))
}

// ies returns "y" or "ies" for n entries.
func ies(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}

// misspeltNodeMapping returns the aws-auth node mapping (isNodeMapping) of a role in the node
// role's account whose name is the node role's name misspelt — one character added or dropped,
// or two adjacent ones swapped (role/xnew_nodegroup_3 for role/new_nodegroup_3) — or nil. Such
// an entry is the node role's mapping typed wrong: the authenticator compares whole ARNs, so it
// maps a role that is not the node's. A name with one character replaced is not taken for a
// misspelling: sibling node groups' roles are often numbered or lettered (ng-1, ng-2). Names
// are compared case-insensitively, as the authenticator compares ARNs; names shorter than six
// characters are never judged.
func misspeltNodeMapping(a *evidence.AWSAuth, roleArn string) *evidence.RoleMapping {
	want, ok := canonicalRoleArn(roleArn)
	if a == nil || !ok {
		return nil
	}
	i := strings.Index(want, ":role/")
	acct, name := want[:i], want[i+len(":role/"):]
	if len(name) < 6 {
		return nil
	}
	for k := range a.Roles {
		m := &a.Roles[k]
		got, ok := canonicalRoleArn(m.RoleArn)
		if !ok || !isNodeMapping(*m) || roleArnHasPath(m.RoleArn) {
			continue
		}
		j := strings.Index(got, ":role/")
		if got[:j] == acct && oneSlip(name, got[j+len(":role/"):]) {
			return m
		}
	}
	return nil
}

// oneSlip reports whether b is a with one character inserted or deleted, or with two adjacent
// characters transposed (not equal, and not one character replaced).
func oneSlip(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:]
	case 0:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	}
	return false
}
