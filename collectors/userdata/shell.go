package userdata

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// This file holds a small POSIX-shell reader: enough of the shell grammar (quotes, escapes,
// line continuations, comments, heredocs, separators, parameter expansion with defaults) to
// find the bootstrap.sh call in a user data script and to resolve the variables it is given,
// without executing anything.

type segKind int

const (
	segLit segKind = iota // literal text
	segVar                // $NAME / ${NAME...}
	segSub                // $(...) or `...`: never resolved
)

type segment struct {
	kind   segKind
	text   string // literal text, variable name, or substitution source
	op     string // for segVar: "", ":-", "-", ":=", "=", or "?" for unsupported operators
	arg    []segment
	quoted bool
}

type word struct{ segs []segment }

type command struct {
	words []word
	line  int
}

// value is an expanded word: its text and the names of variables it could not resolve.
type value struct {
	s          string
	unresolved []string
}

type lexer struct {
	s    string
	i    int
	line int
	// pending heredoc delimiters to skip after the current line.
	heredocs []string
}

// parseScript splits a script into simple commands with their starting line (1-based within
// the script).
func parseScript(s string) []command {
	lx := &lexer{s: s, line: 1}
	var cmds []command
	cur := command{line: 1}
	flush := func() {
		if len(cur.words) > 0 {
			cmds = append(cmds, cur)
		}
		cur = command{line: lx.line}
	}
	for lx.i < len(lx.s) {
		c := lx.s[lx.i]
		switch {
		case c == '\n':
			lx.i++
			lx.line++
			flush()
			lx.skipHeredocs()
			cur.line = lx.line
		case c == ' ' || c == '\t' || c == '\r':
			lx.i++
		case c == '#':
			for lx.i < len(lx.s) && lx.s[lx.i] != '\n' {
				lx.i++
			}
		case c == '\\' && lx.i+1 < len(lx.s) && lx.s[lx.i+1] == '\n':
			lx.i += 2
			lx.line++
		case c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			lx.i++
			flush()
		case c == '<' && strings.HasPrefix(lx.s[lx.i:], "<<"):
			lx.i += 2
			if lx.i < len(lx.s) && lx.s[lx.i] == '<' { // here-string <<<
				lx.i++
				lx.word()
				continue
			}
			if lx.i < len(lx.s) && lx.s[lx.i] == '-' {
				lx.i++
			}
			for lx.i < len(lx.s) && (lx.s[lx.i] == ' ' || lx.s[lx.i] == '\t') {
				lx.i++
			}
			w := lx.word()
			lx.heredocs = append(lx.heredocs, literalOf(w))
		case c == '<' || c == '>':
			lx.i++
			for lx.i < len(lx.s) && (lx.s[lx.i] == '>' || lx.s[lx.i] == '&' || lx.s[lx.i] == '|') {
				lx.i++
			}
			for lx.i < len(lx.s) && (lx.s[lx.i] == ' ' || lx.s[lx.i] == '\t') {
				lx.i++
			}
			lx.word() // the redirection target is not an argument
		default:
			if cur.line == 0 || len(cur.words) == 0 {
				cur.line = lx.line
			}
			w := lx.word()
			if len(w.segs) > 0 {
				// "2>" style redirections: a word that is only digits followed by > or <.
				if lx.i < len(lx.s) && (lx.s[lx.i] == '>' || lx.s[lx.i] == '<') && isDigits(literalOf(w)) {
					continue
				}
				cur.words = append(cur.words, w)
			}
		}
	}
	flush()
	return cmds
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func (lx *lexer) skipHeredocs() {
	for len(lx.heredocs) > 0 {
		delim := lx.heredocs[0]
		lx.heredocs = lx.heredocs[1:]
		for lx.i < len(lx.s) {
			end := strings.IndexByte(lx.s[lx.i:], '\n')
			var l string
			if end < 0 {
				l = lx.s[lx.i:]
				lx.i = len(lx.s)
			} else {
				l = lx.s[lx.i : lx.i+end]
				lx.i += end + 1
				lx.line++
			}
			if strings.TrimSpace(l) == delim {
				break
			}
		}
	}
}

func literalOf(w word) string {
	var b strings.Builder
	for _, s := range w.segs {
		if s.kind == segLit {
			b.WriteString(s.text)
		}
	}
	return b.String()
}

// word reads one shell word starting at lx.i.
func (lx *lexer) word() word {
	var w word
	// Adjacent literal pieces of the same quoting are collected in one builder (appending
	// to the segment's string each time would be quadratic in the word's length).
	var pending strings.Builder
	pendingQuoted, havePending := false, false
	flush := func() {
		if havePending {
			w.segs = append(w.segs, segment{kind: segLit, text: pending.String(), quoted: pendingQuoted})
			pending.Reset()
			havePending = false
		}
	}
	lit := func(s string, quoted bool) {
		if havePending && pendingQuoted != quoted {
			flush()
		}
		pending.WriteString(s)
		pendingQuoted, havePending = quoted, true
	}
	defer func() {
		if lx.i > len(lx.s) {
			lx.i = len(lx.s)
		}
	}()
	for lx.i < len(lx.s) {
		c := lx.s[lx.i]
		switch c {
		case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>':
			flush()
			return w
		case '\\':
			if lx.i+1 < len(lx.s) {
				if lx.s[lx.i+1] == '\n' {
					lx.i += 2
					lx.line++
					continue
				}
				lit(lx.s[lx.i+1:lx.i+2], true)
				lx.i += 2
				continue
			}
			lx.i++
		case '\'':
			end := strings.IndexByte(lx.s[lx.i+1:], '\'')
			if end < 0 {
				end = len(lx.s) - lx.i - 1
			}
			body := lx.s[lx.i+1 : lx.i+1+end]
			lx.line += strings.Count(body, "\n")
			lit(body, true)
			lx.i += end + 2
		case '"':
			lx.i++
			flush()
			lx.doubleQuoted(&w)
		case '`':
			end := strings.IndexByte(lx.s[lx.i+1:], '`')
			if end < 0 {
				end = len(lx.s) - lx.i - 1
			}
			body := lx.s[lx.i+1 : lx.i+1+end]
			lx.line += strings.Count(body, "\n")
			flush()
			w.segs = append(w.segs, segment{kind: segSub, text: "`" + body + "`"})
			lx.i += end + 2
		case '$':
			if seg, ok := lx.dollar(false); ok {
				if seg.kind == segLit {
					lit(seg.text, seg.quoted)
				} else {
					flush()
					w.segs = append(w.segs, seg)
				}
			} else {
				lit("$", false)
			}
		default:
			start := lx.i
			for lx.i < len(lx.s) && !strings.ContainsRune(" \t\r\n;&|()<>\\'\"`$", rune(lx.s[lx.i])) {
				lx.i++
			}
			lit(lx.s[start:lx.i], false)
		}
	}
	flush()
	return w
}

func (lx *lexer) doubleQuoted(w *word) {
	var b strings.Builder
	flushLit := func() {
		if b.Len() > 0 {
			w.segs = append(w.segs, segment{kind: segLit, text: b.String(), quoted: true})
			b.Reset()
		}
	}
	for lx.i < len(lx.s) {
		c := lx.s[lx.i]
		switch c {
		case '"':
			lx.i++
			flushLit()
			if len(w.segs) == 0 {
				w.segs = append(w.segs, segment{kind: segLit, text: "", quoted: true})
			}
			return
		case '\\':
			if lx.i+1 < len(lx.s) && strings.ContainsRune("$`\"\\\n", rune(lx.s[lx.i+1])) {
				if lx.s[lx.i+1] == '\n' {
					lx.line++
				} else {
					b.WriteByte(lx.s[lx.i+1])
				}
				lx.i += 2
				continue
			}
			b.WriteByte(c)
			lx.i++
		case '$':
			flushLit()
			if seg, ok := lx.dollar(true); ok {
				w.segs = append(w.segs, seg)
			} else {
				b.WriteByte('$')
			}
		case '`':
			flushLit()
			end := strings.IndexByte(lx.s[lx.i+1:], '`')
			if end < 0 {
				end = len(lx.s) - lx.i - 1
			}
			w.segs = append(w.segs, segment{kind: segSub, text: "`" + lx.s[lx.i+1:lx.i+1+end] + "`", quoted: true})
			lx.i += end + 2
		default:
			if c == '\n' {
				lx.line++
			}
			b.WriteByte(c)
			lx.i++
		}
	}
	flushLit()
}

// dollar reads a $-expansion at lx.i (which holds '$').
func (lx *lexer) dollar(quoted bool) (segment, bool) {
	if lx.i+1 >= len(lx.s) {
		lx.i++
		return segment{}, false
	}
	n := lx.s[lx.i+1]
	switch {
	case n == '(':
		depth := 0
		j := lx.i + 1
		for ; j < len(lx.s); j++ {
			if lx.s[j] == '(' {
				depth++
			} else if lx.s[j] == ')' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		if j >= len(lx.s) {
			j = len(lx.s) - 1
		}
		src := lx.s[lx.i : j+1]
		lx.line += strings.Count(src, "\n")
		lx.i = j + 1
		return segment{kind: segSub, text: src, quoted: quoted}, true
	case n == '{':
		end := strings.IndexByte(lx.s[lx.i+2:], '}')
		if end < 0 {
			lx.i = len(lx.s)
			return segment{kind: segSub, text: "${", quoted: quoted}, true
		}
		inner := lx.s[lx.i+2 : lx.i+2+end]
		lx.i += end + 3
		name := inner
		j := 0
		for j < len(inner) && (isNameChar(inner[j], j == 0)) {
			j++
		}
		name = inner[:j]
		rest := inner[j:]
		seg := segment{kind: segVar, text: name, quoted: quoted}
		if name == "" || reTemplateRef.MatchString("${"+inner+"}") {
			// not bash's to expand: a template's placeholder (${var.cluster_name},
			// ${AWS::Region}) is unknown until the template is rendered, and is named as written
			return segment{kind: segSub, text: "${" + inner + "}", quoted: quoted}, true
		}
		for _, op := range []string{":-", ":=", "-", "="} {
			if strings.HasPrefix(rest, op) {
				seg.op = op
				sub := &lexer{s: rest[len(op):]}
				seg.arg = sub.word().segs
				return seg, true
			}
		}
		if rest != "" {
			seg.op = "?"
		}
		return seg, true
	case isNameChar(n, true):
		j := lx.i + 1
		for j < len(lx.s) && isNameChar(lx.s[j], j == lx.i+1) {
			j++
		}
		seg := segment{kind: segVar, text: lx.s[lx.i+1 : j], quoted: quoted}
		lx.i = j
		return seg, true
	case n >= '0' && n <= '9' || n == '@' || n == '*' || n == '#' || n == '?' || n == '$' || n == '!':
		lx.i += 2
		return segment{kind: segSub, text: "$" + string(n), quoted: quoted}, true
	case n == '\'':
		// $'...' ANSI-C quoting: treat the body literally.
		end := strings.IndexByte(lx.s[lx.i+2:], '\'')
		if end < 0 {
			end = len(lx.s) - lx.i - 2
		}
		body := lx.s[lx.i+2 : lx.i+2+end]
		lx.i += end + 3
		return segment{kind: segLit, text: body, quoted: true}, true
	}
	lx.i++
	return segment{}, false
}

func isNameChar(c byte, first bool) bool {
	if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
		return true
	}
	return !first && c >= '0' && c <= '9'
}

// budgetNote is the unresolved "name" recorded for a value the expansion budget cut off.
const budgetNote = "(expansion budget exhausted)"

// expander evaluates words against the variables assigned so far, within a budget: the
// total bytes that expansions may produce and the number of expansion steps (one per word
// variable or default substituted) over the whole user data. Once the budget is exhausted every
// further expansion is unresolved, so a script that doubles a variable in a loop of
// assignments costs at most the budget, never gigabytes.
type expander struct {
	env      map[string]string
	maxBytes int
	maxSteps int
	bytes    int
	steps    int
	// exhausted is set by the first expansion that would exceed the budget.
	exhausted bool
}

// markerFor is the env marker for an unresolved value: budgetMarker when the budget cut it.
func markerFor(v value) string {
	for _, u := range v.unresolved {
		if u == budgetNote {
			return budgetMarker
		}
	}
	return unresolvedMarker
}

// field is one expanded field under construction.
type field struct {
	b          strings.Builder
	unresolved []string
}

// expand evaluates a word against env. Unquoted expansions are split into fields on blanks,
// as the shell does; split=false keeps one field (assignments).
func (x *expander) expand(w word, split bool) []value {
	fields := []*field{{}}
	haveField := false
	overBudget := func(n int) bool {
		if x.exhausted {
			return true
		}
		x.steps++
		if x.steps > x.maxSteps || x.bytes+n > x.maxBytes {
			x.exhausted = true
			return true
		}
		x.bytes += n
		return false
	}
	cut := func() {
		cur := fields[len(fields)-1]
		cur.unresolved = append(cur.unresolved, budgetNote)
		haveField = true
	}
	appendText := func(s string, quoted bool, unresolved []string) {
		cur := fields[len(fields)-1]
		cur.unresolved = append(cur.unresolved, unresolved...)
		if quoted || !split {
			cur.b.WriteString(s)
			haveField = true
			return
		}
		parts := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
		if len(parts) == 0 {
			if s != "" && haveField && (strings.TrimSpace(s) == "") {
				fields = append(fields, &field{})
				haveField = false
			}
			return
		}
		leadingBlank := s[0] == ' ' || s[0] == '\t' || s[0] == '\n'
		trailingBlank := s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\n'
		for i, p := range parts {
			if i > 0 || (leadingBlank && haveField) {
				fields = append(fields, &field{})
			}
			fields[len(fields)-1].b.WriteString(p)
			haveField = true
		}
		if trailingBlank {
			fields = append(fields, &field{})
			haveField = false
		}
	}
	for _, sg := range w.segs {
		switch sg.kind {
		case segLit:
			// Literal text and substitutions come from the script itself, bounded by its
			// size: they pass even once the budget is exhausted, so commands are still found.
			fields[len(fields)-1].b.WriteString(sg.text)
			haveField = true
		case segSub:
			appendText(sg.text, true, []string{sg.text})
		case segVar:
			v, ok := x.env[sg.text]
			switch {
			case sg.op == "?":
				appendText("${"+sg.text+"...}", true, []string{"$" + sg.text})
				continue
			case (sg.op == ":-" || sg.op == ":=") && (!ok || v == ""), (sg.op == "-" || sg.op == "=") && !ok:
				def := x.expand(word{segs: sg.arg}, false)
				d := value{}
				if len(def) > 0 {
					d = def[0]
				}
				if sg.op == ":=" || sg.op == "=" {
					if len(d.unresolved) > 0 {
						x.env[sg.text] = markerFor(d)
					} else {
						x.env[sg.text] = d.s
					}
				}
				if overBudget(len(d.s)) {
					cut()
					continue
				}
				appendText(d.s, sg.quoted, d.unresolved)
				continue
			}
			if v == budgetMarker {
				appendText("$"+sg.text, true, []string{budgetNote})
				continue
			}
			if !ok || v == unresolvedMarker {
				appendText("$"+sg.text, true, []string{"$" + sg.text})
				continue
			}
			if overBudget(len(v)) {
				cut()
				continue
			}
			appendText(v, sg.quoted, nil)
		}
	}
	last := fields[len(fields)-1]
	if !haveField && last.b.Len() == 0 && len(last.unresolved) == 0 {
		fields = fields[:len(fields)-1]
	}
	out := make([]value, len(fields))
	for i, f := range fields {
		out[i] = value{s: f.b.String(), unresolved: f.unresolved}
	}
	return out
}

// unresolvedMarker is stored in env for variables assigned from something the decoder cannot
// evaluate (command substitution, arrays).
const unresolvedMarker = "\x00unresolved"

// budgetMarker is stored in env for variables whose value the expansion budget cut off.
const budgetMarker = "\x00budget"

var shellKeywords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true,
	"done": true, "while": true, "until": true, "for": true, "!": true, "{": true, "}": true, "time": true}

