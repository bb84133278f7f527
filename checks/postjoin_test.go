package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// notJoinedCustomSG is healthyEvidence without the node's Node, the node in its own security
// group sg-node (all egress, no ingress) and the cluster security group admitting TCP 443 from
// it: the node reaches the API server; the control plane cannot reach its kubelet on 10250.
func notJoinedCustomSG() *evidence.Evidence {
	ev := healthyEvidence()
	ev.Nodes = nil
	ev.CSRs = nil
	ev.Instance.SecurityGroupIDs = []string{"sg-node"}
	ev.SecurityGroups[0].Ingress = append(ev.SecurityGroups[0].Ingress, evidence.SGRule{Protocol: "tcp", FromPort: 443, ToPort: 443, GroupIDs: []string{"sg-node"}})
	ev.SecurityGroups = append(ev.SecurityGroups, evidence.SecurityGroup{ID: "sg-node", VpcID: "vpc-1", Egress: ev.SecurityGroups[0].Egress})
	return ev
}

func concludeAll(ev *evidence.Evidence) ([]Finding, Diagnosis) {
	metas := map[string]Meta{}
	for _, c := range All() {
		metas[c.Meta.ID] = c.Meta
	}
	fs := Run(All(), ev)
	return fs, Conclude(fs, metas, ev)
}

// TestKubeletPortIsNoJoinCause (red team 8a, finding 5, case65): a node security group that does
// not admit TCP 10250 from the control plane was named the most likely cause of a node not
// joining. The kubelet registers by calling the API server on 443; the control plane dials 10250
// only for logs, exec, port-forward and metrics. A blocked kubelet flow alone is a warning of
// what fails after the join, under net.sg-control-plane-ingress or, with launch template
// security groups, nodegroup.lt-custom-sg-no-cluster-sg — never a failure ranked as the cause.
func TestKubeletPortIsNoJoinCause(t *testing.T) {
	lt := func(ev *evidence.Evidence) {
		ev.LaunchTemplate = &evidence.LaunchTemplateVersion{ID: "lt-1", Version: 1, SecurityGroupIDs: []string{"sg-node"}}
		ev.Mark(evidence.KindLaunchTemplate, "test")
	}
	for _, tc := range []struct {
		name, id string
		change   func(*evidence.Evidence)
	}{
		{"node security group", "net.sg-control-plane-ingress", nil},
		{"launch template security group", "nodegroup.lt-custom-sg-no-cluster-sg", lt},
	} {
		ev := notJoinedCustomSG()
		if tc.change != nil {
			tc.change(ev)
		}
		fs, d := concludeAll(ev)
		var got *Finding
		for i := range fs {
			if fs[i].ID == tc.id {
				got = &fs[i]
			}
			if fs[i].Status == StatusFail {
				t.Errorf("%s: %s fails: %s", tc.name, fs[i].ID, fs[i].Message)
			}
		}
		if got == nil || got.Status != StatusWarn || !strings.Contains(got.Message, "flow kubelet blocked at security group ingress") ||
			!strings.Contains(got.Message, "allows tcp 10250") || !strings.Contains(got.Message, "not what keeps a node from registering") ||
			!strings.Contains(got.Message, "kubectl logs") {
			t.Errorf("%s: %s = %+v", tc.name, tc.id, got)
		}
		// (healthyEvidence leaves Fargate and Karpenter evidence uncollected: those checks are
		// unchecked for a node without a Node; no network check may be)
		if d.Verdict == VerdictCauseFound || d.MostLikelyCause != "" {
			t.Errorf("%s: verdict %s, cause %q (%s)", tc.name, d.Verdict, d.MostLikelyCause, d.Summary)
		}
		for _, u := range d.Unchecked {
			if strings.HasPrefix(u.ID, "net.") || strings.HasPrefix(u.ID, "nodegroup.") {
				t.Errorf("%s: %s unchecked: %s", tc.name, u.ID, u.Reason)
			}
		}
	}
	// 443 blocked as well: the API-server flow still fails and is the cause
	ev := notJoinedCustomSG()
	ev.SecurityGroups[0].Ingress = ev.SecurityGroups[0].Ingress[:1]
	_, d := concludeAll(ev)
	if d.Verdict != VerdictCauseFound || d.MostLikelyCause != "net.sg-control-plane-ingress" {
		t.Errorf("443 blocked: verdict %s, cause %q", d.Verdict, d.MostLikelyCause)
	}
}

