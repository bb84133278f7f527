package ingest

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command line typed at a prompt is often more than one command: `aws eks describe-cluster …
// --output text > /tmp/ca.b64; base64 -d /tmp/ca.b64 | openssl x509 -noout -fingerprint`. What
// is printed under it is then the output of the last stage, not the aws command's; and a file
// the aws command wrote, printed later with `cat FILE`, is the aws command's output. These
// helpers read a command line with mvdan.cc/sh (the bash grammar) to tell which.

// maxCommandLine bounds the command lines read with the bash parser: a prompt's command is one
// line, and a longer "command" is text that happens to follow a "$ ".
const maxCommandLine = 4096

// passThrough are the programs that print what they are given unchanged, or a part of it in
// order (a pipe to them still shows the previous command's output).
var passThrough = map[string]bool{"head": true, "tail": true, "cat": true, "less": true, "more": true, "tee": true}

// parseCommandLine parses a command line as bash; ok is false when it does not parse or is too
// long.
func parseCommandLine(command string) (*syntax.File, bool) {
	if len(command) > maxCommandLine || strings.ContainsAny(command, "\n") {
		return nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) == 0 {
		return nil, false
	}
	return f, true
}

// callName returns the program a simple command runs, skipping sudo (and its options) and
// env's assignments: "aws" for `sudo -E aws eks …`. It returns "" for a word that is not a
// literal.
func callName(c *syntax.CallExpr) (name string, at int) {
	for i := 0; i < len(c.Args); i++ {
		w := c.Args[i].Lit()
		switch {
		case w == "sudo" || w == "env" || w == "command" || w == "time":
			continue
		case i > 0 && strings.HasPrefix(w, "-"), i > 0 && strings.Contains(w, "=") && !strings.HasPrefix(w, "-"):
			continue // sudo's -E, env's NAME=value
		}
		return w, i
	}
	return "", -1
}

// stdoutRedirect returns the file a statement sends its standard output to (`> FILE`, `>> FILE`,
// `1> FILE`, `&> FILE`), "" when it writes to the terminal. Standard error's redirections
// (2>&1, 2>/dev/null) leave the output shown.
func stdoutRedirect(s *syntax.Stmt) (file string, redirected bool) {
	for _, r := range s.Redirs {
		fd := ""
		if r.N != nil {
			fd = r.N.Value
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut:
			if fd == "" || fd == "1" {
				return r.Word.Lit(), true
			}
		case syntax.RdrAll, syntax.AppAll:
			return r.Word.Lit(), true
		case syntax.DplOut:
			if (fd == "" || fd == "1") && r.Word.Lit() != "1" {
				return "", true // >&2: the output goes to standard error
			}
		}
	}
	return "", false
}

// pipeStages returns the simple commands of a pipeline statement in order, with the statement
// of each (for its redirections); nil when a stage is not a simple command (a subshell, a
// function, a loop).
func pipeStages(s *syntax.Stmt) []*syntax.Stmt {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return []*syntax.Stmt{s}
	case *syntax.BinaryCmd:
		if c.Op != syntax.Pipe && c.Op != syntax.PipeAll {
			return nil
		}
		x, y := pipeStages(c.X), pipeStages(c.Y)
		if x == nil || y == nil {
			return nil
		}
		return append(x, y...)
	}
	return nil
}

// shownAWSCommand returns the aws command of a command line whose printed output is that aws
// command's: the line is one aws command, or an aws command piped only into programs that pass
// its output through (head, tail, tee, less); its standard output is not redirected. ok is false
// when the line is another program's, runs several commands (;, &&, ||), pipes the aws output
// into a program that changes it (base64 -d, openssl, jq, grep) or writes it to a file. A line
// the bash parser cannot read is returned whole (a pasted command cut short, an unclosed quote):
// it is judged as it was before, by its words.
func shownAWSCommand(command string) (string, bool) {
	f, ok := parseCommandLine(command)
	if !ok {
		return command, strings.HasPrefix(command, "aws ")
	}
	if len(f.Stmts) != 1 || f.Stmts[0].Background {
		return "", false
	}
	stages := pipeStages(f.Stmts[0])
	if len(stages) == 0 {
		return "", false
	}
	first := stages[0].Cmd.(*syntax.CallExpr)
	name, at := callName(first)
	if name != "aws" {
		return "", false
	}
	for i, st := range stages {
		if _, redirected := stdoutRedirect(st); redirected {
			return "", false
		}
		if i > 0 {
			if n, _ := callName(st.Cmd.(*syntax.CallExpr)); !passThrough[n] {
				return "", false
			}
		}
	}
	return command[first.Args[at].Pos().Offset():first.End().Offset()], true
}

