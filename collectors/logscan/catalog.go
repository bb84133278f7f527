package logscan

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"
)

// catalogFS holds the signature catalog: one YAML file per component (kubelet.yaml,
// nodeadm.yaml, …), described in catalog/README.md, and catalog.gen.json, the same signatures
// without their examples and sources, which the binary reads at start-up (parsing 500 YAML
// signatures costs tens of milliseconds; this digest a few). TestCatalogDigest keeps the two equal.
//
//go:embed catalog/*.yaml catalog/catalog.gen.json
var catalogFS embed.FS

// DigestPath is the generated digest of the catalog inside catalogFS.
const DigestPath = "catalog/catalog.gen.json"

// digest is the runtime form of the catalog.
type digest struct {
	Components []Component `json:"components"`
	Signatures []Signature `json:"signatures"`
}

// Digest renders the runtime digest of a catalog (its signatures without examples and sources),
// as catalog.gen.json holds it.
func Digest(sigs []Signature, comps []Component) ([]byte, error) {
	d := digest{Components: comps}
	for _, sg := range sigs {
		sg.Examples, sg.Source = Examples{}, ""
		d.Signatures = append(d.Signatures, sg)
	}
	b, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// MinAnchor is the shortest anchor accepted (bytes). Short anchors occur often in healthy logs
// and shrink the multi-anchor scanner's shifts, so they slow every scan.
const MinAnchor = 6

// Facts a signature may extract with named groups of its Pattern. Checks read them by these
// names, so the list is closed: a pattern with another group name is rejected.
var FactNames = map[string]string{
	"roleArn":           "an IAM role ARN (arn:aws:iam::ACCOUNT:role/NAME) or the assumed-role ARN of a node (arn:aws:sts::ACCOUNT:assumed-role/NAME/SESSION)",
	"username":          "a Kubernetes username (system:node:ip-10-0-1-2.ec2.internal)",
	"node":              "a Kubernetes Node name",
	"cluster":           "an EKS cluster name",
	"kubernetesVersion": "a Kubernetes version (1.33, v1.29.3)",
	"serverVersion":     "the Kubernetes version of the API server a node component talked to (1.33)",
	"amiType":           "an EKS AMI type (AL2_x86_64, AL2023_ARM_64_STANDARD, BOTTLEROCKET_x86_64, …)",
	"code":              "an error or health code (NodeCreationFailure, InsufficientInstanceCapacity, AccessDenied)",
	"instanceId":        "an EC2 instance ID",
	"instanceProfile":   "an instance profile name or ARN",
	"subnetId":          "a subnet ID",
	"securityGroupId":   "a security group ID",
	"image":             "a container image reference",
	"endpoint":          "an API server endpoint (URL or host name)",
	"address":           "an IP address the node connected to (the API server's: 10.0.1.200)",
	"flag":              "a kubelet or bootstrap flag",
	"setting":           "a configuration key (Bottlerocket setting, NodeConfig field)",
	"nodegroup":         "a managed node group name",
	"nodeclaim":         "a Karpenter NodeClaim name",
	"nodepool":          "a Karpenter NodePool name",
	"nodeclass":         "a Karpenter EC2NodeClass or Auto Mode NodeClass name",
	"assigned":          "a count of addresses in use (IPAMD's pool stats: AssignedIPs, used)",
	"total":             "a count of addresses held (IPAMD's pool stats: Total IPs, total)",
	"unit":              "a systemd unit name",
	"service":           "an AWS service or endpoint name (sts, ecr.api, ec2)",
	"detail":            "the free-text reason a component gave",
	"resource":          "the Terraform resource address a diagnostic is about (module.eks.kubernetes_config_map.aws_auth[0]), read from its \"with ADDRESS,\" line",
	"timeSource":        "the time source chronyd selected: an NTP server's address, its name beside in parentheses (10.20.0.5 (ntp01.corp.example)), or a reference clock's name (PHC0)",
}

// catalogFile is one YAML file of the catalog.
type catalogFile struct {
	// Component names what emits the lines (kubelet, nodeadm, karpenter, eksctl …).
	Component   string `json:"component"`
	Description string `json:"description"`
	// Presence lists literals found on ordinary lines of this component; a stream holding one
	// shows the component's lines are present, so a check with no failing line of it can pass.
	Presence   []string      `json:"presence"`
	Signatures []catalogSpec `json:"signatures"`
}

// catalogSpec is one signature as written in YAML.
type catalogSpec struct {
	Name          string   `json:"name"`
	Finding       string   `json:"finding,omitempty"`
	Anchor        string   `json:"anchor"`
	Pattern       string   `json:"pattern,omitempty"`
	Exclude       []string `json:"exclude,omitempty"`
	Meaning       string   `json:"meaning"`
	Normal        bool     `json:"normal,omitempty"`
	Resolves      []string `json:"resolves,omitempty"`
	SameFact      string   `json:"sameFact,omitempty"`
	ConsequenceOf []string `json:"consequenceOf,omitempty"`
	MinCount      int      `json:"minCount,omitempty"`
	EndsLog       bool     `json:"endsLog,omitempty"`
	MinWait       int      `json:"minWait,omitempty"`
	RepeatEvery   int      `json:"repeatEvery,omitempty"`
	Less          []string `json:"less,omitempty"`
	AllValues     []string `json:"allValues,omitempty"`
	ValuesOf      string   `json:"valuesOf,omitempty"`
	Milestone     string   `json:"milestone,omitempty"`
	Symptom       bool     `json:"symptom,omitempty"`
	OnlyOn        []string `json:"onlyOn,omitempty"`
	Source        string   `json:"source"`
	Examples      Examples `json:"examples"`
}

// Examples are lines a signature must match and near-misses it must not.
type Examples struct {
	Match   []string `json:"match"`
	NoMatch []string `json:"nomatch,omitempty"`
}

// Component is one component of the catalog with the literals that show its lines are present.
type Component struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Presence    []string `json:"presence"`
}