var commandPrefixes = map[string]bool{"sudo": true, "exec": true, "bash": true, "sh": true, "env": true,
	"nohup": true, "command": true, "eval": false, "/bin/bash": true, "/bin/sh": true, "/usr/bin/env": true, "/usr/bin/sudo": true}

// handleShell reads a shell script: it tracks variable assignments and interprets the first
// bootstrap.sh call.
func (d *decoder) handleShell(s, part string, firstLine int) {
	base := firstLine
	if base == 0 {
		base = 1
	}
	var reach shellReach
	if !d.excerpt || strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), "#!") {
		// a pasted excerpt without its #! line may be prose around a script: where it starts
		// and ends is not known, so how far bash would run it is not judged
		reach, _ = scriptReach(s)
	}
	dropped := 0 // line of the first bootstrap.sh call bash never reaches
	for _, c := range parseScript(s) {
		if reach.kind != reachAll && c.line > reach.last {
			if dropped == 0 && callsBootstrapSh(c) {
				dropped = c.line
			}
			continue
		}
		d.runCommand(c, part, base+c.line-1)
		if d.sh.exhausted && !d.budgetReported {
			d.budgetReported = true
			d.issue(evidence.IssueWarning, part, base+c.line-1, "shell expansion budget hit (%d bytes, %d steps over the whole user data): the script builds values larger than any real user data; variables expanded from this command on are not resolved", d.sh.maxBytes, d.sh.maxSteps)
		}
	}
	d.reportReach(reach, dropped, part, base)
}

