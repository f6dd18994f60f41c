package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"html"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

//go:embed book.css
var bookCSS []byte

// figure is one row of figures/report.json (written by scripts/reproduce).
type figure struct {
	ID      string   `json:"id"`
	Chapter int      `json:"chapter"`
	Caption string   `json:"caption"`
	Data    string   `json:"data"`
	Status  string   `json:"status"`
	Why     string   `json:"why"`
	Numbers []number `json:"numbers"`
	Files   []string `json:"files"`

	Kind     string `json:"kind"`     // "book" or "added"
	Function string `json:"function"` // import path and name of the function that draws it
}

// FuncName is the name of the function that draws the figure
// ("Fig1_1EggMass1D").
func (f *figure) FuncName() string {
	return f.Function[strings.LastIndex(f.Function, ".")+1:]
}

// group is the figure's part of the report: the book's figures, the
// spectral paper's (ids P…), the figures added beyond the book (ids X…).
func (f *figure) group() int {
	switch {
	case strings.HasPrefix(f.ID, "P"):
		return 1
	case strings.HasPrefix(f.ID, "X") || f.Kind == "added":
		return 2
	}
	return 0
}

// bookOrder sorts figures as a reader meets them: the book's 1.1 … 7.x,
// then the paper's P2 … P9, then the added X1.1 … X7.x, numerically.
func bookOrder(figs []figure) {
	key := func(f *figure) []int {
		k := []int{f.group()}
		for _, p := range strings.Split(strings.TrimLeft(f.ID, "PX"), ".") {
			n, _ := strconv.Atoi(p)
			k = append(k, n)
		}
		return k
	}
	sort.SliceStable(figs, func(i, j int) bool {
		a, b := key(&figs[i]), key(&figs[j])
		for x := 0; x < len(a) && x < len(b); x++ {
			if a[x] != b[x] {
				return a[x] < b[x]
			}
		}
		return len(a) < len(b)
	})
}

type number struct {
	Name      string   `json:"name"`
	Source    string   `json:"source"` // "book" or "reference", where the report says
	Cite      string   `json:"cite"`
	Book      *float64 `json:"book"`
	Reference *float64 `json:"reference"`
	Ours      *float64 `json:"ours"`
	Tol       *float64 `json:"tol"`
}

// Against is the number ours is compared with: the book's, else the
// independent reference value.
func (n number) Against() *float64 {
	if n.Book != nil {
		return n.Book
	}
	return n.Reference
}

// Best is the figure's file at full resolution: the SVG, else the first file.
func (f *figure) Best() string {
	for _, p := range f.Files {
		if strings.HasSuffix(p, ".svg") {
			return p
		}
	}
	if len(f.Files) > 0 {
		return f.Files[0]
	}
	return ""
}

// Anchor is the figure's HTML id on chapter and report pages.
func (f *figure) Anchor() string { return figureAnchor(f.ID) }

// GitHubAnchor is the id GitHub gives the heading "Figure 2.1" of
// figures/README.md ("figure-21"), which notebooks link to.
func (f *figure) GitHubAnchor() string { return githubSlug("Figure " + f.ID) }

// githubSlug is GitHub's heading id: lower case, letters, digits, spaces
// as '-', '-' and '_' kept, everything else dropped.
func githubSlug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func readReport(path string) ([]figure, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the reproduction report: %w (scripts/reproduce writes it)", err)
	}
	var figs []figure
	if err := json.Unmarshal(b, &figs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return figs, nil
}

// pkgDoc is one package's documentation for the methods page.
type pkgDoc struct {
	Path       string // relative to the module, e.g. "dimred"
	ImportPath string
	Name       string
	Synopsis   string
	Doc        template.HTML
	Items      []item
}

type item struct {
	Kind, Name, Synopsis string
	ID                   string // HTML id: the package's anchor, ".", the name
}

// Anchor is the package's HTML id on the methods page.
func (p *pkgDoc) Anchor() string { return "pkg-" + strings.ReplaceAll(p.Path, "/", "-") }

