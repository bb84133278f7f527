package evidence

import (
	"slices"
	"time"
)

// Node-side evidence kinds, read from a node log bundle or a pasted artefact
// (docs/bundle-formats.md).
const (
	// KindNodeLogs: node logs scanned for the known failure signatures (collectors/logscan).
	KindNodeLogs Kind = "node:logs"
	// KindNodeOS: the node's operating system and component versions as the node reports them.
	KindNodeOS Kind = "node:os"
)

// NodeLogs is what the log signature scan saw: which streams were read and which signatures
// matched. Lines themselves are not kept; each hit keeps its first and last occurrence.
type NodeLogs struct {
	// Origin names the input kind: "bottlerocket", "eks-linux", "eks-windows" (bundles),
	// "artefact" (one pasted file or stdin) or "console" (EC2 console output).
	Origin  string
	Streams []LogStream
	// Hits are the matched signatures, in catalog order; Count counts lines, not distinct texts.
	Hits []SignatureHit
	// Proxy is the HTTP proxy environment of the node's components as its configuration files
	// set it (empty when none is set or the input does not show it).
	Proxy []ProxyEnv `json:",omitempty"`
	// CurlRoute says how the EKS log collector's curl to the API endpoint went
	// (networking/curl_api_server.txt): CurlDirect, CurlProxied, or "" when it did not run.
	CurlRoute string `json:",omitempty"`
	// OS is the node's OS family as the input shows it (NodeOS.Family: al2, al2023,
	// bottlerocket, ubuntu, windows); "" when unknown. Signatures bound to families
	// (SignatureHit.OnlyOn) fail only on those.
	OS string `json:",omitempty"`
	// Egress are the public addresses the node was seen leaving from: what an address echo
	// service (checkip.amazonaws.com, ifconfig.me, api.ipify.org …) answered a command typed in
	// a shell on the node. Empty when the input shows none.
	Egress []ObservedAddress `json:",omitempty"`
}

// ObservedAddress is an IP address the input shows, with where it shows it.
type ObservedAddress struct {
	// Addr is the address as printed (IPv4 or IPv6).
	Addr string `json:"addr"`
	// Source is the part of the input and the command that printed it
	// ("paste:ticket.txt:10 (`curl -s https://checkip.amazonaws.com` on the node)").
	Source string `json:"source"`
}

// LogStream is one log file (or archive member) that was scanned.
type LogStream struct {
	// Path is the normalised member path, e.g. "kubelet/kubelet.log".
	Path string
	// Stream classifies it: kubelet, containerd, journal, ipamd, plugin, aws-node, cloud-init,
	// nodeadm, kernel, bootstrap, windows-events or other.
	Stream string
	// Lines and Bytes count what was read (uncompressed).
	Lines int64
	Bytes int64
	// LongLines counts lines longer than the line limit; only their first part was matched.
	LongLines int64
	// FirstLine and LastLine are the numbers of the stream's first and last lines within Path
	// (a paste's documents share its path); not part of reports.
	FirstLine, LastLine int64 `json:"-"`
	// LastTime is the timestamp of the stream's last dated line among its final lines (zero
	// when none is dated): how long after a line the log was cut; not part of reports.
	LastTime time.Time `json:"-"`
	// LastClock is LastTime for a stream whose lines have year-less timestamps and nothing gave
	// them a year: the year-less clock of its last dated line (LogLine.Clock), 0 otherwise.
	LastClock int64 `json:"-"`
	// Components counts, per catalog component (kubelet, nodeadm …), the lines seen that are
	// that component's: its presence literals and its signatures' lines (but those of signatures
	// that only mark a milestone).
	Components map[string]int64
}

// LogLine locates one line of a log stream.
type LogLine struct {
	Path string `json:"path"`
	// Line is 1-based within Path.
	Line int64 `json:"line"`
	// Time is the line's own timestamp (zero when it has none or it did not parse); journal
	// timestamps without a year get the year of the bundle's collection time.
	Time time.Time `json:"time,omitempty"`
	// Text is the line, cut to 400 bytes.
	Text string `json:"text"`
	// Seq orders lines across streams in the order they were read.
	Seq int64 `json:"-"`
	// Clock, for a line whose timestamp has no year and no reference year gave it one (a
	// pasted journal excerpt with nothing dated), is its time within an unnamed year
	// (nanoseconds since its start, plus one), so that such lines are still ordered by their own times (a
	// newest-first `journalctl -r` or Logs Insights export); 0 otherwise. Never shown: the year
	// is unknown (a paste crossing New Year is ordered wrongly).
	Clock int64 `json:"-"`
}

