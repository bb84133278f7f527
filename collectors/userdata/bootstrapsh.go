package userdata

import (
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// checkIPFamily applies bootstrap.sh's checks of --ip-family and --service-ipv6-cidr: the
// family is lower-cased and must be ipv4 or ipv6, and an IPv6 service CIDR requires the ipv6
// family; otherwise the script exits 1 before writing the kubelet configuration.
// Source: amazon-eks-ami templates/al2/runtime/bootstrap.sh ("Invalid --ip-family",
// "--ip-family should be ipv6 when --service-ipv6-cidr is specified").
func (d *decoder) checkIPFamily(opts map[string]value, part string, line int) {
	fam, ok := opts["--ip-family"]
	if !ok || len(fam.unresolved) > 0 {
		return
	}
	f := strings.ToLower(fam.s)
	if f != "" && f != "ipv4" && f != "ipv6" {
		d.issue(evidence.IssueError, part, line, "bootstrap.sh --ip-family %q is neither ipv4 nor ipv6; the script exits with 'Invalid --ip-family'", fam.s)
		return
	}
	if v6, ok := opts["--service-ipv6-cidr"]; ok && v6.s != "" && f == "ipv4" {
		d.issue(evidence.IssueError, part, line, "bootstrap.sh is given --service-ipv6-cidr with --ip-family ipv4; the script exits with '--ip-family should be ipv6 when --service-ipv6-cidr is specified'")
	}
}

// systemdSplit splits a value the way systemd expands an unbraced $VAR in ExecStart=:
// blanks separate words, single and double quotes group and are removed, and a backslash
// keeps the next character literally. bootstrap.sh stores --kubelet-extra-args in the
// kubelet unit's KUBELET_EXTRA_ARGS environment variable and kubelet.service runs
// "/usr/bin/kubelet ... $KUBELET_EXTRA_ARGS", so this is how the kubelet receives them.
// Source: systemd src/basic/env-util.c replace_env_argv (strv_split_full with
// EXTRACT_RELAX|EXTRACT_UNQUOTE).
func systemdSplit(s string) []string {
	var out []string
	var b strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			inWord = true
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote = c
			inWord = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				out = append(out, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, b.String())
	}
	return out
}

// endpointAndCATogether applies bootstrap.sh's rule that --apiserver-endpoint and
// --b64-cluster-ca count only together: when either is empty the script calls
// "aws eks describe-cluster" and overwrites both with the cluster's values, so a lone value
// is not what the node uses. Values from variables unresolved here may be set at run time and
// are left alone. Source: amazon-eks-ami templates/al2/runtime/bootstrap.sh
// ("--b64-cluster-ca or --apiserver-endpoint is not defined, describing cluster...").
func (d *decoder) endpointAndCATogether(part string, line int) {
	c := d.cfg
	if c.Unresolved["apiServerEndpoint"] != "" || c.Unresolved["certificateAuthority"] != "" {
		return
	}
	switch {
	case c.APIServerEndpoint != "" && c.CertificateAuthority == "":
		d.issue(evidence.IssueWarning, part, line, "bootstrap.sh is given --apiserver-endpoint %s without --b64-cluster-ca; it then calls DescribeCluster and uses the cluster's endpoint and CA, ignoring this one", c.APIServerEndpoint)
		c.APIServerEndpoint = ""
	case c.CertificateAuthority != "" && c.APIServerEndpoint == "":
		d.issue(evidence.IssueWarning, part, line, "bootstrap.sh is given --b64-cluster-ca without --apiserver-endpoint; it then calls DescribeCluster and uses the cluster's endpoint and CA, ignoring this one")
		c.CertificateAuthority = ""
	}
}

// localOutpostClusterID applies bootstrap.sh's rule for local Outposts clusters: with
// --enable-local-outpost exactly "true", the bootstrap kubeconfig needs the cluster ID, which
// comes from --cluster-id (or an exported CLUSTER_ID) or from DescribeCluster. The script calls
// DescribeCluster only when --b64-cluster-ca or --apiserver-endpoint is missing, so with both
// given and no ID it logs "Cluster ID is required when local outpost support is enabled" and
// exits 1. Values set at run time are not judged. Source: amazon-eks-ami
// templates/al2/runtime/bootstrap.sh (parent of b2289030), the `if [[ "${ENABLE_LOCAL_OUTPOST}"
// == "true" ]]` block.
func (d *decoder) localOutpostClusterID(opts map[string]value, part string, line int) {
	on, ok := opts["--enable-local-outpost"]
	if !ok || len(on.unresolved) > 0 || on.s != "true" {
		return
	}
	c := d.cfg
	if c.APIServerEndpoint == "" || c.CertificateAuthority == "" {
		return // DescribeCluster runs and gives the ID
	}
	if id, ok := opts["--cluster-id"]; ok && (len(id.unresolved) > 0 || id.s != "") {
		return
	}
	if v, ok := d.env["CLUSTER_ID"]; ok && v != "" {
		return // possibly exported to the script; not judged
	}
	d.issue(evidence.IssueError, part, line, "bootstrap.sh is given --enable-local-outpost true with --apiserver-endpoint and --b64-cluster-ca but no --cluster-id; it skips DescribeCluster, so it has no cluster ID for the local cluster's bootstrap kubeconfig, logs 'Cluster ID is required when local outpost support is enabled' and exits 1 (add --cluster-id with the id from aws eks describe-cluster)")
}
