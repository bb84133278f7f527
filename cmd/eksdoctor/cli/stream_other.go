//go:build !unix

package cli

import (
	"io/fs"
	"os"
	"time"
)

// fifoWait is how long analyze waits for a process to open a named pipe for writing (unused
// where named pipes do not exist).
var fifoWait = 30 * time.Second

// openStream opens a path that is not a regular file for one streaming read.
func openStream(p string, _ fs.FileInfo) (*os.File, error) { return os.Open(p) }