var (
	catalogOnce  sync.Once
	catalogSigs  []Signature
	catalogComps []Component
	catalogErr   error
)

// Catalog returns the built-in signature catalog, in file order (files sorted by name). It
// panics when the embedded catalog is invalid; TestCatalog keeps it valid.
func Catalog() []Signature {
	loadCatalogOnce()
	if catalogErr != nil {
		panic(catalogErr)
	}
	return append([]Signature(nil), catalogSigs...)
}

// SourceCatalog reads and validates the YAML catalog itself, examples and sources included (what
// the tests and the documentation use; the binary reads the digest through Catalog).
func SourceCatalog() ([]Signature, []Component, error) { return LoadCatalog(catalogFS) }

// Components returns the catalog's components, sorted by name.
func Components() []Component {
	loadCatalogOnce()
	if catalogErr != nil {
		panic(catalogErr)
	}
	return append([]Component(nil), catalogComps...)
}

func loadCatalogOnce() {
	// at run time the digest is read; the YAML, its examples and patterns are checked by the
	// tests (LoadCatalog, TestCatalogDigest)
	catalogOnce.Do(func() {
		b, err := fs.ReadFile(catalogFS, DigestPath)
		if err != nil {
			catalogErr = err
			return
		}
		var d digest
		if err := json.Unmarshal(b, &d); err != nil {
			catalogErr = fmt.Errorf("%s: %v", DigestPath, err)
			return
		}
		catalogSigs, catalogComps = d.Signatures, d.Components
	})
}

// LoadCatalog reads every catalog/*.yaml of fsys and validates it: unique signature names and
// components, anchors of at least MinAnchor bytes, patterns that compile with named groups from
// FactNames only, a meaning, a source URL, at least one example per signature, every Match
// example matched and no NoMatch example matched. The error names the file and signature.
func LoadCatalog(fsys fs.FS) ([]Signature, []Component, error) {
	names, err := fs.Glob(fsys, "catalog/*.yaml")
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	var sigs []Signature
	var comps []Component
	seen := map[string]string{}
	seenComp := map[string]bool{}
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, nil, err
		}
		var f catalogFile
		if err := yaml.UnmarshalStrict(b, &f); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", n, err)
		}
		if f.Component == "" || strings.TrimSuffix(path.Base(n), ".yaml") != f.Component {
			return nil, nil, fmt.Errorf("%s: component %q must equal the file name", n, f.Component)
		}
		if seenComp[f.Component] {
			return nil, nil, fmt.Errorf("%s: component %s twice", n, f.Component)
		}
		seenComp[f.Component] = true
		for _, p := range f.Presence {
			if len(p) < MinAnchor {
				return nil, nil, fmt.Errorf("%s: presence literal %q is shorter than %d bytes", n, p, MinAnchor)
			}
		}
		comps = append(comps, Component{Name: f.Component, Description: f.Description, Presence: f.Presence})
		for _, c := range f.Signatures {
			sg := Signature{Name: c.Name, Component: f.Component, Finding: c.Finding, Anchor: c.Anchor, Pattern: c.Pattern,
				Exclude: c.Exclude, Normal: c.Normal, Resolves: c.Resolves, SameFact: c.SameFact, ConsequenceOf: c.ConsequenceOf, MinCount: c.MinCount, EndsLog: c.EndsLog, MinWait: c.MinWait, RepeatEvery: c.RepeatEvery, Less: c.Less, AllValues: c.AllValues, ValuesOf: c.ValuesOf, Milestone: c.Milestone, Symptom: c.Symptom, OnlyOn: c.OnlyOn, Meaning: c.Meaning,
				Source: c.Source, Examples: c.Examples}
			if err := validate(sg); err != nil {
				return nil, nil, fmt.Errorf("%s: signature %s: %v", n, c.Name, err)
			}
			if prev, dup := seen[c.Name]; dup {
				return nil, nil, fmt.Errorf("%s: signature %s already defined in %s", n, c.Name, prev)
			}
			seen[c.Name] = n
			sigs = append(sigs, sg)
		}
	}
	sort.Slice(comps, func(i, j int) bool { return comps[i].Name < comps[j].Name })
	return sigs, comps, nil
}

