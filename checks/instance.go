package checks

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docInstanceLifecycle = "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-instance-lifecycle.html"
	docIMDSOptions       = "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-instance-metadata-options.html"
	docEKSIMDS           = "https://docs.aws.amazon.com/eks/latest/best-practices/identity-and-access-management.html"
	docSubnetReqs        = "https://docs.aws.amazon.com/eks/latest/userguide/network-reqs.html"
	docIPOptimize        = "https://docs.aws.amazon.com/eks/latest/best-practices/ip-opt.html"
	docLaunchWorkers     = "https://docs.aws.amazon.com/eks/latest/userguide/launch-workers.html"
	docCSR               = "https://kubernetes.io/docs/reference/access-authn-authz/kubelet-tls-bootstrapping/"
	docEKSCertSigning    = "https://docs.aws.amazon.com/eks/latest/userguide/cert-signing.html"
	docWindows           = "https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html"
	docCNIIPv6           = "https://docs.aws.amazon.com/eks/latest/userguide/cni-ipv6.html"
	docNitro             = "https://docs.aws.amazon.com/ec2/latest/instancetypes/ec2-nitro-instances.html"
)

// pendingGrace is how long a launching instance or a kubelet CSR may stay pending before it
// counts as stuck (judged against Evidence.CollectedAt).
const pendingGrace = 10 * time.Minute

// csrGrace is how long EKS normally takes to approve a kubelet CSR.
const csrGrace = 5 * time.Minute

func instanceChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "instance.not-running", Title: "Instance is not running", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindInstance}, Stage: StageInstance, Explains: []string{"*"},
			Why:         "Only a running instance can start a kubelet; a stopped or terminated instance, or one stuck in pending, never registers.",
			Remediation: "Read the state reason (aws ec2 describe-instances --instance-ids ID --query 'Reservations[].Instances[].StateReason'); start it (aws ec2 start-instances) or let the Auto Scaling group replace it, and fix what terminated it (capacity, EBS KMS key permissions, Spot interruption).",
			Docs:        []string{docInstanceLifecycle}},
			Eval: func(ev *evidence.Evidence) []Finding {
				in := ev.Instance
				it := item(ev.Source(evidence.KindInstance), "State.Name %s%s, launched %s", in.State, reasonSuffix(in.StateReason), in.LaunchTime.Format(time.RFC3339))
				switch in.State {
				case "":
					// EC2 always reports a state: none means a --query left it out
					return one(notApplicable(in.ID, "the instance's state is not in its output (narrowed by a --query)"))
				case "running":
					return one(pass(in.ID, "instance is running", it))
				case "pending":
					if ev.CollectedAt.IsZero() || in.LaunchTime.IsZero() {
						return one(warn(in.ID, "instance is pending (its age is unknown)", it))
					}
					age := ev.CollectedAt.Sub(in.LaunchTime)
					if age > pendingGrace {
						return one(fail(in.ID, fmt.Sprintf("instance has been pending for %s", age.Round(time.Minute)), it))
					}
					return one(warn(in.ID, fmt.Sprintf("instance is still launching (pending for %s)", age.Round(time.Second)), it))
				}
				return one(fail(in.ID, fmt.Sprintf("instance is %s%s", in.State, reasonSuffix(in.StateReason)), it))
			}},
		{Meta: Meta{ID: "instance.ipv6-unsupported", Title: "Node cannot run in an IPv6 cluster", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCluster, evidence.KindInstance}, Optional: []evidence.Kind{evidence.KindInstanceType, evidence.KindImage, evidence.KindNodegroups},
			Stage: StageNetwork, Explains: explains("runtime.ipamd-no-ips", "runtime.cni-not-ready", "windows.*"),
			Why:         "In an IPv6 cluster (kubernetesNetworkConfig.ipFamily ipv6) EKS supports no Windows nodes (EKS user guide, IPv6: \"No Windows support\"), and the VPC CNI runs IPv6 only in prefix delegation mode, which needs a Nitro (or bare metal) instance: on a Xen type ipamd logs \"Prefix Delegation is not supported on non-nitro instance … IPv6 is only supported in Prefix delegation Mode\" and refuses its configuration (amazon-vpc-cni-k8s pkg/ipamd/ipamd.go isConfigValid), so aws-node never becomes ready and the node stays NotReady.",
			Remediation: "Run Linux nodes on a Nitro instance type in an IPv6 cluster (aws ec2 describe-instance-types --filters Name=hypervisor,Values=nitro), or run the Windows or Xen nodes in an IPv4 cluster.",
			Docs:        []string{docCNIIPv6, docNitro}},
			Eval: evalIPv6Unsupported},
		{Meta: Meta{ID: "instance.imds", Title: "Instance metadata service unusable for the node", Severity: SeverityHigh,
			Needs: []evidence.Kind{evidence.KindInstance}, Stage: StageInstance,
			// with the endpoint off, everything on the node that reads IMDS fails: the bootstrap
			// (region, instance ID, NodeConfig), the kubelet's and IPAMD's AWS credentials and calls
			Explains:    explains("bootstrap.private-cluster-args", "runtime.bootstrap-failed", "runtime.exec-credential-failed", "runtime.credential-provider", "runtime.image-pull", "runtime.ipamd-no-ec2"),
			Why:         "bootstrap.sh, nodeadm and Bottlerocket read the region, instance ID and role credentials from IMDS; with the endpoint disabled bootstrap fails. With IMDSv2 required and a hop limit of 1, pods that are not on the host network (and need IMDS) cannot reach it.",
			Remediation: "aws ec2 modify-instance-metadata-options --instance-id ID --http-endpoint enabled --http-tokens required --http-put-response-hop-limit 2 (set MetadataOptions in the launch template for new nodes).",
			Docs:        []string{docIMDSOptions, docEKSIMDS}},
			Eval: func(ev *evidence.Evidence) []Finding {
				in := ev.Instance
				m := in.Metadata
				it := item(ev.Source(evidence.KindInstance), "MetadataOptions HttpEndpoint=%s HttpTokens=%s HttpPutResponseHopLimit=%d", m.HttpEndpoint, m.HttpTokens, m.HopLimit)
				switch {
				case m.HttpEndpoint == "disabled":
					return one(fail(in.ID, "the instance metadata endpoint is disabled", it))
				case m.HttpTokens == "required" && m.HopLimit == 1:
					return one(warn(in.ID, "IMDSv2 is required with hop limit 1: containers without host networking cannot reach IMDS", it))
				case m.HttpEndpoint == "":
					return one(Finding{Status: StatusSkipped, Resource: in.ID, Message: "MetadataOptions not reported"})
				}
				return one(pass(in.ID, "instance metadata is reachable by the node", it))
			}},
	}
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
}

func subnetChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "subnet.ip-exhausted", ClusterWide: true, Title: "Node subnet is out of IPv4 addresses", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindSubnets}, Optional: []evidence.Kind{evidence.KindInstance, evidence.KindInstanceType, evidence.KindAWSNode, evidence.KindNodegroups},
			// a subnet without a free address also refuses the instance's own primary address:
			// the launch failures Auto Scaling and Karpenter report for it
			Stage: StageNetwork, Explains: explains("runtime.ipamd-no-ips", "runtime.cni-not-ready", "nodegroup.asg-launch-failures", "nodegroup.launch-errors", "karpenter.nodeclaim-not-launched"),
			Why:         "The VPC CNI gives every pod an address from the node's subnet (with custom networking, from the subnet of the ENIConfig for the node's zone) and keeps a warm pool (by default a whole spare ENI's worth); with no free addresses aws-node cannot assign pod IPs, system pods stay pending and the node is useless or NotReady.",
			Remediation: "Free or add addresses: launch nodes in subnets with room, add a secondary VPC CIDR with custom networking, enable prefix delegation (kubectl set env -n kube-system ds/aws-node ENABLE_PREFIX_DELEGATION=true), or lower WARM_ENI_TARGET / set WARM_IP_TARGET and MINIMUM_IP_TARGET.",
			Docs:        []string{docSubnetReqs, docIPOptimize}},
			Eval: func(ev *evidence.Evidence) []Finding {
				in := ev.Instance
				if in == nil {
					return clusterSubnets(ev)
				}
				var sn *evidence.Subnet
				for i := range ev.Subnets {
					if ev.Subnets[i].ID == in.SubnetID {
						sn = &ev.Subnets[i]
					}
				}
				if sn == nil {
					return one(Finding{Status: StatusSkipped, Resource: in.SubnetID, Message: "missing evidence: subnet " + in.SubnetID + " is not in " + ev.Source(evidence.KindSubnets)})
				}
				need, how := 1, "at least one address for pods"
				if it := ev.InstanceType; it != nil && it.IPv4PerENI > 0 {
					need, how = it.IPv4PerENI, fmt.Sprintf("%d addresses for one warm ENI of %s (WARM_ENI_TARGET=1)", it.IPv4PerENI, it.Name)
				}
				if ds := ev.AWSNode; ds != nil {
					if ds.Env["ENABLE_PREFIX_DELEGATION"] == "true" {
						need, how = 16, "a free /28 prefix (prefix delegation)"
					} else if w := atoiOr(ds.Env["WARM_IP_TARGET"], 0) + 0; w > 0 || atoiOr(ds.Env["MINIMUM_IP_TARGET"], 0) > 0 {
						need = max(w, atoiOr(ds.Env["MINIMUM_IP_TARGET"], 0))
						how = fmt.Sprintf("%d addresses (WARM_IP_TARGET/MINIMUM_IP_TARGET)", need)
					}
				}
				it := item(ev.Source(evidence.KindSubnets), "subnet %s (%s) AvailableIpAddressCount %d", sn.ID, sn.CIDR, sn.AvailableIPs)
				var own Finding
				switch {
				case sn.FreeUnknown:
					own = Finding{Status: StatusSkipped, Resource: sn.ID, Message: fmt.Sprintf("cannot verify: the output of subnet %s was narrowed by a --query that did not keep AvailableIpAddressCount", sn.ID)}
				case sn.AvailableIPs == 0:
					own = fail(sn.ID, fmt.Sprintf("subnet %s has no free IPv4 address left for pods", sn.ID), it)
				case sn.AvailableIPs < need:
					own = warn(sn.ID, fmt.Sprintf("subnet %s has %d free addresses; the VPC CNI wants %s", sn.ID, sn.AvailableIPs, how), it)
				default:
					own = pass(sn.ID, fmt.Sprintf("subnet %s has %d free addresses", sn.ID, sn.AvailableIPs), it)
				}
				return append([]Finding{own}, fullGroupSubnets(ev, sn.ID)...)
			}},
		{Meta: Meta{ID: "subnet.cluster-tag", Title: "Self-managed node lacks the kubernetes.io/cluster tag", Severity: SeverityHigh,
			Needs: []evidence.Kind{evidence.KindInstance}, Optional: []evidence.Kind{evidence.KindAutoScaling, evidence.KindNodegroups},
			Stage:       StageInstance,
			Why:         "Self-managed nodes must carry kubernetes.io/cluster/<cluster-name> = owned (or shared) so the AWS cloud provider and controllers treat the instance as part of the cluster; without it the node's cloud resources (load balancer targets, volumes) are not managed and some setups refuse the node.",
			Remediation: "Tag the Auto Scaling group with kubernetes.io/cluster/CLUSTER=owned and PropagateAtLaunch=true (aws autoscaling create-or-update-tags), and tag running instances (aws ec2 create-tags --resources ID --tags Key=kubernetes.io/cluster/CLUSTER,Value=owned).",
			Docs:        []string{docLaunchWorkers}},
			Eval: func(ev *evidence.Evidence) []Finding {
				in := ev.Instance
				if in.Tags["eks:nodegroup-name"] != "" {
					return one(notApplicable(in.ID, "managed node group instances are tagged by EKS"))
				}
				if !in.Reported("Tags") {
					return one(notApplicable(in.ID, "the instance's tags were not in its output (narrowed by a --query)"))
				}
				cluster := ev.Target.Cluster
				if cluster == "" {
					return one(notApplicable(in.ID, "the cluster name is unknown"))
				}
				key := "kubernetes.io/cluster/" + cluster
				v := in.Tags[key]
				src := ev.Source(evidence.KindInstance)
				asg, groupRead := in.Tags["aws:autoscaling:groupName"], false
				for _, g := range ev.AutoScalingGroups {
					if g.Name == asg && asg != "" {
						groupRead = true
						if v == "" && g.Tags[key] != "" {
							v, src = g.Tags[key], ev.Source(evidence.KindAutoScaling)
						}
					}
				}
				if v == "owned" || v == "shared" {
					return one(pass(in.ID, fmt.Sprintf("tag %s = %s", key, v), item(src, "tag %s=%s", key, v)))
				}
				if v != "" {
					return one(fail(in.ID, fmt.Sprintf("tag %s is %q, not owned or shared", key, v), item(src, "tag %s=%s", key, v)))
				}
				// say only what was read: the group's tags when the group was described
				switch {
				case groupRead:
					return one(fail(in.ID, fmt.Sprintf("instance and its Auto Scaling group %s lack tag %s", asg, key), item(src, "tags: %s", tagKeys(in.Tags))))
				case asg != "":
					return one(fail(in.ID, fmt.Sprintf("instance lacks tag %s (the tags of its Auto Scaling group %s were not read)", key, asg), item(src, "tags: %s", tagKeys(in.Tags))))
				}
				return one(fail(in.ID, fmt.Sprintf("instance lacks tag %s", key), item(src, "tags: %s", tagKeys(in.Tags))))
			}},
	}
}

