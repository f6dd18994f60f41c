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
//
// Prose. A markdown cell that states how long something takes ("about a
// minute", "a few seconds each", "takes 30 s") gets a warning: such times
// go stale with every change and every machine; a cell prints the time it
// measured, or the prose gives a ratio or a bound that the time budgets check.
//
// Timings. With -timings FILE, -normalize first appends each code cell's
// execution time (nbclient's metadata.execution, from execute_input to
// execute_reply, which includes GoNB's compilation of the cell) to FILE as
// tab-separated lines: notebook, code cell number, seconds, 1 if the cell
// shows a progress display (the persistent line of figures.Progress), and
// the cell's first line. The executed notebook itself keeps no timing, so
// it stays the same file run after run. It then warns (standard error,
// "nbcheck: WARNING …", exit status unchanged), naming the cell,
//
//   - when a cell ran longer than -silent (10 s) with no progress display,
//   - when a cell ran longer than -cell-budget (30 s), the budget on an
//     idle 2-core machine.
//
// Warnings, not failures: a cell's time depends on the machine and its
// load (printed with the warning), outputs do not.
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
	"time"

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
	Metadata struct {
		Execution map[string]string `json:"execution"`
	} `json:"metadata"`
}

var captionRe = regexp.MustCompile(`<p><b>Figure ([^<]+?)\.</b>`)

func main() {
	normalize := flag.Bool("normalize", false, "strip volatile metadata in place before checking")
	timings := flag.String("timings", "", "with -normalize: append each code cell's execution time to this file and warn about slow cells")
	silent := flag.Duration("silent", 10*time.Second, "warn about a cell that runs longer than this with no progress display")
	cellBudget := flag.Duration("cell-budget", 30*time.Second, "warn about a cell that runs longer than this")
	flag.Parse()
	ids := map[string]string{} // figure function name → id
	for _, e := range figures.Entries() {
		name := e.Func()
		ids[name[strings.LastIndex(name, ".")+1:]] = e.ID
	}
	totalLost, failed := 0, false
	for _, path := range flag.Args() {
		if *normalize && *timings != "" {
			if err := recordTimings(path, *timings, *silent, *cellBudget); err != nil {
				fmt.Fprintln(os.Stderr, "nbcheck:", err)
				os.Exit(2)
			}
		}
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
		cells = append(cells, nbsrc.Cell{Type: c.CellType, Source: nbsrc.Text(c.Source)})
	}
	funcs := nbsrc.Declared(cells)
	name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
	nfig, nprint, ncode, bad := 0, 0, 0, 0
	for i, c := range nb.Cells {
		if c.CellType == "markdown" {
			for _, m := range typedTimes(cells[i].Source) {
				fmt.Fprintf(os.Stderr, "nbcheck: WARNING %s, markdown cell %d: a typed time %q (print the measured time, or a bound the budgets check)\n", name, i+1, m)
			}
		}
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
					stdout.WriteString(nbsrc.Text(o.Text))
				}
			case "display_data", "execute_result", "update_display_data":
				if o.Data["image/png"] != nil || o.Data["image/svg+xml"] != nil {
					images++
				}
				h := nbsrc.Text(o.Data["text/html"])
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
	nb, err := nbsrc.DecodeNotebook(b)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	for _, cm := range nbsrc.CellMaps(nb) {
		md, _ := cm["metadata"].(map[string]any)
		if md != nil {
			delete(md, "execution")
		}
	}
	out, err := nbsrc.EncodeNotebook(nb)
	if err != nil {
		return err
	}
	if bytes.Equal(out, b) {
		return nil
	}
	return os.WriteFile(path, out, 0o644)
}

// cellTime is one executed code cell's time.
type cellTime struct {
	Cell     int // code cell number, from 1
	Seconds  float64
	Progress bool // shows a figures.Progress line
	First    string
}

// cellTimes reads the execution time of every timed code cell of an
// executed notebook (nbclient's metadata.execution).
func cellTimes(nb []cell) []cellTime {
	var out []cellTime
	n := 0
	for _, c := range nb {
		if c.CellType != "code" {
			continue
		}
		n++
		e := c.Metadata.Execution
		t0, err0 := time.Parse(time.RFC3339Nano, e["iopub.execute_input"])
		t1, err1 := time.Parse(time.RFC3339Nano, e["shell.execute_reply"])
		if err0 != nil || err1 != nil {
			continue
		}
		ct := cellTime{Cell: n, Seconds: t1.Sub(t0).Seconds(), First: firstLine(nbsrc.Text(c.Source))}
		for _, o := range c.Outputs {
			if figures.IsProgressHTML(nbsrc.Text(o.Data["text/html"])) {
				ct.Progress = true
			}
		}
		out = append(out, ct)
	}
	return out
}

// firstLine is a cell's first line of code, past GoNB's "%%" marker.
func firstLine(src string) string {
	for _, l := range strings.Split(src, "\n") {
		if l = strings.TrimSpace(strings.ReplaceAll(l, "\t", " ")); l != "" && l != "%%" {
			if len(l) > 60 {
				l = l[:60]
			}
			return l
		}
	}
	return ""
}

// recordTimings appends the cells' times to file and warns about slow
// cells (see the package comment).
func recordTimings(path, file string, silent, budget time.Duration) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var nb struct {
		Cells []cell `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
	times := cellTimes(nb.Cells)
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	for _, t := range times {
		fmt.Fprintf(f, "%s\t%d\t%.1f\t%d\t%s\n", name, t.Cell, t.Seconds, boolInt(t.Progress), t.First)
	}
	if err := f.Close(); err != nil {
		return err
	}
	for _, w := range slowCells(name, times, silent, budget) {
		fmt.Fprintf(os.Stderr, "nbcheck: WARNING %s (load %s)\n", w, loadAverage())
	}
	return nil
}

// slowCells lists the cells that ran longer than silent with no progress
// display, or longer than budget.
func slowCells(name string, times []cellTime, silent, budget time.Duration) []string {
	var out []string
	for _, t := range times {
		d := time.Duration(t.Seconds * float64(time.Second))
		var what []string
		if d > silent && !t.Progress {
			what = append(what, fmt.Sprintf("over %v with no progress display", silent))
		}
		if d > budget {
			what = append(what, fmt.Sprintf("over the %v cell budget", budget))
		}
		if len(what) > 0 {
			out = append(out, fmt.Sprintf("%s, code cell %d (%s): %.0f s, %s", name, t.Cell, t.First, t.Seconds, strings.Join(what, " and ")))
		}
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// loadAverage is the 1-minute load average (Linux), or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// typedTimeRe matches a duration stated in prose: "about a minute", "a few
// seconds", "half a minute", "takes 30 s", "about 20 CPU seconds".
var typedTimeRe = regexp.MustCompile(`(?i)\b(?:about|around|roughly|nearly|almost|under|over|takes?|took|half|a few|several)\s+(?:a\s+|an\s+)?(?:\d+(?:\.\d+)?\s*(?:CPU\s+)?)?(?:s|sec|secs|seconds?|min|mins|minutes?|hours?)\b`)

// typedTimes returns the typed durations in a markdown cell's text, outside
// code spans and LaTeX.
func typedTimes(src string) []string {
	return typedTimeRe.FindAllString(src, -1)
}
