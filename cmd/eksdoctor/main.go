// Command eksdoctor answers one question: why does this EC2 node not join my Amazon EKS cluster?
package main

import (
	"os"
	"runtime/debug"

	"github.com/eksdoctor/eksdoctor/cmd/eksdoctor/cli"
)

// memoryLimit is the Go runtime's soft memory limit (bytes) unless GOMEMLIMIT says otherwise:
// the garbage collector runs harder as the heap nears it, so a run over the largest inputs the
// documented limits allow (a 64 MiB describe-instances of 17,000 instances, a 1 GiB bundle)
// stays under the 200 MiB the design promises (docs/design.md, Input safety) instead of
// growing to twice its live heap: the largest live heap measured (scan of 17,000 instances)
// is about 75 MiB, and the binary's own mapped pages add about 40 MiB to the peak RSS.
const memoryLimit = 128 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
