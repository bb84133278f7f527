package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// largeSnapshotInstances is how many instances the large snapshot holds: with the fixture's
// tags and block devices padded, describe-instances is about 50 MiB, near the 64 MiB per-file
// limit of docs/design.md (Input safety).
const largeSnapshotInstances = 17000

// maxRunRSSMiB is the memory the design promises for a whole run on any input within the
// documented limits.
const maxRunRSSMiB = 200

// largeSnapshot copies fixtures/snapshots/healthy-al2023 into a temporary directory and
// replaces its describe-instances with largeSnapshotInstances instances (all but the first
// without a Node, so scan and --all-pending diagnose every one of them).
func largeSnapshot(b *testing.B) string {
	b.Helper()
	src := filepath.Join(fixtures, "snapshots", "healthy-al2023")
	dst := b.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(dst, "ec2", "describe-instances.json")
	raw, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	var doc struct {
		Reservations []struct {
			Instances []map[string]any
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		b.Fatal(err)
	}
	inst := doc.Reservations[0].Instances[0]
	tags, _ := inst["Tags"].([]any)
	for i := 0; i < 20; i++ {
		tags = append(tags, map[string]any{"Key": fmt.Sprintf("team/k%d", i), "Value": fmt.Sprintf("%040d", i)})
	}
	inst["Tags"] = tags
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	fmt.Fprint(f, `{"Reservations":[`)
	for i := 0; i < largeSnapshotInstances; i++ {
		if i > 0 {
			fmt.Fprint(f, ",")
		}
		x := map[string]any{}
		for k, v := range inst {
			x[k] = v
		}
		if i > 0 {
			// a distinct instance with no Node: scan and --all-pending diagnose it
			ip := fmt.Sprintf("10.0.%d.%d", 64+i/250, 1+i%250)
			x["InstanceId"] = fmt.Sprintf("i-%017x", 0x100000+i)
			x["PrivateIpAddress"] = ip
			x["PrivateDnsName"] = "ip-" + strings.ReplaceAll(ip, ".", "-") + ".eu-west-1.compute.internal"
		}
		fmt.Fprintf(f, `{"ReservationId":"r-%017x","OwnerId":"111122223333","Instances":[`, i)
		if err := enc.Encode(x); err != nil {
			b.Fatal(err)
		}
		fmt.Fprint(f, "]}")
	}
	fmt.Fprint(f, "]}")
	return dst
}

// BenchmarkBinaryLargeSnapshot runs the binary's scan and --all-pending on a snapshot of
// 17,000 instances (a 50 MiB describe-instances) and fails when a run's peak RSS passes
// maxRunRSSMiB.
func BenchmarkBinaryLargeSnapshot(b *testing.B) {
	snap := largeSnapshot(b)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"why-not-joining", []string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", snap, "-o", "json"}},
		{"scan", []string{"scan", "--snapshot", snap, "-o", "json"}},
		{"all-pending", []string{"why-not-joining", "--all-pending", "--snapshot", snap, "-o", "json"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if rss := runBinaryRSS(b, tc.args...); rss > maxRunRSSMiB<<10 {
				b.Fatalf("peak RSS %d MiB, budget %d MiB", rss>>10, maxRunRSSMiB)
			}
		})
	}
}
