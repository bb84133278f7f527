package userdata

import (
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/pelletier/go-toml/v2"
)

// MaxBottlerocketTOML is the largest Bottlerocket settings TOML parsed, in bytes: four times the
// most EC2 holds as user data (EC2UserDataLimit, 16 KB), room for a paste's indentation and
// comments. The TOML reader's check for keys defined twice takes time quadratic in a table's keys
// (60,000 keys took minutes); larger text is named as too large, not parsed.
const MaxBottlerocketTOML = 4 * EC2UserDataLimit

// handleBottlerocket reads Bottlerocket TOML user data
// (https://bottlerocket.dev/en/os/latest/api/settings/kubernetes/).
func (d *decoder) handleBottlerocket(s, part string, firstLine int) {
	d.addFormat(evidence.FormatBottlerocket)
	if len(s) > MaxBottlerocketTOML {
		d.issue(evidence.IssueError, part, firstLine, "Bottlerocket settings TOML of %d bytes, more than %d: EC2 holds at most 16 KB of user data, so this is no node's user data; not parsed", len(s), MaxBottlerocketTOML)
		return
	}
	var doc map[string]any
	if err := toml.Unmarshal([]byte(s), &doc); err != nil {
		line := firstLine
		var de *toml.DecodeError
		if errors.As(err, &de) {
			r, _ := de.Position()
			line = max(firstLine, 1) + r - 1
		}
		d.issue(evidence.IssueError, part, line, "Bottlerocket settings TOML does not parse; early-boot-config rejects the user data and no setting is applied: %v", err)
		return
	}
	settings, _ := doc["settings"].(map[string]any)
	if settings == nil {
		d.issue(evidence.IssueWarning, part, firstLine, "TOML has no [settings] table; Bottlerocket reads settings only under settings.*")
		return
	}
	d.checkBottlerocketSysctl(settings, part, firstLine)
	k8s, _ := settings["kubernetes"].(map[string]any)
	if k8s == nil {
		return
	}
	str := func(key string) string {
		switch v := k8s[key].(type) {
		case string:
			return v
		case nil:
			return ""
		default:
			d.rejected(part, firstLine, "settings.kubernetes.%s must be a string, got %v", key, v)
			return ""
		}
	}
	d.cfg.ClusterName = str("cluster-name")
	d.cfg.APIServerEndpoint = str("api-server")
	d.cfg.CertificateAuthority = str("cluster-certificate")
	d.cfg.ContainerRuntime = "containerd"
	if d.cfg.ClusterName != "" || d.cfg.APIServerEndpoint != "" {
		d.cfg.CallsBootstrap = true
	}
	for field, v := range map[string]*string{"clusterName": &d.cfg.ClusterName, "apiServerEndpoint": &d.cfg.APIServerEndpoint, "certificateAuthority": &d.cfg.CertificateAuthority} {
		if reTemplateRef.MatchString(*v) {
			// a template's placeholder, filled in before Bottlerocket reads its settings
			d.unresolvedTemplate(field, *v)
			*v = ""
		}
	}
	// pluto's generate_node_name: an explicit hostname-override wins over its source
	if ho := str("hostname-override"); ho != "" {
		d.cfg.InstanceIDNodeName = reInstanceID.MatchString(ho)
	} else if str("hostname-override-source") == "instance-id" {
		d.cfg.InstanceIDNodeName = true
	}
	switch v := k8s["cluster-dns-ip"].(type) {
	case string:
		d.cfg.ClusterDNS = []string{v}
	case []any:
		for _, x := range v {
			d.cfg.ClusterDNS = append(d.cfg.ClusterDNS, fmt.Sprint(x))
		}
	}
	switch v := k8s["max-pods"].(type) {
	case int64:
		n := int(v)
		d.cfg.MaxPods = &n
	case string:
		// The model's max_pods is u32: a quoted number is a string, which the API rejects.
		d.rejected(part, firstLine, "settings.kubernetes.max-pods = %q is a string; Bottlerocket's settings model wants an unquoted integer and rejects the settings", v)
	case nil:
	default:
		d.rejected(part, firstLine, "settings.kubernetes.max-pods must be an integer, got %v", v)
	}
	if labels, ok := k8s["node-labels"].(map[string]any); ok {
		d.cfg.Labels = map[string]string{}
		for k, v := range labels {
			d.cfg.Labels[k] = fmt.Sprint(v)
		}
	}
	if taints, ok := k8s["node-taints"].(map[string]any); ok {
		d.bottlerocketTaints(taints, part, firstLine)
	}
	if ca := d.cfg.CertificateAuthority; ca != "" {
		if _, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(ca), "")); err != nil && !elided(ca) {
			d.rejected(part, firstLine, "settings.kubernetes.cluster-certificate is not valid base64 (%v); Bottlerocket's settings model (ValidBase64) rejects the settings", err)
		}
	}
	if sm, ok := k8s["standalone-mode"].(bool); ok && sm {
		d.issue(evidence.IssueError, part, firstLine, "settings.kubernetes.standalone-mode = true: kubelet never contacts an API server, so the node cannot join")
	}
	if strings.TrimSpace(d.cfg.CertificateAuthority) != d.cfg.CertificateAuthority {
		d.cfg.CertificateAuthority = strings.TrimSpace(d.cfg.CertificateAuthority)
	}
}

