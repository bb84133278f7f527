package evidence

// Fargate evidence (docs/snapshot-format.md: eks/list-fargate-profiles.json,
// eks/describe-fargate-profile/<name>.json, kube/pending-pods.json).
const (
	// KindFargateProfiles are the cluster's Fargate profiles with their pod execution roles.
	KindFargateProfiles Kind = "eks:fargate-profiles"
	// KindPendingPods are the cluster's pods in phase Pending.
	KindPendingPods Kind = "kube:pending-pods"
)

// FargateProfile is one DescribeFargateProfile answer, with its pod execution role when the
// role's iam/get-role and list-attached-role-policies files were read.
type FargateProfile struct {
	Name   string
	Status string
	// PodExecutionRoleArn is the role Fargate's kubelet authenticates as.
	PodExecutionRoleArn string
	Subnets             []string
	Selectors           []FargateSelector
	// Role and RolePolicies are the pod execution role (nil / no policies when not read:
	// RoleRead says whether they were).
	Role         *Role
	RolePolicies []AttachedPolicy
	RoleRead     bool
}

// FargateSelector selects pods by namespace and, when Labels is not empty, by every label.
type FargateSelector struct {
	Namespace string
	Labels    map[string]string
}

// PendingPod is a pod in phase Pending.
type PendingPod struct {
	Namespace, Name string
	SchedulerName   string
	Labels          map[string]string
}

// Fargate is the cluster's Fargate evidence: its profiles and its Pending pods.
type Fargate struct {
	Profiles    []FargateProfile
	PendingPods []PendingPod
}
