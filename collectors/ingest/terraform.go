package ingest

import (
	"regexp"
	"slices"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/awsauth"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

var (
	// reTFResource is the header of one resource in a Terraform plan.
	reTFResource = regexp.MustCompile(`^\s*#\s+(\S+)\s+(will be (?:updated in-place|destroyed|created|replaced)|must be replaced)`)
	reTFAWSAuth  = regexp.MustCompile(`kubernetes_config_map(?:_v1)?(?:_data)?\.aws_auth|resource "kubernetes_config_map(?:_v1)?(?:_data)?" "aws_auth"`)
	// reTFHeredoc opens a heredoc attribute: `~ "mapRoles" = <<-EOT` (the marker's column matters).
	reTFHeredoc = regexp.MustCompile(`^(\s*)([-+~])\s+"?(mapRoles|mapUsers)"?\s*=\s*<<[-~]?(\w+)`)
)

// tfPlan is a Terraform plan's view of aws-auth: the role mappings before and after, per resource.
type tfPlan struct {
	before, after []evidence.RoleMapping
	// resources names the aws-auth resources the plan touches.
	resources []string
	// lines maps a role ARN to the plan line that shows its entry.
	lines map[string]int
}

// terraformAWSAuth recognises a Terraform plan that changes aws-auth (kubernetes_config_map or
// kubernetes_config_map_v1_data "aws_auth"): Terraform prints each heredoc line with a diff
// marker two columns left of the content, so the mappings before and after can be rebuilt.
func terraformAWSAuth(lines []line) (Segment, bool) {
	text := string(joinLines(lines))
	if !strings.Contains(text, "mapRoles") || !reTFAWSAuth.MatchString(text) { // the cheaper test first
		return Segment{}, false
	}
	plan := &tfPlan{lines: map[string]int{}}
	resource := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i].text
		if m := reTFResource.FindStringSubmatch(l); m != nil {
			resource = m[1]
			if reTFAWSAuth.MatchString(m[1]) {
				plan.resources = append(plan.resources, m[1]+" "+m[2])
			}
			continue
		}
		m := reTFHeredoc.FindStringSubmatch(l)
		if m == nil || m[3] != "mapRoles" || (resource != "" && !reTFAWSAuth.MatchString(resource)) {
			continue
		}
		col, marker, eot := len(m[1]), m[2], m[4]
		var before, after strings.Builder
		lineOf := map[int]int{}
		j := i + 1
		for ; j < len(lines); j++ {
			t := lines[j].text
			if strings.TrimSpace(t) == eot {
				break
			}
			content, mark := t, byte(' ')
			if tt := strings.TrimSpace(t); tt == "+" || tt == "-" {
				mark, content = tt[0], "" // an added or removed empty line
			} else if len(t) > col+5 && (t[col+4] == '+' || t[col+4] == '-') && t[col+5] == ' ' && strings.TrimSpace(t[:col+4]) == "" {
				mark = t[col+4]
				content = t[col+6:]
			} else if len(t) >= col+6 && strings.TrimSpace(t[:col+6]) == "" {
				content = t[col+6:]
			} else {
				content = strings.TrimLeft(t, " ")
			}
			inBefore := marker == "-" || marker == "~" && mark != '+'
			inAfter := marker == "+" || marker == "~" && mark != '-'
			if inBefore {
				before.WriteString(content + "\n")
			}
			if inAfter {
				after.WriteString(content + "\n")
			}
			lineOf[j] = lines[j].n
		}
		b, a := planRoles(before.String()), planRoles(after.String())
		plan.before = append(plan.before, b...)
		plan.after = append(plan.after, a...)
		for k := i + 1; k < j; k++ {
			if idx := strings.Index(lines[k].text, "rolearn"); idx >= 0 {
				for _, r := range append(b, a...) {
					if strings.Contains(lines[k].text, r.RoleArn) {
						if _, ok := plan.lines[r.RoleArn]; !ok {
							plan.lines[r.RoleArn] = lines[k].n
						}
					}
				}
			}
		}
		i = j
	}
	if len(plan.resources) == 0 && len(plan.before)+len(plan.after) == 0 {
		return Segment{}, false
	}
	s := seg(TypeTerraformAWSAuth, "Terraform plan changing aws-auth", lines)
	s.value = plan
	return s, true
}

