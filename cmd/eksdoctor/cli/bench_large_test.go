package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
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

// yamlSnapshot copies fixtures/snapshots/healthy-al2023 and writes its kube/nodes.json and
// kube/csrs.json as kubectl -o yaml prints them (block style), each just under size bytes.
func yamlSnapshot(b *testing.B, size int) string {
	b.Helper()
	dst := b.TempDir()
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(fixtures, "snapshots", "healthy-al2023"))); err != nil {
		b.Fatal(err)
	}
	for file, item := range map[string]func(i int) string{
		"nodes.json": func(i int) string {
			return fmt.Sprintf("- apiVersion: v1\n  kind: Node\n  metadata:\n    name: ip-10-1-%d-%d.eu-west-1.compute.internal\n    labels:\n      kubernetes.io/hostname: h%d\n      node.kubernetes.io/instance-type: m5.large\n      topology.kubernetes.io/zone: eu-west-1a\n  spec:\n    providerID: aws:///eu-west-1a/i-%017x\n  status:\n    conditions:\n    - type: Ready\n      status: 'True'\n      reason: KubeletReady\n      lastTransitionTime: '2026-11-20T09:00:00Z'\n    addresses:\n    - type: InternalIP\n      address: 10.1.%d.%d\n", i>>8&255, i&255, i, 0x200000+i, i>>8&255, i&255)
		},
		"csrs.json": func(i int) string {
			return fmt.Sprintf("- apiVersion: certificates.k8s.io/v1\n  kind: CertificateSigningRequest\n  metadata:\n    name: csr-%06d\n    creationTimestamp: '2026-11-20T09:00:00Z'\n  spec:\n    signerName: kubernetes.io/kubelet-serving\n    username: system:node:ip-10-1-%d-%d.eu-west-1.compute.internal\n    groups:\n    - system:nodes\n    usages:\n    - server auth\n  status:\n    conditions:\n    - type: Approved\n      status: 'True'\n", i, i>>8&255, i&255)
		},
	} {
		var sb strings.Builder
		sb.WriteString("apiVersion: v1\nkind: List\nitems:\n")
		for i := 0; ; i++ {
			s := item(i)
			if sb.Len()+len(s) > size {
				break
			}
			sb.WriteString(s)
		}
		if err := os.WriteFile(filepath.Join(dst, "kube", file), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dst
}

// BenchmarkBinaryYAMLSnapshotAtLimit (red team round 3, F7): a snapshot whose kube/nodes.json
// and kube/csrs.json are YAML just under snapshot.DefaultLimits.MaxYAMLBytes stays within
// maxRunRSSMiB (YAML costs about 25 times its size to decode: 62 MB peaked at 1.46 GB; a file
// over the limit is refused before it is decoded: TestLargeYAMLFileIsAnInputProblem).
func BenchmarkBinaryYAMLSnapshotAtLimit(b *testing.B) {
	snap := yamlSnapshot(b, int(snapshot.DefaultLimits.MaxYAMLBytes))
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"why-not-joining", []string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", snap, "-o", "json"}},
		{"scan", []string{"scan", "--snapshot", snap, "-o", "json"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if rss := runBinaryRSS(b, tc.args...); rss > maxRunRSSMiB<<10 {
				b.Fatalf("peak RSS %d MiB, budget %d MiB", rss>>10, maxRunRSSMiB)
			}
		})
	}
}
