package main

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

// notebook is an executed .ipynb held as generic JSON, so that every field
// nbconvert reads survives the round trip unchanged.
type notebook struct {
	Name  string // file name without .ipynb, e.g. "02-linear-models"
	Title string // the first level-1 heading, or Name
	JSON  map[string]any

	Figures     []string // figure ids shown on the page, in order
	Anchors     []string // the ids of the figures drawn from the report's files (figureAnchor)
	Interactive int      // interactive (ECharts) views on the page
	Math        bool     // the markdown has $ … $ or $$ … $$ formulas
}

// Page is the site's file name for the notebook.
func (nb *notebook) Page() string { return nb.Name + ".html" }

func readNotebook(path string) (*notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
	nb := &notebook{Name: name, Title: name, JSON: m}
	for _, c := range nbsrc.CellMaps(nb.JSON) {
		if c["cell_type"] != "markdown" {
			continue
		}
		src := nbsrc.Text(c["source"])
		if !nb.Math && mathRE.MatchString(src) {
			nb.Math = true
		}
		if nb.Title == name {
			for _, line := range strings.Split(src, "\n") {
				if t, ok := strings.CutPrefix(line, "# "); ok {
					nb.Title = strings.TrimSpace(t)
					break
				}
			}
		}
	}
	return nb, nil
}

// mathRE matches a TeX formula in markdown: $$…$$ or $…$ with no space
// just inside the dollars (as MathJax's tex2jax and nbconvert's markdown
// reader see them).
var mathRE = regexp.MustCompile(`\$\$[^$]+\$\$|\$[^$\s][^$]*\$`)

// captionRE finds the figure id in the caption HTML that figures.Show
// displays right after a figure's PNG: <p><b>Figure 2.1.</b> ….
// The id is a book figure's "2.1", an added figure's "X3.2" or a paper
// figure's "P2" (no dot).
var captionRE = regexp.MustCompile(`^\s*<p><b>Figure ([A-Z]?[0-9]+(?:\.[0-9]+)?)\.</b>`)

// echartsRE matches the ECharts script URL that go-echarts writes into its
// pages (a CDN), also when HTML-escaped inside an iframe's srcdoc.
var echartsRE = regexp.MustCompile(`https?://[^"'&\s<>]*/echarts(?:\.min)?\.js`)

// localEChartsURL is where the site keeps the bundled ECharts script,
// relative to a page (an iframe srcdoc resolves it against its parent page).
const localEChartsURL = "assets/echarts.min.js"

// prepare rewrites the notebook's outputs for the site:
//
//   - a figure's embedded PNG, followed by its caption, becomes the figure's
//     full-resolution file from the reproduction (SVG where there is one),
//     in a <figure> with the anchor figureAnchor(id), linked to the file;
//   - the ECharts script of interactive views is loaded from the site.
//
// figFile maps a figure id to its site path ("" when the report has none).
func (nb *notebook) prepare(figFile func(id string) string) {
	for _, c := range nbsrc.CellMaps(nb.JSON) {
		if c["cell_type"] == "markdown" {
			src := nbsrc.Text(c["source"])
			if md := markdownInSmall(src); md != src {
				c["source"] = md
			}
			continue
		}
		outs, _ := c["outputs"].([]any)
		for i, o := range outs {
			out, _ := o.(map[string]any)
			data, _ := out["data"].(map[string]any)
			if data == nil {
				continue
			}
			if h, ok := data["text/html"]; ok {
				s := nbsrc.Text(h)
				if strings.Contains(s, "echarts.init(") {
					nb.Interactive++
				}
				if echartsRE.MatchString(s) {
					s = echartsRE.ReplaceAllString(s, localEChartsURL)
					data["text/html"] = s
				}
				if strings.Contains(s, "echarts.init(") {
					data["text/html"] = fixInteractive(s)
				}
			}
			if _, ok := data["image/png"]; !ok || i+1 >= len(outs) {
				continue
			}
			next, _ := outs[i+1].(map[string]any)
			nd, _ := next["data"].(map[string]any)
			m := captionRE.FindStringSubmatch(nbsrc.Text(nd["text/html"]))
			if m == nil {
				continue
			}
			id := m[1]
			nb.Figures = append(nb.Figures, id)
			file := figFile(id)
			if file == "" {
				continue // keep the notebook's PNG
			}
			nb.Anchors = append(nb.Anchors, figureAnchor(id))
			out["data"] = map[string]any{"text/html": figureHTML(id, file)}
			out["metadata"] = map[string]any{}
		}
	}
}

