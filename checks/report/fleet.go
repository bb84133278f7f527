package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/netpath"
	"github.com/fatih/color"
)

// Fleet is the report of many instances of one cluster (why-not-joining --all-pending).
type Fleet struct {
	SchemaVersion string `json:"schemaVersion"`
	// Kind is "fleet": the instances of a cluster that have not joined or are NotReady
	// (docs/schema/fleet.json).
	Kind    string `json:"kind" jsonschema:"enum=fleet"`
	Cluster string `json:"cluster"`
	Source  string `json:"source"`
	// Instances are the per-instance reports of the instances that have not joined, and of those
	// whose Node is NotReady (their verdict is joined, with the cause it is not Ready).
	Instances []*Report `json:"instances"`
	// Joined lists the instances a Node object exists for (Ready ones are not diagnosed).
	Joined []string `json:"joined"`
	// Unlisted lists the instances the snapshot's manifest names (manifest.json instanceIds)
	// that its ec2/describe-instances.json does not hold: nothing about them could be read,
	// so they are not diagnosed and the run is inconclusive about them; sorted, absent when
	// there are none.
	Unlisted []string `json:"unlisted,omitempty"`
	// OtherCluster lists the instances the input describes that are for another cluster and
	// have no Node in this one: their tags name another cluster (eks:cluster-name,
	// aws:eks:cluster-name, kubernetes.io/cluster/<name>), or no tag names any cluster and
	// their user data bootstraps another at an endpoint and CA not this cluster's. Not this
	// cluster's instances, so not diagnosed (a fix would tag them into it or point them at it);
	// sorted by instance, absent when there are none.
	OtherCluster []OtherClusterInstance `json:"otherCluster,omitempty"`
	// Ended lists the instances without a Node that are terminated or shutting down by an EC2
	// API call (Client.UserInitiatedShutdown: a user, Auto Scaling scale-in or replacement) or a
	// Spot interruption (Server.SpotInstanceTermination, Server.SpotInstanceShutdown): not
	// nodes waiting to join (describe-instances keeps a terminated instance about an hour), so
	// not diagnosed; one that ended otherwise (Client.InternalError, Server.InternalError, …)
	// is diagnosed. Sorted by instance, absent when there are none.
	Ended []EndedInstance `json:"ended,omitempty"`
	// NodesUnread says why the cluster's Nodes could not be read (its API unreachable, the
	// list denied or damaged): the instances diagnosed have no Node known, which does not
	// show they have none; also set when the Nodes were not collected at all (--no-kube, no
	// kube/nodes.json); "" when the Nodes were read.
	NodesUnread string `json:"nodesUnread,omitempty"`
	// Inconclusive says why the cluster's instances could not be listed (describe-instances
	// denied, missing or unreadable), so nothing shows which joined; "" when they were listed.
	Inconclusive string `json:"inconclusive,omitempty"`
	// Incomplete says why the instances listed are not all of the cluster's: the snapshot's
	// ec2/describe-instances.json stops at a page ("ec2/describe-instances.json lists only the
	// first page (NextToken present): …"), so the instances on the pages not read were not
	// judged and the run is inconclusive about them; absent when the list is whole.
	Incomplete string       `json:"incomplete,omitempty"`
	Summary    FleetSummary `json:"summary"`
}

// OtherClusterInstance is an instance for another cluster (Fleet.OtherCluster).
type OtherClusterInstance struct {
	InstanceID string `json:"instanceId"`
	// Cluster is the cluster its tags, or its user data, name.
	Cluster string `json:"cluster"`
	// Source says which: "tags", or "user data" (the instance has no cluster tag).
	Source string `json:"source,omitempty"`
}

// EndedInstance is an instance that ended by an EC2 API call or a Spot interruption (Fleet.Ended).
type EndedInstance struct {
	InstanceID string `json:"instanceId"`
	// State is the EC2 state: "terminated" or "shutting-down".
	State string `json:"state"`
	// Reason is its StateReason message ("Client.UserInitiatedShutdown: User initiated shutdown").
	Reason string `json:"reason,omitempty"`
}

