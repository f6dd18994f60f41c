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

	"github.com/dimredbook/book/scripts/internal/editions"
	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

func main() {
	out := flag.String("out", "build/book", "folder of the site (emptied first)")
	nbdir := flag.String("notebooks", "notebooks", "folder of executed notebooks")
	report := flag.String("report", "figures/report.json", "the reproduction report (its figure files are read from the current folder)")
	mathjax := flag.String("mathjax", "/usr/share/javascript/mathjax", "MathJax 2 folder (Debian's libjs-mathjax)")
	echarts := flag.String("echarts", ".cache/npm/node_modules/echarts/dist/echarts.min.js", "the ECharts script (npm package echarts)")
	minisearch := flag.String("minisearch", ".cache/npm/node_modules/minisearch/dist/umd/index.js", "the MiniSearch script of the search page (npm package minisearch)")
	darkTheme := flag.String("dark-theme", "", "JupyterLab's dark theme variables (nbconvert's lab/static/theme-dark.css; found with jupyter --paths when empty)")
	pdf := flag.Bool("pdf", false, "also print the whole book to book.pdf with headless Chromium")
	pdfTest := flag.Bool("pdf-test", false, "link book.pdf, which the browser test prints from the chapters it typesets")
	serve := flag.String("serve", "", "after building, serve the site on this address (e.g. localhost:8000)")
	noBuild := flag.Bool("nobuild", false, "serve the existing site without building it")
	flag.Parse()
	log := func(format string, a ...any) { fmt.Fprintf(os.Stderr, "book: "+format+"\n", a...) }

	if !*noBuild {
		start := time.Now()
		s, err := build(config{out: *out, notebooks: *nbdir, report: *report, mathjax: *mathjax, echarts: *echarts,
			minisearch: *minisearch, darkTheme: *darkTheme, pdf: *pdf, pdfTest: *pdfTest})
		if err != nil {
			log("%v", err)
			os.Exit(1)
		}
		log("%d pages (%d chapters, %d figures, %d interactive views; SVG font: %s) in %s, %.1f s",
			s.Pages, s.Chapters, s.Figures, s.Interactive, s.Font, filepath.Join(*out, "index.html"), time.Since(start).Seconds())
		if *pdf {
			log("book.pdf printed in %.1f s", s.PDFSeconds)
		}
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
	out, notebooks, report, mathjax, echarts, minisearch, darkTheme string
	pdf                                                             bool // print book.pdf
	pdfTest                                                         bool // the browser test prints book.pdf
}

// manifest is pages.json: what the browser test must find on each page.
type manifest struct {
	Pages       []pageInfo `json:"pages"`
	Chapters    int        `json:"chapters"`
	Figures     int        `json:"figures"`
	Interactive int        `json:"interactive"`
	SearchDocs  int        `json:"search_docs"`
	Sources     int        `json:"sources"`       // source pages
	PDF         string     `json:"pdf,omitempty"` // the printed book, when printed
}

type pageInfo struct {
	Path        string   `json:"path"`
	Title       string   `json:"title"`
	Chapter     bool     `json:"chapter"`     // a notebook page (screenshot taken)
	Math        bool     `json:"math"`        // has TeX formulas MathJax must typeset
	Interactive int      `json:"interactive"` // ECharts views that must draw a canvas
	Figures     []string `json:"figures,omitempty"`
	Anchors     []string `json:"anchors,omitempty"` // figures with an anchor on the page (report files)
}

type stats struct {
	Pages, Chapters, Figures, Interactive int
	Font                                  string  // how the SVGs' font is embedded
	PDFSeconds                            float64 // time to print book.pdf
}

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
	if _, err := os.Stat(c.minisearch); err != nil {
		return st, fmt.Errorf("the MiniSearch script is missing (%v): run scripts/setup (npm package minisearch)", err)
	}
	darkCSS, err := darkThemeCSS(c.darkTheme)
	if err != nil {
		return st, err
	}
	figs, err := readReport(c.report)
	if err != nil {
		return st, err
	}
	bookOrder(figs)
	legend, err := readLegend(filepath.Join(filepath.Dir(c.report), "README.md"))
	if err != nil {
		return st, err
	}
	srcDir := filepath.Join(filepath.Dir(c.notebooks), filepath.Base(c.notebooks), "src")

	if err := os.RemoveAll(c.out); err != nil {
		return st, err
	}
	for _, d := range []string{"assets", "screenshots"} {
		if err := os.MkdirAll(filepath.Join(c.out, d), 0o755); err != nil {
			return st, err
		}
	}
	// Figures: every file the report names, under the same paths, the SVGs
	// with their font embedded (svgfont.go).
	var files []string
	for _, f := range figs {
		files = append(files, f.Files...)
	}
	fontHow, err := copyFigures(files, c.out)
	if err != nil {
		return st, err
	}
	st.Font = fontHow
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
	var sources []string // files with a source page
	names := map[string]bool{}
	claimed := map[string]bool{} // figures already anchored on an earlier page
	for _, p := range paths {
		nb, err := readNotebook(p)
		if err != nil {
			return st, err
		}
		parts, err := readParts(srcDir, nb.Name)
		if err != nil {
			return st, err
		}
		sources = append(sources, nb.linkSources(parts)...)
		nb.prepare(firstShown(figFile, claimed))
		nbs = append(nbs, nb)
		names[nb.Name] = true
	}
	// Solutions notebooks (notebooks/solutions/NN-name-solutions.ipynb):
	// pages of their own, linked from each exercise and from the index,
	// outside the chapters' previous/next sequence; each heading links to
	// its part file, the chapter's 95-solutions.nb.
	solPaths, err := filepath.Glob(filepath.Join(c.notebooks, editions.SolutionsDir, "*.ipynb"))
	if err != nil {
		return st, err
	}
	sort.Strings(solPaths)
	var sols []*notebook
	solOf := map[*notebook]*notebook{} // solutions → chapter
	for _, p := range solPaths {
		nb, err := readNotebook(p)
		if err != nil {
			return st, err
		}
		chapter := strings.TrimSuffix(nb.Name, "-solutions")
		parts, err := readParts(srcDir, chapter)
		if err != nil {
			return st, err
		}
		var solParts []partFile
		for _, pf := range parts {
			if filepath.Base(pf.Path) == nbsrc.SolutionsPart {
				solParts = append(solParts, pf)
			}
		}
		sources = append(sources, nb.linkSources(solParts)...)
		nb.prepare(figFile)
		for _, ch := range nbs {
			if ch.Name == chapter {
				solOf[nb] = ch
			}
		}
		sols = append(sols, nb)
		names[nb.Name] = true
	}
	if _, err := renderDetails(append(append([]*notebook{}, nbs...), sols...)); err != nil {
		return st, err
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
	for _, nb := range sols {
		nb.setBook(solOf[nb], nil, footer) // back to the chapter's exercises
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
	for i, nb := range append(append([]*notebook{}, nbs...), sols...) {
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
		man.Pages = append(man.Pages, pageInfo{Path: nb.Page(), Title: nb.Title, Chapter: i < len(nbs),
			Math: nb.Math, Interactive: nb.Interactive, Figures: nb.Figures, Anchors: nb.Anchors})
		man.Interactive += nb.Interactive
	}

	// Assets.
	if err := copyMathJax(c.mathjax, filepath.Join(c.out, "mathjax")); err != nil {
		return st, err
	}
	if err := copyFile(c.echarts, filepath.Join(c.out, localEChartsURL)); err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(c.out, "assets", "book.css"), append(append([]byte{}, bookCSS...), darkCSS...), 0o644); err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(c.out, "assets", "book.js"), bookJS, 0o644); err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(c.out, "assets", "search.js"), searchJS, 0o644); err != nil {
		return st, err
	}
	if err := copyFile(c.minisearch, filepath.Join(c.out, "assets", "minisearch.js")); err != nil {
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
	pageTitle := map[string]string{}
	for _, nb := range nbs {
		pageTitle[nb.Page()] = nb.Title
	}
	funcs, err := funcLines("figures")
	if err != nil {
		return st, err
	}
	funcSource := map[string]string{}
	srcFiles := map[string]bool{}
	for _, f := range figs {
		if loc, ok := funcs[f.FuncName()]; ok && f.Function != "" {
			file, line, _ := strings.Cut(loc, "#")
			funcSource[f.FuncName()] = sourcePage(file) + "#" + line
			srcFiles[file] = true
		}
	}
	for f := range srcFiles {
		sources = append(sources, f)
	}
	sort.Strings(sources)
	// The two editions of the notebooks, for a teacher to hand out.
	downloads, err := writeEditions(c.notebooks, c.out)
	if err != nil {
		return st, err
	}
	var contents *notebook
	for _, nb := range nbs {
		if nb.Name == "00-contents" {
			contents = nb
		}
	}
	site := &siteData{Chapters: nbs, Solutions: sols, Downloads: downloads, Guide: courseGuide(contents), Figures: figs, FigurePage: figPage, PageTitle: pageTitle, FuncSource: funcSource,
		Packages: pkgs, Legend: legend, Footer: footer, PDF: c.pdf || c.pdfTest}
	for _, p := range []struct{ file, title string }{
		{"index.html", "Contents"}, {"report.html", "Reproduction report"}, {"methods.html", "Methods"}, {"search.html", "Search"},
	} {
		if err := site.write(filepath.Join(c.out, p.file), p.file, p.title); err != nil {
			return st, err
		}
		man.Pages = append(man.Pages, pageInfo{Path: p.file, Title: p.title})
	}
	for _, f := range sources {
		if err := site.writeSourcePage(c.out, f); err != nil {
			return st, err
		}
	}

	// The search index: chapter sections, report figures, packages and their names.
	var docs []searchDoc
	for _, nb := range append(append([]*notebook{}, nbs...), sols...) {
		b, err := os.ReadFile(filepath.Join(c.out, nb.Page()))
		if err != nil {
			return st, err
		}
		docs = append(docs, sectionDocs(nb.Page(), nb.Title, string(b))...)
	}
	for _, f := range figs {
		docs = append(docs, searchDoc{URL: "report.html#" + f.Anchor(), Page: "Reproduction report",
			Title: "Figure " + f.ID, Text: f.Caption + " " + f.Why + " Status: " + f.Status + ". Data: " + f.Data + "."})
	}
	for _, p := range pkgs {
		docs = append(docs, searchDoc{URL: "methods.html#" + p.Anchor(), Page: "Methods",
			Title: "package " + p.Path, Text: plainText(string(p.Doc))})
		for _, it := range p.Items {
			docs = append(docs, searchDoc{URL: "methods.html#" + it.ID, Page: "Methods — package " + p.Path,
				Title: p.Name + "." + it.Name, Text: it.Kind + " " + it.Name + ": " + it.Synopsis})
		}
	}
	ib, err := searchIndexJS(docs)
	if err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(c.out, "assets", "search-index.js"), ib, 0o644); err != nil {
		return st, err
	}
	man.SearchDocs = len(docs)

	// The book as one page, and printed.
	if err := writePrintPage(c.out, nbs, "Built "+time.Now().UTC().Format("2 January 2006")+"."); err != nil {
		return st, err
	}
	if c.pdf {
		t := time.Now()
		if err := printPDF(c.out, nbs); err != nil {
			return st, err
		}
		st.PDFSeconds = time.Since(t).Seconds()
	}
	if c.pdf || c.pdfTest {
		man.PDF = "book.pdf"
	}
	man.Sources = len(sources)
	man.Chapters = len(nbs)
	man.Figures = len(figs)
	mb, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(c.out, "pages.json"), mb, 0o644); err != nil {
		return st, err
	}
	st.Pages, st.Chapters, st.Figures, st.Interactive = len(man.Pages), len(nbs), len(figs), man.Interactive
	return st, nil
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

// firstShown wraps figFile so that a figure gets its anchor and
// full-resolution file on the first page that shows it only (a chapter,
// whose section the report and the index link to); a later page showing
// the same figure (a lecture replaying the book's figure) keeps the
// notebook's PNG and no anchor.
func firstShown(figFile func(id string) string, claimed map[string]bool) func(id string) string {
	return func(id string) string {
		if claimed[id] {
			return ""
		}
		f := figFile(id)
		if f != "" {
			claimed[id] = true
		}
		return f
	}
}
