package userdata

import (
	"errors"
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// MaxReachBytes bounds the scripts whose reach is judged (32 KiB; EC2 user data is at most
// 16 KB before decompression): the bash parser's time and memory grow with deep nesting, and a
// script over the bound is read by the bootstrap.sh finder alone, as before.
const MaxReachBytes = 32 << 10

// reachKind says why a script stops before its end.
type reachKind int

const (
	reachAll      reachKind = iota // bash runs every command of the script
	reachParse                     // a syntax error: bash stops reading at it
	reachHeredoc                   // a here-document that is never closed swallows the rest
	reachTerminal                  // an unconditional exit, or exec of another program, at top level
)

// shellReach is how far bash runs a script. Commands that start on a line after last (1-based
// within the script) never run when kind is not reachAll (last may be 0: nothing runs).
type shellReach struct {
	kind reachKind
	last int
	// line is where the cause is (the syntax error, the <<WORD, the exit), 1-based.
	line int
	// what describes the cause: the parser's message, the heredoc word, or the exit command.
	what string
}

// reTemplateRef is a template's placeholder that bash cannot expand, written into user data by
// the tool that renders it before the node runs it: a Terraform interpolation or function
// call (${aws_eks_cluster.this.endpoint}, ${var.cluster_name}, ${base64encode(x)}), a
// CloudFormation pseudo parameter or attribute in !Sub (${AWS::StackName}, ${Cluster.Endpoint}).
// Bash's own ${name}, ${name:-x}, ${name[0]} and ${#name} hold no dot, "::" or "(" after the name.
var reTemplateRef = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_-]*(?:\.|::|\()[^}\n]*\}`)

// shellInterpreters are the #! interpreters whose scripts are read as bash. /bin/sh on Amazon
// Linux is bash; dash and ash are close enough that a script bash refuses is suspect there too.
var shellInterpreters = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true}

// scriptReach parses a user data script with mvdan.cc/sh (the bash grammar) the way bash reads
// it: one complete top-level command at a time, each run before the next is read. It reports
// where the script stops: at a syntax error (bash runs the commands read before it, then exits
// with "syntax error"), at a here-document whose terminator line never comes (bash warns
// "here-document delimited by end-of-file" and runs the command with the rest of the script as
// its text), or at a top-level exit or exec of a program (no later command runs; exec with
// only redirections, as in `exec > >(tee log) 2>&1`, keeps the shell, and a top-level return
// in an executed script only prints an error and goes on). ok is false for scripts of another
// interpreter (python, perl) that are not shell.
func scriptReach(s string) (r shellReach, ok bool) {
	if len(s) > MaxReachBytes {
		return r, false
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if first, _, _ := strings.Cut(strings.TrimLeft(s, " \t\n"), "\n"); strings.HasPrefix(first, "#!") {
		f := strings.Fields(strings.TrimPrefix(first, "#!"))
		if len(f) == 0 {
			return r, false
		}
		interp := path.Base(f[0])
		if interp == "env" && len(f) > 1 {
			interp = path.Base(f[1])
		}
		if !shellInterpreters[interp] {
			return r, false
		}
	}
	// a template's placeholders are replaced before the node runs the script: their text is not
	// the script's
	s = reTemplateRef.ReplaceAllString(s, "TEMPLATE_VALUE")
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	lastEnd := 0
	err := p.Stmts(strings.NewReader(s), func(st *syntax.Stmt) bool {
		if what, ok := terminal(st); ok {
			r = shellReach{kind: reachTerminal, last: int(st.End().Line()), line: int(st.Pos().Line()), what: what}
			return false
		}
		lastEnd = int(st.End().Line())
		return true
	})
	if r.kind == reachTerminal {
		return r, true
	}
	var pe syntax.ParseError
	if err == nil || !errors.As(err, &pe) {
		return shellReach{}, true
	}
	line := int(pe.Pos.Line())
	if word, found := strings.CutPrefix(pe.Text, "unclosed here-document "); found {
		// bash runs the command that opened it, with everything below as its text
		return shellReach{kind: reachHeredoc, last: line, line: line, what: word}, true
	}
	return shellReach{kind: reachParse, last: lastEnd, line: line, what: pe.Text}, true
}

// terminal reports whether a top-level statement ends the script whatever happens: a plain
// exit, or exec given a program to run. Conditional forms (`cmd || exit 1`, inside if or a
// function) are not, nor is a backgrounded or negated one.
func terminal(st *syntax.Stmt) (string, bool) {
	if st.Background || st.Coprocess || st.Negated {
		return "", false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return "", false
	}
	name := call.Args[0].Lit()
	switch {
	case name == "exit":
	case name == "exec" && len(call.Args) > 1:
	default:
		return "", false
	}
	var words []string
	for _, a := range call.Args {
		if lit := a.Lit(); lit != "" {
			words = append(words, lit)
		} else {
			words = append(words, "…")
		}
		if len(words) == 4 {
			break
		}
	}
	return strings.Join(words, " "), true
}

// callsBootstrapSh reports whether a parsed simple command runs /etc/eks/bootstrap.sh, directly
// or behind a prefix such as sudo or bash (judged on the literal words only).
func callsBootstrapSh(c command) bool {
	for j := 0; j < len(c.words) && j < 6; j++ {
		if path.Base(literalOf(c.words[j])) == "bootstrap.sh" {
			return true
		}
	}
	return false
}
