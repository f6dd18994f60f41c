package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"strings"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

// The notebooks' exercise solutions are folded in <details> elements:
//
//	<details><summary>Exercise 2 — …</summary>
//
//	Markdown …
//
//	</details>
//
// JupyterLab renders the Markdown inside; nbconvert's renderer (mistune
// 0.8) passes the whole element through as raw HTML, so the site showed
// `code`, **bold** and [links](…) as typed. scripts/book renders the
// inside with nbconvert's own Markdown filter (the one that renders every
// other cell, maths protected for MathJax) before the export.

// detailsRE matches a <details> element with its <summary>: the opening,
// the Markdown inside, the closing.
var detailsRE = regexp.MustCompile(`(?s)(<details[^>]*>\s*<summary>.*?</summary>)(.*?)(</details>)`)

// renderMarkdownPy renders a JSON list of Markdown strings to a JSON list
// of HTML strings with nbconvert's markdown2html_mistune.
const renderMarkdownPy = `import json, sys
from nbconvert.filters.markdown_mistune import markdown2html_mistune
json.dump([markdown2html_mistune(s) for s in json.load(sys.stdin)], sys.stdout)`

// markdownToHTML renders Markdown strings as nbconvert does. The python is
// the one that runs jupyter (Debian's; a python3 earlier on PATH may lack
// nbconvert).
func markdownToHTML(mds []string) ([]string, error) {
	if len(mds) == 0 {
		return nil, nil
	}
	in, err := json.Marshal(mds)
	if err != nil {
		return nil, err
	}
	var last error
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		cmd := exec.Command(py, "-c", renderMarkdownPy)
		cmd.Stdin = strings.NewReader(string(in))
		out, err := cmd.Output()
		if err != nil {
			last = fmt.Errorf("%s: rendering Markdown with nbconvert: %v", py, err)
			continue
		}
		var html []string
		if err := json.Unmarshal(out, &html); err != nil || len(html) != len(mds) {
			last = fmt.Errorf("%s: rendering Markdown with nbconvert: %d results for %d (%v)", py, len(html), len(mds), err)
			continue
		}
		return html, nil
	}
	return nil, last
}

// renderDetails renders the Markdown inside the <details> elements of
// every notebook's Markdown cells (see above). It returns how many.
func renderDetails(nbs []*notebook) (int, error) {
	var cells []map[string]any
	var mds []string
	for _, nb := range nbs {
		for _, c := range nbsrc.CellMaps(nb.JSON) {
			if c["cell_type"] != "markdown" {
				continue
			}
			src := nbsrc.Text(c["source"])
			ms := detailsRE.FindAllStringSubmatch(src, -1)
			if ms == nil {
				continue
			}
			cells = append(cells, c)
			for _, m := range ms {
				mds = append(mds, m[2])
			}
		}
	}
	html, err := markdownToHTML(mds)
	if err != nil {
		return 0, err
	}
	i := 0
	for _, c := range cells {
		c["source"] = detailsRE.ReplaceAllStringFunc(nbsrc.Text(c["source"]), func(s string) string {
			m := detailsRE.FindStringSubmatch(s)
			h := html[i]
			i++
			return m[1] + "\n" + strings.TrimSpace(h) + "\n" + m[3]
		})
	}
	return len(mds), nil
}
