// Package artefact recognises a single pasted artefact by its content — a log excerpt, user
// data in any encoding, an aws-auth ConfigMap or its mapRoles block, Bottlerocket settings, a
// NodeConfig, or the JSON printed by an `aws eks|ec2|iam|autoscaling …` or `kubectl get … -o json`
// command — and turns it into Evidence. It never judges: the checks do.
package artefact

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/eksdoctor/eksdoctor/collectors/awsauth"
	"github.com/eksdoctor/eksdoctor/collectors/bundle"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
	"github.com/eksdoctor/eksdoctor/collectors/userdata"
)

// Kinds of artefact Detect recognises.
const (
	KindLog          = "log excerpt"
	KindIPAMDLog     = "VPC CNI (ipamd/plugin) JSON log"
	KindUserData     = "user data"
	KindAWSAuth      = "aws-auth ConfigMap"
	KindBottlerocket = "Bottlerocket settings"
	KindAWSCLI       = "AWS CLI / kubectl JSON"
)

// MaxParsed is the largest artefact (bytes) parsed as a whole; larger input is scanned as a log.
const MaxParsed = 16 << 20

// sniffBytes is how much of the input Detect looks at.
const sniffBytes = 64 << 10

// cliFiles maps the top-level key of AWS CLI JSON output to its snapshot file
// (docs/snapshot-format.md).
var cliFiles = map[string]string{
	"Reservations": "ec2/describe-instances.json", "cluster": "eks/describe-cluster.json",
	"Subnets": "ec2/describe-subnets.json", "SecurityGroups": "ec2/describe-security-groups.json",
	"RouteTables": "ec2/describe-route-tables.json", "NetworkAcls": "ec2/describe-network-acls.json",
	"VpcEndpoints": "ec2/describe-vpc-endpoints.json", "Vpcs": "ec2/describe-vpcs.json",
	"NatGateways": "ec2/describe-nat-gateways.json", "InternetGateways": "ec2/describe-internet-gateways.json",
	"DhcpOptions": "ec2/describe-dhcp-options.json", "Images": "ec2/describe-images.json",
	"InstanceTypes": "ec2/describe-instance-types.json", "AutoScalingGroups": "autoscaling/describe-auto-scaling-groups.json",
	"accessEntries": "eks/list-access-entries.json", "nodegroups": "eks/list-nodegroups.json",
}

// kubeLists maps a kubectl List's item kind to its snapshot file.
var kubeLists = map[string]string{"Node": "kube/nodes.json", "CertificateSigningRequest": "kube/csrs.json"}

// Result is one recognised artefact.
type Result struct {
	// Kind is one of the Kind constants; Detail refines it ("bootstrap.sh script", "journal").
	Kind     string
	Detail   string
	Evidence *evidence.Evidence
	// Snapshot is set for AWS CLI / kubectl JSON (the evidence comes from it).
	Snapshot *snapshot.Snapshot
}

// Read recognises the artefact read from r (named name in messages) and builds its evidence.
// Input longer than MaxParsed is scanned as a log. Errors name the input and the problem.
func Read(r io.Reader, name string) (*Result, error) {
	br := bufio.NewReaderSize(r, sniffBytes)
	head, err := br.Peek(sniffBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, fmt.Errorf("%s: empty input", name)
	}
	if looksLikeLog(head) {
		return scanLog(br, name, head)
	}
	data, err := io.ReadAll(io.LimitReader(br, MaxParsed+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(data) > MaxParsed {
		return scanLog(io.MultiReader(bytes.NewReader(data), br), name, head)
	}
	return parse(data, name)
}

func looksLikeLog(head []byte) bool {
	first := head
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	s := string(first)
	// any reference year works: only whether the line starts with a timestamp matters here
	return !logscan.ParseTime(s, time.Date(2000, 12, 31, 0, 0, 0, 0, time.UTC)).IsZero() || strings.HasPrefix(s, "-- Logs begin") || strings.HasPrefix(s, "-- Boot ") ||
		strings.HasPrefix(s, `{"level":`) || strings.HasPrefix(s, "Cloud-init v.")
}

func scanLog(r io.Reader, name string, head []byte) (*Result, error) {
	sc := logscan.MustDefault()
	detail, stream := "journal / kubelet log", "journal"
	if bytes.HasPrefix(bytes.TrimSpace(head), []byte(`{"level":`)) {
		detail, stream = "", "ipamd"
	}
	if err := sc.Scan(r, name, stream); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	logs := sc.Result("artefact")
	ev := &evidence.Evidence{}
	ev.Target.Source = "artefact:" + name
	ev.NodeLogs = logs
	ev.Mark(evidence.KindNodeLogs, "artefact:"+name)
	// the newest timestamp the log shows is the evidence time
	for _, h := range logs.Hits {
		if h.Last.Time.After(ev.CollectedAt) {
			ev.CollectedAt = h.Last.Time
		}
	}
	kind := KindLog
	if stream == "ipamd" {
		kind = KindIPAMDLog
	}
	return &Result{Kind: kind, Detail: detail, Evidence: ev}, nil
}

func parse(data []byte, name string) (*Result, error) {
	trim := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	src := "artefact:" + name
	if trim[0] == '{' || trim[0] == '[' {
		var doc map[string]any
		if err := json.Unmarshal(trim, &doc); err != nil {
			if trim[0] == '{' && !bytes.Contains(trim, []byte("\n")) {
				return nil, fmt.Errorf("%s: not valid JSON: %v", name, err)
			}
		} else if r := fromJSON(doc, trim, name, src); r != nil {
			return r, nil
		}
	}
	s := string(trim)
	if strings.Contains(s, "mapRoles") || strings.Contains(s, "mapUsers") {
		if r := awsAuth(trim, src); r != nil {
			return r, nil
		}
	}
	// user data: raw, base64, gzip, MIME, shell, NodeConfig, TOML, PowerShell
	raw := trim
	if dec, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), "")); err == nil && len(dec) > 0 {
		raw = dec
	}
	cfg := userdata.Decode(raw)
	if cfg.Format != evidence.FormatNone || cfg.HasErrors() || looksLikeUserData(string(raw)) {
		return bootstrapResult(KindUserData, string(cfg.Format), cfg, src), nil
	}
	// anything else is read as log text
	return scanLog(bytes.NewReader(data), name, data)
}

