package checks

import "testing"

func TestAMINameFamily(t *testing.T) {
	for name, want := range map[string]string{
		"amazon-eks-node-1.31-v20250123":                        "AL2",
		"amazon-eks-gpu-node-1.29-*":                            "AL2",
		"amazon-eks-arm64-node-1.30-v20240807":                  "AL2",
		"amazon-eks-node-al2023-x86_64-standard-1.31-v20250123": "AL2023",
		"amazon-eks-node-al2023-arm64-nvidia-1.32-*":            "AL2023",
		"amazon-eks-al2023-arm64-node-1.33-v20250701":           "AL2023",
		"bottlerocket-aws-k8s-1.31-x86_64-v1.30.0-1a2b3c4d":     "Bottlerocket",
		"Windows_Server-2022-English-Core-EKS_Optimized-1.31-*": "Windows",
		"amazon-eks-node-*":                                     "", // AL2 and AL2023 images both match
		"my-golden-eks-node-1.31":                               "",
		"al2023-ami-2023.6.20250115.0-kernel-6.1-x86_64":        "",
	} {
		if got := amiNameFamily(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if n, f := familyMismatch("Custom", []string{"amazon-eks-node-1.31-v20250123"}); n != "" || f != "" {
		t.Errorf("Custom family judged: %s %s", n, f)
	}
	if n, f := familyMismatch("Windows2022", []string{"Windows_Server-2022-English-Core-EKS_Optimized-1.31-*"}); n != "" {
		t.Errorf("Windows judged a mismatch: %s %s", n, f)
	}
}