func tagKeys(m map[string]string) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return quoteList(keys)
}

func atoiOr(s string, def int) int {
	n := 0
	if s == "" {
		return def
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return def
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// nodeName returns the Kubernetes node name of the instance: its private DNS name.
func nodeName(in *evidence.Instance) string {
	if in == nil {
		return ""
	}
	return in.PrivateDNSName
}

func nodeCSRs(ev *evidence.Evidence) []evidence.CSR {
	var out []evidence.CSR
	if ev.Instance == nil {
		// no instance (a pasted kubectl get csr): every kubelet CSR is the nodes' own
		for _, c := range ev.CSRs {
			if kubeletCSR(c) {
				out = append(out, c)
			}
		}
		return out
	}
	name := nodeName(ev.Instance)
	if name == "" {
		return nil
	}
	user := "system:node:" + name
	for _, c := range ev.CSRs {
		if c.Username == user || c.CommonName == user {
			out = append(out, c)
		}
	}
	return out
}

// kubeletCSR reports whether a CSR is a kubelet's: requested by a node or a bootstrap identity,
// or with a kubelet signer.
func kubeletCSR(c evidence.CSR) bool {
	return strings.HasPrefix(c.Username, "system:node:") || strings.HasPrefix(c.Username, "system:bootstrap:") || strings.HasPrefix(c.CommonName, "system:node:") ||
		strings.HasPrefix(c.SignerName, "kubernetes.io/kubelet-serving") || strings.HasPrefix(c.SignerName, "kubernetes.io/kube-apiserver-client-kubelet")
}

// csrLabel names a CSR with its signer: "CSR csr-1 (kubernetes.io/kubelet-serving)", or the name
// alone when the output showed no signer (a v1beta1 CSR's describe output).
func csrLabel(c evidence.CSR) string {
	if c.SignerName == "" {
		return "CSR " + c.Name
	}
	return "CSR " + c.Name + " (" + c.SignerName + ")"
}

// servingCSR reports whether c is a kubelet's serving certificate request, which EKS approves
// only for a system:node: requestor: signer kubelet-serving, or no signer shown and the subject a
// node's (CN system:node:NAME, as a v1beta1 CSR's describe output shows it).
func servingCSR(c evidence.CSR) bool {
	return strings.HasPrefix(c.SignerName, "kubernetes.io/kubelet-serving") || c.SignerName == "" && strings.HasPrefix(c.CommonName, "system:node:")
}

func csrChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "csr.pending", Title: "Kubelet certificate signing requests stay Pending", Severity: SeverityHigh,
			Needs: []evidence.Kind{evidence.KindCSRs}, Optional: []evidence.Kind{evidence.KindInstance}, Stage: StageCerts,
			Why:         "The kubelet asks for its serving certificate with a kubernetes.io/kubelet-serving CSR that EKS approves automatically; while it stays Pending, kubectl logs/exec and metrics for the node fail, and a Pending client CSR means the node cannot register at all.",
			Remediation: "Check why EKS does not approve it (the node's private DNS name and IPs must match the instance; the role must be mapped with system:nodes). Inspect with kubectl get csr; approve a legitimate one by hand with kubectl certificate approve NAME.",
			Docs:        []string{docCSR, docEKSCertSigning}},
			Eval: func(ev *evidence.Evidence) []Finding {
				name := nodeName(ev.Instance)
				csrs := nodeCSRs(ev)
				if len(csrs) == 0 {
					return one(pass(name, "no certificate signing request of node "+name+" is pending", item(ev.Source(evidence.KindCSRs), "%d CSRs, none from system:node:%s", len(ev.CSRs), name)))
				}
				var out []Finding
				var stale, superseded []string
				for _, c := range csrs {
					if c.State != "Pending" {
						continue
					}
					if goneNode(ev, c) {
						stale = append(stale, c.Name)
						continue
					}
					if by := supersededBy(csrs, c); by != "" {
						// the kubelet asked again and that request was approved: it has its certificate
						superseded = append(superseded, c.Name+" by "+by)
						continue
					}
					it := item(ev.Source(evidence.KindCSRs), "CSR %s signer %s requestor %s created %s, no Approved/Denied condition", c.Name, c.SignerName, c.Username, c.Created.Format(time.RFC3339))
					switch {
					case ev.Instance == nil && servingCSR(c) && c.Username != "" && !strings.HasPrefix(c.Username, "system:node:"):
						out = append(out, fail(c.Name, fmt.Sprintf("%s was requested by %q, not by a system:node: identity, so EKS never approves it: the node role's mapping gives the wrong username", csrLabel(c), c.Username), it))
					case c.Age > 0 && c.Age <= csrGrace:
						out = append(out, warn(c.Name, fmt.Sprintf("%s was %s old when shown and is not approved yet", csrLabel(c), c.Age), it))
					case c.Age > csrGrace:
						out = append(out, fail(c.Name, fmt.Sprintf("%s had been Pending for %s", csrLabel(c), c.Age), it))
					case ev.CollectedAt.IsZero() || c.Created.IsZero():
						out = append(out, fail(c.Name, fmt.Sprintf("%s is Pending", csrLabel(c)), it))
					case ev.CollectedAt.Sub(c.Created) > csrGrace:
						out = append(out, fail(c.Name, fmt.Sprintf("%s has been Pending for %s", csrLabel(c), ev.CollectedAt.Sub(c.Created).Round(time.Minute)), it))
					default:
						out = append(out, warn(c.Name, fmt.Sprintf("%s was created %s before collection and is not approved yet", csrLabel(c), ev.CollectedAt.Sub(c.Created).Round(time.Second)), it))
					}
				}
				if len(out) == 0 && len(superseded) > 0 {
					return one(pass(name, fmt.Sprintf("the Pending CSRs were superseded by later approved requests of the same signer and requestor (%s)", strings.Join(superseded, ", ")),
						item(ev.Source(evidence.KindCSRs), "%d CSRs from system:node:%s", len(csrs), name)))
				}
				if len(out) == 0 && len(stale) > 0 {
					return one(pass(name, fmt.Sprintf("the Pending serving CSRs %s are of nodes that no longer exist or that the input is not about (not among its nodes)", strings.Join(stale, ", ")),
						item(ev.Source(evidence.KindNodes), "%d Nodes listed, none named by those CSRs' requestors", len(ev.Nodes))))
				}
				if len(out) == 0 {
					return one(pass(name, fmt.Sprintf("no CSR of node %s is pending (%d found)", name, len(csrs)), item(ev.Source(evidence.KindCSRs), "%d CSRs from system:node:%s", len(csrs), name)))
				}
				return out
			}},
		{Meta: Meta{ID: "csr.denied", Title: "Kubelet certificate signing request denied or failed", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindCSRs}, Optional: []evidence.Kind{evidence.KindInstance}, Stage: StageCerts,
			Why:         "A denied or failed kubelet CSR leaves the kubelet without the certificate it needs; the kubelet does not retry a denied request by itself.",
			Remediation: "Read the condition's reason (kubectl get csr NAME -o yaml); fix the cause (node name not matching the instance's private DNS name, wrong groups), delete the CSR (kubectl delete csr NAME) and restart kubelet so it requests a new one.",
			Docs:        []string{docCSR, docEKSCertSigning}},
			Eval: func(ev *evidence.Evidence) []Finding {
				name := nodeName(ev.Instance)
				var out []Finding
				var replaced []string
				csrs := nodeCSRs(ev)
				for _, c := range csrs {
					if c.State == "Denied" || c.State == "Failed" {
						if by := supersededBy(csrs, c); by != "" {
							// the kubelet asked again and got its certificate: the old refusal is history
							replaced = append(replaced, fmt.Sprintf("%s was %s, but %s of the same signer and requestor, created later, was approved", csrLabel(c), strings.ToLower(c.State), by))
							continue
						}
						out = append(out, fail(c.Name, fmt.Sprintf("CSR %s (%s) was %s: %s %s", c.Name, c.SignerName, strings.ToLower(c.State), c.Reason, c.Message),
							item(ev.Source(evidence.KindCSRs), "CSR %s condition %s reason %q message %q", c.Name, c.State, c.Reason, c.Message)))
					}
				}
				if len(out) == 0 && len(replaced) > 0 {
					return one(pass(name, strings.Join(replaced, "; "), item(ev.Source(evidence.KindCSRs), "%d CSRs in the cluster", len(ev.CSRs))))
				}
				if len(out) == 0 {
					return one(pass(name, "no CSR of node "+name+" was denied or failed", item(ev.Source(evidence.KindCSRs), "%d CSRs in the cluster", len(ev.CSRs))))
				}
				return out
			}},
	}
}

