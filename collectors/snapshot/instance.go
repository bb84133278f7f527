package snapshot

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
	"github.com/eksdoctor/eksdoctor/collectors/userdata"
)

func init() {
	RegisterProviderAt(StageInstance, (*Snapshot).loadInstance, evidence.KindInstance)
	RegisterProviderAt(StageBoot, (*Snapshot).loadBoot, evidence.KindUserData, evidence.KindLaunchTemplate, evidence.KindBootstrap)
	RegisterProvider((*Snapshot).loadNodegroupLaunchTemplates)
	RegisterProviderAt(StageResources, (*Snapshot).loadImage, evidence.KindImage)
	RegisterProviderAt(StageResources, (*Snapshot).loadInstanceType, evidence.KindInstanceType)
	RegisterProviderAt(StageResources, (*Snapshot).loadConsoleOutput, evidence.KindConsoleOutput, evidence.KindNodeLogs)
}

// InstanceIDs lists the instances in ec2/describe-instances.json, sorted.
func (s *Snapshot) InstanceIDs() []string {
	var ids []string
	for _, i := range s.instanceIndex().list {
		ids = append(ids, i.InstanceID)
	}
	sort.Strings(ids)
	return ids
}

// InstancesGap says why ec2/describe-instances.json lists no instance: the file is missing,
// holds an error or does not parse (reason, and whether a permission was denied), or it lists none
// ("no instance"). It returns "" when instances are listed.
func (s *Snapshot) InstancesGap() (reason string, denied bool) {
	idx := s.instanceIndex()
	switch {
	case idx.res != readOK:
		return idx.reason, strings.HasPrefix(idx.reason, "missing permission ")
	case len(idx.list) == 0:
		return "ec2/describe-instances.json lists no instance", false
	}
	return "", false
}

// InstancesNotFound returns EC2's answer when ec2/describe-instances.json holds an error saying
// the instances asked for do not exist ("InvalidInstanceID.NotFound": EC2 describes a terminated
// instance for about an hour after it ends, then forgets it): a fact about the instances, not a
// file that could not be read. "" when the file holds anything else.
func (s *Snapshot) InstancesNotFound() string {
	if idx := s.instanceIndex(); idx.res == readNotFound {
		return idx.reason
	}
	return ""
}

// InstancesCut says why ec2/describe-instances.json does not list every instance: it stops at
// a page ("ec2/describe-instances.json lists only the first page (NextToken present): what is
// not on it is unknown"); "" when the list is whole (or was not read).
func (s *Snapshot) InstancesCut() string {
	s.instanceIndex()
	return s.pagedReason(instancesPath)
}

// loadInstance describes the target instance from ec2/describe-instances.json (Evidence has
// already failed when it is not there); the cluster's evidence has none.
func (s *Snapshot) loadInstance(ev *evidence.Evidence) {
	if ev.Target.InstanceID == "" {
		return
	}
	inst := s.instanceIndex().byID[ev.Target.InstanceID]
	if inst == nil {
		return
	}
	ev.Instance = convertInstance(inst)
	if s.Selected["ec2/describe-instances.json"] || narrowedInstance(inst) {
		ev.Instance.Unreported = unreported(inst)
	}
	ev.Mark(evidence.KindInstance, s.src("ec2/describe-instances.json"))
}

func convertInstance(i *EC2Instance) *evidence.Instance {
	out := &evidence.Instance{
		ID: i.InstanceID, ImageID: i.ImageID, InstanceType: i.InstanceType, State: i.State.Name,
		LaunchTime: i.LaunchTime.Time, AvailabilityZone: i.Placement.AvailabilityZone,
		SubnetID: i.SubnetID, VpcID: i.VpcID, PrivateIP: i.PrivateIPAddress, PrivateDNSName: i.PrivateDNSName,
		PublicIP: i.PublicIPAddress, Platform: strings.ToLower(i.Platform), PlatformDetails: i.PlatformDetails,
		Tags: tagMap(i.Tags),
		Metadata: evidence.MetadataOptions{HttpEndpoint: i.MetadataOptions.HTTPEndpoint, HttpTokens: i.MetadataOptions.HTTPTokens,
			HopLimit: i.MetadataOptions.HTTPPutResponseHopLimit},
	}
	if i.StateReason != nil {
		out.StateReason = i.StateReason.Message
	}
	if i.IamInstanceProfile != nil {
		out.InstanceProfileArn = i.IamInstanceProfile.Arn
	}
	for _, sg := range i.SecurityGroups {
		out.SecurityGroupIDs = append(out.SecurityGroupIDs, sg.GroupID)
	}
	return out
}