// reportReach records why a script stops early: a syntax error or an unclosed here-document is a
// parse issue (an error when it cuts off the bootstrap.sh call, a warning otherwise); an exit
// before the bootstrap.sh call is recorded as BootstrapUnreached for bootstrap.no-bootstrap.
func (d *decoder) reportReach(r shellReach, dropped int, part string, base int) {
	lost := "the commands below it never run"
	level := evidence.IssueWarning
	if dropped > 0 {
		lost = fmt.Sprintf("the bootstrap.sh call on line %d never runs", base+dropped-1)
		level = evidence.IssueError
	}
	switch r.kind {
	case reachParse:
		d.issue(level, part, base+r.line-1, "bash cannot parse the script (%s): it runs the commands above the one that fails and stops there, so %s", r.what, lost)
	case reachHeredoc:
		d.issue(level, part, base+r.line-1, "the here-document %s opened here is never closed: no later line is exactly its word (<<- allows leading tabs only, never spaces), so bash reads the rest of the script as its text and %s", r.what, lost)
	case reachTerminal:
		if dropped > 0 && !d.cfg.CallsBootstrap {
			d.cfg.BootstrapUnreached = fmt.Sprintf("%s, line %d: %q ends the script, so the bootstrap.sh call on line %d never runs", part, base+r.line-1, r.what, base+dropped-1)
		}
	}
}

