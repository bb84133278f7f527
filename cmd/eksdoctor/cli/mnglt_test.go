package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManagedNodeGroupTemplateWithoutAMIIsNotTheUserData: a managed node group whose launch
// template sets no AMI gets EKS's bootstrap merged into its instances' user data, so when the
// instance's own user data was not read (not collected, denied) the template's empty user data
// does not make bootstrap.no-bootstrap fail (red team 4): the user data is missing evidence.
func TestManagedNodeGroupTemplateWithoutAMIIsNotTheUserData(t *testing.T) {
	dir := copyDir(t, filepath.Join(fixtures, "snapshots", "healthy-al2023"))
	lt := filepath.Join(dir, "ec2", "describe-launch-template-versions", "lt-0abc1234def567890.json")
	var doc map[string]any
	b, _ := os.ReadFile(lt)
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	data := doc["LaunchTemplateVersions"].([]any)[0].(map[string]any)["LaunchTemplateData"].(map[string]any)
	delete(data, "ImageId")
	delete(data, "UserData")
	b, _ = json.Marshal(doc)
	if err := os.WriteFile(lt, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "ec2", "instance-user-data")); err != nil {
		t.Fatal(err)
	}
	_, out, errOut := run("why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", dir, "-o", "json")
	if !strings.Contains(out, `"id": "bootstrap.no-bootstrap",
      "status": "skipped"`) || !strings.Contains(out, "sets no AMI, so EKS adds its bootstrap") {
		t.Errorf("%s\n%s", errOut, out)
	}
}
