//go:build unix

package cli

import (
	"io/fs"
	"os"
	"syscall"
)

// openStream opens a path that is not a regular file (a FIFO, /dev/fd/N of a process
// substitution, a character device) for one streaming read. A FIFO is opened without blocking,
// so a FIFO that no process writes to reads as empty instead of hanging.
func openStream(p string, st fs.FileInfo) (*os.File, error) {
	flags := os.O_RDONLY
	if st.Mode()&fs.ModeNamedPipe != 0 {
		flags |= syscall.O_NONBLOCK
	}
	return os.OpenFile(p, flags, 0)
}
