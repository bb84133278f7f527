package bundle

import (
	"path"
	"strings"
)

type role int

const (
	roleIgnore  role = iota
	roleLog          // scanned for signatures
	roleConfig       // held in memory and parsed
	roleBoth         // parsed and scanned
	roleKubeDNS      // streamed for the kube-dns Service IP kube-proxy's rules name (iptablesKubeDNS)
)

// configFiles are parsed (docs/bundle-formats.md §2.3, §3.3, §4.2). Windows paths are compared
// lower-cased.
var configFiles = map[string]bool{
	"settings.json": true, "os-release": true, "logdog.errors": true, "kube-status": true,
	"system/instance-id.txt": true, "system/region.txt": true, "system/availability-zone.txt": true,
	"system/pkglist.txt": true, "system/services.txt": true, "kernel/uname.txt": true,
	"kubelet/kubeconfig.yaml": true, "kubelet/kubelet-config.json": true, "kubelet/kubelet_service.txt": true, "kubelet/config.json": true,
	"ipamd/enis.json": true, "networking/resolv.conf": true, "containerd/containerd-version.txt": true,
	"system/kubelet/kubeconfig": true, "system/kubelet/kubelet-config.json": true, "system/sysinfo": true,
}

// bothFiles are parsed for configuration and also scanned as logs.
var bothFiles = map[string]bool{
	"nodeadm/nodeadm-config.log": true, "nodeadm/nodeadm-run.log": true,
	"var_log/cloud-init-output.log": true, "networking/curl_api_server.txt": true,
}

// classify says what to do with a normalised member path and which log stream it is.
func classify(rel string) (role, string) {
	low := strings.ToLower(rel)
	if bothFiles[rel] {
		if strings.HasPrefix(rel, "nodeadm/") {
			return roleBoth, "nodeadm"
		}
		if strings.HasPrefix(rel, "networking/") {
			return roleBoth, "curl"
		}
		return roleBoth, "cloud-init"
	}
	if configFiles[rel] || configFiles[low] || strings.HasPrefix(rel, "cni/") || strings.HasPrefix(low, "system/cni/") {
		return roleConfig, ""
	}
	base := path.Base(rel)
	switch {
	case rel == "iptables-nat", rel == "networking/iptables-nat.txt", rel == "networking/iptables-save.txt",
		rel == "networking/ip6tables-nat.txt", rel == "networking/ip6tables-save.txt":
		return roleKubeDNS, ""
	case rel == "journalctl.log", rel == "var_log/messages", rel == "var_log/syslog":
		return roleLog, "journal"
	case rel == "kubelet/kubelet.log", low == "system/kubelet/kubelet-service.csv":
		return roleLog, "kubelet"
	case rel == "containerd/containerd-log.txt", low == "system/containerd_log/panic.log":
		return roleLog, "containerd"
	case rel == "ipamd.log", strings.HasPrefix(rel, "var_log/aws-routed-eni/ipamd"):
		return roleLog, "ipamd"
	case rel == "plugin.log", strings.HasPrefix(rel, "var_log/aws-routed-eni/"):
		return roleLog, "plugin"
	case rel == "dmesg", strings.HasPrefix(rel, "kernel/dmesg"):
		return roleLog, "kernel"
	case rel == "var_log/cloud-init.log", rel == "var_log/user-data.log":
		return roleLog, "cloud-init"
	case rel == "sandbox-image/sandbox-image-log.txt":
		return roleLog, "sandbox-image"
	case strings.HasPrefix(rel, "nodeadm/"):
		return roleLog, "nodeadm"
	case strings.HasPrefix(rel, "var_log/") && strings.HasSuffix(base, ".log") && strings.Contains(rel, "aws-node"):
		return roleLog, "aws-node"
	case strings.HasPrefix(rel, "var_log/") && strings.Contains(rel, "kube-system") && strings.HasSuffix(base, ".log"):
		return roleLog, "container"
	case strings.HasPrefix(low, "system/eks/"):
		return roleLog, "bootstrap"
	case low == "system/system-eventlogs.csv", low == "system/application-eventlogs.csv", low == "system/kube-proxy/kube-proxy-service.csv":
		return roleLog, "windows-events"
	}
	return roleIgnore, ""
}

// NestedArchiveProblem is the input problem listed for a member that is itself an archive
// (isArchive): its contents are not read.
const NestedArchiveProblem = "not opened: an archive inside the bundle is never read; extract it and analyze it on its own (eksdoctor analyze FILE)"

// archiveSuffixes are the lower-cased name endings of archive members (a rotated log's plain
// ".gz" is not one: it is read as the log it compresses).
var archiveSuffixes = []string{".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz", ".tar.zst", ".tzst", ".zip", ".7z", ".rar"}

// isArchive reports whether a member path names an archive by its ending.
func isArchive(rel string) bool {
	low := strings.ToLower(rel)
	for _, s := range archiveSuffixes {
		if strings.HasSuffix(low, s) {
			return true
		}
	}
	return false
}
