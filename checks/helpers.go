package checks

import (
	"bytes"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// AMIFamily is the node operating system family, which decides the bootstrap format.
type AMIFamily string

// AMI families.
const (
	FamilyAL2          AMIFamily = "AL2"
	FamilyAL2023       AMIFamily = "AL2023"
	FamilyBottlerocket AMIFamily = "Bottlerocket"
	FamilyWindows      AMIFamily = "Windows"
	FamilyUbuntu       AMIFamily = "Ubuntu"
	FamilyUnknown      AMIFamily = ""
)

// amiFamily determines the family from the managed node group's amiType (when not CUSTOM), the
// AMI name/description of EKS-optimized images, or the instance platform. It returns the
// family and the fact it was read from.
func amiFamily(ev *evidence.Evidence) (AMIFamily, string) {
	if ng := instanceNodegroup(ev); ng != nil && ng.AmiType != "" && ng.AmiType != "CUSTOM" {
		t := strings.ToUpper(ng.AmiType)
		switch {
		case strings.HasPrefix(t, "AL2023"):
			return FamilyAL2023, "node group amiType " + ng.AmiType
		case strings.HasPrefix(t, "AL2_"):
			return FamilyAL2, "node group amiType " + ng.AmiType
		case strings.HasPrefix(t, "BOTTLEROCKET"):
			return FamilyBottlerocket, "node group amiType " + ng.AmiType
		case strings.HasPrefix(t, "WINDOWS"):
			return FamilyWindows, "node group amiType " + ng.AmiType
		}
	}
	if im := ev.Image; im != nil {
		n := strings.ToLower(im.Name + " " + im.Description)
		switch {
		case strings.Contains(n, "bottlerocket"):
			return FamilyBottlerocket, "AMI name " + im.Name
		case strings.Contains(n, "amazon-eks") && strings.Contains(n, "al2023"):
			return FamilyAL2023, "AMI name " + im.Name
		case strings.Contains(n, "amazon-eks") && strings.Contains(n, "node"):
			return FamilyAL2, "AMI name " + im.Name
		case strings.Contains(n, "windows") && strings.Contains(n, "eks"):
			return FamilyWindows, "AMI name " + im.Name
		case strings.Contains(n, "ubuntu-eks"):
			return FamilyUbuntu, "AMI name " + im.Name
		}
	}
	if ev.Instance != nil && ev.Instance.Platform == "windows" {
		return FamilyWindows, "instance Platform windows"
	}
	return FamilyUnknown, ""
}

// isWindows reports whether the instance runs Windows.
func isWindows(ev *evidence.Evidence) bool {
	if ev.Instance != nil && ev.Instance.Platform == "windows" {
		return true
	}
	f, _ := amiFamily(ev)
	return f == FamilyWindows
}

// instanceNodegroup returns the managed node group the instance belongs to (tag
// eks:nodegroup-name, or membership of one of its Auto Scaling groups), or nil.
func instanceNodegroup(ev *evidence.Evidence) *evidence.Nodegroup {
	if ev.Instance == nil {
		return nil
	}
	name := ev.Instance.Tags["eks:nodegroup-name"]
	asg := ev.Instance.Tags["aws:autoscaling:groupName"]
	for i := range ev.Nodegroups {
		ng := &ev.Nodegroups[i]
		if name != "" && ng.Name == name {
			return ng
		}
		for _, a := range ng.AutoScalingGroups {
			if asg != "" && a == asg {
				return ng
			}
		}
	}
	return nil
}

// subjectNodegroup returns the node's managed node group: the instance's (instanceNodegroup), or,
// without an instance, the one node group the evidence holds (a paste of describe-nodegroup
// beside the group's launch template); nil otherwise.
func subjectNodegroup(ev *evidence.Evidence) *evidence.Nodegroup {
	if ev.Instance != nil {
		return instanceNodegroup(ev)
	}
	if len(ev.Nodegroups) == 1 {
		return &ev.Nodegroups[0]
	}
	return nil
}

var minorRe = regexp.MustCompile(`(?:^|[-_v])(1\.\d{1,2})(?:[-_.+]|$)`)

// kubeMinor extracts "1.29" from "v1.29.3-eks-ae9a62a", "1.29", "amazon-eks-node-1.29-v2024…",
// "bottlerocket-aws-k8s-1.29-x86_64-v1.19.2-…" or "…EKS_Optimized-1.29-2024.05.15".
func kubeMinor(s string) string {
	m := minorRe.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[1]
}

// minorNumber returns 29 for "1.29"; -1 when unparsable.
func minorNumber(v string) int {
	_, minor, ok := strings.Cut(v, ".")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(minor)
	if err != nil {
		return -1
	}
	return n
}

// canonicalRoleArn returns the ARN as aws-iam-authenticator compares it: lower case, with any
// IAM path removed (arn:aws:iam::111122223333:role/path/Name → …:role/name). ok is false when
// arn is not a role ARN.
func canonicalRoleArn(arn string) (string, bool) {
	a := strings.ToLower(strings.TrimSpace(arn))
	i := strings.Index(a, ":role/")
	if !strings.HasPrefix(a, "arn:") || i < 0 {
		return a, false
	}
	name := a[i+len(":role/"):]
	if j := strings.LastIndexByte(name, '/'); j >= 0 {
		name = name[j+1:]
	}
	return a[:i] + ":role/" + name, true
}

// roleArnHasPath reports whether a role ARN carries an IAM path (role/path/Name).
func roleArnHasPath(arn string) bool {
	i := strings.Index(arn, ":role/")
	return i >= 0 && strings.Contains(arn[i+len(":role/"):], "/")
}

// nodeRoleArn returns the node role ARN from the role or the instance profile.
func nodeRoleArn(ev *evidence.Evidence) string {
	if ev.NodeRole != nil && ev.NodeRole.Arn != "" {
		return ev.NodeRole.Arn
	}
	if ev.InstanceProfile != nil && len(ev.InstanceProfile.Roles) > 0 {
		return ev.InstanceProfile.Roles[0].Arn
	}
	return ""
}

// roleMatches returns the aws-auth mapRoles entries whose role ARN matches roleArn the way the
// authenticator matches (path-insensitive, case-insensitive).
func roleMatches(a *evidence.AWSAuth, roleArn string) []evidence.RoleMapping {
	want, _ := canonicalRoleArn(roleArn)
	var out []evidence.RoleMapping
	if a == nil {
		return nil
	}
	for _, m := range a.Roles {
		got, ok := canonicalRoleArn(m.RoleArn)
		if ok && got == want {
			out = append(out, m)
		}
	}
	return out
}

// exactRoleMapping returns the aws-auth entry the authenticator actually matches for roleArn:
// its ARN without path must equal the mapping's ARN exactly (case-insensitive).
func exactRoleMapping(a *evidence.AWSAuth, roleArn string) *evidence.RoleMapping {
	want, _ := canonicalRoleArn(roleArn)
	if a == nil {
		return nil
	}
	var found *evidence.RoleMapping
	for i := range a.Roles {
		if strings.EqualFold(strings.TrimSpace(a.Roles[i].RoleArn), want) {
			found = &a.Roles[i] // the authenticator keeps the last entry for a duplicate ARN
		}
	}
	return found
}

// nodeAccessEntry returns the access entry for roleArn (compared path-insensitively), or nil.
func nodeAccessEntry(ev *evidence.Evidence, roleArn string) *evidence.AccessEntry {
	return accessEntryIn(ev.AccessEntries, roleArn)
}

// describedAccessEntry returns the access entry of roleArn among those described without the
// cluster's list (Evidence.DescribedAccessEntries), or nil: nil says nothing of whether the role
// has an entry.
func describedAccessEntry(ev *evidence.Evidence, roleArn string) *evidence.AccessEntry {
	if ev.Have(evidence.KindAccessEntries) {
		return nil
	}
	return accessEntryIn(ev.DescribedAccessEntries, roleArn)
}

// accessEntryIn returns the entry of entries whose principal is roleArn (paths and assumed-role
// forms canonicalised), or nil.
func accessEntryIn(entries []evidence.AccessEntry, roleArn string) *evidence.AccessEntry {
	want, _ := canonicalRoleArn(roleArn)
	for i := range entries {
		got, _ := canonicalRoleArn(entries[i].PrincipalArn)
		if got == want {
			return &entries[i]
		}
	}
	return nil
}

// decodeCA decodes base64 of a PEM bundle into DER certificates. It returns an error when
// the text is not base64 or holds no certificate.
func decodeCA(b64 string) ([][]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(b64), ""))
	if err != nil {
		return nil, fmt.Errorf("not valid base64: %v", err)
	}
	var certs [][]byte
	rest := raw
	for {
		var blk *pem.Block
		blk, rest = pem.Decode(rest)
		if blk == nil {
			break
		}
		if blk.Type == "CERTIFICATE" {
			certs = append(certs, blk.Bytes)
		}
	}
	if len(certs) == 0 {
		return nil, fmt.Errorf("decodes to no PEM certificate")
	}
	return certs, nil
}

