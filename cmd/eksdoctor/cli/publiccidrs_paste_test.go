package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestPublicCIDRsWithoutTheNodesRouteTable: a paste of describe-cluster (public endpoint only,
// publicAccessCidrs narrowed to an office range), the kubelet timing out on the endpoint's public
// address and the VPC's NAT gateways — but neither the instance's route table nor the instance —
// names net.endpoint-public-cidrs when every way out the paste shows (each NAT gateway's Elastic
// IP, the instance's own public address when it is given) is outside the CIDRs: whichever the
// node uses, the endpoint refuses it. One way inside, private access on, timeouts to a private
// address, CIDRs open to all, or no timeouts judge nothing. The address an echo service
// (curl checkip.amazonaws.com) saw a command typed on the node come from is the way out the node
// takes, when the paste shows it; one typed on a workstation is not the node's.
func TestPublicCIDRsWithoutTheNodesRouteTable(t *testing.T) {
	cluster := func(private bool, cidrs ...string) string {
		return "$ aws eks describe-cluster --name ledger --query cluster.resourcesVpcConfig --output yaml\n" +
			"subnetIds:\n- subnet-0aaa1111bbbb2222c\nvpcId: vpc-0123456789abcdef0\n" +
			"endpointPublicAccess: true\nendpointPrivateAccess: " + map[bool]string{true: "true", false: "false"}[private] + "\n" +
			"publicAccessCidrs:\n- " + strings.Join(cidrs, "\n- ") + "\n\n"
	}
	kubelet := func(addr string) string {
		return "$ journalctl -u kubelet --no-pager | tail -n 2\n" +
			"Nov 12 08:10:14 ip-10-9-3-14.eu-west-3.compute.internal kubelet[1722]: E1112 08:10:14.519611    1722 kubelet_node_status.go:95] \"Unable to register node with API server\" err=\"Post \\\"https://0A1B2C3D4E5F.gr7.eu-west-3.eks.amazonaws.com/api/v1/nodes\\\": dial tcp " + addr + ":443: i/o timeout\" node=\"ip-10-9-3-14.eu-west-3.compute.internal\"\n" +
			"Nov 12 08:10:44 ip-10-9-3-14.eu-west-3.compute.internal kubelet[1722]: E1112 08:10:44.520449    1722 controller.go:145] \"Failed to ensure lease exists, will retry\" err=\"Get \\\"https://0A1B2C3D4E5F.gr7.eu-west-3.eks.amazonaws.com/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/ip-10-9-3-14.eu-west-3.compute.internal?timeout=10s\\\": dial tcp " + addr + ":443: i/o timeout\" interval=\"7s\"\n\n"
	}
	nats := func(eips ...string) string {
		var rows []string
		for i, ip := range eips {
			rows = append(rows, "|  "+ip+"  |  nat-0abc1234def56789"+string(rune('0'+i))+"  |  available  |  subnet-0fff5555aaaa6666"+string(rune('0'+i))+"  |")
		}
		return "$ aws ec2 describe-nat-gateways --filter Name=vpc-id,Values=vpc-0123456789abcdef0 --query 'NatGateways[].{eip:NatGatewayAddresses[0].PublicIp,id:NatGatewayId,state:State,subnet:SubnetId}' --output table\n" +
			"---------------------------------------------------------------------------------\n" +
			"|                              DescribeNatGateways                              |\n" +
			"+-----------------+--------------------------+-------------+--------------------------+\n" +
			"|       eip       |           id             |    state    |         subnet           |\n" +
			"+-----------------+--------------------------+-------------+--------------------------+\n" +
			strings.Join(rows, "\n") + "\n" +
			"+-----------------+--------------------------+-------------+--------------------------+\n\n"
	}
	onNode := func(addr string) string {
		return "[ec2-user@ip-10-9-3-14 ~]$ curl -s https://checkip.amazonaws.com\n" + addr + "\n\n"
	}
	// nodeadm's hybrid lines make the paste's node a hybrid node; the prompt's host is the one
	// its kubelet journal was written on
	hybridEcho := "root@ip-10-9-3-14:~# nodeadm debug -c file:///etc/eks/nodeConfig.yaml --no-color\n" +
		"* Validating access to AWS SSM API endpoint [Success]\n* Validating NTP synchronization status [Success]\n" +
		"* Validating proxy configuration on the hybrid node [Success]\n* Validating access to Kubernetes API endpoint [Failed]\n" +
		"  └─ Error\n     └─ dialing 0A1B2C3D4E5F.gr7.eu-west-3.eks.amazonaws.com:443: dial tcp 52.47.118.40:443: i/o timeout\n" +
		"     └─ Remediation\n        └─ Ensure your network configuration allows the node to access the Kubernetes API endpoint.\n\n" +
		"root@ip-10-9-3-14:~# curl -s https://checkip.amazonaws.com\n198.51.100.74\n\n"
	for _, c := range []struct {
		name, paste string
		cause       string // "" when net.endpoint-public-cidrs may not fail
		mention     string
	}{
		{"every NAT gateway outside", cluster(false, "203.0.113.0/25", "198.51.100.14/32") + kubelet("52.47.118.40") + nats("54.249.31.177", "35.180.7.9"),
			"net.endpoint-public-cidrs", "54.249.31.177"},
		{"one NAT gateway inside", cluster(false, "203.0.113.0/25", "35.180.7.9/32") + kubelet("52.47.118.40") + nats("54.249.31.177", "35.180.7.9"), "", ""},
		{"private access on", cluster(true, "203.0.113.0/25") + kubelet("52.47.118.40") + nats("54.249.31.177"), "", ""},
		{"timeouts to a private address", cluster(false, "203.0.113.0/25") + kubelet("10.9.1.20") + nats("54.249.31.177"), "", ""},
		{"open to all", cluster(false, "0.0.0.0/0") + kubelet("52.47.118.40") + nats("54.249.31.177"), "", ""},
		{"no timeouts", cluster(false, "203.0.113.0/25") + nats("54.249.31.177"), "", ""},
		// a hybrid node on premises dials the public addresses even with private access on; its
		// site's address, as an echo service saw it from the node's shell, is outside the list
		{"hybrid node, private access on", cluster(true, "203.0.113.0/26") + hybridEcho + kubelet("52.47.118.40"), "net.endpoint-public-cidrs", "198.51.100.74"},
		// the address an echo service saw a request typed on the node come from is the way out
		{"the node's egress address outside, no NAT gateway", cluster(false, "203.0.113.0/25") + kubelet("52.47.118.40") + onNode("35.74.148.20"),
			"net.endpoint-public-cidrs", "35.74.148.20"},
		{"the node's egress address from Bottlerocket's admin container", cluster(false, "203.0.113.0/25") + kubelet("52.47.118.40") +
			"[root@admin]# curl -s ifconfig.me\n35.74.148.20\n\n", "net.endpoint-public-cidrs", "35.74.148.20"},
		{"the node's egress address outside, a NAT gateway inside", cluster(false, "203.0.113.0/25", "35.180.7.9/32") + kubelet("52.47.118.40") + nats("35.180.7.9") + onNode("35.74.148.20"),
			"net.endpoint-public-cidrs", "35.74.148.20"},
		{"the node's egress address inside", cluster(false, "203.0.113.0/25", "35.74.148.20/32") + kubelet("52.47.118.40") + onNode("35.74.148.20"), "", ""},
		{"a workstation's address", cluster(false, "203.0.113.0/25") + kubelet("52.47.118.40") + "dana@laptop:~$ curl -s https://checkip.amazonaws.com\n35.74.148.20\n\n", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, r, out, errOut := analyze(t, c.paste, "-")
			got := failing(r)
			if c.cause == "" {
				if slices.Contains(got, "net.endpoint-public-cidrs") {
					t.Errorf("net.endpoint-public-cidrs fails: %v\n%s", got, errOut)
				}
				return
			}
			if r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != c.cause {
				t.Errorf("cause %v (want %s), failing %v\n%s", r.Diagnosis.MostLikelyCause, c.cause, got, errOut)
			}
			if !strings.Contains(out, c.mention) {
				t.Errorf("output does not name %s:\n%s", c.mention, out)
			}
		})
	}
}
