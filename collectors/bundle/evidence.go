package bundle

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/userdata"
)

// Evidence turns the bundle into Evidence for one node: its identity (instance ID, region,
// cluster), its bootstrap configuration as the node itself saw it, OS and component versions,
// and the log signature scan. Kinds the bundle cannot show (the cluster, IAM, VPC) are recorded
// as gaps "not in a node log bundle". A configuration file of the bundle that cannot be read
// (an empty, invalid or non-object settings.json) is appended to b.Problems and leaves the
// bootstrap configuration a gap: it is the bundle's problem, never the user data's.
func (b *Bundle) Evidence() *evidence.Evidence {
	ev := &evidence.Evidence{CollectedAt: b.Newest.UTC()}
	src := "bundle:" + b.Name
	ev.Target.Source = src
	ev.NodeLogs = b.Logs
	ev.Mark(evidence.KindNodeLogs, src)

	nos := &evidence.NodeOS{}
	var cfg *evidence.BootstrapConfig
	var cfgSrc, why string
	switch b.Kind {
	case KindBottlerocket:
		cfg, cfgSrc, why = b.bottlerocket(ev, nos)
	case KindEKSLinux:
		cfg, cfgSrc, why = b.linux(ev, nos)
	case KindEKSWindows:
		cfg, cfgSrc = b.windows(ev, nos)
	}
	if b.Logs != nil && b.Kind == KindEKSLinux {
		b.Logs.Proxy, b.Logs.CurlRoute = b.proxyEnvs(), b.curlRoute()
	}
	if b.KubeDNS != "" {
		// the node's own kube-proxy rules name the kube-dns Service IP its pods must use
		ev.KubeDNS = &evidence.Service{Name: "kube-dns", ClusterIP: b.KubeDNS}
		ev.Mark(evidence.KindKubeDNS, src+":"+b.KubeDNSSource)
	}
	if cfg != nil {
		ev.Bootstrap = cfg
		ev.Mark(evidence.KindBootstrap, src+":"+cfgSrc)
		if ev.Target.Cluster == "" && cfg.ClusterName != "" {
			ev.Target.Cluster = cfg.ClusterName
			ev.Target.ClusterSource = "node configuration"
		}
	} else {
		if why == "" {
			why = "the bundle holds no bootstrap configuration (see docs/bundle-formats.md §7)"
		}
		ev.AddGap(evidence.KindBootstrap, why)
	}
	if b.Logs != nil {
		// signatures bound to OS families (logscan.Signature.OnlyOn) are judged on the node's
		b.Logs.OS = nos.Family
	}
	if nos.Family != "" || nos.KubeletVersion != "" {
		ev.NodeOS = nos
		ev.Mark(evidence.KindNodeOS, src)
	} else {
		ev.AddGap(evidence.KindNodeOS, "the bundle does not show the OS")
	}
	ev.GapAllMissing("not in a node log bundle (add --snapshot to cross-check with the account)")
	return ev
}

func (b *Bundle) text(p string) string { return strings.TrimSpace(string(b.Configs[p])) }

// bottlerocket reads settings.json (both generations, §2.4) and os-release. It returns the
// config and its source, or the reason there is none.
func (b *Bundle) bottlerocket(ev *evidence.Evidence, nos *evidence.NodeOS) (*evidence.BootstrapConfig, string, string) {
	nos.Family = "bottlerocket"
	for _, l := range strings.Split(string(b.Configs["os-release"]), "\n") {
		k, v, _ := strings.Cut(l, "=")
		v = strings.Trim(v, `"`)
		switch k {
		case "VARIANT_ID":
			nos.Variant = v
		case "VERSION_ID":
			nos.Version = v
		}
	}
	raw, ok := b.Configs["settings.json"]
	if !ok {
		return nil, "", ""
	}
	doc, err := settingsObject(raw)
	if err != nil {
		// logdog's dump of the settings API is damaged: a problem of the bundle, not of the
		// user data (which this file only reflects).
		b.Problems = append(b.Problems, Problem{Path: "settings.json", Problem: err.Error() + "; the node's settings cannot be read from the bundle"})
		return nil, "", "the bundle's settings.json cannot be read (" + err.Error() + "), so the node's configuration is unknown"
	}
	settings := doc
	if s, ok := doc["settings"].(map[string]any); ok { // current generation: {"os":…, "settings":…}
		settings = s
		if o, ok := doc["os"].(map[string]any); ok {
			if v, _ := o["variant_id"].(string); v != "" {
				nos.Variant = v
			}
			if v, _ := o["version_id"].(string); v != "" {
				nos.Version = v
			}
		}
	}
	if b.Logs != nil {
		b.Logs.Proxy = BottlerocketProxy(settings, "settings.json")
	}
	if aws, ok := settings["aws"].(map[string]any); ok {
		ev.Target.Region, _ = aws["region"].(string)
	}
	if k, ok := settings["kubernetes"].(map[string]any); ok {
		if pid, _ := k["provider-id"].(string); pid != "" {
			ev.Target.InstanceID = pid[strings.LastIndex(pid, "/")+1:]
		}
	}
	if m := regexp.MustCompile(`aws-k8s-(\d+\.\d+)`).FindStringSubmatch(nos.Variant); m != nil {
		nos.KubeletVersion = "v" + m[1]
	}
	// logdog's settings.json is the API's settings (apiclient), which its model accepted
	cfg := settingsBootstrap(settings)
	cfg.AcceptedByAPI("the bundle's settings.json")
	return cfg, "settings.json", ""
}