// FleetSummary counts instances.
type FleetSummary struct {
	Diagnosed int `json:"diagnosed"`
	Joined    int `json:"joined"`
	// NotReady counts the diagnosed instances whose Node exists but is not Ready (also in Joined).
	NotReady int `json:"notReady"`
	// Failing counts instances with at least one failing finding.
	Failing int `json:"failing"`
	// Causes counts instances by most likely cause.
	Causes map[string]int `json:"causes"`
	// Verdicts counts the diagnosed instances by verdict (cause-found, no-cause-found, inconclusive).
	Verdicts map[string]int `json:"verdicts"`
	// Unlisted counts Fleet.Unlisted: instances named but not described, so not diagnosed.
	Unlisted int `json:"unlisted,omitempty"`
	// OtherCluster counts Fleet.OtherCluster: instances of another cluster, not diagnosed.
	OtherCluster int `json:"otherCluster,omitempty"`
	// Ended counts Fleet.Ended: instances ended by an EC2 API call or a Spot interruption, not diagnosed.
	Ended int `json:"ended,omitempty"`
}

// ForFleet trims a report for a fleet document, which may hold thousands of instances: the
// passing findings and the reachable network flows are dropped (Summary still counts every
// finding), so an instance costs what is wrong with it, not the whole catalog. The report is
// changed in place and returned.
func (r *Report) ForFleet() *Report {
	kept := r.Findings[:0]
	for _, f := range r.Findings {
		if f.Status != checks.StatusPass && f.Status != checks.StatusSkipped {
			kept = append(kept, f)
		}
	}
	r.Findings = append([]checks.Finding{}, kept...)
	var flows []netpath.Flow
	for _, f := range r.Paths {
		if f.Verdict != netpath.Reachable {
			flows = append(flows, f)
		}
	}
	r.Paths = append([]netpath.Flow{}, flows...)
	return r
}

// Summarize fills Summary from Instances and Joined.
func (f *Fleet) Summarize() {
	f.Summary = FleetSummary{Diagnosed: len(f.Instances), Joined: len(f.Joined), Unlisted: len(f.Unlisted), OtherCluster: len(f.OtherCluster), Ended: len(f.Ended), Causes: map[string]int{}, Verdicts: map[string]int{}}
	for _, r := range f.Instances {
		f.Summary.Verdicts[string(r.Diagnosis.Verdict)]++
		if r.Diagnosis.Verdict == checks.VerdictJoined {
			f.Summary.NotReady++
		}
		if r.Summary.Fail > 0 {
			f.Summary.Failing++
		}
		if c := r.Diagnosis.MostLikelyCause; c != nil {
			f.Summary.Causes[*c]++
		}
	}
}

// counts says how many instances have not joined and how many joined ("2 not joined, 5 joined",
// and ", 1 of them NotReady" when a joined one was diagnosed); "2 with no Node known (the
// cluster's Nodes could not be read)" when the Nodes were not read.
func (f *Fleet) counts() string {
	s := f.Summary
	text := fmt.Sprintf("%d not joined, %d joined", s.Diagnosed-s.NotReady, s.Joined)
	if f.NodesUnread != "" {
		text = fmt.Sprintf("%d with no Node known (the cluster's Nodes could not be read), %d joined", s.Diagnosed-s.NotReady, s.Joined)
	}
	if s.NotReady > 0 {
		text += fmt.Sprintf(", %d of them NotReady", s.NotReady)
	}
	if s.Unlisted > 0 {
		text += fmt.Sprintf(", %d named by the manifest but not described (not diagnosed)", s.Unlisted)
	}
	if s.OtherCluster > 0 {
		text += fmt.Sprintf(", %d of another cluster (not diagnosed)", s.OtherCluster)
	}
	if s.Ended > 0 {
		text += fmt.Sprintf(", %d ended by an EC2 API call or a Spot interruption (not diagnosed)", s.Ended)
	}
	return text
}

// otherClusterNote names the instances of another cluster (the first ten of them), or
// "" when there are none.
func (f *Fleet) otherClusterNote() string {
	if len(f.OtherCluster) == 0 {
		return ""
	}
	var ids []string
	for i, o := range f.OtherCluster {
		if i == 10 {
			ids = append(ids, fmt.Sprintf("and %d more", len(f.OtherCluster)-10))
			break
		}
		by := ""
		if o.Source == "user data" {
			by = ", user data"
		}
		ids = append(ids, o.InstanceID+" (cluster "+o.Cluster+by+")")
	}
	of := "the cluster"
	if f.Cluster != "" {
		of = "cluster " + f.Cluster
	}
	return fmt.Sprintf("Not of %s: %s of another cluster, not diagnosed: %s.",
		of, nOf(len(f.OtherCluster), "instance", "instances"), strings.Join(ids, ", "))
}

