package checks

import "github.com/eksdoctor/eksdoctor/collectors/evidence"

// All returns every built-in check, from explicit lists (no init side effects).
func All() []Check {
	var out []Check
	for _, group := range [][]Check{clusterChecks(), nodegroupChecks(), iamChecks(), authChecks(), subnetChecks(),
		bootstrapChecks(), instanceChecks(), csrChecks(), windowsChecks(), networkChecks(), kubeChecks(), runtimeChecks(), structuredKarpenter(provisionerChecks()), karpenterChecks(), clusterRoleChecks(), stsChecks(), rootVolumeChecks(), kernelChecks()} {
		out = append(out, group...)
	}
	for _, group := range registered {
		out = append(out, group()...)
	}
	return withAppliesTo(withCloudTrail(out))
}

// registered are the check groups files register for themselves (registerChecks), in the
// order the files' init functions run (the files' names, sorted).
var registered []func() []Check

// registerChecks adds a group of checks to All; call it from an init function of the file that
// defines them, so an evidence kind's checks need no edit here (docs/design.md, "Adding an AWS
// evidence kind").
func registerChecks(group func() []Check) { registered = append(registered, group) }

// appliesTo lists the checks that judge only some provisioners' nodes (Meta.AppliesTo): the
// node group checks do not apply to Karpenter, Auto Mode, Fargate or hybrid nodes.
var appliesTo = map[string][]string{
	"nodegroup.health-issues":              {evidence.ProvisionerManagedNodegroup},
	"nodegroup.lt-custom-sg-no-cluster-sg": {evidence.ProvisionerManagedNodegroup},
	"nodegroup.lt-network-interfaces":      {evidence.ProvisionerManagedNodegroup},
	"nodegroup.asg-launch-failures":        nodegroupLike,
	// EKS Auto Mode writes and manages its instances' user data
	// (https://docs.aws.amazon.com/eks/latest/userguide/automode.html): an empty one is not the
	// cause there
	"bootstrap.no-bootstrap": {evidence.ProvisionerManagedNodegroup, evidence.ProvisionerSelfManaged, evidence.ProvisionerKarpenter, evidence.ProvisionerHybrid},
}

func withAppliesTo(list []Check) []Check {
	for i := range list {
		if a, ok := appliesTo[list[i].Meta.ID]; ok && len(list[i].Meta.AppliesTo) == 0 {
			list[i].Meta.AppliesTo = a
		}
	}
	return list
}

// Default returns the registry of all built-in checks. It panics only if the built-in
// metadata is incomplete, which TestRegistryComplete prevents.
func Default() *Registry {
	r, err := NewRegistry(All()...)
	if err != nil {
		panic(err)
	}
	return r
}

// Metas returns the metadata of every check in r, keyed by ID (for Diagnose).
func (r *Registry) Metas() map[string]Meta {
	m := make(map[string]Meta, len(r.checks))
	for _, c := range r.checks {
		m[c.Meta.ID] = c.Meta
	}
	return m
}
