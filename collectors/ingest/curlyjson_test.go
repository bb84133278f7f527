package ingest

import (
	"encoding/json"
	"strings"
	"testing"
)

// consoleJSON is `aws ec2 get-console-output` as the AWS CLI prints it by default (pretty-printed
// JSON, Output decoded): line 1 "{", 2 InstanceId, 3 Output, 4 Timestamp, 5 "}".
func consoleJSON(output, timestamp string) string {
	b, _ := json.MarshalIndent(struct {
		InstanceId string
		Output     string
		Timestamp  string
	}{"i-0123456789abcdef0", output, timestamp}, "", "    ")
	return string(b) + "\n"
}

// TestCurlyQuotesInsideJSONStrings: a curly double quote a chat client or web page put inside a
// JSON string whose closing quote follows on the line (a record held escaped in a console
// output's Output, a message quoting a name) is undone as an escaped quote, so the document
// still parses; one that ends the line's open string (a record's closing quote made curly) is a
// plain quote again, as before.
func TestCurlyQuotesInsideJSONStrings(t *testing.T) {
	rec := `{"level":"info","ts":"2025-03-24T06:01:36.088Z","caller":"aws-k8s-agent/main.go:48","msg":"Waiting to connect API server for upto 30s…”}`
	if got, _ := Text([]byte(rec + "\n")); string(got) != strings.Replace(rec, "”", `"`, 1)+"\n" {
		t.Errorf("record whose closing quote is curly: %s", got)
	}
	doc := consoleJSON(rec+"\n"+`E0501 10:00:00.000000 1 x.go:1] node “ip-10-0-1-2” not found`+"\n", "2025-03-24T06:05:00+00:00")
	got, _ := Text([]byte(doc))
	var v struct{ Output string }
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("console output JSON with curly quotes in its Output no longer parses: %v\n%s", err, got)
	}
	if want := `node "ip-10-0-1-2" not found`; !strings.Contains(v.Output, want) {
		t.Errorf("Output %q does not hold %s", v.Output, want)
	}
	if want := `"msg":"Waiting to connect API server for upto 30s…"}`; !strings.Contains(v.Output, want) {
		t.Errorf("Output %q does not hold %s", v.Output, want)
	}
	if got, _ := Text([]byte(`{"level":"error","msg":"node “ip-10-0-1-2” not found"}` + "\n")); !json.Valid(got) {
		t.Errorf("record quoting a name in curly quotes: %s", got)
	}
	// text that is no JSON keeps plain quotes
	if got, _ := Text([]byte(`E0501 10:00:00.000000 1 x.go:1] "Unable" err=“Unauthorized”` + "\n")); strings.Contains(string(got), `\"`) {
		t.Errorf("klog line: %s", got)
	}
}