// settingsObject decodes a settings.json that must be a JSON object; an empty file, invalid
// JSON, null, an array or a scalar is an error saying which.
func settingsObject(raw []byte) (map[string]any, error) {
	t := strings.TrimSpace(string(raw))
	if t == "" {
		return nil, fmt.Errorf("settings.json is empty")
	}
	var v any
	if err := json.Unmarshal([]byte(t), &v); err != nil {
		return nil, fmt.Errorf("settings.json is not valid JSON: %v", err)
	}
	doc, ok := v.(map[string]any)
	if !ok {
		what := "null"
		switch v.(type) {
		case []any:
			what = "an array"
		case string:
			what = "a string"
		case float64:
			what = "a number"
		case bool:
			what = "a boolean"
		}
		return nil, fmt.Errorf("settings.json is %s, not the settings object logdog writes", what)
	}
	return doc, nil
}

// SettingsBootstrap reads Bottlerocket settings JSON — the settings API output, either
// generation of a logdog settings.json (docs/bundle-formats.md §2.4) — as a bootstrap config.
// Invalid JSON gives a config with one error issue.
func SettingsBootstrap(raw []byte) *evidence.BootstrapConfig {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		cfg := &evidence.BootstrapConfig{Format: evidence.FormatBottlerocket, Formats: []evidence.BootstrapFormat{evidence.FormatBottlerocket}}
		cfg.Issues = append(cfg.Issues, evidence.ParseIssue{Level: evidence.IssueError, Part: "settings", Message: "settings are not valid JSON: " + err.Error()})
		return cfg
	}
	if s, ok := doc["settings"].(map[string]any); ok {
		doc = s
	}
	return settingsBootstrap(doc)
}

// settingsBootstrap re-expresses the settings tree as the TOML user data Bottlerocket accepts
// and decodes it with the user data decoder, so every bootstrap.* check reads one shape.
func settingsBootstrap(settings map[string]any) *evidence.BootstrapConfig {
	t, err := toml.Marshal(map[string]any{"settings": integers(settings)})
	if err != nil {
		cfg := &evidence.BootstrapConfig{Format: evidence.FormatBottlerocket, Formats: []evidence.BootstrapFormat{evidence.FormatBottlerocket}}
		cfg.Issues = append(cfg.Issues, evidence.ParseIssue{Level: evidence.IssueError, Part: "settings", Message: err.Error()})
		return cfg
	}
	cfg := userdata.Decode(t)
	cfg.RawBytes = 0
	return cfg
}

var (
	reFlagEcho = regexp.MustCompile(`\[eks-bootstrap\] INFO: (--[a-z0-9-]+)='([^']*)'`)
	reServer   = regexp.MustCompile(`(?m)^\s*server:\s*"?(https://[^\s"]+)`)
)

