package cli

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/spf13/cobra"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/eksdoctor/eksdoctor/checks"
)

// NewCmdExplain builds `explain ID [-o text|markdown]`: the check's page (docs/checks/ID.md)
// rendered for the terminal — headings, emphasis and code styled with colour on a terminal that
// shows colour; plain text (no escape codes, no Markdown markers) in a pipe, a file, with
// NO_COLOR, --no-color or TERM=dumb — or its Markdown source with -o markdown.
func NewCmdExplain(g *GlobalOptions) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "explain CHECK_ID [-o text|markdown]",
		Short: "Explain one check: what it detects, why it blocks the join, how to fix it",
		Args:  cobra.ExactArgs(1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var ids []string
			for _, c := range checks.Default().All() {
				ids = append(ids, c.Meta.ID)
			}
			return ids, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			switch output {
			case "text", "markdown", "md":
			default:
				return usageErr("unknown --output %q for explain (want text or markdown)", output)
			}
			c, ok := checks.Default().Get(args[0])
			if !ok {
				return usageErr("no check %q (see 'eksdoctor checks list')", args[0])
			}
			page := checks.Page(c.Meta)
			if output != "text" {
				_, err := fmt.Fprint(g.stdout, page)
				return err
			}
			_, err := fmt.Fprint(g.stdout, renderMarkdown(page, g.useColor(), g.termWidth()))
			return err
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text (rendered for the terminal) or markdown")
	return cmd
}

// renderMarkdown renders a check page (checks.Page: headings, paragraphs, bullet lists, strong
// text, code spans, bare URLs) parsed with goldmark for a terminal of width columns (40 at
// least): paragraphs and list items wrapped at spaces only, so flags, IDs and ARNs stay whole
// (a word longer than the width is cut by fold); headings set off by blank lines; with color,
// headings and strong text bold, code spans cyan (fatih/color), else no escape code and no
// Markdown marker. Lines carry no trailing blanks.
//
// glamour rendered these pages until its syntax highlighter's package initialisation (about
// 16 ms at every start of the binary, whatever the command) was measured against the start-up
// budget of `analyze` (fixtures/benchbundle).
func renderMarkdown(md string, useColor bool, width int) string {
	width = max(width, 40)
	src := []byte(md)
	r := &mdRenderer{src: src, width: width, color: useColor}
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		r.block(n, "", "")
	}
	var lines []string
	for _, l := range strings.Split(strings.Join(r.out, "\n"), "\n") {
		lines = append(lines, fold(strings.TrimRight(l, " "), width)...)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n") + "\n"
}

// mdRenderer accumulates the rendered lines of one page.
type mdRenderer struct {
	src   []byte
	width int
	color bool
	out   []string
}

// span is a run of inline text in one style.
type span struct {
	text  string
	style []color.Attribute
}

// block renders block node n; first prefixes its first line, rest its other lines (a list
// item's bullet and hanging indent).
func (r *mdRenderer) block(n ast.Node, first, rest string) {
	switch n := n.(type) {
	case *ast.Heading:
		style := []color.Attribute{color.Bold}
		if n.Level == 1 {
			style = append(style, color.FgCyan)
		}
		r.gap()
		r.wrap(r.inlines(n, style), first, rest)
		r.out = append(r.out, "")
	case *ast.Paragraph, *ast.TextBlock:
		r.wrap(r.inlines(n, nil), first, rest)
		if _, tight := n.(*ast.TextBlock); !tight {
			r.out = append(r.out, "")
		}
	case *ast.List:
		i := n.Start
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			bullet := "- "
			if n.IsOrdered() {
				bullet = fmt.Sprintf("%d. ", i)
				i++
			}
			pad := strings.Repeat(" ", len(bullet))
			p, q := rest+bullet, rest+pad
			for c := item.FirstChild(); c != nil; c = c.NextSibling() {
				r.block(c, p, q)
				p = q
			}
		}
		r.gap()
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			r.out = append(r.out, rest+"    "+r.paint(strings.TrimRight(string(seg.Value(r.src)), "\n"), []color.Attribute{color.FgCyan}))
		}
		r.out = append(r.out, "")
	case *ast.Blockquote:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			r.block(c, rest+"| ", rest+"| ")
		}
	case *ast.ThematicBreak:
		r.out = append(r.out, rest+strings.Repeat("-", min(r.width-len(rest), 40)), "")
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			r.block(c, first, rest)
		}
	}
}