// narrowedInstance reports whether an instance's document was cut by a --query projection that
// kept its keys ({InstanceId:InstanceId,SubnetId:SubnetId,…}): DescribeInstances always returns
// an instance's ImageId, InstanceType, LaunchTime, Placement.AvailabilityZone and State.Name
// (botocore ec2 model, Instance shape; every instance of the fixture corpus has them), so a
// document without one holds only the fields asked for, and an optional field it lacks
// (IamInstanceProfile, SecurityGroups, Tags) is unknown, not absent.
func narrowedInstance(i *EC2Instance) bool {
	return i.ImageID == "" || i.InstanceType == "" || i.LaunchTime.IsZero() || i.Placement.AvailabilityZone == "" || i.State.Name == ""
}

// unreported names the fields of an instance the checks read an absence from
// (IamInstanceProfile, Tags, SecurityGroups) that its document does not hold.
func unreported(i *EC2Instance) []string {
	var out []string
	if i.IamInstanceProfile == nil {
		out = append(out, "IamInstanceProfile")
	}
	if i.Tags == nil {
		out = append(out, "Tags")
	}
	if i.SecurityGroups == nil {
		out = append(out, "SecurityGroups")
	}
	return out
}

// loadBoot reads what the instance booted with: its user data attribute, else the user data of
// the launch template version it was launched from, and the bootstrap configuration decoded
// from it (once per distinct user data).
func (s *Snapshot) loadBoot(ev *evidence.Evidence) {
	inst := s.instanceOf(ev)
	if inst == nil {
		return
	}
	udPath := "ec2/instance-user-data/" + inst.InstanceID + ".json"
	var res readResult
	var reason string
	if b64, other, ok := s.userDataText(udPath); ok && other != "" && other != inst.InstanceID {
		res, reason = readGap, fmt.Sprintf("%s holds the user data of %s, not of %s", udPath, other, inst.InstanceID)
		s.problem(udPath, fmt.Sprintf("the user data of %s, not of %s (the file's name): not used", other, inst.InstanceID))
	} else if ok {
		res, ev.UserData = readOK, &evidence.UserData{Base64: b64, Empty: b64 == ""}
	} else {
		res, reason = decodeInto(s, udPath, func(o *InstanceAttributeOutput) {
			ud := &evidence.UserData{Empty: true}
			if o.UserData != nil && o.UserData.Value != nil && *o.UserData.Value != "" {
				ud = &evidence.UserData{Base64: *o.UserData.Value}
			}
			ev.UserData = ud
		})
	}
	ltUserData, ltFound := s.loadLaunchTemplate(ev, inst)
	switch {
	case res == readOK:
		ev.Mark(evidence.KindUserData, s.src(udPath))
	case ltFound && tagMap(inst.Tags)["eks:nodegroup-name"] != "" && ev.LaunchTemplate.ImageID == "":
		// a managed node group's launch template without an AMI: EKS merges its own bootstrap
		// into the instance's user data, so the template's (often none) is not the node's
		// (https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html)
		ev.AddGap(evidence.KindUserData, reason+"; the launch template "+ev.LaunchTemplate.ID+" of the managed node group sets no AMI, so EKS adds its bootstrap to the user data it launches with, which only the instance attribute shows")
	case ltFound:
		// The instance attribute is absent: the launch template version it came from is the next best source.
		ev.UserData = &evidence.UserData{Base64: ltUserData, Empty: ltUserData == ""}
		ev.Mark(evidence.KindUserData, ev.Source(evidence.KindLaunchTemplate)+" (launch template user data)")
	default:
		ev.AddGap(evidence.KindUserData, reason)
	}
	if ev.Have(evidence.KindUserData) {
		// Instances of one launch template share their user data: decode each text once.
		// Checks never modify evidence, so the decoded value is shared.
		b64 := ev.UserData.Base64
		ev.Bootstrap = s.shared("userdata\x00"+b64, func() any { return userdata.DecodeBase64(b64) }).(*evidence.BootstrapConfig)
		ev.Mark(evidence.KindBootstrap, ev.Source(evidence.KindUserData))
	} else {
		ev.AddGap(evidence.KindBootstrap, ev.GapFor(evidence.KindUserData).Reason)
	}
}

