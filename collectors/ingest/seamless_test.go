package ingest

import (
	"fmt"
	"strings"
	"testing"
)

// Artefacts of a seamless paste: each ends with a line break and none starts or ends with a
// blank line.
const (
	seamNodes = "NAME                                       STATUS   ROLES    AGE   VERSION\n" +
		"ip-10-0-3-151.us-west-2.compute.internal   Ready    <none>   41d   v1.31.4-eks-aeac579\n" +
		"ip-10-0-9-27.us-west-2.compute.internal    Ready    <none>   41d   v1.31.4-eks-aeac579\n"
	seamJournal = "Apr 02 08:14:51 ip-10-0-17-88.us-west-2.compute.internal kubelet[2207]: I0402 08:14:51.402217    2207 kubelet_node_status.go:73] \"Attempting to register node\" node=\"ip-10-0-17-88.us-west-2.compute.internal\"\n" +
		"Apr 02 08:14:51 ip-10-0-17-88.us-west-2.compute.internal kubelet[2207]: E0402 08:14:51.733108    2207 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-17-88.us-west-2.compute.internal\"\n"
	seamX509      = "Apr 02 08:14:58 ip-10-0-17-88.us-west-2.compute.internal kubelet[2207]: E0402 08:14:58.771540    2207 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Post \\\"https://ABCDEF0123456789.gr7.us-west-2.eks.amazonaws.com/api/v1/nodes\\\": tls: failed to verify certificate: x509: certificate signed by unknown authority\" node=\"ip-10-0-17-88.us-west-2.compute.internal\"\n"
	seamCloudInit = "Apr 02 08:13:58 ip-10-0-17-88.us-west-2.compute.internal cloud-init[2748]: Cloud-init v. 19.3-46.amzn2.0.4 running 'modules:final' at Wed, 02 Apr 2025 08:13:58 +0000. Up 24.61 seconds.\n"
	// kubectl get cm -o yaml sorts the keys: kind comes long after apiVersion
	seamAWSAuth         = "apiVersion: v1\ndata:\n  mapRoles: |\n    - groups:\n      - system:bootstrappers\n      - system:nodes\n      rolearn: arn:aws:iam::111122223333:role/eks/prod-node-role\n      username: system:node:{{EC2PrivateDNSName}}\n    - groups:\n      - system:masters\n      rolearn: arn:aws:iam::111122223333:role/platform-admins\n      username: platform-admin\nkind: ConfigMap\nmetadata:\n  creationTimestamp: \"2024-01-29T10:07:52Z\"\n  name: aws-auth\n  namespace: kube-system\n  resourceVersion: \"88419023\"\n"
	seamGetRole         = "{\n    \"Role\": {\n        \"Path\": \"/eks/\",\n        \"RoleName\": \"prod-node-role\",\n        \"RoleId\": \"AROAEXAMPLEEXAMPLE01\",\n        \"Arn\": \"arn:aws:iam::111122223333:role/eks/prod-node-role\",\n        \"CreateDate\": \"2025-03-10T16:22:41+00:00\",\n        \"AssumeRolePolicyDocument\": {\n            \"Version\": \"2012-10-17\",\n            \"Statement\": [\n                {\n                    \"Effect\": \"Allow\",\n                    \"Principal\": {\n                        \"Service\": \"ec2.amazonaws.com\"\n                    },\n                    \"Action\": \"sts:AssumeRole\"\n                }\n            ]\n        },\n        \"MaxSessionDuration\": 3600\n    }\n}\n"
	seamCA              = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo="
	seamDescribeCluster = "{\n    \"cluster\": {\n        \"name\": \"prod\",\n        \"arn\": \"arn:aws:eks:us-west-2:111122223333:cluster/prod\",\n        \"version\": \"1.31\",\n        \"endpoint\": \"https://ABCDEF0123456789.gr7.us-west-2.eks.amazonaws.com\",\n        \"kubernetesNetworkConfig\": {\n            \"serviceIpv4Cidr\": \"10.100.0.0/16\",\n            \"ipFamily\": \"ipv4\"\n        },\n        \"status\": \"ACTIVE\",\n        \"certificateAuthority\": {\n            \"data\": \"" + seamCA + "\"\n        },\n        \"accessConfig\": {\n            \"authenticationMode\": \"API_AND_CONFIG_MAP\"\n        }\n    }\n}\n"
	seamNodeConfig      = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n    apiServerEndpoint: https://ABCDEF0123456789.gr7.us-west-2.eks.amazonaws.com\n    certificateAuthority: " + seamCA + "\n    cidr: 10.100.0.0/16\n  kubelet:\n    flags:\n      - --node-labels=pool=batch\n"
	seamScript          = "#!/bin/bash\nset -o xtrace\n/etc/eks/bootstrap.sh prod \\\n  --b64-cluster-ca '" + seamCA + "' \\\n  --apiserver-endpoint 'https://ABCDEF0123456789.gr7.us-west-2.eks.amazonaws.com' \\\n  --dns-cluster-ip 10.100.0.10\n/opt/aws/bin/cfn-signal --exit-code $? --stack prod-workers --resource NodeGroup --region us-west-2\n"
	seamRouteTable      = "        {\n            \"Associations\": [\n                {\n                    \"Main\": false,\n                    \"RouteTableAssociationId\": \"rtbassoc-0%[1]d\",\n                    \"RouteTableId\": \"rtb-0%[1]d\",\n                    \"SubnetId\": \"subnet-0%[1]d\"\n                }\n            ],\n            \"RouteTableId\": \"rtb-0%[1]d\",\n            \"Routes\": [\n                {\n                    \"DestinationCidrBlock\": \"0.0.0.0/0\",\n                    \"NatGatewayId\": \"nat-0%[1]d\",\n                    \"Origin\": \"CreateRoute\",\n                    \"State\": \"active\"\n                }\n            ],\n            \"VpcId\": \"vpc-0123456789abcdef0\",\n            \"OwnerId\": \"111122223333\"\n        }"
	seamStderr          = "An error occurred (UnauthorizedOperation) when calling the DescribeNatGateways operation: You are not authorized to perform this operation.\n"
)

