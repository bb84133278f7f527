package ingest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/layout"
)

// TestQueriedOutputIsPutBack: AWS CLI output narrowed with --query, pasted under its command
// line, reads as the command's output with the fields the query kept; forms that do not say
// where a value came from, or that dropped items, stay data. Pasted without its command line,
// it reads as the command's output when its items name the command (instances of every
// reservation, one cluster object); items that several outputs share, or names, stay data.
func TestQueriedOutputIsPutBack(t *testing.T) {
	cases := []struct {
		name, paste string
		want        Type
		path, value string
	}{
		{"index then field", "$ aws ec2 describe-route-tables --route-table-ids rtb-1 --query 'RouteTables[0].Routes'\n[\n  {\"DestinationCidrBlock\": \"10.42.0.0/16\", \"GatewayId\": \"local\"}\n]\n",
			"aws:ec2/describe-route-tables.json", "RouteTables.0.Routes.0.GatewayId", "local"},
		{"projection to a hash", "$ aws ec2 describe-subnets --subnet-ids subnet-1 --query 'Subnets[*].{AZ: AvailabilityZone, Free: AvailableIpAddressCount, Id: SubnetId}'\n[\n  {\"AZ\": \"us-west-2a\", \"Free\": 0, \"Id\": \"subnet-1\"}\n]\n",
			"aws:ec2/describe-subnets.json", "Subnets.0.SubnetId", "subnet-1"},
		{"text scalar", "$ aws eks describe-nodegroup --cluster-name c --nodegroup-name ng --query nodegroup.nodeRole --output text\narn:aws:iam::111122223333:role/ng-role\n",
			"aws:eks/describe-nodegroup/<nodegroup>.json", "nodegroup.nodeRole", "arn:aws:iam::111122223333:role/ng-role"},
		{"flattened projections", "$ aws ec2 describe-instances --instance-ids i-1 --query \"Reservations[].Instances[].{State: State.Name, Id: InstanceId}\"\n[\n  {\"State\": \"running\", \"Id\": \"i-0abc\"}\n]\n",
			"aws:ec2/describe-instances.json", "Reservations.0.Instances.0.State.Name", "running"},
		{"multi-select list as text", "$ aws eks describe-cluster --name c --query 'cluster.[name,version,platformVersion,status]' --output text\nc\t1.31\teks.42\tACTIVE\n",
			"aws:eks/describe-cluster.json", "cluster.version", "1.31"},
		{"multi-select list as JSON", "$ aws eks describe-cluster --name c --query \"cluster.[name, resourcesVpcConfig.endpointPrivateAccess]\"\n[\n  \"c\",\n  false\n]\n",
			"aws:eks/describe-cluster.json", "cluster.resourcesVpcConfig.endpointPrivateAccess", "false"},
		{"projected multi-select list as text", "$ aws ec2 describe-instances --instance-ids i-0abc i-0def --query 'Reservations[].Instances[].[InstanceId,State.Name,IamInstanceProfile.Arn]' --output text\ni-0abc\trunning\tNone\ni-0def\tpending\tarn:aws:iam::111122223333:instance-profile/p\n",
			"aws:ec2/describe-instances.json", "Reservations.0.Instances.1.State.Name", "pending"},
		{"projected multi-select list as a table, with a filter element", "$ aws ec2 describe-subnets --query 'Subnets[].[SubnetId,AvailabilityZone,AvailableIpAddressCount,Tags[?Key==`Name`]|[0].Value]' --output table\n" +
			"----------------------------------------------------------------------\n|                          DescribeSubnets                           |\n+---------------------------+------------------+-------+-------------+\n" +
			"|  subnet-0f2a9c7e1b4d3e608 |  ap-northeast-1a |  7911 |  private-1a |\n|  subnet-0e5b3f19c7a2d4860 |  ap-northeast-1c |  0    |  pods-1c    |\n+---------------------------+------------------+-------+-------------+\n",
			"aws:ec2/describe-subnets.json", "Subnets.1.SubnetId", "subnet-0e5b3f19c7a2d4860"},
		{"projected hash as a table, under a bare command with commas", "aws ec2 describe-nat-gateways --filter Name=vpc-id,Values=vpc-1 --query 'NatGateways[].{id:NatGatewayId,subnet:SubnetId,state:State,eip:NatGatewayAddresses[0].PublicIp}' --output table\n" +
			"-----------------------------------------------------------------------------------\n|                               DescribeNatGateways                               |\n+----------------+-------------------------+-------------+-------------------------+\n" +
			"|       eip      |           id            |    state    |         subnet          |\n+----------------+-------------------------+-------------+-------------------------+\n" +
			"|  54.249.31.177 |  nat-0c8e2a71d4f9b3e05  |  available  |  subnet-09d2f7a4c1e8b6350|\n+----------------+-------------------------+-------------+-------------------------+\n",
			"aws:ec2/describe-nat-gateways.json", "NatGateways.0.NatGatewayAddresses.0.PublicIp", "54.249.31.177"},
		{"projected objects as a table: a header row of their keys", "$ aws ec2 describe-route-tables --route-table-ids rtb-1 --query 'RouteTables[].Routes[]' --output table\n" +
			"-------------------------------------------------------------------------------------------------\n|                                      DescribeRouteTables                                      |\n" +
			"+----------------------+--------------------------+------------+------------+---------------+\n" +
			"| DestinationCidrBlock | DestinationPrefixListId  | GatewayId  |NatGatewayId|    State      |\n" +
			"+----------------------+--------------------------+------------+------------+---------------+\n" +
			"|  10.31.0.0/16        |                          |  local     |            |  active       |\n" +
			"|                      |  pl-7da54014             |  vpce-0e2a |            |  active       |\n" +
			"|  0.0.0.0/0           |                          |            |  nat-0d3f  |  blackhole    |\n" +
			"+----------------------+--------------------------+------------+------------+---------------+\n",
			"aws:ec2/describe-route-tables.json", "RouteTables.0.Routes.2.State", "blackhole"},
		{"a hash wider than the terminal, as a table turned vertical", "$ aws eks describe-cluster --name c --query 'cluster.{Name:name,Status:status,Version:version,Endpoint:endpoint}' --output table\n" +
			"--------------------------------\n|       DescribeCluster        |\n+----------+-------------------+\n" +
			"|  Endpoint|  None             |\n|  Name    |  c                |\n|  Status  |  CREATING         |\n|  Version |  1.32             |\n+----------+-------------------+\n",
			"aws:eks/describe-cluster.json", "cluster.status", "CREATING"},
		{"an object wider than the terminal, as a table turned vertical", "$ aws ec2 describe-subnets --subnet-ids subnet-1 --query 'Subnets[0]' --output table\n" +
			"--------------------------------------------\n|             DescribeSubnets              |\n+--------------------------+---------------+\n" +
			"|  AvailableIpAddressCount |  0            |\n|  SubnetId                |  subnet-1     |\n|  VpcId                   |  vpc-1        |\n+--------------------------+---------------+\n",
			"aws:ec2/describe-subnets.json", "Subnets.0.AvailableIpAddressCount", "0"},
		{"an object as a table: its keys above its values", "$ aws ec2 describe-subnets --subnet-ids subnet-1 --query 'Subnets[0]' --output table\n" +
			"--------------------------------------------------------------\n|                       DescribeSubnets                      |\n" +
			"+--------------------------+-----------------+---------------+\n| AvailableIpAddressCount  |    SubnetId     |     VpcId     |\n" +
			"+--------------------------+-----------------+---------------+\n|  0                       |  subnet-1       |  vpc-1        |\n" +
			"+--------------------------+-----------------+---------------+\n",
			"aws:ec2/describe-subnets.json", "Subnets.0.AvailableIpAddressCount", "0"},
		{"the principal the command line names", "$ aws eks describe-access-entry --cluster-name c --principal-arn arn:aws:iam::111122223333:role/NodeRole --query 'accessEntry.[type,username]' --output text\nSTANDARD\tarn:aws:sts::111122223333:assumed-role/NodeRole/{{SessionName}}\n",
			"aws:eks/describe-access-entry/<role-name>.json", "accessEntry.principalArn", "arn:aws:iam::111122223333:role/NodeRole"},
		{"the node group the command line names", "$ aws eks describe-nodegroup --cluster-name c --nodegroup-name ng-1 --query nodegroup.status --output text\nDEGRADED\n",
			"aws:eks/describe-nodegroup/<nodegroup>.json", "nodegroup.nodegroupName", "ng-1"},
		{"JSON scalar (the default output)", "$ aws eks describe-nodegroup --cluster-name c --nodegroup-name ng --query 'nodegroup.nodeRole'\n\"arn:aws:iam::111122223333:role/ng-role\"\n",
			"aws:eks/describe-nodegroup/<nodegroup>.json", "nodegroup.nodeRole", "arn:aws:iam::111122223333:role/ng-role"},
		{"one value under a projection, as text", "$ aws ec2 describe-instances --instance-ids i-07e9a1c3b5d7f9e24 --query 'Reservations[].Instances[].ImageId' --output text\nami-0c3e5a7b9d1f3c580\n",
			"aws:ec2/describe-instances.json", "Reservations.0.Instances.0.ImageId", "ami-0c3e5a7b9d1f3c580"},
		{"an or-expression of sibling fields: a route's target, as text", "$ aws ec2 describe-route-tables --filters Name=association.subnet-id,Values=subnet-1 --query 'RouteTables[].Routes[].[DestinationCidrBlock,GatewayId||NatGatewayId,State]' --output text\n10.12.0.0/16\tlocal\tactive\n0.0.0.0/0\tnat-0f1b3d5a7c9e1f246\tactive\n",
			"aws:ec2/describe-route-tables.json", "RouteTables.0.Routes.1.GatewayId", "nat-0f1b3d5a7c9e1f246"},
		{"JSON boolean", "$ aws eks describe-cluster --name c --query cluster.resourcesVpcConfig.endpointPublicAccess --output json\nfalse\n",
			"aws:eks/describe-cluster.json", "cluster.resourcesVpcConfig.endpointPublicAccess", "false"},
		{"scalar as a table", "$ aws eks describe-cluster --name c --query cluster.status --output table\n----------------------\n|  DescribeCluster   |\n+--------------------+\n|  ACTIVE            |\n+--------------------+\n",
			"aws:eks/describe-cluster.json", "cluster.status", "ACTIVE"},
		{"nested table", "$ aws ec2 describe-subnets --query 'Subnets[].[SubnetId]' --output table\n-----------------\n| DescribeSubnets |\n+---------------+\n||  Subnets    ||\n|+-------------+|\n||  subnet-1   ||\n",
			TypeLog, "", ""},
		{"multi-select list of the wrong length", "$ aws eks describe-cluster --name c --query 'cluster.[name,version]' --output text\nc\t1.31\tACTIVE\n", TypeLog, "", ""},
		{"filter drops items", "$ aws iam list-attached-role-policies --role-name r --query \"AttachedPolicies[?PolicyName=='AmazonEKS_CNI_Policy']\"\n[]\n",
			TypeData, "", ""},
		{"function", "$ aws ec2 describe-subnets --query 'length(Subnets)'\n[\n 3\n]\n", TypeData, "", ""},
		{"no query", "$ aws ec2 describe-subnets\n[\n  {\"SubnetId\": \"subnet-1\"}\n]\n", TypeData, "", ""},
		// without the command line: the items name the command, or the value stays data
		{"instances of every reservation", "[\n  [\n    {\"InstanceId\": \"i-0a1b2c3d4e5f60001\", \"ImageId\": \"ami-0abc\", \"State\": {\"Name\": \"running\"}}\n  ]\n]\n",
			"aws:ec2/describe-instances.json", "Reservations.0.Instances.0.InstanceId", "i-0a1b2c3d4e5f60001"},
		{"one cluster", "{\n  \"name\": \"prod\",\n  \"endpoint\": \"https://ABC.gr7.us-west-2.eks.amazonaws.com\",\n  \"resourcesVpcConfig\": {\"vpcId\": \"vpc-1\"}\n}\n",
			"aws:eks/describe-cluster.json", "cluster.name", "prod"},
		{"subnets", "[\n  {\"SubnetId\": \"subnet-1\", \"CidrBlock\": \"10.0.1.0/24\", \"VpcId\": \"vpc-1\", \"AvailableIpAddressCount\": 0}\n]\n",
			"aws:ec2/describe-subnets.json", "Subnets.0.AvailableIpAddressCount", "0"},
		{"routes are no NAT gateways", "[\n  {\"DestinationCidrBlock\": \"0.0.0.0/0\", \"NatGatewayId\": \"nat-1\", \"State\": \"active\"}\n]\n", TypeData, "", ""},
		{"names only", "[\n  \"ng-1\",\n  \"ng-2\"\n]\n", TypeData, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			segs := Segments([]byte(c.paste))
			if len(segs) != 1 {
				t.Fatalf("segments %v, want one", types(segs))
			}
			s := segs[0]
			if s.Type != c.want {
				t.Fatalf("type %q (%s), want %q", s.Type, s.Detail, c.want)
			}
			if c.path == "" {
				return
			}
			if !strings.Contains(s.Detail, "narrowed by") {
				t.Errorf("detail %q does not say the output was narrowed", s.Detail)
			}
			if got := fmt.Sprint(layout.LookupAny(s.value, c.path)); got != c.value {
				t.Errorf("%s = %q, want %q (document %v)", c.path, got, c.value, s.value)
			}
		})
	}
}

