package snapshot

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// twoCopies returns healthy-al2023's describe-instances with its instance listed twice, the
// second copy stopped and without an instance profile.
func twoCopies(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(files["ec2/describe-instances.json"], &out); err != nil {
		t.Fatal(err)
	}
	res := out["Reservations"].([]any)
	first := res[0].(map[string]any)["Instances"].([]any)[0].(map[string]any)
	second := map[string]any{}
	for k, v := range first {
		second[k] = v
	}
	second["State"] = map[string]any{"Code": 80, "Name": "stopped"}
	delete(second, "IamInstanceProfile")
	out["Reservations"] = append(res, map[string]any{"ReservationId": "r-2", "Instances": []any{second}})
	b, err := json.MarshalIndent(out, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDuplicateInstanceKeepsFirstCopy (red team round 3, F11): describe-instances holding the
// same instance twice with different content is an input problem naming the file and the
// instance, and the first copy is used (as for a tar member present twice), in the streamed
// JSON and in the whole-file (YAML) path.
func TestDuplicateInstanceKeepsFirstCopy(t *testing.T) {
	for _, yamlOut := range []bool{false, true} {
		files := fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
		b := twoCopies(t, files)
		if yamlOut {
			var err error
			if b, err = yaml.JSONToYAML(b); err != nil {
				t.Fatal(err)
			}
		}
		files["ec2/describe-instances.json"] = b
		s := FromFiles("test", files)
		ids := s.InstanceIDs()
		if len(ids) != 1 {
			t.Errorf("yaml %v: instances %v, want one", yamlOut, ids)
		}
		ev, err := s.Evidence(ids[0], "")
		if err != nil {
			t.Fatal(err)
		}
		if ev.Instance.State != "running" || ev.Instance.InstanceProfileArn == "" {
			t.Errorf("yaml %v: state %q profile %q, want the first copy's", yamlOut, ev.Instance.State, ev.Instance.InstanceProfileArn)
		}
		pr := problemFor(s, "ec2/describe-instances.json")
		if !strings.Contains(pr, ids[0]) || !strings.Contains(pr, "more than once") || !strings.Contains(pr, "first copy is used") {
			t.Errorf("yaml %v: input problem %q", yamlOut, pr)
		}
	}
}

// TestDuplicateKeyIsInputProblem (F11): a JSON object holding a key twice (`"IamInstanceProfile":
// null, "IamInstanceProfile": {…}`) is an input problem naming the file, the key and its line,
// in describe-instances (streamed) and in a file read whole.
func TestDuplicateKeyIsInputProblem(t *testing.T) {
	files := fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
	p := "ec2/describe-instances.json"
	b := files[p]
	i := bytes.Index(b, []byte(`"IamInstanceProfile": {`))
	if i < 0 {
		t.Fatal("no IamInstanceProfile in the fixture")
	}
	b = append(append(append([]byte{}, b[:i]...), `"IamInstanceProfile": null, `...), b[i:]...)
	line := bytes.Count(b[:i], []byte("\n")) + 1
	files[p] = b
	s := FromFiles("test", files)
	if _, err := s.Evidence(s.InstanceIDs()[0], ""); err != nil {
		t.Fatal(err)
	}
	pr := problemFor(s, p)
	want := `key "IamInstanceProfile" twice`
	if !strings.Contains(pr, want) || !strings.Contains(pr, "line "+strconv.Itoa(line)) {
		t.Errorf("input problem %q, want %q on line %d", pr, want, line)
	}
	// a kube file read whole
	files = fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
	files["kube/nodes.json"] = bytes.Replace(files["kube/nodes.json"], []byte(`"kind": "Node",`), []byte(`"kind": "Node", "kind": "Node",`), 1)
	s = FromFiles("test", files)
	if _, err := s.Evidence(s.InstanceIDs()[0], ""); err != nil {
		t.Fatal(err)
	}
	if pr := problemFor(s, "kube/nodes.json"); !strings.Contains(pr, `key "kind" twice`) {
		t.Errorf("kube/nodes.json: input problem %q", pr)
	}
	// the same key in different objects, and escaped spellings of different keys, are fine
	files = fixtureFiles(t, "../../fixtures/snapshots/healthy-al2023")
	files["eks/list-access-entries.json"] = []byte(`{"accessEntries":["arn:aws:iam::111122223333:role/x"],"a":{"k":1},"b":{"k":2},"k\u0031":1,"k2":2}`)
	s = FromFiles("test", files)
	if _, err := s.Evidence(s.InstanceIDs()[0], ""); err != nil {
		t.Fatal(err)
	}
	if pr := problemFor(s, "eks/list-access-entries.json"); pr != "" {
		t.Errorf("no duplicate, but input problem %q", pr)
	}
}

// BenchmarkDupKeys measures the duplicate-key pass over a large describe-instances (1,500
// instances, about 12 MB), next to decoding it (BenchmarkDecodeInstances): the pass should
// cost a small part of the decoding.
func BenchmarkDupKeys(b *testing.B) {
	doc := largeInstances(b, 1500)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d := newDupKeys()
		d.Write(doc)
		if d.problem() != "" {
			b.Fatal(d.problem())
		}
		d.release()
	}
}

// BenchmarkDecodeInstances decodes the same describe-instances as BenchmarkDupKeys, streamed.
func BenchmarkDecodeInstances(b *testing.B) {
	doc := largeInstances(b, 1500)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := decodeInstances(bytes.NewReader(doc), func(*EC2Instance) {}); err != nil {
			b.Fatal(err)
		}
	}
}
