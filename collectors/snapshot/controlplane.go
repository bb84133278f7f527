package snapshot

import (
	"fmt"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/logscan"
)

// Control-plane log files (docs/snapshot-format.md): `aws logs filter-log-events` output of the
// cluster's log group /aws/eks/CLUSTER/cluster, one file for the authenticator streams and one
// for the kube-apiserver audit events about CSRs and aws-auth.
const (
	authenticatorEventsPath = "logs/authenticator-events.json"
	auditEventsPath         = "logs/audit-events.json"
)

// FilterLogEventsOutput is the part of `aws logs filter-log-events` output read here: each
// event's stream, its time (milliseconds since the epoch) and its message (the component's own
// line: a logrus line of aws-iam-authenticator, a JSON audit event of kube-apiserver).
type FilterLogEventsOutput struct {
	Events []struct {
		LogStreamName string `json:"logStreamName"`
		Timestamp     int64  `json:"timestamp"`
		Message       string `json:"message"`
	} `json:"events"`
}

func init() {
	RegisterProvider(controlPlaneLogs, evidence.KindControlPlaneLogs, evidence.KindNodeLogs, evidence.KindMappingChanges)
}

// controlPlaneLogs scans the control plane's own testimony with the signature catalog, as
// further streams of the node's logs (with the console output when there is one): the
// authenticator's "access denied" for a node role (auth.authenticator-denied, with the ARN and
// the reason), an audit event deleting aws-auth or denying a CSR. Authenticator lines are kept
// only when they name a role that can be a node's (the instance's role, a node group's, a
// mapping for system:nodes, an EC2 access entry): a denied human user is not this node's
// problem. With no node role known (a pasted filter-log-events output alone), every line counts. Each line carries its event time, so time is judged by the events, never the clock.
func controlPlaneLogs(s *Snapshot, ev *evidence.Evidence) {
	type stream struct{ path, text string }
	var streams []stream
	roles := nodeRoleNames(ev)
	var read, missing []string
	var audit []auditEvent
	auditRead := false
	for _, p := range []string{authenticatorEventsPath, auditEventsPath} {
		var b strings.Builder
		ok, _, reason := Decode(s, p, func(o *FilterLogEventsOutput) {
			for _, e := range o.Events {
				msg := strings.TrimRight(e.Message, "\n")
				if p == auditEventsPath {
					if a, ok := decodeAuditEvent(msg); ok {
						audit = append(audit, a)
					}
				}
				if p == authenticatorEventsPath && len(roles) > 0 && !namesAny(msg, roles) {
					continue
				}
				if e.Timestamp > 0 {
					b.WriteString(time.UnixMilli(e.Timestamp).UTC().Format(time.RFC3339Nano))
					b.WriteByte(' ')
				}
				b.WriteString(strings.ReplaceAll(msg, "\n", " "))
				b.WriteByte('\n')
			}
		})
		if ok {
			auditRead = auditRead || p == auditEventsPath
			read = append(read, s.Src(p))
		} else if !IsMissing(reason) {
			missing = append(missing, reason) // read, but denied or damaged
		}
		if ok && b.Len() > 0 {
			streams = append(streams, stream{p, b.String()})
		}
	}
	if changes := auditMappingChanges(audit, ev); len(changes) > 0 {
		ev.MappingChanges = append(ev.MappingChanges, changes...)
		ev.Mark(evidence.KindMappingChanges, s.Src(auditEventsPath))
	} else if auditRead && !ev.Have(evidence.KindMappingChanges) {
		ev.Mark(evidence.KindMappingChanges, s.Src(auditEventsPath)) // read: no write removed a node mapping
	}
	switch {
	case len(read) > 0:
		ev.Mark(evidence.KindControlPlaneLogs, strings.Join(read, ", "))
	case len(missing) > 0:
		ev.AddGap(evidence.KindControlPlaneLogs, missing[0])
	default:
		ev.AddGap(evidence.KindControlPlaneLogs, controlPlaneLoggingGap(s, ev.Target.Cluster))
	}
	if len(streams) == 0 {
		return
	}
	sc := logscan.MustDefault()
	sc.Ref = ev.CollectedAt
	origin := "control-plane logs"
	if co := ev.ConsoleOutput; co != nil && co.Text != "" && ev.Have(evidence.KindNodeLogs) {
		// one result for both: the console's lines are scanned again with the control plane's
		if err := sc.Scan(strings.NewReader(co.Text), "ec2/get-console-output/"+ev.Target.InstanceID+".json", "console"); err != nil {
			return
		}
		origin = "console, control-plane logs"
	}
	for _, st := range streams {
		if err := sc.Scan(strings.NewReader(st.text), st.path, "control-plane"); err != nil {
			return
		}
	}
	ev.NodeLogs = sc.Result(origin)
	sources := []string{}
	if ev.Have(evidence.KindNodeLogs) {
		sources = append(sources, ev.Source(evidence.KindNodeLogs))
	}
	for _, st := range streams {
		sources = append(sources, s.Src(st.path))
	}
	ev.Mark(evidence.KindNodeLogs, strings.Join(sources, ", "))
}

