package checks

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

const (
	docKubeletCreds   = "https://kubernetes.io/docs/tasks/administer-cluster/kubelet-credential-provider/"
	docBundleLogs     = "https://github.com/awslabs/amazon-eks-ami/tree/main/log-collector-script"
	docBottlerocketLG = "https://bottlerocket.dev/en/os/latest/concepts/logdog/"
	docTimeSync       = "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/set-time.html"
	docAPIThrottling  = "https://docs.aws.amazon.com/AWSEC2/latest/APIReference/throttling.html"
	docKubeletCgroups = "https://kubernetes.io/docs/setup/production-environment/container-runtimes/#cgroup-drivers"
	docEviction       = "https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/"
	docWindowsIPAM    = "https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support"
)

// runtimeChecks judge the log signature scan (collectors/logscan) of a node bundle or a pasted
// log. Each fails when a failure signature matched and no later healthy-progress line (the
// node registered, became Ready, aws-node installed the CNI configuration) shows the failure
// was transient startup noise.
func runtimeChecks() []Check {
	logs := []evidence.Kind{evidence.KindNodeLogs}
	mk := func(id, title string, sev Severity, stage int, why, fix string, docs ...string) Check {
		ex := explains()
		if id != "runtime.node-name-not-found" {
			ex = explains("runtime.node-name-not-found", "runtime.cni-not-ready")
		}
		return Check{Meta: Meta{ID: id, Title: title, Severity: sev, Needs: logs, Stage: stage, Why: why, Remediation: fix, Docs: docs,
			Explains: ex}, Eval: evalSignatures(id)}
	}
	withExplains := func(c Check, ids ...string) Check {
		c.Meta.Explains = append(c.Meta.Explains, explains(ids...)...)
		return c
	}
	return []Check{
		mk("runtime.unauthorized", "The API server rejects the kubelet's credentials (401 Unauthorized)", SeverityCritical, StageAuth,
			"The kubelet authenticates with a token for the node's IAM role; when the role is not mapped (aws-auth mapRoles or an EC2_LINUX/EC2_WINDOWS access entry) or mapped with the wrong username or groups, every registration attempt is rejected and the Node never appears.",
			"Map the node role: an access entry of type EC2_LINUX (EC2_WINDOWS for Windows) — aws eks create-access-entry --cluster-name CLUSTER --principal-arn ROLE_ARN --type EC2_LINUX — or a mapRoles entry with username system:node:{{EC2PrivateDNSName}} and groups system:bootstrappers, system:nodes. Run eksdoctor why-not-joining against the account to see which.",
			docAWSAuth, docAccessEntries),
		mk("runtime.tls-untrusted", "The node does not trust the API server certificate", SeverityCritical, StageCerts,
			"The kubelet verifies the API server with the cluster CA from its bootstrap configuration; a CA from another (or a recreated) cluster fails verification and no request reaches the API server.",
			"Use the cluster's CA (aws eks describe-cluster --name CLUSTER --query cluster.certificateAuthority.data --output text) in --b64-cluster-ca / spec.cluster.certificateAuthority / settings.kubernetes.cluster-certificate, and replace the node.",
			docLaunchTemplates, docEKSTroubleshoot),
		mk("runtime.apiserver-timeout", "The node cannot reach the API server endpoint", SeverityCritical, StageNetwork,
			"Every kubelet call goes to the cluster endpoint on 443; timeouts and resolution failures mean security groups, NACLs, routes or endpoint access settings stop the traffic, the endpoint name does not resolve in the VPC, or an HTTP proxy set on the node (HTTPS_PROXY) refuses or cannot open the tunnel.",
			"Allow 443 from the node to the cluster security group, check the subnet's routes and NACLs, and for a private endpoint enable the VPC's DNS hostnames and resolution; behind an HTTP proxy, add the endpoint (or .eks.amazonaws.com), 169.254.169.254 and the VPC CIDR to NO_PROXY. eksdoctor why-not-joining against the account shows which hop blocks.",
			docEndpointAccess, docSGReqs, docNetworkReqs),
		mk("runtime.node-name-not-found", "The kubelet cannot register or find its Node", SeverityCritical, StageBootstrap,
			"The Node name must equal the instance's private DNS name (or its ID with resource-based names); with custom DHCP domain names or a wrong hostname override the node authorizer rejects the kubelet's requests for that name and it loops on \"node not found\".",
			"Use the AmazonProvidedDNS domain (region.compute.internal) in the VPC's DHCP options, or let the AMI set the hostname override; do not override the kubelet's --hostname-override with a custom name.",
			docDHCP, docEKSTroubleshoot),
		mk("runtime.ipamd-no-ips", "IPAMD cannot obtain ENIs or IP addresses", SeverityCritical, StagePostJoin,
			"aws-node gives pods VPC addresses; without free addresses in the subnet, or with its EC2 calls denied, no pod gets an IP and the node stays NotReady or its pods stay in ContainerCreating.",
			"Free addresses or add subnets (prefix delegation or custom networking for exhausted subnets), and attach AmazonEKS_CNI_Policy to the aws-node IRSA role or the node role.",
			docVPCCNI, docCNIIRSA, docIPOptimize),
		mk("runtime.ipamd-no-ec2", "IPAMD cannot reach the EC2 API or instance metadata", SeverityCritical, StagePostJoin,
			"IPAMD calls EC2 (DescribeNetworkInterfaces, AssignPrivateIpAddresses) and reads IMDS; with no NAT, no ec2 interface endpoint in a private subnet, or IMDS blocked, it never assigns addresses.",
			"Give the subnet a route to EC2 (NAT gateway or a com.amazonaws.REGION.ec2 interface endpoint with private DNS) and allow IMDSv2 with a hop limit of 2 when aws-node runs without host networking access to IMDS.",
			docPrivateCluster, docIMDSOptions),
		mk("runtime.image-pull", "Images the node needs cannot be pulled", SeverityCritical, StagePostJoin,
			"The pause (sandbox) image and the aws-node and kube-proxy images come from ECR; without a route to ECR and S3, the ECR endpoints in a private VPC, or ECR permissions on the node role, no pod sandbox starts and the CNI never comes up.",
			"Attach AmazonEC2ContainerRegistryPullOnly (or ReadOnly) to the node role, and give the subnet ECR access: NAT, or interface endpoints ecr.api and ecr.dkr plus the S3 gateway endpoint.",
			docECREndpoints, docNodeRole),
		mk("runtime.kubelet-crashloop", "The kubelet exits at start", SeverityCritical, StageBootstrap,
			"A kubelet that rejects its flags or configuration exits before it contacts the API server; systemd restarts it in a loop and the node never registers.",
			"Fix the flag or config the log names: remove flags the kubelet version no longer accepts from --kubelet-extra-args or NodeConfig spec.kubelet.flags, and keep the kubelet cgroupDriver equal to containerd's (systemd on AL2023 and Bottlerocket).",
			docKubeletCgroups, docNodeadm),
		mk("runtime.exec-credential-failed", "The kubelet's credential plugin fails", SeverityCritical, StageIdentity,
			"The kubelet gets its API token from an exec plugin (aws eks get-token on AL2023, aws-iam-authenticator on AL2 and Bottlerocket), which needs the instance profile credentials from IMDS and STS; when the plugin fails the kubelet sends no credentials and is rejected.",
			"Check that the instance has an instance profile, that IMDS is reachable (hop limit 2 for containers), that STS is reachable (NAT or the sts interface endpoint) and that the plugin binary exists on the AMI.",
			docInstanceProfile, docIMDSOptions, docPrivateCluster),
		mk("runtime.credential-provider", "The kubelet image credential provider is missing", SeverityHigh, StagePostJoin,
			"The kubelet gets ECR pull credentials from the ecr-credential-provider binary named in its credential provider config; when the binary or config is missing, private ECR images (including add-ons) cannot be pulled.",
			"Use an EKS optimized AMI (it ships /etc/eks/image-credential-provider/ecr-credential-provider), or install the binary and point --image-credential-provider-config and --image-credential-provider-bin-dir at it.",
			docKubeletCreds),
		// a full disk fails every image pull too (containerd cannot unpack the layers)
		withExplains(mk("runtime.disk-pressure", "A filesystem on the node is full", SeverityHigh, StagePostJoin,
			"With the root or data volume (or its inodes) full, containerd cannot unpack images and the kubelet evicts pods or reports DiskPressure.",
			"Grow the root/data volume in the launch template, clean images (crictl rmi --prune), and check container log rotation.",
			docEviction), "runtime.image-pull").withPartial(nodePressure("DiskPressure")),
		mk("runtime.clock-skew", "The node's clock is wrong", SeverityHigh, StageIdentity,
			"AWS rejects signatures more than 5 minutes off and TLS rejects certificates that are not yet valid, so STS tokens and API calls fail.",
			"Let chronyd use the Amazon Time Sync Service (169.254.169.123 / fd00:ec2::123) and allow it in the instance's network path.",
			docTimeSync),
		mk("runtime.throttled", "AWS APIs throttle the node's bootstrap calls", SeverityMedium, StageBootstrap,
			"Bootstrap calls (DescribeCluster in bootstrap.sh, EC2 calls from IPAMD) retry on throttling; under large scale-ups they can exhaust their retries.",
			"Pass --apiserver-endpoint and --b64-cluster-ca (or a complete NodeConfig) so nodes skip DescribeCluster, stagger scale-ups, and look for other callers using the account's EC2 API quota; for IPAMD, do not set a small WARM_IP_TARGET without MINIMUM_IP_TARGET (every pod start then calls EC2).",
			docAPIThrottling),
		mk("runtime.windows-ipam-label", "Windows pods get no IP address", SeverityCritical, StagePostJoin,
			"On Windows the VPC resource controller assigns pod IPs and labels each pod with vpc.amazonaws.com/PrivateIPv4Address; without enable-windows-ipam in ConfigMap amazon-vpc-cni the label never appears and every sandbox fails.",
			"kubectl -n kube-system patch configmap amazon-vpc-cni --type merge -p '{\"data\":{\"enable-windows-ipam\":\"true\"}}' and check the eks:kube-proxy-windows mapping for the Windows node role.",
			docWindowsIPAM, docWindows),
		mk("runtime.bootstrap-failed", "The node's bootstrap agent failed", SeverityCritical, StageBootstrap,
			"nodeadm (AL2023), /etc/eks/bootstrap.sh (AL2) and Bottlerocket's early-boot-config and setting generators write the kubelet's configuration; when they fail, the kubelet is never configured or started.",
			"Fix the user data the log names: a complete NodeConfig (name, apiServerEndpoint, certificateAuthority, cidr) for AL2023, valid bootstrap.sh arguments for AL2, valid TOML with a [settings.kubernetes] table for Bottlerocket; eksdoctor analyze on the user data itself shows the exact problem.",
			docNodeadm, docBootstrapSh, docBottlerocketK8s, docBundleLogs),
	}
}

