// Command render draws every registered figure into figures/chNN/ (SVG and
// PNG) and writes the reproduction report figures/report.json and
// figures/README.md. scripts/reproduce runs it; it prints progress (which
// figure, elapsed time; a figure that takes seconds reports its steps and
// an estimate of the time left every 5 s) and a one-line summary.
//
// Usage: go run ./scripts/render [-out figures] [-only 1.1,1.5]
//
// A figure whose data cannot be found (no $DIMRED_DATA mirror, not in the
// cache, offline) is reported as "data unavailable"; the others are still
// drawn, the instruction is printed once, the report is not rewritten and
// the exit status is 3.
//
// With -only, just those figures are drawn and the report is not written.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/figures"
	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

func main() {
	out := flag.String("out", "figures", "output folder (the repository's figures/)")
	only := flag.String("only", "", "comma-separated figure ids to draw (no report)")
	nbsrcDir := flag.String("notebooks", "notebooks/src", "notebook sources, to link each figure to the section showing it")
	flag.Parse()

	want := map[string]bool{}
	for _, id := range strings.Split(*only, ",") {
		if id = strings.TrimSpace(id); id != "" {
			want[id] = true
		}
	}
	entries := figures.Entries()
	shown, err := notebookSections(*nbsrcDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
	start := time.Now()
	var rows []figures.ReportRow
	failed, unavailable := 0, 0
	for i, e := range entries {
		if len(want) > 0 && !want[e.ID] {
			continue
		}
		t0 := time.Now()
		fmt.Printf("[%2d/%d] figure %-6s ", i+1, len(entries), e.ID)
		// A long figure reports its steps every few seconds, on lines of
		// their own below this one.
		pw := &newlineFirst{w: os.Stdout}
		p := figures.NewProgressTo(pw, "figure "+e.ID)
		f, err := e.MakeProgress(p)
		p.Done("")
		if pw.wrote {
			fmt.Printf("[%2d/%d] figure %-6s ", i+1, len(entries), e.ID)
		}
		if datasets.Missing(err) {
			// Said once for all figures at the end, not once per figure.
			file := "its data"
			if m := missingFileRe.FindStringSubmatch(err.Error()); m != nil {
				file = m[1]
			}
			fmt.Printf("data unavailable (%s)\n", file)
			unavailable++
			continue
		}
		if err != nil {
			fmt.Printf("FAILED: %v\n", err)
			failed++
			continue
		}
		files, err := save(*out, e, f)
		if err != nil {
			fmt.Printf("FAILED: %v\n", err)
			failed++
			continue
		}
		row := figures.Row(e, f, files)
		linkNotebook(&row, shown)
		rows = append(rows, row)
		fmt.Printf("%-16s %6.1fs  (total %.0fs)\n", row.Status, time.Since(t0).Seconds(), time.Since(start).Seconds())
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "render: %d figure(s) failed\n", failed)
		os.Exit(1)
	}
	if unavailable > 0 {
		fmt.Printf("render: %d figure(s) need data that are not available here; the other %d were drawn.\n"+
			"        Set DIMRED_DATA to a local mirror of the book's data (a directory holding <dataset>/<file>,\n"+
			"        an absolute path is safest), or run `go run ./scripts/fetch-data` once while online; then run\n"+
			"        scripts/reproduce again. The report (figures/README.md, report.json) was not rewritten.\n",
			unavailable, len(rows))
		os.Exit(3)
	}
	if len(want) > 0 {
		return
	}
	if err := writeReport(*out, rows); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
	fmt.Printf("render: %s (%.0fs)\n", figures.Headline(rows), time.Since(start).Seconds())
}

// newlineFirst ends the line in progress before its first write.
type newlineFirst struct {
	w     io.Writer
	wrote bool
}

func (n *newlineFirst) Write(b []byte) (int, error) {
	if !n.wrote {
		n.wrote = true
		if _, err := io.WriteString(n.w, "\n"); err != nil {
			return 0, err
		}
	}
	return n.w.Write(b)
}

// missingFileRe finds the file named in a datasets.ErrNotAvailable error.
var missingFileRe = regexp.MustCompile(`data not available: (\S+)`)

// notebookSections maps figure functions (and "id:…" for figures.Make
// calls) to the first notebook section that shows them.
func notebookSections(src string) (map[string]nbsrc.Shown, error) {
	nbs, err := nbsrc.ReadAll(src)
	if err != nil {
		return nil, err
	}
	m := map[string]nbsrc.Shown{}
	for _, nb := range nbs {
		for _, s := range nbsrc.FiguresShown(nb.Name, nb.Cells) {
			if _, ok := m[s.Figure]; !ok {
				m[s.Figure] = s
			}
		}
	}
	return m, nil
}

// linkNotebook fills in the notebook and section that show the row's figure.
func linkNotebook(row *figures.ReportRow, shown map[string]nbsrc.Shown) {
	fn := row.Function[strings.LastIndex(row.Function, ".")+1:]
	s, ok := shown[fn]
	if !ok {
		s, ok = shown["id:"+row.ID]
	}
	if !ok {
		return
	}
	row.Notebook = "notebooks/" + s.Notebook + ".ipynb"
	row.Section = s.Heading
	row.NotebookLink = row.Notebook
	if s.Heading != "" {
		row.NotebookLink += "#" + nbsrc.Anchor(s.Heading)
	}
}

// save writes the figure's SVG and PNG, returning their repository paths.
func save(out string, e figures.Entry, f *figures.Figure) ([]string, error) {
	dir := filepath.Join(out, figures.ChapterDir(e.Chapter))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	stem := figures.FileStem(e.ID)
	svg, err := f.SVG()
	if err != nil {
		return nil, err
	}
	png, err := f.PNG()
	if err != nil {
		return nil, err
	}
	var files []string
	for _, x := range []struct {
		ext string
		b   []byte
	}{{".svg", svg}, {".png", png}} {
		path := filepath.Join(dir, stem+x.ext)
		if err := writeIfChanged(path, x.b); err != nil {
			return nil, err
		}
		files = append(files, filepath.ToSlash(filepath.Join("figures", figures.ChapterDir(e.Chapter), stem+x.ext)))
	}
	return files, nil
}

// writeIfChanged leaves identical files untouched, so a second run changes
// nothing, not even modification times.
func writeIfChanged(path string, b []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return nil
	}
	return os.WriteFile(path, b, 0o644)
}

func writeReport(out string, rows []figures.ReportRow) error {
	var js, md bytes.Buffer
	if err := figures.WriteReportJSON(&js, rows); err != nil {
		return err
	}
	if err := figures.WriteReportMarkdown(&md, rows); err != nil {
		return err
	}
	if err := writeIfChanged(filepath.Join(out, "report.json"), js.Bytes()); err != nil {
		return err
	}
	return writeIfChanged(filepath.Join(out, "README.md"), md.Bytes())
}