// caSubject returns a short description of the first certificate.
func caSubject(der []byte) string {
	c, err := x509.ParseCertificate(der)
	if err != nil {
		return "unparsable certificate"
	}
	return fmt.Sprintf("CN=%s, valid %s to %s", c.Subject.CommonName, c.NotBefore.UTC().Format("2006-01-02"), c.NotAfter.UTC().Format("2006-01-02"))
}

// sameCA reports whether two CA bundles share a certificate.
func sameCA(a, b [][]byte) bool {
	for _, x := range a {
		for _, y := range b {
			if bytes.Equal(x, y) {
				return true
			}
		}
	}
	return false
}

// normalizeEndpoint lower-cases the host and drops a trailing slash and default port.
func normalizeEndpoint(s string) string {
	s = strings.TrimSpace(strings.ToLower(s))
	s = strings.TrimSuffix(s, "/")
	s = strings.TrimSuffix(s, ":443")
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	return s
}

// cidrContains reports whether cidr contains ip; ok is false when either does not parse.
func cidrContains(cidr, ip string) (contains, ok bool) {
	p, err := netip.ParsePrefix(strings.TrimSpace(cidr))
	if err != nil {
		return false, false
	}
	a, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		return false, false
	}
	return p.Contains(a), true
}

// dotTen returns the kube-dns Service address EKS uses in a service CIDR: the .10 address of an
// IPv4 CIDR ("172.20.0.0/16" → "172.20.0.10"), the ::a address of an IPv6 one; "" when cidr
// does not parse.
func dotTen(cidr string) string {
	p, err := netip.ParsePrefix(cidr)
	if err != nil {
		return ""
	}
	if p.Addr().Is6() {
		// an IPv6 service CIDR's kube-dns is its network address with a last group of a
		// (fd4e:8a21:c3d0::/108 → fd4e:8a21:c3d0::a), as nodeadm derives clusterDNS
		b := p.Masked().Addr().As16()
		b[15] = 0xa
		return netip.AddrFrom16(b).String()
	}
	b := p.Masked().Addr().As4()
	b[3] = 10
	return netip.AddrFrom4(b).String()
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteList(l []string) string {
	if len(l) == 0 {
		return "(none)"
	}
	return strings.Join(l, ", ")
}

func sortStrings(s []string) { sort.Strings(s) }

// nodeRoleNameOnly returns the node role's name when the evidence knows the role by name alone
// (a Karpenter or Auto Mode node class's spec.role, a pasted list-attached-role-policies
// --role-name) and neither the role nor an instance profile gives its ARN — the cluster's
// account was not in the input — or "" when the ARN is known or no node role is.
func nodeRoleNameOnly(ev *evidence.Evidence) string {
	if nodeRoleArn(ev) != "" || ev.NodeRole == nil {
		return ""
	}
	return ev.NodeRole.Name
}

// roleNamed reports whether arn is an IAM role ARN (arn:PARTITION:iam::ACCOUNT:role/[PATH/]NAME)
// whose name is name, in any account and under any path. IAM role names are unique within an
// account without regard to case ("Role names are not distinguished by case",
// https://docs.aws.amazon.com/IAM/latest/APIReference/API_CreateRole.html), so the comparison
// ignores case.
func roleNamed(arn, name string) bool {
	c, ok := canonicalRoleArn(arn)
	if !ok || name == "" || !strings.Contains(c, ":iam::") {
		return false
	}
	return strings.EqualFold(c[strings.LastIndexByte(c, '/')+1:], name)
}

// accountOfArn returns the account field of an ARN (arn:PARTITION:SERVICE:REGION:ACCOUNT:…), or "".
func accountOfArn(arn string) string {
	if parts := strings.SplitN(arn, ":", 6); len(parts) == 6 && parts[0] == "arn" {
		return parts[4]
	}
	return ""
}
