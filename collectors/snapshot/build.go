package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// ErrUnknownInstance is wrapped by Evidence when the instance is not in
// ec2/describe-instances.json.
var ErrUnknownInstance = errors.New("instance not in snapshot")

func tagMap(tags []Tag) map[string]string {
	m := make(map[string]string, len(tags))
	for _, t := range tags {
		m[t.Key] = t.Value
	}
	return m
}

// NoNodeLogs is the gap reason for node logs in AWS-side evidence.
const NoNodeLogs = "the node's own logs are not part of AWS or cluster evidence (eksdoctor analyze BUNDLE --snapshot SNAP reads a node log bundle)"

// Evidence builds the Evidence for one instance. cluster may be empty: it is then inferred
// from the instance's tags (eks:cluster-name, aws:eks:cluster-name, kubernetes.io/cluster/*),
// the user data, the manifest, or describe-cluster, in that order. Errors: ErrUnknownInstance
// (wrapped, listing the instances present), or a message when ec2/describe-instances.json is
// missing or unreadable.
func (s *Snapshot) Evidence(instanceID, cluster string) (*evidence.Evidence, error) {
	ev, err := s.newInstanceEvidence(instanceID, cluster)
	if err != nil {
		return nil, err
	}
	s.runProviders(ev)
	s.cutKinds(ev)
	s.finishInstanceEvidence(ev)
	return ev, nil
}

// newInstanceEvidence is the instance's Evidence before any provider ran: its target (with the
// cluster named by the flag, if any) and the node-log gap. The instance is required: it fails
// as Evidence does when ec2/describe-instances.json does not list it.
func (s *Snapshot) newInstanceEvidence(instanceID, cluster string) (*evidence.Evidence, error) {
	ev := &evidence.Evidence{CollectedAt: s.CollectedAt()}
	ev.Target = evidence.Target{InstanceID: instanceID, Source: s.Origin}
	if cluster != "" {
		ev.Target.Cluster, ev.Target.ClusterSource = cluster, "flag"
	}
	ev.AddGap(evidence.KindNodeLogs, NoNodeLogs)
	idx := s.instanceIndex()
	if idx.res != readOK {
		return nil, fmt.Errorf("cannot diagnose %s: %s", instanceID, idx.reason)
	}
	if idx.byID[instanceID] == nil {
		cut := ""
		if why := s.pagedReason(instancesPath); why != "" {
			cut = "; " + why
		}
		return nil, fmt.Errorf("%w: %s is not in ec2/describe-instances.json (instances there: %s)%s", ErrUnknownInstance, instanceID, strings.Join(s.InstanceIDs(), ", "), cut)
	}
	return ev, nil
}

// finishInstanceEvidence derives, once every provider ran, the instance's NodeClaim, how it was
// provisioned and (without a manifest) when the evidence was collected.
func (s *Snapshot) finishInstanceEvidence(ev *evidence.Evidence) {
	ev.NodeClaim = nodeClaimOf(ev.NodeClaims, ev.Target.InstanceID)
	ev.Provisioner = evidence.DetectProvisioner(ev)
	if ev.CollectedAt.IsZero() {
		ev.CollectedAt = newestTime(ev)
	}
	s.launchedAfterCollection(ev)
}

// collectionSkew is how far an instance's LaunchTime (EC2's clock) may lie after the manifest's
// collectedAt (the collecting machine's clock) before the two are taken to be from different
// moments: room for a collector's clock running behind.
const collectionSkew = 5 * time.Minute

// launchedAfterCollection records, for an instance whose LaunchTime is later than the
// manifest's collectedAt (beyond collectionSkew), that the snapshot's files are from different
// moments: collect-snapshot.sh and the live collector write collectedAt after every file, so
// describe-instances was taken later than the manifest says (or the files were put together).
// The Node list, when it does not hold the instance's Node, may predate the launch: it cannot
// show the instance did not register, so the Nodes are a gap for it.
func (s *Snapshot) launchedAfterCollection(ev *evidence.Evidence) {
	at := s.CollectedAt()
	if ev.Instance == nil || at.IsZero() || ev.Instance.LaunchTime.IsZero() || !ev.Instance.LaunchTime.After(at.Add(collectionSkew)) {
		return
	}
	id := ev.Instance.ID
	s.problem(instancesPath, fmt.Sprintf("%s launched at %s, %s after the snapshot's collectedAt %s (manifest.json): the files are from different moments",
		id, ev.Instance.LaunchTime.UTC().Format(time.RFC3339), ev.Instance.LaunchTime.Sub(at).Round(time.Second), at.UTC().Format(time.RFC3339)))
	if !ev.Have(evidence.KindNodes) || slices.ContainsFunc(ev.Nodes, func(n evidence.Node) bool { return nodeOf(n, ev.Instance) }) {
		return
	}
	ev.Nodes = nil
	ev.AddGapForce(evidence.KindNodes, fmt.Sprintf("the Node list (%s) may have been taken before %s launched (its LaunchTime is after the snapshot's collectedAt), so it cannot show the instance has no Node: collect the snapshot again",
		strings.TrimPrefix(ev.Source(evidence.KindNodes), "snapshot:"), id))
}

