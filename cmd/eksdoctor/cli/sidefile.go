package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// MaxSecretFile is the most read of a --pushgateway-password-file or --pushgateway-token-file:
// a password or a token is at most a few KiB, so a longer file is the wrong one.
const MaxSecretFile = 64 << 10

// readSideFile reads a small side input that a flag names (a secret file): a regular file of
// at most max bytes, or a pipe (a FIFO, /dev/fd/N of a process substitution) whose writer is
// waited for, and whose end is waited for, at most fifoWait each. A device (/dev/zero), a
// socket or a directory is refused, as is a file longer than max: a side input never grows
// without end or blocks without end. Errors name the flag and the file, never the content.
func readSideFile(flag, p string, max int64) ([]byte, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("%s (--%s): %v", p, flag, unwrapPath(err))
	}
	pipe := st.Mode()&fs.ModeNamedPipe != 0
	if !st.Mode().IsRegular() && !pipe {
		return nil, fmt.Errorf("%s (--%s) is not a regular file or a pipe (%s); give the file that holds the secret", p, flag, snapshot.FileKind(st.Mode()))
	}
	var f *os.File
	if pipe {
		f, err = openStream(p, st)
	} else {
		f, err = os.Open(p)
	}
	if err != nil {
		return nil, fmt.Errorf("%s (--%s): %v", p, flag, unwrapPath(err))
	}
	defer f.Close()
	if pipe {
		// a pipe's writer may never write nor close: the read ends at the deadline
		_ = f.SetReadDeadline(time.Now().Add(fifoWait))
	} else if st2, err := f.Stat(); err == nil && !st2.Mode().IsRegular() {
		return nil, fmt.Errorf("%s (--%s) is not a regular file (%s)", p, flag, snapshot.FileKind(st2.Mode()))
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, fmt.Errorf("%s (--%s): the pipe did not end within %s", p, flag, fifoWait)
	case err != nil:
		return nil, fmt.Errorf("%s (--%s): %v", p, flag, unwrapPath(err))
	case int64(len(b)) > max:
		return nil, fmt.Errorf("%s (--%s) is longer than %d bytes; the file should hold one password or token", p, flag, max)
	}
	return b, nil
}

// unwrapPath drops the operation and path of a *fs.PathError (the caller names the file).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