const nodeRoleEKSTrust = `$ aws iam get-role --role-name eks-node-role
{"Role": {"RoleName": "eks-node-role", "Arn": "arn:aws:iam::111122223333:role/eks-node-role", "Path": "/",
  "AssumeRolePolicyDocument": {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": "eks.amazonaws.com"}, "Action": "sts:AssumeRole"}]}}}
`

// TestPastedNodeRole: a paste with no instance takes a pasted role as the node role only when
// the paste points at exactly one role that reads as a node's.
func TestPastedNodeRole(t *testing.T) {
	clusterRole := strings.NewReplacer("eks-node-role", "eks-cluster", "eks.amazonaws.com", "eks.amazonaws.com").Replace(nodeRoleEKSTrust) +
		"$ aws iam list-attached-role-policies --role-name eks-cluster\n{\"AttachedPolicies\": [{\"PolicyName\": \"AmazonEKSClusterPolicy\", \"PolicyArn\": \"arn:aws:iam::aws:policy/AmazonEKSClusterPolicy\"}]}\n"
	hybrid := strings.NewReplacer("eks-node-role", "AmazonEKSHybridNodesRole", "eks.amazonaws.com", "ssm.amazonaws.com").Replace(nodeRoleEKSTrust)
	byPolicy := strings.NewReplacer("eks-node-role", "platform-default", "eks.amazonaws.com", "ec2.amazonaws.com").Replace(nodeRoleEKSTrust) +
		"$ aws iam list-attached-role-policies --role-name platform-default\n{\"AttachedPolicies\": [{\"PolicyName\": \"AmazonEKSWorkerNodePolicy\", \"PolicyArn\": \"arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy\"}]}\n"
	nodegroup := "$ aws eks describe-nodegroup --cluster-name c --nodegroup-name ng --query nodegroup.nodeRole --output text\narn:aws:iam::111122223333:role/ng-role\n"
	// an instance profile's role is an EC2 instance's role, whatever its name
	profile := "$ aws iam get-instance-profile --instance-profile-name platform-v2\n{\"InstanceProfile\": {\"Path\": \"/\", \"InstanceProfileName\": \"platform-v2\", \"InstanceProfileId\": \"AIPAEXAMPLE\", \"Arn\": \"arn:aws:iam::111122223333:instance-profile/platform-v2\", \"CreateDate\": \"2026-05-27T08:41:12+00:00\", \"Roles\": [{\"Path\": \"/\", \"RoleName\": \"platform-v2\", \"RoleId\": \"AROAEXAMPLE\", \"Arn\": \"arn:aws:iam::111122223333:role/platform-v2\", \"CreateDate\": \"2026-05-27T08:41:10+00:00\"}]}}\n"
	cases := []struct {
		name, paste, role string
		policies          int
	}{
		{"node-like name, EKS trust", nodeRoleEKSTrust, "arn:aws:iam::111122223333:role/eks-node-role", -1},
		{"cluster role", clusterRole, "", -1},
		{"hybrid nodes role", hybrid, "", -1},
		{"two node-like roles", nodeRoleEKSTrust + strings.ReplaceAll(nodeRoleEKSTrust, "eks-node-role", "other-node-role"), "", -1},
		{"node policy, neutral name", byPolicy, "arn:aws:iam::111122223333:role/platform-default", 1},
		{"node group's nodeRole", nodegroup, "arn:aws:iam::111122223333:role/ng-role", -1},
		{"node group's nodeRole as JSON", strings.Replace(strings.Replace(nodegroup, " --output text", "", 1), "arn:aws:iam::111122223333:role/ng-role", `"arn:aws:iam::111122223333:role/ng-role"`, 1), "arn:aws:iam::111122223333:role/ng-role", -1},
		{"instance profile's role", profile, "arn:aws:iam::111122223333:role/platform-v2", -1},
		{"instance profile's role narrowed to its ARN", "$ aws ec2 describe-instances --instance-ids i-0a73e9c1d4b58f206 --query 'Reservations[].Instances[].{id:InstanceId,profile:IamInstanceProfile.Arn}'\n[{\"id\": \"i-0a73e9c1d4b58f206\", \"profile\": \"arn:aws:iam::111122223333:instance-profile/qa-spot-node\"}]\n\n$ aws iam get-instance-profile --instance-profile-name qa-spot-node --query 'InstanceProfile.Roles[0].Arn' --output text\narn:aws:iam::111122223333:role/qa-spot-node\n", "arn:aws:iam::111122223333:role/qa-spot-node", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := Read([]byte(c.paste), "stdin", Options{}).Evidence
			if c.role == "" {
				if ev.Have(evidence.KindNodeRole) {
					t.Fatalf("node role %+v adopted from %s", ev.NodeRole, ev.Source(evidence.KindNodeRole))
				}
				return
			}
			if !ev.Have(evidence.KindNodeRole) || ev.NodeRole.Arn != c.role {
				t.Fatalf("node role %+v (gap %q), want %s", ev.NodeRole, ev.GapFor(evidence.KindNodeRole).Reason, c.role)
			}
			if !strings.HasPrefix(ev.Source(evidence.KindNodeRole), "paste:stdin") {
				t.Errorf("source %q does not name the paste", ev.Source(evidence.KindNodeRole))
			}
			if c.policies >= 0 && (!ev.Have(evidence.KindNodeRolePolicies) || len(ev.NodeRolePolicies) != c.policies) {
				t.Errorf("policies %v, want %d", ev.NodeRolePolicies, c.policies)
			}
		})
	}
}