func (d *decoder) runCommand(c command, part string, line int) {
	words := c.words
	for len(words) > 0 {
		first := literalOf(words[0])
		if len(words[0].segs) == 1 && words[0].segs[0].kind == segLit && shellKeywords[first] {
			words = words[1:]
			continue
		}
		break
	}
	if len(words) == 0 {
		return
	}
	// assignments (NAME=value), possibly behind export/declare/local/readonly
	exported := false
	if lw := literalOf(words[0]); len(words[0].segs) == 1 && (lw == "export" || lw == "declare" || lw == "local" || lw == "readonly" || lw == "typeset") {
		words = words[1:]
		exported = true
	}
	i := 0
	for ; i < len(words); i++ {
		name, rest, ok := splitAssignment(words[i])
		if !ok {
			if exported && strings.HasPrefix(literalOf(words[i]), "-") {
				continue
			}
			break
		}
		if len(rest.segs) > 0 && rest.segs[0].kind == segLit && strings.HasPrefix(rest.segs[0].text, "(") && !rest.segs[0].quoted {
			d.env[name] = unresolvedMarker // bash array
			continue
		}
		vals := d.sh.expand(rest, false)
		v := value{}
		if len(vals) > 0 {
			v = vals[0]
		}
		if len(v.unresolved) > 0 {
			d.env[name] = markerFor(v)
		} else {
			d.env[name] = v.s
		}
	}
	words = words[i:]
	if len(words) == 0 {
		return
	}
	// find the bootstrap.sh call behind prefixes such as sudo or bash
	for j := 0; j < len(words) && j < 6; j++ {
		vals := d.sh.expand(words[j], false)
		if len(vals) == 0 {
			continue
		}
		w := vals[0].s
		if path.Base(w) == "bootstrap.sh" {
			d.bootstrapSh(words[j+1:], part, line)
			return
		}
		if strings.HasSuffix(strings.ToLower(w), "start-eksbootstrap.ps1") {
			return
		}
		if !commandPrefixes[w] && !strings.HasPrefix(w, "-") {
			return
		}
	}
}

