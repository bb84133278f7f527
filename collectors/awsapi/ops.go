// Package awsapi collects evidence from a live AWS account with aws-sdk-go-v2. It only calls
// read-only Describe/Get/List operations, listed in Operations (and published as the IAM policy
// of `eksdoctor iam-policy`). What it fetches is written as the AWS CLI would print it, at the
// snapshot paths of docs/snapshot-format.md, so the snapshot reader builds the Evidence and live
// mode, `collect` and snapshot mode give the same findings.
package awsapi

import (
	"encoding/json"
	"sort"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// Operation is one AWS API operation the collector may call.
type Operation struct {
	// Service is the IAM service prefix (ec2, eks, iam, autoscaling).
	Service string
	// Name is the API operation name (DescribeInstances).
	Name string
	// Kinds are the evidence kinds it serves; the collector skips it when none is needed.
	Kinds []evidence.Kind
}

// Action returns the IAM action, e.g. "ec2:DescribeInstances".
func (o Operation) Action() string { return o.Service + ":" + o.Name }

// Operations lists every operation the collector may call. All are read-only.
var Operations = []Operation{
	{"ec2", "DescribeInstances", []evidence.Kind{evidence.KindInstance}},
	{"ec2", "DescribeInstanceAttribute", []evidence.Kind{evidence.KindUserData, evidence.KindBootstrap}},
	{"ec2", "DescribeLaunchTemplateVersions", []evidence.Kind{evidence.KindLaunchTemplate, evidence.KindUserData}},
	{"ec2", "DescribeImages", []evidence.Kind{evidence.KindImage}},
	{"ec2", "DescribeInstanceTypes", []evidence.Kind{evidence.KindInstanceType}},
	{"ec2", "DescribeSubnets", []evidence.Kind{evidence.KindSubnets}},
	{"ec2", "DescribeRouteTables", []evidence.Kind{evidence.KindRouteTables}},
	{"ec2", "DescribeSecurityGroups", []evidence.Kind{evidence.KindSecurityGroups}},
	{"ec2", "DescribeNetworkAcls", []evidence.Kind{evidence.KindNetworkACLs}},
	{"ec2", "DescribeVpcs", []evidence.Kind{evidence.KindVPCs, evidence.KindDHCPOptions}},
	{"ec2", "DescribeVpcAttribute", []evidence.Kind{evidence.KindVPCAttributes}},
	{"ec2", "DescribeDhcpOptions", []evidence.Kind{evidence.KindDHCPOptions}},
	{"ec2", "DescribeVpcEndpoints", []evidence.Kind{evidence.KindVPCEndpoints}},
	{"ec2", "DescribeNatGateways", []evidence.Kind{evidence.KindNATGateways}},
	{"ec2", "DescribeInternetGateways", []evidence.Kind{evidence.KindInternetGateways}},
	{"ec2", "GetConsoleOutput", []evidence.Kind{evidence.KindConsoleOutput, evidence.KindNodeLogs}},
	{"eks", "DescribeCluster", []evidence.Kind{evidence.KindCluster}},
	{"eks", "ListAccessEntries", []evidence.Kind{evidence.KindAccessEntries}},
	{"eks", "DescribeAccessEntry", []evidence.Kind{evidence.KindAccessEntries}},
	{"eks", "ListNodegroups", []evidence.Kind{evidence.KindNodegroups}},
	{"eks", "DescribeNodegroup", []evidence.Kind{evidence.KindNodegroups}},
	{"iam", "GetInstanceProfile", []evidence.Kind{evidence.KindInstanceProfile, evidence.KindNodeRole, evidence.KindNodeRolePolicies}},
	{"iam", "GetRole", []evidence.Kind{evidence.KindNodeRole}},
	{"iam", "ListAttachedRolePolicies", []evidence.Kind{evidence.KindNodeRolePolicies}},
	{"autoscaling", "DescribeAutoScalingGroups", []evidence.Kind{evidence.KindAutoScaling}},
	{"autoscaling", "DescribeScalingActivities", []evidence.Kind{evidence.KindScalingActivities}},
}

// Operation returns the operation named name.
func OperationNamed(name string) (Operation, bool) {
	for _, o := range Operations {
		if o.Name == name {
			return o, true
		}
	}
	return Operation{}, false
}

// Policy returns the minimal read-only IAM policy document (JSON, indented) that allows every
// operation in Operations.
func Policy() []byte {
	var actions []string
	for _, o := range Operations {
		actions = append(actions, o.Action())
	}
	sort.Strings(actions)
	doc := map[string]any{
		"Version": "2012-10-17",
		"Statement": []map[string]any{{
			"Sid":      "EksdoctorReadOnly",
			"Effect":   "Allow",
			"Action":   actions,
			"Resource": "*",
		}},
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	return append(b, '\n')
}
