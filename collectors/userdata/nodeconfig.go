package userdata

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// nodeConfigDoc is the AL2023 nodeadm NodeConfig (apiVersion node.eks.aws/v1alpha1), limited to
// the fields eksdoctor reads; see https://awslabs.github.io/amazon-eks-ami/nodeadm/doc/api/.
type nodeConfigDoc struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Spec       struct {
		Cluster struct {
			Name                 string `json:"name,omitempty"`
			APIServerEndpoint    string `json:"apiServerEndpoint,omitempty"`
			CertificateAuthority string `json:"certificateAuthority,omitempty"`
			CIDR                 string `json:"cidr,omitempty"`
			EnableOutpost        *bool  `json:"enableOutpost,omitempty"`
			ID                   string `json:"id,omitempty"`
			// Region is a field of the hybrid nodeadm's API only (aws/eks-hybrid
			// api/v1alpha1/nodeconfig_types.go ClusterDetails.Region); the AL2023 nodeadm's
			// ClusterDetails has none and ignores it.
			Region string `json:"region,omitempty"`
		} `json:"cluster"`
		Kubelet struct {
			Config map[string]any `json:"config,omitempty"`
			Flags  []string       `json:"flags,omitempty"`
		} `json:"kubelet"`
		Containerd   map[string]any  `json:"containerd,omitempty"`
		Instance     map[string]any  `json:"instance,omitempty"`
		FeatureGates map[string]bool `json:"featureGates,omitempty"`
		// Hybrid configures an EKS hybrid node (ssm, iamRolesAnywhere); its presence, which of
		// the two it sets and the IAM Roles Anywhere role are read
		// (spec.hybrid.ssm.activationCode is a secret).
		Hybrid map[string]any `json:"hybrid,omitempty"`
	} `json:"spec"`
}

// yamlDocs splits YAML text into documents at "---" lines, returning each with its first line
// (relative to the text, 1-based).
func yamlDocs(s string) (docs []string, lines []int) {
	var cur strings.Builder
	start := 1
	for i, l := range strings.Split(s, "\n") {
		if strings.TrimRight(l, " \t\r") == "---" || strings.HasPrefix(l, "--- ") {
			if strings.TrimSpace(cur.String()) != "" {
				docs = append(docs, cur.String())
				lines = append(lines, start)
			}
			cur.Reset()
			start = i + 2
			continue
		}
		cur.WriteString(l)
		cur.WriteByte('\n')
	}
	if strings.TrimSpace(stripComments(cur.String())) != "" {
		docs = append(docs, cur.String())
		lines = append(lines, start)
	}
	return docs, lines
}

