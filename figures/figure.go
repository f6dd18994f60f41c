// Package figures regenerates the figures of "Dimensionality Reduction for
// Machine Learning": one function per book figure, each returning a
// *Figure that holds the drawing and the numbers its caption states, the
// book's value beside ours.
//
// Figure functions register themselves (see Register), so scripts/render can
// draw them all into figures/chNN/ and write the reproduction report, and a
// notebook can show any one of them with Show.
//
// Every number a figure states names its source: Book for a value printed in
// the draft (with the figure, section, equation or box), Ref for a value the
// draft does not print but that was computed independently (with how), Ours
// for our value alone. Only book numbers count as agreement with the book;
// the report counts the book's figures apart from the figures added here
// (ids "X…"), and a figure's Status says when it is redrawn, editorial, not
// reproducible or an erratum.
//
// Importing figures installs dimred's BLAS as the process's gonum BLAS
// (linalg.UseFastBLAS), so that the book's heavy fits run at full speed in
// the notebooks, scripts/render and the golden tests. This side effect is
// deliberate and limited to this package: figures is the book's
// application layer, imported by notebooks and scripts, not a library for
// other programs; the dimred packages themselves change no global state.
package figures

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

func init() { linalg.UseFastBLAS() }

// Status says how a figure relates to the book.
type Status string

const (
	// Reproduced: a book figure drawn as the book's, every number with a
	// book value agreeing within its tolerance.
	Reproduced Status = "reproduced"
	// Redrawn: a book figure whose schematic or substitute is drawn
	// differently from the book's (e.g. redrawn from a photograph, or a map
	// without the book's coastline); Why says how.
	Redrawn Status = "redrawn"
	// Editorial: the draft has only a placeholder for this figure; ours
	// fills it in; Why says what the draft has.
	Editorial Status = "editorial"
	// Consistent: a figure whose book numbers depend on random draws the
	// draft does not record (initial weights, sampled latent points,
	// random basis centres) and are checked over seeds: every book value
	// lies inside our range over the seeds and the book's ordering holds on
	// our medians (SeedRange and Ordering numbers). Weaker than Reproduced,
	// which needs sharp agreement; the report counts them apart.
	Consistent Status = "consistent"
	// Differs: at least one number disagrees with the book (or with its
	// independent reference value); Why says why.
	Differs Status = "differs"
	// NotReproducible: the figure's data are not available; Why says what
	// is shown instead.
	NotReproducible Status = "not-reproducible"
	// Added: a figure beyond the book (id "X…"); it cannot be reproduced,
	// only checked against reference values.
	Added Status = "added"
	// Erratum: the figure exhibits an error in the draft's text (a wrong
	// printed number); Why says what is wrong and the correct value.
	Erratum Status = "erratum"
)

// Source says where a Number's comparison value comes from.
type Source string

const (
	// FromBook: printed in the draft; Number.Cite names where (figure
	// caption, section, equation or box).
	FromBook Source = "book"
	// FromReference: computed independently for this project, not printed
	// in the draft; Number.Cite says how. Agreement with it checks our
	// computation, not the book.
	FromReference Source = "reference"
	// FromNone: only our value is reported.
	FromNone Source = ""
)

// Number is one number a figure states: ours, computed when the figure is
// drawn, and, where there is one, the value it is compared with within
// Tol: the book's (Book, printed in the draft) or, for a value the draft does
// not print, an independent reference value (Ref, with Source
// FromReference). Cite says where the book prints it or how the reference
// was computed.
//
// Kind says what kind of check a book number is: a sharp one (KindSharp,
// |Ours − Book| ≤ Tol), a seed range (KindSeedRange: Ours is the median
// over Seeds random seeds, Lo and Hi the smallest and largest value, and
// it agrees when Lo ≤ Book ≤ Hi) or an ordering (KindOrdering: Ours is 1
// when the ordering the book's numbers show holds on our medians, else 0).
type Number struct {
	Name   string
	Book   float64 // printed in the draft; NaN if the draft prints none
	Ref    float64 // computed independently (Source FromReference); ignored otherwise
	Ours   float64
	Tol    float64
	Source Source
	Cite   string

	Kind   NumberKind
	Lo, Hi float64 // KindSeedRange: our range over the seeds
	Seeds  int     // KindSeedRange: how many seeds
}

// NumberKind is the kind of check a Number makes.
type NumberKind string

const (
	// KindSharp: agreement within Tol (the zero value).
	KindSharp NumberKind = ""
	// KindSeedRange: the book's value inside our range over seeds.
	KindSeedRange NumberKind = "seed-range"
	// KindOrdering: the book's ordering holds on our medians over seeds.
	KindOrdering NumberKind = "ordering"
)

// IsSeedCheck reports whether n is a seed-range or ordering check, the
// kind behind the Consistent status, counted apart from sharp agreement.
func (n Number) IsSeedCheck() bool { return n.Kind == KindSeedRange || n.Kind == KindOrdering }

// HasBook reports whether the number is compared with a value printed in
// the draft. Only such numbers count as agreement with the book.
func (n Number) HasBook() bool { return n.Source != FromReference && !math.IsNaN(n.Book) }

// HasReference reports whether the number is compared with an independent
// reference value.
func (n Number) HasReference() bool { return n.Source == FromReference && !math.IsNaN(n.Ref) }

