package ingest

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Event rows of kubectl's two event listings, as the scanner sees them (runs of spaces already
// squeezed): `kubectl describe` (Type, Reason, Age, From, Message; Age may carry "(x6 over
// 3m23s)") and `kubectl get events` (LAST SEEN, TYPE, REASON, OBJECT, MESSAGE). Either may be
// pasted without its header.
var (
	reDescribeEventRow = regexp.MustCompile(`^\s*(Normal|Warning)\s+(\w+)\s+(\S+)(?:\s+\(x(\d+)\s+over\s+\S+\))?\s+(kubelet(?:,\s*\S+)?|\S+)\s+(\S.*)$`)
	reGetEventRow      = regexp.MustCompile(`^\s*(\S+)(?:\s+\(x(\d+)\s+over\s+\S+\))?\s+(Normal|Warning)\s+(\w+)\s+(\S+)\s+(\S.*)$`)
	reKubectlAge       = regexp.MustCompile(`^(?:\d+[dhms])+$`)
	// reCadenceEvent finds any event row of a reason in eventCadence, in either listing.
	reCadenceEvent = regexp.MustCompile(`(?:^|\s)(?:Normal|Warning)\s+(?:FailedCreatePodSandBox|NetworkNotReady|FailedMount|Failed|BackOff|ErrImagePull|ImagePullBackOff)\s`)
)

// Kubelet retry cadences that make a stopped event series evidence that its fault is over.
// The kubelet's pod worker retries a failed sync after 10 s (pkg/kubelet/kubelet.go
// backOffPeriod), so a pod whose sandbox or network cannot be set up gets a
// FailedCreatePodSandBox or NetworkNotReady event every ~10 s while the fault lasts; image pulls,
// container restarts and volume mounts back off to at most 5 minutes. client-go's event spam
// filter lets 25 events per source and object through, then one per 5 minutes
// (tools/record/events_cache.go: defaultSpamBurst, defaultSpamQPS), so a series that used up
// the burst may be silent for up to 5 minutes while its fault lasts.
const (
	spamBurst       = 25
	fastSeriesEnded = 2 * time.Minute  // a 10 s series not yet throttled
	throttledEnded  = 6 * time.Minute  // a 10 s series the spam filter throttles
	slowSeriesEnded = 10 * time.Minute // a 5-minute back-off, throttled or not
)

// eventCadence lists the kubelet event reasons that repeat while their fault lasts (a retry),
// not once when a state changes: true for the 10 s pod-sync retry, false for a 5-minute back-off.
var eventCadence = map[string]bool{
	"FailedCreatePodSandBox": true, "NetworkNotReady": true,
	"FailedMount": false, "Failed": false, "BackOff": false, "ErrImagePull": false, "ImagePullBackOff": false,
}

// eventRow is one row of an event listing.
type eventRow struct {
	reason, source, object, message string
	lastSeen                        time.Duration
	count                           int
}

// parseEventRow reads one event row; ok is false for any other line.
func parseEventRow(l []byte) (r eventRow, ok bool) {
	if m := reDescribeEventRow.FindSubmatch(l); m != nil && reKubectlAge.Match(m[3]) {
		r = eventRow{reason: string(m[2]), source: string(m[5]), message: string(m[6]), lastSeen: kubectlAge(string(m[3])), count: 1}
		if len(m[4]) > 0 {
			r.count, _ = strconv.Atoi(string(m[4]))
		}
		return r, true
	}
	if m := reGetEventRow.FindSubmatch(l); m != nil && reKubectlAge.Match(m[1]) {
		r = eventRow{reason: string(m[4]), object: string(m[5]), message: string(m[6]), lastSeen: kubectlAge(string(m[1])), count: 1}
		if len(m[2]) > 0 {
			r.count, _ = strconv.Atoi(string(m[2]))
		}
		return r, true
	}
	return r, false
}

