package cli

import (
	"slices"
	"testing"
)

// TestVPCDNSFromOneAttributeOrTerraform: `aws ec2 describe-vpc-attribute` pasted alone for the
// one attribute that is off fails net.vpc-dns-disabled (the other attribute's output is not
// needed to say DNS is broken), while one attribute that is on cannot say DNS is fine; an
// aws_vpc resource declared without enable_dns_hostnames (the AWS provider's default is false)
// fails it too, and one that turns both on does not; so does the terraform-aws-modules/vpc
// module turning enable_dns_hostnames off (its own default is on), with blank lines inside
// its block.
func TestVPCDNSFromOneAttributeOrTerraform(t *testing.T) {
	attr := func(name, v string) string {
		return "$ aws ec2 describe-vpc-attribute --vpc-id vpc-0abc1234def567890 --attribute " + name + "\n{\n    \"VpcId\": \"vpc-0abc1234def567890\",\n    \"" +
			map[string]string{"enableDnsHostnames": "EnableDnsHostnames", "enableDnsSupport": "EnableDnsSupport"}[name] + "\": {\n        \"Value\": " + v + "\n    }\n}\n"
	}
	tf := func(flags string) string {
		return "resource \"aws_vpc\" \"demo\" {\n  cidr_block = \"10.0.0.0/16\"\n" + flags + "\n  tags = \"${\n    map(\n     \"Name\", \"terraform-eks-demo-node\",\n    )\n  }\"\n}\n\n" +
			"resource \"aws_subnet\" \"demo\" {\n  count = 2\n  vpc_id = \"${aws_vpc.demo.id}\"\n  cidr_block = \"10.0.${count.index}.0/24\"\n}\n"
	}
	for _, c := range []struct {
		name, paste string
		status      string
	}{
		{"hostnames off, alone", attr("enableDnsHostnames", "false"), "fail"},
		{"support off, alone", attr("enableDnsSupport", "false"), "fail"},
		{"hostnames on, alone", attr("enableDnsHostnames", "true"), "skipped"},
		{"both on", attr("enableDnsHostnames", "true") + "\n" + attr("enableDnsSupport", "true"), "pass"},
		{"terraform, hostnames left to the default", tf(""), "fail"},
		{"terraform, hostnames off", tf("  enable_dns_hostnames = false\n  enable_dns_support = true"), "fail"},
		{"terraform vpc module, hostnames off, blank lines in the block", "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"5.8.1\"\n\n  name = \"prod\"\n  cidr = \"10.0.0.0/16\"\n\n  enable_nat_gateway   = true\n  enable_dns_hostnames = false\n}\n", "fail"},
		{"terraform vpc module, defaults (not read)", "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n\n  name = \"prod\"\n  cidr = \"10.0.0.0/16\"\n}\n", ""},
		{"terraform, both on (not read: nothing to say)", tf("  enable_dns_hostnames = true\n  enable_dns_support   = true"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, r, _, errOut := analyze(t, c.paste, "-")
			got := ""
			for _, f := range r.Findings {
				if f.ID == "net.vpc-dns-disabled" {
					got = f.Status
				}
			}
			if got != c.status {
				t.Errorf("net.vpc-dns-disabled %q, want %q; failing %v\n%s", got, c.status, failing(r), errOut)
			}
			if c.status == "fail" && !slices.Equal(failing(r), []string{"net.vpc-dns-disabled"}) {
				t.Errorf("failing %v, want only net.vpc-dns-disabled", failing(r))
			}
		})
	}
}