// linux reads AL2 (cloud-init-output bootstrap echo, kubeconfig.yaml, kubelet-config.json) and
// AL2023 (nodeadm "Loaded configuration", kubelet config.json) node configuration (§3.3, §7).
// Without nodeadm's configuration or the bootstrap.sh echo, the kubelet kubeconfig alone is the
// configuration (its server and cluster name, KubeconfigOnly); without that either the bundle does
// not show how the node was bootstrapped: there is no config (a gap with the reason).
func (b *Bundle) linux(ev *evidence.Evidence, nos *evidence.NodeOS) (*evidence.BootstrapConfig, string, string) {
	ev.Target.InstanceID = b.text("system/instance-id.txt")
	ev.Target.Region = b.text("system/region.txt")
	uname := b.text("kernel/uname.txt")
	switch {
	case strings.Contains(uname, "amzn2023"):
		nos.Family = "al2023"
	case strings.Contains(uname, "amzn2"):
		nos.Family = "al2"
	case strings.Contains(strings.ToLower(uname), "ubuntu"):
		nos.Family = "ubuntu"
	}
	if f := strings.Fields(uname); len(f) > 2 {
		nos.Version = f[2]
	}
	if m := regexp.MustCompile(`(?m)^kubelet-(\d+\.\d+\.\d+)`).FindStringSubmatch(string(b.Configs["system/pkglist.txt"])); m != nil {
		nos.KubeletVersion = "v" + m[1]
	}
	if m := regexp.MustCompile(`v?(\d+\.\d+\.\d+)`).FindStringSubmatch(b.text("containerd/containerd-version.txt")); m != nil {
		nos.ContainerdVersion = m[1]
	}
	var cfg *evidence.BootstrapConfig
	src := ""
	if nc := loadedNodeConfig(b.Configs["nodeadm/nodeadm-config.log"]); nc != nil {
		if nos.Family == "" {
			nos.Family = "al2023"
		}
		cfg = userdata.Decode(nc.doc)
		cfg.Effective = true
		src = "nodeadm/nodeadm-config.log"
		if ev.Target.InstanceID == "" {
			ev.Target.InstanceID = nc.instanceID
		}
		if ev.Target.Region == "" {
			ev.Target.Region = nc.region
		}
		if nc.kubeletVersion != "" {
			nos.KubeletVersion = nc.kubeletVersion
		}
	} else if script := al2Script(b.Configs["var_log/cloud-init-output.log"], b.Configs["kubelet/kubeconfig.yaml"]); script != "" {
		cfg = userdata.Decode([]byte(script))
		src = "var_log/cloud-init-output.log"
	} else if kc := b.Configs["kubelet/kubeconfig.yaml"]; kc != nil {
		// the kubeconfig bootstrap.sh (or nodeadm) wrote for the kubelet: what it actually
		// connects to and the cluster its token is signed for, though not the rest of the bootstrap
		if k := KubeconfigBootstrap(stripBOM(kc)); k.APIServerEndpoint != "" || k.ClusterName != "" {
			cfg, src = k, "kubelet/kubeconfig.yaml"
		}
	}
	if cfg == nil {
		why := "the bundle does not show how the node was bootstrapped: "
		switch _, haveNodeadm := b.Configs["nodeadm/nodeadm-config.log"]; {
		case nos.Family == "al2023" && !haveNodeadm:
			why += "nodeadm's configuration log (nodeadm/nodeadm-config.log) is not in it"
		case haveNodeadm:
			why += "nodeadm/nodeadm-config.log has no \"Loaded configuration\" line and var_log/cloud-init-output.log no bootstrap.sh flags"
		default:
			why += "no nodeadm configuration log (AL2023), no bootstrap.sh flags in var_log/cloud-init-output.log (AL2) and no kubelet kubeconfig naming a server or cluster"
		}
		return nil, "", why
	}
	if kc := b.Configs["kubelet/config.json"]; kc != nil {
		cfg, src = withKubeletConfig(cfg, src, kc, "kubelet/config.json")
	} else if kc := b.Configs["kubelet/kubelet-config.json"]; kc != nil {
		cfg, src = withKubeletConfig(cfg, src, kc, "kubelet/kubelet-config.json")
	}
	if cfg.APIServerEndpoint == "" {
		if m := reServer.FindSubmatch(b.Configs["kubelet/kubeconfig.yaml"]); m != nil {
			cfg.APIServerEndpoint = string(m[1])
		}
	}
	return cfg, src, ""
}

func (b *Bundle) windows(ev *evidence.Evidence, nos *evidence.NodeOS) (*evidence.BootstrapConfig, string) {
	nos.Family = "windows"
	if m := regexp.MustCompile(`eks_(i-[0-9a-f]+)_`).FindStringSubmatch(b.Name); m != nil {
		ev.Target.InstanceID = m[1]
	}
	var kubeconfig, kubeletConfig []byte
	for p, data := range b.Configs {
		switch strings.ToLower(p) {
		case "system/kubelet/kubeconfig":
			kubeconfig = data
		case "system/kubelet/kubelet-config.json":
			kubeletConfig = data
		}
	}
	if kubeconfig == nil && kubeletConfig == nil {
		return nil, ""
	}
	cfg := &evidence.BootstrapConfig{Format: evidence.FormatWindows, Formats: []evidence.BootstrapFormat{evidence.FormatWindows}, CallsBootstrap: true}
	kubeconfig = stripBOM(kubeconfig)
	if m := reServer.FindSubmatch(kubeconfig); m != nil {
		cfg.APIServerEndpoint = string(m[1])
	}
	cfg.ClusterName, ev.Target.Region = execCluster(kubeconfig)
	src := "system/kubelet/kubeconfig"
	if kubeletConfig != nil {
		cfg, src = withKubeletConfig(cfg, src, stripBOM(kubeletConfig), "system/kubelet/kubelet-config.json")
	}
	return cfg, src
}

