package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/userdata"
)

// ErrUnknownInstance is wrapped by Evidence when the instance is not in
// ec2/describe-instances.json.
var ErrUnknownInstance = errors.New("instance not in snapshot")

// InstanceIDs lists the instances in ec2/describe-instances.json, sorted.
func (s *Snapshot) InstanceIDs() []string {
	var ids []string
	decodeInto(s, "ec2/describe-instances.json", func(o *DescribeInstancesOutput) {
		for _, r := range o.Reservations {
			for _, i := range r.Instances {
				ids = append(ids, i.InstanceID)
			}
		}
	})
	sort.Strings(ids)
	return ids
}

// instanceIdx indexes ec2/describe-instances.json by instance ID (the last entry wins, as the
// linear search it replaces did), with the file's read outcome.
type instanceIdx struct {
	byID   map[string]*EC2Instance
	res    readResult
	reason string
}

// instanceIndex builds the index once per snapshot: evidence for each of thousands of
// instances then finds its own in constant time.
func (s *Snapshot) instanceIndex() *instanceIdx {
	return s.shared("ec2.instances", func() any {
		idx := &instanceIdx{byID: map[string]*EC2Instance{}}
		idx.res, idx.reason = decodeInto(s, "ec2/describe-instances.json", func(o *DescribeInstancesOutput) {
			for _, r := range o.Reservations {
				for k := range r.Instances {
					idx.byID[r.Instances[k].InstanceID] = &r.Instances[k]
				}
			}
		})
		return idx
	}).(*instanceIdx)
}

// InstancesGap says why ec2/describe-instances.json lists no instance: the file is missing,
// holds an error or does not parse (reason, and whether a permission was denied), or it lists none
// ("no instance"). It returns "" when instances are listed.
func (s *Snapshot) InstancesGap() (reason string, denied bool) {
	n := 0
	res, why := decodeInto(s, "ec2/describe-instances.json", func(o *DescribeInstancesOutput) {
		for _, r := range o.Reservations {
			n += len(r.Instances)
		}
	})
	switch {
	case res != readOK:
		return why, strings.HasPrefix(why, "missing permission ")
	case n == 0:
		return "ec2/describe-instances.json lists no instance", false
	}
	return "", false
}

func tagMap(tags []Tag) map[string]string {
	m := make(map[string]string, len(tags))
	for _, t := range tags {
		m[t.Key] = t.Value
	}
	return m
}

// NoNodeLogs is the gap reason for node logs in AWS-side evidence.
const NoNodeLogs = "the node's own logs are not part of AWS or cluster evidence (eksdoctor analyze BUNDLE --snapshot SNAP reads a node log bundle)"

// Evidence builds the Evidence for one instance. cluster may be empty: it is then inferred
// from the instance's tags (eks:cluster-name, aws:eks:cluster-name, kubernetes.io/cluster/*),
// the user data, the manifest, or describe-cluster, in that order. Errors: ErrUnknownInstance
// (wrapped, listing the instances present), or a message when ec2/describe-instances.json is
// missing or unreadable.
func (s *Snapshot) Evidence(instanceID, cluster string) (*evidence.Evidence, error) {
	ev := &evidence.Evidence{CollectedAt: s.CollectedAt()}
	ev.Target = evidence.Target{InstanceID: instanceID, Source: s.Origin}
	ev.AddGap(evidence.KindNodeLogs, NoNodeLogs)
	src := s.src

	// instance (required)
	idx := s.instanceIndex()
	inst, res, reason := idx.byID[instanceID], idx.res, idx.reason
	if res != readOK {
		return nil, fmt.Errorf("cannot diagnose %s: %s", instanceID, reason)
	}
	if inst == nil {
		return nil, fmt.Errorf("%w: %s is not in ec2/describe-instances.json (instances there: %s)", ErrUnknownInstance, instanceID, strings.Join(s.InstanceIDs(), ", "))
	}
	ev.Instance = convertInstance(inst)
	ev.Mark(evidence.KindInstance, src("ec2/describe-instances.json"))

	// user data → bootstrap config
	udPath := "ec2/instance-user-data/" + instanceID + ".json"
	res, reason = decodeInto(s, udPath, func(o *InstanceAttributeOutput) {
		ud := &evidence.UserData{Empty: true}
		if o.UserData != nil && o.UserData.Value != nil && *o.UserData.Value != "" {
			ud = &evidence.UserData{Base64: *o.UserData.Value}
		}
		ev.UserData = ud
	})
	ltUserData, ltFound := s.loadLaunchTemplate(ev, inst)
	switch {
	case res == readOK:
		ev.Mark(evidence.KindUserData, src(udPath))
	case ltFound:
		// The instance attribute is absent: the launch template version it came from is the next best source.
		ev.UserData = &evidence.UserData{Base64: ltUserData, Empty: ltUserData == ""}
		ev.Mark(evidence.KindUserData, ev.Source(evidence.KindLaunchTemplate)+" (launch template user data)")
	default:
		ev.AddGap(evidence.KindUserData, reason)
	}
	if ev.Have(evidence.KindUserData) {
		// Instances of one launch template share their user data: decode each text once.
		// Checks never modify evidence, so the decoded value is shared.
		b64 := ev.UserData.Base64
		ev.Bootstrap = s.shared("userdata\x00"+b64, func() any { return userdata.DecodeBase64(b64) }).(*evidence.BootstrapConfig)
		ev.Mark(evidence.KindBootstrap, ev.Source(evidence.KindUserData))
	} else {
		ev.AddGap(evidence.KindBootstrap, ev.GapFor(evidence.KindUserData).Reason)
	}

	s.resolveCluster(ev, inst, cluster)
	s.loadCluster(ev)
	s.runProviders(ev)
	ev.NodeClaim = nodeClaimOf(ev.NodeClaims, instanceID)
	ev.Provisioner = evidence.DetectProvisioner(ev)
	if ev.CollectedAt.IsZero() {
		ev.CollectedAt = newestTime(ev)
	}
	return ev, nil
}

