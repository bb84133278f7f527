package checks

import (
	"fmt"
	"net/netip"
	"regexp"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docLaunchTemplates = "https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html"
	docUserData        = "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/user-data.html"
	docNodeadm         = "https://awslabs.github.io/amazon-eks-ami/nodeadm/"
	docBottlerocketK8s = "https://bottlerocket.dev/en/os/latest/api/settings/kubernetes/"
	docBootstrapSh     = "https://github.com/awslabs/amazon-eks-ami/blob/main/templates/al2/runtime/bootstrap.sh"
	// docBootstrapShAL2 is the AL2 bootstrap.sh as of its last release (AL2 was removed from
	// the repository's main branch afterwards).
	docBootstrapShAL2 = "https://github.com/awslabs/amazon-eks-ami/blob/v20260304/templates/al2/runtime/bootstrap.sh"
	docDockershim     = "https://docs.aws.amazon.com/eks/latest/userguide/dockershim-deprecation.html"
	docUserDataLimit  = "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-add-user-data.html"
	docMaxPods        = "https://docs.aws.amazon.com/eks/latest/userguide/choosing-instance-type.html"
	docPrivateCluster = "https://docs.aws.amazon.com/eks/latest/userguide/private-clusters.html"
	docWindowsBoot    = "https://docs.aws.amazon.com/eks/latest/userguide/eks-optimized-windows-ami.html"
)

// EC2UserDataLimit is the 16 KB limit on raw user data (docUserDataLimit).
const EC2UserDataLimit = 16 * 1024

func bootstrapItem(ev *evidence.Evidence, format string, args ...any) EvidenceItem {
	return item(ev.Source(evidence.KindBootstrap), format, args...)
}

// configured reports a value the user data sets; when it does not, it returns a skipped
// finding saying whether the value is set at run time or left to the node's default.
func configured(ev *evidence.Evidence, field, value, resource, defaultWhy string) (Finding, bool) {
	if value != "" {
		return Finding{}, true
	}
	if why, ok := ev.Bootstrap.Unresolved[field]; ok {
		return Finding{Status: StatusSkipped, Resource: resource, Message: "cannot compare: " + why}, false
	}
	if f, ok := partialUserData(ev, resource, "set it"); ok {
		return f, false
	}
	return notApplicable(resource, defaultWhy), false
}

// partialUserData returns, for user data parsed only in part (evidence.BootstrapConfig.Truncated),
// the skipped finding of a check that would otherwise conclude from an absence: the part not
// parsed may hold what was looked for ("may " + what).
func partialUserData(ev *evidence.Evidence, resource, what string) (Finding, bool) {
	b := ev.Bootstrap
	if b == nil || !b.Truncated {
		return Finding{}, false
	}
	why := ""
	if b.TruncatedWhy != "" {
		why = " (" + b.TruncatedWhy + ")"
	}
	return Finding{Status: StatusSkipped, Resource: resource, Message: "missing evidence: the user data was read only in part" + why + "; the part not read may " + what,
		Evidence: []EvidenceItem{bootstrapItem(ev, "%d bytes, parts read: %d", b.RawBytes, len(b.Parts))}}, true
}

// karpenterUserDataMargin is the room, in bytes, left for what Karpenter adds to an EC2NodeClass's
// spec.userData (its generated NodeConfig or settings with the cluster's CA, endpoint, CIDR,
// labels and taints, and the MIME framing: about 2–3 KiB): a spec.userData this close to the
// limit may or may not pass with it.
const karpenterUserDataMargin = 4096

// nodeClassUserDataSize judges the size of the spec.userData of each EC2NodeClass in scope
// (classesInScope) when the target is no instance (a NodeClaim never launched, the cluster as a
// whole); an instance whose user data was not collected is missing evidence. Karpenter merges the node class's user data with the bootstrap
// configuration it generates (a MIME part, or TOML settings) and base64-encodes the result into
// the launch template, so a spec.userData over EC2UserDataLimit bytes by itself makes
// CreateLaunchTemplate fail ("InvalidUserData.Malformed: User data is limited to 16384 bytes");
// https://karpenter.sh/docs/concepts/nodeclasses/#specuserdata,
// https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-add-user-data.html.
func nodeClassUserDataSize(ev *evidence.Evidence) []Finding {
	if !ev.Have(evidence.KindEC2NodeClasses) || ev.Instance != nil {
		// an instance launched: its own user data, not collected, is what EC2 took
		return one(Finding{Status: StatusSkipped, Message: "missing evidence: " + strings.TrimPrefix(missingReasons(ev, evidence.KindBootstrap), "; ")})
	}
	classes, applies := classesInScope(ev, false)
	src := ev.Source(evidence.KindEC2NodeClasses)
	var out []Finding
	for _, nc := range classes {
		if !applies || nc.StatusOnly || !nc.HasUserData {
			continue
		}
		res := "ec2nodeclass/" + nc.Name
		n := len(nc.UserData)
		it := item(src, "EC2NodeClass %s spec.userData: %d bytes", nc.Name, n)
		if n > EC2UserDataLimit {
			out = append(out, fail(res, fmt.Sprintf("EC2NodeClass %s's spec.userData is %d bytes, over EC2's %d-byte user data limit before Karpenter adds its own bootstrap part: EC2 refuses the launch template, so its NodeClaims never launch", nc.Name, n, EC2UserDataLimit), it))
			continue
		}
		if n > EC2UserDataLimit-karpenterUserDataMargin {
			out = append(out, Finding{Status: StatusSkipped, Resource: res, Message: fmt.Sprintf("missing evidence: EC2NodeClass %s's spec.userData is %d bytes, within %d bytes of EC2's %d-byte limit; whether the bootstrap part Karpenter adds takes it over shows only in the launched instance's user data", nc.Name, n, karpenterUserDataMargin, EC2UserDataLimit),
				Evidence: []EvidenceItem{it}})
			continue
		}
		out = append(out, pass(res, fmt.Sprintf("EC2NodeClass %s's spec.userData is %d bytes (limit %d, with %d left for the part Karpenter adds)", nc.Name, n, EC2UserDataLimit, karpenterUserDataMargin), it))
	}
	if len(out) == 0 {
		return one(notApplicable(targetName(ev), "no instance user data in the evidence, and no EC2NodeClass in scope sets spec.userData"))
	}
	return out
}

func expectedFormat(f AMIFamily) evidence.BootstrapFormat {
	switch f {
	case FamilyAL2, FamilyUbuntu:
		return evidence.FormatBootstrapSh
	case FamilyAL2023:
		return evidence.FormatNodeConfig
	case FamilyBottlerocket:
		return evidence.FormatBottlerocket
	case FamilyWindows:
		return evidence.FormatWindows
	}
	return ""
}

func bootstrapChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "bootstrap.userdata-unparseable", Title: "User data does not parse", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindBootstrap}, Stage: StageBootstrap,
			Explains:    explains("bootstrap.no-bootstrap", "bootstrap.nodeconfig-incomplete", "bootstrap.cluster-name-mismatch", "bootstrap.endpoint-mismatch", "bootstrap.ca-mismatch", "bootstrap.private-cluster-args", "runtime.*"),
			Why:         "cloud-init, nodeadm and Bottlerocket apply only what they can parse: a MIME document closed early drops its later parts, invalid YAML or TOML drops the whole configuration, and a script that is not run never bootstraps the node.",
			Remediation: "Fix the user data at the part and line shown and roll the launch template: aws ec2 create-launch-template-version --launch-template-id LT --source-version N --launch-template-data '{\"UserData\":\"BASE64\"}', then update the node group or Auto Scaling group to the new version.",
			Docs:        []string{docLaunchTemplates, docUserData, docNodeadm, docBottlerocketK8s}},
			Eval: func(ev *evidence.Evidence) []Finding {
				if f, ok := kubeconfigOnly(ev); ok {
					return one(f)
				}
				b := ev.Bootstrap
				var errs, warns []EvidenceItem
				var first string
				for _, i := range b.Issues {
					if i.NotRun {
						// it parses; that its agent never runs it is bootstrap.no-bootstrap's
						continue
					}
					where := i.Part
					if i.Line > 0 {
						where += fmt.Sprintf(", line %d", i.Line)
					}
					it := bootstrapItem(ev, "%s: %s", where, i.Message)
					if i.Level == evidence.IssueError {
						if first == "" {
							first = where + ": " + i.Message
						}
						errs = append(errs, it)
					} else {
						warns = append(warns, it)
					}
				}
				switch {
				case len(errs) > 0:
					return one(fail(ev.Target.InstanceID, first, append(errs, warns...)...))
				case len(warns) > 0:
					return one(warn(ev.Target.InstanceID, warns[0].Text, warns...))
				}
				return one(pass(ev.Target.InstanceID, fmt.Sprintf("user data parses (%s)", quoteList(b.Parts)), bootstrapItem(ev, "%d bytes, format %s", b.RawBytes, b.Format)))
			}},
		{Meta: Meta{ID: "bootstrap.userdata-too-large", Title: "User data over the 16 KB EC2 limit", Severity: SeverityCritical,
			// the instance's user data, or (no instance launched) the EC2NodeClass's spec.userData
			// Karpenter builds its launch template from
			NeedsAny: []evidence.Kind{evidence.KindBootstrap, evidence.KindEC2NodeClasses}, Stage: StageBootstrap, ClusterWide: true,
			Explains:    explains("karpenter.nodeclaim-not-launched"),
			Why:         "EC2 accepts at most 16 KB of user data (before base64 encoding); larger user data makes RunInstances or the launch template version fail, so no node with it is ever launched. Karpenter adds its own bootstrap part to an EC2NodeClass's spec.userData, so one over the limit fails every launch of its NodeClaims.",
			Remediation: "Shrink the user data: gzip it (cloud-init and nodeadm accept gzip), move large files to S3 or SSM Parameter Store and fetch them at boot.",
			Docs:        []string{docUserDataLimit}},
			Eval: func(ev *evidence.Evidence) []Finding {
				if !ev.Have(evidence.KindBootstrap) || ev.Bootstrap == nil {
					return nodeClassUserDataSize(ev)
				}
				if f, ok := kubeconfigOnly(ev); ok {
					return one(f)
				}
				n := ev.Bootstrap.RawBytes
				it := bootstrapItem(ev, "user data is %d bytes after base64 decoding", n)
				if n > EC2UserDataLimit {
					return one(fail(ev.Target.InstanceID, fmt.Sprintf("user data is %d bytes, over the %d-byte limit", n, EC2UserDataLimit), it))
				}
				if f, ok := partialUserData(ev, ev.Target.InstanceID, fmt.Sprintf("make it larger than the %d-byte limit", EC2UserDataLimit)); ok {
					return one(f)
				}
				return one(pass(ev.Target.InstanceID, fmt.Sprintf("user data is %d bytes (limit %d)", n, EC2UserDataLimit), it))
			}},
		{Meta: Meta{ID: "bootstrap.no-bootstrap", Title: "User data never bootstraps the node", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindBootstrap}, Optional: []evidence.Kind{evidence.KindImage, evidence.KindNodegroups},
			Stage: StageBootstrap, Explains: explains("bootstrap.nodeconfig-incomplete", "runtime.*"),
			Why:         "With a custom AMI or launch template user data, nothing joins the node unless the user data calls /etc/eks/bootstrap.sh (AL2), carries a nodeadm NodeConfig (AL2023), sets settings.kubernetes (Bottlerocket) or calls Start-EKSBootstrap.ps1 (Windows).",
			Remediation: "Add the bootstrap step for the AMI family, e.g. for AL2023 a MIME part 'Content-Type: application/node.eks.aws' with a NodeConfig naming the cluster, apiServerEndpoint, certificateAuthority and cidr; for AL2 '/etc/eks/bootstrap.sh CLUSTER --apiserver-endpoint … --b64-cluster-ca …'; for Windows the Start-EKSBootstrap.ps1 call inside <powershell>…</powershell> (EC2Launch runs no user data outside a <powershell> or <script> tag).",
			Docs:        []string{docLaunchTemplates, docNodeadm, docBootstrapSh, docBottlerocketK8s}},
			Eval: func(ev *evidence.Evidence) []Finding {
				if f, ok := kubeconfigOnly(ev); ok {
					return one(f)
				}
				b := ev.Bootstrap
				if b.CallsBootstrap {
					return one(pass(ev.Target.InstanceID, "user data bootstraps the node ("+string(b.Format)+")", bootstrapItem(ev, "format %s", b.Format)))
				}
				if b.BootstrapUnreached != "" {
					return one(fail(ev.Target.InstanceID, "user data never reaches its bootstrap step: "+b.BootstrapUnreached, bootstrapItem(ev, "%s", b.BootstrapUnreached)))
				}
				if ev.UserData != nil && ev.UserData.Empty {
					return one(fail(ev.Target.InstanceID, "the instance has no user data, so nothing tells the node which cluster to join", bootstrapItem(ev, "UserData is empty")))
				}
				if b.Fragment {
					return one(notApplicable(ev.Target.InstanceID, "the user data shown is parts cut out of a multipart document; the parts not shown may bootstrap the node"))
				}
				if f, ok := partialUserData(ev, ev.Target.InstanceID, "bootstrap the node"); ok {
					return one(f)
				}
				if rejectedUserData(ev) {
					// the node refused its user data (Bottlerocket's settings API, nodeadm): the
					// settings left lack what it held, they do not show it held nothing
					return one(Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Message: ConsequencePrefix + "bootstrap.userdata-unparseable",
						Evidence: []EvidenceItem{bootstrapItem(ev, "the node's settings after its user data was refused")}})
				}
				if ng := subjectNodegroup(ev); ng != nil && ng.AmiType != "" && ng.AmiType != "CUSTOM" && ev.UserData == nil {
					// user data shown without the instance's own: a managed node group's launch
					// template, to which EKS adds the bootstrap step for every amiType but CUSTOM
					// (https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html)
					return one(notApplicable(ev.Target.InstanceID, "managed node group "+ng.Name+" (amiType "+ng.AmiType+") has no custom AMI: EKS adds the bootstrap step to its launch template's user data"))
				}
				return one(fail(ev.Target.InstanceID, "user data never calls bootstrap.sh, has no NodeConfig, no Bottlerocket settings.kubernetes and no Start-EKSBootstrap.ps1",
					bootstrapItem(ev, "parts: %s", quoteList(b.Parts))))
			}},
		{Meta: Meta{ID: "bootstrap.wrong-format-for-ami", Title: "User data format does not match the AMI family", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindBootstrap, evidence.KindInstance}, Optional: []evidence.Kind{evidence.KindImage, evidence.KindNodegroups},
			Stage: StageBootstrap, Explains: explains("bootstrap.no-bootstrap", "bootstrap.nodeconfig-incomplete", "runtime.*"),
			Why:         "Each AMI family reads only its own format: AL2023 has no /etc/eks/bootstrap.sh (nodeadm reads NodeConfig), AL2 ignores NodeConfig, Bottlerocket reads only TOML settings, and Windows runs only PowerShell.",
			Remediation: "Rewrite the user data in the AMI's format (AL2→AL2023: replace the bootstrap.sh call with a NodeConfig: https://awslabs.github.io/amazon-eks-ami/nodeadm/), or launch the AMI family the user data was written for.",
			Docs:        []string{docNodeadm, docLaunchTemplates, docBottlerocketK8s, docWindowsBoot}},
			Eval: func(ev *evidence.Evidence) []Finding {
				fam, from := amiFamily(ev)
				b := ev.Bootstrap
				if fam == FamilyUnknown && !ev.Have(evidence.KindImage) {
					// the image was not read: its family could be any, so the format is unjudged
					return one(Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Message: "missing evidence: " + missingReasons(ev, evidence.KindImage)})
				}
				if fam == FamilyUnknown {
					return one(notApplicable(ev.Target.InstanceID, "the AMI family is unknown (a custom AMI)"))
				}
				want := expectedFormat(fam)
				it := item(ev.Source(evidence.KindImage)+ev.Source(evidence.KindNodegroups), "%s → %s expects %s; user data format %s", from, fam, want, b.Format)
				if b.Format == evidence.FormatNone {
					return one(notApplicable(ev.Target.InstanceID, "the user data has no bootstrap step (see bootstrap.no-bootstrap)"))
				}
				if b.Format == evidence.FormatManaged {
					return one(notApplicable(ev.Target.InstanceID, "EKS writes a managed node group's bootstrap in the AMI family's format"))
				}
				if f, ok := partialUserData(ev, ev.Target.InstanceID, "hold the AMI family's bootstrap step"); ok && b.Format != want {
					return one(f)
				}
				if b.Format != want {
					return one(fail(ev.Target.InstanceID, fmt.Sprintf("%s AMI but the user data is %s; %s nodes read %s", fam, b.Format, fam, want), it))
				}
				if fam == FamilyAL2023 && hasFormat(b, evidence.FormatBootstrapSh) {
					return one(warn(ev.Target.InstanceID, "a script in the user data also calls /etc/eks/bootstrap.sh, which does not exist on AL2023", it))
				}
				return one(pass(ev.Target.InstanceID, fmt.Sprintf("%s user data on a %s AMI", b.Format, fam), it))
			}},
		{Meta: Meta{ID: "bootstrap.container-runtime", Title: "bootstrap.sh (or Start-EKSBootstrap) is given a container runtime its kubelet version refuses", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindBootstrap}, Optional: []evidence.Kind{evidence.KindImage, evidence.KindNodegroups, evidence.KindNodes, evidence.KindNodeOS, evidence.KindNodeLogs},
			Stage: StageBootstrap, Explains: explains("runtime.bootstrap-failed", "runtime.kubelet-not-running"),
			Why:         "From Kubernetes 1.24 the kubelet has no dockershim, and the AL2 bootstrap.sh checks it: with --container-runtime other than containerd on a 1.24 or later kubelet it logs \"ERROR: containerd is the only supported container runtime as of Kubernetes version 1.24\" and exits 1 (amazon-eks-ami templates/al2/runtime/bootstrap.sh), so the kubelet is never configured or started. The flag is often left over from a launch template written for 1.23. On Windows, Start-EKSBootstrap takes -ContainerRuntime, and the EKS Windows AMIs include Docker only for Kubernetes 1.23: docker on a later AMI is a warning, as the script's handling of it is not public.",
			Remediation: "Remove --container-runtime dockerd from the bootstrap.sh arguments in the launch template's user data (or pass --container-runtime containerd) and roll the node group; workloads that need the Docker socket must move to containerd.",
			Docs:        []string{docDockershim, docBootstrapShAL2, docWindowsBoot}},
			Eval: evalContainerRuntime},
		{Meta: Meta{ID: "bootstrap.cluster-name-mismatch", Title: "Cluster name in user data differs from the cluster", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindBootstrap}, Optional: []evidence.Kind{evidence.KindCluster},
			Stage: StageBootstrap, Explains: explains("runtime.unauthorized", "bootstrap.endpoint-mismatch", "bootstrap.ca-mismatch"),
			Why:         "The kubelet's credential plugin signs its token for the cluster name in the user data; a token for another cluster is rejected (401), and bootstrap.sh/Bottlerocket look up endpoint and CA of the wrong cluster.",
			Remediation: "Correct the cluster name in the user data (bootstrap.sh first argument, NodeConfig spec.cluster.name, settings.kubernetes.cluster-name) and roll the launch template.",
			Docs:        []string{docLaunchTemplates, docNodeadm, docBottlerocketK8s}},
			Eval: func(ev *evidence.Evidence) []Finding {
				b := ev.Bootstrap
				want := ev.Target.Cluster
				if ev.Cluster != nil {
					want = ev.Cluster.Name
				}
				if f, ok := configured(ev, "clusterName", b.ClusterName, ev.Target.InstanceID, "the user data names no cluster"); !ok {
					return one(f)
				}
				if strings.HasPrefix(b.ClusterName, "-") {
					// EKS cluster names start with a letter or digit (CreateCluster's name pattern
					// ^[0-9A-Za-z][A-Za-z0-9\-_]*$): a leading dash is an option taken for the name
					return one(fail(ev.Target.InstanceID, fmt.Sprintf("the node's cluster name %q is a flag, not a cluster: the bootstrap arguments were passed in the wrong order (bootstrap.sh takes the cluster name first, then its options), so the kubelet asks for a token of a cluster that does not exist", b.ClusterName),
						bootstrapItem(ev, "cluster name %q", b.ClusterName)))
				}
				if want == "" || clusterFromNode(ev.Target.ClusterSource) {
					// the name to compare with came from the same configuration: a pass would
					// compare it with itself
					return one(notApplicable(ev.Target.InstanceID, "the cluster was inferred from the node's own configuration ("+ev.Target.ClusterSource+"), so there is nothing to compare it with"))
				}
				it := bootstrapItem(ev, "user data cluster name %q; target cluster %q (%s)", b.ClusterName, want, ev.Target.ClusterSource)
				if b.ClusterName != want {
					return one(fail(ev.Target.InstanceID, fmt.Sprintf("user data joins cluster %q, but the node belongs to %q", b.ClusterName, want), it))
				}
				return one(pass(ev.Target.InstanceID, "user data names cluster "+want, it))
			}},
		{Meta: Meta{ID: "bootstrap.endpoint-mismatch", Title: "API server endpoint in user data differs from the cluster's", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindBootstrap}, Stage: StageBootstrap,
			Explains:    explains("runtime.apiserver-timeout", "runtime.tls-untrusted"),
			Why:         "The kubelet's kubeconfig points at the endpoint from the user data; an endpoint of another (or a recreated) cluster times out or presents a certificate the node does not trust. Without the cluster's describe-cluster, an endpoint in another region than the node's (user data copied from another region's launch template) fails too: the node joins that cluster, never one of its own region.",
			Remediation: "Use the cluster's endpoint (aws eks describe-cluster --name CLUSTER --query cluster.endpoint) in --apiserver-endpoint / spec.cluster.apiServerEndpoint / settings.kubernetes.api-server and roll the launch template.",
			Docs:        []string{docLaunchTemplates, docNodeadm}},
			Eval: func(ev *evidence.Evidence) []Finding {
				b := ev.Bootstrap
				if !ev.Have(evidence.KindCluster) || ev.Cluster == nil {
					return endpointRegion(ev)
				}
				if f, ok := configured(ev, "apiServerEndpoint", b.APIServerEndpoint, ev.Target.InstanceID, "the user data does not set the endpoint (the node looks it up with DescribeCluster)"); !ok {
					return one(f)
				}
				if ev.Cluster.Endpoint == "" {
					// every EKS cluster has an endpoint: none means the describe-cluster shown was
					// narrowed (--query) or cut before it, not that the cluster lacks one
					return one(Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Message: "missing evidence: the cluster's endpoint is not in the describe-cluster output given"})
				}
				it := bootstrapItem(ev, "user data endpoint %s; cluster endpoint %s", b.APIServerEndpoint, ev.Cluster.Endpoint)
				if normalizeEndpoint(b.APIServerEndpoint) != normalizeEndpoint(ev.Cluster.Endpoint) {
					return one(fail(ev.Target.InstanceID, fmt.Sprintf("user data points the kubelet at %s, but the cluster's endpoint is %s", b.APIServerEndpoint, ev.Cluster.Endpoint), it))
				}
				return one(pass(ev.Target.InstanceID, "user data endpoint matches the cluster", it))
			}},
		{Meta: Meta{ID: "bootstrap.ca-mismatch", Title: "CA bundle in user data differs from the cluster's", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindBootstrap, evidence.KindCluster}, Stage: StageBootstrap, Explains: explains("runtime.tls-untrusted"),
			Why:         "The kubelet trusts only the CA from the user data; if it is not the cluster's certificateAuthority (a recreated cluster, a copy-paste from another cluster, a truncated string) every TLS handshake with the API server fails with x509: certificate signed by unknown authority.",
			Remediation: "Use the cluster's CA: aws eks describe-cluster --name CLUSTER --query cluster.certificateAuthority.data --output text, in --b64-cluster-ca / spec.cluster.certificateAuthority / settings.kubernetes.cluster-certificate, and roll the launch template.",
			Docs:        []string{docLaunchTemplates, docNodeadm, docBottlerocketK8s}},
			Eval: func(ev *evidence.Evidence) []Finding {
				b := ev.Bootstrap
				if f, ok := configured(ev, "certificateAuthority", b.CertificateAuthority, ev.Target.InstanceID, "the user data does not set the CA (the node looks it up with DescribeCluster)"); !ok {
					return one(f)
				}
				clusterCA, err := decodeCA(ev.Cluster.CertificateAuthority)
				if err != nil {
					return one(Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Message: "the cluster's certificateAuthority.data " + err.Error()})
				}
				nodeCA, err := decodeCA(b.CertificateAuthority)
				if err != nil {
					return one(fail(ev.Target.InstanceID, "the CA in the user data "+err.Error(), bootstrapItem(ev, "CA value starts %q", prefix(b.CertificateAuthority, 24))))
				}
				it := bootstrapItem(ev, "user data CA %s; cluster CA %s", caSubject(nodeCA[0]), caSubject(clusterCA[0]))
				if !sameCA(nodeCA, clusterCA) {
					return one(fail(ev.Target.InstanceID, "the CA in the user data is not the cluster's certificate authority", it))
				}
				return one(pass(ev.Target.InstanceID, "user data CA is the cluster's", it))
			}},
		{Meta: Meta{ID: "bootstrap.private-cluster-args", Title: "Private cluster but user data omits endpoint, CA or DNS IP", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindBootstrap, evidence.KindCluster}, Optional: []evidence.Kind{evidence.KindInstance, evidence.KindKubeDNS},
			Stage: StageBootstrap, Explains: explains("runtime.apiserver-timeout"),
			Why:         "When the user data omits the endpoint or CA, bootstrap.sh (and Bottlerocket) call eks:DescribeCluster at boot; in a private cluster without a route to the EKS API or an eks interface endpoint that call hangs and the node never starts its kubelet. Without a DNS IP bootstrap.sh guesses 10.100.0.10 or 172.20.0.10 from the VPC CIDR, which is right only when it is the kube-dns Service IP.",
			Remediation: "Pass all three in the user data: --apiserver-endpoint ENDPOINT --b64-cluster-ca CA --dns-cluster-ip SERVICE_CIDR.10 (values from aws eks describe-cluster --name CLUSTER).",
			Docs:        []string{docPrivateCluster, docBootstrapSh}},
			Eval: func(ev *evidence.Evidence) []Finding {
				b, c := ev.Bootstrap, ev.Cluster
				if c.EndpointPublicAccess {
					return one(notApplicable(ev.Target.InstanceID, "the cluster endpoint is public"))
				}
				if !c.EndpointPrivateAccess {
					// an EKS cluster has public or private access, or both: neither means the
					// describe-cluster shown did not include resourcesVpcConfig (a --query)
					return one(Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Message: "missing evidence: the cluster's endpoint access (resourcesVpcConfig) is not in the describe-cluster output given"})
				}
				if b.Format != evidence.FormatBootstrapSh && b.Format != evidence.FormatBottlerocket {
					return one(notApplicable(ev.Target.InstanceID, fmt.Sprintf("%s user data does not fall back to DescribeCluster", b.Format)))
				}
				var missing []string
				for _, f := range []struct{ field, val, name string }{{"apiServerEndpoint", b.APIServerEndpoint, "endpoint"}, {"certificateAuthority", b.CertificateAuthority, "CA"}} {
					if f.val == "" && b.Unresolved[f.field] == "" {
						missing = append(missing, f.name)
					}
				}
				it := bootstrapItem(ev, "endpointPublicAccess false; user data endpoint %q, CA set %v, DNS IP %s", b.APIServerEndpoint, b.CertificateAuthority != "", quoteList(b.ClusterDNS))
				noDNS := len(b.ClusterDNS) == 0 && b.Unresolved["clusterDNS"] == "" && b.ServiceCIDR == "" && b.Format == evidence.FormatBootstrapSh
				if f, ok := partialUserData(ev, ev.Target.InstanceID, "set them"); ok && (len(missing) > 0 || noDNS) {
					return one(f)
				}
				if len(missing) > 0 {
					return one(fail(ev.Target.InstanceID, fmt.Sprintf("private cluster, but the user data omits the %s, so the node must reach the EKS API to call DescribeCluster", strings.Join(missing, " and ")), it))
				}
				if noDNS {
					// the guess is harmless when it is kube-dns (bootstrap.dns-ip judges it too)
					guess, _ := bootstrapShGuessDNS(ev.Instance)
					switch {
					case guess == "":
					case ev.KubeDNS != nil && ev.KubeDNS.ClusterIP != "":
						kd := item(ev.Source(evidence.KindKubeDNS), "Service kube-system/kube-dns clusterIP %s", ev.KubeDNS.ClusterIP)
						if guess == ev.KubeDNS.ClusterIP {
							return one(pass(ev.Target.InstanceID, fmt.Sprintf("user data carries the endpoint and CA; bootstrap.sh's guess %s for the omitted --dns-cluster-ip is the kube-dns Service IP", guess), it, kd))
						}
						return one(warn(ev.Target.InstanceID, fmt.Sprintf("private cluster, but the user data omits --dns-cluster-ip, so bootstrap.sh guesses %s, not the kube-dns Service IP %s", guess, ev.KubeDNS.ClusterIP), it, kd))
					case c.ServiceIPv4CIDR != "" && c.IPFamily != "ipv6" && guess == dotTen(c.ServiceIPv4CIDR):
						return one(pass(ev.Target.InstanceID, fmt.Sprintf("user data carries the endpoint and CA; bootstrap.sh's guess %s for the omitted --dns-cluster-ip is the .10 address of the service CIDR %s, where EKS puts kube-dns", guess, c.ServiceIPv4CIDR), it))
					}
					return one(warn(ev.Target.InstanceID, "private cluster, but the user data omits --dns-cluster-ip, so bootstrap.sh guesses it from the VPC CIDR", it))
				}
				return one(pass(ev.Target.InstanceID, "user data carries the endpoint and CA", it))
			}},
		{Meta: Meta{ID: "bootstrap.nodeconfig-incomplete", Title: "AL2023 NodeConfig (or Bottlerocket settings) lacks required cluster details", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindBootstrap}, Stage: StageBootstrap, Explains: explains("runtime.*"),
			Why:         "nodeadm does not look the cluster up: its NodeConfig must name the cluster and give apiServerEndpoint, certificateAuthority and the service cidr, or nodeadm init fails validation and the kubelet never starts. Bottlerocket likewise requires settings.kubernetes.cluster-name, api-server and cluster-certificate before it starts the kubelet.",
			Remediation: "Complete spec.cluster in the NodeConfig with name, apiServerEndpoint, certificateAuthority and cidr from 'aws eks describe-cluster --name CLUSTER --query cluster.[name,endpoint,certificateAuthority.data,kubernetesNetworkConfig.serviceIpv4Cidr]' (for Bottlerocket: settings.kubernetes.cluster-name, api-server, cluster-certificate).",
			Docs:        []string{docNodeadm, "https://docs.aws.amazon.com/eks/latest/userguide/al2023.html", docBottlerocketK8s}},
			Eval: func(ev *evidence.Evidence) []Finding {
				b := ev.Bootstrap
				if b.Format == evidence.FormatBottlerocket && b.CallsBootstrap {
					var missing []string
					for _, f := range []struct{ name, val string }{{"cluster-name", b.ClusterName}, {"api-server", b.APIServerEndpoint}, {"cluster-certificate", b.CertificateAuthority}} {
						if _, unresolved := b.Unresolved[f.name]; f.val == "" && !unresolved {
							missing = append(missing, "settings.kubernetes."+f.name)
						}
					}
					it := bootstrapItem(ev, "Bottlerocket settings: cluster-name %q, api-server %q, cluster-certificate set %v", b.ClusterName, b.APIServerEndpoint, b.CertificateAuthority != "")
					if len(missing) > 0 && b.Fragment {
						return one(Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Evidence: []EvidenceItem{it},
							Message: "only some settings were shown (" + strings.Join(missing, ", ") + " not among them), so whether they are set is unknown"})
					}
					if f, ok := partialUserData(ev, ev.Target.InstanceID, "set "+strings.Join(missing, ", ")); ok && len(missing) > 0 {
						return one(f)
					}
					if len(missing) > 0 {
						return one(fail(ev.Target.InstanceID, "Bottlerocket settings lack "+strings.Join(missing, ", "), it))
					}
					return one(pass(ev.Target.InstanceID, "Bottlerocket settings have cluster-name, api-server and cluster-certificate", it))
				}
				if f, ok := partialUserData(ev, ev.Target.InstanceID, "hold a NodeConfig"); ok && b.Format != evidence.FormatNodeConfig {
					return one(f)
				}
				if b.Format != evidence.FormatNodeConfig {
					return one(notApplicable(ev.Target.InstanceID, "the user data is not a NodeConfig or Bottlerocket settings"))
				}
				var missing []string
				for _, f := range []struct{ name, val string }{{"name", b.ClusterName}, {"apiServerEndpoint", b.APIServerEndpoint}, {"certificateAuthority", b.CertificateAuthority}, {"cidr", b.ServiceCIDR}} {
					if f.val == "" {
						missing = append(missing, "spec.cluster."+f.name)
					}
				}
				it := bootstrapItem(ev, "merged NodeConfig: name %q, apiServerEndpoint %q, certificateAuthority set %v, cidr %q", b.ClusterName, b.APIServerEndpoint, b.CertificateAuthority != "", b.ServiceCIDR)
				if b.Hybrid {
					// a hybrid node's nodeadm describes the cluster itself (with the hybrid
					// role's credentials): its NodeConfig names the cluster and region only
					// (https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-nodeadm.html)
					if b.ClusterName == "" {
						return one(fail(ev.Target.InstanceID, "hybrid NodeConfig lacks spec.cluster.name", it))
					}
					return one(pass(ev.Target.InstanceID, "hybrid NodeConfig names cluster "+b.ClusterName+"; nodeadm reads the rest from the cluster", it))
				}
				if len(missing) == 4 && len(b.Issues) == 0 && !b.Effective {
					// no spec.cluster at all: the NodeConfig of a managed node group's launch template, which
					// EKS completes with its own NodeConfig part (it carries only kubelet or containerd settings)
					if ng := instanceNodegroup(ev); ng != nil && ng.AmiType != "CUSTOM" {
						return one(pass(ev.Target.InstanceID, "the NodeConfig sets no cluster details; managed node group "+ng.Name+" adds them in its own NodeConfig part", it))
					}
					if ev.Instance == nil {
						return one(warn(ev.Target.InstanceID, "NodeConfig has no spec.cluster: complete only as a managed node group's launch template user data (EKS adds its own NodeConfig); on a self-managed or Karpenter node nodeadm rejects it", it))
					}
				}
				if f, ok := partialUserData(ev, ev.Target.InstanceID, "hold a NodeConfig that sets "+strings.Join(missing, ", ")); ok && len(missing) > 0 {
					return one(f)
				}
				if len(missing) > 0 {
					return one(fail(ev.Target.InstanceID, "NodeConfig lacks "+strings.Join(missing, ", "), it))
				}
				return one(pass(ev.Target.InstanceID, "NodeConfig has name, apiServerEndpoint, certificateAuthority and cidr", it))
			}},
		{Meta: Meta{ID: "bootstrap.dns-ip", Title: "Cluster DNS IP outside the service CIDR", Severity: SeverityHigh,
			Needs: []evidence.Kind{evidence.KindBootstrap}, NeedsAny: []evidence.Kind{evidence.KindCluster, evidence.KindKubeDNS},
			Optional:    []evidence.Kind{evidence.KindInstance},
			Stage:       StagePostJoin,
			Why:         "The kubelet writes the cluster DNS IPs into every pod's resolv.conf; each must be the kube-dns Service IP, which lies in the cluster's service CIDR (normally its .10 address), or a link-local NodeLocal DNSCache listen address (169.254.20.10 by convention). The node still registers and turns Ready, but pods on it cannot resolve names.",
			Remediation: "Set the DNS IP to the kube-dns ClusterIP (kubectl -n kube-system get svc kube-dns -o jsonpath='{.spec.clusterIP}'): --dns-cluster-ip for bootstrap.sh, spec.cluster.cidr (or kubelet.config.clusterDNS) for NodeConfig, settings.kubernetes.cluster-dns-ip for Bottlerocket.",
			Docs:        []string{docBootstrapSh, docNodeadm, docBottlerocketK8s}},
			Eval: evalDNSIP},
		{Meta: Meta{ID: "bootstrap.max-pods", Title: "max-pods above what the instance's ENIs can address", Severity: SeverityHigh,
			Needs: []evidence.Kind{evidence.KindBootstrap, evidence.KindInstanceType}, Optional: []evidence.Kind{evidence.KindAWSNode, evidence.KindInstance},
			// a post-join problem: it explains pods without addresses, not the join symptoms
			// (NodeCreationFailure, a pending CSR, an unregistered NodeClaim) explains() adds
			Stage: StagePostJoin, Explains: []string{"runtime.ipamd-no-ips"},
			Why:         "Without prefix delegation the VPC CNI can give pods at most ENIs × (IPv4 addresses per ENI − 1) + 2 addresses on Linux, and on Windows only the primary ENI's IPv4 addresses − 1; a higher max-pods makes the scheduler place pods that then fail with 'failed to assign an IP address to container'. The node still registers and turns Ready: it is not why a node does not join.",
			Remediation: "Remove the max-pods override or set it to the computed limit (amazon-eks-ami max-pods-calculator.sh --instance-type TYPE --cni-version VERSION), or enable prefix delegation on aws-node.",
			Docs:        []string{docMaxPods, "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/AvailableIpPerENI.html"}},
			Eval: func(ev *evidence.Evidence) []Finding {
				b, it := ev.Bootstrap, ev.InstanceType
				if it.MaxENIs == 0 || it.IPv4PerENI == 0 {
					return one(Finding{Status: StatusSkipped, Resource: it.Name, Message: "missing evidence: NetworkInfo limits of " + it.Name + " not reported"})
				}
				if ev.AWSNode != nil && ev.AWSNode.Env["ENABLE_PREFIX_DELEGATION"] == "true" {
					return one(notApplicable(it.Name, "prefix delegation is enabled on aws-node"))
				}
				limit := it.MaxENIs*(it.IPv4PerENI-1) + 2
				how := fmt.Sprintf("%d ENIs × (%d − 1) + 2", it.MaxENIs, it.IPv4PerENI)
				if isWindows(ev) {
					limit, how = it.IPv4PerENI-1, fmt.Sprintf("Windows: %d addresses of the primary ENI − 1", it.IPv4PerENI)
				}
				src := item(ev.Source(evidence.KindInstanceType), "%s: %s = %d", it.Name, how, limit)
				if f, ok := partialUserData(ev, it.Name, "set max-pods"); ok && b.MaxPods == nil {
					return one(f)
				}
				if b.MaxPods == nil {
					return one(pass(it.Name, fmt.Sprintf("max-pods left to the default for %s (limit %d)", it.Name, limit), src))
				}
				if *b.MaxPods > limit {
					msg := fmt.Sprintf("max-pods %d is above the %d pod addresses %s can provide", *b.MaxPods, limit, it.Name)
					if isWindows(ev) {
						msg += fmt.Sprintf(" (Windows uses only the primary ENI: %d addresses − 1)", it.IPv4PerENI)
					}
					return one(fail(it.Name, msg, src, bootstrapItem(ev, "max-pods %d", *b.MaxPods)))
				}
				return one(pass(it.Name, fmt.Sprintf("max-pods %d within the limit %d", *b.MaxPods, limit), src))
			}},
	}
}

