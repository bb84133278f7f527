package snapshot

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// producedElsewhere are the evidence kinds no snapshot provider produces, with who does
// (auth:mapping-changes also comes from pasted Terraform plans, but the control-plane logs'
// provider reads it from the audit events).
var producedElsewhere = map[evidence.Kind]string{
	evidence.KindNodeOS: "node log bundles (collectors/bundle)",
}

// TestEveryKindHasAProvider: every kind of evidence.AllKinds is produced by a registered
// provider (the kinds passed to RegisterProvider / RegisterProviderAt) or is listed as produced
// outside the snapshot reader, never both; every kind a provider declares is in AllKinds.
func TestEveryKindHasAProvider(t *testing.T) {
	provided := map[evidence.Kind]bool{}
	for _, k := range ProvidedKinds() {
		provided[k] = true
	}
	all := map[evidence.Kind]bool{}
	for _, k := range evidence.AllKinds {
		all[k] = true
		switch who, elsewhere := producedElsewhere[k]; {
		case provided[k] && elsewhere:
			t.Errorf("kind %s has a snapshot provider but is listed as produced by %s", k, who)
		case !provided[k] && !elsewhere:
			t.Errorf("kind %s has no snapshot provider: pass it to RegisterProvider in its provider's file, or list it in producedElsewhere", k)
		}
	}
	for k := range provided {
		if !all[k] {
			t.Errorf("a provider declares kind %s, which evidence.AllKinds does not list", k)
		}
	}
	for k := range producedElsewhere {
		if !all[k] {
			t.Errorf("producedElsewhere lists %s, which evidence.AllKinds does not list", k)
		}
	}
}

// outcomes are what an Evidence records of each kind: its source, or its gap.
func outcomes(ev *evidence.Evidence) map[evidence.Kind]string {
	out := map[evidence.Kind]string{}
	for _, k := range ev.CollectedKinds() {
		out[k] = "source " + ev.Source(k)
	}
	for _, g := range ev.Gaps() {
		out[g.Kind] = "gap " + g.Reason
	}
	return out
}

func providerName(p Provider) string {
	n := runtime.FuncForPC(reflect.ValueOf(p).Pointer()).Name()
	return strings.TrimSuffix(n[strings.LastIndexByte(n, '.')+1:], "-fm")
}

// TestProvidersTouchOnlyTheirKinds runs the providers one at a time, stage by stage, on the
// evidence of every fixture's instances and cluster, whole and with each file of one fixture
// removed or denied: a provider changes the source or gap of no kind it does not declare, every
// kind it declares is changed by it somewhere, and the step-by-step result equals Evidence's.
func TestProvidersTouchOnlyTheirKinds(t *testing.T) {
	dirs, err := filepath.Glob("../../fixtures/snapshots/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var snaps []*Snapshot
	for _, d := range dirs {
		files := fixtureFiles(t, d)
		snaps = append(snaps, FromFiles("snapshot", files))
		if filepath.Base(d) != "healthy-al2023" {
			continue
		}
		// the node role's denial in the control plane's log: its lines join the node's logs
		files[authenticatorEventsPath] = authenticatorEvents(t, `time="2026-11-20T09:40:00Z" level=warning msg="access denied" arn="arn:aws:iam::111122223333:role/prod-node-role" error="identity is not mapped"`)
		files[auditEventsPath] = []byte(`{"events":[]}`) // read: no aws-auth write removed a mapping
		for _, p := range sortedKeys(files) {
			for _, repl := range [][]byte{nil, []byte("An error occurred (AccessDenied) when calling the X operation: denied\n")} {
				c := map[string][]byte{}
				for k, v := range files {
					c[k] = v
				}
				if repl == nil {
					delete(c, p)
				} else {
					c[p] = repl
				}
				snaps = append(snaps, FromFiles("snapshot", c))
			}
		}
	}
	touched := make([]map[evidence.Kind]bool, len(providers))
	for i := range touched {
		touched[i] = map[evidence.Kind]bool{}
	}
	for _, s := range snaps {
		run := func(name string, ev *evidence.Evidence) {
			for i, r := range providers {
				declared := map[evidence.Kind]bool{}
				for _, k := range r.kinds {
					declared[k] = true
				}
				before := outcomes(ev)
				r.p(s, ev)
				after := outcomes(ev)
				for k, v := range after {
					if before[k] == v {
						continue
					}
					touched[i][k] = true
					if !declared[k] {
						t.Errorf("%s: provider %s recorded %s (%s) without declaring it", name, providerName(r.p), k, v)
					}
				}
			}
		}
		for _, id := range s.InstanceIDs() {
			ev, err := s.newInstanceEvidence(id, "")
			if err != nil {
				t.Fatal(err)
			}
			run(id, ev)
			s.finishInstanceEvidence(ev)
			whole, err := s.Evidence(id, "")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(outcomes(ev), outcomes(whole)) {
				t.Errorf("%s: step by step %v, Evidence %v", id, outcomes(ev), outcomes(whole))
			}
		}
		run("cluster", s.newClusterEvidence(""))
	}
	for i, r := range providers {
		for _, k := range r.kinds {
			if !touched[i][k] {
				t.Errorf("provider %s declares %s but recorded it on no fixture", providerName(r.p), k)
			}
		}
	}
}
