//go:build unix

package cli

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// fifoWait is how long analyze waits for a process to open a named pipe for writing, and how
// long a secret file that is a pipe (--pushgateway-token-file <(…)) is waited for to end.
var fifoWait = 30 * time.Second

// openStream opens a path that is not a regular file (a FIFO, /dev/fd/N of a process
// substitution, a character device) for one streaming read. Opening a FIFO waits for its
// writer, as a shell redirection does, but at most fifoWait: a pipe that no process opens for
// writing is an error naming the wait, never a hang.
func openStream(p string, st fs.FileInfo) (*os.File, error) {
	if st.Mode()&fs.ModeNamedPipe == 0 {
		return os.Open(p)
	}
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(p, os.O_RDONLY, 0)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-time.After(fifoWait):
		// release the open still waiting: a writer that opens and closes at once lets it return
		if w, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, fmt.Errorf("no process opened it for writing within %s", fifoWait)
	}
}