// savedOutputs returns the files a command line writes a command's standard output to, each
// with the command (or pipeline) that wrote it: `aws eks describe-cluster … --output text >
// /tmp/ca.b64; base64 -d /tmp/ca.b64` saved the aws command's output in /tmp/ca.b64.
func savedOutputs(command string) map[string]string {
	f, ok := parseCommandLine(command)
	if !ok {
		return nil
	}
	var out map[string]string
	for _, s := range f.Stmts {
		stages := pipeStages(s)
		if len(stages) == 0 {
			continue
		}
		last := stages[len(stages)-1]
		file, redirected := stdoutRedirect(last)
		if !redirected || file == "" || file == "/dev/null" {
			continue
		}
		for _, st := range stages[:len(stages)-1] {
			if _, r := stdoutRedirect(st); r {
				file = "" // an earlier stage's output went elsewhere
			}
		}
		if file == "" {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		// the writer without its redirection: the pipeline from its first word to the last
		// stage's last word
		lastCall := last.Cmd.(*syntax.CallExpr)
		out[file] = command[s.Pos().Offset():lastCall.End().Offset()]
	}
	return out
}

// catOfSaved returns the command whose output a `cat FILE` (or `sudo cat FILE`) command line
// prints, when saved (see savedOutputs) holds FILE; ok is false for any other command line.
func catOfSaved(command string, saved map[string]string) (string, bool) {
	if len(saved) == 0 {
		return "", false
	}
	f, ok := parseCommandLine(command)
	if !ok || len(f.Stmts) != 1 {
		return "", false
	}
	c, isCall := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(f.Stmts[0].Redirs) > 0 {
		return "", false
	}
	name, at := callName(c)
	if name != "cat" || at+2 != len(c.Args) {
		return "", false
	}
	writer, ok := saved[c.Args[at+1].Lit()]
	return writer, ok
}

// shownInPart says whether a command line prints only part of what its command reads: its last
// pipeline stage is `head` or `tail` (`head -6 FILE`, `cat FILE | head -n 20`), whose output is
// the first or last lines. why names the command ("shown by `head -6 FILE`: only its first
// lines"), and endCut is true for head (the end is not shown), false for tail (the start is
// not). why is "" for any other command line, one that does not parse, or `tail -n +1`,
// `head -c -N` and the like that the bash words alone cannot bound.
func shownInPart(command string) (why string, endCut bool) {
	f, ok := parseCommandLine(command)
	if !ok || len(f.Stmts) != 1 {
		return "", false
	}
	stages := pipeStages(f.Stmts[0])
	if len(stages) == 0 {
		return "", false
	}
	last := stages[len(stages)-1]
	if _, redirected := stdoutRedirect(last); redirected {
		return "", false
	}
	call := last.Cmd.(*syntax.CallExpr)
	name, at := callName(call)
	for _, a := range call.Args[at+1:] {
		if w := a.Lit(); strings.HasPrefix(w, "+") || strings.HasPrefix(w, "-n+") || strings.HasPrefix(w, "--lines=+") ||
			strings.HasPrefix(w, "-c-") || strings.HasPrefix(w, "-n-") || strings.HasPrefix(w, "-") && len(w) > 1 && w[1] == '-' && strings.Contains(w, "=-") {
			return "", false // tail from line N on, head all but the last N: not bounded here
		} else if w == "-f" || w == "-F" || w == "--follow" {
			return "", false // tail -f follows a log
		}
	}
	shown := strings.TrimSpace(command)
	switch name {
	case "head":
		return "shown by `" + shown + "`: only its first lines", true
	case "tail":
		return "shown by `" + shown + "`: only its last lines", false
	}
	return "", false
}
