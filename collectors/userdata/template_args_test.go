package userdata

import (
	"strings"
	"testing"
)

// Rule: a template's placeholder (Terraform's ${var.x}, CloudFormation's ${AWS::Region}) in a
// bootstrap.sh call is a value known only once the template is rendered. As the cluster name it
// is named as written, not cut at its first dot; after the cluster name it may hold options
// (terraform-aws-eks passes ${bootstrap_extra_args} there), so it is never "an extra
// positional argument bootstrap.sh ignores" — as an unset shell variable there is not either.
func TestBootstrapShTemplateValuesAreUnknownNotExtraArguments(t *testing.T) {
	for _, c := range []struct {
		args, cluster string
	}{
		{"${aws_eks_cluster.this.name} ${var.bootstrap_extra_args}", "${aws_eks_cluster.this.name}"},
		{"${ClusterName} ${BootstrapArguments}", "$ClusterName"},
		{"$CLUSTER $EXTRA_ARGS", "$CLUSTER"},
	} {
		cfg := Decode(bootstrapScript(c.args))
		if got := issuesOf(cfg); strings.Contains(got, "extra positional") {
			t.Errorf("%s: issues:\n%s", c.args, got)
		}
		if cfg.ClusterName != "" || !strings.Contains(cfg.Unresolved["clusterName"], c.cluster) {
			t.Errorf("%s: cluster %q, unresolved %q; want %s unresolved", c.args, cfg.ClusterName, cfg.Unresolved["clusterName"], c.cluster)
		}
	}
	if u := Decode(bootstrapScript("${var.cluster_name}")).Unresolved["clusterName"]; !strings.Contains(u, "template value") {
		t.Errorf("unresolved %q, want it named a template value", u)
	}
	// a literal extra word is still one bootstrap.sh ignores
	if got := issuesOf(Decode(bootstrapScript("prod extra-word"))); !strings.Contains(got, `bootstrap.sh ignores extra positional arguments ["extra-word"]`) {
		t.Errorf("literal extra argument: issues:\n%s", got)
	}
}