// SignatureHit is one signature that matched at least one line.
type SignatureHit struct {
	Signature string
	// Component emits the line (the signature's catalog file: kubelet, nodeadm, karpenter …).
	Component string
	// Finding is the catalog ID the signature is evidence for ("runtime.unauthorized").
	Finding string
	// Normal marks healthy-progress signatures ("Successfully registered node").
	Normal bool
	// Resolves lists the findings a Normal signature shows to be transient when it comes later.
	Resolves []string
	// SameFact, when set on a Normal hit, names the fact that keys what it resolves: only a
	// failure line carrying a value it also carries, on a later line, is resolved
	// (logscan.Signature.SameFact).
	SameFact string `json:",omitempty"`
	// ConsequenceOf lists findings that, when they fail in the same input, explain these lines.
	ConsequenceOf []string
	// MinCount is how many lines make a failure (a line printed once by healthy nodes fails
	// only when it repeats); 0 and 1 mean one.
	MinCount int64 `json:",omitempty"`
	// EndsLog makes fewer than MinCount lines a failure too when the log ends with them (see
	// NodeLogs.AtEnd): the fault was still there when the log was cut.
	EndsLog bool `json:",omitempty"`
	// AllValues, with ValuesOf naming a fact, makes the lines a failure only when that fact took
	// every one of these values among them (logscan.Signature.AllValues; AllValuesSeen).
	AllValues []string `json:",omitempty"`
	ValuesOf  string   `json:",omitempty"`
	// MinWait marks a line that starts a wait healthy starts also go through: a failure only
	// when the log does not show the wait ending sooner (NodeLogs.WaitedOut).
	MinWait time.Duration `json:",omitempty"`
	// RepeatEvery is how often the component writes the line again while the fault lasts
	// (logscan.Signature.RepeatEvery); 0 when it does not repeat on a period.
	RepeatEvery time.Duration `json:",omitempty"`
	// OnlyOn lists the OS families on which the lines show the fault (logscan.Signature.OnlyOn):
	// on another, or when NodeLogs.OS is unknown, they are no failure.
	OnlyOn []string `json:",omitempty"`
	// Milestone is the join step the line shows ("registered", "ready", …), or "".
	Milestone string `json:",omitempty"`
	// Symptom marks lines that only say nodes did not join, not why (logscan.Signature.Symptom).
	Symptom bool `json:",omitempty"`
	Meaning string
	Count   int64
	// SharedWith counts, per signature of the same Finding, this hit's lines that signature
	// matched first (the first of a line's signatures of one finding, in the scanner's order):
	// a finding's lines are its hits' Counts less these (DistinctLines).
	SharedWith map[string]int64 `json:",omitempty"`
	First      LogLine
	Last       LogLine
	// Ended, when set, says why the fault these lines show is over although no healthy line
	// follows them: every line is a kubelet event that stopped repeating before the events were
	// listed (collectors/ingest endedEvents).
	Ended string `json:",omitempty"`
	// Facts are the values the signature's named groups captured (logscan.FactNames), distinct
	// values in order of first appearance, at most 8 per name.
	Facts map[string][]string `json:",omitempty"`
	// FactsCapped names the facts that had more distinct values than were kept (the scanner
	// keeps the first few of each): their list is a sample, not the whole, sorted.
	FactsCapped []string `json:",omitempty"`
	// FactLast holds, per fact and in the order of Facts[name], the last line (by the lines'
	// own times) that carried each value: when a failure of that value was last seen, and when
	// a resolving line of it last came.
	FactLast map[string][]LogLine `json:",omitempty"`
}

// DistinctLines returns how many lines hits, signatures of one finding, matched: their Counts
// less the lines one of them had matched before (SharedWith), so a line several of them match
// counts once. A line whose first signature is not among hits still counts once per other
// signature among hits after the first.
func DistinctLines(hits []SignatureHit) int64 {
	in := map[string]bool{}
	for _, h := range hits {
		in[h.Signature] = true
	}
	var n int64
	for _, h := range hits {
		n += h.Count
		for sig, c := range h.SharedWith {
			if in[sig] {
				n -= c
			}
		}
	}
	return n
}

// tailLines is how many lines may follow a hit's last line in its stream for the log to be
// said to end with it.
const tailLines = 2

// AtEnd reports whether h's last line is among the last lines of the stream it was read from
// (at most two lines follow it) and no line a signature matched above it in that stream is
// dated later by its own time: the log was cut while the condition it shows still held. A
// listing printed newest first (Get-WinEvent, journalctl -r) ends with its oldest line, which
// the lines above it followed.
func (l *NodeLogs) AtEnd(h SignatureHit) bool {
	in := func(st LogStream, x LogLine) bool {
		return st.Path == x.Path && st.FirstLine <= x.Line && x.Line <= st.LastLine
	}
	for _, st := range l.Streams {
		if !in(st, h.Last) {
			continue
		}
		if st.LastLine-h.Last.Line > tailLines {
			return false
		}
		for _, o := range l.Hits {
			if in(st, o.Last) && o.Last.Line < h.Last.Line && datedAfter(o.Last, h.Last) {
				return false
			}
		}
		return true
	}
	return false
}

