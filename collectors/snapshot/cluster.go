package snapshot

import (
	"fmt"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func init() {
	RegisterProviderAt(StageCluster, (*Snapshot).loadTargetCluster, evidence.KindCluster)
}

// ClusterTagKeys are the instance tags that name the cluster, in the order they are trusted:
// eks:cluster-name (managed node groups), aws:eks:cluster-name (EKS-created resources), then
// kubernetes.io/cluster/<name> (self-managed nodes).
var ClusterTagKeys = []string{"eks:cluster-name", "aws:eks:cluster-name"}

// ClusterFromTags returns the cluster an instance's tags (key → value) name and the tag that
// names it ("instance tag eks:cluster-name"): the ClusterTagKeys in order, then the first
// kubernetes.io/cluster/<name> key in sorted order; "", "" when none does.
func ClusterFromTags(tags map[string]string) (cluster, source string) {
	for _, k := range ClusterTagKeys {
		if v := tags[k]; v != "" {
			return v, "instance tag " + k
		}
	}
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if name, ok := strings.CutPrefix(k, "kubernetes.io/cluster/"); ok && name != "" {
			return name, "instance tag " + k
		}
	}
	return "", ""
}

// OtherClusterOfTags returns the cluster an instance's tags (key → value) name when it is not
// cluster: eks:cluster-name or aws:eks:cluster-name naming another (managed node groups; EKS
// itself sets them), else kubernetes.io/cluster/<name> keys none of which is cluster (the first
// in sorted order). "" when the tags name cluster, name none, or cluster is "". The
// kubernetes.io/cluster/<name> tag marks a resource of that cluster
// (https://docs.aws.amazon.com/eks/latest/userguide/worker.html, self-managed nodes).
func OtherClusterOfTags(tags map[string]string, cluster string) string {
	if cluster == "" {
		return ""
	}
	for _, k := range ClusterTagKeys {
		if v := tags[k]; v != "" {
			if v == cluster {
				return ""
			}
			return v
		}
	}
	other := ""
	for k := range tags {
		if name, ok := strings.CutPrefix(k, "kubernetes.io/cluster/"); ok && name != "" {
			if name == cluster {
				return ""
			}
			if other == "" || name < other {
				other = name
			}
		}
	}
	return other
}

// OtherClusterOf returns the cluster an instance is for when that is not cluster, and what says
// so ("tags" or "user data"): its tags (OtherClusterOfTags); else, when no tag names any cluster,
// the cluster name its user data bootstraps — then the only evidence of the instance's cluster.
// A user data that points the kubelet at this cluster's API server (endpoint), or sets no
// endpoint and trusts this cluster's CA (ca, base64 as describe-cluster's
// certificateAuthority.data), is this cluster's node given a wrong name, which
// bootstrap.cluster-name-mismatch judges, so "" is returned (an endpoint names one cluster, so
// it decides over the CA); so it is for a
// name the decoder could not resolve, a flag in the name's place, a nil b, or a cluster of "".
// endpoint and ca may be "" when unknown.
func OtherClusterOf(tags map[string]string, b *evidence.BootstrapConfig, cluster, endpoint, ca string) (other, source string) {
	if cluster == "" {
		return "", ""
	}
	if other := OtherClusterOfTags(tags, cluster); other != "" {
		return other, "tags"
	}
	if name, _ := ClusterFromTags(tags); name != "" || b == nil {
		return "", ""
	}
	name := b.ClusterName
	if name == "" || name == cluster || strings.HasPrefix(name, "-") || b.Unresolved["clusterName"] != "" {
		return "", ""
	}
	norm := func(u string) string { return strings.TrimRight(strings.ToLower(strings.TrimSpace(u)), "/") }
	if b.APIServerEndpoint != "" && b.Unresolved["apiServerEndpoint"] == "" {
		// the endpoint names one cluster: the kubelet talks to that one, whatever the CA
		if endpoint != "" && norm(b.APIServerEndpoint) == norm(endpoint) {
			return "", ""
		}
	} else if ca != "" && b.CertificateAuthority != "" && strings.TrimSpace(b.CertificateAuthority) == strings.TrimSpace(ca) {
		return "", ""
	}
	return name, "user data"
}

// ClusterAccess returns the API server endpoint and CA (base64) eks/describe-cluster.json gives
// for cluster; "", "" when it describes another cluster or is missing or unreadable.
func (s *Snapshot) ClusterAccess(cluster string) (endpoint, ca string) {
	decodeInto(s, "eks/describe-cluster.json", func(o *DescribeClusterOutput) {
		if o.Cluster.Name == cluster {
			endpoint, ca = o.Cluster.Endpoint, o.Cluster.CertificateAuthority.Data
		}
	})
	return endpoint, ca
}