// kubeconfigOnly returns a not-applicable finding, and true, when the node's configuration is
// only what its kubelet kubeconfig shows and no user data was read: the user data checks would
// otherwise pass on nothing ("user data parses ((none))", "0 bytes").
func kubeconfigOnly(ev *evidence.Evidence) (Finding, bool) {
	b := ev.Bootstrap
	if b == nil || !b.KubeconfigOnly || b.RawBytes > 0 {
		return Finding{}, false
	}
	return notApplicable(ev.Target.InstanceID, "the node's configuration was read from its kubelet kubeconfig, not from its user data, which the input does not hold"), true
}

// clusterFromNode reports whether a target's ClusterSource is the node's own configuration (the
// user data, a bundle's node configuration, a pasted NodeConfig or kubeconfig): the cluster name
// it gives cannot be checked against itself. The sources are set in collectors/snapshot
// (cluster.go), collectors/bundle (evidence.go) and collectors/ingest (read.go).
func clusterFromNode(source string) bool {
	switch source {
	case "user data", "node configuration", "the node's configuration", "the hybrid node's NodeConfig":
		return true
	}
	return false
}

func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func hasFormat(b *evidence.BootstrapConfig, f evidence.BootstrapFormat) bool {
	for _, x := range b.Formats {
		if x == f {
			return true
		}
	}
	return false
}