// markFound marks kind collected when the file read and the wanted item was in it.
func (s *Snapshot) markFound(ev *evidence.Evidence, kind evidence.Kind, res readResult, reason, p string, found bool, what string) {
	switch {
	case res == readOK && found:
		ev.Mark(kind, s.src(p))
	case res == readOK:
		ev.AddGap(kind, fmt.Sprintf("%s is not in %s", what, p))
	case res == readNotFound:
		ev.AddGap(kind, fmt.Sprintf("%s does not exist (%s)", what, reason))
	default:
		ev.AddGap(kind, reason)
	}
}

// nameFromArn returns the last path component of an ARN's resource (role or instance profile
// name without its path).
func nameFromArn(arn string) string {
	if i := strings.LastIndexByte(arn, '/'); i >= 0 {
		return arn[i+1:]
	}
	return arn
}

// ClusterEvidence builds the evidence of the cluster as a whole (no instance): the cluster, its
// node groups and access entries, Auto Scaling groups and activities, subnets and the cluster
// side. Checks that need an instance skip on it.
func (s *Snapshot) ClusterEvidence(cluster string) *evidence.Evidence {
	ev := s.newClusterEvidence(cluster)
	s.runProviders(ev)
	s.cutKinds(ev)
	return ev
}

// newClusterEvidence is the cluster's Evidence before any provider ran: its target (the flag's
// cluster, else the manifest's), the node-log gap and the instance's ("cluster-wide evaluation").
func (s *Snapshot) newClusterEvidence(cluster string) *evidence.Evidence {
	ev := &evidence.Evidence{CollectedAt: s.CollectedAt()}
	ev.Target = evidence.Target{Cluster: cluster, Source: s.Origin}
	if cluster != "" {
		ev.Target.ClusterSource = "flag" // callers that chose the name otherwise say so
	}
	ev.AddGap(evidence.KindNodeLogs, NoNodeLogs)
	if cluster == "" && s.Manifest != nil {
		ev.Target.Cluster, ev.Target.ClusterSource = s.Manifest.Cluster, "snapshot manifest"
	}
	if s.Manifest != nil {
		ev.Target.Region = s.Manifest.Region
	}
	ev.AddGap(evidence.KindInstance, "cluster-wide evaluation")
	return ev
}

// decodeKubeItems calls each for every object in a kubectl List, or for the single object.
func decodeKubeItems(s *Snapshot, p string, each func(json.RawMessage) error) (readResult, string) {
	res, reason, _ := decodeKubeObjects(s, p, each)
	return res, reason
}

// decodeKubeObjects is decodeKubeItems that also reports whether the file held no List at all,
// only single objects (kubectl get node NAME -o json): the objects it names, not the set.
func decodeKubeObjects(s *Snapshot, p string, each func(json.RawMessage) error) (res readResult, reason string, singles bool) {
	lists, objects := 0, 0
	res, reason = s.decode(p, func(raw json.RawMessage) error {
		var l kubeList
		if err := json.Unmarshal(raw, &l); err != nil {
			return err
		}
		if strings.HasSuffix(l.Kind, "List") || l.Items != nil {
			lists++
			for _, it := range l.Items {
				if err := each(json.RawMessage(it)); err != nil {
					return err
				}
			}
			return nil
		}
		objects++
		return each(raw)
	})
	return res, reason, lists == 0 && objects > 0
}

// markObject records a single Kubernetes object read from p: found, known not to exist
// (collected, the field stays nil), or a gap.
func (s *Snapshot) markObject(ev *evidence.Evidence, kind evidence.Kind, res readResult, reason, p string) {
	switch res {
	case readOK:
		ev.Mark(kind, s.src(p))
	case readNotFound:
		ev.Mark(kind, s.src(p)+" (NotFound)")
	default:
		ev.AddGap(kind, reason)
	}
}

func (s *Snapshot) markKube(ev *evidence.Evidence, kind evidence.Kind, res readResult, reason, p string) {
	switch res {
	case readOK, readNotFound:
		ev.Mark(kind, s.src(p))
	default:
		ev.AddGap(kind, reason)
	}
}

// newestTime estimates when evidence was collected when the manifest does not say: the newest
// timestamp found in it (launch time, CSR creation). Zero when none is known.
func newestTime(ev *evidence.Evidence) time.Time {
	var t time.Time
	if ev.Instance != nil && ev.Instance.LaunchTime.After(t) {
		t = ev.Instance.LaunchTime
	}
	for _, c := range ev.CSRs {
		if c.Created.After(t) {
			t = c.Created
		}
	}
	return t
}