// TestBlockedEgressIsTheEgressCheck (red team 8a, finding 9, case03): a launch template's node
// security group whose egress allows only TCP 443 to the cluster security group blocked every AWS
// service flow; the failure was filed under nodegroup.lt-custom-sg-no-cluster-sg while
// net.sg-node-egress — the check that judges node egress — was skipped "cannot verify: ec2:
// blocked at security group egress", and so were the other network checks, listed as unchecked.
// Now net.sg-node-egress fails with the evidence and no network check is unchecked because of a
// flow another check found blocked past the routes.
func TestBlockedEgressIsTheEgressCheck(t *testing.T) {
	ev := notJoinedCustomSG()
	ev.LaunchTemplate = &evidence.LaunchTemplateVersion{ID: "lt-1", Version: 1, SecurityGroupIDs: []string{"sg-node"}}
	ev.Mark(evidence.KindLaunchTemplate, "test")
	ev.SecurityGroups[1].Egress = []evidence.SGRule{{Protocol: "tcp", FromPort: 443, ToPort: 443, GroupIDs: []string{"sg-cluster"}}}
	ev.SecurityGroups[1].Ingress = []evidence.SGRule{{Protocol: "tcp", FromPort: 10250, ToPort: 10250, GroupIDs: []string{"sg-cluster"}}}
	fs, d := concludeAll(ev)
	var egress, lt *Finding
	for i := range fs {
		switch fs[i].ID {
		case "net.sg-node-egress":
			egress = &fs[i]
		case "nodegroup.lt-custom-sg-no-cluster-sg":
			if fs[i].Status == StatusFail && strings.Contains(fs[i].Message, "egress") {
				lt = &fs[i]
			}
		}
	}
	if egress == nil || egress.Status != StatusFail || !strings.Contains(egress.Message, "flows ec2, ecr.api, ecr.dkr, sts, s3 blocked at security group egress") ||
		!strings.Contains(egress.Message, "no egress rule of sg-node allows tcp 443 to 0.0.0.0/0") {
		t.Errorf("net.sg-node-egress = %+v", egress)
	}
	if lt != nil {
		t.Errorf("egress filed under the launch template check: %s", lt.Message)
	}
	if d.MostLikelyCause != "net.sg-node-egress" {
		t.Errorf("cause %q (%v)", d.MostLikelyCause, d.Ranked)
	}
	for _, u := range d.Unchecked {
		if strings.HasPrefix(u.ID, "net.") || strings.HasPrefix(u.ID, "nodegroup.") {
			t.Errorf("%s unchecked: %s", u.ID, u.Reason)
		}
	}
}

// TestS3EndpointPolicyIsNoJoinCause (red team 8a, finding 8, case73): an S3 gateway endpoint
// policy that does not allow ECR's layer bucket was named the cause of a node with no Node. No
// image is pulled to register (EKS AMIs cache the pause image: amazon-eks-ami
// templates/al2023/provisioners/cache-pause-container.sh); the node registers and stays NotReady
// when aws-node cannot be pulled. For a node not seen joined it is a warning saying so; for a
// joined NotReady node it stays the failing cause of NotReady.
func TestS3EndpointPolicyIsNoJoinCause(t *testing.T) {
	restrict := func(ev *evidence.Evidence) {
		makePrivate(ev)
		endpoint(ev, "s3").Policy = &evidence.PolicyDocument{Statement: []evidence.PolicyStatement{{Effect: "Allow", Action: []string{"s3:GetObject"}, Resource: []string{"arn:aws:s3:::mine/*"}}}}
	}
	find := func(fs []Finding) *Finding {
		for i := range fs {
			if fs[i].ID == "net.s3-endpoint-policy" {
				return &fs[i]
			}
		}
		return nil
	}
	ev := healthyEvidence()
	ev.Nodes, ev.CSRs = nil, nil
	restrict(ev)
	fs, d := concludeAll(ev)
	if f := find(fs); f == nil || f.Status != StatusWarn || !strings.Contains(f.Message, "starport-layer-bucket") ||
		!strings.Contains(f.Message, "not what keeps a node from registering") || !strings.Contains(f.Message, "NotReady") {
		t.Errorf("not joined: %+v", f)
	}
	if d.MostLikelyCause == "net.s3-endpoint-policy" {
		t.Errorf("not joined: named the cause (%s)", d.Summary)
	}

	ev = healthyEvidence()
	ev.Nodes[0].Ready = false
	restrict(ev)
	fs, d = concludeAll(ev)
	if f := find(fs); f == nil || f.Status != StatusFail || strings.Contains(f.Message, "not what keeps") {
		t.Errorf("joined NotReady: %+v", f)
	}
	if d.Verdict != VerdictJoined || d.MostLikelyCause != "net.s3-endpoint-policy" {
		t.Errorf("joined NotReady: verdict %s cause %q", d.Verdict, d.MostLikelyCause)
	}
}