// figureHTML is a figure at full resolution, linked to its file.
func figureHTML(id, file string) string {
	f := html.EscapeString(file)
	return fmt.Sprintf(`<figure class="book-figure" id="%s"><a href="%s"><img src="%s" alt="Figure %s"></a></figure>`,
		figureAnchor(id), f, f, html.EscapeString(id))
}

// figureAnchor is the HTML id of a figure on the chapter and report pages:
// "2.1" → "figure-2-1", "X3.2" → "figure-x3-2".
func figureAnchor(id string) string {
	return "figure-" + strings.ToLower(strings.ReplaceAll(id, ".", "-"))
}

// setBook stores the page's navigation in the notebook's metadata, where
// the book template reads it.
func (nb *notebook) setBook(prev, next *notebook, footer string) {
	md, _ := nb.JSON["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		nb.JSON["metadata"] = md
	}
	link := func(o *notebook) any {
		if o == nil {
			return nil
		}
		return map[string]any{"href": o.Page(), "title": o.Title}
	}
	md["title"] = nb.Title
	// The code is Go: without a lexer named here nbconvert highlights it as
	// Python, where "//" is an operator and an apostrophe in a comment
	// opens a string that runs to the end of the line.
	li, _ := md["language_info"].(map[string]any)
	if li == nil {
		li = map[string]any{"name": "go"}
		md["language_info"] = li
	}
	li["pygments_lexer"] = "go"
	md["book"] = map[string]any{
		"css":    "assets/book.css",
		"js":     "assets/book.js",
		"index":  "index.html",
		"prev":   link(prev),
		"next":   link(next),
		"footer": footer,
	}
}

func (nb *notebook) write(dir string) (string, error) {
	b, err := json.Marshal(nb.JSON)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, nb.Name+".ipynb")
	return path, os.WriteFile(path, b, 0o644)
}

// hrefRE finds link targets in the rendered HTML.
var hrefRE = regexp.MustCompile(`href="([^"#]*)(#[^"]*)?"`)

// rewriteLinks points links between notebooks (NN-name.ipynb) at their
// pages and links to the reproduction report (figures/README.md) at the
// report page.
func rewriteLinks(page string, names map[string]bool) string {
	return hrefRE.ReplaceAllStringFunc(page, func(s string) string {
		m := hrefRE.FindStringSubmatch(s)
		target, frag := m[1], m[2]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "data:") {
			return s
		}
		base := filepath.Base(target)
		switch {
		case strings.HasSuffix(base, ".ipynb") && names[strings.TrimSuffix(base, ".ipynb")]:
			target = strings.TrimSuffix(base, ".ipynb") + ".html"
		case strings.HasSuffix(target, "figures/README.md") || strings.HasSuffix(target, "figures/report.json"):
			target = "report.html"
		default:
			return s
		}
		return `href="` + target + frag + `"`
	})
}

// remoteRE finds resources a page would fetch from another host: a src,
// or a stylesheet or icon href, that is an absolute http(s) or
// protocol-relative URL; url(…) in CSS likewise.
var remoteRE = regexp.MustCompile(`(?i)(?:\ssrc\s*=\s*["']?|<link[^>]*\shref\s*=\s*["']?|url\(\s*["']?|@import\s+["'])((?:https?:)?//[^"'\s)>]+)`)