// supersededBy returns the name of a CSR of csrs that replaces c (Pending, Denied or Failed): the same signer
// and requestor, created later, and Approved ("" when there is none). The kubelet files a new
// request when one is not answered in time; once a later one is approved it holds its
// certificate and the earlier request is left Pending (or Denied) harmlessly.
func supersededBy(csrs []evidence.CSR, c evidence.CSR) string {
	for _, o := range csrs {
		if o.Name != c.Name && o.State == "Approved" && o.SignerName == c.SignerName && o.Username == c.Username && c.Username != "" &&
			!c.Created.IsZero() && o.Created.After(c.Created) {
			return o.Name
		}
	}
	return ""
}

func windowsChecks() []Check {
	notWindows := func(ev *evidence.Evidence) []Finding {
		return one(notApplicable(ev.Instance.ID, "the instance is not a Windows node"))
	}
	return []Check{
		{Meta: Meta{ID: "windows.ipam-disabled", Title: "Windows IPAM is not enabled in amazon-vpc-cni", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindVPCCNIConfig}, Optional: []evidence.Kind{evidence.KindInstance, evidence.KindImage, evidence.KindNodegroups, evidence.KindNodes, evidence.KindNodeLogs},
			Stage: StagePostJoin, Explains: []string{"runtime.windows-ipam-label"},
			Why:         "Windows pods get their IPs from the VPC resource controller only when ConfigMap kube-system/amazon-vpc-cni has enable-windows-ipam: \"true\"; otherwise every Windows pod sandbox fails with 'does not have label vpc.amazonaws.com/PrivateIPv4Address'.",
			Remediation: "kubectl patch configmap/amazon-vpc-cni -n kube-system --type merge -p '{\"data\":{\"enable-windows-ipam\":\"true\"}}' (create the ConfigMap if it does not exist).",
			Docs:        []string{docWindows}},
			Eval: func(ev *evidence.Evidence) []Finding {
				switch {
				case ev.Instance == nil && !clusterHasWindows(ev):
					// no one instance (a paste, a cluster-wide run): the setting matters once the
					// cluster has a Windows node
					return one(notApplicable("kube-system/amazon-vpc-cni", "no Windows node in the evidence"))
				case ev.Instance != nil && !isWindows(ev):
					return notWindows(ev)
				}
				src := ev.Source(evidence.KindVPCCNIConfig)
				if ev.VPCCNIConfig == nil {
					return one(fail("kube-system/amazon-vpc-cni", "ConfigMap kube-system/amazon-vpc-cni does not exist", item(src, "NotFound")))
				}
				v := ev.VPCCNIConfig["enable-windows-ipam"]
				it := item(src, "data.enable-windows-ipam = %q", v)
				if v != "true" {
					return one(fail("kube-system/amazon-vpc-cni", fmt.Sprintf("enable-windows-ipam is %q, not \"true\"", v), it))
				}
				return one(pass("kube-system/amazon-vpc-cni", "Windows IPAM is enabled", it))
			}},
		{Meta: Meta{ID: "windows.kube-proxy-group", Title: "Windows node mapping lacks eks:kube-proxy-windows", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindInstance, evidence.KindNodeRole}, Optional: []evidence.Kind{evidence.KindAWSAuth, evidence.KindAccessEntries, evidence.KindImage, evidence.KindNodegroups, evidence.KindCluster},
			Stage:       StageAuth,
			Why:         "On Windows, kube-proxy runs with the node's identity and needs the group eks:kube-proxy-windows; without it kube-proxy is Forbidden and Services do not work on the node.",
			Remediation: "Add eks:kube-proxy-windows to the Windows node role's aws-auth groups (with system:bootstrappers and system:nodes), or use an EC2_WINDOWS access entry, which adds it.",
			Docs:        []string{docWindows, docAWSAuth, docMigrateAccessEntries}},
			Eval: accessEntryPrecedes(func(ev *evidence.Evidence) []Finding {
				if !isWindows(ev) {
					return notWindows(ev)
				}
				roleArn := nodeRoleArn(ev)
				if f, skip := missingAll(ev, roleArn, evidence.KindAWSAuth, evidence.KindAccessEntries); skip {
					return one(f)
				}
				if e := nodeAccessEntry(ev, roleArn); e != nil && e.Type == "EC2_WINDOWS" {
					return one(pass(roleArn, "EC2_WINDOWS access entry adds eks:kube-proxy-windows", item(ev.Source(evidence.KindAccessEntries), "access entry type EC2_WINDOWS")))
				}
				m := exactRoleMapping(ev.AWSAuth, roleArn)
				if m == nil {
					return one(notApplicable(roleArn, "the Windows node role has no aws-auth mapping (see auth.role-not-mapped)"))
				}
				it := item(ev.Source(evidence.KindAWSAuth), "mapRoles entry %d groups: %s", m.Index+1, quoteList(m.Groups))
				if !hasString(m.Groups, "eks:kube-proxy-windows") {
					return one(fail(roleArn, fmt.Sprintf("mapRoles entry %d for the Windows node role lacks group eks:kube-proxy-windows", m.Index+1), it))
				}
				return one(pass(roleArn, "mapping has eks:kube-proxy-windows", it))
			}),
			// a pasted aws-auth alone: a node mapping whose role's name says Windows
			Partial: windowsNamedMappings},
		{Meta: Meta{ID: "windows.no-linux-nodes", Title: "Cluster has no Linux node", Severity: SeverityCritical,
			Needs: []evidence.Kind{evidence.KindInstance, evidence.KindNodes}, Optional: []evidence.Kind{evidence.KindImage, evidence.KindNodegroups},
			Stage:       StagePostJoin,
			Why:         "CoreDNS, the VPC resource controller's webhook and other system pods run only on Linux; a cluster with only Windows nodes has no DNS and no Windows pod networking.",
			Remediation: "Add at least one Linux node group (two nodes for CoreDNS availability), e.g. aws eks create-nodegroup --cluster-name CLUSTER --nodegroup-name linux --ami-type AL2023_x86_64_STANDARD --node-role ROLE_ARN --subnets ...",
			Docs:        []string{docWindows}},
			Eval: func(ev *evidence.Evidence) []Finding {
				if !isWindows(ev) {
					return notWindows(ev)
				}
				linux, ready := 0, 0
				for _, n := range ev.Nodes {
					if n.OS == "linux" {
						linux++
						if n.Ready {
							ready++
						}
					}
				}
				it := item(ev.Source(evidence.KindNodes), "%d nodes, %d Linux (%d Ready)", len(ev.Nodes), linux, ready)
				switch {
				case linux == 0:
					return one(fail(ev.Target.Cluster, "the cluster has no Linux node", it))
				case ready == 0:
					return one(warn(ev.Target.Cluster, fmt.Sprintf("the cluster has %s, none Ready", nOf(linux, "Linux node", "Linux nodes")), it))
				}
				return one(pass(ev.Target.Cluster, fmt.Sprintf("%s Ready", nOf(ready, "Linux node", "Linux nodes")), it))
			}},
	}
}