// seamParts returns the segments of paste as "type first-last".
func seamParts(paste string) []string {
	var got []string
	for _, s := range Segments([]byte(paste)) {
		got = append(got, fmt.Sprintf("%s %d-%d", s.Type, s.First, s.Last))
	}
	return got
}

// TestSeamlessPaste: artefacts of different kinds pasted one under the other with no blank
// line, fence or prompt between them are read apart by their own grammar — a JSON document at
// column 0 under a log line up to its balanced end, whatever follows it (a script, a manifest, a
// log); a manifest under a log line whose other key (kind: or apiVersion:) comes further down its
// YAML; a log line stamped at column 0 right under a document's last line (blind pastes27: the
// journal swallowed aws-auth, get-role and describe-cluster, and a NodeConfig the kubelet lines
// under it, "user data does not parse").
func TestSeamlessPaste(t *testing.T) {
	n := func(s string) int { return strings.Count(s, "\n") }
	cases := []struct {
		name  string
		parts []string
		types []Type
	}{
		{"nodes table, journal, aws-auth, get-role",
			[]string{seamNodes, seamJournal, seamAWSAuth, seamGetRole},
			[]Type{TypeGetNodes, TypeLog, TypeAWSAuth, AWSType("iam/get-role/<role-name>.json")}},
		{"journal, describe-cluster, NodeConfig, journal",
			[]string{seamX509, seamDescribeCluster, seamNodeConfig, seamX509},
			[]Type{TypeLog, AWSType("eks/describe-cluster.json"), TypeNodeConfig, TypeLog}},
		{"cloud-init line, describe-cluster, user data script, journal",
			[]string{seamCloudInit, seamDescribeCluster, seamScript, seamX509},
			[]Type{TypeLog, AWSType("eks/describe-cluster.json"), TypeUserData, TypeLog}},
		{"describe-cluster, user data script, journal",
			[]string{seamDescribeCluster, seamScript, seamX509},
			[]Type{AWSType("eks/describe-cluster.json"), TypeUserData, TypeLog}},
		{"get-role, aws-auth, journal",
			[]string{seamGetRole, seamAWSAuth, seamJournal},
			[]Type{AWSType("iam/get-role/<role-name>.json"), TypeAWSAuth, TypeLog}},
		{"aws-auth, describe-cluster, NodeConfig",
			[]string{seamAWSAuth, seamDescribeCluster, seamNodeConfig},
			[]Type{TypeAWSAuth, AWSType("eks/describe-cluster.json"), TypeNodeConfig}},
		{"journal, describe-cluster, aws-auth",
			[]string{seamJournal, seamDescribeCluster, seamAWSAuth},
			[]Type{TypeLog, AWSType("eks/describe-cluster.json"), TypeAWSAuth}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var want []string
			first := 1
			for k, p := range c.parts {
				want = append(want, fmt.Sprintf("%s %d-%d", c.types[k], first, first+n(p)-1))
				first += n(p)
			}
			got := seamParts(strings.Join(c.parts, ""))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("segments:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestStderrInsideJSON: an AWS CLI error printed on stderr by a parallel command lands at column
// 0 in the middle of a JSON listing on stdout. The listing is read without it (both route tables),
// and the error line is kept as a log line of its own, not lost.
func TestStderrInsideJSON(t *testing.T) {
	listing := "{\n    \"RouteTables\": [\n" + fmt.Sprintf(seamRouteTable, 1) + ",\n" + seamStderr + fmt.Sprintf(seamRouteTable, 2) + "\n    ]\n}\n"
	paste := seamJournal + listing
	segs := Segments([]byte(paste))
	var got []string
	for _, s := range segs {
		got = append(got, fmt.Sprintf("%s %d-%d", s.Type, s.First, s.Last))
	}
	errLine := 2 + 2 + strings.Count(seamRouteTable, "\n") + 2
	rt := AWSType("ec2/describe-route-tables.json")
	want := []string{"log 1-2", fmt.Sprintf("%s 3-%d", rt, 2+strings.Count(listing, "\n")), fmt.Sprintf("log %d-%d", errLine, errLine)}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("segments:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(string(segs[1].Text), "rtb-02") || strings.Contains(string(segs[1].Text), "An error occurred") {
		t.Errorf("route tables text:\n%s", segs[1].Text)
	}
	if !strings.Contains(string(segs[2].Text), "DescribeNatGateways") {
		t.Errorf("error line segment: %q", segs[2].Text)
	}
}

// TestSeamlessPasteKeepsWholes: what only looks like a seam is none — a user data script that
// writes a JSON file with a heredoc keeps it, a log line followed by JSON that does not parse
// stays log, a shell's error report naming the bootstrap script stays log with the lines under
// it, and JSON documents back to back stay one part for the JSON reader.
func TestSeamlessPasteKeepsWholes(t *testing.T) {
	script := "#!/bin/bash\nset -ex\necho \"writing daemon config\"\ncat <<EOF > /etc/docker/daemon.json\n{\n  \"bridge\": \"none\"\n}\nEOF\n/etc/eks/bootstrap.sh prod\n"
	if got := seamParts(script); strings.Join(got, ",") != "userdata 1-9" {
		t.Errorf("script with a JSON heredoc: %v", got)
	}
	shellErr := "/etc/eks/bootstrap.sh: line 169: Copyright: unbound variable\nExited with error on line 302\n" + seamCloudInit
	if got := seamParts(shellErr); strings.Join(got, ",") != "log 1-3" {
		t.Errorf("a shell's error report above cloud-init's line: %v", got)
	}
	broken := seamJournal + "{\n    \"cluster\": {\n        \"name\": \"prod\",\n" + seamJournal
	for _, s := range Segments([]byte(broken)) {
		if s.Type != TypeLog && s.Type != TypeData {
			t.Errorf("a log around JSON that does not parse: %s %d-%d", s.Type, s.First, s.Last)
		}
	}
}
