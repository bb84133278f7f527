package awsapi

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// TestCollectBlockDeviceMappings: the AMI's and the launch template's block device mappings
// survive the EC2 wire protocol (imagesSet/blockDeviceMapping, launchTemplateData/
// blockDeviceMappingSet) and reach the evidence, as instance.root-volume-small reads them.
func TestCollectBlockDeviceMappings(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(fixtures, "healthy-al2023")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasPrefix(filepath.ToSlash(rel), "ec2/describe-launch-template-versions/") {
			b = []byte(strings.Replace(string(b), `"LaunchTemplateData": {`, `"LaunchTemplateData": {"BlockDeviceMappings": [{"DeviceName": "/dev/xvda", "Ebs": {"VolumeSize": 80, "VolumeType": "gp3"}}],`, 1))
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(fixtures)
	rel, err := filepath.Rel(abs, dir)
	if err != nil {
		t.Fatal(err)
	}
	clients, _ := fakeClients(t, rel, nil)
	res, err := Collect(context.Background(), clients, []string{"i-0a1b2c3d4e5f60001"}, Options{Region: "eu-west-1"})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := snapshot.FromFiles("aws:eu-west-1", res.Files).Evidence("i-0a1b2c3d4e5f60001", "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Image == nil || ev.Image.RootDeviceName != "/dev/xvda" || len(ev.Image.BlockDevices) != 1 || ev.Image.BlockDevices[0].SizeGiB != 20 {
		t.Errorf("image block devices = %+v", ev.Image)
	}
	if ev.LaunchTemplate == nil || len(ev.LaunchTemplate.BlockDevices) != 1 || ev.LaunchTemplate.BlockDevices[0].SizeGiB != 80 {
		t.Errorf("launch template block devices = %+v", ev.LaunchTemplate)
	}
}