// clusterSubnets judges the subnets of every node group (cluster-wide scans): a subnet with no
// free address fails, one with fewer than 16 warns.
// fullGroupSubnets warns of each other subnet of the instance's node group (the input's only
// node group when the instance's tags do not name one) that has no free address: the group's next
// instances launched there fail (EC2 cannot give them a primary address). It is the group's
// problem, not this instance's, which launched elsewhere (a warning, not a cause of its join).
func fullGroupSubnets(ev *evidence.Evidence, own string) []Finding {
	ng := instanceNodegroup(ev)
	if ng == nil && len(ev.Nodegroups) == 1 {
		ng = &ev.Nodegroups[0]
	}
	if ng == nil {
		return nil
	}
	group := "the node group"
	if ng.Name != "" {
		group = "node group " + ng.Name
	}
	var out []Finding
	for _, id := range ng.Subnets {
		for _, sn := range ev.Subnets {
			if sn.ID == id && id != own && !sn.FreeUnknown && sn.AvailableIPs == 0 {
				out = append(out, warn(sn.ID, fmt.Sprintf("%s's subnet %s has no free IPv4 address: the instances it launches there fail (this instance is in %s)", group, sn.ID, own),
					item(ev.Source(evidence.KindSubnets), "subnet %s (%s) AvailableIpAddressCount 0", sn.ID, sn.CIDR), item(ev.Source(evidence.KindNodegroups), "%s subnets %s", group, strings.Join(ng.Subnets, ", "))))
			}
		}
	}
	return out
}