const modulePath = "github.com/dimredbook/book"

// readPackages reads the Go documentation of the package in root and every
// package below it, internal ones excepted.
func readPackages(root string) ([]*pkgDoc, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "internal" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var pkgs []*pkgDoc
	for _, dir := range dirs {
		fset := token.NewFileSet()
		paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		var files []*ast.File
		for _, p := range paths {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		if len(files) == 0 {
			continue
		}
		p, err := doc.NewFromFiles(fset, files, modulePath+"/"+filepath.ToSlash(dir))
		if err != nil {
			return nil, err
		}
		pd := &pkgDoc{Path: filepath.ToSlash(dir), Name: p.Name, Synopsis: p.Synopsis(p.Doc)}
		add := func(kind, name, doc string) {
			pd.Items = append(pd.Items, item{kind, name, p.Synopsis(doc), pd.Anchor() + "." + name})
		}
		values := func(kind string, vs []*doc.Value) {
			for _, v := range vs {
				for _, n := range v.Names {
					if token.IsExported(n) {
						add(kind, n, v.Doc)
					}
				}
			}
		}
		values("const", p.Consts)
		values("var", p.Vars)
		for _, f := range p.Funcs {
			add("func", f.Name, f.Doc)
		}
		for _, t := range p.Types {
			add("type", t.Name, t.Doc)
			values("const", t.Consts)
			values("var", t.Vars)
			for _, f := range t.Funcs {
				add("func", f.Name, f.Doc)
			}
		}
		pr := p.Printer()
		pr.HeadingID = func(h *comment.Heading) string { return pd.Anchor() + "-hdr-" + h.DefaultID() }
		pr.DocLinkURL = func(l *comment.DocLink) string {
			// Links within the book's packages go to the methods page; others to their docs.
			path := l.ImportPath
			if path == "" {
				path = pd.ImportPath
			}
			name := l.Name
			if l.Recv != "" {
				name = l.Recv
			}
			if rel, ok := strings.CutPrefix(path, modulePath+"/"); ok {
				a := (&pkgDoc{Path: rel}).Anchor()
				if name != "" {
					a += "." + name
				}
				return "#" + a
			}
			return l.DefaultURL("https://pkg.go.dev/")
		}
		pd.ImportPath = modulePath + "/" + pd.Path
		pd.Doc = template.HTML(pr.HTML(p.Parser().Parse(p.Doc)))
		sort.SliceStable(pd.Items, func(i, j int) bool { return pd.Items[i].Name < pd.Items[j].Name })
		pkgs = append(pkgs, pd)
	}
	return pkgs, nil
}

// siteData is what the index, report and methods pages show.
type siteData struct {
	Chapters   []*notebook
	Solutions  []*notebook       // the solutions notebooks' pages
	Downloads  []download        // the editions of the notebooks
	Guide      template.HTML     // the course guide's session table (from the contents notebook)
	Figures    []figure          // in book order
	FigurePage map[string]string // figure id → the chapter page showing it
	PageTitle  map[string]string // chapter page → its title
	FuncSource map[string]string // function name → its source page and line anchor
	Packages   []*pkgDoc
	Legend     []template.HTML // the report's summary and definitions (figures/README.md)
	Footer     string

	Page, Title string
	Root        string      // the way from the page to the site's root ("" or "../…")
	Source      *sourceData // on a source page
	PDF         bool        // the book is printed to book.pdf
}

// FigureGroups are the report's parts, in order.
func (s *siteData) FigureGroups() []figureGroup {
	gs := []figureGroup{
		{ID: "book-figures", Title: "The book's figures"},
		{ID: "paper-figures", Title: "The spectral paper's figures"},
		{ID: "added-figures", Title: "Figures added beyond the book"},
	}
	for _, f := range s.Figures {
		g := &gs[f.group()]
		g.Figures = append(g.Figures, f)
	}
	var out []figureGroup
	for _, g := range gs {
		if len(g.Figures) > 0 {
			out = append(out, g)
		}
	}
	return out
}

type figureGroup struct {
	ID, Title string
	Figures   []figure
}

// HasSources tells whether the report names each number's source and
// reference value (newer reports do); the report page shows those columns
// only then.
func (s *siteData) HasSources() bool {
	for _, f := range s.Figures {
		for _, n := range f.Numbers {
			if n.Source != "" || n.Reference != nil {
				return true
			}
		}
	}
	return false
}

// Counts is the report's summary: figures per status.
func (s *siteData) Counts() string {
	n := map[string]int{}
	var order []string
	for _, f := range s.Figures {
		if n[f.Status] == 0 {
			order = append(order, f.Status)
		}
		n[f.Status]++
	}
	var parts []string
	for _, st := range order {
		parts = append(parts, fmt.Sprintf("%d %s", n[st], st))
	}
	return strings.Join(parts, ", ") + fmt.Sprintf(" (of %d figures)", len(s.Figures))
}

func (s *siteData) write(path, page, title string) error {
	d := *s
	d.Page, d.Title = page, title
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pages.ExecuteTemplate(f, page, &d); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", page, err)
	}
	return f.Close()
}

