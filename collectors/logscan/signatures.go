package logscan

// Catalog is the built-in list of log signatures: data, not code. Each entry names the
// catalog finding it is evidence for (docs/checks-catalog.md, runtime.* area) and the literal
// Anchor every matching line must contain (the fast prefilter); Pattern, when set, must also
// match the line. Wordings come from the kubelet (klog), containerd (logfmt), the VPC CNI
// (ipamd.log / plugin.log JSON), nodeadm, the AL2 bootstrap script, Bottlerocket's
// early-boot-config / sundog / pluto and the Windows kubelet event log, as described in
// docs/bundle-formats.md §5.
//
// Signatures with Normal set recognise healthy progress ("Successfully registered node"); a
// failure signature listed in a normal signature's Resolves whose last occurrence precedes the
// normal line's last occurrence is transient startup noise, not a cause.
var Catalog = []Signature{
	// --- identity / API server authentication
	{Name: "kubelet-register-unauthorized", Finding: "runtime.unauthorized", Anchor: `err="Unauthorized"`,
		Meaning: "the API server rejected the kubelet's identity (401)"},
	{Name: "kubelet-list-unauthorized", Finding: "runtime.unauthorized", Anchor: `Unauthorized`, Pattern: `(?i)failed to (list|watch) \*?[a-z0-9.]+: Unauthorized`,
		Meaning: "the kubelet's list/watch calls are rejected with 401"},
	{Name: "kubelet-forbidden-node", Finding: "runtime.unauthorized", Anchor: `is forbidden: User "`, Pattern: `is forbidden: User "[^"]*" cannot (create|get|patch) resource "nodes"`,
		Meaning: "the kubelet authenticates but is not allowed to register its Node (wrong username or groups in the role mapping)"},

	// --- TLS toward the API server
	{Name: "x509-unknown-authority", Finding: "runtime.tls-untrusted", Anchor: `x509: certificate signed by unknown authority`,
		Meaning: "the node does not trust the API server's certificate (wrong cluster CA)"},
	{Name: "x509-wrong-host", Finding: "runtime.tls-untrusted", Anchor: `x509: certificate is valid for`,
		Meaning: "the certificate presented does not match the endpoint the node dials"},
	{Name: "curl-ssl-verify", Finding: "runtime.tls-untrusted", Anchor: `SSL certificate problem`,
		Meaning: "curl to the API endpoint with the cluster CA failed certificate verification"},

	// --- reachability of the API endpoint
	{Name: "apiserver-dial-timeout", Finding: "runtime.apiserver-timeout", Anchor: `:443: i/o timeout`, Exclude: []string{`send request failed`},
		Meaning: "TCP connections to the API endpoint time out (security groups, NACLs, routes, endpoint access)"},
	{Name: "apiserver-tls-timeout", Finding: "runtime.apiserver-timeout", Anchor: `TLS handshake timeout`,
		Meaning: "TLS handshakes with the API endpoint time out"},
	{Name: "apiserver-no-such-host", Finding: "runtime.apiserver-timeout", Anchor: `no such host`, Pattern: `lookup [^ ]*eks\.amazonaws\.com[^ ]* on [^ ]*: no such host`,
		Meaning: "the API endpoint's name does not resolve (VPC DNS, DHCP options, private endpoint without private DNS)"},
	{Name: "curl-connect-timeout", Finding: "runtime.apiserver-timeout", Anchor: `Connection timed out after`,
		Meaning: "curl_api_server.txt: the node could not connect to the API endpoint"},
	{Name: "ipamd-apiserver-unreachable", Finding: "runtime.apiserver-timeout", Anchor: `Failed to check API server connectivity`,
		Meaning: "aws-node (IPAMD) cannot reach the API server"},

	// --- node name / registration
	{Name: "kubelet-node-not-found", Finding: "runtime.node-name-not-found", Anchor: `"Error getting node"`, Pattern: `not found`,
		Meaning: "the kubelet cannot find its own Node object"},
	{Name: "kubelet-hostname-mismatch", Finding: "runtime.node-name-not-found", Anchor: `hostname-override`, Pattern: `(?i)(invalid|empty).*hostname-override`,
		Meaning: "the kubelet's node name override is empty or invalid"},

	// --- CNI
	{Name: "cni-plugin-not-initialized", Finding: "runtime.cni-not-ready", Anchor: `cni plugin not initialized`,
		Meaning: "the container runtime has no CNI configuration: aws-node has not written 10-aws.conflist"},
	{Name: "cni-config-uninitialized", Finding: "runtime.cni-not-ready", Anchor: `cni config uninitialized`,
		Meaning: "the container runtime has no CNI configuration"},
	{Name: "aws-node-ipamd-timeout", Finding: "runtime.cni-not-ready", Anchor: `Timed out waiting for IPAM daemon to start`,
		Meaning: "the aws-node container gave up waiting for IPAMD"},

	// --- IPAMD
	{Name: "ipamd-subnet-full", Finding: "runtime.ipamd-no-ips", Anchor: `InsufficientFreeAddressesInSubnet`,
		Meaning: "IPAMD cannot create an ENI or assign IPs: the subnet has no free addresses"},
	{Name: "ipamd-unauthorized-operation", Finding: "runtime.ipamd-no-ips", Anchor: `UnauthorizedOperation`,
		Meaning: "IPAMD's EC2 calls are denied (AmazonEKS_CNI_Policy missing from the node role or the aws-node IRSA role)"},
	{Name: "ipamd-no-available-ip", Finding: "runtime.ipamd-no-ips", Anchor: `DataStore has no available IP/Prefix addresses`,
		Meaning: "the IPAMD warm pool is empty"},
	{Name: "ipamd-alloc-failed", Finding: "runtime.ipamd-no-ips", Anchor: `Failed to allocate a private IP`,
		Meaning: "IPAMD failed to allocate a secondary IP"},
	{Name: "plugin-assign-failed", Finding: "runtime.ipamd-no-ips", Anchor: `Failed to assign an IP address to container`,
		Meaning: "pod sandboxes get no IP from IPAMD"},
	{Name: "ipamd-ec2-unreachable", Finding: "runtime.ipamd-no-ec2", Anchor: `send request failed`, Pattern: `ec2\.[a-z0-9.-]*amazonaws\.com.*(timeout|connection refused|no such host|request canceled)`,
		Meaning: "IPAMD cannot reach the EC2 API endpoint (no NAT / missing ec2 VPC endpoint)"},
	{Name: "ipamd-imds-failed", Finding: "runtime.ipamd-no-ec2", Anchor: `Failed to retrieve region data from instance metadata`,
		Meaning: "IPAMD cannot read instance metadata (IMDS hop limit or disabled IMDS)"},

	// --- images
	{Name: "containerd-pull-failed", Finding: "runtime.image-pull", Anchor: `PullImage \"`, Pattern: `PullImage \\".*\\" failed`,
		Meaning: "containerd could not pull an image"},
	{Name: "kubelet-pull-failed", Finding: "runtime.image-pull", Anchor: `Failed to pull image`,
		Meaning: "the kubelet could not pull an image"},
	{Name: "sandbox-image-failed", Finding: "runtime.image-pull", Anchor: `failed to get sandbox image`,
		Meaning: "the pause (sandbox) image cannot be pulled, so no pod can start"},
	{Name: "sandbox-image-service-failed", Finding: "runtime.image-pull", Anchor: `sandbox-image.service: Failed`,
		Meaning: "the AL2 unit that pulls the pause image from regional ECR failed"},

	// --- kubelet start
	{Name: "kubelet-unknown-flag", Finding: "runtime.kubelet-crashloop", Anchor: `unknown flag: `,
		Meaning: "the kubelet rejects a flag (often from --kubelet-extra-args or NodeConfig kubelet.flags)"},
	{Name: "kubelet-flag-parse", Finding: "runtime.kubelet-crashloop", Anchor: `failed to parse kubelet flag`,
		Meaning: "the kubelet cannot parse its flags"},
	{Name: "kubelet-cgroup-driver", Finding: "runtime.kubelet-crashloop", Anchor: `misconfiguration: kubelet cgroup driver`,
		Meaning: "kubelet and container runtime use different cgroup drivers"},
	{Name: "kubelet-config-load", Finding: "runtime.kubelet-crashloop", Anchor: `failed to load Kubelet config file`,
		Meaning: "the kubelet configuration file is invalid"},
	{Name: "kubelet-run-failed", Finding: "runtime.kubelet-crashloop", Anchor: `"command failed" err="failed to run Kubelet`,
		Meaning: "the kubelet exited at start"},
	{Name: "kubelet-unit-failed", Finding: "runtime.kubelet-crashloop", Anchor: `kubelet.service: Main process exited, code=exited, status=`, Pattern: `status=[1-9]`,
		Meaning: "systemd restarts the kubelet after it exits non-zero"},

	// --- exec credential plugin and image credential provider
	{Name: "exec-plugin-failed", Finding: "runtime.exec-credential-failed", Anchor: `getting credentials: exec: `,
		Meaning: "the kubelet's exec credential plugin (aws eks get-token / aws-iam-authenticator) fails, so the kubelet has no token"},
	{Name: "exec-plugin-missing", Finding: "runtime.exec-credential-failed", Anchor: `executable file not found in $PATH`, Pattern: `(aws-iam-authenticator|"aws")`,
		Meaning: "the credential plugin binary is not installed"},
	{Name: "credential-provider-missing", Finding: "runtime.credential-provider", Anchor: `credential provider`, Pattern: `(?i)credential provider.*(did not exist|not found|no such file|failed to (init|register|load))`,
		Meaning: "the kubelet image credential provider binary or config is missing, so ECR images cannot be pulled"},

	// --- node resources
	{Name: "no-space-left", Finding: "runtime.disk-pressure", Anchor: `no space left on device`,
		Meaning: "a filesystem (or its inodes) is full"},
	{Name: "kubelet-disk-pressure", Finding: "runtime.disk-pressure", Anchor: `DiskPressure`, Pattern: `(NodeHasDiskPressure|"DiskPressure" status="True"|attempting to reclaim" resourceName="(ephemeral-storage|nodefs))`,
		Meaning: "the kubelet reports disk pressure"},

	// --- time
	{Name: "cert-not-yet-valid", Finding: "runtime.clock-skew", Anchor: `certificate has expired or is not yet valid`,
		Meaning: "certificates appear expired or not yet valid: the node's clock is wrong"},
	{Name: "signature-expired", Finding: "runtime.clock-skew", Anchor: `Signature expired`,
		Meaning: "AWS rejects signed requests: the node's clock is off by more than 5 minutes"},
	{Name: "request-time-skewed", Finding: "runtime.clock-skew", Anchor: `RequestTimeTooSkewed`,
		Meaning: "AWS rejects signed requests: the node's clock is skewed"},
	{Name: "chrony-unsynchronised", Finding: "runtime.clock-skew", Anchor: `Can't synchronise: no selectable sources`,
		Meaning: "chronyd has no reachable time source"},

	// --- throttling
	{Name: "aws-throttling", Finding: "runtime.throttled", Anchor: `Rate exceeded`, Pattern: `(Throttling|ThrottlingException|RequestLimitExceeded)`,
		Meaning: "AWS APIs throttle the node's bootstrap calls"},
	{Name: "request-limit-exceeded", Finding: "runtime.throttled", Anchor: `RequestLimitExceeded`,
		Meaning: "EC2 API request limit exceeded"},
	{Name: "http-429", Finding: "runtime.throttled", Anchor: `429 Too Many Requests`,
		Meaning: "an API answered 429 Too Many Requests"},

	// --- Windows
	{Name: "windows-ipam-label", Finding: "runtime.windows-ipam-label", Anchor: `vpc.amazonaws.com/PrivateIPv4Address`, Pattern: `(?i)(fail|error|missing|not found|lack)`,
		Meaning: "Windows pod sandboxes fail: the VPC resource controller did not give the pod its private IPv4 address (enable-windows-ipam)"},

	// --- bootstrap agents
	{Name: "nodeadm-validation", Finding: "runtime.bootstrap-failed", Anchor: `is missing in cluster configuration`,
		Meaning: "nodeadm rejected the NodeConfig: a required spec.cluster field is missing"},
	{Name: "nodeadm-outpost-id", Finding: "runtime.bootstrap-failed", Anchor: `cluster ID must be provided for outposts`,
		Meaning: "nodeadm rejected the NodeConfig: spec.cluster.id is required with enableOutpost"},
	{Name: "nodeadm-no-config", Finding: "runtime.bootstrap-failed", Anchor: `could not find NodeConfig within UserData`,
		Meaning: "the user data has no NodeConfig part, so nodeadm has nothing to join with"},
	{Name: "nodeadm-command-failed", Finding: "runtime.bootstrap-failed", Anchor: `Command failed {"error": `,
		Meaning: "nodeadm ended with a fatal error"},
	{Name: "al2023-bootstrap-removed", Finding: "runtime.bootstrap-failed", Anchor: `bootstrap script has been removed`,
		Meaning: "AL2-style user data called /etc/eks/bootstrap.sh on AL2023, where nodeadm replaces it"},
	{Name: "bootstrap-sh-error", Finding: "runtime.bootstrap-failed", Anchor: `[eks-bootstrap] ERROR: `,
		Meaning: "/etc/eks/bootstrap.sh stopped with an error"},
	{Name: "bootstrap-sh-exited", Finding: "runtime.bootstrap-failed", Anchor: `Exited with error on line`,
		Meaning: "/etc/eks/bootstrap.sh exited with an error"},
	{Name: "bottlerocket-toml", Finding: "runtime.bootstrap-failed", Anchor: `early-boot-config`, Pattern: `(?i)(unable to parse|not a toml table|failed to parse|missing .settings|did not contain)`,
		Meaning: "Bottlerocket could not parse the TOML user data, so none of its settings apply"},
	{Name: "bottlerocket-setting-generator", Finding: "runtime.bootstrap-failed", Anchor: `Setting generator`, Pattern: `(?i)failed`,
		Meaning: "a Bottlerocket setting generator (sundog/pluto) failed; required kubelet settings are missing"},

	// --- healthy progress (resolves transient startup noise)
	{Name: "kubelet-registered", Normal: true, Anchor: `Successfully registered node`,
		Resolves: []string{"runtime.unauthorized", "runtime.node-name-not-found", "runtime.apiserver-timeout", "runtime.tls-untrusted", "runtime.exec-credential-failed"},
		Meaning:  "the kubelet registered its Node"},
	{Name: "node-ready", Normal: true, Anchor: `event="NodeReady"`,
		Resolves: []string{"runtime.cni-not-ready", "runtime.unauthorized", "runtime.node-name-not-found", "runtime.apiserver-timeout"},
		Meaning:  "the Node became Ready"},
	{Name: "cni-config-copied", Normal: true, Anchor: `Successfully copied CNI plugin binary and config file`,
		Resolves: []string{"runtime.cni-not-ready"}, Meaning: "aws-node installed the CNI configuration"},
	{Name: "ipamd-connected", Normal: true, Anchor: `Successful communication with the Cluster`,
		Resolves: []string{"runtime.apiserver-timeout"}, Meaning: "IPAMD reached the API server"},
	{Name: "livez-ok", Normal: true, Anchor: `livez check passed`,
		Resolves: []string{"runtime.apiserver-timeout", "runtime.tls-untrusted"}, Meaning: "curl to the API endpoint succeeded"},
}
