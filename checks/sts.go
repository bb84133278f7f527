package checks

import (
	"fmt"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	idSTSRegional     = "iam.sts-regional-disabled"
	issueSTSRegional  = "StsRegionalEndpointDisabled"
	stsCheckDocsIssue = "https://docs.aws.amazon.com/eks/latest/APIReference/API_ClusterIssue.html"
)

// stsChecks judge whether STS is active in the region: the cluster's own health issue
// StsRegionalEndpointDisabled and what the node's logs say (RegionDisabledException,
// InvalidClientTokenId from GetCallerIdentity, connection failures to the global endpoint). No Describe/Get/List call shows whether a region's
// STS endpoint is activated, so these are the only evidence. An STS endpoint the node cannot
// reach (no NAT, no sts interface endpoint) is net.vpc-endpoints-missing.
func stsChecks() []Check {
	return []Check{
		{Meta: Meta{ID: idSTSRegional, ClusterWide: true, Title: "STS is not activated in the region", Severity: SeverityHigh,
			NeedsAny: []evidence.Kind{evidence.KindCluster, evidence.KindNodeLogs}, Stage: StageIdentity,
			Explains: explains("runtime.unauthorized", "runtime.exec-credential-failed"),
			Why: "The node's token for the API server is a presigned sts:GetCallerIdentity request for the regional STS endpoint, which the control plane's authenticator replays to learn the node's role. " +
				"When an administrator has deactivated STS for the account in that region, the request fails with RegionDisabledException or InvalidClientTokenId, so the token proves nothing and the kubelet is Unauthorized; EKS reports the same as the cluster health issue StsRegionalEndpointDisabled. A node whose SDK still calls the global endpoint sts.amazonaws.com fails the same way in a private subnet, whose sts interface endpoint serves only the regional name.",
			Remediation: "Activate STS in the region: IAM console → Account settings → Security Token Service (STS) → Endpoints → activate the region (an Organizations SCP may also deny it); make the node's SDKs use the regional endpoint (AWS_STS_REGIONAL_ENDPOINTS=regional, or an SDK recent enough to default to it). " +
				"If the node simply cannot reach STS (no NAT gateway, no com.amazonaws.REGION.sts interface endpoint), see net.vpc-endpoints-missing instead.",
			Docs: []string{docSTSRegional, stsCheckDocsIssue}},
			Eval: evalSTSRegional},
	}
}

func evalSTSRegional(ev *evidence.Evidence) []Finding {
	var fails []Finding
	var clusterPass, logs *Finding
	if ev.Have(evidence.KindCluster) {
		c := ev.Cluster
		src := ev.Source(evidence.KindCluster)
		for _, is := range c.HealthIssues {
			if strings.EqualFold(is.Code, issueSTSRegional) {
				fails = append(fails, fail(c.Arn, fmt.Sprintf("cluster %s reports %s: %s", c.Name, is.Code, is.Message),
					item(src, "health.issues: %s %s", is.Code, strings.Join(is.ResourceIDs, ", "))))
			}
		}
		if len(fails) == 0 {
			f := pass(c.Arn, fmt.Sprintf("cluster %s reports no %s health issue", c.Name, issueSTSRegional), item(src, "%d health issue%s", len(c.HealthIssues), plural(int64(len(c.HealthIssues)))))
			clusterPass = &f
		}
	}
	if ev.Have(evidence.KindNodeLogs) {
		for _, f := range evalSignatures(idSTSRegional)(ev) {
			if f.Status == StatusFail {
				fails = append(fails, f)
			} else if logs == nil {
				f := f
				logs = &f
			}
		}
	}
	switch {
	case len(fails) > 0:
		return fails
	case logs != nil && logs.Status == StatusPass:
		return one(*logs)
	}
	// Nothing the node wrote could show it: the cluster's silence alone does not clear the
	// node (its token can fail while the control plane's own STS calls succeed), so the
	// question stays open.
	f := Finding{Status: StatusSkipped, Resource: targetName(ev)}
	if logs != nil {
		f = *logs
	} else {
		f.Message = "node logs: " + ev.GapFor(evidence.KindNodeLogs).Reason
	}
	if clusterPass != nil {
		f.Message += "; " + clusterPass.Message
		f.Evidence = append(f.Evidence, clusterPass.Evidence...)
	}
	return one(f)
}