func formatNumber(v *float64) string {
	if v == nil || math.IsNaN(*v) {
		return "—"
	}
	return fmt.Sprintf("%.6g", *v)
}

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"num": formatNumber,
	"inc": func(i int) int { return i + 1 },
	"agrees": func(n number) string {
		a := n.Against()
		if a == nil || n.Ours == nil || n.Tol == nil {
			return ""
		}
		if math.Abs(*a-*n.Ours) <= *n.Tol {
			return "yes"
		}
		return "no"
	},
}).Parse(`
{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{{.Title}} — Dimensionality Reduction for Machine Learning</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{{.Root}}assets/book.css">
<script src="{{.Root}}assets/book.js"></script>
</head>
<body class="book-page">
<nav class="book-nav book-nav-top" data-root="{{.Root}}">
  <span class="book-prev"></span>
  <span class="book-home"><a href="{{.Root}}index.html">Contents</a> · <a href="{{.Root}}report.html">Reproduction report</a> · <a href="{{.Root}}methods.html">Methods</a></span>
  <span class="book-next"></span>
</nav>
<main class="book-main">
{{end}}

{{define "foot"}}
</main>
<footer class="book-footer">{{.Footer}}</footer>
</body>
</html>
{{end}}

{{define "index.html"}}{{template "head" .}}
<h1>Dimensionality Reduction for Machine Learning</h1>
<p class="book-lede">An executable companion to Neil D. Lawrence's draft book: every chapter is a Go notebook,
executed, with the book's figures reproduced and the book's numbers set beside ours.{{if .PDF}}
The whole book is also one <a href="book.pdf">PDF</a>.{{end}} <a href="search.html">Search</a> finds any section, figure or method.</p>

<h2 id="chapters">Chapters</h2>
<ul class="book-chapters">
{{range .Chapters}}<li><a href="{{.Page}}">{{.Title}}</a>{{if .Figures}} <span class="book-meta">{{len .Figures}} figures{{if .Interactive}}, {{.Interactive}} interactive{{end}}</span>{{end}}</li>
{{end}}</ul>

<h2 id="teaching">Teaching</h2>
<p>The notebooks carry a course: lecture notebooks and chapters presented live, exercises at the end of every chapter,
worked solutions apart from the questions, and a check that tells a student whether a numerical answer is right without showing it.
The <a href="00-contents.html#Course-guide">course guide</a> in the contents says what to install and how to run it for a class.</p>
{{with .Downloads}}<p>Download the notebooks, executed: {{range $i, $d := .}}{{if $i}} · {{end}}<a href="{{$d.Path}}">{{$d.Title}}</a> <span class="book-meta">({{$d.Size}})</span>{{end}}.
Unpacked at the root of a clone of the repository, either replaces its <code>notebooks</code> folder.</p>
{{end}}{{.Guide}}
{{with .Solutions}}<p>Worked solutions: {{range $i, $s := .}}{{if $i}} · {{end}}<a href="{{$s.Page}}">{{$s.Title}}</a>{{end}}.</p>
{{end}}
<h2 id="figures">Figures</h2>
{{range .Legend}}<p>{{.}}</p>
{{end}}<p>The <a href="report.html">reproduction report</a> has every figure with its numbers.</p>
{{range $g := .FigureGroups}}<h3 id="index-{{$g.ID}}">{{$g.Title}}</h3>
<table class="book-figures">
<tr><th>figure</th><th>status</th><th>shown in</th><th>caption</th></tr>
{{range $f := $g.Figures}}<tr><td><a href="report.html#{{$f.Anchor}}">{{$f.ID}}</a></td><td class="status-{{$f.Status}}">{{$f.Status}}</td>
<td>{{with index $.FigurePage $f.ID}}<a href="{{.}}#{{$f.Anchor}}">{{.}}</a>{{end}}</td><td>{{$f.Caption}}</td></tr>
{{end}}</table>
{{end}}

<h2 id="methods">Methods</h2>
<ul>
{{range .Packages}}<li><a href="methods.html#{{.Anchor}}"><code>{{.Path}}</code></a> — {{.Synopsis}}</li>
{{end}}</ul>
{{template "foot" .}}{{end}}

{{define "report.html"}}{{template "head" .}}
<h1>Reproduction report</h1>
{{range .Legend}}<p>{{.}}</p>
{{end}}<p>Every number in the <em>ours</em> column is computed when the report is written by <code>scripts/reproduce</code>;
the <em>agrees</em> column compares it with the book's number (else the reference value) within the tolerance.</p>
<nav class="book-toc" id="contents" aria-label="Figures">
{{range $g := .FigureGroups}}<h2 id="{{$g.ID}}">{{$g.Title}} <span class="book-meta">({{len $g.Figures}})</span></h2>
<p class="book-toc-ids">{{range $g.Figures}}<a class="status-{{.Status}}" href="#{{.Anchor}}" title="{{.Status}}">{{.ID}}</a> {{end}}</p>
{{end}}</nav>
{{range $f := .Figures}}
<section class="book-report-figure" id="{{.Anchor}}">
<h2{{if ne .GitHubAnchor .Anchor}} id="{{.GitHubAnchor}}"{{end}}>Figure {{.ID}} <a class="book-top" href="#contents" title="back to the list of figures">↑</a></h2>
<p>{{.Caption}}</p>
<p><em>Data:</em> {{.Data}}. <em>Status:</em> <strong class="status-{{.Status}}">{{.Status}}</strong>.
{{with index $.FigurePage $f.ID}}Shown in <a href="{{.}}#{{$f.Anchor}}">{{index $.PageTitle .}}</a>.{{end}}
{{if $f.Function}}Drawn by {{with index $.FuncSource $f.FuncName}}<a class="book-func" href="{{.}}"><code>figures.{{$f.FuncName}}</code></a>{{else}}<code>figures.{{$f.FuncName}}</code>{{end}} (<a href="methods.html#pkg-figures.{{$f.FuncName}}">documentation</a>).{{end}}</p>
{{if .Why}}<p><em>{{.Why}}</em></p>{{end}}
{{with $f.Best}}<figure class="book-figure"><a href="{{.}}"><img src="{{.}}" alt="Figure {{$f.ID}}"></a></figure>{{end}}
<p class="book-files">{{range .Files}}<a href="{{.}}">{{.}}</a> {{end}}</p>
{{if .Numbers}}<table class="book-numbers">
<tr><th>quantity</th><th>book</th>{{if $.HasSources}}<th>reference</th>{{end}}<th>ours</th><th>tolerance</th><th>agrees</th>{{if $.HasSources}}<th>source</th>{{end}}</tr>
{{range .Numbers}}<tr><td>{{.Name}}</td><td>{{num .Book}}</td>{{if $.HasSources}}<td>{{num .Reference}}</td>{{end}}<td>{{num .Ours}}</td><td>{{num .Tol}}</td><td>{{agrees .}}</td>{{if $.HasSources}}<td>{{.Source}}{{if .Cite}} ({{.Cite}}){{end}}</td>{{end}}</tr>
{{end}}</table>{{end}}
</section>
{{end}}
{{template "foot" .}}{{end}}

{{define "methods.html"}}{{template "head" .}}
<h1>Methods</h1>
<p>The Go packages of the companion, from their documentation: the methods (<code>dimred</code> and the packages beneath it), the data sets and the figures.</p>
{{range $p := .Packages}}
<section class="book-package" id="{{.Anchor}}">
<h2>package {{.Name}} <code class="book-meta">{{.Path}}</code></h2>
<div class="book-doc">{{.Doc}}</div>
{{if .Items}}<h3>Index</h3>
<dl class="book-items">
{{range .Items}}<dt id="{{.ID}}"><code>{{.Kind}} {{.Name}}</code>{{if and (eq $p.Path "figures") (eq .Kind "func")}}{{with index $.FuncSource .Name}} <a class="book-func" href="{{.}}">source</a>{{end}}{{end}}</dt><dd>{{.Synopsis}}</dd>
{{end}}</dl>{{end}}
</section>
{{end}}
{{template "foot" .}}{{end}}

{{define "search.html"}}{{template "head" .}}
<h1>Search</h1>
<form class="book-search-page" action="search.html" role="search">
<input type="search" id="book-q" name="q" placeholder="Search the book" aria-label="Search the book" autofocus>
</form>
<p id="book-search-status" class="book-meta"></p>
<ol id="book-results" class="book-results"></ol>
<script src="assets/minisearch.js"></script>
<script src="assets/search-index.js"></script>
<script src="assets/search.js"></script>
{{template "foot" .}}{{end}}

{{define "source.html"}}{{template "head" .}}
<h1><code>{{.Source.Path}}</code></h1>
<p class="book-meta">The source file, as in the repository.</p>
<pre class="book-src"><code>{{range $i, $l := .Source.Lines}}<span class="book-line" id="L{{inc $i}}">{{$l}}</span>
{{end}}</code></pre>
{{template "foot" .}}{{end}}
`))