func convertInstance(i *EC2Instance) *evidence.Instance {
	out := &evidence.Instance{
		ID: i.InstanceID, ImageID: i.ImageID, InstanceType: i.InstanceType, State: i.State.Name,
		LaunchTime: i.LaunchTime.Time, AvailabilityZone: i.Placement.AvailabilityZone,
		SubnetID: i.SubnetID, VpcID: i.VpcID, PrivateIP: i.PrivateIPAddress, PrivateDNSName: i.PrivateDNSName,
		PublicIP: i.PublicIPAddress, Platform: strings.ToLower(i.Platform), PlatformDetails: i.PlatformDetails,
		Tags: tagMap(i.Tags),
		Metadata: evidence.MetadataOptions{HttpEndpoint: i.MetadataOptions.HTTPEndpoint, HttpTokens: i.MetadataOptions.HTTPTokens,
			HopLimit: i.MetadataOptions.HTTPPutResponseHopLimit},
	}
	if i.StateReason != nil {
		out.StateReason = i.StateReason.Message
	}
	if i.IamInstanceProfile != nil {
		out.InstanceProfileArn = i.IamInstanceProfile.Arn
	}
	for _, sg := range i.SecurityGroups {
		out.SecurityGroupIDs = append(out.SecurityGroupIDs, sg.GroupID)
	}
	return out
}

// loadLaunchTemplate reads the launch template version the instance was launched from (tags
// aws:ec2launchtemplate:id / :version). It returns that version's user data (base64) and
// whether the version was found.
func (s *Snapshot) loadLaunchTemplate(ev *evidence.Evidence, inst *EC2Instance) (string, bool) {
	tags := tagMap(inst.Tags)
	lt, ver := tags["aws:ec2launchtemplate:id"], tags["aws:ec2launchtemplate:version"]
	if lt == "" {
		ev.AddGap(evidence.KindLaunchTemplate, "the instance was not launched from a launch template")
		return "", false
	}
	p := "ec2/describe-launch-template-versions/" + lt + ".json"
	var userData string
	found := false
	res, reason := decodeInto(s, p, func(o *LaunchTemplateVersionsOutput) {
		for _, v := range o.LaunchTemplateVersions {
			if fmt.Sprint(v.VersionNumber) != ver && (ver != "" || !v.DefaultVersion) {
				continue
			}
			d := v.LaunchTemplateData
			t := &evidence.LaunchTemplateVersion{ID: lt, Version: v.VersionNumber, SecurityGroupIDs: d.SecurityGroupIDs,
				NetworkInterfaces: len(d.NetworkInterfaces) > 0, ImageID: d.ImageID, BlockDevices: blockDevices(d.BlockDeviceMappings)}
			for _, ni := range d.NetworkInterfaces {
				if ni.DeviceIndex == 0 {
					t.SecurityGroupIDs = append(t.SecurityGroupIDs, ni.Groups...)
				}
			}
			ev.LaunchTemplate, userData, found = t, d.UserData, true
		}
	})
	s.markFound(ev, evidence.KindLaunchTemplate, res, reason, p, found, "launch template "+lt+" version "+ver)
	return userData, found
}

// ClusterTagKeys are the instance tags that name the cluster, in the order they are trusted:
// eks:cluster-name (managed node groups), aws:eks:cluster-name (EKS-created resources), then
// kubernetes.io/cluster/<name> (self-managed nodes).
var ClusterTagKeys = []string{"eks:cluster-name", "aws:eks:cluster-name"}