func evalDNSIP(ev *evidence.Evidence) []Finding {
	b, c := ev.Bootstrap, ev.Cluster
	if c == nil {
		// no cluster in the evidence (a node log bundle): kube-dns alone (NeedsAny)
		c = &evidence.Cluster{}
	}
	cidr, field := c.ServiceIPv4CIDR, "serviceIpv4Cidr"
	if cidr == "" || (c.IPFamily == "ipv6" && c.ServiceIPv6CIDR != "") {
		// an IPv6 cluster: its Services, kube-dns included, take addresses of serviceIpv6Cidr
		// (describe-cluster may report an IPv4 service range beside it)
		cidr, field = c.ServiceIPv6CIDR, "serviceIpv6Cidr"
	}
	if cidr == "" {
		if ev.KubeDNS != nil && ev.KubeDNS.ClusterIP != "" && len(b.ClusterDNS) > 0 {
			return evalDNSKubeDNSOnly(ev)
		}
		return one(notApplicable(ev.Target.InstanceID, "the cluster's service CIDR is not in the evidence"))
	}
	var dns, from string
	switch {
	case len(b.ClusterDNS) > 0:
		return evalDNSList(ev, cidr)
	case b.Unresolved["clusterDNS"] != "":
		return one(Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Message: "cannot compare: " + b.Unresolved["clusterDNS"]})
	case b.Format == evidence.FormatNodeConfig && b.ServiceCIDR != "":
		dns, from = dotTen(b.ServiceCIDR), "derived by nodeadm from spec.cluster.cidr "+b.ServiceCIDR
		if b.ServiceCIDR != cidr {
			return one(fail(ev.Target.InstanceID, fmt.Sprintf("NodeConfig spec.cluster.cidr %s is not the cluster's service CIDR %s", b.ServiceCIDR, cidr),
				bootstrapItem(ev, "spec.cluster.cidr %s", b.ServiceCIDR), item(ev.Source(evidence.KindCluster), "kubernetesNetworkConfig.%s %s", field, cidr)))
		}
	case b.Format == evidence.FormatBootstrapSh && b.APIServerEndpoint != "" && b.CertificateAuthority != "" && b.ServiceCIDR != "":
		// bootstrap.sh skips DescribeCluster and takes ${SERVICE_IPV4_CIDR%.*}.10.
		dns, from = bootstrapShDNS(b.ServiceCIDR), "derived by bootstrap.sh from --service-ipv4-cidr "+b.ServiceCIDR
	case b.Format == evidence.FormatBootstrapSh && b.APIServerEndpoint != "" && b.CertificateAuthority != "" && ev.Instance != nil:
		// bootstrap.sh skips DescribeCluster and guesses from the primary interface's address.
		dns, from = bootstrapShGuessDNS(ev.Instance)
	default:
		if f, ok := partialUserData(ev, ev.Target.InstanceID, "set the cluster DNS IP"); ok {
			return one(f)
		}
		return one(pass(ev.Target.InstanceID, "the node derives its DNS IP from the cluster's service CIDR", bootstrapItem(ev, "no DNS IP in the user data (%s)", b.Format)))
	}
	it := bootstrapItem(ev, "%s: %s; service CIDR %s", from, dns, cidr)
	if f, bad := judgeDNSIP(ev, cidr, dns, from, it); bad {
		return one(f)
	}
	return one(pass(ev.Target.InstanceID, fmt.Sprintf("cluster DNS IP %s is inside %s", dns, cidr), it))
}