// evalSignatures returns the Eval of runtime check id: the logs' testimony (testimonyFindings);
// with no line naming id, a pass when lines of the components that would show it were read,
// and a skip when none were (absent lines are not a pass).
func evalSignatures(id string) func(ev *evidence.Evidence) []Finding {
	return func(ev *evidence.Evidence) []Finding {
		logs := ev.NodeLogs
		target := targetName(ev)
		src := ev.Source(evidence.KindNodeLogs)
		t := judgeTestimony(logs, id)
		if name, other := otherNodesLines(ev, t); other {
			return one(Finding{Status: StatusSkipped, Resource: target, Message: fmt.Sprintf("not a cause: the lines naming %s are those of node %s, not of %s", id, name, ev.Instance.PrivateDNSName)})
		}
		if t.state == testimonyFailing && readyResolves(id) {
			// the node list shows the Node Ready: what the logs said of it before is over; the
			// lines of a node the list does not show Ready still fail
			var over, live []evidence.SignatureHit
			var names []string
			for _, h := range t.failing {
				if name, ok := ListedReady(ev, h); ok {
					over = append(over, h)
					if !slices.Contains(names, name) {
						names = append(names, name)
					}
				} else {
					live = append(live, h)
				}
			}
			if len(live) == 0 {
				items := make([]EvidenceItem, 0, len(over)+len(names))
				var total int64
				for _, h := range over {
					total += h.Count
					items = append(items, hitItem(src, h))
				}
				for _, name := range names {
					items = append(items, item(ev.Source(evidence.KindNodes), "Node %s Ready", name))
				}
				return one(pass(target, fmt.Sprintf("%d line%s matched (%s) but Node %s %s Ready in the node list: over", total, plural(total), over[0].Meaning,
					strings.Join(names, ", "), map[bool]string{true: "is", false: "are"}[len(names) == 1]), items...))
			}
			t.failing = live
		}
		if fs := testimonyFindings(id, t, logs, target, src); fs != nil {
			if id == "runtime.bootstrap-failed" {
				if fix := hybridBootstrapFix(ev, t.failing); fix != "" {
					for i := range fs {
						if fs[i].Status == StatusFail {
							fs[i].Remediation = fix
						}
					}
				}
			}
			fix := ""
			if bins := execFormatBinaries(t.failing); len(bins) > 0 {
				fix = execFormatRemediation(ev, bins)
			}
			for _, h := range t.failing {
				if fix == "" {
					fix = archMismatchFix(ev, h.First.Text, h.Last.Text)
				}
			}
			if fix != "" {
				for i := range fs {
					if fs[i].Status == StatusFail && fs[i].Remediation == "" {
						fs[i].Remediation = fix
					}
				}
			}
			return fs
		}
		comps := componentsOf(id)
		seen := logs.ComponentLines()
		var present []string
		var n int64
		for _, c := range comps {
			if seen[c] > 0 {
				present = append(present, c)
				n += seen[c]
			}
		}
		if len(present) == 0 {
			return one(Finding{Status: StatusSkipped, Resource: target,
				Message: fmt.Sprintf("no log lines of %s in the input, so nothing shows whether this happened", strings.Join(comps, ", "))})
		}
		if few := notYetFailing(logs, id); len(few) > 0 {
			// lines a component repeats while the fault lasts, seen too few times to be one, or a
			// wait the log was cut in before it lasted longer than a healthy start's (a node's
			// first seconds)
			its := make([]EvidenceItem, 0, len(few))
			for _, h := range few {
				its = append(its, hitItem(src, h))
			}
			h := few[0]
			why := fmt.Sprintf("fewer than the %d a lasting fault prints", h.MinCount)
			if h.Count >= max(h.MinCount, 1) || h.EndsLog && logs.AtEnd(h) {
				why = fmt.Sprintf("but the log ends sooner after it than the %s a healthy start can wait there", h.MinWait)
			}
			return one(pass(target, fmt.Sprintf("%d line%s matched (%s), %s: not a failure", h.Count, plural(h.Count), h.Meaning, why), its...))
		}
		return one(pass(target, fmt.Sprintf("%d line%s of %s read; none matches a signature of %s", n, plural(n), strings.Join(present, ", "), id),
			item(src, "%d log stream%s scanned", len(logs.Streams), plural(int64(len(logs.Streams))))))
	}
}