// bottlerocketTaintValue is the model's KUBERNETES_TAINT_VALUE: an optional label-like value
// (alphanumeric at both ends, . _ - inside, at most 63 characters), a colon, and an effect.
var bottlerocketTaintValue = regexp.MustCompile(`^([[:alnum:]](([[:alnum:]._-]{0,61})?[[:alnum:]])?)?:[[:alnum:]]{1,253}$`)

// bottlerocketTaints reads settings.kubernetes.node-taints as the settings model does
// (bottlerocket sources/models/src/de.rs deserialize_node_taints): each key maps to one
// "value:Effect" string or a non-empty list of them; anything else rejects the settings.
func (d *decoder) bottlerocketTaints(taints map[string]any, part string, line int) {
	keys := make([]string, 0, len(taints))
	for k := range taints {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	add := func(k string, x any) {
		v, ok := x.(string)
		if !ok {
			d.rejected(part, line, "settings.kubernetes.node-taints.%s holds %v, not a \"value:Effect\" string; Bottlerocket's settings model rejects the settings", k, x)
			return
		}
		if !bottlerocketTaintValue.MatchString(v) {
			d.rejected(part, line, "settings.kubernetes.node-taints.%s = %q is not \"value:Effect\" (for example \"gpu:NoSchedule\"); Bottlerocket's settings model rejects the settings", k, v)
			return
		}
		d.cfg.Taints = append(d.cfg.Taints, k+"="+v)
	}
	for _, k := range keys {
		switch v := taints[k].(type) {
		case string:
			add(k, v)
		case []any:
			if len(v) == 0 {
				d.rejected(part, line, "settings.kubernetes.node-taints.%s is an empty list; Bottlerocket's settings model rejects it (\"empty taint value\") and with it the settings", k)
			}
			for _, x := range v {
				add(k, x)
			}
		default:
			d.rejected(part, line, "settings.kubernetes.node-taints.%s must be a string or a list of strings, got %v; Bottlerocket's settings model rejects the settings (\"unsupported taint value type\")", k, v)
		}
	}
}

// checkBottlerocketSysctl applies the model's KernelSettings type: settings.kernel.sysctl maps
// sysctl keys to strings, so an unquoted number or boolean is rejected
// (bottlerocket sources/models/src/lib.rs, sysctl: HashMap<SysctlKey, String>).
func (d *decoder) checkBottlerocketSysctl(settings map[string]any, part string, line int) {
	kernel, _ := settings["kernel"].(map[string]any)
	sysctl, _ := kernel["sysctl"].(map[string]any)
	keys := make([]string, 0, len(sysctl))
	for k := range sysctl {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := sysctl[k].(string); !ok {
			d.rejected(part, line, "settings.kernel.sysctl.%q = %v is not a string; Bottlerocket's settings model takes sysctl values as strings (write \"%v\") and rejects the settings", k, sysctl[k], sysctl[k])
		}
	}
}

// reInstanceID matches an EC2 instance ID (i- and 8 or 17 hex digits).
var reInstanceID = regexp.MustCompile(`^i-(?:[0-9a-f]{8}|[0-9a-f]{17})$`)