// TestSelectedFieldsAreUnknown: describe-instances output narrowed by a --query that picked
// fields says nothing of the fields it left out: no instance profile is "not collected", not
// "absent", and its tags are unreported; a field the query asked for and found empty (None,
// null) is absent; whole items (Reservations[].Instances[]) stay whole.
func TestSelectedFieldsAreUnknown(t *testing.T) {
	const id = "i-0abc1234def567890"
	cases := []struct {
		name, paste string
		haveProfile bool // KindInstanceProfile known (a profile, or known to be none)
		tags        bool // Tags reported
	}{
		{"list without the profile", "$ aws ec2 describe-instances --instance-ids " + id + " --query 'Reservations[].Instances[].[InstanceId,State.Name,SubnetId]' --output text\n" + id + "\trunning\tsubnet-0123\n", false, false},
		{"hash without the profile", "$ aws ec2 describe-instances --instance-ids " + id + " --query 'Reservations[].Instances[].{Id: InstanceId, State: State.Name}'\n[{\"Id\": \"" + id + "\", \"State\": \"running\"}]\n", false, false},
		{"profile asked for, None", "$ aws ec2 describe-instances --instance-ids " + id + " --query 'Reservations[].Instances[].[InstanceId,IamInstanceProfile.Arn]' --output text\n" + id + "\tNone\n", true, false},
		// the command line names the one instance whose security groups were printed
		{"path into the items", "$ aws ec2 describe-instances --instance-ids " + id + " --query 'Reservations[].Instances[].SecurityGroups[]'\n[{\"GroupId\": \"sg-07b3d5f9a1c2e4680\", \"GroupName\": \"nodes\"}]\n", false, false},
		{"whole instances", "$ aws ec2 describe-instances --instance-ids " + id + " --query 'Reservations[].Instances[]'\n[{\"InstanceId\": \"" + id + "\", \"ImageId\": \"ami-0abc\", \"InstanceType\": \"m5.large\", \"LaunchTime\": \"2026-11-24T10:00:00+00:00\", \"Placement\": {\"AvailabilityZone\": \"eu-west-1a\"}, \"State\": {\"Name\": \"running\"}}]\n", true, true},
		// whole items lacking a field DescribeInstances always returns (ImageId, Placement …) were
		// cut by a projection that kept the keys: what they lack is unknown
		{"items without always-present fields", "[{\"InstanceId\": \"" + id + "\", \"State\": {\"Name\": \"running\"}, \"SubnetId\": \"subnet-0123\"}]\n", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := Read([]byte(c.paste), "stdin", Options{}).Evidence
			if !ev.Have(evidence.KindInstance) {
				t.Fatalf("no instance (gap %q)", ev.GapFor(evidence.KindInstance).Reason)
			}
			if got := ev.Have(evidence.KindInstanceProfile); got != c.haveProfile {
				t.Errorf("instance profile known = %v (gap %q), want %v", got, ev.GapFor(evidence.KindInstanceProfile).Reason, c.haveProfile)
			}
			if !c.haveProfile && !strings.Contains(ev.GapFor(evidence.KindInstanceProfile).Reason, "--query") {
				t.Errorf("gap %q does not name the narrowing", ev.GapFor(evidence.KindInstanceProfile).Reason)
			}
			if c.haveProfile && ev.Instance.InstanceProfileArn != "" {
				t.Errorf("profile %q, want none", ev.Instance.InstanceProfileArn)
			}
			if ev.Instance.ID != id {
				t.Errorf("instance %q, want %s", ev.Instance.ID, id)
			}
			if got := ev.Instance.Reported("Tags"); got != c.tags {
				t.Errorf("tags reported = %v, want %v", got, c.tags)
			}
		})
	}
}