// unlistedNote says which instances the manifest names that describe-instances does not hold
// (the first ten of them), or "" when there are none.
func (f *Fleet) unlistedNote() string {
	if len(f.Unlisted) == 0 {
		return ""
	}
	ids := f.Unlisted
	more := ""
	if len(ids) > 10 {
		ids, more = ids[:10], fmt.Sprintf(" and %d more", len(f.Unlisted)-10)
	}
	return fmt.Sprintf("Inconclusive for %s the snapshot's manifest names but ec2/describe-instances.json does not hold (%s%s): nothing about them could be read, so none of them was diagnosed.",
		nOf(len(f.Unlisted), "instance", "instances"), strings.Join(ids, ", "), more)
}

// FleetJSON writes the fleet report as indented JSON.
func FleetJSON(w io.Writer, f *Fleet) error {
	f.setKinds()
	return FleetJSONAny(w, f)
}

// setKinds names the kind of the fleet and of each instance's report.
func (f *Fleet) setKinds() {
	f.Kind = KindFleet
	for _, r := range f.Instances {
		r.Kind = KindReport
	}
}

// FleetJSONAny writes v (a *Fleet or a *Scan; any other value whole) as indented JSON, the
// bytes json.Encoder with SetIndent("", "  ") writes, but one instance report at a time: a
// fleet of thousands of instances is never held encoded whole (twice, with the indentation
// pass), which was the peak of a run's memory (BenchmarkBinaryLargeSnapshot).
func FleetJSONAny(w io.Writer, v any) error {
	safe(v, false)
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch x := v.(type) {
	case *Fleet:
		err = writeFleet(bw, x, "")
	case *Scan:
		err = writeScan(bw, x)
	default:
		var b []byte
		if b, err = json.MarshalIndent(v, "", "  "); err == nil {
			_, err = bw.Write(b)
		}
	}
	if err == nil {
		err = bw.WriteByte('\n')
	}
	if err == nil {
		err = bw.Flush()
	}
	return err
}

// writeScan writes s indented, its fleet streamed (writeFleet).
func writeScan(w *bufio.Writer, s *Scan) error {
	c := *s
	c.Fleet = nil
	head, tail, err := splice(&c, "", "fleet")
	if err != nil {
		return err
	}
	w.Write(head)
	if s.Fleet == nil {
		w.WriteString("null")
	} else if err := writeFleet(w, s.Fleet, "  "); err != nil {
		return err
	}
	_, err = w.Write(tail)
	return err
}

// writeFleet writes f as json.MarshalIndent(f, prefix, "  ") does, encoding its instance
// reports one at a time.
func writeFleet(w *bufio.Writer, f *Fleet, prefix string) error {
	c := *f
	c.Instances = nil
	head, tail, err := splice(&c, prefix, "instances")
	if err != nil {
		return err
	}
	w.Write(head)
	switch {
	case f.Instances == nil:
		w.WriteString("null")
	case len(f.Instances) == 0:
		w.WriteString("[]")
	default:
		w.WriteByte('[')
		for i, r := range f.Instances {
			b, err := json.MarshalIndent(r, prefix+"    ", "  ")
			if err != nil {
				return err
			}
			w.WriteString("\n" + prefix + "    ")
			w.Write(b)
			if i < len(f.Instances)-1 {
				w.WriteByte(',')
			}
		}
		w.WriteString("\n" + prefix + "  ]")
	}
	_, err = w.Write(tail)
	return err
}

// splice encodes v (whose field key is null) with json.MarshalIndent(v, prefix, "  ") and
// cuts the result around that null: head ends with `"key": `, tail follows the null. Keys
// are unique in an object and strings hold no raw newline, so the first line reading
// `<prefix>  "key": null` is the field's.
func splice(v any, prefix, key string) (head, tail []byte, err error) {
	b, err := json.MarshalIndent(v, prefix, "  ")
	if err != nil {
		return nil, nil, err
	}
	mark := []byte("\n" + prefix + "  \"" + key + "\": null")
	i := bytes.Index(b, mark)
	if i < 0 {
		return nil, nil, fmt.Errorf("report: no %q field to stream", key)
	}
	at := i + len(mark) - len("null")
	return b[:at], b[at+len("null"):], nil
}

