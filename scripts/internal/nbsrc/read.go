package nbsrc

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Notebook is one notebook's source: its name ("01-high-dimensions"), its
// cells and, apart, the cells of its solutions part (SolutionsPart), which
// scripts/nbbuild turns into a separate solutions notebook.
type Notebook struct {
	Name      string
	Cells     []Cell
	Solutions []Cell
}

// SolutionsPart is the part file holding a notebook's worked solutions to
// its exercises. It is not joined to the notebook: the solutions live apart
// from the questions (notebooks/solutions/NN-name-solutions.ipynb).
const SolutionsPart = "95-solutions.nb"

// ExerciseTag is the cell tag of an exercise cell (the student's answer
// and its check), written "-- code tags=exercise --" in a part file; the
// student edition clears these cells' outputs.
const ExerciseTag = "exercise"

// ReadAll reads every notebook source folder under src (notebooks/src), in
// name order.
func ReadAll(src string) ([]Notebook, error) {
	dirs, err := os.ReadDir(src)
	if err != nil {
		return nil, err
	}
	var nbs []Notebook
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		cells, sol, err := ReadSourceSolutions(filepath.Join(src, d.Name()))
		if err != nil {
			return nil, err
		}
		nbs = append(nbs, Notebook{Name: d.Name(), Cells: cells, Solutions: sol})
	}
	return nbs, nil
}

// ReadSource reads and joins the part files (*.nb, in name order) of one
// notebook's source folder, without its solutions part. A part is a
// sequence of cells, each introduced by a line "-- markdown --" or
// "-- code --" (optionally with tags: "-- code tags=exercise --").
func ReadSource(dir string) ([]Cell, error) {
	cells, _, err := ReadSourceSolutions(dir)
	return cells, err
}

// ReadSourceSolutions is ReadSource also returning the cells of the
// solutions part (SolutionsPart), if there is one.
func ReadSourceSolutions(dir string) (cells, solutions []Cell, err error) {
	parts, err := filepath.Glob(filepath.Join(dir, "*.nb"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(parts)
	for _, p := range parts {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		cs, err := Parse(string(b), p)
		if err != nil {
			return nil, nil, err
		}
		if filepath.Base(p) == SolutionsPart {
			solutions = append(solutions, cs...)
			continue
		}
		cells = append(cells, cs...)
	}
	if len(cells) == 0 {
		return nil, nil, fmt.Errorf("%s: no cells", dir)
	}
	return cells, solutions, nil
}

// headerRe is a cell's header line: its type and optional tags.
var headerRe = regexp.MustCompile(`^-- (markdown|code)(?: tags=([\w-]+(?:,[\w-]+)*))? --$`)

// Parse splits one part file into cells; name is used in errors. A file
// saved with CRLF line ends (a Windows checkout) or a leading byte-order
// mark reads as the same file with LF ends and no mark.
func Parse(text, name string) ([]Cell, error) {
	text = strings.ReplaceAll(strings.TrimPrefix(text, "\ufeff"), "\r\n", "\n")
	var cells []Cell
	var cur *Cell
	var buf []string
	flush := func() {
		if cur != nil {
			cur.Source = strings.Trim(strings.Join(buf, "\n"), "\n")
			cells = append(cells, *cur)
		}
		buf = buf[:0]
	}
	for i, line := range strings.Split(text, "\n") {
		if m := headerRe.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			flush()
			cur = &Cell{Type: m[1]}
			if m[2] != "" {
				cur.Tags = strings.Split(m[2], ",")
			}
			continue
		}
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") {
			return nil, fmt.Errorf("%s:%d: %q is not a cell header ('-- markdown --', '-- code --', '-- code tags=a,b --')", name, i+1, t)
		}
		if cur == nil {
			if strings.TrimSpace(line) != "" {
				return nil, fmt.Errorf("%s:%d: text before the first '-- markdown --' or '-- code --' line", name, i+1)
			}
			continue
		}
		buf = append(buf, line)
	}
	flush()
	return cells, nil
}