// loadLaunchTemplate reads the launch template version the instance was launched from (tags
// aws:ec2launchtemplate:id / :version). It returns that version's user data (base64) and
// whether the version was found.
func (s *Snapshot) loadLaunchTemplate(ev *evidence.Evidence, inst *EC2Instance) (string, bool) {
	tags := tagMap(inst.Tags)
	lt, ver := tags["aws:ec2launchtemplate:id"], tags["aws:ec2launchtemplate:version"]
	if lt == "" {
		ev.AddGap(evidence.KindLaunchTemplate, "the instance was not launched from a launch template")
		return "", false
	}
	p := "ec2/describe-launch-template-versions/" + lt + ".json"
	t, userData, res, reason := s.launchTemplateVersion(lt, ver)
	found := t != nil
	if found {
		ev.LaunchTemplate = t
	}
	s.markFound(ev, evidence.KindLaunchTemplate, res, reason, p, found, "launch template "+lt+" version "+ver)
	return userData, found
}

// launchTemplateVersion decodes version ver (the default version when "") of launch template lt
// from ec2/describe-launch-template-versions/LT.json: the version (nil when the file or the
// version is missing), its user data (base64), and the read's result.
func (s *Snapshot) launchTemplateVersion(lt, ver string) (*evidence.LaunchTemplateVersion, string, readResult, string) {
	var t *evidence.LaunchTemplateVersion
	var userData string
	res, reason := decodeInto(s, "ec2/describe-launch-template-versions/"+lt+".json", func(o *LaunchTemplateVersionsOutput) {
		for _, v := range o.LaunchTemplateVersions {
			if fmt.Sprint(v.VersionNumber) != ver && (ver != "" || !v.DefaultVersion) {
				continue
			}
			d := v.LaunchTemplateData
			t = &evidence.LaunchTemplateVersion{ID: lt, Version: v.VersionNumber, SecurityGroupIDs: d.SecurityGroupIDs,
				ImageID: d.ImageID, BlockDevices: blockDevices(d.BlockDeviceMappings)}
			for _, ni := range d.NetworkInterfaces {
				// an interface naming its subnet or public IP setting conflicts with a managed
				// node group's own subnets; one that only sets groups or the interface type
				// (EFA) does not
				t.NetworkInterfaces = t.NetworkInterfaces || ni.SubnetID != "" || ni.AssociatePublicIPAddress != nil
				if ni.DeviceIndex == 0 {
					t.SecurityGroupIDs = append(t.SecurityGroupIDs, ni.Groups...)
				}
			}
			userData = d.UserData
		}
	})
	return t, userData, res, reason
}

// loadNodegroupLaunchTemplates reads, for the cluster's evidence (no instance), the launch
// template version each managed node group names.
func (s *Snapshot) loadNodegroupLaunchTemplates(ev *evidence.Evidence) {
	if ev.Instance != nil {
		return
	}
	for _, ng := range ev.Nodegroups {
		if ng.LaunchTemplateID == "" {
			continue
		}
		ver := ng.LaunchTemplateVersion
		if ver == "$Default" || ver == "$Latest" {
			ver = "" // the snapshot's default version stands for both
		}
		if t, _, _, _ := s.launchTemplateVersion(ng.LaunchTemplateID, ver); t != nil {
			ev.NodegroupLaunchTemplates = append(ev.NodegroupLaunchTemplates, evidence.NodegroupLaunchTemplate{Nodegroup: ng.Name, Template: *t,
				Source: s.src("ec2/describe-launch-template-versions/" + ng.LaunchTemplateID + ".json")})
		}
	}
}

// instanceOf returns the ec2/describe-instances.json entry of ev's target instance; nil for the
// cluster's evidence (and before StageInstance).
func (s *Snapshot) instanceOf(ev *evidence.Evidence) *EC2Instance {
	if ev.Instance == nil {
		return nil
	}
	return s.instanceIndex().byID[ev.Target.InstanceID]
}

// loadImage reads the instance's AMI from ec2/describe-images.json.
func (s *Snapshot) loadImage(ev *evidence.Evidence) {
	inst := s.instanceOf(ev)
	if inst == nil {
		return
	}
	p := "ec2/describe-images.json"
	res, reason := decodeInto(s, p, func(o *DescribeImagesOutput) {
		for _, im := range o.Images {
			if im.ImageID == inst.ImageID {
				ev.Image = &evidence.Image{ID: im.ImageID, Name: im.Name, Description: im.Description, Platform: im.Platform, PlatformDetails: im.PlatformDetails, OwnerID: im.OwnerID,
					RootDeviceName: im.RootDeviceName, BlockDevices: blockDevices(im.BlockDeviceMappings)}
			}
		}
	})
	s.markFound(ev, evidence.KindImage, res, reason, p, ev.Image != nil, "image "+inst.ImageID)
}

