package cli

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	"github.com/spf13/cobra"

	"github.com/eksdoctor/eksdoctor/checks"
)

// NewCmdExplain builds `explain ID [-o text|markdown]`: the check's page (docs/checks/ID.md)
// rendered for the terminal with glamour — styled and coloured on a terminal that shows colour,
// plain text (no escape codes, no Markdown markers) in a pipe, a file, with NO_COLOR, --no-color
// or TERM=dumb — or its Markdown source with -o markdown.
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
			out, err := renderMarkdown(page, g.useColor(), g.termWidth())
			if err != nil {
				return fmt.Errorf("rendering the page of %s: %w", c.Meta.ID, err)
			}
			_, err = fmt.Fprint(g.stdout, out)
			return err
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text (rendered for the terminal) or markdown")
	return cmd
}

// renderMarkdown renders a Markdown page within width columns : glamour's dark style when colour is
// on, else plain text (plainStyle). Lines carry no trailing blanks.
func renderMarkdown(md string, color bool, width int) (string, error) {
	style := plainStyle()
	if color {
		style = styles.DarkStyleConfig
	}
	r, err := glamour.NewTermRenderer(glamour.WithStyles(style), glamour.WithWordWrap(max(width, 40)))
	if err != nil {
		return "", err
	}
	// glamour's wrap breaks words after hyphens ("--rule-\nnumber"): flags, IDs and ARNs must
	// stay whole, so hyphens inside words travel as non-breaking hyphens through the renderer
	out, err := r.Render(innerHyphen.ReplaceAllStringFunc(md, func(h string) string { return strings.ReplaceAll(h, "-", nbHyphen) }))
	if err != nil {
		return "", err
	}
	out = strings.ReplaceAll(out, nbHyphen, "-")
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		lines = append(lines, fold(strings.TrimRight(l, " "), width)...)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n") + "\n", nil
}

// fold splits a line longer than width columns (runes; escape codes are not counted only in
// the coloured output, whose width glamour keeps) at its last space within width, else at
// width: glamour's wrap can run a few columns past its setting on long tokens.
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

// nbHyphen is U+2011 NON-BREAKING HYPHEN; innerHyphen matches runs of hyphens inside or at the
// edge of a word (not a list item's "- " marker).
const nbHyphen = "\u2011"

var innerHyphen = regexp.MustCompile(`\S-+|-+\S`)

// plainStyle is glamour's ASCII style without the Markdown markers it keeps (heading hashes,
// asterisks around strong and emphasised text, backticks around code): headings stand out by
// the blank lines around them.
func plainStyle() ansi.StyleConfig {
	s := styles.ASCIIStyleConfig
	zero := uint(0)
	s.Document.Margin = &zero
	for _, h := range []*ansi.StyleBlock{&s.H1, &s.H2, &s.H3, &s.H4, &s.H5, &s.H6} {
		h.Prefix = ""
	}
	s.Strong.BlockPrefix, s.Strong.BlockSuffix = "", ""
	s.Emph.BlockPrefix, s.Emph.BlockSuffix = "", ""
	s.Strikethrough.BlockPrefix, s.Strikethrough.BlockSuffix = "", ""
	s.Code.BlockPrefix, s.Code.BlockSuffix = "", ""
	return s
}
