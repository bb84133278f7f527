package layout

// itemShape is how one item of an AWS CLI command's output is recognised without the output's
// top-level key: keys it carries all of, at least one of any (when set), none of not — enough
// that an item of another output (a subnet and a VPC both have VpcId and CidrBlock; a route
// names a NAT gateway) does not fit, few enough that a hand-trimmed item still does — and
// whether the key holds one object (describe-cluster's "cluster") rather than a list. The keys
// are those of the AWS API's response shapes (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/,
// …/eks/latest/APIReference/, …/IAM/latest/APIReference/, …/autoscaling/ec2/APIReference/,
// …/awscloudtrail/latest/APIReference/).
type itemShape struct {
	keys, any, not []string
	single         bool
}

// itemShapes maps PasteKey to the shape of its items. Outputs that are lists of names
// (list-nodegroups, list-access-entries) are absent: a bare list of strings names no command.
var itemShapes = map[string]itemShape{
	"cluster":                {keys: []string{"name"}, any: []string{"resourcesVpcConfig", "endpoint", "certificateAuthority"}, not: []string{"nodegroupArn", "nodegroupName", "fargateProfileName"}, single: true},
	"accessEntry":            {keys: []string{"principalArn"}, any: []string{"accessEntryArn", "type", "username", "kubernetesGroups"}, single: true},
	"nodegroup":              {keys: []string{"nodegroupName"}, any: []string{"nodegroupArn", "amiType", "scalingConfig", "nodeRole"}, single: true},
	"fargateProfile":         {keys: []string{"fargateProfileName"}, any: []string{"fargateProfileArn", "podExecutionRoleArn", "selectors"}, single: true},
	"InstanceProfile":        {keys: []string{"InstanceProfileName", "Roles"}, single: true},
	"Role":                   {keys: []string{"RoleName"}, any: []string{"RoleId", "AssumeRolePolicyDocument", "Arn"}, not: []string{"InstanceProfileName", "PolicyArn"}, single: true},
	"Reservations":           {keys: []string{"InstanceId"}, any: []string{"ImageId", "InstanceType", "PrivateDnsName", "PrivateIpAddress", "SubnetId", "State"}},
	"Images":                 {keys: []string{"ImageId", "Name"}, not: []string{"InstanceId"}},
	"InstanceTypes":          {keys: []string{"InstanceType"}, any: []string{"VCpuInfo", "NetworkInfo", "MemoryInfo"}, not: []string{"InstanceId"}},
	"Subnets":                {keys: []string{"SubnetId", "CidrBlock"}},
	"RouteTables":            {keys: []string{"RouteTableId"}, any: []string{"Routes", "Associations"}},
	"SecurityGroups":         {keys: []string{"GroupId"}, any: []string{"IpPermissions", "IpPermissionsEgress"}},
	"NetworkAcls":            {keys: []string{"NetworkAclId", "Entries"}},
	"Vpcs":                   {keys: []string{"VpcId", "CidrBlock"}, not: []string{"SubnetId"}},
	"DhcpOptions":            {keys: []string{"DhcpOptionsId", "DhcpConfigurations"}},
	"VpcEndpoints":           {keys: []string{"VpcEndpointId", "ServiceName"}},
	"NatGateways":            {keys: []string{"NatGatewayId", "SubnetId"}},
	"InternetGateways":       {keys: []string{"InternetGatewayId"}, any: []string{"Attachments"}},
	"AttachedPolicies":       {keys: []string{"PolicyArn", "PolicyName"}},
	"AutoScalingGroups":      {keys: []string{"AutoScalingGroupName"}, any: []string{"MinSize", "MaxSize", "DesiredCapacity", "Instances"}, not: []string{"ActivityId"}},
	"Activities":             {keys: []string{"ActivityId"}, any: []string{"StatusCode", "Cause", "Description"}},
	"LaunchTemplateVersions": {keys: []string{"LaunchTemplateId", "LaunchTemplateData"}},
	"Events":                 {keys: []string{"EventId", "EventName"}},
}

// Rewrap returns v, a decoded JSON value that lacks the output's top-level key, as the output
// of e's command when v is what a --query narrowed it to: the object of a single-object output
// (`aws eks describe-cluster --query cluster`), one item, or a list of items (nested lists
// flattened, as `--query 'Reservations[].Instances[]'` and `'Reservations[*].Instances[*]'` give)
// of a list output; describe-instances items are put back in one reservation. ok is false for
// anything else, kubectl outputs and outputs without an item shape.
func (e Entry) Rewrap(v any) (doc any, ok bool) {
	shape, known := itemShapes[e.PasteKey]
	if !known {
		return nil, false
	}
	if m, isObj := v.(map[string]any); isObj {
		if _, has := m[e.PasteKey]; has || !shape.fits(m) {
			return nil, false
		}
		if shape.single {
			return map[string]any{e.PasteKey: m}, true
		}
		return e.list([]any{m}), true
	}
	items, isList := v.([]any)
	if !isList || shape.single {
		return nil, false
	}
	var flat []any
	for _, it := range items {
		if inner, nested := it.([]any); nested {
			flat = append(flat, inner...)
			continue
		}
		flat = append(flat, it)
	}
	if len(flat) == 0 {
		return nil, false
	}
	for _, it := range flat {
		if m, isObj := it.(map[string]any); !isObj || !shape.fits(m) {
			return nil, false
		}
	}
	return e.list(flat), true
}

// RewrapAny is Rewrap over every AWS CLI output of the layout: the entry whose items v holds,
// when exactly one fits.
func RewrapAny(v any) (Entry, any, bool) {
	var found Entry
	var doc any
	n := 0
	for _, e := range Entries {
		if d, ok := e.Rewrap(v); ok {
			found, doc = e, d
			n++
		}
	}
	return found, doc, n == 1
}

func (s itemShape) fits(m map[string]any) bool {
	for _, k := range s.keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	for _, k := range s.not {
		if _, ok := m[k]; ok {
			return false
		}
	}
	if len(s.any) == 0 {
		return true
	}
	for _, k := range s.any {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

func (e Entry) list(items []any) map[string]any {
	if e.PasteKey == "Reservations" {
		return map[string]any{"Reservations": []any{map[string]any{"Instances": items}}}
	}
	return map[string]any{e.PasteKey: items}
}
