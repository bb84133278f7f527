// Command eksdoctor answers one question: why does this EC2 node not join my Amazon EKS cluster?
package main

import (
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/eksdoctor/eksdoctor/cmd/eksdoctor/cli"
)

// memoryLimit is the Go runtime's soft memory limit (bytes) unless GOMEMLIMIT says otherwise:
// the garbage collector runs harder as the heap nears it, so a run over the largest inputs the
// documented limits allow (a 64 MiB describe-instances of 17,000 instances, a 1 GiB bundle)
// stays under the 200 MiB the design promises (docs/design.md, Input safety) instead of
// growing to twice its live heap: the largest live heap measured (scan of 17,000 instances)
// is about 75 MiB, and the binary's own mapped pages add about 40 MiB to the peak RSS. With
// gcPercent the heap of such a run stays near this limit: 112 MiB gives a peak RSS of about
// 155 MiB (BenchmarkBinaryLargeSnapshot).
const memoryLimit = 112 << 20

// gcPercent is the garbage collector's GOGC unless the environment sets one. A run is short and
// its live heap small (the signature tables, the evidence: under 20 MiB for a bundle), so with
// the default (100) the collector ran four or five cycles in the first 40 ms, while the tables
// were built, and its mark assists doubled the start-up time of a small input (BenchmarkBinary*,
// fixtures/benchbundle); at 800 it runs when the heap has grown to nine times what was live,
// and memoryLimit still bounds the peak.
const gcPercent = 800

func main() {
	// a reader that goes away (eksdoctor … | head) makes a write fail with EPIPE, which the
	// report writers turn into exit 6 with a message, instead of the signal killing the process
	// silently (exit 141 in a shell)
	signal.Ignore(syscall.SIGPIPE)
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