// evalDNSKubeDNSOnly judges the cluster DNS IPs the user data sets against the kube-dns Service
// IP alone, when the cluster's service CIDR is not in the evidence (a node log bundle, whose
// kube-proxy rules name kube-dns): each must be kube-dns or a link-local NodeLocal DNSCache
// address (as evalDNSList).
func evalDNSKubeDNSOnly(ev *evidence.Evidence) []Finding {
	kubeDNS := ev.KubeDNS.ClusterIP
	const from = "cluster DNS IP set in the user data"
	it := bootstrapItem(ev, "%s: %s", from, strings.Join(ev.Bootstrap.ClusterDNS, ", "))
	svc := item(ev.Source(evidence.KindKubeDNS), "Service kube-system/kube-dns clusterIP %s", kubeDNS)
	for _, dns := range ev.Bootstrap.ClusterDNS {
		dns = strings.TrimSpace(dns)
		a, err := netip.ParseAddr(dns)
		switch {
		case err != nil:
			return one(fail(ev.Target.InstanceID, fmt.Sprintf("cluster DNS IP %q is not an IP address", dns), it))
		case a.IsLinkLocalUnicast():
			continue
		case dns != kubeDNS:
			return one(fail(ev.Target.InstanceID, fmt.Sprintf("cluster DNS IP %s (%s) is not the kube-dns Service IP %s", dns, from, kubeDNS), it, svc))
		}
	}
	return one(pass(ev.Target.InstanceID, fmt.Sprintf("cluster DNS IP %s is the kube-dns Service IP", strings.Join(ev.Bootstrap.ClusterDNS, ", ")), it, svc))
}