// loadInstanceType reads the instance's type (ENI and address limits) from
// ec2/describe-instance-types.json.
func (s *Snapshot) loadInstanceType(ev *evidence.Evidence) {
	inst := s.instanceOf(ev)
	if inst == nil {
		return
	}
	p := "ec2/describe-instance-types.json"
	res, reason := decodeInto(s, p, func(o *DescribeInstanceTypesOutput) {
		for _, it := range o.InstanceTypes {
			if it.InstanceType == inst.InstanceType {
				ev.InstanceType = &evidence.InstanceType{Name: it.InstanceType, MaxENIs: it.NetworkInfo.MaximumNetworkInterfaces, IPv4PerENI: it.NetworkInfo.IPv4AddressesPerInterface, Hypervisor: it.Hypervisor, BareMetal: it.BareMetal}
			}
		}
	})
	s.markFound(ev, evidence.KindInstanceType, res, reason, p, ev.InstanceType != nil, "instance type "+inst.InstanceType)
}

// SoleInstanceType returns the one instance type ec2/describe-instance-types.json describes
// (nil when it holds none, several, or does not parse), for inputs with no instance to name the
// node's type: a paste that asked for the type it is about.
func (s *Snapshot) SoleInstanceType() *evidence.InstanceType {
	var out []*evidence.InstanceType
	decodeInto(s, "ec2/describe-instance-types.json", func(o *DescribeInstanceTypesOutput) {
		for _, it := range o.InstanceTypes {
			out = append(out, &evidence.InstanceType{Name: it.InstanceType, MaxENIs: it.NetworkInfo.MaximumNetworkInterfaces, IPv4PerENI: it.NetworkInfo.IPv4AddressesPerInterface, Hypervisor: it.Hypervisor, BareMetal: it.BareMetal})
		}
	})
	if len(out) != 1 || out[0].Name == "" {
		return nil
	}
	return out[0]
}

// loadConsoleOutput reads the instance's serial console output (ec2 get-console-output) and
// scans it with the signature catalog as the node's logs; a denied read is the node logs' gap
// too. The cluster's evidence has no console.
func (s *Snapshot) loadConsoleOutput(ev *evidence.Evidence) {
	id := ev.Target.InstanceID
	if id == "" {
		return
	}
	p := "ec2/get-console-output/" + id + ".json"
	var res readResult
	var reason string
	if co, other, ok := s.consoleText(p); ok && other != "" && other != id {
		res, reason = readGap, fmt.Sprintf("%s holds the console output of %s, not of %s", p, other, id)
		s.problem(p, fmt.Sprintf("the console output of %s, not of %s (the file's name): not used", other, id))
	} else if ok {
		res, ev.ConsoleOutput = readOK, co
	} else {
		res, reason = decodeInto(s, p, func(o *ConsoleOutputOutput) {
			co := &evidence.ConsoleOutput{Text: o.Output, Timestamp: o.Timestamp.Time}
			if b, err := decodeStdBase64(o.Output); err == nil && utf8.Valid(b) && len(o.Output) > 0 && !strings.ContainsAny(o.Output, " \n") {
				co.Text = string(b) // the raw API value is base64; the CLI prints it decoded
			}
			ev.ConsoleOutput = co
		})
	}
	s.markFound(ev, evidence.KindConsoleOutput, res, reason, p, true, "")
	if g := ev.GapFor(evidence.KindConsoleOutput); !ev.Have(evidence.KindConsoleOutput) && g.Permission != "" {
		ev.AddGap(evidence.KindNodeLogs, g.Reason) // the console was the node-log source here
	} else if res == readGap && !ev.Have(evidence.KindNodeLogs) {
		// the file is there but could not be used: the node's testimony it holds is lost, and
		// the silence of the checks that read it is no all-clear (checks.Judge)
		ev.AddGapForce(evidence.KindNodeLogs, "the node's console output was given but could not be read: "+g.Reason)
		ev.MarkUnreadable(evidence.KindNodeLogs)
	}
	if ev.ConsoleOutput != nil && ev.ConsoleOutput.Text != "" {
		// the serial console carries cloud-init, nodeadm, bootstrap.sh and Bottlerocket
		// boot messages: the same signature scan as a node log bundle
		sc := logscan.MustDefault()
		sc.Ref = ev.ConsoleOutput.Timestamp
		if sc.Ref.IsZero() {
			sc.Ref = ev.CollectedAt
		}
		if err := sc.Scan(strings.NewReader(ev.ConsoleOutput.Text), p, "console"); err == nil {
			ev.NodeLogs = sc.Result("console")
			ev.Mark(evidence.KindNodeLogs, s.src(p))
		}
	}
}

