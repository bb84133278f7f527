package cli

import "testing"

// TestNoCredentialsWithIMDSDisabled: with the instance metadata endpoint refusing the node
// (nodeadm's GetUserData 403), the AWS CLI's "Unable to locate credentials" typed on the node is
// a consequence — the instance profile's credentials come from IMDS — so instance.imds ranks
// above iam.no-instance-profile, whichever signatures read the CLI's line.
func TestNoCredentialsWithIMDSDisabled(t *testing.T) {
	paste := "[root@localhost ~]# journalctl -u nodeadm-config --no-pager\n" +
		"May 27 11:20:44 localhost nodeadm[1871]: info init/init.go:65 Loading configuration.. {\"configSource\": [\"imds://user-data\"], \"configCache\": \"/run/eks/nodeadm/config.json\"}\n" +
		"May 27 11:20:44 localhost nodeadm[1871]: warn configprovider/chain.go:30 Encountered error in config provider {\"error\": \"operation error ec2imds: GetUserData, http response error StatusCode: 403, request to EC2 IMDS failed\"}\n" +
		"May 27 11:20:44 localhost nodeadm[1871]: fatal cli/main.go:35 Command failed {\"error\": \"config provider at index 0 failed: operation error ec2imds: GetUserData, http response error StatusCode: 403, request to EC2 IMDS failed\"}\n" +
		"[root@localhost ~]# aws sts get-caller-identity\n\n" +
		"Unable to locate credentials. You can configure credentials by running \"aws configure\".\n"
	_, r, _, errOut := analyze(t, paste, "-")
	if r.Diagnosis.MostLikelyCause == nil || *r.Diagnosis.MostLikelyCause != "instance.imds" {
		t.Fatalf("cause %v, want instance.imds; failing %v\n%s", r.Diagnosis.MostLikelyCause, failing(r), errOut)
	}
}