// docLinkRE matches links to the book's packages' documentation on
// pkg.go.dev, as the notebooks write them.
var docLinkRE = regexp.MustCompile(`href="https://pkg\.go\.dev/` + regexp.QuoteMeta(modulePath) + `(/[^"#]*)?(?:#([^"]*))?"`)

// apiLinker returns a function that points links to the documentation of
// the book's packages at the methods page, where it has the package (and
// the name); other links stay as they are.
func apiLinker(pkgs []*pkgDoc) func(string) string {
	ids := map[string]bool{}
	for _, p := range pkgs {
		ids[p.Anchor()] = true
		for _, it := range p.Items {
			ids[it.ID] = true
		}
	}
	return func(page string) string {
		return docLinkRE.ReplaceAllStringFunc(page, func(s string) string {
			m := docLinkRE.FindStringSubmatch(s)
			rel, name := strings.TrimPrefix(m[1], "/"), m[2]
			if rel == "" {
				return `href="methods.html"`
			}
			a := (&pkgDoc{Path: rel}).Anchor()
			if !ids[a] {
				return s
			}
			if name != "" && ids[a+"."+name] {
				a += "." + name
			}
			return `href="methods.html#` + a + `"`
		})
	}
}

// readLegend returns the paragraphs of figures/README.md between its title
// and its table — the summary, the statuses and the numbers' sources —
// as HTML, the generator's "do not edit" note left out.
func readLegend(path string) ([]template.HTML, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []template.HTML
	for _, para := range strings.Split(string(b), "\n\n") {
		para = strings.TrimSpace(para)
		if strings.HasPrefix(para, "|") {
			break
		}
		if para == "" || strings.HasPrefix(para, "#") || strings.HasPrefix(para, "Generated by") {
			continue
		}
		out = append(out, template.HTML(inlineMarkdown(html.EscapeString(para))))
	}
	return out, nil
}