// loadTargetCluster names the cluster of an instance's evidence when no flag did (instance tags,
// user data, manifest), sets its region, and describes the cluster (describe-cluster names it
// when nothing else did).
func (s *Snapshot) loadTargetCluster(ev *evidence.Evidence) {
	if inst := s.instanceOf(ev); inst != nil {
		s.resolveCluster(ev, inst)
	}
	s.loadCluster(ev)
}

// resolveCluster names the instance's cluster, unless the flag already did, and its region.
func (s *Snapshot) resolveCluster(ev *evidence.Evidence, inst *EC2Instance) {
	t := &ev.Target
	tags := tagMap(inst.Tags)
	if t.Cluster == "" {
		t.Cluster, t.ClusterSource = ClusterFromTags(tags)
		if t.Cluster == "" && ev.Bootstrap != nil && ev.Bootstrap.ClusterName != "" {
			t.Cluster, t.ClusterSource = ev.Bootstrap.ClusterName, "user data"
		}
		if t.Cluster == "" && s.Manifest != nil && s.Manifest.Cluster != "" {
			t.Cluster, t.ClusterSource = s.Manifest.Cluster, "snapshot manifest"
		}
	}
	if s.Manifest != nil && s.Manifest.Region != "" {
		t.Region = s.Manifest.Region
	} else if az := inst.Placement.AvailabilityZone; len(az) > 1 {
		t.Region = strings.TrimRight(az, "abcdefghijklmnopqrstuvwxyz")
		if t.Region == "" || strings.HasSuffix(az, t.Region) {
			t.Region = az[:len(az)-1]
		}
	}
}

// loadCluster reads eks/describe-cluster.json: the cluster named by the target, or the one it
// describes when the target names none. A file describing another cluster is a gap.
func (s *Snapshot) loadCluster(ev *evidence.Evidence) {
	p := "eks/describe-cluster.json"
	var c *evidence.Cluster
	res, reason := decodeInto(s, p, func(o *DescribeClusterOutput) {
		x := o.Cluster
		c = &evidence.Cluster{Name: x.Name, Arn: x.Arn, Version: x.Version, Status: x.Status, Endpoint: x.Endpoint,
			CertificateAuthority: x.CertificateAuthority.Data, RoleArn: x.RoleArn, PlatformVersion: x.PlatformVersion,
			VpcID: x.ResourcesVpcConfig.VpcID, SubnetIDs: x.ResourcesVpcConfig.SubnetIDs, SecurityGroupIDs: x.ResourcesVpcConfig.SecurityGroupIDs,
			ClusterSecurityGroup: x.ResourcesVpcConfig.ClusterSecurityGroupID, EndpointPublicAccess: x.ResourcesVpcConfig.EndpointPublicAccess,
			EndpointPrivateAccess: x.ResourcesVpcConfig.EndpointPrivateAccess, PublicAccessCidrs: x.ResourcesVpcConfig.PublicAccessCidrs,
			ServiceIPv4CIDR: x.KubernetesNetworkConfig.ServiceIPv4CIDR, ServiceIPv6CIDR: x.KubernetesNetworkConfig.ServiceIPv6CIDR,
			IPFamily: x.KubernetesNetworkConfig.IPFamily, AuthenticationMode: x.AccessConfig.AuthenticationMode, Tags: x.Tags,
			CreatedAt: x.CreatedAt.Time}
		if cc := x.ComputeConfig; cc != nil {
			c.ComputeConfig = &evidence.ComputeConfig{Enabled: cc.Enabled, NodePools: cc.NodePools, NodeRoleArn: cc.NodeRoleArn}
		}
		for _, i := range x.Health.Issues {
			c.HealthIssues = append(c.HealthIssues, evidence.HealthIssue{Code: i.Code, Message: i.Message, ResourceIDs: i.ResourceIDs})
		}
	})
	switch {
	case res == readOK && c != nil:
		if ev.Target.Cluster == "" {
			ev.Target.Cluster, ev.Target.ClusterSource = c.Name, "describe-cluster"
		}
		if ev.Target.Cluster != c.Name {
			ev.AddGap(evidence.KindCluster, fmt.Sprintf("%s describes cluster %q, not %q", p, c.Name, ev.Target.Cluster))
			return
		}
		ev.Cluster = c
		ev.Mark(evidence.KindCluster, s.src(p))
	case res == readNotFound:
		ev.AddGap(evidence.KindCluster, fmt.Sprintf("cluster %q does not exist (%s: %s)", ev.Target.Cluster, p, reason))
	default:
		ev.AddGap(evidence.KindCluster, reason)
	}
}

// OfCluster returns the cluster the snapshot was collected for: its manifest's cluster, else the
// name eks/describe-cluster.json gives; "" when neither says (a snapshot may hold instances only).
func (s *Snapshot) OfCluster() string {
	if s.Manifest != nil && s.Manifest.Cluster != "" {
		return s.Manifest.Cluster
	}
	var name string
	decodeInto(s, "eks/describe-cluster.json", func(o *DescribeClusterOutput) { name = o.Cluster.Name })
	return name
}
