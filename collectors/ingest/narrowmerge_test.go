package ingest

import (
	"slices"
	"strings"
	"testing"
)

// segsWithProblem lists the segments of r whose Problem mentions want.
func segsWithProblem(r *Result, want string) []Segment {
	var out []Segment
	for _, s := range r.Segments {
		if strings.Contains(s.Problem, want) {
			out = append(out, s)
		}
	}
	return out
}

const clusterAccess = "$ aws eks describe-cluster --name prod --query cluster.accessConfig\n" +
	"{\n    \"authenticationMode\": \"API_AND_CONFIG_MAP\"\n}\n\n"

const clusterArn = "$ aws eks describe-cluster --name prod --query cluster.arn --output text\n" +
	"arn:aws:eks:eu-west-1:111122223333:cluster/prod\n\n"

const clusterVpc = "$ aws eks describe-cluster --name prod --query 'cluster.resourcesVpcConfig'\n" +
	"{\n    \"subnetIds\": [\"subnet-0a\", \"subnet-0b\"],\n    \"securityGroupIds\": [],\n    \"clusterSecurityGroupId\": \"sg-0c\",\n" +
	"    \"vpcId\": \"vpc-0v\",\n    \"endpointPublicAccess\": false,\n    \"endpointPrivateAccess\": true,\n    \"publicAccessCidrs\": []\n}\n\n"

// TestNarrowedClusterOutputsMerge: three --query views of one cluster's describe-cluster
// (accessConfig, arn, resourcesVpcConfig) are read together, none dropped as a second copy;
// what none asked for (the endpoint, the CA) stays unknown: the file is still a --query's.
func TestNarrowedClusterOutputsMerge(t *testing.T) {
	r := Read([]byte(clusterAccess+clusterArn+clusterVpc), "p.txt", Options{})
	for _, s := range r.Segments {
		if s.Problem != "" {
			t.Errorf("%d-%d %s: problem %q", s.First, s.Last, s.Type, s.Problem)
		}
	}
	c := r.Evidence.Cluster
	if c == nil {
		t.Fatal("no cluster")
	}
	if c.Name != "prod" || c.AuthenticationMode != "API_AND_CONFIG_MAP" || c.Arn != "arn:aws:eks:eu-west-1:111122223333:cluster/prod" ||
		c.VpcID != "vpc-0v" || !slices.Equal(c.SubnetIDs, []string{"subnet-0a", "subnet-0b"}) || !c.EndpointPrivateAccess || c.ClusterSecurityGroup != "sg-0c" {
		t.Errorf("cluster %+v", c)
	}
	if !r.Snapshot.Selected["eks/describe-cluster.json"] {
		t.Errorf("merged narrowed outputs no longer marked selected: %v", r.Snapshot.Selected)
	}
}

// TestNarrowedOutputsConflict: two --query views of one cluster that disagree on a field both
// hold are an input problem naming both lines and the field; the first is used, nothing of the
// second is read.
func TestNarrowedOutputsConflict(t *testing.T) {
	other := "$ aws eks describe-cluster --name prod --query '{mode: cluster.accessConfig.authenticationMode, v: cluster.version}'\n" +
		"{\n    \"mode\": \"CONFIG_MAP\",\n    \"v\": \"1.30\"\n}\n"
	r := Read([]byte(clusterAccess+other), "p.txt", Options{})
	bad := segsWithProblem(r, "differs")
	if len(bad) != 1 || bad[0].First != 7 {
		t.Fatalf("want the second view's conflict: %v", types(r.Segments))
	}
	for _, want := range []string{"paste:p.txt:2-4", "cluster.accessConfig.authenticationMode", `"API_AND_CONFIG_MAP"`, `"CONFIG_MAP"`, "eks/describe-cluster.json"} {
		if !strings.Contains(bad[0].Problem, want) {
			t.Errorf("problem %q lacks %q", bad[0].Problem, want)
		}
	}
	if c := r.Evidence.Cluster; c == nil || c.AuthenticationMode != "API_AND_CONFIG_MAP" || c.Version != "" {
		t.Errorf("cluster %+v: want the first view only", c)
	}
}

// TestNarrowedOutputsOfOtherObjects: --query views of two different clusters are not merged:
// the second is a second copy, as before.
func TestNarrowedOutputsOfOtherObjects(t *testing.T) {
	other := strings.ReplaceAll(clusterArn, "prod", "staging")
	r := Read([]byte(clusterAccess+other), "p.txt", Options{})
	if bad := segsWithProblem(r, "a second copy of eks/describe-cluster.json"); len(bad) != 1 {
		t.Errorf("want the other cluster's view refused: %v", types(r.Segments))
	}
	if c := r.Evidence.Cluster; c == nil || c.Arn != "" {
		t.Errorf("cluster %+v", c)
	}
}

