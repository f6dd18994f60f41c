package figures

import (
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Colours shared by the figures; the egg colours are the book's MATLAB
// values (yellow [1 1 0], green [0 0.7 0.5]).
var (
	yolkColour  = color.RGBA{R: 255, G: 255, A: 255}
	greenColour = color.RGBA{G: 179, B: 128, A: 255}
	whiteColour = color.RGBA{R: 250, G: 250, B: 245, A: 255}
	histColour  = color.RGBA{R: 90, G: 120, B: 200, A: 255}
	theoryRed   = color.RGBA{R: 220, A: 255}
	// labelPalette colours points by class label (three oil flow regimes,
	// Spellman groups, ...), chosen to stay distinct in greyscale too.
	labelPalette = []color.RGBA{
		{R: 228, G: 26, B: 28, A: 255}, {R: 55, G: 126, B: 184, A: 255}, {R: 77, G: 175, B: 74, A: 255},
		{R: 152, G: 78, B: 163, A: 255}, {R: 255, G: 127, A: 255}, {R: 166, G: 86, B: 40, A: 255},
		{R: 247, G: 129, B: 191, A: 255}, {R: 153, G: 153, B: 153, A: 255},
	}
)

// LabelColour returns the palette colour of class label l.
func LabelColour(l int) color.Color {
	if l < 0 {
		return color.Black
	}
	return labelPalette[l%len(labelPalette)]
}

// newPlot returns a plot with the project's fonts and the given labels.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	return p
}

// hideAll hides axes for schematic panels.
func hideAll(p *plot.Plot) *plot.Plot {
	p.HideAxes()
	return p
}

// line returns a line through the points, in colour c and width w points.
func line(xs, ys []float64, c color.Color, w float64) *plotter.Line {
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		panic(err) // only NaN/Inf coordinates, a programming error here
	}
	l.Color = c
	l.Width = vg.Points(w)
	return l
}

// polygon returns a filled polygon with an optional outline (nil: none).
func polygon(xs, ys []float64, fill, outline color.Color) *plotter.Polygon {
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	pg, err := plotter.NewPolygon(pts)
	if err != nil {
		panic(err)
	}
	pg.Color = fill
	if outline == nil {
		pg.LineStyle.Width = 0
	} else {
		pg.LineStyle.Color = outline
		pg.LineStyle.Width = vg.Points(1)
	}
	return pg
}

// scatter returns a scatter of the points with glyph colour c and radius r points.
func scatter(xs, ys []float64, c color.Color, r float64, shape draw.GlyphDrawer) *plotter.Scatter {
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		panic(err)
	}
	s.GlyphStyle.Color = c
	s.GlyphStyle.Radius = vg.Points(r)
	if shape != nil {
		s.GlyphStyle.Shape = shape
	} else {
		s.GlyphStyle.Shape = draw.CircleGlyph{}
	}
	return s
}

// labels returns text labels at the given points.
func labels(xs, ys []float64, texts []string, size float64) *plotter.Labels {
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: texts})
	if err != nil {
		panic(err)
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size = vg.Points(size)
		l.TextStyle[i].XAlign = draw.XCenter
		l.TextStyle[i].YAlign = draw.YCenter
	}
	return l
}

// linspace returns n equally spaced values from a to b inclusive.
func linspace(a, b float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	return out
}

// ellipse returns the points of the ellipse {μ + r·(a cos t, b sin t) rotated by θ}.
func ellipse(cx, cy, a, b, theta float64, n int) (xs, ys []float64) {
	for _, t := range linspace(-math.Pi, math.Pi, n) {
		x, y := a*math.Cos(t), b*math.Sin(t)
		xs = append(xs, cx+x*math.Cos(theta)-y*math.Sin(theta))
		ys = append(ys, cy+x*math.Sin(theta)+y*math.Cos(theta))
	}
	return xs, ys
}

// equalAxes sets the same data range on both axes around the given limits,
// so circles look round in a square panel.
func equalAxes(p *plot.Plot, lo, hi float64) {
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, lo, hi
}

// plainTicks is plot.DefaultTicks with labels printed by %g, so that ticks
// read "-175" and "2.5" rather than "-175.00" and "2.50".
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 6, 64)
		}
	}
	return ts
}

