package checks

// All returns every built-in check, from explicit lists (no init side effects).
func All() []Check {
	var out []Check
	for _, group := range [][]Check{clusterChecks(), nodegroupChecks(), iamChecks(), authChecks(), subnetChecks(),
		bootstrapChecks(), instanceChecks(), csrChecks(), windowsChecks(), networkChecks(), kubeChecks(), runtimeChecks(), provisionerChecks(), clusterRoleChecks(), stsChecks(), rootVolumeChecks(), kernelChecks()} {
		out = append(out, group...)
	}
	return out
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