// evalDNSList judges every cluster DNS IP the user data sets. bootstrap.sh's --dns-cluster-ip is
// a comma-separated list (amazon-eks-ami templates/al2/runtime/bootstrap.sh writes
// .clusterDNS=($DNS_CLUSTER_IP|split(","))), Bottlerocket's settings.kubernetes.cluster-dns-ip a
// list since 1.8.0 (bottlerocket CHANGELOG, #2176), the kubelet's clusterDNS a list. A
// link-local address (169.254.0.0/16, fe80::/10) is the listen address of NodeLocal DNSCache
// (Kubernetes "Using NodeLocal DNSCache in Kubernetes Clusters", 169.254.20.10 by convention),
// not a Service address: it is accepted. Every other address must be in the service CIDR, and be
// kube-dns when its ClusterIP is known.
func evalDNSList(ev *evidence.Evidence, cidr string) []Finding {
	const from = "cluster DNS IP set in the user data"
	it := bootstrapItem(ev, "%s: %s; service CIDR %s", from, strings.Join(ev.Bootstrap.ClusterDNS, ", "), cidr)
	list := ev.Bootstrap.ClusterDNS
	var judged []string
	for _, dns := range list {
		if a, err := netip.ParseAddr(strings.TrimSpace(dns)); err == nil && a.IsLinkLocalUnicast() {
			judged = append(judged, dns+" (link-local: a NodeLocal DNSCache listen address)")
			continue
		}
		if f, bad := judgeDNSIP(ev, cidr, dns, from, it); bad {
			return one(f)
		}
		judged = append(judged, dns+" (inside "+cidr+")")
	}
	if len(list) == 1 {
		if strings.Contains(judged[0], "link-local") {
			return one(pass(ev.Target.InstanceID, fmt.Sprintf("cluster DNS IP %s is link-local: a NodeLocal DNSCache listen address, not a Service address", list[0]), it))
		}
		return one(pass(ev.Target.InstanceID, fmt.Sprintf("cluster DNS IP %s is inside %s", list[0], cidr), it))
	}
	return one(pass(ev.Target.InstanceID, "cluster DNS IPs "+strings.Join(judged, ", "), it))
}