// SoleBoot gives evidence without an instance (a paste that holds no describe-instances output)
// the node's user data when the input holds exactly one source of it: the one instance user
// data attribute under ec2/instance-user-data/ (aws ec2 describe-instance-attribute --attribute
// userData), else the one launch template version under ec2/describe-launch-template-versions/
// (one file that lists one version) when it names an AMI and holds user data. Its bootstrap
// configuration is decoded from it and both kinds are marked with the file's source. With several sources, instances listed (the node is
// one of them, not named), or user data or a bootstrap configuration already in ev, nothing is
// guessed. A launch template read but not
// linked (no instance names it) is the launch template's gap, naming it and what is missing. It
// reports whether user data was taken.
func (s *Snapshot) SoleBoot(ev *evidence.Evidence) bool {
	if ev.Instance != nil {
		return false
	}
	lts := s.dirFiles("ec2/describe-launch-template-versions")
	var lt *evidence.LaunchTemplateVersion
	var ltUserData, ltPath string
	if len(lts) == 1 {
		ltPath = lts[0]
		var versions []int
		decodeInto(s, ltPath, func(o *LaunchTemplateVersionsOutput) {
			for _, v := range o.LaunchTemplateVersions {
				versions = append(versions, v.VersionNumber)
			}
		})
		if len(versions) == 1 {
			id := strings.TrimSuffix(path.Base(ltPath), ".json")
			lt, ltUserData, _, _ = s.launchTemplateVersion(id, fmt.Sprint(versions[0]))
		}
	}
	if !ev.Have(evidence.KindLaunchTemplate) && len(lts) > 0 {
		var names []string
		for _, p := range lts {
			names = append(names, strings.TrimSuffix(path.Base(p), ".json")+" ("+s.src(p)+")")
		}
		ev.AddGap(evidence.KindLaunchTemplate, "launch template "+strings.Join(names, ", ")+" read, but no instance in the input names the one the node was launched from: add aws ec2 describe-instances output for the node (its aws:ec2launchtemplate:id tag)")
	}
	if ev.Have(evidence.KindUserData) || ev.Have(evidence.KindBootstrap) || len(s.InstanceIDs()) > 0 {
		return false
	}
	var b64, src string
	if uds := s.dirFiles("ec2/instance-user-data"); len(uds) == 1 {
		res, _ := decodeInto(s, uds[0], func(o *InstanceAttributeOutput) {
			if o.UserData != nil && o.UserData.Value != nil {
				b64 = *o.UserData.Value
			}
		})
		if res != readOK {
			return false
		}
		src = s.src(uds[0]) + " (the one instance user data in the input)"
	} else if len(uds) > 1 {
		return false
	} else if lt != nil && lt.ImageID != "" && ltUserData != "" {
		// a template that names no AMI is a managed node group's: EKS merges its own bootstrap
		// into the user data it launches with, so the template's is not the node's whole user
		// data (https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html); one
		// without user data says nothing the node booted with
		b64, src = ltUserData, s.src(ltPath)+fmt.Sprintf(" (launch template %s version %d user data: no instance in the input)", lt.ID, lt.Version)
	} else {
		return false
	}
	ev.UserData = &evidence.UserData{Base64: b64, Empty: b64 == ""}
	ev.Mark(evidence.KindUserData, src)
	ev.Bootstrap = s.shared("userdata\x00"+b64, func() any { return userdata.DecodeBase64(b64) }).(*evidence.BootstrapConfig)
	ev.Mark(evidence.KindBootstrap, src)
	return true
}

// reKernelStamp is the start of a kernel log line on the serial console ("[    5.123456] ").
var reKernelStamp = regexp.MustCompile(`(?m)^\[\s*\d+\.\d+\] `)

// reTextConsole is the first line of `aws ec2 get-console-output --output text`: the AWS CLI's
// text formatter prints a response's scalars in key order, tab-separated — InstanceId, Output
// (the decoded console, its own newlines kept) and Timestamp
// (awscli/formatter.py TextFormatter; botocore GetConsoleOutputResult).
var reTextConsole = regexp.MustCompile(`^(i-[0-9a-f]{8,17})\t`)

