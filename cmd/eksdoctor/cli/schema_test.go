package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/eksdoctor/eksdoctor/checks/report"
)

// schemaDir holds the published JSON Schemas of the three JSON documents.
var schemaDir = filepath.Join("..", "..", "..", "docs", "schema")

// documentSchemas renders the JSON Schema (draft 2020-12) of each kind of JSON document from its
// Go type: every field without omitempty is required, no other property is allowed.
func documentSchemas(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for kind, v := range map[string]any{report.KindReport: &report.Report{}, report.KindFleet: &report.Fleet{}, report.KindScan: &report.Scan{}} {
		r := jsonschema.Reflector{ExpandedStruct: true}
		s := r.Reflect(v)
		s.ID = jsonschema.ID("https://github.com/eksdoctor/eksdoctor/docs/schema/" + kind + ".json")
		s.Title = "eksdoctor " + kind + " (" + report.SchemaVersion + ")"
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out[kind] = append(b, '\n')
	}
	return out
}

// TestSchemasArePublished: docs/schema/{report,fleet,scan}.json are the schemas of the Go types
// the JSON output is written from (`go test ./cmd/eksdoctor/cli -run Schemas -update` rewrites
// them).
func TestSchemasArePublished(t *testing.T) {
	for kind, want := range documentSchemas(t) {
		p := filepath.Join(schemaDir, kind+".json")
		got, _ := os.ReadFile(p)
		if bytes.Equal(got, want) {
			continue
		}
		if *update {
			if err := os.WriteFile(p, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s is stale: rerun with -update", p)
	}
}

// TestJSONGoldensValidateAgainstSchemas: every JSON golden (snapshot scenarios, bundles, the
// fleet and the scan) is valid against the published schema its "kind" names.
func TestJSONGoldensValidateAgainstSchemas(t *testing.T) {
	c := sjs.NewCompiler()
	compiled := map[string]*sjs.Schema{}
	for _, kind := range []string{report.KindReport, report.KindFleet, report.KindScan} {
		s, err := c.Compile(filepath.Join(schemaDir, kind+".json"))
		if err != nil {
			t.Fatalf("compiling the %s schema: %v", kind, err)
		}
		compiled[kind] = s
	}
	var files []string
	filepath.WalkDir(filepath.Join(fixtures, "golden"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return nil
	})
	kinds := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var head struct{ Kind string }
		if json.Unmarshal(b, &head) != nil || compiled[head.Kind] == nil {
			continue // not one of eksdoctor's JSON documents (a PolicyReport, a metrics file)
		}
		doc, err := sjs.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := compiled[head.Kind].Validate(doc); err != nil {
			t.Errorf("%s is not a valid %s: %v", f, head.Kind, err)
		}
		kinds[head.Kind]++
	}
	if kinds[report.KindReport] < 60 {
		t.Errorf("validated only %v documents", kinds)
	}
	// fleet and scan documents: rendered now, as the goldens hold only their text
	snap := filepath.Join(fixtures, "snapshots", "nodegroup-asg-launch-failures")
	for kind, args := range map[string][]string{
		report.KindFleet: {"why-not-joining", "--all-pending", "--snapshot", snap, "-o", "json"},
		report.KindScan:  {"scan", "--snapshot", snap, "-o", "json"},
	} {
		_, out, _ := run(args...)
		doc, err := sjs.UnmarshalJSON(strings.NewReader(out))
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if err := compiled[kind].Validate(doc); err != nil {
			t.Errorf("%s output is not a valid %s: %v", strings.Join(args, " "), kind, err)
		}
	}
}