// Remediations of a hybrid node's bootstrap failure: nodeadm of EKS hybrid nodes (aws/eks-hybrid)
// reads a NodeConfig with spec.hybrid and gets the node's AWS credentials from an SSM hybrid
// activation or IAM Roles Anywhere (https://docs.aws.amazon.com/eks/latest/userguide/hybrid-nodes-creds.html).
const (
	// hybridSSMActivationFix answers "SSM activation expired" and "invalid SSM activation"
	// (aws/eks-hybrid internal/ssm/daemon.go Configure): an activation cannot be extended, so a
	// new one is made and its code and id go into the NodeConfig.
	hybridSSMActivationFix = "Create a new SSM hybrid activation for the hybrid nodes' IAM role, in the cluster's region (an expired activation cannot be renewed): aws ssm create-activation --region REGION --default-instance-name eks-hybrid-nodes --iam-role AmazonEKSHybridNodesRole --registration-limit 10 --tags Key=EKSClusterARN,Value=arn:aws:eks:REGION:ACCOUNT_ID:cluster/CLUSTER; put the ActivationCode and ActivationId it returns in the NodeConfig's spec.hybrid.ssm (activationCode, activationId), with spec.cluster.region the activation's region, and run nodeadm init -c file://nodeConfig.yaml again."
	// hybridBootstrapFixText answers the hybrid nodeadm's other failures.
	hybridBootstrapFixText = "Fix what the nodeadm line names on the hybrid node: its NodeConfig's spec.hybrid holds exactly one of ssm (a valid activationCode and activationId) or iamRolesAnywhere (nodeName, trustAnchorArn, profileArn, roleArn, and the certificate and key present at certificatePath and privateKeyPath); the on-premises network must reach the SSM, STS or IAM Roles Anywhere endpoints and the cluster VPC, and the cluster needs a remoteNetworkConfig holding the node's network. nodeadm debug -c file://nodeConfig.yaml runs the same validations and says which one fails."
)