// reTextConsoleEnd is the tab and timestamp that end the text form's Output.
var reTextConsoleEnd = regexp.MustCompile(`\t(\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:?\d\d)?)\s*$`)

// consoleText reads the console output at p when it was saved as text rather than JSON: with
// `--output text` (the instance ID, a tab, the console, a tab and the timestamp; other is the
// instance ID it names) or `--query Output --output text` (the console alone, other ""). Plain
// text is taken as a console only when it shows one: a kernel timestamp, cloud-init or nodeadm.
// ok is false for JSON or YAML, a saved CLI error, or text that is no console.
func (s *Snapshot) consoleText(p string) (co *evidence.ConsoleOutput, other string, ok bool) {
	if s.errs[p] != nil {
		return nil, "", false
	}
	b, found, err := s.content(p)
	if !found || err != nil {
		return nil, "", false
	}
	t := strings.TrimPrefix(string(b), "\ufeff")
	lead := strings.TrimLeft(t, " \t\r\n")
	if lead == "" || lead[0] == '{' || json.Valid(b) || cliYAML(b) && !reKernelStamp.MatchString(lead) || ParseCLIError(b) != nil {
		return nil, "", false
	}
	co = &evidence.ConsoleOutput{}
	if m := reTextConsole.FindStringSubmatch(t); m != nil {
		other, t = m[1], t[len(m[0]):]
		if e := reTextConsoleEnd.FindStringSubmatchIndex(t); e != nil {
			if ts, err := time.Parse(time.RFC3339, t[e[2]:e[3]]); err == nil {
				co.Timestamp = ts
			}
			t = t[:e[0]]
		}
	} else if !reKernelStamp.MatchString(t) && !strings.Contains(t, "cloud-init") && !strings.Contains(t, "nodeadm") {
		return nil, "", false
	}
	co.Text = t
	return co, other, true
}

// reBase64Text is user data as `--query UserData.Value --output text` prints it: one base64
// token (base64(1) wraps it at 76 columns; the lines are joined before matching).
var reBase64Text = regexp.MustCompile(`^[A-Za-z0-9+/]+={0,2}$`)

// userDataText reads the user data attribute at p when it was saved as text rather than JSON
// (aws ec2 describe-instance-attribute --attribute userData): with `--query UserData.Value
// --output text`, the base64 alone ("None" when the instance has none: the CLI's text for a
// null); with `--output text`, the instance ID on its own line (other) and a "USERDATA\t<base64>"
// row, absent when the instance has none (awscli/formatter.py TextFormatter). ok is false for
// anything else (JSON, YAML, a saved CLI error, other text), which the JSON reader judges.
func (s *Snapshot) userDataText(p string) (b64, other string, ok bool) {
	if s.errs[p] != nil {
		return "", "", false
	}
	b, found, err := s.content(p)
	if !found || err != nil || json.Valid(b) || ParseCLIError(b) != nil {
		return "", "", false
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimPrefix(string(b), "\ufeff"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	switch {
	case len(lines) == 0:
		return "", "", false
	case len(lines) == 1 && lines[0] == "None":
		return "", "", true
	case reTextConsole.MatchString(lines[0]+"\t") && len(lines) <= 2:
		other = lines[0]
		if len(lines) == 1 {
			return "", other, true
		}
		v, ok := strings.CutPrefix(lines[1], "USERDATA\t")
		if !ok {
			return "", "", false
		}
		v = strings.TrimSpace(v)
		if !reBase64Text.MatchString(v) || !plausibleUserData(v) {
			return "", "", false
		}
		return v, other, true
	}
	for _, l := range lines[:len(lines)-1] {
		if len(l) != len(lines[0]) || len(l) != 76 && len(l) != 64 {
			return "", "", false // not one token wrapped as base64(1) or openssl wrap it
		}
	}
	v := strings.Join(lines, "")
	if !reBase64Text.MatchString(v) || !plausibleUserData(v) {
		return "", "", false
	}
	return v, "", true
}

// plausibleUserData reports whether base64 v decodes to what user data holds: UTF-8 text, or
// gzip (cloud-init and nodeadm accept gzip-compressed user data). A word that happens to be
// valid base64 ("null", "true") decodes to neither.
func plausibleUserData(v string) bool {
	b, err := decodeStdBase64(v)
	return err == nil && len(b) > 0 && (utf8.Valid(b) || len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b)
}
