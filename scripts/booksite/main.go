// Command booksite renders the executed notebooks (notebooks/*.ipynb, with
// their outputs) into a static website: the book. It is run by scripts/book.
//
// The site has an index (chapters, figures, methods), one page per notebook
// in name order with previous/next navigation, the reproduction report
// (from figures/report.json) and the methods (the package documentation of
// dimred and its sub-packages). Figures are the reproduction's
// full-resolution files, SVG where there is one. Every asset is served from
// the site itself: MathJax from Debian's libjs-mathjax, the ECharts script
// of the interactive views from the npm package that scripts/setup installs
// in .cache/npm, so the site works offline and from any static file server.
// A build that would leave a page fetching anything from another host fails.
//
// Chapter pages are nbconvert's JupyterLab HTML export (Debian's
// jupyter-nbconvert) with the template in scripts/booksite/templates/book.
//
// Usage (from the repository root):
//
//	go run ./scripts/booksite [-out build/book] [-notebooks notebooks] [-report figures/report.json] [-serve localhost:8000]
//
// It writes pages.json, the list of pages and what each must show, for the
// browser test (scripts/booksite/book_test.go).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	out := flag.String("out", "build/book", "folder of the site (emptied first)")
	nbdir := flag.String("notebooks", "notebooks", "folder of executed notebooks")
	report := flag.String("report", "figures/report.json", "the reproduction report (its figure files are read from the current folder)")
	mathjax := flag.String("mathjax", "/usr/share/javascript/mathjax", "MathJax 2 folder (Debian's libjs-mathjax)")
	echarts := flag.String("echarts", ".cache/npm/node_modules/echarts/dist/echarts.min.js", "the ECharts script (npm package echarts)")
	serve := flag.String("serve", "", "after building, serve the site on this address (e.g. localhost:8000)")
	noBuild := flag.Bool("nobuild", false, "serve the existing site without building it")
	flag.Parse()
	log := func(format string, a ...any) { fmt.Fprintf(os.Stderr, "book: "+format+"\n", a...) }

	if !*noBuild {
		start := time.Now()
		s, err := build(config{out: *out, notebooks: *nbdir, report: *report, mathjax: *mathjax, echarts: *echarts})
		if err != nil {
			log("%v", err)
			os.Exit(1)
		}
		log("%d pages (%d chapters, %d figures, %d interactive views) in %s, %.1f s",
			s.Pages, s.Chapters, s.Figures, s.Interactive, filepath.Join(*out, "index.html"), time.Since(start).Seconds())
	}
	if *serve != "" {
		ln, err := net.Listen("tcp", *serve)
		if err != nil {
			log("%v", err)
			os.Exit(1)
		}
		log("serving %s on http://%s/ (Ctrl-C stops)", *out, ln.Addr())
		if err := http.Serve(ln, http.FileServer(http.Dir(*out))); err != nil {
			log("%v", err)
			os.Exit(1)
		}
	}
}

type config struct {
	out, notebooks, report, mathjax, echarts string
}

// manifest is pages.json: what the browser test must find on each page.
type manifest struct {
	Pages       []pageInfo `json:"pages"`
	Chapters    int        `json:"chapters"`
	Figures     int        `json:"figures"`
	Interactive int        `json:"interactive"`
}

type pageInfo struct {
	Path        string   `json:"path"`
	Title       string   `json:"title"`
	Chapter     bool     `json:"chapter"`     // a notebook page (screenshot taken)
	Math        bool     `json:"math"`        // has TeX formulas MathJax must typeset
	Interactive int      `json:"interactive"` // ECharts views that must draw a canvas
	Figures     []string `json:"figures,omitempty"`
}

type stats struct{ Pages, Chapters, Figures, Interactive int }

