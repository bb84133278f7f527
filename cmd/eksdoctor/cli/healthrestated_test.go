package cli

import "testing"

// TestHealthIssueRestatedBySTSCheck: a cluster whose only health issue is
// StsRegionalEndpointDisabled, with the kubelet Unauthorized, names iam.sts-regional-disabled
// first — cluster.health-issues restates the same issue; beside another issue (a deleted
// subnet) the health issues stay first. The kubelet's CNI lines, which follow from its
// Unauthorized, which follows from STS, are no cause of their own.
func TestHealthIssueRestatedBySTSCheck(t *testing.T) {
	kubelet := "$ journalctl -u kubelet --no-pager -n 3\n" +
		"Oct 06 19:14:02 ip-10-31-88-54.ca-central-1.compute.internal kubelet[2290]: I1006 19:14:02.617425    2290 kubelet_node_status.go:75] \"Attempting to register node\" node=\"ip-10-31-88-54.ca-central-1.compute.internal\"\n" +
		"Oct 06 19:14:02 ip-10-31-88-54.ca-central-1.compute.internal kubelet[2290]: E1006 19:14:02.702661    2290 kubelet_node_status.go:107] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-31-88-54.ca-central-1.compute.internal\"\n" +
		"Oct 06 19:14:05 ip-10-31-88-54.ca-central-1.compute.internal kubelet[2290]: E1006 19:14:05.935102    2290 controller.go:145] \"Failed to ensure lease exists, will retry\" err=\"Unauthorized\" interval=\"7s\"\n\n"
	issue := func(code, msg string) string {
		return `{"code": "` + code + `", "message": "` + msg + `", "resourceIds": ["arn:aws:iam::574120398861:role/c-role"]}`
	}
	cluster := func(issues ...string) string {
		s := "$ aws eks describe-cluster --name c --query 'cluster.{name:name,status:status,health:health}'\n" +
			`{"name": "c", "status": "ACTIVE", "health": {"issues": [`
		for i, is := range issues {
			if i > 0 {
				s += ", "
			}
			s += is
		}
		return s + "]}}\n\n"
	}
	sts := issue("StsRegionalEndpointDisabled", "STS regional endpoint is disabled in the ca-central-1 region for account 574120398861. Activate STS in this Region.")
	subnet := issue("Ec2SubnetNotFound", "One or more subnets were not found.")
	// the kubelet's CNI lines follow from its Unauthorized, which follows from STS refusing the
	// node's region: the CNI is no cause of its own
	cni := "$ journalctl -u kubelet --no-pager -n 5\n" +
		"Oct 06 19:14:02 ip-10-31-88-54.ca-central-1.compute.internal kubelet[2290]: E1006 19:14:02.702661    2290 kubelet_node_status.go:107] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-31-88-54.ca-central-1.compute.internal\"\n" +
		"Oct 06 19:14:03 ip-10-31-88-54.ca-central-1.compute.internal kubelet[2290]: E1006 19:14:03.118294    2290 kubelet.go:3117] \"Container runtime network not ready\" networkReady=\"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\"\n" +
		"Oct 06 19:14:05 ip-10-31-88-54.ca-central-1.compute.internal kubelet[2290]: E1006 19:14:05.935102    2290 controller.go:145] \"Failed to ensure lease exists, will retry\" err=\"Unauthorized\" interval=\"7s\"\n" +
		"Oct 06 19:14:08 ip-10-31-88-54.ca-central-1.compute.internal kubelet[2290]: E1006 19:14:08.118736    2290 kubelet.go:3117] \"Container runtime network not ready\" networkReady=\"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\"\n" +
		"Oct 06 19:14:09 ip-10-31-88-54.ca-central-1.compute.internal kubelet[2290]: E1006 19:14:09.779853    2290 kubelet_node_status.go:107] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-31-88-54.ca-central-1.compute.internal\"\n" +
		"[root@ip-10-31-88-54 ~]# aws sts get-caller-identity\n\n" +
		"An error occurred (RegionDisabledException) when calling the GetCallerIdentity operation: STS is not activated in this region for account:574120398861. Your account administrator can activate STS in this region using the IAM Console.\n"
	for _, c := range []struct{ name, paste, cause string }{
		{"the CNI not ready behind the Unauthorized", cni + cluster(sts), "iam.sts-regional-disabled"},
		{"only the STS issue", kubelet + cluster(sts), "iam.sts-regional-disabled"},
		{"the STS issue and a deleted subnet", kubelet + cluster(sts, subnet), "cluster.health-issues"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, r, _, errOut := analyze(t, c.paste, "-")
			if r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != c.cause {
				t.Errorf("cause %v, want %s; failing %v\n%s", r.Diagnosis.MostLikelyCause, c.cause, failing(r), errOut)
			}
		})
	}
}
