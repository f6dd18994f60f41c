package nbsrc

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Notebook is one notebook's source: its name ("01-high-dimensions") and
// cells.
type Notebook struct {
	Name  string
	Cells []Cell
}

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
		cells, err := ReadSource(filepath.Join(src, d.Name()))
		if err != nil {
			return nil, err
		}
		nbs = append(nbs, Notebook{Name: d.Name(), Cells: cells})
	}
	return nbs, nil
}

// ReadSource reads and joins the part files (*.nb, in name order) of one
// notebook's source folder. A part is a sequence of cells, each introduced
// by a line "-- markdown --" or "-- code --".
func ReadSource(dir string) ([]Cell, error) {
	parts, err := filepath.Glob(filepath.Join(dir, "*.nb"))
	if err != nil {
		return nil, err
	}
	sort.Strings(parts)
	var cells []Cell
	for _, p := range parts {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		cs, err := Parse(string(b), p)
		if err != nil {
			return nil, err
		}
		cells = append(cells, cs...)
	}
	if len(cells) == 0 {
		return nil, fmt.Errorf("%s: no cells", dir)
	}
	return cells, nil
}

// Parse splits one part file into cells; name is used in errors.
func Parse(text, name string) ([]Cell, error) {
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
		switch strings.TrimSpace(line) {
		case "-- markdown --":
			flush()
			cur = &Cell{Type: "markdown"}
		case "-- code --":
			flush()
			cur = &Cell{Type: "code"}
		default:
			if cur == nil {
				if strings.TrimSpace(line) != "" {
					return nil, fmt.Errorf("%s:%d: text before the first '-- markdown --' or '-- code --' line", name, i+1)
				}
				continue
			}
			buf = append(buf, line)
		}
	}
	flush()
	return cells, nil
}
