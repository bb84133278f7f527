package report

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

// hostileMarkdown are values a log line, a tag or a paste can carry that Markdown or HTML would
// read as markup: raw HTML, comments, a table break-out, links, images, code fences, headings,
// list and quote markers, emphasis, entities and mentions.
var hostileMarkdown = []string{
	`ip-10-0-12-34|</td></table><img src=x onerror=alert(1)>` + "```" + "\n# HEADING [click](javascript:alert(1)) @everyone",
	`ip-10-0-12-34<!--`,
	`-->`,
	`# heading`, `### h3`, `- item`, `+ item`, `* item`, `1. item`, `2) item`, `> quote`, `---`, `===`,
	`***bold*** _em_ __strong__ ~~gone~~ ~x~`,
	`[x](http://evil.example)`, `![i](http://evil.example/i.png)`, `[ref]: http://evil.example`,
	`<http://evil.example>`, `<script>alert(1)</script>`, `<a href="javascript:alert(1)">x</a>`,
	"`code` ``two``", "```", `\` + "`", `back\slash\`, `&lt;img&gt; &#60;b&#62; &amp;`,
	`@everyone hi @org/team (@octocat)`, `a|b\|c`, `snake_case_name _lead trail_`,
	`AmazonEKS_CNI_Policy`, `x <b>bold</b> y`, "tab\there",
}

// renderGFM renders md as GitHub does (tables, strikethrough, raw HTML passed through).
func renderGFM(t *testing.T, md string) string {
	t.Helper()
	var b bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gm.Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	tagRE     = regexp.MustCompile(`<[^>]*>`)
	mentionRE = regexp.MustCompile(`(?:^|[^\w])@\w`)
)

// plain returns the text of rendered HTML (tags removed, entities decoded, the zero-width space
// that breaks a mention removed), and the tags it held.
func plain(h string) (string, []string) {
	tags := tagRE.FindAllString(h, -1)
	return strings.ReplaceAll(html.UnescapeString(tagRE.ReplaceAllString(h, "")), "\u200b", ""), tags
}

// TestMdEscapeRendersValuesAsText: every hostile value, escaped, renders as exactly its text
// (newlines as spaces) — in a paragraph, at the start of a line, after a list marker and in a
// table cell — with no element of its own and no live mention.
func TestMdEscapeRendersValuesAsText(t *testing.T) {
	for _, s := range hostileMarkdown {
		want := strings.ReplaceAll(s, "\n", " ")
		for _, c := range []struct{ name, md, open, close string }{
			{"paragraph", "Cause: " + mdEscape(s) + "\n", "<p>Cause: ", "</p>"},
			{"line start", mdEscape(s) + "\n", "<p>", "</p>"},
			{"list", "- " + mdEscape(s) + "\n", "<ul>\n<li>", "</li>\n</ul>"},
		} {
			h := strings.TrimSpace(renderGFM(t, c.md))
			if !strings.HasPrefix(h, c.open) || !strings.HasSuffix(h, c.close) {
				t.Errorf("%s %q: rendered as %q", c.name, s, h)
				continue
			}
			inner := strings.TrimSuffix(strings.TrimPrefix(h, c.open), c.close)
			got, tags := plain(inner)
			if len(tags) > 0 || got != want {
				t.Errorf("%s %q: rendered text %q, elements %q (markdown %q)", c.name, s, got, tags, c.md)
			}
			if mentionRE.MatchString(html.UnescapeString(inner)) {
				t.Errorf("%s %q: live mention in %q", c.name, s, inner)
			}
		}
		// in a table: the row keeps its cells, the value stays in its own
		h := renderGFM(t, "| Check | Resource | Message |\n|---|---|---|\n| `id` | "+mdCodeCell(s)+" | "+mdEscape(s)+" |\n")
		cells := regexp.MustCompile(`(?s)<td>(.*?)</td>`).FindAllStringSubmatch(h, -1)
		if len(cells) != 3 || strings.Count(h, "<tr>") != 2 {
			t.Errorf("table %q: cells broken:\n%s", s, h)
			continue
		}
		if got, tags := plain(cells[2][1]); len(tags) > 0 || got != want {
			t.Errorf("table message %q: rendered text %q, elements %q", s, got, tags)
		}
		code := cells[1][1]
		if !strings.HasPrefix(code, "<code>") || !strings.HasSuffix(code, "</code>") || strings.Count(code, "<") != 2 {
			t.Errorf("table code %q: rendered %q", s, code)
		} else if got := html.UnescapeString(code[len("<code>") : len(code)-len("</code>")]); got != want {
			t.Errorf("table code %q: rendered text %q", s, got)
		}
		// a code span outside a table
		h = strings.TrimSpace(renderGFM(t, "- evidence: "+mdCode(s)+"\n"))
		if code, ok := strings.CutPrefix(h, "<ul>\n<li>evidence: <code>"); !ok || !strings.HasSuffix(code, "</code></li>\n</ul>") {
			t.Errorf("code %q: rendered %q", s, h)
		} else if got := html.UnescapeString(strings.TrimSuffix(code, "</code></li>\n</ul>")); got != want {
			t.Errorf("code %q: rendered text %q", s, got)
		}
	}
}

// TestMdEscapeNeutralisesMentions: an @mention from the evidence does not notify anyone (a
// zero-width space follows the @); an e-mail address or a digest reference keeps its text.
func TestMdEscapeNeutralisesMentions(t *testing.T) {
	for in, want := range map[string]string{
		"@everyone":               "@\u200beveryone",
		"hi @org/team":            "hi @\u200borg/team",
		"(@octocat)":              "(@\u200boctocat)",
		"ops@example.com":         "ops@example.com",
		"image@sha256:0123abcdef": "image@sha256:0123abcdef",
	} {
		if got := mdEscape(in); got != want {
			t.Errorf("mdEscape(%q) = %q, want %q", in, got, want)
		}
	}
}
