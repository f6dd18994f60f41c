// Command nbcheck checks that executed notebooks carry every output their
// sources promise, and normalises their volatile metadata.
//
// GoNB delivers display data through a pipe, and messages still pending when
// a cell's program exits used to be lost at random (a figure's PNG, its
// caption and numbers table). nbcheck derives each code cell's expected
// outputs from the cell's own source, so a new chapter is checked without
// changes here:
//
//   - each figures.MustShow / Show / ShowSVG call: exactly one image and one
//     caption (with the numbers table) naming the figure's id, in call order;
//   - each figures.ShowInteractive call: one embedded page;
//   - a cell that shows figures in a loop over the figure functions it names
//     (for _, mk := range []func() …{figures.FigA, figures.FigB}): one image
//     and caption per function named;
//   - a cell that calls fmt.Print… (directly or through a function declared
//     in the notebook): printed text on standard output.
//
// A cell with more figure outputs than its source shows fails too (its
// expectation, or the notebook, is wrong), but only missing outputs count
// as lost.
//
// Usage:
//
//	go run ./scripts/nbcheck NOTEBOOK.ipynb...          check; exit 1 naming every cell that lost outputs
//	go run ./scripts/nbcheck -normalize NOTEBOOK.ipynb... remove volatile metadata (execution
//	                                                     timestamps) in place, then check
//
// It prints one line per notebook with the outputs it checked and the number
// lost, and a total.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dimredbook/book/figures"
	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

type output struct {
	OutputType string         `json:"output_type"`
	Name       string         `json:"name"`
	Text       any            `json:"text"`
	Data       map[string]any `json:"data"`
}

type cell struct {
	CellType string   `json:"cell_type"`
	Source   any      `json:"source"`
	Outputs  []output `json:"outputs"`
}

var captionRe = regexp.MustCompile(`<p><b>Figure ([^<]+?)\.</b>`)

func main() {
	normalize := flag.Bool("normalize", false, "strip volatile metadata in place before checking")
	flag.Parse()
	ids := map[string]string{} // figure function name → id
	for _, e := range figures.Entries() {
		name := e.Func()
		ids[name[strings.LastIndex(name, ".")+1:]] = e.ID
	}
	totalLost, failed := 0, false
	for _, path := range flag.Args() {
		if *normalize {
			if err := normalizeFile(path); err != nil {
				fmt.Fprintln(os.Stderr, "nbcheck:", err)
				os.Exit(2)
			}
		}
		lost, bad, summary, err := check(path, ids)
		if err != nil {
			fmt.Fprintln(os.Stderr, "nbcheck:", err)
			os.Exit(2)
		}
		totalLost += lost
		status := "ok  "
		if lost > 0 || bad > 0 {
			status, failed = "FAIL", true
		}
		fmt.Printf("nbcheck: %s %s: %s, %d output(s) lost\n", status, strings.TrimSuffix(filepath.Base(path), ".ipynb"), summary, lost)
	}
	fmt.Printf("nbcheck: %d output(s) lost in %d notebook(s)\n", totalLost, flag.NArg())
	if failed {
		os.Exit(1)
	}
}

func text(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var b strings.Builder
		for _, s := range t {
			if s, ok := s.(string); ok {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}

// check returns the number of expected outputs missing from the notebook at
// path and a summary of what it checked; it names each failing cell on
// standard error.
func check(path string, ids map[string]string) (lost, bad int, summary string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, "", err
	}
	var nb struct {
		Cells []cell `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		return 0, 0, "", fmt.Errorf("%s: %v", path, err)
	}
	var cells []nbsrc.Cell
	for _, c := range nb.Cells {
		cells = append(cells, nbsrc.Cell{Type: c.CellType, Source: text(c.Source)})
	}
	funcs := nbsrc.Declared(cells)
	name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
	nfig, nprint, ncode, bad := 0, 0, 0, 0
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		ncode++
		src := cells[i].Source
		if nbsrc.IsShell(src) {
			continue
		}
		eff := nbsrc.CellEffects(src, funcs)
		var images, iframes int
		var captions []string
		var stdout strings.Builder
		for _, o := range c.Outputs {
			switch o.OutputType {
			case "stream":
				if o.Name == "stdout" {
					stdout.WriteString(text(o.Text))
				}
			case "display_data", "execute_result", "update_display_data":
				if o.Data["image/png"] != nil || o.Data["image/svg+xml"] != nil {
					images++
				}
				h := text(o.Data["text/html"])
				if m := captionRe.FindStringSubmatch(h); m != nil {
					captions = append(captions, m[1])
				}
				if strings.Contains(h, "<iframe") {
					iframes++
				}
			}
		}
		var want []string
		for _, f := range eff.Figures {
			if id, ok := strings.CutPrefix(f, "id:"); ok {
				want = append(want, id)
			} else if id, ok := ids[f]; ok {
				want = append(want, id)
			}
		}
		var problems []string
		exact := !eff.Indirect && eff.Displays == 0
		shows := eff.Shows
		if eff.Loop {
			// Shown in a loop over the figure functions the cell names: one
			// image and caption per function named (at least one per call).
			shows = max(len(eff.Figures), eff.Shows)
			exact = exact && len(eff.Figures) > 0
		}
		miss := func(what string, wantN, got int) {
			if got < wantN {
				lost += wantN - got
				problems = append(problems, fmt.Sprintf("%d of %d %s missing", wantN-got, wantN, what))
			} else if exact && got > wantN {
				problems = append(problems, fmt.Sprintf("%d %s where the source shows %d", got, what, wantN))
			}
		}
		miss("image(s)", shows, images)
		miss("caption(s) with numbers", shows, len(captions))
		miss("interactive view(s)", eff.Interactive, iframes)
		if exact && len(want) == shows && len(captions) == len(want) && strings.Join(captions, ",") != strings.Join(want, ",") {
			problems = append(problems, fmt.Sprintf("captions for figures %v, the source shows %v", captions, want))
		}
		if eff.Prints && strings.TrimSpace(stdout.String()) == "" {
			lost++
			problems = append(problems, "the cell prints but its printed output is missing")
		}
		nfig += shows
		if eff.Prints {
			nprint++
		}
		if len(problems) > 0 {
			bad++
			first, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(src), "%%")), "\n")
			if len(first) > 60 {
				first = first[:60]
			}
			fmt.Fprintf(os.Stderr, "nbcheck: FAIL %s, code cell %d (%s): %s\n", name, ncode, first, strings.Join(problems, "; "))
		}
	}
	if ncode == 0 {
		return lost, bad, "no code cells", nil
	}
	return lost, bad, fmt.Sprintf("%d figure(s) (image + caption), %d printing cell(s)", nfig, nprint), nil
}

// normalizeFile removes what changes from run to run without changing what
// the notebook shows: each cell's execution timestamps (metadata.execution).
// The file keeps nbformat's layout (one-space indent, as nbconvert writes).
func normalizeFile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var nb map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&nb); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	cells, _ := nb["cells"].([]any)
	for _, c := range cells {
		cm, _ := c.(map[string]any)
		md, _ := cm["metadata"].(map[string]any)
		if md != nil {
			delete(md, "execution")
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(nb); err != nil {
		return err
	}
	if bytes.Equal(out.Bytes(), b) {
		return nil
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}