// Want returns the value the number is compared with (the book's or the
// reference), or NaN.
func (n Number) Want() float64 {
	switch {
	case n.HasBook():
		return n.Book
	case n.HasReference():
		return n.Ref
	}
	return math.NaN()
}

// Agrees reports whether Ours is within Tol of the book's or the reference
// value. A number without one always agrees.
func (n Number) Agrees() bool {
	w := n.Want()
	if math.IsNaN(w) {
		return true
	}
	if n.Kind == KindSeedRange {
		return n.Lo <= w && w <= n.Hi
	}
	return math.Abs(n.Ours-w) <= n.Tol
}

// MarshalJSON writes the number with its source: "book" and "reference"
// hold the comparison value under the name of its source (null otherwise),
// "cite" where the book prints it or how the reference was computed. NaN
// and ±Inf are written as null, which JSON cannot otherwise hold.
func (n Number) MarshalJSON() ([]byte, error) {
	f := func(v float64) any {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return v
	}
	var book, ref any
	switch {
	case n.HasBook():
		book = f(n.Book)
	case n.HasReference():
		ref = f(n.Ref)
	}
	var lo, hi, seeds any
	if n.Kind == KindSeedRange {
		lo, hi, seeds = f(n.Lo), f(n.Hi), n.Seeds
	}
	return json.Marshal(struct {
		Name      string     `json:"name"`
		Source    Source     `json:"source"`
		Cite      string     `json:"cite,omitempty"`
		Kind      NumberKind `json:"kind,omitempty"`
		Book      any        `json:"book"`
		Reference any        `json:"reference"`
		Ours      any        `json:"ours"`
		Tol       any        `json:"tol"`
		Lo        any        `json:"lo,omitempty"`
		Hi        any        `json:"hi,omitempty"`
		Seeds     any        `json:"seeds,omitempty"`
	}{n.Name, n.Source, n.Cite, n.Kind, book, ref, f(n.Ours), f(n.Tol), lo, hi, seeds})
}

// Book is a number printed in the draft: name, the book's value, ours, the
// tolerance of agreement and where the book prints it ("Fig 1.1 caption",
// "§3.2", "eq. (2.4)").
func Book(name string, book, ours, tol float64, where string) Number {
	return Number{Name: name, Book: book, Ref: math.NaN(), Ours: ours, Tol: tol, Source: FromBook, Cite: where}
}

// SeedRange is a book number that depends on random draws the draft does
// not record, checked over seeds: Ours is the median of vals (one value
// per seed), Lo and Hi their range, and it agrees when the book's value
// lies in [Lo, Hi]. It has no tolerance: the check is exactly as wide as
// the spread over the seeds.
func SeedRange(name string, book float64, vals []float64, where string) Number {
	if len(vals) == 0 {
		panic("figures: SeedRange without values")
	}
	s := append([]float64(nil), vals...)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Number{Name: name, Book: book, Ref: math.NaN(), Ours: med, Tol: math.NaN(), Source: FromBook, Cite: where,
		Kind: KindSeedRange, Lo: s[0], Hi: s[len(s)-1], Seeds: len(s)}
}

// Ordering is the check that the ordering the book's numbers show (named
// in name, e.g. "74 > 44 > 11") holds on our medians over seeds: Book is 1
// and Ours is 1 if it holds, 0 if not.
func Ordering(name string, holds bool, where string) Number {
	ours := 0.0
	if holds {
		ours = 1
	}
	return Number{Name: name, Book: 1, Ref: math.NaN(), Ours: ours, Tol: 0, Source: FromBook, Cite: where, Kind: KindOrdering}
}

// Ref is a number the draft does not print, checked against a value
// computed independently for this project: how says how (e.g. "closed form
// exp(−1)", "separate port of the author's demSixKpca.m").
func Ref(name string, ref, ours, tol float64, how string) Number {
	return Number{Name: name, Book: math.NaN(), Ref: ref, Ours: ours, Tol: tol, Source: FromReference, Cite: how}
}

// Num is a book number without a citation.
//
// Deprecated: use Book, which says where the draft prints the value, or
// Ref for a value the draft does not print. The registry test rejects
// book numbers without a citation.
func Num(name string, book, ours, tol float64) Number {
	return Number{Name: name, Book: book, Ref: math.NaN(), Ours: ours, Tol: tol, Source: FromBook}
}

// Ours is shorthand for a Number the book does not state.
func Ours(name string, ours float64) Number {
	return Number{Name: name, Book: math.NaN(), Ref: math.NaN(), Ours: ours, Tol: math.NaN()}
}

// IsAdded reports whether id names a figure beyond the book ("X2.1").
func IsAdded(id string) bool { return strings.HasPrefix(id, "X") }

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
	// how a figure says Redrawn, Editorial, NotReproducible or Erratum.
	Status Status
	Why    string // why the figure differs or cannot be reproduced
}

// Resolve returns the figure's status: Status if set; else Differs when
// any number disagrees with its book or reference value; else Consistent
// when a book number is checked over seeds (SeedRange, Ordering); else
// Added for a figure beyond the book and Reproduced for a book figure.
func (f *Figure) Resolve() Status {
	if f.Status != "" {
		return f.Status
	}
	seeds := false
	for _, n := range f.Numbers {
		if !n.Agrees() {
			return Differs
		}
		seeds = seeds || (n.IsSeedCheck() && n.HasBook())
	}
	if seeds {
		return Consistent
	}
	if IsAdded(f.ID) {
		return Added
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
