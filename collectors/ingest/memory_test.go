package ingest

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// kubeletUnauthorized is the three kubelet lines the red team's memory pastes start with (F5),
// shared with the cli package's test (fixtures/pastes/kubelet-unauthorized.log).
var kubeletUnauthorized = func() string {
	b, err := os.ReadFile("../../fixtures/pastes/kubelet-unauthorized.log")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// shortParagraphs is a kubelet's three lines, then n paragraphs of one character ("x\n\n"):
// three bytes a line, the paste that cost the most memory per byte.
func shortParagraphs(n int) []byte {
	return []byte(kubeletUnauthorized + strings.Repeat("x\n\n", n))
}

// readAllocs returns the bytes Read allocates for text.
func readAllocs(text []byte) (uint64, *Result) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := Read(text, "paste", Options{})
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, res
}

// TestReadMemoryPerLine: reading a paste of ~200,000 short lines (the most the CLI splits into
// documents, cli.MaxPasteLines) allocates a bounded amount per line, and the one-character
// paragraphs make one segment, not one each. Every region, prompt part and paragraph copied
// its lines, and each paragraph had a segment and text of its own before they were joined:
// about 1,100 bytes a line (red team F5: 2 MiB of "x\n\n" took 388 MB of RSS).
func TestReadMemoryPerLine(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a paste of 200,000 lines")
	}
	readAllocs(shortParagraphs(100)) // the scanner's tables, built once
	const n = 66000
	text := shortParagraphs(n)
	lines := 3 + 2*n
	alloc, res := readAllocs(text)
	if perLine := float64(alloc) / float64(lines); perLine > 500 {
		t.Errorf("Read allocated %d bytes for %d lines (%.0f a line, %.0f per input byte), want at most 500 a line", alloc, lines, perLine, float64(alloc)/float64(len(text)))
	}
	if len(res.Segments) > 2 {
		t.Errorf("%d segments, want the log and the paragraphs after it", len(res.Segments))
	}
	found := false
	if res.Evidence.NodeLogs != nil {
		for _, h := range res.Evidence.NodeLogs.Hits {
			found = found || strings.Contains(h.Signature, "unauthorized")
		}
	}
	if !found {
		t.Error("the kubelet's Unauthorized lines were not found")
	}
}

// BenchmarkReadShortParagraphs reads pastes of one-character paragraphs after a kubelet's lines
// (TestReadMemoryPerLine). B/line falls from 10,000 to 66,000 paragraphs as the ~8 MB of the
// scanner's tables, built for every Read, spread over more lines; what a line adds stays the same.
func BenchmarkReadShortParagraphs(b *testing.B) {
	for _, n := range []int{10000, 66000} {
		text := shortParagraphs(n)
		lines := 3 + 2*n
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				Read(text, "paste", Options{})
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(lines), "B/line")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
		})
	}
}