// describeClusterLogging is the part of `aws eks describe-cluster` output that says which
// control-plane log types are sent to CloudWatch Logs.
type describeClusterLogging struct {
	Cluster struct {
		Name    string `json:"name"`
		Logging struct {
			ClusterLogging []struct {
				Types   []string `json:"types"`
				Enabled bool     `json:"enabled"`
			} `json:"clusterLogging"`
		} `json:"logging"`
	} `json:"cluster"`
}

// ControlPlaneLogTypes returns the control-plane log types ("api", "audit", "authenticator",
// "controllerManager", "scheduler") the cluster sends to CloudWatch Logs, as DescribeCluster's
// logging.clusterLogging lists them; known is false when the cluster was not described.
func ControlPlaneLogTypes(s *Snapshot) (enabled map[string]bool, known bool) {
	enabled = map[string]bool{}
	ok, _, _ := Decode(s, "eks/describe-cluster.json", func(d *describeClusterLogging) {
		for _, l := range d.Cluster.Logging.ClusterLogging {
			for _, t := range l.Types {
				if l.Enabled {
					enabled[t] = true
				}
			}
		}
	})
	return enabled, ok
}

// controlPlaneLoggingGap says why no control-plane log was read: the log types are off (with the
// command that turns them on), or they are on but were not collected. The reason is the same for
// every instance of the cluster: it is built once per snapshot, and the reports of a fleet hold
// one copy.
func controlPlaneLoggingGap(s *Snapshot, cluster string) string {
	return s.shared("controlplane.gap\x00"+cluster, func() any { return controlPlaneLoggingReason(s, cluster) }).(string)
}

func controlPlaneLoggingReason(s *Snapshot, cluster string) string {
	enabled, known := ControlPlaneLogTypes(s)
	if !known {
		return s.missing(authenticatorEventsPath + ", " + auditEventsPath)
	}
	var off []string
	for _, t := range []string{"authenticator", "audit"} {
		if !enabled[t] {
			off = append(off, t)
		}
	}
	if len(off) == 0 {
		return "authenticator and audit logging are on, but their events were not collected (" + authenticatorEventsPath + ", " + auditEventsPath + ")"
	}
	if cluster == "" {
		cluster = "CLUSTER"
	}
	return fmt.Sprintf("control-plane %s logging is off: turn it on with aws eks update-cluster-config --name %s --logging '{\"clusterLogging\":[{\"types\":[\"authenticator\",\"audit\"],\"enabled\":true}]}'",
		strings.Join(off, " and "), cluster)
}

// nodeRoleNames lists the names of the IAM roles nodes of this evidence may use.
func nodeRoleNames(ev *evidence.Evidence) []string {
	var out []string
	add := func(arnOrName string) {
		if arnOrName == "" {
			return
		}
		name := arnOrName[strings.LastIndexByte(arnOrName, '/')+1:]
		for _, x := range out {
			if x == name {
				return
			}
		}
		out = append(out, name)
	}
	if ev.NodeRole != nil {
		add(ev.NodeRole.Arn)
		add(ev.NodeRole.Name)
	}
	if ev.InstanceProfile != nil {
		for _, r := range ev.InstanceProfile.Roles {
			add(r.Name)
		}
	}
	for _, ng := range ev.Nodegroups {
		add(ng.NodeRole)
	}
	for _, a := range ev.AccessEntries {
		if strings.HasPrefix(a.Type, "EC2") || a.Type == "HYBRID_LINUX" {
			add(a.PrincipalArn)
		}
	}
	if ev.AWSAuth != nil {
		for _, m := range ev.AWSAuth.Roles {
			for _, g := range m.Groups {
				if g == "system:nodes" {
					add(m.RoleArn)
				}
			}
		}
	}
	return out
}

// namesAny reports whether the line names one of the roles (as ARN .../NAME or assumed-role/NAME/).
func namesAny(line string, roles []string) bool {
	for _, r := range roles {
		if strings.Contains(line, "/"+r+"\"") || strings.Contains(line, "/"+r+"/") || strings.Contains(line, "/"+r+" ") || strings.HasSuffix(line, "/"+r) {
			return true
		}
	}
	return false
}