func stripBOM(b []byte) []byte { return []byte(strings.TrimPrefix(string(b), "\uFEFF")) }

type nodeConfigLine struct {
	doc                                []byte
	instanceID, region, kubeletVersion string
}

// loadedNodeConfig finds nodeadm's "Loaded configuration" line (§5.5) and returns the resolved
// NodeConfig as a YAML document the user data decoder accepts.
func loadedNodeConfig(log []byte) *nodeConfigLine {
	var found *nodeConfigLine
	for _, l := range strings.Split(string(log), "\n") {
		i := strings.Index(l, "Loaded configuration")
		if i < 0 {
			continue
		}
		var wrap struct {
			Config map[string]any `json:"config"`
		}
		// zap's console encoder: `Loaded configuration {"config": …}`; its JSON encoder, maybe
		// behind a journal prefix: `nodeadm[7702]: {"level":"info",…,"msg":"Loaded configuration","config":{…}}`
		if json.Unmarshal([]byte(strings.TrimSpace(l[i+len("Loaded configuration"):])), &wrap) != nil || wrap.Config == nil {
			j := strings.IndexByte(l, '{')
			if j < 0 || json.Unmarshal([]byte(l[j:]), &wrap) != nil || wrap.Config == nil {
				continue
			}
		}
		found = nodeConfigOf(wrap.Config) // the last one wins: it is the configuration of the latest boot
	}
	return found
}

// nodeConfigOf reads the configuration object nodeadm logs (spec, and status: the instance and
// kubelet version it found) as a NodeConfig document.
func nodeConfigOf(c map[string]any) *nodeConfigLine {
	out := &nodeConfigLine{}
	if st, ok := c["status"].(map[string]any); ok {
		if inst, ok := st["instance"].(map[string]any); ok {
			out.instanceID, _ = inst["id"].(string)
			out.region, _ = inst["region"].(string)
		}
		out.kubeletVersion, _ = st["kubeletVersion"].(string)
	}
	spec, _ := json.Marshal(c["spec"])
	out.doc = []byte("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec: " + string(spec) + "\n")
	return out
}

// LoadedNodeConfig reads the object of nodeadm's "Loaded configuration" log line pasted on its
// own ({"spec": {"cluster": …}, "status": …}, often pretty-printed) as the node's effective
// bootstrap configuration, like NodeadmConfig.
func LoadedNodeConfig(c map[string]any) *evidence.BootstrapConfig {
	cfg := userdata.Decode(nodeConfigOf(c).doc)
	cfg.RawBytes = 0
	cfg.Effective = true
	return cfg
}

// NodeadmConfig reads the configuration nodeadm loaded from its log (the "Loaded configuration"
// line, console or JSON form) as a bootstrap config; nil when the log has no such line.
func NodeadmConfig(log []byte) *evidence.BootstrapConfig {
	nc := loadedNodeConfig(log)
	if nc == nil {
		return nil
	}
	cfg := userdata.Decode(nc.doc)
	cfg.RawBytes = 0
	cfg.Effective = true
	return cfg
}

