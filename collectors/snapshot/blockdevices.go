package snapshot

import "github.com/eksdoctor/eksdoctor/collectors/evidence"

// blockDevices converts the EBS mappings (ephemeral and NoDevice entries are left out).
func blockDevices(m []BlockDeviceMapping) []evidence.BlockDevice {
	var out []evidence.BlockDevice
	for _, b := range m {
		if b.Ebs != nil {
			out = append(out, evidence.BlockDevice{DeviceName: b.DeviceName, SizeGiB: b.Ebs.VolumeSize, SnapshotID: b.Ebs.SnapshotID})
		}
	}
	return out
}