// endedEvents returns text with the rows of counted kubelet event series ("(x6 over 3m23s)":
// the event correlator counts repeats of one message in one row) that stopped repeating
// blanked (their line left empty, so line numbers stay), and those rows by their index in text
// (0-based line). A series has stopped when its last occurrence is older than its reason's retry
// cadence allows for a fault that still lasts (see the constants above); the ages are relative
// to the moment kubectl listed the events, so they need no clock. Both are nil when no row ended.
func endedEvents(text []byte) ([]byte, map[int]eventRow) {
	if !reCadenceEvent.Match(text) {
		return nil, nil // one linear pass, no allocation, for the pastes without such an event
	}
	lines := bytes.Split(text, []byte("\n"))
	rows := map[int]eventRow{}
	perObject := map[string]int{} // kubelet events per object (describe rows: one object)
	for i, l := range lines {
		r, ok := parseEventRow(l)
		if !ok {
			continue
		}
		rows[i] = r
		if r.source == "" || isKubelet(r.source) {
			perObject[r.object] += r.count
		}
	}
	// the image-pull back-off of a pod: its rows repeat one message each (the correlator counts
	// them in one row, whose age is the last repeat), so when all of them are older than a
	// 5-minute back-off allows, the pulls stopped failing, and so did the pull errors (whose
	// messages vary with the address dialled) at least as old
	pullCycle, pullLive := false, false
	for _, r := range rows {
		if backOffRow(r) {
			pullCycle = true
			pullLive = pullLive || r.lastSeen < slowSeriesEnded
		}
	}
	var ended map[int]eventRow
	for i, r := range rows {
		fast, known := eventCadence[r.reason]
		if !known || r.source != "" && !isKubelet(r.source) {
			continue
		}
		pullEnded := pullCycle && !pullLive && r.lastSeen >= slowSeriesEnded && (backOffRow(r) || strings.HasPrefix(r.message, "Failed to pull image"))
		if r.count < 2 && !pullEnded && r.reason != "NetworkNotReady" {
			// a row without "(xN over …)" may be one a poster picked out of a longer series
			// (a sandbox failure names a new sandbox each time, so its rows are not counted
			// together): only a counted series, or a message that repeats word for word
			// (NetworkNotReady, the pull back-off), says when it last happened
			continue
		}
		limit := slowSeriesEnded
		if fast {
			limit = throttledEnded
			if perObject[r.object] < spamBurst {
				limit = fastSeriesEnded
			}
		}
		if r.lastSeen < limit {
			continue
		}
		if ended == nil {
			ended = map[int]eventRow{}
		}
		ended[i] = r
	}
	if ended == nil {
		return nil, nil
	}
	out := make([][]byte, len(lines))
	for i, l := range lines {
		if _, ok := ended[i]; !ok {
			out[i] = l
		}
	}
	return bytes.Join(out, []byte("\n")), ended
}

// backOffRow reports whether r is one of the rows of a pod's image-pull back-off whose message
// repeats word for word (pkg/kubelet/images/image_manager.go: "Back-off pulling image",
// "Error: ErrImagePull", "Error: ImagePullBackOff").
func backOffRow(r eventRow) bool {
	switch r.reason {
	case "BackOff":
		return strings.HasPrefix(r.message, "Back-off pulling image")
	case "Failed":
		return strings.HasPrefix(r.message, "Error: ErrImagePull") || strings.HasPrefix(r.message, "Error: ImagePullBackOff")
	case "ErrImagePull", "ImagePullBackOff":
		return true
	}
	return false
}

// isKubelet reports whether an event source column names the kubelet ("kubelet" or the older
// "kubelet, ip-10-0-1-2.ec2.internal").
func isKubelet(source string) bool { return len(source) >= 7 && source[:7] == "kubelet" }

// endedMessage says why the lines of a signature, all of them event rows like r, show a fault
// that is over.
func endedMessage(r eventRow) string {
	every := "10 s"
	if !eventCadence[r.reason] {
		every = "5 minutes at most"
	}
	return fmt.Sprintf("its lines are kubelet %s events that stopped: the last was seen %s before kubectl listed them, and while the fault lasts the kubelet repeats one every %s", r.reason, r.lastSeen, every)
}