// judgeDNSIP returns a failing finding, and true, when dns is not an IP address, lies outside
// cidr, or is inside it but is not the kube-dns ClusterIP the evidence shows.
func judgeDNSIP(ev *evidence.Evidence, cidr, dns, from string, it EvidenceItem) (Finding, bool) {
	in, ok := cidrContains(cidr, dns)
	kubeDNS := ""
	if ev.KubeDNS != nil {
		kubeDNS = ev.KubeDNS.ClusterIP
	}
	switch {
	case !ok:
		return fail(ev.Target.InstanceID, fmt.Sprintf("cluster DNS IP %q is not an IP address", dns), it), true
	case in && kubeDNS != "" && kubeDNS != dns:
		return fail(ev.Target.InstanceID, fmt.Sprintf("cluster DNS IP %s (%s) is not the kube-dns Service IP %s", dns, from, kubeDNS), it,
			item(ev.Source(evidence.KindKubeDNS), "Service kube-system/kube-dns clusterIP %s", kubeDNS)), true
	case !in:
		return fail(ev.Target.InstanceID, fmt.Sprintf("cluster DNS IP %s (%s) is outside the service CIDR %s; kube-dns is %s", dns, from, cidr, dotTen(cidr)), it), true
	}
	return Finding{}, false
}

// bootstrapShGuessDNS is the cluster DNS IP bootstrap.sh guesses when it has neither
// --dns-cluster-ip nor a service CIDR (it skipped DescribeCluster): 172.20.0.10 when the VPC has
// a 10.0.0.0/8 CIDR, else 10.100.0.10 (amazon-eks-ami templates/al2/runtime/bootstrap.sh, the
// TEN_RANGE test of the interface's vpc-ipv4-cidr-blocks). The node's own address stands for
// the VPC's CIDRs; "" when the instance's address is unknown.
func bootstrapShGuessDNS(inst *evidence.Instance) (dns, from string) {
	switch {
	case inst == nil || inst.PrivateIP == "":
		return "", ""
	case strings.HasPrefix(inst.PrivateIP, "10."):
		return "172.20.0.10", "guessed by bootstrap.sh (node address in 10.0.0.0/8)"
	}
	return "10.100.0.10", "guessed by bootstrap.sh (node address not in 10.0.0.0/8)"
}

// bootstrapShDNS is bootstrap.sh's DNS_CLUSTER_IP=${SERVICE_IPV4_CIDR%.*}.10: the text up to
// the last dot of the CIDR, then ".10" (amazon-eks-ami templates/al2/runtime/bootstrap.sh).
func bootstrapShDNS(cidr string) string {
	if i := strings.LastIndexByte(cidr, '.'); i >= 0 {
		return cidr[:i] + ".10"
	}
	return cidr + ".10"
}

// rejectedUserData reports whether the node's logs show its user data refused as a whole (a
// failing bootstrap.userdata-unparseable signature: the settings API or nodeadm would not take it).
func rejectedUserData(ev *evidence.Evidence) bool {
	logs := ev.NodeLogs
	if logs == nil {
		return false
	}
	for _, h := range logs.Hits {
		if h.Finding == "bootstrap.userdata-unparseable" && logs.Failing(h) {
			return true
		}
	}
	return false
}