func stripComments(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// nodeConfigVersion is the only apiVersion nodeadm's scheme registers
// (amazon-eks-ami nodeadm/internal/api/bridge/scheme.go: v1alpha1.AddToScheme).
const nodeConfigVersion = "node.eks.aws/v1alpha1"

// handleNodeConfig reads one application/node.eks.aws part (or a whole user data that is a
// NodeConfig) as nodeadm's DecodeNodeConfig does (amazon-eks-ami
// nodeadm/internal/api/bridge/decode.go): apimachinery's YAML serializer converts only the
// first YAML document to JSON, reads apiVersion and kind case-insensitively, and decodes the
// object with case-sensitive field names, ignoring unknown ones.
func (d *decoder) handleNodeConfig(s, part string, firstLine int) {
	d.cfg.Parts = append(d.cfg.Parts, describe(part, "NodeConfig"))
	d.addFormat(evidence.FormatNodeConfig)
	base := firstLine
	if base == 0 {
		base = 1
	}
	if firstYAMLDocumentEmpty(s) {
		d.issue(evidence.IssueError, part, base, "the first YAML document of the NodeConfig is empty (two --- lines before any content); nodeadm decodes only the first document and fails with 'Object Kind is missing'")
		return
	}
	docs, lines := yamlDocs(s)
	read := false
	for k, doc := range docs {
		line := base + lines[k] - 1
		if strings.TrimSpace(stripComments(doc)) == "" {
			continue
		}
		if read {
			d.issue(evidence.IssueWarning, part, line, "nodeadm decodes only the first YAML document of a part; this document and any after it are ignored (put each NodeConfig in its own application/node.eks.aws MIME part)")
			break
		}
		read = true
		js, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			d.issue(evidence.IssueError, part, line+yamlErrLine(err)-1, "NodeConfig YAML does not parse: %v", err)
			continue
		}
		// apiVersion and kind: apimachinery's SimpleMetaFactory.Interpret (encoding/json,
		// case-insensitive keys).
		var tm struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := json.Unmarshal(js, &tm); err != nil {
			d.issue(evidence.IssueError, part, line, "NodeConfig does not decode (nodeadm rejects it): %v", err)
			continue
		}
		if tm.Kind != "NodeConfig" || tm.APIVersion != nodeConfigVersion {
			d.issue(evidence.IssueError, part, line, "document has apiVersion %q kind %q; nodeadm decodes only apiVersion %s kind NodeConfig and rejects the user data", tm.APIVersion, tm.Kind, nodeConfigVersion)
			continue
		}
		var nc nodeConfigDoc
		strictErrs, err := kjson.UnmarshalStrict(js, &nc, kjson.DisallowUnknownFields)
		if err != nil {
			d.issue(evidence.IssueError, part, line, "NodeConfig does not decode (nodeadm rejects it): %v", strings.TrimPrefix(err.Error(), "json: "))
			continue
		}
		nc.APIVersion, nc.Kind = tm.APIVersion, tm.Kind
		for _, e := range strictErrs {
			msg := strings.TrimPrefix(e.Error(), "json: ")
			if f := strings.ToLower(msg); f == `unknown field "apiversion"` || f == `unknown field "kind"` {
				continue // read case-insensitively above
			}
			d.issue(evidence.IssueWarning, part, line, "NodeConfig has a field nodeadm does not know and ignores (field names are case-sensitive): %v", msg)
		}
		if nc.Spec.Cluster.Region != "" && len(nc.Spec.Hybrid) == 0 {
			// only the hybrid nodeadm (spec.hybrid) knows spec.cluster.region
			d.issue(evidence.IssueWarning, part, line, "NodeConfig has a field nodeadm does not know and ignores (field names are case-sensitive): unknown field %q (only a hybrid node's NodeConfig, with spec.hybrid, has it)", "spec.cluster.region")
		}
		if ca := nc.Spec.Cluster.CertificateAuthority; ca != "" {
			if _, err := base64.StdEncoding.DecodeString(strings.TrimSpace(ca)); err != nil && !elided(ca) {
				d.issue(evidence.IssueError, part, line, "spec.cluster.certificateAuthority is not valid base64 (%v); nodeadm fails to decode the NodeConfig", err)
			}
		}
		d.nodeConfigs = append(d.nodeConfigs, nc)
	}
	if len(d.nodeConfigs) > 0 {
		d.cfg.CallsBootstrap = true
	}
}

// firstYAMLDocumentEmpty reports whether the text's first YAML document is explicit and empty:
// a second "---" line comes before any content (comments and blank lines are not content).
func firstYAMLDocumentEmpty(s string) bool {
	markers := 0
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimRight(l, " \t\r")
		switch {
		case t == "---":
			markers++
			if markers == 2 {
				return true
			}
		case strings.TrimSpace(t) == "" || strings.HasPrefix(strings.TrimSpace(t), "#"):
		default:
			return false
		}
	}
	return false
}

func yamlErrLine(err error) int {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+5:]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if n, e := strconv.Atoi(rest[:j]); e == nil {
			return n
		}
	}
	return 1
}

