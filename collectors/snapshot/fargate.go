package snapshot

import (
	"encoding/json"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// DescribeFargateProfileOutput is the part of `aws eks describe-fargate-profile` output read here.
type DescribeFargateProfileOutput struct {
	FargateProfile struct {
		FargateProfileName  string   `json:"fargateProfileName"`
		Status              string   `json:"status"`
		PodExecutionRoleArn string   `json:"podExecutionRoleArn"`
		Subnets             []string `json:"subnets"`
		Selectors           []struct {
			Namespace string            `json:"namespace"`
			Labels    map[string]string `json:"labels"`
		} `json:"selectors"`
	} `json:"fargateProfile"`
}

// KubePod is the part of a Pod (kubectl get pods -o json) read here.
type KubePod struct {
	Metadata struct {
		Name      string            `json:"name"`
		Namespace string            `json:"namespace"`
		Labels    map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		SchedulerName string `json:"schedulerName"`
	} `json:"spec"`
	Status struct {
		Phase string `json:"phase"`
	} `json:"status"`
}

func init() { RegisterProvider(fargate, evidence.KindFargateProfiles, evidence.KindPendingPods) }

// fargate reads the cluster's Fargate profiles (list-fargate-profiles, then each
// describe-fargate-profile file), each profile's pod execution role from the iam/ files, and the
// Pending pods; the list file says the profiles were read (an empty list is a fact).
func fargate(s *Snapshot, ev *evidence.Evidence) {
	const list = "eks/list-fargate-profiles.json"
	ok, _, reason := Decode(s, list, func(*struct{}) {})
	var profiles []evidence.FargateProfile
	for _, p := range s.dirFiles("eks/describe-fargate-profile") {
		Decode(s, p, func(o *DescribeFargateProfileOutput) {
			f := o.FargateProfile
			fp := evidence.FargateProfile{Name: f.FargateProfileName, Status: f.Status, PodExecutionRoleArn: f.PodExecutionRoleArn, Subnets: f.Subnets}
			for _, sel := range f.Selectors {
				fp.Selectors = append(fp.Selectors, evidence.FargateSelector{Namespace: sel.Namespace, Labels: sel.Labels})
			}
			if name := f.PodExecutionRoleArn[strings.LastIndexByte(f.PodExecutionRoleArn, '/')+1:]; name != "" {
				rok, _, _ := Decode(s, "iam/get-role/"+name+".json", func(o *GetRoleOutput) {
					r := convertRole(o.Role)
					fp.Role = &r
				})
				pok, _, _ := Decode(s, "iam/list-attached-role-policies/"+name+".json", func(o *ListAttachedRolePoliciesOutput) {
					for _, ap := range o.AttachedPolicies {
						fp.RolePolicies = append(fp.RolePolicies, evidence.AttachedPolicy{Name: ap.PolicyName, Arn: ap.PolicyArn})
					}
				})
				fp.RoleRead = rok && pok
			}
			profiles = append(profiles, fp)
		})
	}
	switch {
	case ok || len(profiles) > 0:
		ev.Fargate.Profiles = profiles
		src := s.Src(list)
		if !ok {
			src = s.Src("eks/describe-fargate-profile/")
		}
		ev.Mark(evidence.KindFargateProfiles, src)
	default:
		ev.AddGap(evidence.KindFargateProfiles, reason)
	}

	p := s.kubePath("pending-pods")
	res, why := decodeKubeItems(s, p, func(raw json.RawMessage) error {
		var pod KubePod
		if err := json.Unmarshal(raw, &pod); err != nil {
			return err
		}
		if pod.Status.Phase == "Pending" {
			ev.Fargate.PendingPods = append(ev.Fargate.PendingPods, evidence.PendingPod{Namespace: pod.Metadata.Namespace, Name: pod.Metadata.Name,
				SchedulerName: pod.Spec.SchedulerName, Labels: pod.Metadata.Labels})
		}
		return nil
	})
	s.markKube(ev, evidence.KindPendingPods, res, why, p)
}
