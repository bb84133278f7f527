package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// This file declares the JSON shapes the AWS CLI v2 and kubectl print, limited to the fields
// eksdoctor reads. EC2, IAM and Auto Scaling print PascalCase keys; EKS prints camelCase.
// (encoding/json matches keys case-insensitively, the tags document the printed spelling.)

// Time accepts the timestamp spellings the AWS CLI and kubectl print: RFC 3339 with or
// without fractional seconds and with a Z or numeric offset
// (e.g. "2022-09-14T09:54:36.211000+00:00"), and epoch seconds.
type Time struct{ time.Time }

// UnmarshalJSON implements json.Unmarshaler. It returns an error naming the text when no
// layout matches: a time in the form of RFC 3339 whose field is out of range names the field,
// and second 60 is refused as a leap second rather than read as the next second. Go's time has
// no leap seconds (time.Parse: "second out of range"), AWS smears them over the day around them
// (the Amazon Time Sync Service's leap smear; its APIs print smeared times), so no AWS CLI or
// kubectl output holds :60: one that does was edited or made by hand, and what
// instant it meant is not known.
func (t *Time) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		return nil
	}
	if len(s) > 64 {
		return fmt.Errorf("timestamp %.40q… is not ISO 8601", s)
	}
	var outOfRange string // the field of a time in ISO 8601 form that is out of range
	for _, layout := range timeLayouts {
		v, err := time.Parse(layout, s)
		var pe *time.ParseError
		if errors.As(err, &pe) && strings.HasSuffix(pe.Message, " out of range") && outOfRange == "" {
			outOfRange = strings.TrimSuffix(strings.TrimPrefix(pe.Message, ": "), " out of range")
		}
		if err == nil {
			if v.IsZero() { // 0001-01-01T00:00:00Z: Go's "unset"
				return nil
			}
			if v.Before(minTime) || !v.Before(maxTime) {
				return fmt.Errorf("timestamp %q is out of range (%d to %d)", s, minTime.Year(), maxTime.Year()-1)
			}
			t.Time = v.UTC()
			return nil
		}
	}
	var epoch float64
	if _, err := fmt.Sscanf(s, "%g", &epoch); err == nil && !strings.ContainsAny(s, "-:T") {
		// Checked before converting: 1e300 seconds does not fit a time.Time.
		if epoch != epoch || epoch < float64(minTime.Unix()) || epoch >= float64(maxTime.Unix()) {
			return fmt.Errorf("timestamp %s (epoch seconds) is out of range (%d to %d)", s, minTime.Year(), maxTime.Year()-1)
		}
		t.Time = time.Unix(int64(epoch), 0).UTC()
		return nil
	}
	if outOfRange == "second" && leapSecond.MatchString(s) {
		return fmt.Errorf("timestamp %q is not a valid time: second 60 is a leap second, which no AWS or Kubernetes output holds (AWS smears leap seconds over the day around them, and Go's time, which kubectl's output comes from, has none), and which RFC 3339 allows only as 23:59:60 UTC at the end of a month", s)
	}
	if outOfRange != "" {
		return fmt.Errorf("timestamp %q has the form of ISO 8601 (RFC 3339) but is not a valid time: its %s is out of range", s, outOfRange)
	}
	return fmt.Errorf("timestamp %q is not ISO 8601", s)
}

// timeLayouts are the forms of a timestamp Time reads, tried in order.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999-0700", "2006-01-02T15:04:05", "2006-01-02 15:04:05.999999-07:00", "2006-01-02 15:04:05"}

// leapSecond matches a time of day whose second is 60 (hh:mm:60).
var leapSecond = regexp.MustCompile(`[T ]\d{2}:\d{2}:60(?:[.,Z+-]|$)`)

// minTime and maxTime bound every timestamp read from a snapshot: nothing AWS or Kubernetes
// prints lies outside them, and "now" is taken from these values (collectedAt), so an absurd
// one would make every age and expiry meaningless.
var (
	minTime = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

// StringList accepts a JSON string or a list of strings (IAM policy Action, Principal values).
type StringList []string

// UnmarshalJSON implements json.Unmarshaler.
func (l *StringList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*l = StringList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("want a string or a list of strings: %w", err)
	}
	*l = many
	return nil
}