// hybridBootstrapFix returns the remediation of runtime.bootstrap-failed for a hybrid node, or
// "" for an EC2 node: the failing hits' component is the hybrid nodeadm (catalog eks-hybrid), or
// the node is a hybrid node (Provisioner). An SSM activation refused gets its own fix.
func hybridBootstrapFix(ev *evidence.Evidence, failing []evidence.SignatureHit) string {
	hybrid := ev.Provisioner.Kind == evidence.ProvisionerHybrid
	for _, h := range failing {
		if h.Signature == "eks-hybrid-ssm-activation-invalid" {
			return hybridSSMActivationFix
		}
		if h.Component == "eks-hybrid" {
			hybrid = true
		}
	}
	if hybrid {
		return hybridBootstrapFixText
	}
	return ""
}

// notYetFailing returns the failure hits for id whose lines do not yet show a fault
// (NodeLogs.Failing): fewer lines than their MinCount, or a wait cut short (MinWait).
func notYetFailing(logs *evidence.NodeLogs, id string) []evidence.SignatureHit {
	var out []evidence.SignatureHit
	for _, h := range logs.Hits {
		if !h.Normal && h.Finding == id && h.Count > 0 && !logs.Failing(h) {
			out = append(out, h)
		}
	}
	return out
}

// targetName is the default resource of a finding: the instance, else "node".
func targetName(ev *evidence.Evidence) string {
	if ev.Target.InstanceID != "" {
		return ev.Target.InstanceID
	}
	return "node"
}