func clusterSubnets(ev *evidence.Evidence) []Finding {
	want := map[string]bool{}
	for _, ng := range ev.Nodegroups {
		for _, s := range ng.Subnets {
			want[s] = true
		}
	}
	var out []Finding
	n := 0
	what := "subnet" // every subnet given: with custom networking, pod subnets too
	if len(want) > 0 {
		what = "node subnet"
	}
	unknown := 0
	for _, sn := range ev.Subnets {
		if len(want) > 0 && !want[sn.ID] {
			continue
		}
		if sn.FreeUnknown {
			unknown++
			continue
		}
		n++
		it := item(ev.Source(evidence.KindSubnets), "subnet %s (%s) AvailableIpAddressCount %d", sn.ID, sn.CIDR, sn.AvailableIPs)
		switch {
		case sn.AvailableIPs == 0:
			out = append(out, fail(sn.ID, fmt.Sprintf("%s %s has no free IPv4 address left", what, sn.ID), it))
		case sn.AvailableIPs < 16:
			out = append(out, warn(sn.ID, fmt.Sprintf("%s %s has only %d free addresses", what, sn.ID, sn.AvailableIPs), it))
		}
	}
	if out == nil && n == 0 && unknown > 0 {
		return one(Finding{Status: StatusSkipped, Resource: "subnets", Message: "cannot verify: the subnets' output was narrowed by a --query that did not keep AvailableIpAddressCount"})
	}
	if out == nil {
		return one(pass("subnets", fmt.Sprintf("%s free addresses", nOf(n, "node subnet has", "node subnets have")), item(ev.Source(evidence.KindSubnets), "%d subnets", len(ev.Subnets))))
	}
	return out
}