// evalContainerRuntime judges bootstrap.sh --container-runtime against the kubelet's version:
// bootstrap.sh exits 1 for a runtime other than containerd when the kubelet is 1.24 or later
// (amazon-eks-ami templates/al2/runtime/bootstrap.sh: `vercmp "$KUBELET_VERSION" gteq "1.24.0"
// && [ $CONTAINER_RUNTIME != "containerd" ]`).
func evalContainerRuntime(ev *evidence.Evidence) []Finding {
	b := ev.Bootstrap
	res := ev.Target.InstanceID
	if hasFormat(b, evidence.FormatWindows) && !hasFormat(b, evidence.FormatBootstrapSh) {
		return evalWindowsContainerRuntime(ev)
	}
	if !hasFormat(b, evidence.FormatBootstrapSh) {
		return one(notApplicable(res, "the user data does not call bootstrap.sh or Start-EKSBootstrap (nodeadm and Bottlerocket run containerd and take no runtime setting)"))
	}
	rt := b.ContainerRuntime
	if rt == "" {
		if why := b.Unresolved["containerRuntime"]; why != "" {
			return one(Finding{Status: StatusSkipped, Resource: res, Message: "the container runtime is set at run time: " + why})
		}
		return one(notApplicable(res, "the user data sets no container runtime (bootstrap.sh picks the one of its kubelet's version)"))
	}
	if rt == "containerd" {
		return one(pass(res, "--container-runtime containerd", bootstrapItem(ev, "--container-runtime %s", rt)))
	}
	ver, from, src := nodeKubeletMinor(ev)
	if minorNumber(ver) < 0 {
		return one(Finding{Status: StatusSkipped, Resource: res, Message: fmt.Sprintf("the node's kubelet version is unknown (no Node object, kubelet or bootstrap.sh version line, node group version or EKS AMI name), so whether bootstrap.sh accepts --container-runtime %s is unjudged", rt),
			Evidence: []EvidenceItem{bootstrapItem(ev, "--container-runtime %s", rt)}})
	}
	rtItem, verItem := bootstrapItem(ev, "--container-runtime %s", rt), item(src, "%s", from)
	if minorNumber(ver) >= 24 {
		return one(fail(res, fmt.Sprintf("--container-runtime %s on a %s kubelet: bootstrap.sh accepts only containerd from Kubernetes 1.24 and exits 1", rt, ver), rtItem, verItem))
	}
	return one(pass(res, fmt.Sprintf("%s is a runtime bootstrap.sh accepts for a %s kubelet", rt, ver), rtItem, verItem))
}

// evalWindowsContainerRuntime judges Start-EKSBootstrap's -ContainerRuntime (a parameter of the
// Windows bootstrap script that eksctl writes for self-managed node groups, eksctl
// pkg/nodebootstrap/windows.go). The EKS-optimized Windows AMIs include Docker only for
// Kubernetes 1.23 and containerd from then on (EKS user guide, "Create nodes with optimized
// Windows AMIs"), and eksctl refuses any runtime other than containerd from 1.24
// (pkg/apis/eksctl.io/v1alpha5/validation.go, DockershimDeprecationVersion). The script itself
// is not public, so how it fails with docker on a newer AMI is not known: a warning, never a
// cause.
func evalWindowsContainerRuntime(ev *evidence.Evidence) []Finding {
	b := ev.Bootstrap
	res := ev.Target.InstanceID
	rt := b.ContainerRuntime
	if rt == "" {
		if why := b.Unresolved["containerRuntime"]; why != "" {
			return one(Finding{Status: StatusSkipped, Resource: res, Message: "the container runtime is set at run time: " + why})
		}
		return one(notApplicable(res, "the user data sets no container runtime (Start-EKSBootstrap uses the AMI's, containerd from Kubernetes 1.24)"))
	}
	rtItem := bootstrapItem(ev, "Start-EKSBootstrap -ContainerRuntime %s", rt)
	if strings.EqualFold(rt, "containerd") {
		return one(pass(res, "-ContainerRuntime containerd", rtItem))
	}
	ver, from, src := nodeKubeletMinor(ev)
	if minorNumber(ver) < 0 {
		return one(Finding{Status: StatusSkipped, Resource: res, Message: fmt.Sprintf("the node's kubelet version is unknown (no Node object, kubelet version line, node group version or EKS AMI name), so whether the Windows AMI has -ContainerRuntime %s is unjudged", rt),
			Evidence: []EvidenceItem{rtItem}})
	}
	verItem := item(src, "%s", from)
	if minorNumber(ver) >= 24 {
		f := warn(res, fmt.Sprintf("-ContainerRuntime %s on a %s Windows node: the EKS Windows AMIs include Docker only for Kubernetes 1.23 (containerd from 1.24), and eksctl refuses any other runtime from 1.24; how Start-EKSBootstrap handles it is not public, so it is not concluded to be the cause", rt, ver), rtItem, verItem)
		f.Remediation = "Remove -ContainerRuntime " + rt + " from the Start-EKSBootstrap call in the launch template's user data (or pass -ContainerRuntime containerd) and roll the node group; Windows workloads that need the Docker engine must move to containerd."
		return one(f)
	}
	return one(pass(res, fmt.Sprintf("%s is a runtime the EKS Windows AMIs include for a %s kubelet", rt, ver), rtItem, verItem))
}

// nodeKubeletMinor returns the node's kubelet minor version ("1.29"), what says so and the
// source of that evidence: the instance's Node object, the node's own report, the kubelet's or
// bootstrap.sh's version line in its logs (loggedKubeletVersion), its managed node group's
// version (not for a custom AMI), or the EKS AMI's name; "" when none says.
func nodeKubeletMinor(ev *evidence.Evidence) (ver, from, src string) {
	if ev.Instance != nil {
		for _, n := range ev.Nodes {
			if ownNode(n, ev) {
				if v := kubeMinor(n.KubeletVersion); v != "" {
					return v, "Node " + n.Name + " kubeletVersion " + n.KubeletVersion, ev.Source(evidence.KindNodes)
				}
			}
		}
	}
	if ev.NodeOS != nil {
		if v := kubeMinor(ev.NodeOS.KubeletVersion); v != "" {
			return v, "the node's kubelet " + ev.NodeOS.KubeletVersion, ev.Source(evidence.KindNodeOS)
		}
	}
	if v, from, src := loggedKubeletVersion(ev); v != "" {
		return v, from, src
	}
	if ng := instanceNodegroup(ev); ng != nil && ng.Version != "" && (ng.AmiType != "CUSTOM" || ev.Image == nil) {
		if v := kubeMinor(ng.Version); v != "" {
			return v, "node group " + ng.Name + " version " + ng.Version, ev.Source(evidence.KindNodegroups)
		}
	}
	if ev.Image != nil {
		if v := kubeMinor(ev.Image.Name); v != "" {
			return v, "AMI " + ev.Image.ID + " name " + ev.Image.Name, ev.Source(evidence.KindImage)
		}
	}
	return "", "", ""
}

// reEKSEndpointRegion is the region in an EKS API server endpoint's host name
// (https://ID.gr7.REGION.eks.amazonaws.com, .eks.amazonaws.com.cn in China).
var reEKSEndpointRegion = regexp.MustCompile(`(?i)^https?://[^/]*?\.([a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d)\.eks\.amazonaws\.com(?:\.cn)?(?::443)?/?$`)

// endpointRegion judges bootstrap.endpoint-mismatch without the cluster's describe-cluster: the
// endpoint the user data names belongs to a cluster of another region than the one the node runs
// in (the node's own region: IMDS in a bundle, the instance's placement). Such a node joins that
// other region's cluster if it can reach it, never one of its own region's (user data copied
// from another region's launch template). Without both regions it is skipped as before.
func endpointRegion(ev *evidence.Evidence) []Finding {
	skip := one(Finding{Status: StatusSkipped, Resource: ev.Target.InstanceID, Message: "missing evidence: " + missingReasons(ev, evidence.KindCluster)})
	b := ev.Bootstrap
	node := strings.ToLower(strings.TrimSpace(ev.Target.Region))
	m := reEKSEndpointRegion.FindStringSubmatch(strings.TrimSpace(b.APIServerEndpoint))
	if m == nil || node == "" || b.Unresolved["apiServerEndpoint"] != "" {
		return skip
	}
	if at := strings.ToLower(m[1]); at != node {
		return one(fail(ev.Target.InstanceID, fmt.Sprintf("user data points the kubelet at %s, an EKS cluster in %s, but the node runs in %s: the user data is another region's (copied from its launch template?), so the node joins that cluster if it can reach it, never one in %s", b.APIServerEndpoint, at, node, node),
			bootstrapItem(ev, "user data endpoint %s; node region %s", b.APIServerEndpoint, node)))
	}
	return skip
}
