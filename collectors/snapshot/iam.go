package snapshot

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

func init() {
	RegisterProviderAt(StageResources, (*Snapshot).loadIAM, evidence.KindInstanceProfile, evidence.KindNodeRole, evidence.KindNodeRolePolicies)
}

// convertRole turns a get-role (or get-instance-profile) role into evidence, with its trust policy.
func convertRole(r IAMRole) evidence.Role {
	out := evidence.Role{Name: r.RoleName, Arn: r.Arn, Path: r.Path}
	if out.Name == "" && out.Arn != "" {
		// a --query kept only the role's ARN (InstanceProfile.Roles[0].Arn): its last segment
		// is the name (arn:aws:iam::ACCOUNT:role/PATH/NAME)
		if i := strings.LastIndex(out.Arn, "/"); i >= 0 && strings.Contains(out.Arn, ":role/") {
			out.Name = out.Arn[i+1:]
		}
	}
	if b := r.PermissionsBoundary; b != nil {
		out.PermissionsBoundary = b.PermissionsBoundaryArn
	}
	if d := r.AssumeRolePolicyDocument; d != nil {
		out.TrustPolicy = &evidence.PolicyDocument{Version: d.Version}
		for _, st := range d.Statement {
			out.TrustPolicy.Statement = append(out.TrustPolicy.Statement, evidence.PolicyStatement{Sid: st.Sid, Effect: st.Effect,
				Action: st.Action, Resource: st.Resource, Principal: st.Principal, HasCondition: len(st.Condition) > 0 && string(st.Condition) != "null", Conditions: policyConditions(st.Condition)})
		}
	}
	return out
}