var (
	readyResolvesOnce sync.Once
	readyResolved     map[string]bool
)

// readyResolves reports whether a Node becoming Ready shows finding id over: the findings the
// catalog's Ready milestone signatures resolve (the CNI not ready, the kubelet's credentials or
// connection refused, image pulls, …).
func readyResolves(id string) bool {
	readyResolvesOnce.Do(func() {
		readyResolved = map[string]bool{}
		for _, sg := range logscan.Catalog() {
			if sg.Milestone == "ready" {
				for _, r := range sg.Resolves {
					readyResolved[r] = true
				}
			}
		}
	})
	return readyResolved[id]
}

// withPartial returns c with Partial set to p.
func (c Check) withPartial(p func(ev *evidence.Evidence) []Finding) Check {
	c.Partial = p
	return c
}

// nodePressure judges a node-pressure condition from the target's Node when the node's logs are
// not in the evidence: the kubelet reports DiskPressure (MemoryPressure, PIDPressure) True
// on its Node while the filesystem (memory, PIDs) is short, and taints it
// node.kubernetes.io/disk-pressure (https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/).
// Nil when the Node is not known or reports no such pressure.
func nodePressure(condition string) func(ev *evidence.Evidence) []Finding {
	return func(ev *evidence.Evidence) []Finding {
		if !ev.Have(evidence.KindNodes) {
			return nil
		}
		n := ev.TargetNode()
		if n == nil || !slices.Contains(n.Pressure, condition) {
			return nil
		}
		return one(fail(n.Name, fmt.Sprintf("Node %s reports %s=True", n.Name, condition),
			item(ev.Source(evidence.KindNodes), "Node %s condition %s=True (Ready=%v)", n.Name, condition, n.Ready)))
	}
}