// TestFullAndNarrowedOutput: a whole describe-cluster and a --query view of the same cluster:
// the whole one is used (its absent fields are absent, not unknown), the view only adds a field
// the whole lacks (an old CLI's missing accessConfig), and a differing value is a conflict, in
// either order.
func TestFullAndNarrowedOutput(t *testing.T) {
	full := "$ aws eks describe-cluster --name prod\n{\n  \"cluster\": {\n    \"name\": \"prod\",\n" +
		"    \"arn\": \"arn:aws:eks:eu-west-1:111122223333:cluster/prod\",\n    \"version\": \"1.31\",\n    \"status\": \"ACTIVE\"\n  }\n}\n\n"
	for name, paste := range map[string]string{"full first": full + clusterAccess + clusterArn, "narrowed first": clusterAccess + clusterArn + full} {
		r := Read([]byte(paste), "p.txt", Options{})
		for _, s := range r.Segments {
			if s.Problem != "" {
				t.Errorf("%s: %d-%d problem %q", name, s.First, s.Last, s.Problem)
			}
		}
		if c := r.Evidence.Cluster; c == nil || c.Version != "1.31" || c.AuthenticationMode != "API_AND_CONFIG_MAP" || c.Arn == "" {
			t.Errorf("%s: cluster %+v", name, c)
		}
		if r.Snapshot.Selected["eks/describe-cluster.json"] {
			t.Errorf("%s: the whole output is marked selected", name)
		}
	}
	wrongArn := strings.ReplaceAll(clusterArn, "111122223333", "444455556666")
	for name, paste := range map[string]string{"full first": full + wrongArn, "narrowed first": wrongArn + full} {
		r := Read([]byte(paste), "p.txt", Options{})
		if bad := segsWithProblem(r, "differs"); len(bad) != 1 || !strings.Contains(bad[0].Problem, "cluster.arn") || !strings.Contains(bad[0].Problem, "444455556666") {
			t.Errorf("%s: want one conflict on cluster.arn: %v", name, types(r.Segments))
		}
		if c := r.Evidence.Cluster; c == nil || !strings.Contains(c.Arn, "111122223333") || c.Version != "1.31" {
			t.Errorf("%s: cluster %+v: want the whole output's", name, c)
		}
	}
}

// TestNarrowedNodeClassOutputsMerge: two `kubectl get ec2nodeclass X -o jsonpath=…` outputs of
// different fields of one node class are read together.
func TestNarrowedNodeClassOutputsMerge(t *testing.T) {
	paste := "$ kubectl get ec2nodeclass default -o jsonpath='{.spec.role}'\nKarpenterNodeRole-prod\n\n" +
		"$ kubectl get ec2nodeclass default -o jsonpath='{.status.instanceProfile}'\nprod_123\n"
	r := Read([]byte(paste), "p.txt", Options{})
	for _, s := range r.Segments {
		if s.Problem != "" {
			t.Errorf("%d-%d problem %q", s.First, s.Last, s.Problem)
		}
	}
	if nc := r.Evidence.NodeClasses; len(nc) != 1 || nc[0].Role != "KarpenterNodeRole-prod" || nc[0].StatusInstanceProfile != "prod_123" {
		t.Errorf("node classes %+v", nc)
	}
	other := strings.ReplaceAll(paste, "prod_123", "prod_456") + "\n$ kubectl get ec2nodeclass default -o jsonpath='{.status.instanceProfile}'\nprod_789\n"
	r = Read([]byte(other), "p.txt", Options{})
	if bad := segsWithProblem(r, "differs"); len(bad) != 1 || !strings.Contains(bad[0].Problem, "status.instanceProfile") {
		t.Errorf("want one conflict on status.instanceProfile: %v", types(r.Segments))
	}
}

// TestNarrowedInstanceOutputsMerge: two --query projections of one instance's
// describe-instances (--instance-ids) are read together.
func TestNarrowedInstanceOutputsMerge(t *testing.T) {
	paste := "$ aws ec2 describe-instances --instance-ids i-0abc --query 'Reservations[].Instances[].[ImageId,SubnetId]' --output text\n" +
		"ami-0123\tsubnet-0n1\n\n" +
		"$ aws ec2 describe-instances --instance-ids i-0abc --query 'Reservations[].Instances[].IamInstanceProfile.Arn'\n" +
		"[\n    \"arn:aws:iam::111122223333:instance-profile/nodes\"\n]\n"
	r := Read([]byte(paste), "p.txt", Options{})
	for _, s := range r.Segments {
		if s.Problem != "" {
			t.Errorf("%d-%d problem %q", s.First, s.Last, s.Problem)
		}
	}
	in := r.Evidence.Instance
	if in == nil || in.ID != "i-0abc" || in.ImageID != "ami-0123" || in.SubnetID != "subnet-0n1" || in.InstanceProfileArn != "arn:aws:iam::111122223333:instance-profile/nodes" {
		t.Errorf("instance %+v", in)
	}
	if in != nil && in.Reported("Tags") {
		t.Errorf("tags reported: %+v (neither query asked for them)", in)
	}
}
