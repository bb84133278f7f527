package checks

import (
	"regexp"
	"slices"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// reInstanceTypeName splits an EC2 instance type name into family, generation and attributes
// ("c7gn.xlarge" → c, 7, gn). Source: Amazon EC2 Instance Types guide, "Amazon EC2 instance
// type naming conventions" (https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html):
// the attribute "g" marks AWS Graviton processors.
var reInstanceTypeName = regexp.MustCompile(`^([a-z]+)(\d+)([a-z-]*)\.[a-z0-9-]+$`)

// instanceTypeArch returns the CPU architecture of an EC2 instance type as EC2 names it:
// "arm64" for AWS Graviton types (the "g" attribute after the generation, as in m7g, c7gn,
// x2gd, is4gen, and the first-generation a1), "x86_64" for the other current families, and ""
// when the name does not parse or the family is mac (Apple silicon and Intel share it).
func instanceTypeArch(t string) string {
	m := reInstanceTypeName.FindStringSubmatch(t)
	switch {
	case m == nil || m[1] == "mac":
		return ""
	case m[1] == "a" && m[2] == "1", strings.Contains(m[3], "g"):
		return "arm64"
	}
	return "x86_64"
}

// execFormatBinaries returns the binaries (the failing lines' paths, else "a node binary") that
// the failing hits say cannot be executed with ENOEXEC, "Exec format error": the kernel does not
// recognise the file as a program for this CPU. cloud-init's user-data scripts are left out (a
// script part without #! fails the same way, a user-data fault with its own signature).
func execFormatBinaries(hits []evidence.SignatureHit) []string {
	var out []string
	for _, h := range hits {
		texts := append([]string{h.First.Text, h.Last.Text}, h.Facts["detail"]...)
		hit := false
		for _, s := range texts {
			l := strings.ToLower(s)
			if strings.Contains(l, "exec format error") && !strings.Contains(l, "/var/lib/cloud/") {
				hit = true
			}
		}
		if !hit {
			continue
		}
		for _, d := range h.Facts["detail"] {
			p, _, _ := strings.Cut(d, ":")
			if p = strings.TrimSpace(p); strings.HasPrefix(p, "/") && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
		if len(out) == 0 {
			out = append(out, "a node binary")
		}
	}
	return out
}

// execFormatRemediation is the fix for binaries that fail with "Exec format error" on an EKS
// node: the AMI is built for the other CPU architecture than the instance type (an x86_64 AMI
// on a Graviton type, or an arm64 AMI on an x86 one; EKS nodes are one of the two). The
// instance type's architecture is named when the evidence has the type; the AMI SSM parameter
// is that of the node's AMI family ("Retrieve recommended Amazon Linux AMI IDs" in the EKS user
// guide, Bottlerocket's QUICKSTART-EKS.md).
func execFormatRemediation(ev *evidence.Evidence, bins []string) string {
	itype, arch := "", ""
	if ev.Instance != nil {
		itype = ev.Instance.InstanceType
		arch = instanceTypeArch(itype)
	}
	version := "VERSION"
	if ev.Cluster != nil && ev.Cluster.Version != "" {
		version = ev.Cluster.Version
	}
	var b strings.Builder
	b.WriteString(strings.Join(bins, ", ") + " fails with \"Exec format error\": it is built for another CPU architecture than the instance's. ")
	var want string
	switch arch {
	case "arm64":
		b.WriteString(itype + " is an AWS Graviton (arm64) instance type, so the AMI is an x86_64 one. ")
		want = "arm64"
	case "x86_64":
		b.WriteString(itype + " is an x86_64 instance type, so the AMI is an arm64 (Graviton) one. ")
		want = "x86_64"
	default:
		b.WriteString("An x86_64 AMI on an AWS Graviton (arm64) instance type, or an arm64 AMI on an x86_64 one: compare aws ec2 describe-instance-types --instance-types TYPE --query 'InstanceTypes[].ProcessorInfo.SupportedArchitectures' with aws ec2 describe-images --image-ids AMI --query 'Images[].Architecture'. ")
		want = "ARCH"
	}
	fam, _ := amiFamily(ev)
	var param string
	switch fam {
	case FamilyBottlerocket:
		param = "/aws/service/bottlerocket/aws-k8s-" + version + "/" + want + "/latest/image_id"
	case FamilyAL2:
		suffix := map[string]string{"arm64": "-arm64", "x86_64": "", "ARCH": "[-arm64]"}[want]
		param = "/aws/service/eks/optimized-ami/" + version + "/amazon-linux-2" + suffix + "/recommended/image_id"
	default:
		param = "/aws/service/eks/optimized-ami/" + version + "/amazon-linux-2023/" + want + "/standard/recommended/image_id"
	}
	b.WriteString("Launch an AMI of the instance type's architecture (aws ssm get-parameter --name " + param +
		"; build a custom AMI for that architecture too), or pick an instance type of the AMI's; in a mixed-instances group or a Karpenter NodePool keep each architecture with its own AMI.")
	return b.String()
}

// reArchMismatch matches EC2's refusal of an instance type and an AMI of different
// architectures, in RunInstances' words ("The architecture 'arm64' of the specified instance
// type does not match the architecture 'x86_64' of the specified AMI", InvalidParameterValue)
// and in Auto Scaling's ("The requested instance type's architecture (arm64) does not match the
// architecture in the manifest for ami-… (x86_64)"). Groups: the instance type's architecture
// (1 or 3) and the AMI's (2 or 4).
var reArchMismatch = regexp.MustCompile(`architecture '([\w-]+)' of the specified instance type does not match the architecture '([\w-]+)' of the specified AMI|instance type's architecture \(([\w-]+)\) does not match the architecture in the manifest for ami-[0-9a-f]+ \(([\w-]+)\)`)

// archMismatch returns the instance type's and the AMI's architectures EC2 names in an
// architecture-mismatch error, and false for any other text.
func archMismatch(text string) (typeArch, amiArch string, ok bool) {
	m := reArchMismatch.FindStringSubmatch(text)
	if m == nil {
		return "", "", false
	}
	if m[1] != "" {
		return m[1], m[2], true
	}
	return m[3], m[4], true
}

// archMismatchRemediation is the fix for a launch EC2 refused because the instance type and the
// AMI have different architectures: an AMI of the instance type's architecture (the EKS AMI SSM
// parameter for it), or, in an Auto Scaling group with mixed-instances overrides or a Karpenter
// NodePool spanning both, one launch template (or EC2NodeClass AMI) per architecture.
func archMismatchRemediation(ev *evidence.Evidence, typeArch, amiArch string) string {
	version := "VERSION"
	if ev.Cluster != nil && ev.Cluster.Version != "" {
		version = ev.Cluster.Version
	}
	return "EC2 refuses the launch: the instance type is " + typeArch + " and the AMI is " + amiArch +
		". Give instance types of that architecture an AMI built for it (EKS AMI: aws ssm get-parameter --name /aws/service/eks/optimized-ami/" + version + "/amazon-linux-2023/" + typeArch +
		"/standard/recommended/image_id), or keep to instance types of the AMI's architecture. In a mixed-instances Auto Scaling group, list only one architecture's types in the overrides, or give the other architecture's overrides their own launch template (LaunchTemplateSpecification per override); with Karpenter, restrict the NodePool's kubernetes.io/arch or let the EC2NodeClass select an AMI of each architecture."
}

// archMismatchFix returns archMismatchRemediation for the first of texts that is an EC2
// architecture-mismatch error, or "".
func archMismatchFix(ev *evidence.Evidence, texts ...string) string {
	for _, s := range texts {
		if t, a, ok := archMismatch(s); ok {
			return archMismatchRemediation(ev, t, a)
		}
	}
	return ""
}
