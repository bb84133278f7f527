package evidence

// Adopt copies every kind src collected (its value and source) into e, replacing e's value for
// that kind; kinds src only has gaps for are left as they are in e. It is how evidence from
// several inputs — a snapshot and a node log bundle, the documents of one paste — becomes one
// Evidence. KindWebhookEndpoints travels with KindWebhooks (the endpoints are inside Webhooks);
// DescribedAccessEntries are appended.
func (e *Evidence) Adopt(src *Evidence) {
	for _, k := range src.CollectedKinds() {
		switch k {
		case KindCluster:
			e.Cluster = src.Cluster
		case KindAccessEntries:
			e.AccessEntries = src.AccessEntries
		case KindNodegroups:
			e.Nodegroups = src.Nodegroups
		case KindInstance:
			e.Instance = src.Instance
		case KindUserData:
			e.UserData = src.UserData
		case KindImage:
			e.Image = src.Image
		case KindInstanceType:
			e.InstanceType = src.InstanceType
		case KindSubnets:
			e.Subnets = src.Subnets
		case KindVPCs:
			e.VPCs = src.VPCs
		case KindInstanceProfile:
			e.InstanceProfile = src.InstanceProfile
		case KindNodeRole:
			e.NodeRole = src.NodeRole
		case KindNodeRolePolicies:
			e.NodeRolePolicies = src.NodeRolePolicies
		case KindClusterRole:
			e.ClusterRole = src.ClusterRole
		case KindClusterRolePolicies:
			e.ClusterRolePolicies = src.ClusterRolePolicies
		case KindAutoScaling:
			e.AutoScalingGroups = src.AutoScalingGroups
		case KindAWSAuth:
			e.AWSAuth = src.AWSAuth
		case KindVPCCNIConfig:
			e.VPCCNIConfig = src.VPCCNIConfig
		case KindNodes:
			e.Nodes, e.NodesPartial = src.Nodes, src.NodesPartial
		case KindCSRs:
			e.CSRs = src.CSRs
		case KindAWSNode:
			e.AWSNode = src.AWSNode
		case KindBootstrap:
			e.Bootstrap = src.Bootstrap
		case KindRouteTables:
			e.RouteTables = src.RouteTables
		case KindSecurityGroups:
			e.SecurityGroups = src.SecurityGroups
		case KindNetworkACLs:
			e.NetworkACLs = src.NetworkACLs
		case KindVPCEndpoints:
			e.VPCEndpoints = src.VPCEndpoints
		case KindNATGateways:
			e.NATGateways = src.NATGateways
		case KindInternetGateways:
			e.InternetGateways = src.InternetGateways
		case KindVPCAttributes:
			e.VPCAttributes = src.VPCAttributes
		case KindDHCPOptions:
			e.DHCPOptions = src.DHCPOptions
		case KindLaunchTemplate:
			e.LaunchTemplate = src.LaunchTemplate
		case KindConsoleOutput:
			e.ConsoleOutput = src.ConsoleOutput
		case KindNodeLogs:
			e.NodeLogs = src.NodeLogs
		case KindNodeOS:
			e.NodeOS = src.NodeOS
		case KindAWSNodeServiceAccount:
			e.AWSNodeServiceAccount = src.AWSNodeServiceAccount
		case KindKubeDNS:
			e.KubeDNS = src.KubeDNS
		case KindNodeRBAC:
			e.NodeRBAC = src.NodeRBAC
		case KindWebhooks, KindWebhookEndpoints:
			e.Webhooks = src.Webhooks
		case KindScalingActivities:
			e.ScalingActivities = src.ScalingActivities
		case KindMappingChanges:
			e.MappingChanges = src.MappingChanges
		case KindNodeClaims:
			e.NodeClaims = src.NodeClaims
		case KindNodePools:
			e.NodePools = src.NodePools
		case KindEC2NodeClasses, KindNodeClasses:
			e.NodeClasses = src.NodeClasses
		}
		e.Mark(k, src.Source(k))
		if why := src.SubsetOf(k); why != "" {
			e.MarkSubset(k, why)
		} else if e.subsets != nil {
			delete(e.subsets, k)
		}
	}
	// access entries described without their list travel on their own (no kind marks them)
	e.DescribedAccessEntries = append(e.DescribedAccessEntries, src.DescribedAccessEntries...)
	if e.CollectedAt.IsZero() || src.CollectedAt.After(e.CollectedAt) {
		e.CollectedAt = src.CollectedAt
	}
}
