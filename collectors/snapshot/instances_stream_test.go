package snapshot

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// largeInstances returns a describe-instances document of n instances (the fixture's first,
// renumbered), each with the bulk real output carries and the snapshot does not use (network
// interfaces, block devices), in two concatenated pages as `aws ec2 describe-instances` without
// --no-paginate may print them.
func largeInstances(t testing.TB, n int) []byte {
	t.Helper()
	var doc struct {
		Reservations []struct{ Instances []map[string]any }
	}
	if err := json.Unmarshal(fixtureFiles(t, hostileFixture)["ec2/describe-instances.json"], &doc); err != nil {
		t.Fatal(err)
	}
	inst := doc.Reservations[0].Instances[0]
	var nis []any
	for k := 0; k < 12; k++ {
		nis = append(nis, map[string]any{"NetworkInterfaceId": fmt.Sprintf("eni-%017d", k), "Description": strings.Repeat("unused ", 60),
			"PrivateIpAddresses": []any{map[string]any{"PrivateIpAddress": "10.0.0.1", "Primary": true}}})
	}
	inst["NetworkInterfaces"] = nis
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch i {
		case 0:
			b.WriteString(`{"Reservations":[`)
		case n / 2:
			b.WriteString("]}\n" + `{"NextToken":null,"Reservations":[`)
		default:
			b.WriteString(",")
		}
		if i > 0 {
			inst["InstanceId"] = fmt.Sprintf("i-%017x", 0x100000+i)
		}
		x, err := json.Marshal(inst)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, `{"ReservationId":"r-%d","Groups":[],"Instances":[%s]}`, i, x)
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

