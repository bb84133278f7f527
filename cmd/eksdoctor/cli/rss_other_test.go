//go:build !unix

package cli

import "os"

// peakRSSKiB is 0 where getrusage does not exist: the benchmarks report no peak RSS there.
func peakRSSKiB(*os.ProcessState) int64 { return 0 }