func splitAssignment(w word) (string, word, bool) {
	if len(w.segs) == 0 || w.segs[0].kind != segLit || w.segs[0].quoted {
		return "", word{}, false
	}
	t := w.segs[0].text
	eq := strings.IndexByte(t, '=')
	if eq <= 0 {
		return "", word{}, false
	}
	name := t[:eq]
	for k := 0; k < len(name); k++ {
		if !isNameChar(name[k], k == 0) {
			return "", word{}, false
		}
	}
	rest := word{}
	if eq+1 < len(t) {
		rest.segs = append(rest.segs, segment{kind: segLit, text: t[eq+1:]})
	}
	rest.segs = append(rest.segs, w.segs[1:]...)
	return name, rest, true
}

// bootstrapShFlags lists every option of the AL2 /etc/eks/bootstrap.sh; each takes a value
// as the next argument (the script reads $2 and shifts twice). Source: amazon-eks-ami
// templates/al2/runtime/bootstrap.sh, the branches of its option loop's case statement (the
// last version before AL2 was removed, commit 0ab84280).
var bootstrapShFlags = map[string]bool{
	"--use-max-pods": true, "--b64-cluster-ca": true, "--apiserver-endpoint": true, "--kubelet-extra-args": true,
	"--enable-docker-bridge": true, "--aws-api-retry-attempts": true, "--docker-config-json": true,
	"--containerd-config-file": true, "--pause-container-account": true, "--pause-container-version": true,
	"--dns-cluster-ip": true, "--container-runtime": true, "--ip-family": true, "--service-ipv4-cidr": true, "--service-ipv6-cidr": true,
	"--enable-local-outpost": true, "--cluster-id": true, "--mount-bpf-fs": true, "--local-disks": true,
}