// TestKubectlVersionGivesTheClusterVersion: `kubectl version` in each form clients print (the
// current one, --short, an old client's version.Info{…}, -o json) is read as the API server's
// version, and gives the cluster its Kubernetes version when no describe-cluster says it; a
// pasted describe-cluster that does wins; client lines alone say nothing of the cluster.
func TestKubectlVersionGivesTheClusterVersion(t *testing.T) {
	cases := []struct{ name, paste, want string }{
		{"current", "$ kubectl version\nClient Version: v1.32.3\nKustomize Version: v5.5.0\nServer Version: v1.31.13-eks-5e7f0a1\n", "1.31"},
		{"with the skew warning", "Client Version: v1.33.1\nKustomize Version: v5.6.0\nServer Version: v1.29.15-eks-b707fbb\nWARNING: version difference between client (1.33) and server (1.29) exceeds the supported minor version skew of +/-1\n", "1.29"},
		{"old client", "Client Version: version.Info{Major:\"1\", Minor:\"21\", GitVersion:\"v1.21.2\", GitCommit:\"092fbfbf\", GitTreeState:\"clean\", BuildDate:\"2021-06-16T12:59:11Z\", GoVersion:\"go1.16.5\", Compiler:\"gc\", Platform:\"darwin/amd64\"}\nServer Version: version.Info{Major:\"1\", Minor:\"20+\", GitVersion:\"v1.20.15-eks-18ef993\", GitCommit:\"18ef993\", GitTreeState:\"clean\", BuildDate:\"2022-07-06T18:11:15Z\", GoVersion:\"go1.15.15\", Compiler:\"gc\", Platform:\"linux/amd64\"}\n", "1.20"},
		{"json", "$ kubectl version -o json\n{\n  \"clientVersion\": {\"major\": \"1\", \"minor\": \"32\", \"gitVersion\": \"v1.32.3\"},\n  \"serverVersion\": {\"major\": \"1\", \"minor\": \"30+\", \"gitVersion\": \"v1.30.14-eks-931bdca\"}\n}\n", "1.30"},
		{"describe-cluster wins", "$ aws eks describe-cluster --name c --query cluster.version --output text\n1.32\n\n$ kubectl version\nClient Version: v1.32.3\nServer Version: v1.31.13-eks-5e7f0a1\n", "1.32"},
		{"describe-cluster without a version", "$ aws eks describe-cluster --name c --query 'cluster.{Name: name, Status: status}'\n{\"Name\": \"c\", \"Status\": \"ACTIVE\"}\n\n$ kubectl version\nClient Version: v1.32.3\nServer Version: v1.31.13-eks-5e7f0a1\n", "1.31"},
		{"client only", "$ kubectl version --client\nClient Version: v1.32.3\nKustomize Version: v5.5.0\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Read([]byte(c.paste), "stdin", Options{})
			ev := r.Evidence
			if c.want == "" {
				if ev.Have(evidence.KindCluster) {
					t.Fatalf("cluster %+v from %s", ev.Cluster, ev.Source(evidence.KindCluster))
				}
				return
			}
			if !ev.Have(evidence.KindCluster) || ev.Cluster.Version != c.want {
				t.Fatalf("cluster %+v (segments %v), want version %s", ev.Cluster, types(r.Segments), c.want)
			}
			if c.name != "describe-cluster wins" && !strings.Contains(ev.Source(evidence.KindCluster), "kubectl version") {
				t.Errorf("source %q does not name kubectl version", ev.Source(evidence.KindCluster))
			}
		})
	}
}

