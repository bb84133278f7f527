package snapshot

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// TestDescribeInstancesDecodeSharesFleetStrings: a tag value, AMI and subnet that repeat
// across instances are held once (the same bytes), and the decoded value is what
// encoding/json gives for the plain struct.
func TestDescribeInstancesDecodeSharesFleetStrings(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"Reservations":[`)
	for i := 0; i < 3; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"ReservationId":"r-%d","Instances":[{"InstanceId":"i-%017d","ImageId":"ami-0abc","SubnetId":"subnet-1","SecurityGroups":[{"GroupId":"sg-1","GroupName":"nodes"}],"Tags":[{"Key":"team","Value":"payments-platform"},{"Key":"Name","Value":"n%d"}],"IamInstanceProfile":{"Arn":"arn:aws:iam::111122223333:instance-profile/nodes","Id":"AIPA"}}]}`, i, i, i)
	}
	b.WriteString(`],"NextToken":null}`)
	var got DescribeInstancesOutput
	if err := json.Unmarshal([]byte(b.String()), &got); err != nil {
		t.Fatal(err)
	}
	var want plainDescribeInstances
	if err := json.Unmarshal([]byte(b.String()), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(DescribeInstancesOutput(want), got) {
		t.Fatalf("decoded %+v, encoding/json gives %+v", got, want)
	}
	a, c := got.Reservations[0].Instances[0], got.Reservations[2].Instances[0]
	for name, pair := range map[string][2]string{
		"tag value": {a.Tags[0].Value, c.Tags[0].Value},
		"image":     {a.ImageID, c.ImageID},
		"subnet":    {a.SubnetID, c.SubnetID},
		"profile":   {a.IamInstanceProfile.Arn, c.IamInstanceProfile.Arn},
	} {
		if unsafe.StringData(pair[0]) != unsafe.StringData(pair[1]) {
			t.Errorf("%s %q is held twice", name, pair[0])
		}
	}
}

// TestDescribeInstancesDecodeOtherShapes: null, an empty list, unknown keys in any case and a
// wrong shape decode (or fail) exactly as encoding/json decodes the plain struct.
func TestDescribeInstancesDecodeOtherShapes(t *testing.T) {
	for _, in := range []string{
		`{"Reservations":null}`, `{"Reservations":[]}`, `{"reservations":[{"instances":[{"instanceid":"i-1"}]}]}`,
		`{"Other":{"a":[1,2]},"Reservations":[null]}`, `[]`, `{"Reservations":"x"}`, `{"Reservations":[{"Instances":"x"}]}`,
		`{"Reservations":[{"Instances":[{"Tags":[{"Key":1}]}]}]}`, `{}`, `null`,
	} {
		var got DescribeInstancesOutput
		gerr := json.Unmarshal([]byte(in), &got)
		var want plainDescribeInstances
		werr := json.Unmarshal([]byte(in), &want)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("%s: error %v, encoding/json says %v", in, gerr, werr)
		}
		if gerr == nil && !reflect.DeepEqual(DescribeInstancesOutput(want), got) {
			t.Errorf("%s: decoded %+v, encoding/json gives %+v", in, got, want)
		}
	}
}