// mergeNodeConfigs merges documents in order as nodeadm does: later non-empty values win,
// kubelet config keys are merged, kubelet flags are appended.
func (d *decoder) mergeNodeConfigs() {
	if len(d.nodeConfigs) == 0 {
		return
	}
	kcfg := map[string]any{}
	var flags []string
	var outpost *bool
	clusterID := ""
	for _, nc := range d.nodeConfigs {
		c := nc.Spec.Cluster
		if c.EnableOutpost != nil {
			outpost = c.EnableOutpost
		}
		if len(nc.Spec.Hybrid) > 0 {
			d.cfg.Hybrid = true
			if m, ok := nc.Spec.Hybrid["iamRolesAnywhere"].(map[string]any); ok {
				d.cfg.HybridCredentials = evidence.HybridIAMRolesAnywhere
				if r, ok := m["roleArn"].(string); ok && r != "" {
					d.cfg.HybridRoleARN = r
				}
			} else if _, ok := nc.Spec.Hybrid["ssm"].(map[string]any); ok {
				d.cfg.HybridCredentials = evidence.HybridSSM
			}
		}
		if c.ID != "" {
			clusterID = c.ID
		}
		for field, v := range map[string]*string{"clusterName": &c.Name, "apiServerEndpoint": &c.APIServerEndpoint, "certificateAuthority": &c.CertificateAuthority} {
			if reTemplateRef.MatchString(*v) {
				// a template's placeholder, filled in before nodeadm reads it
				d.unresolvedTemplate(field, *v)
				*v = ""
			}
		}
		if c.Name != "" {
			d.cfg.ClusterName = c.Name
		}
		if c.APIServerEndpoint != "" {
			d.cfg.APIServerEndpoint = c.APIServerEndpoint
		}
		if c.CertificateAuthority != "" {
			d.cfg.CertificateAuthority = strings.TrimSpace(c.CertificateAuthority)
		}
		if c.CIDR != "" {
			d.cfg.ServiceCIDR = c.CIDR
		}
		if on, ok := nc.Spec.FeatureGates["InstanceIdNodeName"]; ok {
			d.cfg.InstanceIDNodeName = on
		}
		for k, v := range nc.Spec.Kubelet.Config {
			kcfg[k] = v
		}
		flags = append(flags, nc.Spec.Kubelet.Flags...)
	}
	if outpost != nil && *outpost && clusterID == "" {
		// nodeadm/internal/api/validation.go ValidateNodeConfig
		d.issue(evidence.IssueError, "NodeConfig", 0, "spec.cluster.enableOutpost is true but no part sets spec.cluster.id; nodeadm init fails validation with 'cluster ID must be provided for outposts'")
	}
	d.cfg.ContainerRuntime = "containerd"
	if v, ok := kcfg["clusterDNS"]; ok {
		d.cfg.ClusterDNS = nil
		switch t := v.(type) {
		case []any:
			for _, x := range t {
				d.cfg.ClusterDNS = append(d.cfg.ClusterDNS, fmt.Sprint(x))
			}
		case string:
			d.cfg.ClusterDNS = []string{t}
		}
	}
	if v, ok := kcfg["maxPods"]; ok {
		switch t := v.(type) {
		case int64:
			n := int(t)
			d.cfg.MaxPods = &n
		case float64:
			n := int(t)
			d.cfg.MaxPods = &n
		default:
			d.issue(evidence.IssueError, "NodeConfig", 0, "spec.kubelet.config.maxPods is %v, not a number; kubelet rejects the configuration", v)
		}
	}
	if v, ok := kcfg["registerWithTaints"].([]any); ok {
		for _, t := range v {
			if m, ok := t.(map[string]any); ok {
				d.cfg.Taints = append(d.cfg.Taints, fmt.Sprintf("%v=%v:%v", m["key"], valueOr(m["value"]), m["effect"]))
			}
		}
	}
	d.applyKubeletArgs(splitFlags(flags), "NodeConfig", 0)
}

func valueOr(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// splitFlags turns NodeConfig kubelet.flags entries (each "--name=value", sometimes several
// separated by blanks) into single flags as the kubelet receives them: nodeadm joins the entries
// into the kubelet unit's NODEADM_KUBELET_ARGS, which kubelet.service expands unbraced, so blanks
// split and quotes anywhere are removed (systemdSplit). Karpenter writes
// --node-labels="k=v,…" (its bootstrap options quote the value); the kubelet sees k=v,….
func splitFlags(in []string) []string {
	var out []string
	for _, f := range in {
		out = append(out, systemdSplit(f)...)
	}
	return out
}

// elided reports whether a value that does not decode was shortened or masked by whoever posted
// it rather than written wrong: it holds an ellipsis ("...", "…"), angle brackets
// ("<base64 CA>"), asterisks, a run of x's or the word "redacted". A CA cut to "LS0t...==" tells
// nothing about what the node was given, so it is not reported as invalid base64.
func elided(v string) bool {
	l := strings.ToLower(v)
	return strings.Contains(v, "...") || strings.ContainsAny(v, "…<>*") || strings.Contains(l, "xxx") || strings.Contains(l, "redacted")
}