func build(c config) (stats, error) {
	var st stats
	paths, err := filepath.Glob(filepath.Join(c.notebooks, "*.ipynb"))
	if err != nil {
		return st, err
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return st, fmt.Errorf("no notebooks in %s", c.notebooks)
	}
	if _, err := exec.LookPath("jupyter-nbconvert"); err != nil {
		if _, err2 := exec.LookPath("jupyter"); err2 != nil {
			return st, errors.New("jupyter nbconvert is missing: run scripts/setup")
		}
	}
	if _, err := os.Stat(filepath.Join(c.mathjax, "MathJax.js")); err != nil {
		return st, fmt.Errorf("MathJax is missing (%v): run scripts/setup (Debian package libjs-mathjax)", err)
	}
	if _, err := os.Stat(c.echarts); err != nil {
		return st, fmt.Errorf("the ECharts script is missing (%v): run scripts/setup (npm package echarts)", err)
	}
	figs, err := readReport(c.report)
	if err != nil {
		return st, err
	}

	if err := os.RemoveAll(c.out); err != nil {
		return st, err
	}
	for _, d := range []string{"assets", "screenshots"} {
		if err := os.MkdirAll(filepath.Join(c.out, d), 0o755); err != nil {
			return st, err
		}
	}
	// Figures: every file the report names, under the same paths.
	for _, f := range figs {
		for _, file := range f.Files {
			if err := copyFile(file, filepath.Join(c.out, file)); err != nil {
				return st, err
			}
		}
	}
	figByID := map[string]*figure{}
	for i := range figs {
		figByID[figs[i].ID] = &figs[i]
	}
	figFile := func(id string) string {
		if f := figByID[id]; f != nil {
			return f.Best()
		}
		return ""
	}

	// Notebooks → chapter pages.
	var nbs []*notebook
	names := map[string]bool{}
	for _, p := range paths {
		nb, err := readNotebook(p)
		if err != nil {
			return st, err
		}
		nb.prepare(figFile)
		nbs = append(nbs, nb)
		names[nb.Name] = true
	}
	tmp, err := os.MkdirTemp("", "book-")
	if err != nil {
		return st, err
	}
	defer os.RemoveAll(tmp)
	var tmpPaths []string
	footer := "Dimensionality Reduction for Machine Learning — executable companion. Built " + time.Now().UTC().Format("2006-01-02") + "."
	for i, nb := range nbs {
		var prev, next *notebook
		if i > 0 {
			prev = nbs[i-1]
		}
		if i+1 < len(nbs) {
			next = nbs[i+1]
		}
		nb.setBook(prev, next, footer)
		p, err := nb.write(tmp)
		if err != nil {
			return st, err
		}
		tmpPaths = append(tmpPaths, p)
	}
	tmplDir, err := filepath.Abs("scripts/booksite/templates")
	if err != nil {
		return st, err
	}
	args := append([]string{"nbconvert", "--to", "html",
		"--TemplateExporter.extra_template_basedirs=" + tmplDir, "--template", "book",
		"--HTMLExporter.mathjax_url=mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
		"--output-dir", c.out}, tmpPaths...)
	cmd := exec.Command("jupyter", args...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return st, fmt.Errorf("jupyter nbconvert: %v\n%s", err, msg)
	}

	// The book's packages, for the methods page and for links to their docs.
	var pkgs []*pkgDoc
	for _, root := range []string{"dimred", "datasets", "figures"} {
		ps, err := readPackages(root)
		if err != nil {
			return st, err
		}
		pkgs = append(pkgs, ps...)
	}
	apiLinks := apiLinker(pkgs)

	man := manifest{}
	for _, nb := range nbs {
		p := filepath.Join(c.out, nb.Page())
		b, err := os.ReadFile(p)
		if err != nil {
			return st, err
		}
		page := apiLinks(rewriteLinks(string(b), names))
		if refs := remoteRefs(page); len(refs) > 0 {
			return st, fmt.Errorf("%s would fetch from the network: %s", nb.Page(), strings.Join(refs, ", "))
		}
		if err := os.WriteFile(p, []byte(page), 0o644); err != nil {
			return st, err
		}
		man.Pages = append(man.Pages, pageInfo{Path: nb.Page(), Title: nb.Title, Chapter: true,
			Math: nb.Math, Interactive: nb.Interactive, Figures: nb.Figures})
		man.Interactive += nb.Interactive
	}

	// Assets.
	if err := copyMathJax(c.mathjax, filepath.Join(c.out, "mathjax")); err != nil {
		return st, err
	}
	if err := copyFile(c.echarts, filepath.Join(c.out, localEChartsURL)); err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(c.out, "assets", "book.css"), bookCSS, 0o644); err != nil {
		return st, err
	}

	// Index, report and methods pages.
	figPage := map[string]string{}
	for _, nb := range nbs {
		for _, id := range nb.Figures {
			if _, ok := figPage[id]; !ok {
				figPage[id] = nb.Page()
			}
		}
	}
	site := &siteData{Chapters: nbs, Figures: figs, FigurePage: figPage, Packages: pkgs, Footer: footer}
	for _, p := range []struct{ file, title string }{
		{"index.html", "Contents"}, {"report.html", "Reproduction report"}, {"methods.html", "Methods"},
	} {
		if err := site.write(filepath.Join(c.out, p.file), p.file, p.title); err != nil {
			return st, err
		}
		man.Pages = append(man.Pages, pageInfo{Path: p.file, Title: p.title})
	}
	man.Chapters = len(nbs)
	man.Figures = len(figs)
	mb, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(c.out, "pages.json"), mb, 0o644); err != nil {
		return st, err
	}
	return stats{Pages: len(man.Pages), Chapters: len(nbs), Figures: len(figs), Interactive: man.Interactive}, nil
}

// copyFile copies src to dst, making dst's folder.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// mathJaxFiles are the parts of MathJax 2 that the configuration
// TeX-AMS_CHTML-full,Safe loads: TeX input, CommonHTML output with the TeX
// web fonts, the extensions (menu, zoom, AMS, Safe, …).
var mathJaxFiles = []string{
	"MathJax.js",
	"config/TeX-AMS_CHTML-full.js",
	"config/Safe.js",
	"extensions",
	"jax/input/TeX",
	"jax/element",
	"jax/output/CommonHTML",
	"fonts/HTML-CSS/TeX/woff",
	"fonts/HTML-CSS/TeX/otf",
}

// copyMathJax copies mathJaxFiles from src to dst, following symbolic
// links (Debian links some of MathJax's files from other packages).
func copyMathJax(src, dst string) error {
	var walk func(rel string) error
	walk = func(rel string) error {
		fi, err := os.Stat(filepath.Join(src, rel))
		if err != nil {
			return fmt.Errorf("MathJax: %w", err)
		}
		if !fi.IsDir() {
			return copyFile(filepath.Join(src, rel), filepath.Join(dst, rel))
		}
		ents, err := os.ReadDir(filepath.Join(src, rel))
		if err != nil {
			return err
		}
		for _, e := range ents {
			if err := walk(filepath.Join(rel, e.Name())); err != nil {
				return err
			}
		}
		return nil
	}
	for _, f := range mathJaxFiles {
		if err := walk(f); err != nil {
			return err
		}
	}
	return nil
}
