package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dimredbook/book/scripts/internal/editions"
	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

// The site carries the sources a reader may want to see beside the text:
// each notebook's part files (notebooks/src/NN-name/*.nb) and the figures
// package's Go files. Each is a page source/PATH.html with one anchor per
// line (#L12), so that a section heading links to the part file it is
// written in, and a figure to the function that draws it, offline.

// sourcePage is the site page showing the file path.
func sourcePage(path string) string { return "source/" + filepath.ToSlash(path) + ".html" }

// partFile is a notebook source part file and its cells.
type partFile struct {
	Path  string
	Lines []string
	Cells []nbsrc.Cell
}

// readParts reads the part files of notebook name from notebooks/src.
func readParts(srcDir, name string) ([]partFile, error) {
	paths, err := filepath.Glob(filepath.Join(srcDir, name, "*.nb"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var parts []partFile
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		cells, err := nbsrc.Parse(string(b), p)
		if err != nil {
			return nil, err
		}
		parts = append(parts, partFile{Path: filepath.ToSlash(p), Lines: strings.Split(string(b), "\n"), Cells: cells})
	}
	return parts, nil
}

// linkSources adds, under every heading of the notebook's Markdown cells
// that come from a part file, a link to the heading's line in that file.
// It returns the part files the links point to.
func (nb *notebook) linkSources(parts []partFile) []string {
	from := map[string]*partFile{}
	for i := range parts {
		for _, c := range parts[i].Cells {
			if c.Type == "markdown" {
				from[strings.TrimSpace(c.Source)] = &parts[i]
			}
		}
	}
	used := map[string]bool{}
	var out []string
	for _, c := range nbsrc.CellMaps(nb.JSON) {
		if c["cell_type"] != "markdown" {
			continue
		}
		src := nbsrc.Text(c["source"])
		// (an exercise list carries links to its solutions that its part
		// file does not: match the text as written)
		p := from[strings.TrimSpace(src)]
		if p == nil {
			p = from[strings.TrimSpace(editions.StripSolutionLinks(src))]
		}
		if p == nil {
			continue
		}
		lines := strings.Split(src, "\n")
		changed := false
		for i, l := range lines {
			if !strings.HasPrefix(l, "#") || len(nbsrc.Headings(l)) == 0 {
				continue
			}
			n := lineOf(p.Lines, l)
			if n == 0 {
				continue
			}
			lines[i] = l + "\n\n" + fmt.Sprintf(`<p class="book-source"><a href="%s#L%d" title="the source of this section">%s</a></p>`,
				sourcePage(p.Path), n, html.EscapeString(p.Path)) + "\n"
			changed = true
		}
		if changed {
			c["source"] = strings.Join(lines, "\n")
			if !used[p.Path] {
				used[p.Path] = true
				out = append(out, p.Path)
			}
		}
	}
	return out
}

// lineOf is the 1-based number of the first line of lines equal to l, or 0.
func lineOf(lines []string, l string) int {
	for i, x := range lines {
		if strings.TrimRight(x, " \r") == strings.TrimRight(l, " \r") {
			return i + 1
		}
	}
	return 0
}

// funcLines maps the name of every top-level function in the Go files of
// dir (tests excepted) to its file and line.
func funcLines(dir string) (map[string]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	out := map[string]string{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				out[fd.Name.Name] = fmt.Sprintf("%s#L%d", filepath.ToSlash(p), fset.Position(fd.Pos()).Line)
			}
		}
	}
	return out, nil
}

// sourceData is a source page.
type sourceData struct {
	Path  string
	Lines []string
}

// writeSourcePage writes the page of the source file path into the site.
func (s *siteData) writeSourcePage(out, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	page := sourcePage(path)
	d := *s
	d.Page, d.Title = page, filepath.ToSlash(path)
	d.Root = strings.Repeat("../", strings.Count(page, "/"))
	d.Source = &sourceData{Path: filepath.ToSlash(path), Lines: strings.Split(strings.TrimRight(string(b), "\n"), "\n")}
	dst := filepath.Join(out, page)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if err := pages.ExecuteTemplate(f, "source.html", &d); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", page, err)
	}
	return f.Close()
}
