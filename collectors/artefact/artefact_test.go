package artefact

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func TestDetectKinds(t *testing.T) {
	for in, want := range map[string]string{
		"Jul 24 15:30:02 h kubelet[1]: x\n":                          KindLog,
		`{"level":"info","ts":"2026-07-24T15:30:04.203Z","msg":"x"}`: KindIPAMDLog,
		"#!/bin/bash\n/etc/eks/bootstrap.sh prod\n":                  KindUserData,
		"[settings.kubernetes]\ncluster-name = \"prod\"\n":           KindUserData,
		"mapRoles: |\n  - rolearn: arn:aws:iam::1:role/r\n":          KindAWSAuth,
		`{"settings":{"kubernetes":{"cluster-name":"prod"}}}`:        KindBottlerocket,
		`{"Reservations":[]}`:                                        KindAWSCLI,
		`{"apiVersion":"v1","kind":"NodeList","items":[]}`:           KindAWSCLI,
		"just some words\nmore words\n":                              KindLog,
	} {
		r, err := Read(strings.NewReader(in), "t")
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if r.Kind != want {
			t.Errorf("%q: kind %q, want %q", in, r.Kind, want)
		}
	}
	if _, err := Read(strings.NewReader("  \n"), "empty"); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty input: %v", err)
	}
	if _, err := Read(strings.NewReader(`{"broken": `), "bad.json"); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("broken JSON: %v", err)
	}
}

// TestLargeInputIsScannedNotParsed: input over MaxParsed is streamed as a log.
func TestLargeInputIsScannedNotParsed(t *testing.T) {
	big := strings.Repeat("plain words without a timestamp\n", MaxParsed/32+10) + "x509: certificate signed by unknown authority\n"
	r, err := Read(strings.NewReader(big), "big")
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != KindLog || len(r.Evidence.NodeLogs.Hits) != 1 || !r.Evidence.Have(evidence.KindNodeLogs) {
		t.Fatalf("%s %+v", r.Kind, r.Evidence.NodeLogs)
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{"Jul 24 15:30:02 h kubelet[1]: x\n", `{"kind":"ConfigMap","data":{"mapRoles":"- x"}}`, "mapRoles: |\n - a\n", "#!/bin/bash\n", `{"cluster":{}}`, "TUlNRS1WZXJzaW9uOiAxLjA="} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read(strings.NewReader(string(data)), "fuzz")
		if err == nil && r.Evidence == nil {
			t.Fatal("no evidence")
		}
	})
}
