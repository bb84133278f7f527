package snapshot

import (
	"strings"
	"unicode/utf8"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

func init() {
	RegisterProviderAt(StageResources, (*Snapshot).loadImage, evidence.KindImage)
	RegisterProviderAt(StageResources, (*Snapshot).loadInstanceType, evidence.KindInstanceType)
	RegisterProviderAt(StageResources, (*Snapshot).loadConsoleOutput, evidence.KindConsoleOutput, evidence.KindNodeLogs)
}

// instanceOf returns the ec2/describe-instances.json entry of ev's target instance; nil for the
// cluster's evidence (and before StageInstance).
func (s *Snapshot) instanceOf(ev *evidence.Evidence) *EC2Instance {
	if ev.Instance == nil {
		return nil
	}
	return s.instanceIndex().byID[ev.Target.InstanceID]
}

// loadImage reads the instance's AMI from ec2/describe-images.json.
func (s *Snapshot) loadImage(ev *evidence.Evidence) {
	inst := s.instanceOf(ev)
	if inst == nil {
		return
	}
	p := "ec2/describe-images.json"
	res, reason := decodeInto(s, p, func(o *DescribeImagesOutput) {
		for _, im := range o.Images {
			if im.ImageID == inst.ImageID {
				ev.Image = &evidence.Image{ID: im.ImageID, Name: im.Name, Description: im.Description, Platform: im.Platform, PlatformDetails: im.PlatformDetails, OwnerID: im.OwnerID,
					RootDeviceName: im.RootDeviceName, BlockDevices: blockDevices(im.BlockDeviceMappings)}
			}
		}
	})
	s.markFound(ev, evidence.KindImage, res, reason, p, ev.Image != nil, "image "+inst.ImageID)
}

// loadInstanceType reads the instance's type (ENI and address limits) from
// ec2/describe-instance-types.json.
func (s *Snapshot) loadInstanceType(ev *evidence.Evidence) {
	inst := s.instanceOf(ev)
	if inst == nil {
		return
	}
	p := "ec2/describe-instance-types.json"
	res, reason := decodeInto(s, p, func(o *DescribeInstanceTypesOutput) {
		for _, it := range o.InstanceTypes {
			if it.InstanceType == inst.InstanceType {
				ev.InstanceType = &evidence.InstanceType{Name: it.InstanceType, MaxENIs: it.NetworkInfo.MaximumNetworkInterfaces, IPv4PerENI: it.NetworkInfo.IPv4AddressesPerInterface}
			}
		}
	})
	s.markFound(ev, evidence.KindInstanceType, res, reason, p, ev.InstanceType != nil, "instance type "+inst.InstanceType)
}

// loadConsoleOutput reads the instance's serial console output (ec2 get-console-output) and
// scans it with the signature catalog as the node's logs; a denied read is the node logs' gap
// too. The cluster's evidence has no console.
func (s *Snapshot) loadConsoleOutput(ev *evidence.Evidence) {
	id := ev.Target.InstanceID
	if id == "" {
		return
	}
	p := "ec2/get-console-output/" + id + ".json"
	res, reason := decodeInto(s, p, func(o *ConsoleOutputOutput) {
		co := &evidence.ConsoleOutput{Text: o.Output, Timestamp: o.Timestamp.Time}
		if b, err := decodeStdBase64(o.Output); err == nil && utf8.Valid(b) && len(o.Output) > 0 && !strings.ContainsAny(o.Output, " \n") {
			co.Text = string(b) // the raw API value is base64; the CLI prints it decoded
		}
		ev.ConsoleOutput = co
	})
	s.markFound(ev, evidence.KindConsoleOutput, res, reason, p, true, "")
	if g := ev.GapFor(evidence.KindConsoleOutput); !ev.Have(evidence.KindConsoleOutput) && g.Permission != "" {
		ev.AddGap(evidence.KindNodeLogs, g.Reason) // the console was the node-log source here
	}
	if ev.ConsoleOutput != nil && ev.ConsoleOutput.Text != "" {
		// the serial console carries cloud-init, nodeadm, bootstrap.sh and Bottlerocket
		// boot messages: the same signature scan as a node log bundle
		sc := logscan.MustDefault()
		sc.Ref = ev.ConsoleOutput.Timestamp
		if sc.Ref.IsZero() {
			sc.Ref = ev.CollectedAt
		}
		if err := sc.Scan(strings.NewReader(ev.ConsoleOutput.Text), p, "console"); err == nil {
			ev.NodeLogs = sc.Result("console")
			ev.Mark(evidence.KindNodeLogs, s.src(p))
		}
	}
}
