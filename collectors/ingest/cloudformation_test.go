package ingest

import (
	"strings"
	"testing"
)

// TestCloudFormationUserDataIsRendered: a CloudFormation launch template or launch
// configuration pasted into a ticket holds the node's user data in the template language —
// short-form tags (!Sub, !Base64), the long form in YAML flow style as the 2019
// amazon-eks-nodegroup.yaml wrote it (Fn::Join over Refs), or a JSON template with Fn::Sub's
// variable map. Each is read as the user data CloudFormation renders (never "log (text)"):
// a parameter is a value set at deploy time, a variable the template gives literally is that
// value, and an exit before the bootstrap.sh call is seen.
func TestCloudFormationUserDataIsRendered(t *testing.T) {
	for _, c := range []struct {
		name, text string
		cluster    string // "" when the cluster name is a parameter
		unreached  bool
		resource   string
	}{
		{"short form, exit first", `Our nodes never join. The launch template from our stack:

  NodeLaunchTemplate:
    Type: AWS::EC2::LaunchTemplate
    Properties:
      LaunchTemplateData:
        ImageId: !Ref NodeImageId
        IamInstanceProfile:
          Arn: !GetAtt NodeInstanceProfile.Arn
        UserData:
          Fn::Base64: !Sub |
            #!/bin/bash
            set -o xtrace
            exit 0
            /etc/eks/bootstrap.sh ${ClusterName} ${BootstrapArguments}
            /opt/aws/bin/cfn-signal --exit-code $? --stack ${AWS::StackName} --resource NodeGroup --region ${AWS::Region}
`, "", true, "AWS::EC2::LaunchTemplate NodeLaunchTemplate"},
		{"!Base64 over a long-form Fn::Sub", `NodeLaunchConfig:
  Type: AWS::AutoScaling::LaunchConfiguration
  Properties:
    ImageId: !Ref NodeImageId
    UserData: !Base64
      "Fn::Sub": |
        #!/bin/bash
        set -o xtrace
        /etc/eks/bootstrap.sh ${ClusterName} ${BootstrapArguments}
        /opt/aws/bin/cfn-signal --exit-code $? \
                 --stack  ${AWS::StackName} \
                 --resource NodeGroup  \
                 --region ${AWS::Region}
`, "", false, "AWS::AutoScaling::LaunchConfiguration NodeLaunchConfig"},
		{"Fn::Join in flow style", `  NodeLaunchConfig:
    Type: AWS::AutoScaling::LaunchConfiguration
    Properties:
      IamInstanceProfile: !Ref NodeInstanceProfile
      UserData:
        Fn::Base64:
          Fn::Join: [
            "",
            [
              "#!/bin/bash\n",
              "set -o xtrace\n",
              "/etc/eks/bootstrap.sh ", { Ref: ClusterName }, " ", { Ref: BootstrapArguments }, "\n",
              "/opt/aws/bin/cfn-signal --exit-code $? ",
              "         --stack ", { Ref: "AWS::StackName" },
              "         --resource NodeGroup ",
              "         --region ", { Ref: "AWS::Region" }, "\n"
            ]
          ]
`, "", false, "AWS::AutoScaling::LaunchConfiguration NodeLaunchConfig"},
		{"JSON with Fn::Sub variables", `{"Resources": {"NodeLaunchTemplate": {"Type": "AWS::EC2::LaunchTemplate", "Properties": {"LaunchTemplateData": {
 "UserData": {"Fn::Base64": {"Fn::Sub": ["#!/bin/bash\n/etc/eks/bootstrap.sh ${ClusterName} --apiserver-endpoint ${Endpoint}\n", {"ClusterName": "prod-eks", "Endpoint": {"Fn::GetAtt": ["Cluster", "Endpoint"]}}]}}}}}}}
`, "prod-eks", false, "AWS::EC2::LaunchTemplate NodeLaunchTemplate"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Read([]byte(c.text), "ticket.txt", Options{})
			var got []string
			seen := false
			for _, s := range r.Segments {
				got = append(got, string(s.Type)+":"+s.Detail)
				if s.Type == TypeLog {
					t.Errorf("read as a log: %v", got)
				}
				seen = seen || strings.Contains(s.Detail, "CloudFormation UserData of "+c.resource)
			}
			if !seen {
				t.Errorf("segments %v: none names the CloudFormation UserData of %s", got, c.resource)
			}
			b := r.Evidence.Bootstrap
			if b == nil {
				t.Fatalf("segments %v: no node configuration", got)
			}
			if (b.BootstrapUnreached != "") != c.unreached {
				t.Errorf("unreached %q, want %v", b.BootstrapUnreached, c.unreached)
			}
			if c.unreached {
				return
			}
			if !b.CallsBootstrap {
				t.Fatalf("bootstrap %+v, want the bootstrap.sh call", b)
			}
			if b.ClusterName != c.cluster {
				t.Errorf("cluster %q, want %q", b.ClusterName, c.cluster)
			}
			if c.cluster == "" && !strings.Contains(b.Unresolved["clusterName"], "$ClusterName") {
				t.Errorf("unresolved %v, want the ClusterName parameter", b.Unresolved)
			}
			if c.cluster != "" && !strings.Contains(b.Unresolved["apiServerEndpoint"], "${Cluster.Endpoint}") {
				t.Errorf("unresolved %v, want the endpoint as the template's attribute", b.Unresolved)
			}
			for _, i := range b.Issues {
				if strings.Contains(i.Message, "extra positional") {
					t.Errorf("issue %q: a parameter after the cluster name may hold options", i.Message)
				}
			}
		})
	}
}

// TestCloudFormationAliasBombIsBounded: YAML aliases that multiply a template past the node
// budget are not rendered (no blow-up); the paste is still read.
func TestCloudFormationAliasBombIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [\"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\"]\n")
	prev := "a"
	for i := 0; i < 9; i++ {
		name := string(rune('b' + i))
		b.WriteString(name + ": &" + name + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n")
		prev = name
	}
	b.WriteString("Res:\n  Type: AWS::EC2::LaunchTemplate\n  Properties:\n    LaunchTemplateData:\n      UserData: !Base64 |\n        #!/bin/bash\n        /etc/eks/bootstrap.sh prod\n")
	if _, ok := cloudFormationYAML([]byte(b.String())); ok {
		t.Errorf("a template of more than %d nodes through its aliases was rendered", cfnMaxNodes)
	}
}
