package ingest

import (
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestConsoleOutputIsReadAsAPaste: the Output of get-console-output is what the node's console
// printed, read as a paste of its own — the artefacts a boot script printed there (an aws-auth
// ConfigMap it applied, user data it echoed) are read as those artefacts, log records whose
// line breaks were lost are split again — and every part covers the JSON document's lines.
func TestConsoleOutputIsReadAsAPaste(t *testing.T) {
	kubelet := `E0501 10:00:00.000000    2863 kubelet_node_status.go:92] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-2.ec2.internal"`
	j := func(ts, klog string) string {
		return "May 20 12:30:" + ts + " ip-192-168-218-117.us-east-2.compute.internal kubelet[4502]: " + klog
	}
	joined := strings.Join([]string{
		j("57", `E0520 12:30:57.379123    4502 kubelet_node_status.go:107] "Unable to register node with API server" err="Unauthorized" node="ip-192-168-218-117.us-east-2.compute.internal"`),
		j("58", `I0520 12:30:58.100000    4502 kubelet_node_status.go:70] "Attempting to register node" node="ip-192-168-218-117.us-east-2.compute.internal"`),
		j("59", `I0520 12:30:59.100000    4502 kubelet_node_status.go:78] "Successfully registered node" node="ip-192-168-218-117.us-east-2.compute.internal"`),
	}, " ")

	r := Read([]byte(consoleJSON(awsAuthYAML, "2024-05-01T10:00:00+00:00")), "stdin", Options{})
	if a := r.Evidence.AWSAuth; a == nil || len(a.Roles) != 1 || len(a.Problems) != 0 {
		t.Errorf("aws-auth in the console output: %+v (segments %v)", a, types(r.Segments))
	}

	r = Read([]byte(consoleJSON(joined+"\n", "2024-05-20T13:00:00+00:00")), "stdin", Options{})
	if !hasSignature(r.Evidence.NodeLogs, "kubelet-registered") {
		t.Errorf("journal records run together in the console output: registration not read (segments %v)", types(r.Segments))
	}

	r = Read([]byte(consoleJSON("[   12.345678] cloud-init[1234]: Cloud-init v. 19.3 running 'modules:final'\n"+kubelet+"\n\n"+awsAuthYAML, "2024-05-01T10:05:00+00:00")), "stdin", Options{})
	if !hasSignature(r.Evidence.NodeLogs, "kubelet-register-unauthorized") || r.Evidence.AWSAuth == nil {
		t.Errorf("console log and aws-auth: logs %v, aws-auth %v (segments %v)", r.Evidence.NodeLogs != nil, r.Evidence.AWSAuth != nil, types(r.Segments))
	}
	for _, s := range r.Segments {
		if s.First != 1 || s.Last != 5 {
			t.Errorf("segment %s covers lines %d-%d, want the JSON document's 1-5", s.Label(), s.First, s.Last)
		}
		if !strings.Contains(s.Label(), "get-console-output") {
			t.Errorf("segment %s does not say it came from the console output", s.Label())
		}
	}
}

// TestConsoleOutputLinesAndTimestamp: the lines quoted from a console output are numbered as the
// console printed them (the Output's own lines, across all its parts), the console output is
// the node's console output evidence, and its Timestamp — when EC2 captured it — is when the
// evidence was collected and the reference for year-less times, unless a line the paste shows
// is later than it (then it is not when the whole paste was collected).
func TestConsoleOutputLinesAndTimestamp(t *testing.T) {
	kubelet := `E0501 10:00:00.000000    2863 kubelet_node_status.go:92] "Unable to register node with API server" err="Unauthorized" node="ip-10-0-1-2.ec2.internal"`
	out := "[   12.345678] cloud-init[1234]: Cloud-init v. 19.3 running 'modules:final'\n" +
		"[   12.400000] cloud-init[1234]: + /etc/eks/bootstrap.sh my-cluster\n" +
		"May 01 10:00:00 ip-10-0-1-2 kubelet[2863]: " + kubelet + "\n"
	r := Read([]byte(consoleJSON(out, "2024-05-01T10:30:00+00:00")), "stdin", Options{})
	ev := r.Evidence
	var hit *evidence.SignatureHit
	if ev.NodeLogs != nil {
		for i := range ev.NodeLogs.Hits {
			if ev.NodeLogs.Hits[i].Signature == "kubelet-register-unauthorized" {
				hit = &ev.NodeLogs.Hits[i]
			}
		}
	}
	if hit == nil {
		t.Fatalf("kubelet line not matched (segments %v)", types(r.Segments))
	}
	if hit.First.Line != 3 {
		t.Errorf("the kubelet line is quoted as line %d, want the console's line 3", hit.First.Line)
	}
	want := time.Date(2024, 5, 1, 10, 30, 0, 0, time.UTC)
	if !ev.CollectedAt.Equal(want) {
		t.Errorf("collected %v, want the console output's Timestamp %v", ev.CollectedAt, want)
	}
	if !ev.Have(evidence.KindConsoleOutput) || ev.ConsoleOutput == nil || !ev.ConsoleOutput.Timestamp.Equal(want) || ev.ConsoleOutput.Text != out {
		t.Errorf("console output evidence: have %v, %+v", ev.Have(evidence.KindConsoleOutput), ev.ConsoleOutput)
	}
	if hit.First.Time.Year() != 2024 {
		t.Errorf("the year-less journal line is dated %v, want 2024 (the Timestamp's year)", hit.First.Time)
	}

	// a Timestamp older than the lines it holds is not when the paste was collected
	r = Read([]byte(consoleJSON(`{"level":"error","ts":"2025-06-01T10:00:00.000Z","caller":"ipamd/ipamd.go:1","msg":"x"}`+"\n"+out, "2024-05-01T10:30:00+00:00")), "stdin", Options{})
	if r.Evidence.CollectedAt.Equal(want) {
		t.Errorf("collected at the Timestamp %v, older than the 2025 line the console output holds", want)
	}
}

// TestConsoleOutputTextIsCleaned: the console's own text is cleaned as a paste is — CR LF line
// ends (the serial console's), terminal colour codes (systemd's "[  OK  ]"), escaped in the
// JSON string so not seen outside it — before it is read.
func TestConsoleOutputTextIsCleaned(t *testing.T) {
	out := "[\x1b[0;32m  OK  \x1b[0m] Started kubelet.service\r\n" +
		"\x1b[0;1;31mE0501 10:00:00.000000    2863 kubelet_node_status.go:92] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-2.ec2.internal\"\x1b[0m   \r\n"
	r := Read([]byte(consoleJSON(out, "2024-05-01T10:30:00+00:00")), "stdin", Options{})
	ev := r.Evidence
	if !hasSignature(ev.NodeLogs, "kubelet-register-unauthorized") {
		t.Fatalf("kubelet line not matched (segments %v)", types(r.Segments))
	}
	for _, h := range ev.NodeLogs.Hits {
		if strings.ContainsAny(h.First.Text, "\x1b\r") || strings.HasSuffix(h.First.Text, " ") {
			t.Errorf("quoted line %q keeps colour codes, CR or padding", h.First.Text)
		}
	}
}
