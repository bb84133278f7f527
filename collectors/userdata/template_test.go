package userdata

import "testing"

// TestTemplatePlaceholdersAreUnresolved (blind pastes13/08, pastes4/02): user data quoted from a
// Terraform heredoc or a CloudFormation !Sub still holds the template's placeholders, which the
// node never sees: the join values they stand for are unknown (Unresolved), not values to
// compare with the cluster's, in PowerShell, NodeConfig and Bottlerocket TOML alike; literal
// values are read as before.
func TestTemplatePlaceholdersAreUnresolved(t *testing.T) {
	for name, ud := range map[string]string{
		"windows":    "<powershell>\n[string]$EKSBootstrapScriptFile = \"$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1\"\n& $EKSBootstrapScriptFile -EKSClusterName \"payments-prod\" -APIServerEndpoint \"${var.cluster_endpoint}\" -Base64ClusterCA \"${var.cluster_ca}\" 3>&1 4>&1 5>&1 6>&1\n</powershell>\n",
		"nodeconfig": "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: payments-prod\n    apiServerEndpoint: ${aws_eks_cluster.this.endpoint}\n    certificateAuthority: ${aws_eks_cluster.this.certificate_authority[0].data}\n    cidr: 10.100.0.0/16\n",
		"toml":       "[settings.kubernetes]\ncluster-name = \"payments-prod\"\napi-server = \"${aws_eks_cluster.this.endpoint}\"\ncluster-certificate = \"${Cluster.CertificateAuthorityData}\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			c := Decode([]byte(ud))
			if c.ClusterName != "payments-prod" || c.APIServerEndpoint != "" || c.CertificateAuthority != "" {
				t.Errorf("name %q endpoint %q CA %q", c.ClusterName, c.APIServerEndpoint, c.CertificateAuthority)
			}
			if c.Unresolved["apiServerEndpoint"] == "" || c.Unresolved["certificateAuthority"] == "" {
				t.Errorf("unresolved %v", c.Unresolved)
			}
			if !c.CallsBootstrap {
				t.Error("the join is still configured")
			}
		})
	}
}
