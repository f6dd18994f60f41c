package figures

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Lecture figures. The lecture notebooks (notebooks/src/L1-…, L2-…, L3-…)
// compute their quantities in view of the class and draw them with the
// helpers below. Their figures have ids "L1.1", "L2.3", … and the status
// Added: they are not figures of the book, so they are not registered for
// the reproduction report (a lecture that replays one of the book's figures
// calls that figure's own function).

// ScatterPanel is one panel of LectureScatter: the first two columns of X
// (n×2 or wider) as points.
type ScatterPanel struct {
	Title, XLabel, YLabel string
	X                     mat.Matrix
	// Colour, if set, colours point i by Colour[i] through the jet colour
	// map, scaled to its range; else Labels, if set, by class (LabelColour);
	// else all points are black.
	Colour []float64
	Labels []int
	// Segments are lines (x0, y0, x1, y1) drawn in red over the points:
	// principal axes, say.
	Segments [][4]float64
	// Equal gives both axes the same span (the panel is square in data
	// units), each centred on the data.
	Equal bool
}

// LectureScatter draws one scatter panel per ScatterPanel, in one row.
func LectureScatter(id, caption, data string, panels ...ScatterPanel) *Figure {
	var ps []*plot.Plot
	for _, sp := range panels {
		p := newPlot(sp.Title, sp.XLabel, sp.YLabel)
		n, _ := sp.X.Dims()
		xs, ys := make([]float64, n), make([]float64, n)
		for i := range xs {
			xs[i], ys[i] = sp.X.At(i, 0), sp.X.At(i, 1)
		}
		lo, hi := minMax(sp.Colour)
		for i := range xs {
			var c color.Color = color.Black
			switch {
			case sp.Colour != nil && hi > lo:
				c = jet((sp.Colour[i] - lo) / (hi - lo))
			case sp.Labels != nil:
				c = LabelColour(sp.Labels[i])
			}
			p.Add(scatter(xs[i:i+1], ys[i:i+1], c, 1.8, nil))
		}
		for _, s := range sp.Segments {
			p.Add(line([]float64{s[0], s[2]}, []float64{s[1], s[3]}, theoryRed, 2))
		}
		if sp.Equal {
			xl, xh := minMax(xs)
			yl, yh := minMax(ys)
			for _, s := range sp.Segments {
				xl, xh = math.Min(xl, math.Min(s[0], s[2])), math.Max(xh, math.Max(s[0], s[2]))
				yl, yh = math.Min(yl, math.Min(s[1], s[3])), math.Max(yh, math.Max(s[1], s[3]))
			}
			// The same span on both axes, each centred on its own data.
			half := 0.55 * math.Max(xh-xl, yh-yl)
			cx, cy := (xl+xh)/2, (yl+yh)/2
			p.X.Min, p.X.Max = cx-half, cx+half
			p.Y.Min, p.Y.Max = cy-half, cy+half
		}
		ps = append(ps, p)
	}
	return &Figure{ID: id, Caption: caption, Data: data, Panels: ps, Cols: len(ps),
		Width: vg.Length(len(ps)) * 9 * vg.Centimeter, Height: 9 * vg.Centimeter, Status: Added}
}

// Series is one line of LectureLines: Y against X (X nil: 1, 2, …).
type Series struct {
	Name string
	X, Y []float64
}

// LectureLines draws the series as lines with points in one panel, with a
// legend; logY puts the y axis on a log scale (non-positive values are
// left out).
func LectureLines(id, caption, data, title, xlabel, ylabel string, logY bool, series ...Series) *Figure {
	p := newPlot(title, xlabel, ylabel)
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for k, s := range series {
		var xs, ys []float64
		for i, y := range s.Y {
			x := float64(i + 1)
			if s.X != nil {
				x = s.X[i]
			}
			if logY && !(y > 0) {
				continue
			}
			xs, ys = append(xs, x), append(ys, y)
		}
		c := LabelColour(k)
		l := line(xs, ys, c, 1.2)
		pts := scatter(xs, ys, c, 1.6, nil)
		p.Add(l, pts)
		if s.Name != "" {
			p.Legend.Add(s.Name, l, pts)
		}
	}
	p.Legend.Top = true
	return &Figure{ID: id, Caption: caption, Data: data, Panels: []*plot.Plot{p}, Cols: 1,
		Width: 14 * vg.Centimeter, Height: 9 * vg.Centimeter, Status: Added}
}

// LectureImages draws images (each a vector of rows·cols values, row by
// row) in a grid of perRow columns, each scaled to its own range: black
// for its smallest value and white for its largest, or, with symmetric,
// grey for 0 and black and white for ∓ its largest magnitude (for
// eigenvectors, whose sign is arbitrary). titles may be nil.
func LectureImages(id, caption, data string, rows, cols, perRow int, symmetric bool, images [][]float64, titles []string) *Figure {
	var ps []*plot.Plot
	for k, im := range images {
		if len(im) != rows*cols {
			panic(fmt.Sprintf("figures: LectureImages image %d has %d values, want %d×%d", k, len(im), rows, cols))
		}
		lo, hi := minMax(im)
		if symmetric {
			m := math.Max(math.Abs(lo), math.Abs(hi))
			lo, hi = -m, m
		}
		g := image.NewGray(image.Rect(0, 0, cols, rows))
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				t := 0.5
				if hi > lo {
					t = (im[i*cols+j] - lo) / (hi - lo)
				}
				g.SetGray(j, i, color.Gray{Y: uint8(math.Round(255 * math.Max(0, math.Min(1, t))))})
			}
		}
		title := ""
		if titles != nil {
			title = titles[k]
		}
		p := newPlot(title, "", "")
		p.Add(plotter.NewImage(blockUp(g), 0, 0, float64(cols), float64(rows)))
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, float64(cols), 0, float64(rows)
		p.HideAxes()
		ps = append(ps, p)
	}
	nrows := (len(ps) + perRow - 1) / perRow
	for len(ps) < nrows*perRow {
		ps = append(ps, blank())
	}
	return &Figure{ID: id, Caption: caption, Data: data, Panels: ps, Cols: perRow,
		Width: vg.Length(perRow) * 3.2 * vg.Centimeter, Height: vg.Length(nrows) * 3.6 * vg.Centimeter, Status: Added}
}

// LectureMatrices draws each matrix as an image coloured with jet between
// its smallest and largest entry, with a colour bar, in one row.
func LectureMatrices(id, caption, data string, titles []string, ms ...mat.Matrix) *Figure {
	var ps []*plot.Plot
	for k, m := range ms {
		lo, hi := matrixRange(m)
		if !(hi > lo) {
			hi = lo + 1
		}
		ps = append(ps, matrixPanel(m, lo, hi, titles[k], niceTicks(lo, hi), "%g"))
	}
	return &Figure{ID: id, Caption: caption, Data: data, Panels: ps, Cols: len(ps),
		Width: vg.Length(len(ps)) * 9 * vg.Centimeter, Height: 8 * vg.Centimeter, Status: Added}
}