// goneNode reports whether c, in a run with no one instance, is a kubelet-serving CSR of a node
// the input is not about. Only a registered kubelet asks for a serving certificate (kubelet
// certificate manager), so: with the whole node list, a requestor missing from it is a node
// deleted since (a reclaimed Spot instance), and no node waits on the request; with only the
// nodes the input describes, whose own CSRs are listed too, a requestor not among them is
// another node than the one asked about.
func goneNode(ev *evidence.Evidence, c evidence.CSR) bool {
	if ev.Instance != nil || !servingCSR(c) || !strings.HasPrefix(c.Username, "system:node:") || !ev.Have(evidence.KindNodes) || len(ev.Nodes) == 0 {
		return false
	}
	listed := func(name string) bool {
		for _, n := range ev.Nodes {
			if n.Name == name {
				return true
			}
		}
		return false
	}
	if listed(strings.TrimPrefix(c.Username, "system:node:")) {
		return false
	}
	if !ev.NodesPartial {
		return true
	}
	for _, o := range ev.CSRs {
		if servingCSR(o) && listed(strings.TrimPrefix(o.Username, "system:node:")) {
			return true // the described nodes' own requests are in the list
		}
	}
	return false
}

// clusterHasWindows reports whether the evidence shows a Windows node without one instance to
// judge: a listed Node whose OS is windows, or Windows pods failing for want of the IP label
// the Windows IPAM gives them (runtime.windows-ipam-label in the logs or events).
func clusterHasWindows(ev *evidence.Evidence) bool {
	for _, n := range ev.Nodes {
		if strings.EqualFold(n.OS, "windows") || n.Labels["kubernetes.io/os"] == "windows" {
			return true
		}
	}
	if ev.NodeLogs == nil {
		return false
	}
	failing, _ := signatureHits(ev.NodeLogs, "runtime.windows-ipam-label")
	return len(failing) > 0
}

