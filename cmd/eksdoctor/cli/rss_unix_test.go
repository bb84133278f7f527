//go:build unix

package cli

import (
	"os"
	"syscall"
)

// peakRSSKiB is the peak resident set size of a finished process in KiB (getrusage ru_maxrss,
// which Linux reports in KiB); 0 when the platform does not say.
func peakRSSKiB(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