// al2Script rebuilds the bootstrap.sh invocation from the flags the AL2 bootstrap script echoes
// into cloud-init-output.log (§5.6); the cluster name comes from the kubelet kubeconfig's exec
// arguments. It returns "" when the log shows no bootstrap run.
func al2Script(cloudInit, kubeconfig []byte) string {
	ms := reFlagEcho.FindAllSubmatch(cloudInit, -1)
	if len(ms) == 0 {
		return ""
	}
	seen := map[string]string{}
	var order []string
	for _, m := range ms {
		f := string(m[1])
		if _, ok := seen[f]; !ok {
			order = append(order, f)
		}
		seen[f] = string(m[2])
	}
	var sb strings.Builder
	sb.WriteString("#!/bin/bash\n/etc/eks/bootstrap.sh")
	for _, f := range order {
		fmt.Fprintf(&sb, " %s %s", f, shellQuote(seen[f]))
	}
	if name, _ := execCluster(kubeconfig); name != "" {
		sb.WriteString(" " + shellQuote(name))
	}
	sb.WriteString("\n")
	return sb.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// withKubeletConfig adds the effective clusterDNS and maxPods of a KubeletConfiguration JSON.
func withKubeletConfig(cfg *evidence.BootstrapConfig, src string, raw []byte, p string) (*evidence.BootstrapConfig, string) {
	var kc struct {
		ClusterDNS []string `json:"clusterDNS"`
		MaxPods    *int     `json:"maxPods"`
	}
	if err := yaml.Unmarshal(raw, &kc); err != nil {
		return cfg, src
	}
	if cfg == nil {
		cfg = &evidence.BootstrapConfig{Format: evidence.FormatNone}
		src = p
	}
	if len(cfg.ClusterDNS) == 0 && len(kc.ClusterDNS) > 0 {
		cfg.ClusterDNS = append([]string{}, kc.ClusterDNS...)
		sort.Strings(cfg.ClusterDNS)
	}
	if cfg.MaxPods == nil && kc.MaxPods != nil {
		v := *kc.MaxPods
		cfg.MaxPods = &v
	}
	return cfg, src
}

// integers turns JSON numbers without a fraction back into integers (encoding/json decodes every
// number as float64; Bottlerocket's integer settings such as max-pods must stay integers).
func integers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = integers(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = integers(e)
		}
		return out
	case float64:
		if x == float64(int64(x)) {
			return int64(x)
		}
	}
	return v
}

// KubeconfigBootstrap reads the kubelet's kubeconfig as the node's bootstrap configuration: the
// API server, an inline CA and the cluster name its exec credential plugin is called with
// (aws-iam-authenticator -i / --cluster-id, aws eks get-token --cluster-name). The kubelet has a
// kubeconfig only once the node was bootstrapped, so CallsBootstrap is set; KubeconfigOnly says
// nothing else of the user data is shown. A kubeconfig that does not load gives a warning issue.
func KubeconfigBootstrap(raw []byte) *evidence.BootstrapConfig {
	cfg := &evidence.BootstrapConfig{Format: evidence.FormatNone, CallsBootstrap: true, KubeconfigOnly: true}
	kc, err := clientcmd.Load(raw)
	if err != nil {
		cfg.Issues = append(cfg.Issues, evidence.ParseIssue{Level: evidence.IssueWarning, Part: "kubeconfig", Message: "kubeconfig does not load: " + err.Error()})
		return cfg
	}
	names := make([]string, 0, len(kc.Clusters))
	for n := range kc.Clusters {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := kc.Clusters[n]
		cfg.APIServerEndpoint = c.Server
		if len(c.CertificateAuthorityData) > 0 {
			cfg.CertificateAuthority = base64.StdEncoding.EncodeToString(c.CertificateAuthorityData)
		}
		break
	}
	users := make([]string, 0, len(kc.AuthInfos))
	for u := range kc.AuthInfos {
		users = append(users, u)
	}
	sort.Strings(users)
	for _, u := range users {
		if ex := kc.AuthInfos[u].Exec; ex != nil {
			for i := 0; i+1 < len(ex.Args); i++ {
				switch ex.Args[i] {
				case "-i", "--cluster-id", "--cluster-name":
					cfg.ClusterName = ex.Args[i+1]
				}
			}
		}
	}
	return cfg
}

// execCluster returns the cluster name (or local Outposts cluster ID) and region that the
// kubelet kubeconfig's exec credential plugin is called with: aws-iam-authenticator
// "token -i NAME --region R" or aws "eks get-token --cluster-name NAME --region R". The
// kubeconfig is read with client-go's clientcmd; empty strings when absent or unreadable.
func execCluster(kubeconfig []byte) (name, region string) {
	if len(kubeconfig) == 0 {
		return "", ""
	}
	cfg, err := clientcmd.Load(kubeconfig)
	if err != nil {
		return "", ""
	}
	users := make([]string, 0, len(cfg.AuthInfos))
	for u := range cfg.AuthInfos {
		users = append(users, u)
	}
	sort.Strings(users)
	for _, u := range users {
		ex := cfg.AuthInfos[u].Exec
		if ex == nil {
			continue
		}
		for i := 0; i+1 < len(ex.Args); i++ {
			switch ex.Args[i] {
			case "-i", "--cluster-id", "--cluster-name":
				name = ex.Args[i+1]
			case "--region":
				region = ex.Args[i+1]
			}
		}
		if name != "" {
			return name, region
		}
	}
	return "", ""
}