// evalIPv6Unsupported judges a node against an IPv6 cluster: not Windows, and a Nitro or bare
// metal instance type (DescribeInstanceTypes Hypervisor "nitro" or BareMetal; the VPC CNI's
// IsPrefixDelegationSupported tests the same).
func evalIPv6Unsupported(ev *evidence.Evidence) []Finding {
	c, in := ev.Cluster, ev.Instance
	family := c.IPFamily
	if family == "" {
		// kubernetesNetworkConfig without ipFamily: the service CIDR says which
		if c.ServiceIPv6CIDR != "" {
			family = "ipv6"
		} else if c.ServiceIPv4CIDR != "" {
			family = "ipv4"
		}
	}
	switch family {
	case "":
		return one(notApplicable(in.ID, "the cluster's IP family is not in the evidence (kubernetesNetworkConfig.ipFamily)"))
	case "ipv4":
		return one(notApplicable(in.ID, "an IPv4 cluster"))
	}
	cl := item(ev.Source(evidence.KindCluster), "cluster ipFamily %s", family)
	if fam, from := amiFamily(ev); fam == FamilyWindows {
		return one(fail(in.ID, "a Windows node in an IPv6 cluster: EKS does not support Windows nodes in IPv6 clusters",
			cl, item(ev.Source(evidence.KindInstance), "%s", from)))
	}
	t := ev.InstanceType
	if t == nil || t.Name != in.InstanceType && in.InstanceType != "" {
		return one(Finding{Status: StatusSkipped, Resource: in.ID, Message: "missing evidence: the hypervisor of instance type " + in.InstanceType + " (describe-instance-types) — " + missingReasons(ev, evidence.KindInstanceType)})
	}
	it := item(ev.Source(evidence.KindInstanceType), "instance type %s Hypervisor %q BareMetal %t", t.Name, t.Hypervisor, t.BareMetal)
	switch {
	case t.Hypervisor == "nitro" || t.BareMetal:
		return one(pass(in.ID, t.Name+" is a Nitro instance type: the VPC CNI's IPv6 prefix delegation mode runs on it", cl, it))
	case t.Hypervisor == "":
		return one(Finding{Status: StatusSkipped, Resource: in.ID, Message: "the instance type's hypervisor is not in the evidence (describe-instance-types Hypervisor)", Evidence: []EvidenceItem{cl, it}})
	}
	return one(fail(in.ID, fmt.Sprintf("%s is not a Nitro instance type (hypervisor %s): the VPC CNI runs an IPv6 cluster only in prefix delegation mode, which needs Nitro, so ipamd refuses to start and the node stays NotReady", t.Name, t.Hypervisor), cl, it))
}

// windowsNamedMappings is windows.kube-proxy-group's judgement without the instance (a pasted
// aws-auth): a node mapping (isNodeMapping) whose role is named for Windows nodes
// (namesWindows: the role's name, or a placeholder standing for its ARN, holds the word windows
// or win) and lacks the group eks:kube-proxy-windows fails. When the node role is known only its
// mapping is judged; an instance known not to run Windows, an access entry of the role (its type
// decides the groups), or aws-auth not read judges nothing.
func windowsNamedMappings(ev *evidence.Evidence) []Finding {
	if !ev.Have(evidence.KindAWSAuth) || ev.AWSAuth == nil || (ev.Instance != nil && !isWindows(ev)) {
		return nil
	}
	roleArn := nodeRoleArn(ev)
	if roleArn != "" && nodeAccessEntry(ev, roleArn) != nil {
		return nil
	}
	var out []Finding
	for _, m := range ev.AWSAuth.Roles {
		if !isNodeMapping(m) || !namesWindows(m.RoleArn) || hasString(m.Groups, "eks:kube-proxy-windows") {
			continue
		}
		if roleArn != "" && len(roleMatches(&evidence.AWSAuth{Roles: []evidence.RoleMapping{m}}, roleArn)) == 0 {
			continue
		}
		out = append(out, fail(m.RoleArn, fmt.Sprintf("mapRoles entry %d maps %s, a role named for Windows nodes, without group eks:kube-proxy-windows", m.Index+1, m.RoleArn),
			item(ev.Source(evidence.KindAWSAuth), "mapRoles entry %d groups: %s", m.Index+1, quoteList(m.Groups))))
	}
	return out
}

// namesWindows reports whether a role ARN's role name — or, for a value that is not an ARN (a
// placeholder such as <windows_mng_role_arn>), the whole value — holds the word "windows" or
// "win": words are split at every character that is not a letter or digit and where a lower-case
// letter or digit is followed by an upper-case one (EksWinNodeRole), so twinkle is no match.
func namesWindows(arn string) bool {
	name := strings.TrimSpace(arn)
	if strings.HasPrefix(strings.ToLower(name), "arn:") {
		name = name[strings.LastIndexAny(name, ":/")+1:]
	}
	var words []string
	var cur []rune
	prev := rune(0)
	for _, r := range name {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !alnum || (unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev))) {
			if len(cur) > 0 {
				words = append(words, strings.ToLower(string(cur)))
			}
			cur = cur[:0]
		}
		if alnum {
			cur = append(cur, r)
		}
		prev = r
	}
	if len(cur) > 0 {
		words = append(words, strings.ToLower(string(cur)))
	}
	for _, w := range words {
		if w == "windows" || w == "win" {
			return true
		}
	}
	return false
}
