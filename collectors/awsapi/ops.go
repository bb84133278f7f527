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
	"github.com/eksdoctor/eksdoctor/collectors/layout"
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

// Operations lists every operation the collector may call, all read-only: the AWS operations
// of the snapshot layout (collectors/layout), never a list of its own.
var Operations = func() []Operation {
	var out []Operation
	for _, o := range layout.AWSOperations() {
		out = append(out, Operation{Service: o.Service, Name: o.Name, Kinds: o.Kinds})
	}
	return out
}()

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
