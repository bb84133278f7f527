// Package cli implements the eksdoctor commands. Each command has an Options struct and a
// NewCmdX constructor so tests can run it with captured output.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/eksdoctor/eksdoctor/collectors/redact"
)

// Exit codes (one place; documented in README and --help).
const (
	// ExitOK: no failing finding.
	ExitOK = 0
	// ExitFindings: at least one failing finding.
	ExitFindings = 1
	// ExitUsage: bad flags or arguments.
	ExitUsage = 2
	// ExitNothingChecked: no check could judge (all evidence missing).
	ExitNothingChecked = 3
	// ExitInput: the input could not be read (bad archive, unknown instance, no credentials).
	ExitInput = 4
	// ExitPartial: a report was written with no failing finding, but some evidence was denied
	// (missing IAM or Kubernetes permissions) or a call for it failed for good (throttled, timed
	// out, a server error: failedCalls), so the dependent checks were skipped.
	ExitPartial = 5
	// ExitOutput: the output could not be written (standard output on a full disk or a closed
	// pipe, the -o file of collect): whatever the report said is lost.
	ExitOutput = 6
	// ExitPublish: the report was written, but a publication that was asked for failed (the
	// report object, the metrics file or the Pushgateway push); stderr says which and why. It
	// takes precedence over the other codes and --exit-zero does not hide it.
	ExitPublish = 7
)

// ExitError carries an exit code with its message.
type ExitError struct {
	Code int
	Err  error
}

// Error returns the message without the code.
func (e *ExitError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *ExitError) Unwrap() error { return e.Err }

func usageErr(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

func inputErr(format string, args ...any) error {
	return &ExitError{Code: ExitInput, Err: fmt.Errorf(format, args...)}
}

func outputErr(format string, args ...any) error {
	return &ExitError{Code: ExitOutput, Err: fmt.Errorf(format, args...)}
}

// outputWriter passes writes to w and remembers the first error: a report written in many small
// pieces (a table) to a full disk fails once and is reported once, whatever the format.
type outputWriter struct {
	w   io.Writer
	err error
}

func (o *outputWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		o.err = err
	}
	return n, err
}

// file returns the *os.File under the writer, if any (to tell a terminal).
func (o *outputWriter) file() (*os.File, bool) {
	f, ok := o.w.(*os.File)
	return f, ok
}

// codeOnly is returned when the report was written and only the exit code remains.
type codeOnly int

func (c codeOnly) Error() string { return fmt.Sprintf("exit %d", int(c)) }

// Main runs the CLI with args and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	out := &outputWriter{w: stdout}
	cmd := NewRootCmd(out, stderr)
	cmd.SetArgs(args)
	err := cmd.Execute()
	if out.err != nil {
		fmt.Fprintf(stderr, "eksdoctor: the output could not be written to standard output: %s\n", report.EscapeLine(out.err.Error()))
		return ExitOutput
	}
	if err == nil {
		return ExitOK
	}
	var c codeOnly
	if errors.As(err, &c) {
		return int(c)
	}
	// an error may quote its input (a file, a member or instance name): redacted as reports are
	fmt.Fprintln(stderr, "eksdoctor: "+report.EscapeLine(redact.String(strings.TrimSpace(err.Error()))))
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	// cobra's own flag and argument errors
	return ExitUsage
}