// placeLabels writes texts beside the points (xs, ys) without letting two
// labels overlap: each label tries eight positions around its point (right,
// left, above, below, then the diagonals, then the same twice as far) and
// takes the first whose box is clear of every label placed before it (or
// the least-overlapping one); a label moved away from its point gets a thin
// leader line. Obstacles are further points labels should avoid. Label boxes are estimated from the font size and the
// plot's data ranges, so call it after the axis ranges are final or
// nearly so (it reads p.X.Min… at call time). Points are handled from left
// to right, ties by y.
func placeLabels(p *plot.Plot, xs, ys []float64, texts []string, size float64, obstacles ...[2]float64) {
	// Data units per point of text, from the canvas size the figure is
	// usually drawn at (about 7.5 pt per degree in Fig 3.9); only ratios
	// matter for overlap, so the estimate need only be consistent.
	ux := (p.X.Max - p.X.Min) / 480
	uy := (p.Y.Max - p.Y.Min) / 400
	if ux <= 0 || uy <= 0 {
		ux, uy = 1, 1
	}
	type box struct{ x0, x1, y0, y1 float64 }
	overlap := func(a, b box) float64 {
		w := math.Min(a.x1, b.x1) - math.Max(a.x0, b.x0)
		h := math.Min(a.y1, b.y1) - math.Max(a.y0, b.y0)
		if w <= 0 || h <= 0 {
			return 0
		}
		return w * h
	}
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		if xs[order[a]] != xs[order[b]] {
			return xs[order[a]] < xs[order[b]]
		}
		return ys[order[a]] < ys[order[b]]
	})
	var placed []box
	// The points themselves, and any other marks, are obstacles too.
	for i := range xs {
		placed = append(placed, box{xs[i] - 2*ux, xs[i] + 2*ux, ys[i] - 2*uy, ys[i] + 2*uy})
	}
	for _, o := range obstacles {
		placed = append(placed, box{o[0] - 1.5*ux, o[0] + 1.5*ux, o[1] - 1.5*uy, o[1] + 1.5*uy})
	}
	gap := 3.0
	for _, i := range order {
		w := 0.5 * size * float64(len([]rune(texts[i]))) * ux
		h := size * uy
		type cand struct {
			b      box
			ax, ay float64 // anchor (left-bottom of the text)
			far    bool
		}
		var cands []cand
		for _, k := range []float64{1, 2.5} {
			g := gap * k
			for _, d := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
				var x0, y0 float64
				switch d[0] {
				case 1:
					x0 = xs[i] + g*ux
				case -1:
					x0 = xs[i] - g*ux - w
				default:
					x0 = xs[i] - w/2
				}
				switch d[1] {
				case 1:
					y0 = ys[i] + g*uy
				case -1:
					y0 = ys[i] - g*uy - h
				default:
					y0 = ys[i] - h/2
				}
				cands = append(cands, cand{box{x0, x0 + w, y0, y0 + h}, x0, y0, k > 1})
			}
		}
		best, bestCost := 0, math.Inf(1)
		for c, cd := range cands {
			cost := 0.0
			for _, b := range placed {
				cost += overlap(cd.b, b)
			}
			if cd.b.x0 < p.X.Min || cd.b.x1 > p.X.Max || cd.b.y0 < p.Y.Min || cd.b.y1 > p.Y.Max {
				cost += w * h
			}
			if cost < bestCost-1e-12 {
				best, bestCost = c, cost
			}
			if cost == 0 {
				break
			}
		}
		cd := cands[best]
		placed = append(placed, cd.b)
		if cd.far {
			cx := math.Max(cd.b.x0, math.Min(xs[i], cd.b.x1))
			cy := math.Max(cd.b.y0, math.Min(ys[i], cd.b.y1))
			p.Add(line([]float64{xs[i], cx}, []float64{ys[i], cy}, color.Gray{Y: 120}, 0.4))
		}
		lab := labels([]float64{cd.ax}, []float64{cd.ay}, []string{texts[i]}, size)
		lab.TextStyle[0].XAlign = draw.XLeft
		lab.TextStyle[0].YAlign = draw.YBottom
		p.Add(lab)
	}
}
