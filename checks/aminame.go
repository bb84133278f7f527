package checks

import (
	"regexp"
	"strings"
)

// EKS-optimized AMI names by family, as AWS publishes them: AL2 "amazon-eks-node-1.31-v20250123"
// (also -gpu-node- and -arm64-node-), AL2023 "amazon-eks-node-al2023-x86_64-standard-1.31-v…"
// (a local build of awslabs/amazon-eks-ami's Makefile names it amazon-eks-al2023[-arm64]-node-…),
// Bottlerocket "bottlerocket-aws-k8s-1.31-x86_64-v1.30.0-…", Windows
// "Windows_Server-2022-English-Core-EKS_Optimized-1.31-…".
var (
	reAMINameAL2023       = regexp.MustCompile(`^amazon-eks-(?:[a-z0-9-]*-)?(?:node-)?al2023-|^amazon-eks-al2023-`)
	reAMINameAL2          = regexp.MustCompile(`^amazon-eks-(?:gpu-|arm64-)?node-\d`)
	reAMINameBottlerocket = regexp.MustCompile(`^bottlerocket-aws-k8s-`)
	reAMINameWindows      = regexp.MustCompile(`^Windows_Server-\d{4}-.*EKS_Optimized`)
)

// amiNameFamily returns the AMI family an EKS-optimized AMI name (or name pattern) belongs to:
// "AL2", "AL2023", "Bottlerocket", "Windows"; "" for any other name (a custom image).
func amiNameFamily(name string) string {
	switch n := strings.TrimSpace(name); {
	case reAMINameAL2023.MatchString(n):
		return "AL2023"
	case reAMINameAL2.MatchString(n):
		return "AL2"
	case reAMINameBottlerocket.MatchString(n):
		return "Bottlerocket"
	case reAMINameWindows.MatchString(n):
		return "Windows"
	}
	return ""
}

// familyMismatch returns the first AMI name of names that is an EKS-optimized image of another
// family than fam (an EC2NodeClass's amiFamily), with that family; "" when none is.
func familyMismatch(fam string, names []string) (name, other string) {
	want := fam
	if strings.HasPrefix(fam, "Windows") {
		want = "Windows"
	}
	if want == "" || want == "Custom" {
		return "", ""
	}
	for _, n := range names {
		if f := amiNameFamily(n); f != "" && f != want {
			return n, f
		}
	}
	return "", ""
}