// policyConditions reads a statement's Condition block ({"Operator": {"key": value or [values]}})
// into one PolicyCondition per operator and key, sorted; values that are JSON bools or numbers
// keep their text. A block of another shape gives nil (the statement's HasCondition still says
// it has one, so a check treats it as unread).
func policyConditions(raw json.RawMessage) []evidence.PolicyCondition {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var block map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &block); err != nil {
		return nil
	}
	var out []evidence.PolicyCondition
	for op, keys := range block {
		for key, v := range keys {
			var list []json.RawMessage
			if err := json.Unmarshal(v, &list); err != nil {
				list = []json.RawMessage{v}
			}
			c := evidence.PolicyCondition{Operator: op, Key: key}
			for _, one := range list {
				var s string
				if err := json.Unmarshal(one, &s); err != nil {
					s = strings.TrimSpace(string(one))
				}
				c.Values = append(c.Values, s)
			}
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Operator != out[j].Operator {
			return out[i].Operator < out[j].Operator
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// loadIAM reads the instance's instance profile (iam/get-instance-profile/<name>.json), its
// first role (iam/get-role/<role>.json, else the role the profile returned) and that role's
// attached policies. An instance profile that no longer exists is a fact: an empty profile.
func (s *Snapshot) loadIAM(ev *evidence.Evidence) {
	inst := s.instanceOf(ev)
	if inst == nil {
		return
	}
	if !ev.Instance.Reported("IamInstanceProfile") {
		why := "the describe-instances output was narrowed by a --query that did not keep IamInstanceProfile"
		ev.AddGap(evidence.KindInstanceProfile, why)
		ev.AddGap(evidence.KindNodeRole, why)
		ev.AddGap(evidence.KindNodeRolePolicies, why)
		return
	}
	if inst.IamInstanceProfile == nil || inst.IamInstanceProfile.Arn == "" {
		ev.Mark(evidence.KindInstanceProfile, s.src("ec2/describe-instances.json")+" (no IamInstanceProfile)")
		ev.AddGap(evidence.KindNodeRole, "the instance has no instance profile")
		ev.AddGap(evidence.KindNodeRolePolicies, "the instance has no instance profile")
		return
	}
	profile := nameFromArn(inst.IamInstanceProfile.Arn)
	p := "iam/get-instance-profile/" + profile + ".json"
	res, reason := decodeInto(s, p, func(o *GetInstanceProfileOutput) {
		if a := o.InstanceProfile.Arn; a != "" && !strings.EqualFold(a, inst.IamInstanceProfile.Arn) {
			// the same name in another account (or path): not the profile the instance names
			ev.AddGap(evidence.KindInstanceProfile, s.setAsideArn(p, a, inst.IamInstanceProfile.Arn))
			return
		}
		ip := &evidence.InstanceProfile{Name: o.InstanceProfile.InstanceProfileName, Arn: o.InstanceProfile.Arn}
		for _, r := range o.InstanceProfile.Roles {
			ip.Roles = append(ip.Roles, convertRole(r))
		}
		ev.InstanceProfile = ip
	})
	switch {
	case res == readOK && ev.InstanceProfile == nil:
		// set aside above: another profile's output
	case res == readOK:
		ev.Mark(evidence.KindInstanceProfile, s.src(p))
	case res == readNotFound:
		// The profile named on the instance no longer exists: a fact, recorded as an empty profile.
		ev.InstanceProfile = &evidence.InstanceProfile{Name: profile, Arn: inst.IamInstanceProfile.Arn}
		ev.Mark(evidence.KindInstanceProfile, s.src(p)+" ("+reason+")")
	default:
		ev.AddGap(evidence.KindInstanceProfile, reason)
	}
	var roleName string
	if ev.InstanceProfile != nil && len(ev.InstanceProfile.Roles) > 0 {
		roleName = ev.InstanceProfile.Roles[0].Name
	}
	if roleName == "" {
		why := "the instance profile has no role"
		if !ev.Have(evidence.KindInstanceProfile) {
			why = "the instance profile was not collected (" + ev.GapFor(evidence.KindInstanceProfile).Reason + ")"
		}
		ev.AddGap(evidence.KindNodeRole, why)
		ev.AddGap(evidence.KindNodeRolePolicies, why)
		return
	}
	var fallback *evidence.Role
	if ev.InstanceProfile.Roles[0].Arn != "" {
		// get-role missing or denied: get-instance-profile already returned the role (with its trust policy).
		fallback = &ev.InstanceProfile.Roles[0]
	}
	s.loadNodeRole(ev, roleName, fallback, ev.Source(evidence.KindInstanceProfile))
}

// loadNodeRole reads the node role roleName (iam/get-role/<name>.json) and its attached
// policies (iam/list-attached-role-policies/<name>.json). When get-role is missing, fallback
// (the role as another document gave it, from fallbackSrc) stands in; without one the role is a gap.
func (s *Snapshot) loadNodeRole(ev *evidence.Evidence, roleName string, fallback *evidence.Role, fallbackSrc string) {
	p := "iam/get-role/" + roleName + ".json"
	res, reason := decodeInto(s, p, func(o *GetRoleOutput) {
		r := convertRole(o.Role)
		ev.NodeRole = &r
	})
	switch {
	case res == readOK:
		ev.Mark(evidence.KindNodeRole, s.src(p))
	case fallback != nil:
		r := *fallback
		ev.NodeRole = &r
		ev.Mark(evidence.KindNodeRole, fallbackSrc)
	default:
		ev.AddGap(evidence.KindNodeRole, reason)
	}
	p = "iam/list-attached-role-policies/" + roleName + ".json"
	res, reason = decodeInto(s, p, func(o *ListAttachedRolePoliciesOutput) {
		for _, ap := range o.AttachedPolicies {
			ev.NodeRolePolicies = append(ev.NodeRolePolicies, evidence.AttachedPolicy{Name: ap.PolicyName, Arn: ap.PolicyArn})
		}
	})
	s.markFound(ev, evidence.KindNodeRolePolicies, res, reason, p, true, "")
}

// ProfileRole returns the role named roleName (case-insensitive, as IAM names are) as the
// get-instance-profile output at path (iam/get-instance-profile/<profile>.json) gives it, trust
// policy included: IAM GetInstanceProfile returns each role whole (botocore iam Role shape,
// AssumeRolePolicyDocument URL-encoded, which the CLI prints decoded). It returns nil when the
// file does not read or does not hold that role.
func (s *Snapshot) ProfileRole(path, roleName string) *evidence.Role {
	var out *evidence.Role
	decodeInto(s, path, func(o *GetInstanceProfileOutput) {
		for _, r := range o.InstanceProfile.Roles {
			if out == nil && strings.EqualFold(r.RoleName, roleName) {
				c := convertRole(r)
				out = &c
			}
		}
	})
	return out
}

// AdoptNodeRole sets the node role of cluster-wide evidence (no instance to name it) to
// roleName, read from the snapshot's iam/get-role and iam/list-attached-role-policies files for
// that name; fallback (from fallbackSrc) stands in when get-role is absent. The paste reader
// calls it when a paste points at exactly one node role.
func (s *Snapshot) AdoptNodeRole(ev *evidence.Evidence, roleName string, fallback *evidence.Role, fallbackSrc string) {
	s.loadNodeRole(ev, roleName, fallback, fallbackSrc)
}