func (s *Snapshot) resolveCluster(ev *evidence.Evidence, inst *EC2Instance, flag string) {
	t := &ev.Target
	tags := tagMap(inst.Tags)
	switch {
	case flag != "":
		t.Cluster, t.ClusterSource = flag, "flag"
	default:
		for _, k := range ClusterTagKeys {
			if v := tags[k]; v != "" {
				t.Cluster, t.ClusterSource = v, "instance tag "+k
				break
			}
		}
		if t.Cluster == "" {
			keys := make([]string, 0, len(tags))
			for k := range tags {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if name, ok := strings.CutPrefix(k, "kubernetes.io/cluster/"); ok && name != "" {
					t.Cluster, t.ClusterSource = name, "instance tag "+k
					break
				}
			}
		}
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

// markFound marks kind collected when the file read and the wanted item was in it.
func (s *Snapshot) markFound(ev *evidence.Evidence, kind evidence.Kind, res readResult, reason, p string, found bool, what string) {
	switch {
	case res == readOK && found:
		ev.Mark(kind, s.src(p))
	case res == readOK:
		ev.AddGap(kind, fmt.Sprintf("%s is not in %s", what, p))
	case res == readNotFound:
		ev.AddGap(kind, fmt.Sprintf("%s does not exist (%s)", what, reason))
	default:
		ev.AddGap(kind, reason)
	}
}

// nameFromArn returns the last path component of an ARN's resource (role or instance profile
// name without its path).
func nameFromArn(arn string) string {
	if i := strings.LastIndexByte(arn, '/'); i >= 0 {
		return arn[i+1:]
	}
	return arn
}

// ClusterEvidence builds the evidence of the cluster as a whole (no instance): the cluster, its
// node groups and access entries, Auto Scaling groups and activities, subnets and the cluster
// side. Checks that need an instance skip on it.
func (s *Snapshot) ClusterEvidence(cluster string) *evidence.Evidence {
	ev := &evidence.Evidence{CollectedAt: s.CollectedAt()}
	ev.Target = evidence.Target{Cluster: cluster, Source: s.Origin}
	if cluster != "" {
		ev.Target.ClusterSource = "flag" // callers that chose the name otherwise say so
	}
	ev.AddGap(evidence.KindNodeLogs, NoNodeLogs)
	if cluster == "" && s.Manifest != nil {
		ev.Target.Cluster, ev.Target.ClusterSource = s.Manifest.Cluster, "snapshot manifest"
	}
	if s.Manifest != nil {
		ev.Target.Region = s.Manifest.Region
	}
	ev.AddGap(evidence.KindInstance, "cluster-wide evaluation")
	s.loadCluster(ev)
	s.runProviders(ev)
	return ev
}

// decodeKubeItems calls each for every object in a kubectl List, or for the single object.
func decodeKubeItems(s *Snapshot, p string, each func(json.RawMessage) error) (readResult, string) {
	return s.decode(p, func(raw json.RawMessage) error {
		var l kubeList
		if err := json.Unmarshal(raw, &l); err != nil {
			return err
		}
		if strings.HasSuffix(l.Kind, "List") || l.Items != nil {
			for _, it := range l.Items {
				if err := each(json.RawMessage(it)); err != nil {
					return err
				}
			}
			return nil
		}
		return each(raw)
	})
}

// markObject records a single Kubernetes object read from p: found, known not to exist
// (collected, the field stays nil), or a gap.
func (s *Snapshot) markObject(ev *evidence.Evidence, kind evidence.Kind, res readResult, reason, p string) {
	switch res {
	case readOK:
		ev.Mark(kind, s.src(p))
	case readNotFound:
		ev.Mark(kind, s.src(p)+" (NotFound)")
	default:
		ev.AddGap(kind, reason)
	}
}

func (s *Snapshot) markKube(ev *evidence.Evidence, kind evidence.Kind, res readResult, reason, p string) {
	switch res {
	case readOK, readNotFound:
		ev.Mark(kind, s.src(p))
	default:
		ev.AddGap(kind, reason)
	}
}

// newestTime estimates when evidence was collected when the manifest does not say: the newest
// timestamp found in it (launch time, CSR creation). Zero when none is known.
func newestTime(ev *evidence.Evidence) time.Time {
	var t time.Time
	if ev.Instance != nil && ev.Instance.LaunchTime.After(t) {
		t = ev.Instance.LaunchTime
	}
	for _, c := range ev.CSRs {
		if c.Created.After(t) {
			t = c.Created
		}
	}
	return t
}