func causeOf(r *Report) (string, string) {
	if r.Diagnosis.MostLikelyCause == nil {
		if r.Diagnosis.Verdict == checks.VerdictInconclusive {
			return "(inconclusive)", r.Diagnosis.Summary
		}
		return "-", "no cause found"
	}
	return *r.Diagnosis.MostLikelyCause, findFinding(r.Findings, *r.Diagnosis.MostLikelyCause).Message
}

// FleetText writes one line per instance: its most likely cause and what was seen, fitting
// o.Width columns.
func FleetText(w io.Writer, f *Fleet, o TextOptions) error {
	safe(f, true)
	p := painter{on: o.Color}
	width := o.Width
	if width <= 0 {
		width = DefaultWidth
	}
	if width < minWidth {
		width = minWidth
	}
	head := "Instances"
	if f.Cluster != "" {
		head += " of cluster " + f.Cluster
	}
	text := f.counts()
	if f.Source != "" {
		text += " (evidence: " + f.Source + ")"
	}
	para(w, width, p.paint(head+":", color.Bold)+" ", text)
	fmt.Fprintln(w)
	for _, note := range []string{f.unlistedNote(), f.otherClusterNote()} {
		if note != "" {
			para(w, width, "", note)
			fmt.Fprintln(w)
		}
	}
	if f.Incomplete != "" {
		para(w, width, "", "Inconclusive: "+f.Incomplete+".")
		fmt.Fprintln(w)
	}
	if len(f.Instances) == 0 {
		if len(f.Joined) == 0 && len(f.Unlisted) == 0 {
			// nothing listed proves nothing joined or failed: never "every instance joined"
			if f.Inconclusive != "" {
				para(w, width, "", "Inconclusive: "+f.Inconclusive+".")
			}
			fmt.Fprintln(w, "No instance of the cluster was listed, so none could be judged.")
		} else if len(f.Unlisted) == 0 && f.Incomplete == "" {
			fmt.Fprintln(w, "Every instance of the cluster has a Node object.")
		} else {
			fmt.Fprintln(w, "Every instance described has a Node object.")
		}
		return nil
	}
	var rows [][]string
	for _, r := range f.Instances {
		id, msg := causeOf(r)
		rows = append(rows, []string{r.Target.InstanceID, id, msg})
	}
	if err := table(w, width, []string{"INSTANCE", "MOST LIKELY CAUSE", "SEEN"}, rows, 2); err != nil {
		return err
	}
	fmt.Fprintln(w)
	verb := "have"
	if f.Summary.Failing == 1 {
		verb = "has"
	}
	what := nOf(f.Summary.Diagnosed, "not-joined instance", "not-joined instances")
	if f.Summary.NotReady > 0 {
		what = nOf(f.Summary.Diagnosed, "instance not joined or NotReady", "instances not joined or NotReady")
	}
	para(w, width, "", fmt.Sprintf("%d of %s %s a failing check; 'eksdoctor why-not-joining ID' explains one in full.",
		f.Summary.Failing, what, verb))
	return nil
}

// FleetMarkdown writes the fleet report for a ticket.
func FleetMarkdown(w io.Writer, f *Fleet) error {
	safe(f, true)
	fmt.Fprintf(w, "## eksdoctor: instances not joining %s\n\n%s.\n\n", codeOr(f.Cluster, "the cluster"), f.counts())
	for _, note := range []string{f.unlistedNote(), f.otherClusterNote()} {
		if note != "" {
			fmt.Fprintf(w, "%s\n\n", mdEscape(note))
		}
	}
	if f.Inconclusive != "" {
		fmt.Fprintf(w, "**Inconclusive**: %s.\n\n", mdEscape(f.Inconclusive))
	}
	if f.Incomplete != "" {
		fmt.Fprintf(w, "**Inconclusive**: %s.\n\n", mdEscape(f.Incomplete))
	}
	if len(f.Instances) > 0 { // no header-only table
		fmt.Fprintf(w, "| Instance | Most likely cause | Seen |\n|---|---|---|\n")
	}
	for _, r := range f.Instances {
		id, msg := causeOf(r)
		fmt.Fprintf(w, "| %s | `%s` | %s |\n", mdCodeCell(r.Target.InstanceID), id, mdEscape(msg))
	}
	_, err := fmt.Fprintln(w, strings.Repeat("", 0))
	return err
}