// TestLoadedConfigurationPastedAlone: the object of nodeadm's "Loaded configuration" line,
// pretty-printed and pasted on its own (with or without its config wrapper), is the node's
// effective NodeConfig; a spec without a cluster section is not.
func TestLoadedConfigurationPastedAlone(t *testing.T) {
	obj := `{"spec": {"cluster": {"name": "orders-stg", "apiServerEndpoint": "https://ABC.gr7.us-east-1.eks.amazonaws.com", "certificateAuthority": "Q0E=", "cidr": "10.100.0.0/16"}, "kubelet": {}}, "status": {"instance": {"id": "i-0e3f7a1c9d2b58604", "region": "us-east-1"}, "kubeletVersion": "v1.33.3-eks-3abbec1"}}`
	for _, paste := range []string{"```json\n" + obj + "\n```\n", `{"config": ` + obj + "}\n"} {
		ev := Read([]byte(paste), "stdin", Options{}).Evidence
		if !ev.Have(evidence.KindBootstrap) || ev.Bootstrap.ClusterName != "orders-stg" || ev.Bootstrap.CertificateAuthority != "Q0E=" || !ev.Bootstrap.Effective {
			t.Errorf("%.30q…: bootstrap %+v", paste, ev.Bootstrap)
		}
	}
	if ev := Read([]byte(`{"spec": {"replicas": 3}, "status": {}}`+"\n"), "stdin", Options{}).Evidence; ev.Have(evidence.KindBootstrap) {
		t.Errorf("a spec without a cluster read as a NodeConfig: %+v", ev.Bootstrap)
	}
}