// planRoles reads one side of a mapRoles heredoc: as the authenticator parses it, or, when the
// plan's text does not parse as YAML (redacted "***" values, Terraform's own markers), entry by
// entry.
func planRoles(text string) []evidence.RoleMapping {
	if a := awsauth.Parse(map[string]string{"mapRoles": text}); len(a.Problems) == 0 {
		return a.Roles
	}
	var out []evidence.RoleMapping
	// a plan cut inside an entry keeps what it shows of it (a removed entry's groups, its
	// rolearn below the cut)
	for i, e := range fragmentEntries(splitLines([]byte(text)), true) {
		m := e.(map[string]any)
		r := evidence.RoleMapping{Index: i}
		r.RoleArn, _ = m["rolearn"].(string)
		r.Cut = r.RoleArn == ""
		r.Username, _ = m["username"].(string)
		if gs, ok := m["groups"].([]any); ok {
			for _, g := range gs {
				if s, ok := g.(string); ok {
					r.Groups = append(r.Groups, s)
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// reRoleArn is a complete IAM role ARN (account ID and role name present).
var reRoleArn = regexp.MustCompile(`^arn:aws[\w-]*:iam::\d{12}:role/[\w+=,.@/-]+$`)

// obscured reports whether a role ARN as posted cannot be compared: cut short or redacted by the
// poster ("arn:aws:iam::<redacted>", "arn:aws:iam::***:role/x", "arn:aws:iam::xxxx:role/…").
func obscured(arn string) bool {
	l := strings.ToLower(arn)
	return !reRoleArn.MatchString(arn) || strings.ContainsAny(arn, "<>*…") || strings.Contains(l, "xxx") || strings.Contains(l, "redacted")
}

// sameMapping reports whether two mapRoles entries of a plan's two sides are the same mapping:
// the same role ARN, or, when either ARN is obscured (the poster's redaction or a cut line), the
// same username and groups, as when a plan only re-quotes or re-indents the entries.
func sameMapping(a, b evidence.RoleMapping) bool {
	if strings.EqualFold(a.RoleArn, b.RoleArn) {
		return true
	}
	if !obscured(a.RoleArn) && !obscured(b.RoleArn) || a.Username != b.Username || len(a.Groups) != len(b.Groups) {
		return false
	}
	ga, gb := slices.Clone(a.Groups), slices.Clone(b.Groups)
	slices.Sort(ga)
	slices.Sort(gb)
	return slices.Equal(ga, gb)
}

// changes returns the mappings the plan removes (in before, absent after) and adds.
func (p *tfPlan) changes(via string) []evidence.MappingChange {
	in := func(list []evidence.RoleMapping, m evidence.RoleMapping) bool {
		for _, r := range list {
			if sameMapping(r, m) {
				return true
			}
		}
		return false
	}
	var out []evidence.MappingChange
	for _, r := range p.before {
		if !in(p.after, r) {
			out = append(out, evidence.MappingChange{Action: "removed", RoleArn: r.RoleArn, Username: r.Username, Groups: r.Groups, Via: via, Line: p.lines[r.RoleArn]})
		}
	}
	for _, r := range p.after {
		if !in(p.before, r) {
			out = append(out, evidence.MappingChange{Action: "added", RoleArn: r.RoleArn, Username: r.Username, Groups: r.Groups, Via: via, Line: p.lines[r.RoleArn]})
		}
	}
	return out
}

const (
	detailTFNodeArgs   = "Terraform node group bootstrap arguments"
	detailTFNodeLabels = "Terraform managed node group labels"
	// tfClusterNotShown stands for the cluster name a Terraform block did not show; it is
	// dropped from the decoded configuration.
	tfClusterNotShown = "CLUSTER_NAME_NOT_SHOWN"
)

var (
	// reHCLAttr is one attribute line of a Terraform (HCL) block: `name = value`.
	reHCLAttr = regexp.MustCompile(`^\s*"?([A-Za-z_][A-Za-z0-9_-]*)"?\s*=\s*(.*?)\s*,?\s*$`)
	// reHCLString is a value that is one literal string.
	reHCLString = regexp.MustCompile(`^"((?:[^"\\]|\\.)*)"$`)
	// reHCLOpen is a line opening a block or map: `name = {`, `name {`, `resource "T" "N" {`.
	reHCLOpen = regexp.MustCompile(`^\s*(?:(?:resource|module|data)\s+"([^"]+)"(?:\s+"[^"]*")?|"?([A-Za-z_][A-Za-z0-9_./-]*)"?(?:\s*=)?)\s*\{\s*$`)
	// reHCLMapEntry is one `key = "value"` entry of a map, the key quoted or bare.
	reHCLMapEntry = regexp.MustCompile(`^\s*(?:"([^"]+)"|([A-Za-z0-9_./-]+))\s*[=:]\s*"([^"]*)"\s*,?\s*$`)
	// reNodeGroupBlock names a Terraform block that declares node groups: the terraform-aws-eks
	// module's eks_managed_node_groups (and their defaults), node_groups and worker_groups, and
	// the provider's aws_eks_node_group resource.
	reNodeGroupBlock = regexp.MustCompile(`node_groups?(?:_defaults)?$|node_group_defaults$|worker_groups?$|^aws_eks_node_group$`)
)

// tfNodeGroup is what terraformNodeArgs read: the bootstrap.sh command line the module's AL2
// template runs ("" when the block gives no arguments) and the managed node group's labels.
type tfNodeGroup struct {
	script string
	labels map[string]string
}

// terraformNodeArgs reads a node group's bootstrap arguments out of Terraform configuration
// (terraform-aws-eks worker groups and self-managed node groups, or any block with the same
// attributes): kubelet_extra_args and bootstrap_extra_args become the bootstrap.sh command line
// the module's AL2 user data template runs (/etc/eks/bootstrap.sh CLUSTER BOOTSTRAP_EXTRA_ARGS
// --kubelet-extra-args 'KUBELET_EXTRA_ARGS'), read as a pasted excerpt. Values that are not one
// literal string (interpolations, function calls, variables) say nothing about the node and
// are not read; nor are blocks whose AMI is not bootstrapped by bootstrap.sh (AL2023's nodeadm,
// Bottlerocket's TOML), where these attributes mean something else. The literal labels map
// of a block nested in a node group declaration (labels, k8s_labels) is read whatever the AMI:
// EKS passes a managed node group's labels to the kubelet's --node-labels; labels of anything
// else (a Kubernetes object's metadata) are not node labels.
func terraformNodeArgs(lines []line) (Segment, bool) {
	attrs, hcl := map[string]string{}, 0
	var stack []string // enclosing blocks, outermost first
	var labels map[string]string
	inLabels := func() bool {
		if n := len(stack); n == 0 || stack[n-1] != "labels" && stack[n-1] != "k8s_labels" {
			return false
		}
		for _, b := range stack[:len(stack)-1] {
			if b == "metadata" || strings.HasPrefix(b, "kubernetes_") {
				return false
			}
		}
		for _, b := range stack[:len(stack)-1] {
			if reNodeGroupBlock.MatchString(b) {
				return true
			}
		}
		return false
	}
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if m := reHCLOpen.FindStringSubmatch(l.text); m != nil {
			stack = append(stack, m[1]+m[2])
			hcl++
			continue
		}
		if t == "}" || t == "}," {
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			hcl++
			continue
		}
		if inLabels() {
			if m := reHCLMapEntry.FindStringSubmatch(l.text); m != nil && !strings.Contains(m[3], "${") {
				if labels == nil {
					labels = map[string]string{}
				}
				labels[m[1]+m[2]] = m[3]
				hcl++
				continue
			}
		}
		if t == "" || t == "{" || t == "[" || t == "]" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") ||
			strings.HasSuffix(t, "{") || strings.HasSuffix(t, "[") {
			hcl++
			continue
		}
		m := reHCLAttr.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		hcl++
		if s := reHCLString.FindStringSubmatch(m[2]); s != nil && !strings.Contains(s[1], "${") {
			attrs[strings.ToLower(m[1])] = strings.ReplaceAll(s[1], `\"`, `"`)
		} else {
			attrs[strings.ToLower(m[1])+"?"] = m[2] // present, not a literal
		}
	}
	kubelet, bootstrap := attrs["kubelet_extra_args"], attrs["bootstrap_extra_args"]
	if hcl*10 < len(lines)*9 || kubelet == "" && bootstrap == "" && len(labels) == 0 {
		return Segment{}, false
	}
	amiType := strings.ToUpper(attrs["ami_type"] + attrs["platform"])
	if strings.Contains(amiType, "AL2023") || strings.Contains(amiType, "BOTTLEROCKET") || strings.Contains(amiType, "WINDOWS") {
		kubelet, bootstrap = "", ""
	}
	if kubelet == "" && bootstrap == "" {
		if len(labels) == 0 {
			return Segment{}, false
		}
		s := seg(TypeUserData, detailTFNodeLabels, lines)
		s.value = tfNodeGroup{labels: labels}
		return s, true
	}
	cluster := attrs["cluster_name"]
	if cluster == "" {
		cluster = tfClusterNotShown
	}
	script := "#!/bin/bash -e\n/etc/eks/bootstrap.sh " + cluster
	if bootstrap != "" {
		script += " " + bootstrap
	}
	if kubelet != "" {
		script += " --kubelet-extra-args '" + strings.ReplaceAll(kubelet, "'", `'\''`) + "'"
	}
	s := seg(TypeUserData, detailTFNodeArgs, lines)
	s.value = tfNodeGroup{script: script + "\n", labels: labels}
	return s, true
}

var (
	// reTFEKSCluster opens an aws_eks_cluster resource in a plan or configuration
	// (`~ resource "aws_eks_cluster" "this" {`).
	reTFEKSCluster = regexp.MustCompile(`^\s*(?:[-+~]|-/\+|\+/-)?\s*resource\s+"aws_eks_cluster"\s+"[^"]+"\s*\{\s*$`)
	// reTFPlanAttr is one attribute line of a plan or configuration, with its diff marker and,
	// for a change, the value before and after the arrow.
	reTFPlanAttr = regexp.MustCompile(`^\s*([-+~]|-/\+|\+/-)?\s*([a-z_][a-z0-9_]*)\s*=\s*(.*?)\s*(?:->\s*(.*?)\s*)?(?:#.*)?$`)
)

// terraformCluster reads an aws_eks_cluster resource of a Terraform plan or configuration as the
// describe-cluster fields it sets: name (or the plan's id), version, access_config's
// authentication_mode and vpc_config's endpoint access flags, each at its value after the change
// ("API_AND_CONFIG_MAP" -> "API" is API). The lines must be the resource alone (its header
// comment before it); ok is false when nothing but the name is known. The document is narrowed
// (selected): the fields a plan hides are unknown, not absent.
// https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/eks_cluster
func terraformCluster(lines []line) (Segment, bool) {
	start := -1
	for i, l := range lines {
		if reTFEKSCluster.MatchString(l.text) {
			start = i
			break
		}
		if t := strings.TrimSpace(l.text); t != "" && !reTFResource.MatchString(l.text) {
			return Segment{}, false
		}
	}
	if start < 0 {
		return Segment{}, false
	}
	cluster := map[string]any{}
	access, vpc := map[string]any{}, map[string]any{}
	depth, end := 0, -1
	var block []string
	for i := start; i < len(lines) && end < 0; i++ {
		t := strings.TrimSpace(lines[i].text)
		switch {
		case strings.HasSuffix(t, "{"):
			depth++
			f := strings.Fields(strings.TrimLeft(t, "-+~/ "))
			block = append(block, f[0])
			continue
		case t == "}":
			depth--
			block = block[:len(block)-1]
			if depth == 0 {
				end = i
			}
			continue
		}
		m := reTFPlanAttr.FindStringSubmatch(lines[i].text)
		if m == nil || m[1] == "-" {
			continue // a removed attribute has no value after the change
		}
		v := m[3]
		if m[4] != "" {
			v = m[4]
		}
		s := reHCLString.FindStringSubmatch(v)
		inner := block[len(block)-1]
		switch {
		case len(block) == 1 && s != nil && (m[2] == "name" || m[2] == "id" && cluster["name"] == nil):
			cluster["name"] = s[1]
		case len(block) == 1 && s != nil && m[2] == "version":
			cluster["version"] = s[1]
		case inner == "access_config" && s != nil && m[2] == "authentication_mode":
			access["authenticationMode"] = s[1]
		case inner == "vpc_config" && (v == "true" || v == "false") && (m[2] == "endpoint_private_access" || m[2] == "endpoint_public_access"):
			vpc[map[string]string{"endpoint_private_access": "endpointPrivateAccess", "endpoint_public_access": "endpointPublicAccess"}[m[2]]] = v == "true"
		}
	}
	if end < 0 {
		return Segment{}, false
	}
	for _, l := range lines[end+1:] {
		if strings.TrimSpace(l.text) != "" {
			return Segment{}, false // what follows the resource (apply output, errors) is read on its own
		}
	}
	if len(access) > 0 {
		cluster["accessConfig"] = access
	}
	if len(vpc) > 0 {
		cluster["resourcesVpcConfig"] = vpc
	}
	if len(access) == 0 && len(vpc) == 0 && cluster["version"] == nil {
		return Segment{}, false
	}
	doc := map[string]any{"cluster": cluster}
	s := seg(TypeData, "", lines)
	s.value = doc
	s.Type, s.Detail = docType(doc)
	s.Detail += ", from a Terraform aws_eks_cluster resource (the fields it shows)"
	s.selected = true
	return s, true
}

var (
	// reTFBlock opens a top-level block of Terraform configuration or a plan: its type and its
	// labels (resource "aws_vpc" "main" {).
	reTFBlock = regexp.MustCompile(`^\s*(?:[-+~]|-/\+|\+/-)?\s*(resource|data|module|variable|output|provider|locals|terraform)\s*((?:"[^"]*"\s*)*)\{\s*$`)
	// reTFTopLevel is a line HCL allows at a file's top level besides a block's header: its
	// closing brace, a comment.
	reTFTopLevel = regexp.MustCompile(`^(?:\s*(?:[-+~]\s*)?\}\s*$|\s*(?:#|//).*$)`)
	// reTFLabel is one label of a block header.
	reTFLabel = regexp.MustCompile(`"([^"]*)"`)
)

// tfBlock is one top-level block of Terraform text: its kind (resource, module …), its labels
// (for a resource its type and name), and the lines it spans (header to closing brace).
type tfBlock struct {
	kind   string
	labels []string
	lines  []line
}

// tfBlocks splits lines, Terraform configuration or a plan, into its top-level blocks; ok is
// false when any line stands outside a block (blank lines, comments and a plan's resource
// comments aside) or the braces do not balance: the text is not configuration alone. plan is
// true when a plan's "# … will be created" comment was seen.
func tfBlocks(lines []line) (blocks []tfBlock, plan, ok bool) {
	depth, start := 0, -1
	var cur tfBlock
	for i, l := range lines {
		t := strings.TrimSpace(l.text)
		if depth == 0 {
			switch {
			case t == "":
				continue
			case reTFResource.MatchString(l.text):
				plan = true
				continue
			case reTFTopLevel.MatchString(l.text):
				continue
			}
			m := reTFBlock.FindStringSubmatch(l.text)
			if m == nil {
				return nil, false, false // text outside a block: not configuration alone
			}
			cur, start = tfBlock{kind: m[1]}, i
			for _, lm := range reTFLabel.FindAllStringSubmatch(m[2], -1) {
				cur.labels = append(cur.labels, lm[1])
			}
		}
		depth += strings.Count(l.text, "{") - strings.Count(l.text, "}")
		if depth < 0 {
			return nil, false, false
		}
		if depth == 0 && start >= 0 {
			cur.lines = lines[start : i+1]
			blocks = append(blocks, cur)
			start = -1
		}
	}
	return blocks, plan, depth == 0 && len(blocks) > 0
}

// attrs returns the literal values of a block's own attributes (not those of nested blocks), at
// their value after the change in a plan: strings unquoted, true/false and numbers as written;
// references, interpolations and function calls are left out (they say nothing literal). In a
// plan, a removed attribute has no value.
func (b tfBlock) attrs() map[string]string {
	out := map[string]string{}
	depth := 0
	for _, l := range b.lines[1 : len(b.lines)-1] {
		t := strings.TrimSpace(l.text)
		if depth == 0 {
			if m := reTFPlanAttr.FindStringSubmatch(l.text); m != nil && m[1] != "-" {
				v := m[3]
				if m[4] != "" {
					v = m[4]
				}
				if q := reHCLString.FindStringSubmatch(v); q != nil && !strings.Contains(q[1], "${") {
					out[m[2]] = q[1]
				} else if v == "true" || v == "false" || isInt(v) {
					out[m[2]] = v
				}
			}
		}
		depth += strings.Count(t, "{") - strings.Count(t, "}")
	}
	return out
}

// terraformResources reads Terraform configuration (or a plan) made of blocks alone as the AWS
// CLI output of what its resources set literally, one segment per resource read, its own lines:
//   - an aws_vpc (one only: which is the cluster's is not said otherwise) as the
//     `describe-vpc-attribute` output of the DNS attribute it leaves off: the AWS provider's
//     enable_dns_hostnames defaults to false and enable_dns_support to true
//     (https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/vpc), so a VPC
//     declared without enable_dns_hostnames = true has DNS hostnames off (in a plan only a value
//     it shows counts); the VPC is named by its address (aws_vpc.NAME);
//   - the terraform-aws-modules/vpc module (when no aws_vpc resource is given) the same way,
//     only where it sets an attribute off (the module's own defaults turn both on), named
//     module.NAME;
//   - an aws_eks_access_entry with a literal principal_arn as the `describe-access-entry` output
//     of that principal: its type (the provider's default is STANDARD,
//     https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/eks_access_entry)
//     and cluster name.
//
// ok is false when nothing was read.
func terraformResources(lines []line) ([]Segment, bool) {
	blocks, plan, ok := tfBlocks(lines)
	if !ok {
		return nil, false
	}
	var segs []Segment
	add := func(b tfBlock, doc map[string]any, detail string) {
		s := seg(TypeData, "", b.lines)
		s.value = doc
		s.Type, s.Detail = docType(doc)
		s.Detail += detail
		segs = append(segs, s)
	}
	// dnsOff reads a VPC's attributes a as the describe-vpc-attribute output of the DNS
	// attribute they turn off (hostnames first), the VPC named id
	dnsOff := func(b tfBlock, a map[string]string, id, detail string) {
		for _, attr := range [][2]string{{"enable_dns_hostnames", "EnableDnsHostnames"}, {"enable_dns_support", "EnableDnsSupport"}} {
			if a[attr[0]] == "false" {
				add(b, map[string]any{"VpcId": id, attr[1]: map[string]any{"Value": false}}, detail)
				return
			}
		}
	}
	vpcs := 0
	for _, b := range blocks {
		if b.kind == "resource" && len(b.labels) == 2 && b.labels[0] == "aws_vpc" {
			vpcs++
		}
	}
	for _, b := range blocks {
		if b.kind == "module" && vpcs == 0 {
			// terraform-aws-modules/vpc (enable_dns_hostnames defaults to true there): only a
			// value it sets off says something
			a := b.attrs()
			if strings.Contains(a["source"], "terraform-aws-modules/vpc") && len(b.labels) == 1 {
				vpcs = -1 // one module read: the VPC asked about
				dnsOff(b, a, "module."+b.labels[0], ", from the terraform-aws-modules/vpc module (the DNS attribute it turns off)")
			}
			continue
		}
		if b.kind != "resource" || len(b.labels) != 2 {
			continue
		}
		a := b.attrs()
		switch b.labels[0] {
		case "aws_vpc":
			if vpcs != 1 {
				continue
			}
			if a["enable_dns_hostnames"] == "" && !plan {
				a["enable_dns_hostnames"] = "false"
			}
			dnsOff(b, a, "aws_vpc."+b.labels[1], ", from a Terraform aws_vpc resource (the DNS attribute it leaves off)")
		case "aws_eks_access_entry":
			arn := a["principal_arn"]
			if !strings.HasPrefix(arn, "arn:") {
				continue // a reference (aws_iam_role.node.arn): the principal is not known here
			}
			typ := a["type"]
			if typ == "" && !plan {
				typ = "STANDARD"
			}
			if typ == "" {
				continue
			}
			entry := map[string]any{"principalArn": arn, "type": typ}
			if c := a["cluster_name"]; c != "" {
				entry["clusterName"] = c
			}
			add(b, map[string]any{"accessEntry": entry}, ", from a Terraform aws_eks_access_entry resource")
		}
	}
	return segs, len(segs) > 0
}
