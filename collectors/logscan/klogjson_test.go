package logscan

import (
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// scanHits scans text with the default catalog and returns its hits by signature name.
func scanHits(t *testing.T, text string) map[string]evidence.SignatureHit {
	t.Helper()
	s := MustDefault()
	if err := s.Scan(strings.NewReader(text), "k.log", "kubelet"); err != nil {
		t.Fatal(err)
	}
	hits := map[string]evidence.SignatureHit{}
	for _, h := range s.Result("x").Hits {
		hits[h.Signature] = h
	}
	return hits
}

// TestKlogJSONReadsLikeText (red team 10b #1, #16): a kubelet logging with
// --logging-format=json (component-base's zap encoder: "ts" in epoch milliseconds, "caller",
// "msg", the error under "err", klog.KObj as {"name":…}, no level key) is matched by the same
// signatures as its text form, takes its time from "ts" and its node from "node":{"name":…},
// whether bare or behind a journal prefix, whatever the order of its keys.
func TestKlogJSONReadsLikeText(t *testing.T) {
	const node = "ip-192-168-10-20.us-west-2.compute.internal"
	for name, tc := range map[string]struct {
		lines []string
		sig   string
		count int64
		node  string
		last  time.Time
	}{
		"register unauthorized": {
			lines: []string{
				`{"ts":1718186463310.789,"caller":"kubelet/kubelet_node_status.go:96","msg":"Unable to register node with API server","err":"Unauthorized","node":{"name":"` + node + `"}}`,
				`{"ts":1718186470310.789,"caller":"kubelet/kubelet_node_status.go:96","msg":"Unable to register node with API server","err":"Unauthorized","node":{"name":"` + node + `"}}`,
			},
			sig: "kubelet-register-unauthorized", count: 2, node: node,
			last: time.UnixMilli(1718186470310).UTC(),
		},
		"register unauthorized, keys reordered, journal prefix": {
			lines: []string{
				`Jun 12 10:01:03 ip-192-168-10-20 kubelet[3456]: {"node":{"name":"` + node + `"},"err":"Unauthorized","msg":"Unable to register node with API server","caller":"kubelet/kubelet_node_status.go:96","ts":1718186463310.789}`,
			},
			// the text form keeps the record's key order, and the signature takes the node
			// from after err= as the kubelet prints it: the cause is found, the node not
			sig: "kubelet-register-unauthorized", count: 1,
		},
		"lease unauthorized": {
			lines: []string{
				`{"ts":1718186463310.789,"caller":"nodelease/controller.go:145","msg":"Failed to ensure lease exists, will retry","err":"Unauthorized","interval":"7s"}`,
				`{"ts":1718186470310.789,"caller":"nodelease/controller.go:145","msg":"Failed to ensure lease exists, will retry","err":"Unauthorized","interval":"7s"}`,
			},
			sig: "kubelet-register-unauthorized", count: 2,
			last: time.UnixMilli(1718186470310).UTC(),
		},
		"node not found": {
			lines: []string{
				`{"ts":1718186463310.789,"caller":"kubelet/kubelet.go:2448","msg":"Error getting node","err":"node \"` + node + `\" not found"}`,
				`{"ts":1718187063310.789,"caller":"kubelet/kubelet.go:2448","msg":"Error getting node","err":"node \"` + node + `\" not found"}`,
				`{"ts":1718187663310.789,"caller":"kubelet/kubelet.go:2448","msg":"Error getting node","err":"node \"` + node + `\" not found"}`,
			},
			sig: "kubelet-node-not-found", count: 3, node: node,
			last: time.UnixMilli(1718187663310).UTC(),
		},
	} {
		hits := scanHits(t, strings.Join(tc.lines, "\n")+"\n")
		h, ok := hits[tc.sig]
		if !ok {
			t.Errorf("%s: no hit of %s; hits %v", name, tc.sig, hits)
			continue
		}
		if h.Count != tc.count {
			t.Errorf("%s: count %d, want %d", name, h.Count, tc.count)
		}
		if tc.node != "" && strings.Join(h.Facts["node"], ",") != tc.node {
			t.Errorf("%s: node facts %v, want %s", name, h.Facts["node"], tc.node)
		}
		if !tc.last.IsZero() && !h.Last.Time.Truncate(time.Millisecond).Equal(tc.last) {
			t.Errorf("%s: last at %v, want %v", name, h.Last.Time, tc.last)
		}
		if int(h.Last.Line) != len(tc.lines) {
			t.Errorf("%s: last line %d, want %d", name, h.Last.Line, len(tc.lines))
		}
	}
}

// TestKlogJSONTextForm: the text form of a component-base JSON record is klog's structured
// text ("msg" key="value" …) after an RFC 3339 time; records of other JSON loggers (a level
// key: IPAMD, Karpenter, nodeadm) and other lines are left as they are.
func TestKlogJSONTextForm(t *testing.T) {
	for in, want := range map[string]string{
		`{"ts":1718186463310.789,"caller":"kubelet/kubelet_node_status.go:96","msg":"Unable to register node with API server","err":"Unauthorized","node":{"name":"n1"}}`: `2024-06-12T10:01:03.310789Z kubelet/kubelet_node_status.go:96] "Unable to register node with API server" err="Unauthorized" node="n1"`,
		`kubelet[1]: {"ts":1718186463310,"caller":"x.go:1","msg":"Pod","v":2,"pod":{"name":"p","namespace":"kube-system"},"n":3,"ok":true,"list":["a"]}`:                  `kubelet[1]: 2024-06-12T10:01:03.31Z x.go:1] "Pod" pod="kube-system/p" n=3 ok=true list=["a"]`,
		`{"level":"info","ts":1795334591.204118,"caller":"init/init.go:55","msg":"Checking user is root.."}`:                                                              `{"level":"info","ts":1795334591.204118,"caller":"init/init.go:55","msg":"Checking user is root.."}`,
		`E0612 10:01:03.310000    3456 kubelet.go:2448] "Error getting node" err="x"`:                                                                                     `E0612 10:01:03.310000    3456 kubelet.go:2448] "Error getting node" err="x"`,
		`{"ts":"not a number","msg":"m"}`: `{"ts":"not a number","msg":"m"}`,
	} {
		if got := string(TextForm([]byte(in))); got != want {
			t.Errorf("TextForm(%s)\n got %s\nwant %s", in, got, want)
		}
	}
}

// TestKlogJSONInLargeBlock: a block of more than the lanes' minimum (the automaton's pass tallies
// the epoch "ts" marks, and the block is matched again in its text form) finds the kubelet's JSON
// 401 among thousands of other lines once, with the kubelet's line count not doubled; a large
// block of other loggers' JSON ("ts" a string: IPAMD) is matched once, as it is.
func TestKlogJSONInLargeBlock(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3*laneMin; i++ {
		b.WriteString(`Jun 12 10:01:03 ip-192-168-10-20 kubelet[3456]: {"ts":1718186463310.789,"caller":"kubelet/kubelet.go:2400","v":2,"msg":"SyncLoop (housekeeping)"}` + "\n")
	}
	b.WriteString(`Jun 12 10:01:03 ip-192-168-10-20 kubelet[3456]: {"ts":1718186463310.789,"caller":"kubelet/kubelet_node_status.go:96","msg":"Unable to register node with API server","err":"Unauthorized"}` + "\n")
	s := MustDefault()
	if err := s.Scan(strings.NewReader(b.String()), "k.log", "kubelet"); err != nil {
		t.Fatal(err)
	}
	res := s.Result("x")
	var found int64
	for _, h := range res.Hits {
		if h.Signature == "kubelet-register-unauthorized" {
			found = h.Count
		}
	}
	lines := int64(strings.Count(b.String(), "\n"))
	if found != 1 || res.Streams[0].Components["kubelet"] > lines {
		t.Errorf("401 found %d times (want 1); kubelet lines %d of %d", found, res.Streams[0].Components["kubelet"], lines)
	}
	var ipamd strings.Builder
	for ipamd.Len() < 3*laneMin {
		ipamd.WriteString(`{"level":"error","ts":"2026-07-24T15:31:04.203Z","caller":"ipamd/ipamd.go:846","msg":"Failed to increase pool size due to not able to allocate ENI AllocENI: error creating an eni: CreateNetworkInterface: api error InsufficientFreeAddressesInSubnet: The specified subnet does not have enough free addresses to satisfy the request."}` + "\n")
	}
	n := int64(strings.Count(ipamd.String(), "\n"))
	h := scanHits(t, ipamd.String())
	if len(h) == 0 {
		t.Fatal("IPAMD's subnet-full records not found")
	}
	for name, hit := range h {
		if hit.Count > n {
			t.Errorf("%s counted %d times on %d lines", name, hit.Count, n)
		}
	}
}