// TestPastedInstanceType: with no instance in the paste, the one instance type it describes is
// the node's, named by the command line when the query dropped InstanceType; two types name none.
func TestPastedInstanceType(t *testing.T) {
	one := "$ aws ec2 describe-instance-types --instance-types m5.large --query 'InstanceTypes[0].NetworkInfo.{MaxENI:MaximumNetworkInterfaces,IPv4PerENI:Ipv4AddressesPerInterface}'\n{\n    \"MaxENI\": 3,\n    \"IPv4PerENI\": 10\n}\n"
	ev := Read([]byte(one), "stdin", Options{}).Evidence
	if !ev.Have(evidence.KindInstanceType) || ev.InstanceType.Name != "m5.large" || ev.InstanceType.MaxENIs != 3 || ev.InstanceType.IPv4PerENI != 10 {
		t.Fatalf("instance type %+v (gap %q)", ev.InstanceType, ev.GapFor(evidence.KindInstanceType).Reason)
	}
	two := "$ aws ec2 describe-instance-types --instance-types m5.large c5.large --query 'InstanceTypes[].{T:InstanceType,E:NetworkInfo.MaximumNetworkInterfaces}'\n[{\"T\": \"m5.large\", \"E\": 3}, {\"T\": \"c5.large\", \"E\": 3}]\n"
	if ev := Read([]byte(two), "stdin", Options{}).Evidence; ev.Have(evidence.KindInstanceType) {
		t.Errorf("two types adopted as the node's: %+v", ev.InstanceType)
	}
}

// TestCallerIdentityOnTheNode: get-caller-identity run on an instance answers with the instance
// profile's role assumed under the instance ID: with no instance in the paste it is the node
// role, even with the poster's words after the output; a person's identity is not.
func TestCallerIdentityOnTheNode(t *testing.T) {
	out := func(arn string) string {
		return "[root@ip-10-42-17-88 ~]# aws sts get-caller-identity\n{\n    \"UserId\": \"AROAEXAMPLE:i-0c3f9e1a7b2d84e65\",\n    \"Account\": \"381492750116\",\n    \"Arn\": \"" + arn + "\"\n}\n\nand from my laptop:\n"
	}
	ev := Read([]byte(out("arn:aws:sts::381492750116:assumed-role/eks-prod-workers-v2/i-0c3f9e1a7b2d84e65")), "stdin", Options{}).Evidence
	if !ev.Have(evidence.KindNodeRole) || ev.NodeRole.Arn != "arn:aws:iam::381492750116:role/eks-prod-workers-v2" {
		t.Fatalf("node role %+v (gap %q)", ev.NodeRole, ev.GapFor(evidence.KindNodeRole).Reason)
	}
	if ev := Read([]byte(out("arn:aws:sts::381492750116:assumed-role/AWSReservedSSO_Admin_abc/jane@example.com")), "stdin", Options{}).Evidence; ev.Have(evidence.KindNodeRole) {
		t.Errorf("a person's session adopted as the node role: %+v", ev.NodeRole)
	}
}