// PolicyDoc is an IAM policy document as the CLI prints it (a JSON object) or as the API
// returns it (a URL-encoded JSON string). Both decode to the same value.
type PolicyDoc struct {
	Version   string       `json:"Version"`
	Statement []PolicyStmt `json:"-"`
}

// PolicyStmt is one policy statement.
type PolicyStmt struct {
	Sid       string              `json:"Sid"`
	Effect    string              `json:"Effect"`
	Action    StringList          `json:"Action"`
	Resource  StringList          `json:"Resource"`
	Principal map[string][]string `json:"-"`
	Condition json.RawMessage     `json:"Condition"`
}

// UnmarshalJSON implements json.Unmarshaler for both encodings of a policy document.
func (p *PolicyDoc) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		// The CLI prints VPC endpoint policies as JSON text and the IAM API returns policies
		// URL-encoded (RFC 3986): decode only the latter.
		if t := strings.TrimSpace(s); !strings.HasPrefix(t, "{") {
			dec, err := url.PathUnescape(s)
			if err != nil {
				return fmt.Errorf("policy document string is not URL-encoded JSON: %w", err)
			}
			s = dec
		}
		b = []byte(s)
	}
	var raw struct {
		Version   string          `json:"Version"`
		Statement json.RawMessage `json:"Statement"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("policy document: %w", err)
	}
	p.Version = raw.Version
	var stmts []json.RawMessage
	if len(raw.Statement) > 0 && raw.Statement[0] == '{' {
		stmts = []json.RawMessage{raw.Statement}
	} else if len(raw.Statement) > 0 {
		if err := json.Unmarshal(raw.Statement, &stmts); err != nil {
			return fmt.Errorf("policy Statement: %w", err)
		}
	}
	for _, r := range stmts {
		var st PolicyStmt
		var aux struct {
			Principal json.RawMessage `json:"Principal"`
		}
		if err := json.Unmarshal(r, &st); err != nil {
			return fmt.Errorf("policy statement: %w", err)
		}
		_ = json.Unmarshal(r, &aux)
		st.Principal = map[string][]string{}
		if len(aux.Principal) > 0 {
			var star string
			if json.Unmarshal(aux.Principal, &star) == nil {
				st.Principal["*"] = []string{star}
			} else {
				var m map[string]StringList
				if err := json.Unmarshal(aux.Principal, &m); err != nil {
					return fmt.Errorf("policy Principal: %w", err)
				}
				for k, v := range m {
					st.Principal[k] = v
				}
			}
		}
		p.Statement = append(p.Statement, st)
	}
	return nil
}

// Tag is an EC2 / Auto Scaling tag.
type Tag struct {
	Key   string `json:"Key"`
	Value string `json:"Value"`
}

// --- EKS (camelCase) ---

type eksIssue struct {
	Code        string   `json:"code"`
	Message     string   `json:"message"`
	ResourceIDs []string `json:"resourceIds"`
}

// DescribeClusterOutput is `aws eks describe-cluster`.
type DescribeClusterOutput struct {
	Cluster struct {
		Name               string `json:"name"`
		Arn                string `json:"arn"`
		CreatedAt          Time   `json:"createdAt"`
		Version            string `json:"version"`
		Endpoint           string `json:"endpoint"`
		RoleArn            string `json:"roleArn"`
		ResourcesVpcConfig struct {
			SubnetIDs              []string `json:"subnetIds"`
			SecurityGroupIDs       []string `json:"securityGroupIds"`
			ClusterSecurityGroupID string   `json:"clusterSecurityGroupId"`
			VpcID                  string   `json:"vpcId"`
			EndpointPublicAccess   bool     `json:"endpointPublicAccess"`
			EndpointPrivateAccess  bool     `json:"endpointPrivateAccess"`
			PublicAccessCidrs      []string `json:"publicAccessCidrs"`
		} `json:"resourcesVpcConfig"`
		KubernetesNetworkConfig struct {
			ServiceIPv4CIDR string `json:"serviceIpv4Cidr"`
			ServiceIPv6CIDR string `json:"serviceIpv6Cidr"`
			IPFamily        string `json:"ipFamily"`
		} `json:"kubernetesNetworkConfig"`
		Status               string `json:"status"`
		CertificateAuthority struct {
			Data string `json:"data"`
		} `json:"certificateAuthority"`
		PlatformVersion string            `json:"platformVersion"`
		Tags            map[string]string `json:"tags"`
		Health          struct {
			Issues []eksIssue `json:"issues"`
		} `json:"health"`
		AccessConfig struct {
			AuthenticationMode string `json:"authenticationMode"`
		} `json:"accessConfig"`
		// ComputeConfig is EKS Auto Mode's configuration; absent on clusters without it.
		ComputeConfig *struct {
			Enabled     bool     `json:"enabled"`
			NodePools   []string `json:"nodePools"`
			NodeRoleArn string   `json:"nodeRoleArn"`
		} `json:"computeConfig"`
	} `json:"cluster"`
}

// ListAccessEntriesOutput is `aws eks list-access-entries`.
type ListAccessEntriesOutput struct {
	AccessEntries []string `json:"accessEntries"`
}

// DescribeAccessEntryOutput is `aws eks describe-access-entry`.
type DescribeAccessEntryOutput struct {
	AccessEntry struct {
		ClusterName      string   `json:"clusterName"`
		PrincipalArn     string   `json:"principalArn"`
		KubernetesGroups []string `json:"kubernetesGroups"`
		Username         string   `json:"username"`
		Type             string   `json:"type"`
	} `json:"accessEntry"`
}

// ListNodegroupsOutput is `aws eks list-nodegroups`.
type ListNodegroupsOutput struct {
	Nodegroups []string `json:"nodegroups"`
}

// DescribeNodegroupOutput is `aws eks describe-nodegroup`.
type DescribeNodegroupOutput struct {
	Nodegroup struct {
		NodegroupName  string   `json:"nodegroupName"`
		ClusterName    string   `json:"clusterName"`
		Version        string   `json:"version"`
		ReleaseVersion string   `json:"releaseVersion"`
		Status         string   `json:"status"`
		Subnets        []string `json:"subnets"`
		AmiType        string   `json:"amiType"`
		NodeRole       string   `json:"nodeRole"`
		Resources      struct {
			AutoScalingGroups []struct {
				Name string `json:"name"`
			} `json:"autoScalingGroups"`
		} `json:"resources"`
		Health struct {
			Issues []eksIssue `json:"issues"`
		} `json:"health"`
		LaunchTemplate struct {
			Name    string `json:"name"`
			Version string `json:"version"`
			ID      string `json:"id"`
		} `json:"launchTemplate"`
	} `json:"nodegroup"`
}

// --- EC2 (PascalCase) ---

// EC2Instance is one element of Reservations[].Instances[]: the fields the snapshot uses (a
// fleet's describe-instances holds tens of thousands, kept for the whole run).
type EC2Instance struct {
	InstanceID   string `json:"InstanceId"`
	ImageID      string `json:"ImageId"`
	InstanceType string `json:"InstanceType"`
	LaunchTime   Time   `json:"LaunchTime"`
	Placement    struct {
		AvailabilityZone string `json:"AvailabilityZone"`
	} `json:"Placement"`
	PrivateDNSName   string `json:"PrivateDnsName"`
	PrivateIPAddress string `json:"PrivateIpAddress"`
	PublicIPAddress  string `json:"PublicIpAddress"`
	State            struct {
		Name string `json:"Name"`
	} `json:"State"`
	StateReason *struct {
		Message string `json:"Message"`
	} `json:"StateReason"`
	SubnetID           string `json:"SubnetId"`
	VpcID              string `json:"VpcId"`
	Platform           string `json:"Platform"`
	PlatformDetails    string `json:"PlatformDetails"`
	IamInstanceProfile *struct {
		Arn string `json:"Arn"`
	} `json:"IamInstanceProfile"`
	SecurityGroups []struct {
		GroupID string `json:"GroupId"`
	} `json:"SecurityGroups"`
	Tags            []Tag `json:"Tags"`
	MetadataOptions struct {
		HTTPTokens              string `json:"HttpTokens"`
		HTTPPutResponseHopLimit int    `json:"HttpPutResponseHopLimit"`
		HTTPEndpoint            string `json:"HttpEndpoint"`
	} `json:"MetadataOptions"`
}

// DescribeInstancesOutput is `aws ec2 describe-instances` (decoded by its UnmarshalJSON,
// instances_decode.go).
type DescribeInstancesOutput struct {
	Reservations []Reservation `json:"Reservations"`
}

// Reservation is one reservation of describe-instances: the instances launched together.
type Reservation struct {
	Instances []EC2Instance `json:"Instances"`
}

// InstanceAttributeOutput is `aws ec2 describe-instance-attribute --attribute userData`.
type InstanceAttributeOutput struct {
	InstanceID string `json:"InstanceId"`
	UserData   *struct {
		Value *string `json:"Value"`
	} `json:"UserData"`
}

// LaunchTemplateVersionsOutput is `aws ec2 describe-launch-template-versions`.
type LaunchTemplateVersionsOutput struct {
	LaunchTemplateVersions []struct {
		LaunchTemplateID   string `json:"LaunchTemplateId"`
		VersionNumber      int    `json:"VersionNumber"`
		DefaultVersion     bool   `json:"DefaultVersion"`
		LaunchTemplateData struct {
			UserData          string   `json:"UserData"`
			ImageID           string   `json:"ImageId"`
			SecurityGroupIDs  []string `json:"SecurityGroupIds"`
			NetworkInterfaces []struct {
				DeviceIndex              int      `json:"DeviceIndex"`
				Groups                   []string `json:"Groups"`
				SubnetID                 string   `json:"SubnetId"`
				AssociatePublicIPAddress *bool    `json:"AssociatePublicIpAddress"`
			} `json:"NetworkInterfaces"`
			BlockDeviceMappings []BlockDeviceMapping `json:"BlockDeviceMappings"`
		} `json:"LaunchTemplateData"`
	} `json:"LaunchTemplateVersions"`
}

// BlockDeviceMapping is one EC2 block device mapping (DescribeImages, launch template data).
type BlockDeviceMapping struct {
	DeviceName string `json:"DeviceName"`
	Ebs        *struct {
		VolumeSize int    `json:"VolumeSize"`
		SnapshotID string `json:"SnapshotId"`
	} `json:"Ebs"`
}

// DescribeImagesOutput is `aws ec2 describe-images`.
type DescribeImagesOutput struct {
	Images []struct {
		ImageID         string `json:"ImageId"`
		Name            string `json:"Name"`
		Description     string `json:"Description"`
		Platform        string `json:"Platform"`
		PlatformDetails string `json:"PlatformDetails"`
		OwnerID         string `json:"OwnerId"`
		RootDeviceName  string `json:"RootDeviceName"`
		// BlockDeviceMappings are the AMI's devices and the sizes of their snapshots.
		BlockDeviceMappings []BlockDeviceMapping `json:"BlockDeviceMappings"`
	} `json:"Images"`
}

// DescribeInstanceTypesOutput is `aws ec2 describe-instance-types`.
type DescribeInstanceTypesOutput struct {
	InstanceTypes []struct {
		InstanceType string `json:"InstanceType"`
		// Hypervisor is "nitro" or "xen" (absent for bare metal types).
		Hypervisor  string `json:"Hypervisor"`
		BareMetal   bool   `json:"BareMetal"`
		NetworkInfo struct {
			MaximumNetworkInterfaces  int `json:"MaximumNetworkInterfaces"`
			IPv4AddressesPerInterface int `json:"Ipv4AddressesPerInterface"`
		} `json:"NetworkInfo"`
	} `json:"InstanceTypes"`
}

// DescribeSubnetsOutput is `aws ec2 describe-subnets`.
type DescribeSubnetsOutput struct {
	Subnets []struct {
		SubnetID  string `json:"SubnetId"`
		VpcID     string `json:"VpcId"`
		CidrBlock string `json:"CidrBlock"`
		// AvailableIPAddressCount is nil when the document does not hold it (a --query
		// projection): DescribeSubnets always returns it.
		AvailableIPAddressCount     *int   `json:"AvailableIpAddressCount"`
		AvailabilityZone            string `json:"AvailabilityZone"`
		Tags                        []Tag  `json:"Tags"`
		MapPublicIPOnLaunch         bool   `json:"MapPublicIpOnLaunch"`
		IPv6CidrBlockAssociationSet []struct {
			IPv6CidrBlock string `json:"Ipv6CidrBlock"`
		} `json:"Ipv6CidrBlockAssociationSet"`
	} `json:"Subnets"`
}

// DescribeVpcsOutput is `aws ec2 describe-vpcs`.
type DescribeVpcsOutput struct {
	Vpcs []struct {
		VpcID                       string `json:"VpcId"`
		CidrBlock                   string `json:"CidrBlock"`
		DhcpOptionsID               string `json:"DhcpOptionsId"`
		IPv6CidrBlockAssociationSet []struct {
			IPv6CidrBlock string `json:"Ipv6CidrBlock"`
		} `json:"Ipv6CidrBlockAssociationSet"`
		CidrBlockAssociationSet []struct {
			CidrBlock string `json:"CidrBlock"`
		} `json:"CidrBlockAssociationSet"`
	} `json:"Vpcs"`
}

// --- IAM (PascalCase) ---

// IAMRole is an IAM Role as GetRole and GetInstanceProfile print it.
type IAMRole struct {
	Path                     string     `json:"Path"`
	RoleName                 string     `json:"RoleName"`
	RoleID                   string     `json:"RoleId"`
	Arn                      string     `json:"Arn"`
	AssumeRolePolicyDocument *PolicyDoc `json:"AssumeRolePolicyDocument"`
	// PermissionsBoundary is set when the role has a permissions boundary.
	PermissionsBoundary *struct {
		PermissionsBoundaryType string `json:"PermissionsBoundaryType"`
		PermissionsBoundaryArn  string `json:"PermissionsBoundaryArn"`
	} `json:"PermissionsBoundary"`
}

// GetInstanceProfileOutput is `aws iam get-instance-profile`.
type GetInstanceProfileOutput struct {
	InstanceProfile struct {
		Path                string    `json:"Path"`
		InstanceProfileName string    `json:"InstanceProfileName"`
		Arn                 string    `json:"Arn"`
		Roles               []IAMRole `json:"Roles"`
	} `json:"InstanceProfile"`
}

// GetRoleOutput is `aws iam get-role`.
type GetRoleOutput struct {
	Role IAMRole `json:"Role"`
}

// ListAttachedRolePoliciesOutput is `aws iam list-attached-role-policies`.
type ListAttachedRolePoliciesOutput struct {
	AttachedPolicies []struct {
		PolicyName string `json:"PolicyName"`
		PolicyArn  string `json:"PolicyArn"`
	} `json:"AttachedPolicies"`
}

// --- Auto Scaling ---

// DescribeAutoScalingGroupsOutput is `aws autoscaling describe-auto-scaling-groups`.
type DescribeAutoScalingGroupsOutput struct {
	AutoScalingGroups []struct {
		AutoScalingGroupName string `json:"AutoScalingGroupName"`
		Instances            []struct {
			InstanceID string `json:"InstanceId"`
		} `json:"Instances"`
		Tags []Tag `json:"Tags"`
	} `json:"AutoScalingGroups"`
}

// --- kubectl ---

type objectMeta struct {
	Name              string            `json:"name"`
	Namespace         string            `json:"namespace"`
	Labels            map[string]string `json:"labels"`
	Annotations       map[string]string `json:"annotations"`
	CreationTimestamp Time              `json:"creationTimestamp"`
}

// ConfigMap is a v1 ConfigMap.
type ConfigMap struct {
	Kind     string            `json:"kind"`
	Metadata objectMeta        `json:"metadata"`
	Data     map[string]string `json:"data"`
}

// KubeNode is a v1 Node.
type KubeNode struct {
	Metadata objectMeta `json:"metadata"`
	Spec     struct {
		ProviderID string `json:"providerID"`
		Taints     []struct {
			Key    string `json:"key"`
			Value  string `json:"value"`
			Effect string `json:"effect"`
		} `json:"taints"`
	} `json:"spec"`
	Status struct {
		NodeInfo struct {
			KubeletVersion  string `json:"kubeletVersion"`
			OperatingSystem string `json:"operatingSystem"`
		} `json:"nodeInfo"`
		Conditions []struct {
			Type               string `json:"type"`
			Status             string `json:"status"`
			Reason             string `json:"reason"`
			Message            string `json:"message"`
			LastTransitionTime Time   `json:"lastTransitionTime"`
		} `json:"conditions"`
	} `json:"status"`
}

// KubeCSR is a certificates.k8s.io/v1 CertificateSigningRequest.
type KubeCSR struct {
	Metadata objectMeta `json:"metadata"`
	Spec     struct {
		SignerName string `json:"signerName"`
		Username   string `json:"username"`
		Request    string `json:"request"`
	} `json:"spec"`
	Status struct {
		Certificate string `json:"certificate"`
		Conditions  []struct {
			Type           string `json:"type"`
			Status         string `json:"status"`
			Reason         string `json:"reason"`
			Message        string `json:"message"`
			LastUpdateTime Time   `json:"lastUpdateTime"`
		} `json:"conditions"`
	} `json:"status"`
}

// KubeDaemonSet is an apps/v1 DaemonSet, limited to what aws-node checks read.
type KubeDaemonSet struct {
	Metadata objectMeta `json:"metadata"`
	Status   struct {
		DesiredNumberScheduled int `json:"desiredNumberScheduled"`
		NumberReady            int `json:"numberReady"`
	} `json:"status"`
	Spec struct {
		Template struct {
			Metadata objectMeta `json:"metadata"`
			Spec     struct {
				Tolerations []struct {
					Key      string `json:"key"`
					Operator string `json:"operator"`
					Value    string `json:"value"`
					Effect   string `json:"effect"`
				} `json:"tolerations"`
				ServiceAccountName string `json:"serviceAccountName"`
				Containers         []struct {
					Name string `json:"name"`
					Env  []struct {
						Name      string          `json:"name"`
						Value     string          `json:"value"`
						ValueFrom json.RawMessage `json:"valueFrom"`
					} `json:"env"`
				} `json:"containers"`
				Volumes []struct {
					Name      string `json:"name"`
					Projected *struct {
						Sources []struct {
							ServiceAccountToken *struct {
								Audience string `json:"audience"`
							} `json:"serviceAccountToken"`
						} `json:"sources"`
					} `json:"projected"`
				} `json:"volumes"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

// kubeList is a v1 List (or NodeList, CertificateSigningRequestList).
type kubeList struct {
	Kind string `json:"kind"`
	// Items refer into the file's bytes (rawRef): a 60 MiB NodeList is not copied to be split.
	Items []rawRef `json:"items"`
}

// --- EC2 networking ---

// DescribeRouteTablesOutput is `aws ec2 describe-route-tables`.
type DescribeRouteTablesOutput struct {
	RouteTables []struct {
		RouteTableID string `json:"RouteTableId"`
		VpcID        string `json:"VpcId"`
		Associations []struct {
			Main     bool   `json:"Main"`
			SubnetID string `json:"SubnetId"`
		} `json:"Associations"`
		Routes []struct {
			DestinationCidrBlock        string `json:"DestinationCidrBlock"`
			DestinationIPv6CidrBlock    string `json:"DestinationIpv6CidrBlock"`
			DestinationPrefixListID     string `json:"DestinationPrefixListId"`
			GatewayID                   string `json:"GatewayId"`
			NatGatewayID                string `json:"NatGatewayId"`
			TransitGatewayID            string `json:"TransitGatewayId"`
			VpcPeeringConnectionID      string `json:"VpcPeeringConnectionId"`
			NetworkInterfaceID          string `json:"NetworkInterfaceId"`
			InstanceID                  string `json:"InstanceId"`
			LocalGatewayID              string `json:"LocalGatewayId"`
			CarrierGatewayID            string `json:"CarrierGatewayId"`
			EgressOnlyInternetGatewayID string `json:"EgressOnlyInternetGatewayId"`
			CoreNetworkArn              string `json:"CoreNetworkArn"`
			State                       string `json:"State"`
		} `json:"Routes"`
	} `json:"RouteTables"`
}

// IPPermission is one security group rule set as EC2 prints it.
type IPPermission struct {
	IPProtocol string `json:"IpProtocol"`
	FromPort   *int   `json:"FromPort"`
	ToPort     *int   `json:"ToPort"`
	IPRanges   []struct {
		CidrIP string `json:"CidrIp"`
	} `json:"IpRanges"`
	IPv6Ranges []struct {
		CidrIPv6 string `json:"CidrIpv6"`
	} `json:"Ipv6Ranges"`
	PrefixListIDs []struct {
		PrefixListID string `json:"PrefixListId"`
	} `json:"PrefixListIds"`
	UserIDGroupPairs []struct {
		GroupID string `json:"GroupId"`
	} `json:"UserIdGroupPairs"`
}

// DescribeSecurityGroupsOutput is `aws ec2 describe-security-groups`.
type DescribeSecurityGroupsOutput struct {
	SecurityGroups []struct {
		GroupID             string         `json:"GroupId"`
		GroupName           string         `json:"GroupName"`
		VpcID               string         `json:"VpcId"`
		IPPermissions       []IPPermission `json:"IpPermissions"`
		IPPermissionsEgress []IPPermission `json:"IpPermissionsEgress"`
	} `json:"SecurityGroups"`
}

// DescribeNetworkACLsOutput is `aws ec2 describe-network-acls`.
type DescribeNetworkACLsOutput struct {
	NetworkACLs []struct {
		NetworkACLID string `json:"NetworkAclId"`
		VpcID        string `json:"VpcId"`
		IsDefault    bool   `json:"IsDefault"`
		Associations []struct {
			SubnetID string `json:"SubnetId"`
		} `json:"Associations"`
		Entries []struct {
			RuleNumber    int    `json:"RuleNumber"`
			Egress        bool   `json:"Egress"`
			Protocol      string `json:"Protocol"`
			RuleAction    string `json:"RuleAction"`
			CidrBlock     string `json:"CidrBlock"`
			IPv6CidrBlock string `json:"Ipv6CidrBlock"`
			PortRange     *struct {
				From int `json:"From"`
				To   int `json:"To"`
			} `json:"PortRange"`
		} `json:"Entries"`
	} `json:"NetworkAcls"`
}

// DescribeVpcEndpointsOutput is `aws ec2 describe-vpc-endpoints`.
type DescribeVpcEndpointsOutput struct {
	VpcEndpoints []struct {
		VpcEndpointID     string     `json:"VpcEndpointId"`
		VpcEndpointType   string     `json:"VpcEndpointType"`
		VpcID             string     `json:"VpcId"`
		ServiceName       string     `json:"ServiceName"`
		State             string     `json:"State"`
		PolicyDocument    *PolicyDoc `json:"PolicyDocument"`
		RouteTableIDs     []string   `json:"RouteTableIds"`
		SubnetIDs         []string   `json:"SubnetIds"`
		PrivateDNSEnabled *bool      `json:"PrivateDnsEnabled"`
		Groups            []struct {
			GroupID string `json:"GroupId"`
		} `json:"Groups"`
	} `json:"VpcEndpoints"`
}

// DescribeNatGatewaysOutput is `aws ec2 describe-nat-gateways`.
type DescribeNatGatewaysOutput struct {
	NatGateways []struct {
		NatGatewayID        string `json:"NatGatewayId"`
		SubnetID            string `json:"SubnetId"`
		State               string `json:"State"`
		ConnectivityType    string `json:"ConnectivityType"`
		NatGatewayAddresses []struct {
			PublicIP string `json:"PublicIp"`
		} `json:"NatGatewayAddresses"`
	} `json:"NatGateways"`
}

// DescribeInternetGatewaysOutput is `aws ec2 describe-internet-gateways`.
type DescribeInternetGatewaysOutput struct {
	InternetGateways []struct {
		InternetGatewayID string `json:"InternetGatewayId"`
		Attachments       []struct {
			VpcID string `json:"VpcId"`
			State string `json:"State"`
		} `json:"Attachments"`
	} `json:"InternetGateways"`
}

// BoolValue is EC2's {"Value": true} attribute wrapper.
type BoolValue struct {
	Value *bool `json:"Value"`
}

// DescribeVpcAttributeOutput is `aws ec2 describe-vpc-attribute` for either DNS attribute.
type DescribeVpcAttributeOutput struct {
	VpcID              string     `json:"VpcId"`
	EnableDNSSupport   *BoolValue `json:"EnableDnsSupport"`
	EnableDNSHostnames *BoolValue `json:"EnableDnsHostnames"`
}

// DescribeDhcpOptionsOutput is `aws ec2 describe-dhcp-options`.
type DescribeDhcpOptionsOutput struct {
	DhcpOptions []struct {
		DhcpOptionsID      string `json:"DhcpOptionsId"`
		DhcpConfigurations []struct {
			Key    string `json:"Key"`
			Values []struct {
				Value string `json:"Value"`
			} `json:"Values"`
		} `json:"DhcpConfigurations"`
	} `json:"DhcpOptions"`
}

// ConsoleOutputOutput is `aws ec2 get-console-output --latest` (Output decoded by the CLI).
type ConsoleOutputOutput struct {
	InstanceID string `json:"InstanceId"`
	Timestamp  Time   `json:"Timestamp"`
	Output     string `json:"Output"`
}

// KubeService is a v1 Service.
type KubeService struct {
	Metadata objectMeta `json:"metadata"`
	Spec     struct {
		ClusterIP string `json:"clusterIP"`
	} `json:"spec"`
}

// KubeServiceAccount is a v1 ServiceAccount.
type KubeServiceAccount struct {
	Metadata objectMeta `json:"metadata"`
}

// KubeWebhookConfiguration is a validating or mutating webhook configuration.
type KubeWebhookConfiguration struct {
	Kind     string     `json:"kind"`
	Metadata objectMeta `json:"metadata"`
	Webhooks []struct {
		Name          string `json:"name"`
		FailurePolicy string `json:"failurePolicy"`
		ClientConfig  struct {
			URL     string `json:"url"`
			Service *struct {
				Namespace string `json:"namespace"`
				Name      string `json:"name"`
			} `json:"service"`
		} `json:"clientConfig"`
		Rules []struct {
			APIGroups  []string `json:"apiGroups"`
			Resources  []string `json:"resources"`
			Operations []string `json:"operations"`
			Scope      string   `json:"scope"`
		} `json:"rules"`
		NamespaceSelector *struct {
			MatchLabels      map[string]string `json:"matchLabels"`
			MatchExpressions []struct {
				Key      string   `json:"key"`
				Operator string   `json:"operator"`
				Values   []string `json:"values"`
			} `json:"matchExpressions"`
		} `json:"namespaceSelector"`
	} `json:"webhooks"`
}

// KubeEndpointSlice is a discovery.k8s.io/v1 EndpointSlice.
type KubeEndpointSlice struct {
	Endpoints []struct {
		Conditions struct {
			Ready *bool `json:"ready"`
		} `json:"conditions"`
	} `json:"endpoints"`
}

// DescribeScalingActivitiesOutput is `aws autoscaling describe-scaling-activities`.
type DescribeScalingActivitiesOutput struct {
	Activities []struct {
		AutoScalingGroupName string `json:"AutoScalingGroupName"`
		Description          string `json:"Description"`
		StartTime            Time   `json:"StartTime"`
		StatusCode           string `json:"StatusCode"`
		StatusMessage        string `json:"StatusMessage"`
	} `json:"Activities"`
}
