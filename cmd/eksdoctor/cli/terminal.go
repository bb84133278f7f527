package cli

import (
	"os"
	"strconv"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks/report"
	"golang.org/x/term"
)

// stdoutFile returns the *os.File under stdout, if any (to ask the terminal).
func (g *GlobalOptions) stdoutFile() (*os.File, bool) {
	if ow, ok := g.stdout.(*outputWriter); ok {
		return ow.file()
	}
	f, ok := g.stdout.(*os.File)
	return f, ok
}

// termWidth is the width the text output is laid out for: COLUMNS when it is a positive
// number (the shell's idea of the terminal, and a way to choose), else the width of the terminal
// stdout is, else report.DefaultWidth (100) for pipes and files.
func (g *GlobalOptions) termWidth() int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if f, ok := g.stdoutFile(); ok && term.IsTerminal(int(f.Fd())) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return report.DefaultWidth
}

// dumbTerminal reports TERM=dumb: a terminal that cannot show colour escapes.
func dumbTerminal() bool { return os.Getenv("TERM") == "dumb" }

// textOptions are the options of the table output: colour, --all, and the width.
func (g *GlobalOptions) textOptions() report.TextOptions {
	return report.TextOptions{Color: g.useColor(), All: g.All, Width: g.termWidth()}
}

// nOf returns "1 instance" or "3 instances".
func nOf(n int, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return strconv.Itoa(n) + " " + plural
}