// writeSnapshot writes files into a new directory and returns it.
func writeSnapshot(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for p, b := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDescribeInstancesStreamedOnce: a large describe-instances is opened once per run, for
// every reader of it (the instance list, the gap, two instances' evidence, the cluster's), and
// decoded as a stream: decoding allocates far less than the file's size, which reading it whole
// would cost at least.
func TestDescribeInstancesStreamedOnce(t *testing.T) {
	const n = 1500
	files := fixtureFiles(t, hostileFixture)
	files[instancesPath] = largeInstances(t, n)
	size := len(files[instancesPath])
	if size < 8<<20 {
		t.Fatalf("describe-instances is %d bytes, want a large file", size)
	}
	s, err := Open(writeSnapshot(t, files), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	open := s.lazy[instancesPath]
	if open == nil {
		t.Fatal("describe-instances is not read lazily")
	}
	opens := 0
	s.lazy[instancesPath] = func() (io.ReadCloser, error) { opens++; return open() }

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ids := s.InstanceIDs()
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("decoding %d bytes allocated %d", size, alloc)
	if alloc > uint64(size)/2 {
		t.Errorf("decoding a %d-byte describe-instances allocated %d bytes: the file is not streamed", size, alloc)
	}
	if len(ids) != n || ids[0] != "i-00000000000100001" || ids[n-1] != "i-0a1b2c3d4e5f60001" {
		t.Fatalf("%d instances (%q … %q), want %d sorted", len(ids), ids[0], ids[len(ids)-1], n)
	}
	if why, _ := s.InstancesGap(); why != "" {
		t.Errorf("InstancesGap = %q", why)
	}
	ev, err := s.Evidence("i-0a1b2c3d4e5f60001", "")
	if err != nil {
		t.Fatal(err)
	}
	last := fmt.Sprintf("i-%017x", 0x100000+n-1) // on the second page
	ev2, err := s.Evidence(last, "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Instance.SubnetID == "" || ev2.Instance.ID != last || ev2.Instance.SubnetID != ev.Instance.SubnetID || len(ev2.Instance.Tags) != len(ev.Instance.Tags) {
		t.Errorf("instances %+v and %+v", ev.Instance, ev2.Instance)
	}
	s.ClusterEvidence(ev.Target.Cluster)
	if opens != 1 {
		t.Errorf("describe-instances opened %d times, want once", opens)
	}
}

// TestDescribeInstancesTruncatedLarge: a large describe-instances cut short (a collection that
// ran out of disk) is a problem and a gap naming the file and the parse error, as for any
// other file, from a directory and from an archive.
func TestDescribeInstancesTruncatedLarge(t *testing.T) {
	files := fixtureFiles(t, hostileFixture)
	full := largeInstances(t, 400)
	files[instancesPath] = full[:len(full)*2/3]
	dir := writeSnapshot(t, files)
	const want = "parse error in ec2/describe-instances.json: unexpected EOF"
	s, err := Open(dir, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if s.lazy[instancesPath] == nil {
		t.Fatal("describe-instances is not read lazily")
	}
	if why, denied := s.InstancesGap(); why != want || denied {
		t.Errorf("InstancesGap = %q, %v; want %q", why, denied, want)
	}
	if ids := s.InstanceIDs(); len(ids) != 0 {
		t.Errorf("InstanceIDs = %d ids from a damaged file", len(ids))
	}
	if _, err := s.Evidence("i-0a1b2c3d4e5f60001", ""); err == nil || err.Error() != "cannot diagnose i-0a1b2c3d4e5f60001: "+want {
		t.Errorf("Evidence: %v", err)
	}
	if !reflect.DeepEqual(s.Problems, []FileProblem{{instancesPath, "unexpected EOF"}}) {
		t.Errorf("problems = %+v", s.Problems)
	}
}

// TestDescribeInstancesStreamMatchesWholeFile: what the streaming decoder reads is what the
// whole-file decoder reads (instances, outcome, reason), and the usual shapes are streamed.
func TestDescribeInstancesStreamMatchesWholeFile(t *testing.T) {
	inst := `{"InstanceId":"i-1","SubnetId":"subnet-1","Tags":[{"Key":"a","Value":"b"}],"LaunchTime":"2026-01-02T03:04:05Z"}`
	for _, tc := range []struct {
		doc      string
		streamed bool
	}{
		{`{"Reservations":[{"Instances":[` + inst + `]}]}`, true},
		{`{"NextToken":"x","Reservations":[{"Groups":[{"a":[1,{"b":null}]}],"Instances":[` + inst + `,{"InstanceId":"i-2"}]}]} {"Reservations":[]}`, true},
		{`{"reservations":[{"instances":[{"instanceid":"i-3"}]}]}`, true},
		{`{"Reservations":[{"Instances":[null,` + inst + `]}, {}]}`, true},
		{`{"Reservations":[]}`, true},
		{`{"Reservations":[null]}`, false},
		{`{"Reservations":[{"Instances":null}]}`, false},
		{`{"Reservations":null}`, false},
		{`{"Reservations":[],"Reservations":[{"Instances":[` + inst + `]}]}`, false},
		{`{"Reservations":[{"Instances":"x"}]}`, false},
		{`{"Reservations":[{"Instances":[{"Tags":[{"Key":1}]}]}]}`, false},
		{`{"Reservations":[{"Instances":[` + inst + `]}]} x`, false},
		{`{"Reservations":[{"Instances":[` + inst + `]`, false},
		{`{"Other":1}`, false},
		{`[]`, false},
		{``, false},
		{"An error occurred (UnauthorizedOperation) when calling the DescribeInstances operation: You are not authorized", false},
	} {
		files := map[string][]byte{instancesPath: []byte(tc.doc)}
		got := &instanceIdx{byID: map[string]*EC2Instance{}}
		if streamed := FromFiles("mem", files).streamInstances(got); streamed != tc.streamed {
			t.Errorf("%s: streamed %v, want %v", tc.doc, streamed, tc.streamed)
		}
		s := FromFiles("mem", files)
		got = s.instanceIndex()
		want := &instanceIdx{byID: map[string]*EC2Instance{}}
		w := FromFiles("mem", files)
		want.res, want.reason = decodeInto(w, instancesPath, func(o *DescribeInstancesOutput) {
			for _, r := range o.Reservations {
				for k := range r.Instances {
					want.add(&r.Instances[k])
				}
			}
		})
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(s.Problems, w.Problems) {
			t.Errorf("%s: read %+v (problems %v), the whole-file path %+v (problems %v)", tc.doc, got, s.Problems, want, w.Problems)
		}
	}
}

// TestEC2InstanceHoldsOnlyUsedFields: a fleet's tens of thousands of instances are kept for
// the whole run, so an instance holds the fields the snapshot uses and no other (State.Code,
// StateReason.Code, MetadataOptions.State, IamInstanceProfile.Id and the security groups' names
// are not): 320 bytes, 16 per security group.
func TestEC2InstanceHoldsOnlyUsedFields(t *testing.T) {
	var i EC2Instance
	if n := unsafe.Sizeof(i); n > 320 {
		t.Errorf("EC2Instance is %d bytes, want at most 320", n)
	}
	if n := unsafe.Sizeof(i.SecurityGroups[:1][0]); n > 16 {
		t.Errorf("a security group is %d bytes, want 16", n)
	}
}
