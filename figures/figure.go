// Package figures regenerates the figures of "Dimensionality Reduction for
// Machine Learning": one function per book figure, each returning a
// *Figure that holds the drawing and the numbers its caption states, the
// book's value beside ours.
//
// Figure functions register themselves (see Register), so scripts/render can
// draw them all into figures/chNN/ and write the reproduction report, and a
// notebook can show any one of them with Show.
package figures

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Status says whether a figure reproduces the book.
type Status string

const (
	// Reproduced: every number with a book value agrees within its
	// tolerance (or the figure is qualitative and drawn as the book's).
	Reproduced Status = "reproduced"
	// Differs: at least one number disagrees; Why says why.
	Differs Status = "differs"
	// NotReproducible: the figure's data are not available; Why says what
	// is shown instead.
	NotReproducible Status = "not-reproducible"
)

// Number is one number a figure's caption or text states: the book's value
// (NaN where the book gives none), ours, computed when the figure is drawn,
// and the tolerance within which they agree.
type Number struct {
	Name string
	Book float64
	Ours float64
	Tol  float64
}

// Agrees reports whether Ours is within Tol of Book. A number without a
// book value always agrees.
func (n Number) Agrees() bool {
	if math.IsNaN(n.Book) {
		return true
	}
	return math.Abs(n.Ours-n.Book) <= n.Tol
}

// MarshalJSON writes NaN and ±Inf as null, which JSON cannot otherwise hold.
func (n Number) MarshalJSON() ([]byte, error) {
	f := func(v float64) any {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return v
	}
	return json.Marshal(struct {
		Name string `json:"name"`
		Book any    `json:"book"`
		Ours any    `json:"ours"`
		Tol  any    `json:"tol"`
	}{n.Name, f(n.Book), f(n.Ours), f(n.Tol)})
}

// Num is shorthand for a Number with a book value.
func Num(name string, book, ours, tol float64) Number {
	return Number{Name: name, Book: book, Ours: ours, Tol: tol}
}

// Ours is shorthand for a Number the book does not state.
func Ours(name string, ours float64) Number {
	return Number{Name: name, Book: math.NaN(), Ours: ours, Tol: math.NaN()}
}

// Figure is a regenerated book figure: one or more panels laid out in a
// grid, the caption, the data it was drawn from and the numbers it states.
type Figure struct {
	ID      string // "1.1"; paper figures "P3"; figures beyond the book "X1.1"
	Caption string
	Data    string // "synthetic", "schematic" or a dataset name such as "oil"

	Panels []*plot.Plot // drawn row by row, Cols per row
	Cols   int          // panels per row; 0 means all in one row
	Width  vg.Length    // whole figure; 0 means 12 cm per column
	Height vg.Length    // 0 means 10 cm per row

	Numbers []Number
	// Status, when set, overrides the status derived from Numbers; it is
	// how a figure says NotReproducible.
	Status Status
	Why    string // why the figure differs or cannot be reproduced
}

// Resolve returns the figure's status: Status if set, else Differs when
// any number disagrees with the book and Reproduced otherwise.
func (f *Figure) Resolve() Status {
	if f.Status != "" {
		return f.Status
	}
	for _, n := range f.Numbers {
		if !n.Agrees() {
			return Differs
		}
	}
	return Reproduced
}

func (f *Figure) grid() (rows, cols int) {
	cols = f.Cols
	if cols <= 0 || cols > len(f.Panels) {
		cols = len(f.Panels)
	}
	rows = (len(f.Panels) + cols - 1) / cols
	return rows, cols
}

// Size returns the figure's canvas size.
func (f *Figure) Size() (w, h vg.Length) {
	rows, cols := f.grid()
	w, h = f.Width, f.Height
	if w == 0 {
		w = vg.Length(cols) * 12 * vg.Centimeter
	}
	if h == 0 {
		h = vg.Length(rows) * 10 * vg.Centimeter
	}
	return w, h
}

// Draw draws every panel onto c.
func (f *Figure) Draw(c draw.Canvas) {
	if len(f.Panels) == 0 {
		return
	}
	rows, cols := f.grid()
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, cols)
		for k := range cols {
			if i := r*cols + k; i < len(f.Panels) {
				grid[r][k] = f.Panels[i]
			} else {
				grid[r][k] = blank()
			}
		}
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter, PadY: vg.Millimeter,
		PadTop: vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: vg.Millimeter, PadRight: vg.Millimeter}
	canvases := plot.Align(grid, tiles, c)
	for r := range grid {
		for k := range grid[r] {
			grid[r][k].Draw(canvases[r][k])
		}
	}
}

func blank() *plot.Plot {
	p := plot.New()
	p.HideAxes()
	return p
}

// PNGDPI is the resolution of rendered PNGs.
const PNGDPI = 96

// PNG renders the figure as a PNG at PNGDPI.
func (f *Figure) PNG() ([]byte, error) { return f.pngAt(PNGDPI) }

func (f *Figure) pngAt(dpi int) ([]byte, error) {
	w, h := f.Size()
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	f.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("figures: rendering %s as PNG: %w", f.ID, err)
	}
	return buf.Bytes(), nil
}

// SVG renders the figure as SVG.
func (f *Figure) SVG() ([]byte, error) {
	w, h := f.Size()
	c := vgsvg.New(w, h)
	f.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("figures: rendering %s as SVG: %w", f.ID, err)
	}
	return buf.Bytes(), nil
}
