package main

import (
	"reflect"
	"strings"
	"testing"
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
	outs := nb.cells()[0]["outputs"].([]any)
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
	ifr := joinText(data(5)["text/html"])
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