// bootstrapSh interprets the arguments of a bootstrap.sh call exactly as the script's own
// option loop does: known options consume the next argument, everything else is positional,
// and the cluster name is the first positional argument.
func (d *decoder) bootstrapSh(args []word, part string, line int) {
	d.bootstrapShCalls++
	if d.cfg.CallsBootstrap && d.cfg.Format == evidence.FormatBootstrapSh {
		d.issue(evidence.IssueWarning, part, line, "bootstrap.sh is called more than once; only the first call is analysed")
		return
	}
	d.cfg.CallsBootstrap = true
	d.addFormat(evidence.FormatBootstrapSh)
	var vals []value
	for _, a := range args {
		vals = append(vals, d.sh.expand(a, true)...)
	}
	var positional []value
	opts := map[string]value{}
	for k := 0; k < len(vals); k++ {
		a := vals[k].s
		if a == "-h" || a == "--help" {
			d.issue(evidence.IssueError, part, line, "bootstrap.sh is called with %s: it prints its help and exits 1 without bootstrapping", a)
			continue
		}
		if bootstrapShFlags[a] {
			if k+1 >= len(vals) {
				d.issue(evidence.IssueError, part, line, "bootstrap.sh option %s has no value; the script exits with 'unbound variable'", a)
				break
			}
			opts[a] = vals[k+1]
			k++
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, _, hasEq := strings.Cut(a, "=")
			switch {
			case hasEq && bootstrapShFlags[name]:
				d.issue(evidence.IssueError, part, line, "bootstrap.sh does not accept %s=VALUE; the argument %q is taken as a positional argument (write %s VALUE)", name, a, name)
			case len(positional) > 0:
				// after the cluster name, bootstrap.sh keeps it as a positional argument it never reads
				d.issue(evidence.IssueWarning, part, line, "bootstrap.sh has no option %s; after the cluster name %s it is an extra positional argument bootstrap.sh ignores", name, positional[0].s)
			default:
				d.issue(evidence.IssueError, part, line, "bootstrap.sh has no option %s; it is taken as a positional argument", name)
			}
		}
		positional = append(positional, vals[k])
	}
	unres := func(field string, v value, flag string) bool {
		if len(v.unresolved) == 0 {
			return false
		}
		if d.cfg.Unresolved == nil {
			d.cfg.Unresolved = map[string]string{}
		}
		for _, u := range v.unresolved {
			if u == budgetNote {
				d.cfg.Unresolved[field] = flag + " is not resolved: the shell expansion budget was exhausted"
				return true
			}
		}
		when := " is not set in the user data (set at run time)"
		if slices.ContainsFunc(v.unresolved, reTemplateRef.MatchString) {
			when = " is a template value (filled in when the template is rendered, not shown here)"
		}
		d.cfg.Unresolved[field] = clip(flag+" "+strings.Join(v.unresolved, " "), MaxQuoteBytes) + when
		return true
	}
	if len(positional) == 0 {
		d.issue(evidence.IssueError, part, line, "bootstrap.sh is called without a cluster name; it exits with 'cluster name is not defined'")
	} else {
		if !unres("clusterName", positional[0], "cluster name") {
			d.cfg.ClusterName = positional[0].s
		}
		var extra []string
		for _, p := range positional[1:] {
			if len(p.unresolved) == 0 {
				// a value set at run time ($BOOTSTRAP_ARGS, ${var.bootstrap_extra_args}) may hold
				// options, which bootstrap.sh reads wherever they stand: not judged
				extra = append(extra, p.s)
			}
		}
		if len(extra) > 0 {
			d.issue(evidence.IssueWarning, part, line, "bootstrap.sh ignores extra positional arguments %q", extra)
		}
	}
	if v, ok := opts["--apiserver-endpoint"]; ok && !unres("apiServerEndpoint", v, "--apiserver-endpoint") {
		d.cfg.APIServerEndpoint = v.s
	}
	if v, ok := opts["--b64-cluster-ca"]; ok && !unres("certificateAuthority", v, "--b64-cluster-ca") {
		d.cfg.CertificateAuthority = v.s
	}
	d.endpointAndCATogether(part, line)
	d.localOutpostClusterID(opts, part, line)
	if v, ok := opts["--dns-cluster-ip"]; ok && !unres("clusterDNS", v, "--dns-cluster-ip") {
		for _, ip := range strings.Split(v.s, ",") {
			if ip = strings.TrimSpace(ip); ip != "" {
				d.cfg.ClusterDNS = append(d.cfg.ClusterDNS, ip)
			}
		}
	}
	if v, ok := opts["--service-ipv4-cidr"]; ok && !unres("serviceCIDR", v, "--service-ipv4-cidr") {
		d.cfg.ServiceCIDR = v.s
	}
	d.checkIPFamily(opts, part, line)
	if v, ok := opts["--container-runtime"]; ok && !unres("containerRuntime", v, "--container-runtime") {
		d.cfg.ContainerRuntime = v.s
	}
	if v, ok := opts["--use-max-pods"]; ok && !unres("useMaxPods", v, "--use-max-pods") {
		b := v.s != "false"
		d.cfg.UseMaxPods = &b
	}
	if v, ok := opts["--kubelet-extra-args"]; ok {
		if !unres("kubeletExtraArgs", v, "--kubelet-extra-args") {
			d.applyKubeletArgs(systemdSplit(v.s), part, line)
		} else if d.eksctlEnv {
			d.applyEksctlEnv()
			delete(d.cfg.Unresolved, "kubeletExtraArgs")
		}
	} else if d.eksctlEnv {
		d.applyEksctlEnv()
	}
}