// TestTextOutputIsTyped: values read from --output text or table take the type the field has in
// JSON output (a subnet's free addresses a number, an endpoint flag a boolean), so the output
// decodes as its JSON would; other fields stay strings (an account ID is no number).
func TestTextOutputIsTyped(t *testing.T) {
	segs := Segments([]byte("$ aws ec2 describe-subnets --query 'Subnets[].[SubnetId,AvailableIpAddressCount,MapPublicIpOnLaunch,OwnerId]' --output text\nsubnet-1\t0\tFalse\t111122223333\n"))
	if len(segs) != 1 || segs[0].Type != "aws:ec2/describe-subnets.json" {
		t.Fatalf("segments %v", types(segs))
	}
	for path, want := range map[string]string{"Subnets.0.AvailableIpAddressCount": "float64 0", "Subnets.0.MapPublicIpOnLaunch": "bool false", "Subnets.0.OwnerId": "string 111122223333"} {
		v := layout.LookupAny(segs[0].value, path)
		if got := fmt.Sprintf("%T %v", v, v); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
}

// TestListTextOutput: the `--output text` of a list operation without --query (one row per item,
// the output key upper-cased, the values in sorted-key order) is read as the command's output;
// a row of another shape leaves the block unread. `aws sts get-caller-identity --query Arn` gives
// the instance's role.
func TestListTextOutput(t *testing.T) {
	policies := "$ aws iam list-attached-role-policies --role-name shop-apps-node --output text\n" +
		"ATTACHEDPOLICIES\tarn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy\tAmazonEKSWorkerNodePolicy\n" +
		"ATTACHEDPOLICIES\tarn:aws:iam::aws:policy/AmazonEKS_CNI_Policy\tAmazonEKS_CNI_Policy\n"
	segs := Segments([]byte(policies))
	if len(segs) != 1 || segs[0].Type != "aws:iam/list-attached-role-policies/<role-name>.json" {
		t.Fatalf("segments %v", types(segs))
	}
	if got := fmt.Sprint(layout.LookupAny(segs[0].value, "AttachedPolicies.1.PolicyName")); got != "AmazonEKS_CNI_Policy" {
		t.Errorf("second policy %q in %v", got, segs[0].value)
	}
	entries := "$ aws eks list-access-entries --cluster-name prod --output text\nACCESSENTRIES\tarn:aws:iam::111122223333:role/ng-role\nACCESSENTRIES\tarn:aws:iam::111122223333:role/admin\n"
	if segs := Segments([]byte(entries)); len(segs) != 1 || segs[0].Type != "aws:eks/list-access-entries.json" {
		t.Errorf("access entries: %v", types(segs))
	}
	odd := strings.Replace(policies, "ATTACHEDPOLICIES\tarn:aws:iam::aws:policy/AmazonEKS_CNI_Policy\tAmazonEKS_CNI_Policy", "POLICYNAMES\tinline", 1)
	if segs := Segments([]byte(odd)); len(segs) == 1 && strings.HasPrefix(string(segs[0].Type), "aws:") {
		t.Errorf("a row of another list read as the output: %v", types(segs))
	}
	attr := "$ aws ec2 describe-vpc-attribute --vpc-id vpc-0b4d6f8a1c3e5a792 --attribute enableDnsHostnames --output text\nvpc-0b4d6f8a1c3e5a792\nENABLEDNSHOSTNAMES\tFalse\n"
	if segs := Segments([]byte(attr)); len(segs) != 1 || !strings.HasPrefix(string(segs[0].Type), "aws:ec2/vpc-attribute") || fmt.Sprint(layout.LookupAny(segs[0].value, "EnableDnsHostnames.Value")) != "false" {
		t.Errorf("vpc attribute: %v", types(segs))
	}
	ev := Read([]byte("$ aws sts get-caller-identity --query Arn --output text\narn:aws:sts::111122223333:assumed-role/prod-eks-workers/i-0a1b2c3d4e5f67890\n"), "stdin", Options{}).Evidence
	if !ev.Have(evidence.KindNodeRole) || ev.NodeRole.Arn != "arn:aws:iam::111122223333:role/prod-eks-workers" {
		t.Errorf("node role from the caller identity: %+v (%v)", ev.NodeRole, ev.GapFor(evidence.KindNodeRole))
	}
}

// TestSentenceEndingInColonAfterYAML: a sentence of the poster's ending in a colon ("And here is
// another node that works fine:") under a YAML document that starts with "---" is prose, not a key
// of the document (a partial NodeConfig gained the unknown field "And here is another node that
// works fine" and failed bootstrap.nodeconfig-incomplete: mixed channel, case 441).
func TestSentenceEndingInColonAfterYAML(t *testing.T) {
	paste := "---\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    flags:\n      - --node-labels=role=spot\n\n\nAnd here is another node that works fine:\n\nNAME                          STATUS   ROLES    AGE   VERSION\nip-10-2-32-91.ec2.internal    Ready    <none>   17h   v1.31.4-eks-cc7316\n"
	segs := Segments([]byte(paste))
	if len(segs) != 3 || segs[0].Type != TypeNodeConfig || segs[2].Type == TypeNodeConfig {
		t.Fatalf("segments %v", types(segs))
	}
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if ev.Bootstrap == nil || len(ev.Bootstrap.Issues) != 0 {
		t.Errorf("NodeConfig issues %+v", ev.Bootstrap)
	}
}

// TestSentenceUnderLogCommandOutput: under a command that prints log lines (systemctl status,
// journalctl …) a paragraph of the poster's words ends the output: the log before it ends there
// (its last lines then end the log), and what follows is read apart. Under other commands'
// output (kubectl describe) such a paragraph stays in the output.
func TestSentenceUnderLogCommandOutput(t *testing.T) {
	log := "$ systemctl status kubelet -l\nip-10-0-1-2.ec2.internal kubelet[4093]: E0925 4093 kubelet.go:2192] Container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized\n"
	paste := log + "\n\nAnd here is another node that works fine:\n\nip-10-0-9-9.ec2.internal kubelet[1]: I0925 1 kubelet_node_status.go:76] Successfully registered node ip-10-0-9-9.ec2.internal\n"
	segs := Segments([]byte(paste))
	if len(segs) < 3 || segs[0].Type != TypeLog || segs[0].Last != 2 || segs[1].Type != TypeProse {
		t.Fatalf("segments %v", types(segs))
	}
	for _, c := range []string{"journalctl -u kubelet", "sudo tail -n 50 /var/log/messages", "kubectl logs -n kube-system aws-node-x"} {
		if !logsCommand(c) {
			t.Errorf("%q prints logs", c)
		}
	}
	for _, c := range []string{"kubectl describe node x", "aws eks describe-cluster --name x", ""} {
		if logsCommand(c) {
			t.Errorf("%q does not print logs", c)
		}
	}
}

// TestQueriedYAMLOutput: the `--output yaml` of a narrowing --query is put back into its command's
// output, as the JSON and text outputs are (a private cluster's resourcesVpcConfig was unread).
func TestQueriedYAMLOutput(t *testing.T) {
	paste := "$ aws eks describe-cluster --name fin-core --query 'cluster.resourcesVpcConfig' --output yaml\nsubnetIds:\n- subnet-0c52e8a17f4d93b06\nclusterSecurityGroupId: sg-0a4f7c1e93d28b650\nvpcId: vpc-0b7e3d91c5a24f816\nendpointPublicAccess: false\nendpointPrivateAccess: true\npublicAccessCidrs: []\n"
	segs := Segments([]byte(paste))
	if len(segs) != 1 || segs[0].Type != "aws:eks/describe-cluster.json" {
		t.Fatalf("segments %v", types(segs))
	}
	if got := fmt.Sprint(layout.LookupAny(segs[0].value, "cluster.resourcesVpcConfig.endpointPublicAccess")); got != "false" {
		t.Errorf("endpointPublicAccess %q", got)
	}
	if segs := Segments([]byte(strings.Replace(paste, " --output yaml", " --output json", 1))); len(segs) == 1 && segs[0].Type == "aws:eks/describe-cluster.json" {
		t.Errorf("YAML read under a command asking for JSON")
	}
}

// TestCustomColumnsNodes: `kubectl get nodes -o custom-columns=…` whose columns show the kubelet
// version and the Ready condition's status under names of the poster's gives the Nodes their
// version and readiness, as the default columns do.
func TestCustomColumnsNodes(t *testing.T) {
	paste := `$ kubectl get nodes -o custom-columns=NAME:.metadata.name,KUBELET:.status.nodeInfo.kubeletVersion,READY:.status.conditions[?(@.type=="Ready")].status,INSTANCE:.spec.providerID
NAME                                              KUBELET   READY   INSTANCE
ip-10-50-3-27.ap-southeast-1.compute.internal     v1.30.9   True    aws:///ap-southeast-1a/i-02a4c6e8b1d3f5a79
ip-10-50-12-166.ap-southeast-1.compute.internal   v1.33.3   False   aws:///ap-southeast-1c/i-07e9a1c3b5d7f9e24
`
	ev := Read([]byte(paste), "stdin", Options{}).Evidence
	if len(ev.Nodes) != 2 {
		t.Fatalf("nodes %+v", ev.Nodes)
	}
	if n := ev.Nodes[1]; n.KubeletVersion != "v1.33.3" || n.Ready || !ev.Nodes[0].Ready || n.ProviderID != "aws:///ap-southeast-1c/i-07e9a1c3b5d7f9e24" {
		t.Errorf("nodes %+v", ev.Nodes)
	}
}

// TestKeylessTextOutputIsNamed: the whole --output text of a describe command, whose rows carry
// values without their names, is named as such with what to paste instead, not taken for
// unrecognised text (blind pastes22/04, pastes20/06).
func TestKeylessTextOutputIsNamed(t *testing.T) {
	paste := "$ aws ec2 describe-nat-gateways --nat-gateway-ids nat-0d3f5b7a9c1e2d468 --output text\n" +
		"NATGATEWAYS\tpublic\t2023-08-21T19:40:11+00:00\t2025-11-03T22:17:45+00:00\tnat-0d3f5b7a9c1e2d468\tdeleted\tsubnet-0f2b4d6a8c1e3f570\tvpc-0d6f8a1c3e5b7d924\n" +
		"NATGATEWAYADDRESSES\teipalloc-0b1d3f5a7c9e2b468\tTrue\teni-0d7f9b1a3c5e7d024\t10.31.0.87\t15.156.82.44\tsucceeded\n" +
		"TAGS\tName\tclaims-ml-nat-ca-central-1d\n"
	segs := Segments([]byte(paste))
	if len(segs) != 1 || segs[0].Type != TypeData || !strings.Contains(segs[0].Problem, "--output json") || !strings.Contains(segs[0].Detail, "describe-nat-gateways") {
		t.Fatalf("segments %+v", segs)
	}
	// the same rows under a command line that asked for JSON are not named so
	if segs := Segments([]byte(strings.Replace(paste, "--output text", "", 1))); len(segs) == 1 && strings.Contains(segs[0].Problem, "--output json") {
		t.Errorf("without --output text: %+v", segs)
	}
}
