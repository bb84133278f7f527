package snapshot

import (
	"strings"
	"testing"
)

// TestYAMLStreamPages: `--output yaml-stream` writes each page as a YAML list of one response
// (aws-cli v2 awscli/formatter.py StreamedYAMLFormatter dumps [response] per page), so the file
// is a list of whole outputs. Each item is read as a page, as concatenated JSON pages are; it
// was refused with "expected a JSON object, got an array of 1" (red team 11b #19).
func TestYAMLStreamPages(t *testing.T) {
	page := func(id string) string {
		return `- Reservations:
  - ReservationId: r-` + id + `
    Instances:
    - InstanceId: i-` + id + `
      InstanceType: m5.large
      LaunchTime: '2026-11-24T10:00:00+00:00'
      State:
        Code: 16
        Name: running
      Tags:
      - Key: kubernetes.io/cluster/prod
        Value: owned
`
	}
	dir := writeSnap(t, map[string]string{
		"ec2/describe-instances.json":  page("1") + page("2"),
		"eks/list-access-entries.json": "- accessEntries:\n  - arn:aws:iam::1:role/a\n  nextToken: t1\n- accessEntries:\n  - arn:aws:iam::1:role/node\n",
	})
	s, err := Open(dir, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.InstanceIDs(), ","); got != "i-1,i-2" {
		t.Errorf("instances = %q, want both pages' i-1,i-2", got)
	}
	ev, err := s.Evidence("i-2", "prod")
	if err != nil {
		t.Fatal(err)
	}
	var arns []string
	for _, e := range ev.AccessEntries {
		arns = append(arns, e.PrincipalArn)
	}
	if got := strings.Join(arns, ","); got != "arn:aws:iam::1:role/a,arn:aws:iam::1:role/node" {
		t.Errorf("access entries = %q, want both pages'; problems %+v", got, s.Problems)
	}
}

// TestProjectionTypeMessage: a --query projection that keeps a field's name for one value
// inside it ({State:State.Name, IamInstanceProfile:IamInstanceProfile.Arn}) is refused with a
// message naming the file, the field, what it holds and the shape the command writes, not Go's
// "cannot unmarshal string into Go struct field EC2Instance…" (red team 11b #19).
func TestProjectionTypeMessage(t *testing.T) {
	dir := writeSnap(t, map[string]string{
		"ec2/describe-instances.json": `[[{"InstanceId": "i-1", "State": "running", "SubnetId": "subnet-1",
"IamInstanceProfile": "arn:aws:iam::1:instance-profile/p", "Tags": [{"Key": "kubernetes.io/cluster/prod", "Value": "owned"}]}]]`,
	})
	s, err := Open(dir, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Evidence("i-1", "prod")
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{"ec2/describe-instances.json", "IamInstanceProfile", "a string", "an object", "--query"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	}
	for _, not := range []string{"Go struct", "cannot unmarshal", "json: cannot"} {
		if strings.Contains(msg, not) {
			t.Errorf("message %q shows Go's %q", msg, not)
		}
	}
}
