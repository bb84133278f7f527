//go:build !unix

package cli

import (
	"io/fs"
	"os"
)

// openStream opens a path that is not a regular file for one streaming read.
func openStream(p string, _ fs.FileInfo) (*os.File, error) { return os.Open(p) }