// remoteRefs lists the remote resources of an HTML page, also those inside
// HTML-escaped iframe srcdoc attributes.
func remoteRefs(page string) []string {
	var refs []string
	seen := map[string]bool{}
	for _, s := range []string{page, html.UnescapeString(page)} {
		for _, m := range remoteRE.FindAllStringSubmatch(s, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				refs = append(refs, m[1])
			}
		}
	}
	return refs
}

// smallRE finds the content of a <small> element in a Markdown cell. The
// notebooks wrap their navigation line in one, and Markdown inside an
// inline HTML element is not parsed by nbconvert's Markdown renderer
// (mistune 0.8): the reader would see "[Contents](00-contents.ipynb)".
var smallRE = regexp.MustCompile(`(?s)<small>(.*?)</small>`)

// Inline Markdown: links, strong and emphasis, code.
var (
	mdLinkRE   = regexp.MustCompile(`\[([^\]\n]+)\]\(([^)\s]+)\)`)
	mdStrongRE = regexp.MustCompile(`\*\*([^*\n]+)\*\*`)
	mdEmRE     = regexp.MustCompile(`\*([^*\s][^*\n]*)\*`)
	mdCodeRE   = regexp.MustCompile("`([^`\n]+)`")
)

// markdownInSmall renders the inline Markdown (links, **strong**, *em*,
// `code`) inside the <small> elements of a Markdown cell's source as HTML,
// which nbconvert then passes through.
func markdownInSmall(src string) string {
	return smallRE.ReplaceAllStringFunc(src, func(s string) string {
		in := inlineMarkdown(smallRE.FindStringSubmatch(s)[1])
		if strings.Contains(in, `.ipynb"`) {
			// the notebooks' navigation line: the site has its own, and paper none
			return `<small class="book-nbnav">` + in + "</small>"
		}
		return "<small>" + in + "</small>"
	})
}

// inlineMarkdown renders Markdown's links, **strong**, *em* and `code` as
// HTML; the rest of s is kept as it is.
func inlineMarkdown(s string) string {
	s = mdCodeRE.ReplaceAllStringFunc(s, func(c string) string {
		return "<code>" + mdCodeRE.FindStringSubmatch(c)[1] + "</code>"
	})
	s = mdLinkRE.ReplaceAllStringFunc(s, func(l string) string {
		m := mdLinkRE.FindStringSubmatch(l)
		return `<a href="` + strings.ReplaceAll(m[2], `"`, "%22") + `">` + m[1] + "</a>"
	})
	s = mdStrongRE.ReplaceAllString(s, "<strong>$1</strong>")
	return mdEmRE.ReplaceAllString(s, "<em>$1</em>")
}

// Parts of go-echarts' page (HTML-escaped inside the iframe's srcdoc).
var (
	echartsTitleRE = regexp.MustCompile(`&lt;title&gt;Awesome go-echarts&lt;/title&gt;`)
	chartTitleRE   = regexp.MustCompile(`&#34;title&#34;:\{&#34;text&#34;:&#34;((?:[^&]|&[^#]|&#[^3]|&#3[^4])*)&#34;`)
	emptyLegend    = `&#34;legend&#34;:{}`
)

// fixInteractive mends go-echarts' page of an interactive view (inside an
// iframe's srcdoc): the page's title is the chart's, not go-echarts'
// default, and the legend goes below the plot, where it does not overlap
// the chart's title.
func fixInteractive(s string) string {
	if m := chartTitleRE.FindStringSubmatch(s); m != nil {
		s = echartsTitleRE.ReplaceAllLiteralString(s, "&lt;title&gt;"+m[1]+"&lt;/title&gt;")
	}
	return strings.ReplaceAll(s, emptyLegend, `&#34;legend&#34;:{&#34;top&#34;:&#34;bottom&#34;}`)
}