// datedAfter reports whether line a's own time is later than line b's: both dated with a year,
// or both with a year-less clock (LogLine.Clock). Lines whose times cannot be compared are not.
func datedAfter(a, b LogLine) bool {
	switch {
	case !a.Time.IsZero() && !b.Time.IsZero():
		return a.Time.After(b.Time)
	case a.Time.IsZero() && b.Time.IsZero() && a.Clock != 0 && b.Clock != 0:
		return a.Clock > b.Clock
	}
	return false
}

// WaitedOut reports whether the wait h's last line starts lasted, as far as its stream shows:
// true unless h has a MinWait and the stream's last dated line is later than that line by less
// than MinWait (the log was cut while a wait healthy starts also go through was still short).
// A stream with nothing dated after the line says nothing of how long it waited: true.
func (l *NodeLogs) WaitedOut(h SignatureHit) bool {
	if h.MinWait <= 0 || h.Last.Time.IsZero() {
		return true
	}
	for _, st := range l.Streams {
		if st.Path == h.Last.Path && st.FirstLine <= h.Last.Line && h.Last.Line <= st.LastLine {
			return !st.LastTime.After(h.Last.Time) || st.LastTime.Sub(h.Last.Time) >= h.MinWait
		}
	}
	return true
}

// Failing reports whether failure hit h shows its fault: enough lines (MinCount), or fewer at
// the end of the log (EndsLog, AtEnd), a wait that lasted (WaitedOut) and every value its lines
// must show between them (AllValuesSeen). Normal hits are not.
func (l *NodeLogs) Failing(h SignatureHit) bool {
	if len(h.OnlyOn) > 0 && !slices.Contains(h.OnlyOn, l.OS) {
		return false
	}
	return !h.Normal && h.Finding != "" && (h.Count >= max(h.MinCount, 1) || h.EndsLog && l.AtEnd(h)) && l.WaitedOut(h) && h.AllValuesSeen()
}

// AllValuesSeen reports whether h's lines showed every value of AllValues in its fact ValuesOf
// (true when it lists none). The facts kept are capped (logscan keeps the first 8 values of a
// fact), so a signature listing values keeps its pattern to those values.
func (h SignatureHit) AllValuesSeen() bool {
	for _, want := range h.AllValues {
		found := false
		for _, v := range h.Facts[h.ValuesOf] {
			if v == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// ComponentLines returns how many lines of each component the scanned streams held.
func (l *NodeLogs) ComponentLines() map[string]int64 {
	out := map[string]int64{}
	if l == nil {
		return out
	}
	for _, s := range l.Streams {
		for c, n := range s.Components {
			out[c] += n
		}
	}
	return out
}

// NodeOS is what the node says about itself.
type NodeOS struct {
	// Family is al2, al2023, bottlerocket, ubuntu, windows or "" when unknown.
	Family string
	// Variant is the Bottlerocket variant (aws-k8s-1.30) or the OS name.
	Variant string
	// Version is the OS version (Bottlerocket 1.24.1, the uname kernel release).
	Version           string
	KubeletVersion    string
	ContainerdVersion string
}

// AllKinds lists every evidence kind, for collectors that hold only part of the picture (a node
// bundle, one pasted artefact) and record why the rest is missing.
var AllKinds = []Kind{
	KindCluster, KindAccessEntries, KindNodegroups, KindInstance, KindUserData, KindImage, KindInstanceType,
	KindSubnets, KindVPCs, KindInstanceProfile, KindNodeRole, KindNodeRolePolicies, KindAutoScaling, KindAWSAuth,
	KindVPCCNIConfig, KindNodes, KindCSRs, KindAWSNode, KindBootstrap, KindRouteTables, KindSecurityGroups,
	KindNetworkACLs, KindVPCEndpoints, KindNATGateways, KindInternetGateways, KindVPCAttributes, KindDHCPOptions,
	KindLaunchTemplate, KindConsoleOutput, KindNodeLogs, KindNodeOS, KindAWSNodeServiceAccount, KindKubeDNS,
	KindNodeRBAC, KindWebhooks, KindWebhookEndpoints, KindScalingActivities, KindMappingChanges, KindClusterRole, KindClusterRolePolicies,
	KindNodeClaims, KindNodePools, KindEC2NodeClasses, KindNodeClasses, KindFargateProfiles, KindPendingPods,
	KindControlPlaneLogs,
}

// GapAllMissing records reason as the gap of every kind not collected and without a gap yet.
func (e *Evidence) GapAllMissing(reason string) {
	for _, k := range AllKinds {
		if _, ok := e.gaps[k]; !ok && !e.Have(k) {
			e.AddGap(k, reason)
		}
	}
}

// QuietAfter is how long a component that writes h's line every h.RepeatEvery must be seen
// logging on without it for the fault to be over: twelve periods, and at least a minute (a
// log that skipped a few lines, or a loop that backed off, is not a fault that ended).
func (h SignatureHit) QuietAfter() time.Duration {
	return max(time.Minute, 12*h.RepeatEvery)
}