func looksLikeUserData(s string) bool {
	return strings.HasPrefix(s, "#!") || strings.HasPrefix(s, "#cloud-config") || strings.HasPrefix(strings.ToLower(s), "mime-version:") ||
		strings.HasPrefix(s, "<powershell>") || strings.HasPrefix(s, "[settings")
}

func bootstrapResult(kind, detail string, cfg *evidence.BootstrapConfig, src string) *Result {
	ev := &evidence.Evidence{Bootstrap: cfg}
	ev.Target.Source = src
	ev.Target.Cluster = cfg.ClusterName
	ev.Mark(evidence.KindBootstrap, src)
	return &Result{Kind: kind, Detail: detail, Evidence: ev}
}

func fromJSON(doc map[string]any, raw []byte, name, src string) *Result {
	kind, _ := doc["kind"].(string)
	switch {
	case kind == "ConfigMap":
		return awsAuth(raw, src)
	case kind == "NodeConfig":
		cfg := userdata.Decode(raw)
		return bootstrapResult(KindUserData, "NodeConfig", cfg, src)
	case strings.HasSuffix(kind, "List") || kind == "List":
		items, _ := doc["items"].([]any)
		itemKind := strings.TrimSuffix(kind, "List")
		if len(items) > 0 {
			if m, ok := items[0].(map[string]any); ok {
				itemKind, _ = m["kind"].(string)
			}
		}
		if f, ok := kubeLists[itemKind]; ok {
			return fromSnapshot(map[string][]byte{f: raw}, name, "kubectl get "+strings.ToLower(itemKind)+"s")
		}
	}
	if _, ok := doc["settings"]; ok {
		return bottlerocket(raw, src)
	}
	if _, ok := doc["kubernetes"]; ok {
		return bottlerocket(raw, src)
	}
	for k, f := range cliFiles {
		if _, ok := doc[k]; ok {
			return fromSnapshot(map[string][]byte{f: raw}, name, "aws "+strings.ReplaceAll(strings.TrimSuffix(f, ".json"), "/", " "))
		}
	}
	return nil
}

func bottlerocket(raw []byte, src string) *Result {
	cfg := bundle.SettingsBootstrap(raw)
	return bootstrapResult(KindBottlerocket, "settings API JSON", cfg, src)
}

func fromSnapshot(files map[string][]byte, name, detail string) *Result {
	snap := snapshot.FromFiles("artefact:"+name, files)
	var ev *evidence.Evidence
	if ids := snap.InstanceIDs(); len(ids) == 1 {
		if e, err := snap.Evidence(ids[0], ""); err == nil {
			ev = e
		}
	}
	if ev == nil {
		ev = snap.ClusterEvidence("")
	}
	return &Result{Kind: KindAWSCLI, Detail: detail, Evidence: ev, Snapshot: snap}
}

// awsAuth reads an aws-auth ConfigMap (YAML or JSON) or a bare mapRoles/mapUsers block.
func awsAuth(raw []byte, src string) *Result {
	var cm struct {
		Kind string            `json:"kind"`
		Data map[string]string `json:"data"`
	}
	data := map[string]string{}
	if err := yaml.Unmarshal(raw, &cm); err == nil && len(cm.Data) > 0 {
		data = cm.Data
	} else {
		var block map[string]any
		if err := yaml.Unmarshal(raw, &block); err == nil {
			for _, k := range []string{"mapRoles", "mapUsers", "mapAccounts"} {
				switch v := block[k].(type) {
				case string:
					data[k] = v
				case []any:
					b, _ := yaml.Marshal(v)
					data[k] = string(b)
				}
			}
		}
		if len(data) == 0 {
			// an unparseable paste still gets a parse error from the aws-auth reader
			data["mapRoles"] = string(raw)
		}
	}
	a := awsauth.Parse(data)
	ev := &evidence.Evidence{AWSAuth: a}
	ev.Target.Source = src
	ev.Mark(evidence.KindAWSAuth, src)
	return &Result{Kind: KindAWSAuth, Evidence: ev}
}
