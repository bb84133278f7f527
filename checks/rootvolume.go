package checks

import (
	"fmt"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const (
	docEKSAMIBuild      = "https://docs.aws.amazon.com/eks/latest/userguide/eks-optimized-ami.html"
	docBottlerocketDisk = "https://bottlerocket.dev/en/os/latest/concepts/"
	// minNodeDiskGiB is what the EKS-optimized Linux AMIs (AL2, AL2023) give the root volume and
	// Bottlerocket its data volume; minWindowsDiskGiB the EKS Windows AMIs' root volume.
	minNodeDiskGiB    = 20
	minWindowsDiskGiB = 50
)

// rootVolumeChecks judge the size of the disk that holds images, containers and logs.
func rootVolumeChecks() []Check {
	return []Check{
		{Meta: Meta{ID: "instance.root-volume-small", Title: "The node's image and container disk is smaller than the EKS AMIs ship with", Severity: SeverityMedium,
			Needs: []evidence.Kind{evidence.KindInstance, evidence.KindImage}, Optional: []evidence.Kind{evidence.KindLaunchTemplate, evidence.KindNodegroups, evidence.KindNodeLogs},
			Stage: StagePostJoin, Explains: []string{"runtime.disk-pressure"},
			Why: "Container images, writable layers and logs live on the root volume (on Bottlerocket, on the second, data volume). The EKS-optimized AL2 and AL2023 AMIs give it 20 GiB, Bottlerocket's data volume 20 GiB and the Windows AMIs 50 GiB; " +
				"a smaller disk (typically a custom AMI built with an 8 GiB snapshot) fills with the first images, the kubelet reports DiskPressure, taints the node and evicts pods, and image pulls fail with 'no space left on device'. " +
				"The AMI's mapping is the size only when the launch set none: without the launch template (or for an instance launched without one, whose RunInstances call may set the size) a small AMI mapping is a warning.",
			Remediation: "Give the node a larger volume: in the launch template's BlockDeviceMappings set Ebs.VolumeSize to 20 GiB or more for the AMI's root device (for Bottlerocket, /dev/xvdb), or diskSize on a managed node group without a launch template, then replace the nodes " +
				"(aws ec2 create-launch-template-version --launch-template-id LT --source-version N --launch-template-data '{\"BlockDeviceMappings\":[{\"DeviceName\":\"/dev/xvda\",\"Ebs\":{\"VolumeSize\":50,\"VolumeType\":\"gp3\"}}]}').",
			Docs: []string{docEKSAMIBuild, docBottlerocketDisk, docEviction}},
			Eval: evalRootVolume},
	}
}

func evalRootVolume(ev *evidence.Evidence) []Finding {
	im := ev.Image
	in := ev.Instance
	imgSrc := ev.Source(evidence.KindImage)
	if len(im.BlockDevices) == 0 {
		return one(Finding{Status: StatusSkipped, Resource: in.ID, Message: fmt.Sprintf("describe-images shows no block device mappings of %s", im.ID)})
	}
	if ev.Provisioner.Kind == evidence.ProvisionerAutoMode {
		// the Auto Mode AMI's OS volume is small by design; pods and images use the volume the
		// NodeClass's ephemeralStorage sizes (80 GiB by default;
		// https://docs.aws.amazon.com/eks/latest/userguide/create-node-class.html)
		return one(notApplicable(in.ID, "EKS Auto Mode nodes keep images and pods on the NodeClass's ephemeralStorage volume, not the AMI's OS volume ("+ev.Provisioner.Because+")"))
	}
	family, _ := amiFamily(ev)
	device, role := im.RootDeviceName, "root volume"
	if family == FamilyBottlerocket {
		// Bottlerocket's OS volume is small and read-only by design; images go to the data volume.
		device, role = "", "data volume"
		for _, b := range im.BlockDevices {
			if b.DeviceName != im.RootDeviceName {
				device = b.DeviceName
				break
			}
		}
	}
	if device == "" {
		return one(Finding{Status: StatusSkipped, Resource: in.ID, Message: fmt.Sprintf("the %s of %s is not among its block device mappings", role, im.ID)})
	}
	size, from := 0, ""
	for _, b := range im.BlockDevices {
		if b.DeviceName == device {
			size, from = b.SizeGiB, fmt.Sprintf("AMI %s maps %s to %d GiB", im.ID, device, b.SizeGiB)
		}
	}
	items := []EvidenceItem{item(imgSrc, "%s", from)}
	// The AMI's mapping is the size only when the launch set none: what the instance was
	// launched with is known from its launch template; without one (Terraform's aws_instance,
	// run-instances) RunInstances' own BlockDeviceMappings may have raised it.
	launchUnknown := ""
	if lt := ev.LaunchTemplate; lt == nil || !ev.Have(evidence.KindLaunchTemplate) {
		launchUnknown = ev.GapFor(evidence.KindLaunchTemplate).Reason
	}
	if lt := ev.LaunchTemplate; lt != nil && ev.Have(evidence.KindLaunchTemplate) {
		for _, b := range lt.BlockDevices {
			if b.DeviceName == device && b.SizeGiB > 0 {
				size, from = b.SizeGiB, fmt.Sprintf("launch template %s version %d sets %s to %d GiB", lt.ID, lt.Version, device, b.SizeGiB)
				items = append(items, item(ev.Source(evidence.KindLaunchTemplate), "%s", from))
			}
		}
	}
	if size == 0 {
		return one(Finding{Status: StatusSkipped, Resource: in.ID, Message: fmt.Sprintf("no size is recorded for %s (%s)", device, role), Evidence: items})
	}
	floor := minNodeDiskGiB
	if family == FamilyWindows || isWindows(ev) {
		floor = minWindowsDiskGiB
	}
	// What the node itself wrote about its disk corroborates (or contradicts) the size.
	var logNote string
	if ev.Have(evidence.KindNodeLogs) {
		if t := judgeTestimony(ev.NodeLogs, "runtime.disk-pressure"); t.state == testimonyFailing {
			logNote = fmt.Sprintf("; the node's logs show it: %s", t.failing[0].Meaning)
			for _, h := range t.failing {
				items = append(items, hitItem(ev.Source(evidence.KindNodeLogs), h))
			}
		}
	}
	if size < floor && logNote == "" && launchUnknown != "" {
		return one(warn(in.ID, fmt.Sprintf("the AMI's %d GiB is only the default: %s, so the size the launch gave the %s %s is not in the evidence (RunInstances' BlockDeviceMappings, Terraform's root_block_device, may raise it to %d GiB or more): check it with aws ec2 describe-volumes --filters Name=attachment.instance-id,Values=%s",
			size, launchUnknown, role, device, floor, in.ID), items...))
	}
	if size < floor {
		return one(fail(in.ID, fmt.Sprintf("the node's %s %s is %d GiB (%s), below the %d GiB the EKS AMIs give it%s", role, device, size, from, floor, logNote), items...))
	}
	if logNote != "" {
		return one(warn(in.ID, fmt.Sprintf("the node's %s %s is %d GiB, yet it ran out of space%s: its images or logs outgrow it", role, device, size, logNote), items...))
	}
	return one(pass(in.ID, fmt.Sprintf("the node's %s %s is %d GiB (%s)", role, device, size, from), items...))
}
