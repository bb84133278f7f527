package snapshot

import "github.com/eksdoctor/eksdoctor/collectors/evidence"

func init() {
	RegisterProviderAt(StageResources, (*Snapshot).loadAutoScaling, evidence.KindAutoScaling, evidence.KindScalingActivities)
}

// loadAutoScaling reads the region's Auto Scaling groups and the scaling activities of each group
// (one describe-scaling-activities file per group; the kind needs every file readable).
func (s *Snapshot) loadAutoScaling(ev *evidence.Evidence) {
	p := "autoscaling/describe-auto-scaling-groups.json"
	res, reason := decodeInto(s, p, func(o *DescribeAutoScalingGroupsOutput) {
		for _, g := range o.AutoScalingGroups {
			asg := evidence.AutoScalingGroup{Name: g.AutoScalingGroupName, Tags: tagMap(g.Tags)}
			for _, i := range g.Instances {
				asg.InstanceIDs = append(asg.InstanceIDs, i.InstanceID)
			}
			ev.AutoScalingGroups = append(ev.AutoScalingGroups, asg)
		}
	})
	s.markFound(ev, evidence.KindAutoScaling, res, reason, p, true, "")

	files := s.dirFiles("autoscaling/describe-scaling-activities")
	if len(files) == 0 {
		ev.AddGap(evidence.KindScalingActivities, s.missing("autoscaling/describe-scaling-activities/"))
		return
	}
	for _, f := range files {
		res, reason := decodeInto(s, f, func(o *DescribeScalingActivitiesOutput) {
			for _, a := range o.Activities {
				ev.ScalingActivities = append(ev.ScalingActivities, evidence.ScalingActivity{AutoScalingGroup: a.AutoScalingGroupName, StatusCode: a.StatusCode,
					StatusMessage: a.StatusMessage, Description: a.Description, StartTime: a.StartTime.Time})
			}
		})
		if res != readOK {
			ev.AddGap(evidence.KindScalingActivities, reason)
			return
		}
	}
	ev.Mark(evidence.KindScalingActivities, s.src("autoscaling/describe-scaling-activities/"))
}
