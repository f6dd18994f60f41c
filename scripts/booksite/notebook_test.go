package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

func TestFigureAnchor(t *testing.T) {
	for _, c := range []struct{ id, want string }{
		{"2.1", "figure-2-1"},
		{"1.16", "figure-1-16"},
		{"X3.2", "figure-x3-2"},
	} {
		if got := figureAnchor(c.id); got != c.want {
			t.Errorf("figureAnchor(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}

// TestPrepare checks the rewriting of a notebook's outputs: a figure's PNG
// followed by its caption becomes the full-resolution file, a PNG without a
// caption (or without a file) stays, and the ECharts CDN script becomes the
// bundled one, also HTML-escaped inside an iframe's srcdoc.
func TestPrepare(t *testing.T) {
	png := func() map[string]any {
		return map[string]any{"output_type": "display_data", "data": map[string]any{"image/png": "iVBOR"}, "metadata": map[string]any{}}
	}
	htmlOut := func(s string) map[string]any {
		return map[string]any{"output_type": "display_data", "data": map[string]any{"text/html": []any{s}}, "metadata": map[string]any{}}
	}
	nb := &notebook{Name: "02-x", JSON: map[string]any{"cells": []any{
		map[string]any{"cell_type": "code", "outputs": []any{
			png(), htmlOut("<p><b>Figure 2.1.</b> A caption."),
			png(), htmlOut("<p><b>Figure X2.4.</b> No file."),
			png(), // no caption
			htmlOut(`<iframe srcdoc="&lt;script src=&#34;https://go-echarts.github.io/go-echarts-assets/assets/echarts.min.js&#34;&gt;&lt;script&gt;echarts.init(x)&lt;/script&gt;"></iframe>`),
		}},
	}}}
	nb.prepare(func(id string) string {
		if id == "2.1" {
			return "figures/ch02/fig-2.01.svg"
		}
		return ""
	})
	if want := []string{"2.1", "X2.4"}; !reflect.DeepEqual(nb.Figures, want) {
		t.Errorf("figures %v, want %v", nb.Figures, want)
	}
	if nb.Interactive != 1 {
		t.Errorf("%d interactive views, want 1", nb.Interactive)
	}
	outs := nbsrc.CellMaps(nb.JSON)[0]["outputs"].([]any)
	data := func(i int) map[string]any { return outs[i].(map[string]any)["data"].(map[string]any) }
	fig, _ := data(0)["text/html"].(string)
	if !strings.Contains(fig, `id="figure-2-1"`) || !strings.Contains(fig, `<img src="figures/ch02/fig-2.01.svg"`) {
		t.Errorf("figure 2.1 output: %q", fig)
	}
	for _, i := range []int{2, 4} {
		if _, ok := data(i)["image/png"]; !ok {
			t.Errorf("output %d lost its PNG: %v", i, data(i))
		}
	}
	ifr := nbsrc.Text(data(5)["text/html"])
	if strings.Contains(ifr, "https://") || !strings.Contains(ifr, "src=&#34;assets/echarts.min.js&#34;") {
		t.Errorf("ECharts script not made local: %q", ifr)
	}
}

func TestRewriteLinks(t *testing.T) {
	names := map[string]bool{"01-a": true, "02-b": true}
	in := `<a href="02-b.ipynb">next</a> <a href="01-a.ipynb#Sec-1">s</a> <a href="03-c.ipynb">gone</a>` +
		` <a href="../figures/README.md#figure-21">r</a> <a href="https://example.org/x.ipynb">ext</a> <a href="#Local">l</a>`
	want := `<a href="02-b.html">next</a> <a href="01-a.html#Sec-1">s</a> <a href="03-c.ipynb">gone</a>` +
		` <a href="report.html#figure-21">r</a> <a href="https://example.org/x.ipynb">ext</a> <a href="#Local">l</a>`
	if got := rewriteLinks(in, names); got != want {
		t.Errorf("rewriteLinks:\n got %s\nwant %s", got, want)
	}
}

func TestRemoteRefs(t *testing.T) {
	page := `<script src="mathjax/MathJax.js"></script>
<svg xmlns="http://www.w3.org/2000/svg"></svg>
<a href="https://example.org/paper">a link is not a fetch</a>
/* see https://github.com/jupyter/jupyterlab/issues/522 */
<script src="https://cdn.example.com/require.js"></script>
<link rel="stylesheet" href="//fonts.example.com/css">
<style>@import "https://fonts.example.com/x.css"; body { background: url(https://img.example.com/b.png) }</style>
<iframe srcdoc="&lt;script src=&#34;https://assets.example.com/echarts.min.js&#34;&gt;"></iframe>
<img src="data:image/png;base64,iVBOR">`
	want := []string{
		"https://cdn.example.com/require.js",
		"//fonts.example.com/css",
		"https://fonts.example.com/x.css",
		"https://img.example.com/b.png",
		"https://assets.example.com/echarts.min.js",
	}
	if got := remoteRefs(page); !reflect.DeepEqual(got, want) {
		t.Errorf("remoteRefs:\n got %q\nwant %q", got, want)
	}
}

func TestMathRE(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{`the mean $\mu$ of`, true},
		{"$$\nC = W W^T\n$$", true},
		{"costs $ 5 and $ 6", false},
		{"no math", false},
	} {
		if got := mathRE.MatchString(c.s); got != c.want {
			t.Errorf("mathRE(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestCaptionRE: the paper's figures (P2, no dot) are found as well as the
// book's and the added ones; the old pattern required a dot and lost them.
func TestCaptionRE(t *testing.T) {
	for _, c := range []struct{ html, want string }{
		{"<p><b>Figure 2.1.</b> A caption.", "2.1"},
		{"<p><b>Figure X5.3.</b> Added.", "X5.3"},
		{"<p><b>Figure P2.</b> The paper's graph.", "P2"},
		{"<p><b>Figure P10.</b> Two digits.", "P10"},
		{"<p>Figure 2.1 in prose.", ""},
	} {
		got := ""
		if m := captionRE.FindStringSubmatch(c.html); m != nil {
			got = m[1]
		}
		if got != c.want {
			t.Errorf("captionRE(%q) = %q, want %q", c.html, got, c.want)
		}
	}
}

// TestMarkdownInSmall: the notebooks' navigation line, Markdown inside
// <small>, becomes HTML links (nbconvert showed it as raw Markdown).
func TestMarkdownInSmall(t *testing.T) {
	in := "<small>[← Chapter 4 — Kernel PCA](04-kernel-pca.ipynb) · [Report](../figures/README.md) · **bold** and `code`</small>\n\nText [kept](x.md)."
	want := `<small class="book-nbnav"><a href="04-kernel-pca.ipynb">← Chapter 4 — Kernel PCA</a> · <a href="../figures/README.md">Report</a> · <strong>bold</strong> and <code>code</code></small>` +
		"\n\nText [kept](x.md)."
	if got := markdownInSmall(in); got != want {
		t.Errorf("markdownInSmall:\n got %s\nwant %s", got, want)
	}
	if got := markdownInSmall("<small>(paper Fig 8)</small>"); got != "<small>(paper Fig 8)</small>" {
		t.Errorf("plain <small> changed: %s", got)
	}
}

// TestFixInteractive: go-echarts' page gets the chart's title as its page
// title and the legend below the plot (it overlapped the chart's title).
func TestFixInteractive(t *testing.T) {
	in := `&lt;title&gt;Awesome go-echarts&lt;/title&gt; {&#34;legend&#34;:{},&#34;title&#34;:{&#34;text&#34;:&#34;Oil flow: PPCA (q = 2)&#34;}}`
	want := `&lt;title&gt;Oil flow: PPCA (q = 2)&lt;/title&gt; {&#34;legend&#34;:{&#34;top&#34;:&#34;bottom&#34;},&#34;title&#34;:{&#34;text&#34;:&#34;Oil flow: PPCA (q = 2)&#34;}}`
	if got := fixInteractive(in); got != want {
		t.Errorf("fixInteractive:\n got %s\nwant %s", got, want)
	}
}

// TestEmbedSVGFont: the SVG carries the font rule and every font-family
// gains the fallback stack; the rest is unchanged.
func TestEmbedSVGFont(t *testing.T) {
	svg := "<?xml version=\"1.0\"?>\n<svg width=\"1pt\"\n\txmlns=\"http://www.w3.org/2000/svg\">\n" +
		`<text style="font-family:Liberation Serif;font-size:12px">x</text><text style="font-family:Liberation Serif">y</text></svg>`
	got := string(embedSVGFont([]byte(svg), "@font-face{X}"))
	want := "<?xml version=\"1.0\"?>\n<svg width=\"1pt\"\n\txmlns=\"http://www.w3.org/2000/svg\">\n<defs><style>@font-face{X}</style></defs>\n" +
		`<text style="font-family:` + svgFontStack + `;font-size:12px">x</text><text style="font-family:` + svgFontStack + `">y</text></svg>`
	if got != want {
		t.Errorf("embedSVGFont:\n got %s\nwant %s", got, want)
	}
	if !strings.HasSuffix(svgFontStack, ",serif") {
		t.Errorf("font stack %q does not end in a generic family", svgFontStack)
	}
	if c := svgChars([][]byte{[]byte(`<text a="1">b&amp;a</text><text>ab</text>`)}); c != "&ab" {
		t.Errorf("svgChars = %q, want %q", c, "&ab")
	}
}

// TestBookOrder: the book's figures by number, then the paper's, then the added ones.
func TestBookOrder(t *testing.T) {
	figs := []figure{{ID: "P2"}, {ID: "X1.1", Kind: "added"}, {ID: "1.10"}, {ID: "P10"}, {ID: "2.1"}, {ID: "1.2"}, {ID: "X2.1", Kind: "added"}, {ID: "P9"}}
	bookOrder(figs)
	var got []string
	for _, f := range figs {
		got = append(got, f.ID)
	}
	want := []string{"1.2", "1.10", "2.1", "P2", "P9", "P10", "X1.1", "X2.1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("bookOrder: %v, want %v", got, want)
	}
}

// TestSectionDocs: a page is cut at its headings, the text without tags,
// scripts or the heading's anchor link.
func TestSectionDocs(t *testing.T) {
	page := `<head><h1 id="no">head</h1></head><body><h1 id="Top">Chapter 5<a class="anchor-link" href="#Top">¶</a></h1><p>Intro &amp; more</p>` +
		`<script>var x = 1;</script><h3 id="5.3-Maximum-entropy">5.3 Maximum <em>entropy</em></h3><p>The density.</p>`
	docs := sectionDocs("05.html", "Chapter 5", page)
	want := []searchDoc{
		{URL: "05.html#Top", Page: "Chapter 5", Title: "Chapter 5", Text: "Intro & more"},
		{URL: "05.html#5.3-Maximum-entropy", Page: "Chapter 5", Title: "5.3 Maximum entropy", Text: "The density."},
	}
	if !reflect.DeepEqual(docs, want) {
		t.Errorf("sectionDocs:\n got %+v\nwant %+v", docs, want)
	}
}

// TestRenderDetails: the Markdown inside a <details> element (the
// exercises' solutions) is rendered as nbconvert renders Markdown, maths
// left for MathJax; nbconvert alone passed it through as typed.
func TestRenderDetails(t *testing.T) {
	src := "Before.\n\n<details><summary><b>Exercise 2</b> — when?</summary>\n\n`highdim.EggMasses` is **fast**; $a_1*b_2$ [more](02-b.ipynb).\n\n</details>"
	nb := &notebook{Name: "01-x", JSON: map[string]any{"cells": []any{
		map[string]any{"cell_type": "markdown", "source": []any{src}},
	}}}
	n, err := renderDetails([]*notebook{nb})
	if err != nil {
		t.Skipf("nbconvert's Markdown filter unavailable: %v", err)
	}
	got := nbsrc.Text(nbsrc.CellMaps(nb.JSON)[0]["source"])
	want := "Before.\n\n<details><summary><b>Exercise 2</b> — when?</summary>\n" +
		`<p><code>highdim.EggMasses</code> is <strong>fast</strong>; $a_1*b_2$ <a href="02-b.ipynb">more</a>.</p>` + "\n</details>"
	if n != 1 || got != want {
		t.Errorf("renderDetails: %d rendered\n got %q\nwant %q", n, got, want)
	}
}

// A figure shown on two pages is anchored on the first only.
func TestFirstShown(t *testing.T) {
	claimed := map[string]bool{}
	file := func(id string) string {
		if id == "3.2" {
			return "figures/ch03/fig-3.02.svg"
		}
		return ""
	}
	chapter, lecture := firstShown(file, claimed), firstShown(file, claimed)
	if chapter("3.2") == "" || lecture("3.2") != "" || lecture("L3.1") != "" {
		t.Errorf("figure 3.2 anchored on a later page too, or a figure without a file claimed")
	}
}