// applyEksctlEnv fills labels, taints and max pods from eksctl's /etc/eksctl/kubelet.env
// (NODE_LABELS, NODE_TAINTS, MAX_PODS), which eksctl's helper script turns into kubelet flags.
func (d *decoder) applyEksctlEnv() {
	var flags []string
	if v := d.env["NODE_LABELS"]; v != "" && v != unresolvedMarker && v != budgetMarker {
		flags = append(flags, "--node-labels="+v)
	}
	if v := d.env["NODE_TAINTS"]; v != "" && v != unresolvedMarker && v != budgetMarker {
		flags = append(flags, "--register-with-taints="+v)
	}
	if v := d.env["MAX_PODS"]; v != "" && v != unresolvedMarker && v != budgetMarker {
		flags = append(flags, "--max-pods="+v)
	}
	d.applyKubeletArgs(flags, "kubelet.env", 0)
}

// applyKubeletArgs records kubelet flags and extracts labels, taints and max pods. Flags may be
// written --name=value or --name value, as kubelet's flag parser accepts both.
func (d *decoder) applyKubeletArgs(args []string, part string, line int) {
	for k := 0; k < len(args); k++ {
		a := args[k]
		if !strings.HasPrefix(a, "-") {
			d.issue(evidence.IssueWarning, part, line, "kubelet argument %q is not a flag; kubelet rejects stray positional arguments", a)
			continue
		}
		name, val, hasEq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasEq && k+1 < len(args) && !strings.HasPrefix(args[k+1], "-") {
			val = args[k+1]
			k++
		}
		d.cfg.KubeletFlags = append(d.cfg.KubeletFlags, "--"+name+"="+val)
		d.applyKubeletSetting(name, val, part, line)
	}
}

func (d *decoder) applyKubeletSetting(name, val, part string, line int) {
	switch name {
	case "node-labels":
		if d.cfg.Labels == nil {
			d.cfg.Labels = map[string]string{}
		}
		for _, kv := range strings.Split(val, ",") {
			if kv = strings.TrimSpace(kv); kv == "" {
				continue
			}
			k, v, _ := strings.Cut(kv, "=")
			d.cfg.Labels[k] = v
		}
	case "register-with-taints":
		for _, t := range strings.Split(val, ",") {
			if t = strings.TrimSpace(t); t != "" {
				d.cfg.Taints = append(d.cfg.Taints, t)
			}
		}
	case "max-pods":
		n, err := strconv.Atoi(val)
		if err != nil {
			d.issue(evidence.IssueError, part, line, "kubelet --max-pods=%q is not a number; kubelet refuses to start", val)
			return
		}
		d.cfg.MaxPods = &n
	case "cluster-dns":
		d.cfg.ClusterDNS = nil
		for _, ip := range strings.Split(val, ",") {
			if ip = strings.TrimSpace(ip); ip != "" {
				d.cfg.ClusterDNS = append(d.cfg.ClusterDNS, ip)
			}
		}
	}
}