// gap ends the output with one blank line.
func (r *mdRenderer) gap() {
	if len(r.out) > 0 && r.out[len(r.out)-1] != "" {
		r.out = append(r.out, "")
	}
}

// inlines flattens the inline children of n into spans, style added to each.
func (r *mdRenderer) inlines(n ast.Node, style []color.Attribute) []span {
	var out []span
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			out = append(out, span{string(c.Segment.Value(r.src)), style})
			if c.SoftLineBreak() || c.HardLineBreak() {
				out = append(out, span{" ", style})
			}
		case *ast.String:
			out = append(out, span{string(c.Value), style})
		case *ast.CodeSpan:
			var b strings.Builder
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if s, ok := t.(*ast.Text); ok {
					b.Write(s.Segment.Value(r.src))
				}
			}
			out = append(out, span{b.String(), append(append([]color.Attribute(nil), style...), color.FgCyan)})
		case *ast.Emphasis:
			add := color.Italic
			if c.Level >= 2 {
				add = color.Bold
			}
			out = append(out, r.inlines(c, append(append([]color.Attribute(nil), style...), add))...)
		case *ast.Link:
			out = append(out, r.inlines(c, append(append([]color.Attribute(nil), style...), color.Underline))...)
			if dest := string(c.Destination); dest != "" && !strings.HasSuffix(dest, ".md") {
				out = append(out, span{" (" + dest + ")", style})
			}
		case *ast.AutoLink:
			out = append(out, span{string(c.URL(r.src)), append(append([]color.Attribute(nil), style...), color.Underline)})
		case *ast.RawHTML:
			// a page holds none; markup is not shown
		default:
			out = append(out, r.inlines(c, style)...)
		}
	}
	return out
}

// wrap appends spans as lines of at most r.width columns, breaking at spaces only (a word may
// span styles: "`id`," is one word): the first line prefixed with first, the others with rest.
func (r *mdRenderer) wrap(spans []span, first, rest string) {
	type word struct {
		text string // painted
		cols int
	}
	var words []word
	var cur word
	inWord := false
	for _, sp := range spans {
		for i, part := range strings.Split(sp.text, " ") {
			if i > 0 && inWord { // a space ends the word
				words, cur, inWord = append(words, cur), word{}, false
			}
			if part != "" {
				cur.text += r.paint(part, sp.style)
				cur.cols += utf8.RuneCountInString(part)
				inWord = true
			}
		}
	}
	if inWord {
		words = append(words, cur)
	}
	if len(words) == 0 {
		return
	}
	line, col := first+words[0].text, utf8.RuneCountInString(first)+words[0].cols
	for _, w := range words[1:] {
		if col+1+w.cols > r.width {
			r.out = append(r.out, line)
			line, col = rest+w.text, utf8.RuneCountInString(rest)+w.cols
			continue
		}
		line += " " + w.text
		col += 1 + w.cols
	}
	r.out = append(r.out, line)
}

// paint styles s with the attributes when colour is on.
func (r *mdRenderer) paint(s string, attrs []color.Attribute) string {
	if !r.color || len(attrs) == 0 {
		return s
	}
	c := color.New(attrs...)
	c.EnableColor()
	return c.Sprint(s)
}

// fold splits a line longer than width columns (runes; escape codes are not counted only in
// the coloured output) at its last space within width, else at width: a word longer than the
// width (a URL) would otherwise run past it.
func fold(l string, width int) []string {
	var out []string
	for utf8.RuneCountInString(l) > width && !strings.Contains(l, "\x1b[") {
		r := []rune(l)
		cut := width
		for i := width; i > width/2; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, strings.TrimRight(string(r[:cut]), " "))
		l = strings.TrimLeft(string(r[cut:]), " ")
	}
	return append(out, l)
}
