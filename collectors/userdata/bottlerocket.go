package userdata

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/pelletier/go-toml/v2"
)

// handleBottlerocket reads Bottlerocket TOML user data
// (https://bottlerocket.dev/en/os/latest/api/settings/kubernetes/).
func (d *decoder) handleBottlerocket(s, part string, firstLine int) {
	d.addFormat(evidence.FormatBottlerocket)
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
			d.issue(evidence.IssueError, part, firstLine, "settings.kubernetes.%s must be a string, got %v", key, v)
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
		if n, err := strconv.Atoi(v); err == nil {
			d.cfg.MaxPods = &n
		} else {
			d.issue(evidence.IssueError, part, firstLine, "settings.kubernetes.max-pods %q is not a number", v)
		}
	case nil:
	default:
		d.issue(evidence.IssueError, part, firstLine, "settings.kubernetes.max-pods must be an integer, got %v", v)
	}
	if labels, ok := k8s["node-labels"].(map[string]any); ok {
		d.cfg.Labels = map[string]string{}
		for k, v := range labels {
			d.cfg.Labels[k] = fmt.Sprint(v)
		}
	}
	if taints, ok := k8s["node-taints"].(map[string]any); ok {
		keys := make([]string, 0, len(taints))
		for k := range taints {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch v := taints[k].(type) {
			case string:
				d.cfg.Taints = append(d.cfg.Taints, k+"="+v)
			case []any:
				for _, x := range v {
					d.cfg.Taints = append(d.cfg.Taints, k+"="+fmt.Sprint(x))
				}
			}
		}
	}
	if sm, ok := k8s["standalone-mode"].(bool); ok && sm {
		d.issue(evidence.IssueError, part, firstLine, "settings.kubernetes.standalone-mode = true: kubelet never contacts an API server, so the node cannot join")
	}
	if strings.TrimSpace(d.cfg.CertificateAuthority) != d.cfg.CertificateAuthority {
		d.cfg.CertificateAuthority = strings.TrimSpace(d.cfg.CertificateAuthority)
	}
}