// OSFamilies are the node OS families a signature's OnlyOn may name (evidence.NodeOS.Family).
var OSFamilies = []string{"al2", "al2023", "bottlerocket", "ubuntu", "windows"}

// Milestones are the steps of the join sequence a signature may mark, in order: the instance
// booted, the bootstrap agent (nodeadm, bootstrap.sh, early-boot-config, the Windows script)
// started and finished, the kubelet started, tried to register, registered, asked for its
// certificate, and the Node became Ready.
var Milestones = []string{"boot", "bootstrap-started", "bootstrap-done", "kubelet-started", "registration-attempt", "registered", "csr-created", "ready"}

var nameRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func validate(sg Signature) error {
	switch {
	case !nameRe.MatchString(sg.Name):
		return fmt.Errorf("name must be lowercase words joined by dashes")
	case len(sg.Anchor) < MinAnchor:
		return fmt.Errorf("anchor %q is shorter than %d bytes", sg.Anchor, MinAnchor)
	case sg.Meaning == "":
		return fmt.Errorf("no meaning")
	case !strings.HasPrefix(sg.Source, "https://"):
		return fmt.Errorf("source must be an https URL of the emitting code or of a public report")
	case sg.Normal && len(sg.Resolves) == 0 && sg.Milestone == "":
		return fmt.Errorf("a normal signature must list the findings it resolves (or mark a milestone)")
	case sg.Normal && sg.Finding != "":
		return fmt.Errorf("a normal signature has no finding")
	case len(sg.OnlyOn) > 0 && (sg.Normal || slices.ContainsFunc(sg.OnlyOn, func(f string) bool { return !slices.Contains(OSFamilies, f) })):
		return fmt.Errorf("onlyOn lists OS families (%s) of a failure signature", strings.Join(OSFamilies, ", "))
	case !sg.Normal && sg.Finding == "":
		return fmt.Errorf("no finding")
	case len(sg.Examples.Match) == 0:
		return fmt.Errorf("no example line")
	case sg.MinWait < 0 || sg.MinWait > 0 && sg.Normal:
		return fmt.Errorf("minWait is a positive number of seconds on a failure signature")
	case sg.RepeatEvery < 0 || sg.RepeatEvery > 0 && sg.Normal:
		return fmt.Errorf("repeatEvery is a positive number of seconds on a failure signature")
	case sg.Symptom && sg.Normal:
		return fmt.Errorf("symptom marks a failure signature")
	case sg.SameFact != "" && (!sg.Normal || len(sg.Resolves) == 0 || !strings.Contains(sg.Pattern, "(?P<"+sg.SameFact+">")):
		return fmt.Errorf("sameFact %q needs a normal signature that resolves findings and a pattern group of that name", sg.SameFact)
	case len(sg.Less) != 0 && (len(sg.Less) != 2 || !strings.Contains(sg.Pattern, "(?P<"+sg.Less[0]+">") || !strings.Contains(sg.Pattern, "(?P<"+sg.Less[1]+">")):
		return fmt.Errorf("less names two pattern groups (the smaller, then the larger)")
	case (len(sg.AllValues) != 0 || sg.ValuesOf != "") && (len(sg.AllValues) < 2 || sg.Normal || !strings.Contains(sg.Pattern, "(?P<"+sg.ValuesOf+">")):
		return fmt.Errorf("allValues lists two or more values of the pattern group valuesOf names, on a failure signature")
	case sg.Milestone != "" && !contains(Milestones, sg.Milestone):
		return fmt.Errorf("milestone %q is not one of %s", sg.Milestone, strings.Join(Milestones, ", "))
	}
	c, err := compile(sg, true)
	if err != nil {
		return err
	}
	if re := c.lazy.get(); re != nil {
		for _, g := range re.SubexpNames()[1:] {
			if g != "" && FactNames[g] == "" {
				return fmt.Errorf("pattern group %q is not a known fact (logscan.FactNames)", g)
			}
		}
	}
	for _, ex := range sg.Examples.Match {
		if !c.matches([]byte(ex)) {
			return fmt.Errorf("example does not match: %q", ex)
		}
	}
	for _, ex := range sg.Examples.NoMatch {
		if c.matches([]byte(ex)) {
			return fmt.Errorf("near-miss example matches: %q", ex)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
